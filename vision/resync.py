"""Re-synchronising the game with the table when vision missed or misread something.

One missed or misread die early in a game leaves the rules engine waiting for something that already happened
(a roll, a placement, a card turned up), and from then on nothing the camera sees can be applied. ``Resync``
(the part of ``vision.interpret.Interpreter`` that does this) keeps what the tracker's changes say of the table
(dice on chips, where cards lie) and, when a change has waited ``wait_s`` for the game, looks for the simplest
story that makes the game agree with the table, each step tried on a copy of the game first:

- a roll missed: dice settle on chips while the game waits for a roll. The roll is the loose dice seen since the
  game last moved (given up meanwhile too, if they landed together) plus the dice on chips that no loose die
  accounts for (``infer_roll``; faint readings on chips left out, least sure first, while it does not fit the
  bag), once all its dice are seen (``roll_patience_s``; ``max_fillers`` dice may be stand-ins, replaced as they
  are seen);
- a roll misread: a die settles on a chip that the roll does not hold. The roll is corrected (``fix_roll``,
  ``Referee.correct``) with a die not yet placed read as the die on the chip: a stand-in die, else a die of its
  colours (a face misread), else one with its face (a colour misread), else the die just picked up from the roll
  area, so long as the placement is then legal and the choice is no guess between two dice;
- a card missed or never recognised: play goes on (dice settle, a roll lands) while the game waits for a card,
  or an unknown card (a role card too) is dealt or drawn as a spark. A stand-in card (unseen, of that type, that
  keeps the deal as it is) is reported, and a question asked; if the stand-in itself turns up later, it is
  swapped for another; if a die later names the card it lies on (the layout named the card since), the stand-in
  is corrected to it; a leader's stand-in role that rolls one die more than it allows is the Logistics
  Specialist's (``Interpreter._one_die_more``). An unknown card turning up where a named card left moments
  before is that card again, no card dealt (``Interpreter._back_where_it_lay``). A die lying on an unknown card
  lies on its stand-in, and the unknown card seen leaving under its stand-in's name is gone from its place;
- a die the card layout put on no chip: a loose die lying on a player's card while the roll is distributed is
  placed on the one empty chip of that card that takes it (not at once: a die is seen loose for a moment as it
  is put down), also when the card leaves (defused) with chips the game holds empty;
- a card defused as its last die went down: a player's card leaves with chips the game holds empty while dice of
  the roll lately lifted from the roll area are seen nowhere. They are placed on it when exactly one choice of
  them completes it (the hand that put the last die down hid it until the card was taken);
- a ``done`` that was not: a die of the roll settles on a chip while the game waits for unused dice rolled again
  (``done`` has no visible sign; it was inferred from a die that seemed rolled again), or a player's card leaves
  with chips the game holds empty that exactly one choice of the roll's dice left over fills. It is taken back,
  with what followed it (``_undo_done``); if a card was defused since (as cards are once the dice are all placed)
  and the roll's one die left over completes the leaving card, the ``done`` was that die put down unseen and is
  corrected to its placement (``_done_was_the_last_die``);
- an unused die misread as it was rolled again: a return the rules refuse as unlike it, lifted after it was seen
  rolled, gives it the returned die's face, unless the returned die was read less surely (in its roll and on its
  chip) than the unused die: then the returned die had the unused die's face (``_returned_misread``); a reading of
  it again where it lies corrects it too, if every other report stands; a die of its colours lifted and landing
  before any return it owes was made was rolled again only then, the first time only moved (``_rolled_again_late``);
- dice left over: the next roll lands while the game still holds dice of the last one, or an unused die is rolled
  again while dice lifted from the roll area are seen nowhere. Each is placed where the table shows a die of its
  colours on a chip the game holds empty, else on the one chip that takes it of a card where a die of its
  colours lies loose (``_on_its_card``), else (``guess_leftovers``) on the first empty chip that takes it. So are
  the dice left over that the table shows on such chips when a completed card leaves to be defused (a die read
  there before the roll held it, or misread as it landed), rather than a ``done`` inferred (``_shown_leftovers``);
- a change seen before the game wanted it (a die returned before the unused die was seen rolled again, a roll
  that landed before the sparks owed were seen drawn) is given up, then judged again, once, when the game's task
  changes (``Interpreter._rejudge``, ``rejudge_s``);
- a card defused early: play goes on while the game waits for completed cards defused, and a completed card was
  seen leaving before the game wanted it (its last die only inferred later). Its leaving, and a row card seen
  moving since the turn's roll, are judged again: the defuse;
- a deal named out of order: the first row's cards do not lie in a line, and swapping one or two of them with
  as many cards dealt to one player makes one (``_straighten_row``). The layout named a player's far, small cards
  after some of the row's, and the deal went by that order: the deal and the reveals are corrected;
- anything else missed before the next roll: the next roll (a whole roll of dice) lands while the game waits for
  something none of the above explains (an unused die rolled again, the dice returned for it, a card defused, all
  unseen). The fewest actions the game takes to reach the roll (at most ``catch_up_actions``) that leave its dice
  on chips most like the table's are taken as what happened, dated by what the table showed (``_catch_up``:
  placements where the table shows such a die, returns of dice the table no longer shows, defuses of cards gone
  from the table, an unused die's new face any of six);
- look-alikes: a loose "die" lying alone before the first roll (a look-alike object), or apart from the roll's
  heap, is no die of the game (until a die lands on its spot in a heap with others: a roll's), nor is a die read
  on a chip before any roll landed (the card's print), nor one read on a chip printed with exactly that die while
  no die of its colours is in play (``_exact_print``); an unknown card turning up where one of its type was taken
  as no card is that object again (``Interpreter._not_a_card_again``); loose dice turning up where dice of their
  colours were lifted since the roll (put back, or read again) are no roll landing (``_where_one_was_lifted``);
- a die seen on two chips: a die the game holds on a chip read again surely as another die while the table shows
  the held die on the card's one other empty chip was taken on the wrong chip as it was put down; its placement
  moves there, the new reading judged as a die settling (``_taken_on_its_twin``).

Whatever is inferred is reported (the referee's log says what the game took to have happened) and noted
(``Interpreter.notes``); the interpreter then counts the game as out of step with the table for ``doubt_s``, and
whenever its dice on chips differ from the table's (``Resync._in_step``): an action the rules refuse then is a
question, not a violation.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from itertools import combinations, permutations
from math import atan2, cos, inf, sin
from typing import TYPE_CHECKING, Any

from rules import actions as A
from rules.dice import Die
from rules.errors import IllegalActionError, RulesError
from rules.game import State
from rules.notation import Chip, Layout
from rules.referee import Event, Referee
from vision.observation import Point, colours
from vision.tracker import Change

Correct = Callable[[int, str], object]
"""A way to correct a report of a game: ``(report index, corrected action)``."""

if TYPE_CHECKING:
    from collections import deque

    from vision.interpret import Confirm, InterpreterSettings, Zones


def face(die: str) -> str:
    return die[len(colours(die)):]


def latest_roll(referee: Referee) -> Event | None:
    """The latest accepted roll: this turn's."""
    return next((e for e in reversed(referee.events) if not e.undone and e.accepted
                 and e.action.startswith("roll ")), None)


def last_roll(referee: Referee) -> Event | None:
    """The roll being distributed: the latest accepted roll, if nothing has ended its distribution since."""
    roll = latest_roll(referee)
    if roll is None or any(not e.undone and e.action.startswith(("done", "unused", "roll "))
                           for e in referee.events[roll.index + 1:]):
        return None
    return roll


def dice_on_chips(state: State) -> dict[tuple[str, int], str]:
    """(card, chip) -> the die the game holds there, on every player's cards."""
    return {(cip.id, k): str(die) for area in state.players for cip in area.cards for k, die in cip.physical.items()}


def _within(held: list[tuple[str, ...]], seen: list[tuple[str, ...]]) -> bool:
    """Whether the dice ``seen`` bottom up on a stack are those ``held`` there bottom up, some perhaps hidden."""
    rest = iter(held)
    return all(any(die == other for other in rest) for die in seen)


def copy_of(referee: Referee) -> Referee:
    return Referee.from_dict(referee.to_dict())


def takes(referee: Referee, actions: list[str]) -> bool:
    """Whether the game takes ``actions`` one after the other (tried on a copy)."""
    state = referee.state.clone()
    return all(applied(state, action) for action in actions)


def applied(state: State, action: str) -> bool:
    """Whether ``state`` takes ``action``, applied to it if so."""
    try:
        state.apply_action(A.parse_action(action))
    except (IllegalActionError, RulesError):
        return False
    return True


def fix_roll(referee: Referee, die: str, card: str, chip: int, picked: list[str],
             fillers: list[str] | None = None) -> tuple[int, str] | None:
    """(roll event index, corrected roll action) after which ``place die card:chip`` is legal, or None.
    ``picked``: dice lately taken from the roll area as the tracker read them, latest last; ``fillers``: dice of
    an inferred roll that nothing showed (``infer_roll``), replaced first."""
    if referee.state.phase != "distribute":
        return None
    roll = last_roll(referee)
    if roll is None:
        return None
    remaining = [str(d) for d in referee.state.roll]
    dice = roll.action.split()[1:]
    same_colour = [d for d in remaining if colours(d) == colours(die)]
    same_face = [d for d in remaining if face(d) == face(die)]
    lifted = [d for d in reversed(picked) if d in remaining]
    filled = [d for d in fillers or () if d in remaining]
    for group in (filled[:1], same_colour, same_face, lifted, remaining if len(remaining) == 1 else []):
        ordered = list(dict.fromkeys([d for d in lifted if d in group] + [d for d in group if d not in lifted]))
        if len(ordered) > 1 and not any(d in lifted for d in ordered):
            return None  # which of them it was is a guess: asked about instead
        for old in ordered:
            if old not in dice:
                continue
            action = roll_with(roll.action, old, die)
            trial = copy_of(referee)
            try:
                trial.correct(roll.index, action)
            except RulesError:
                continue
            if judged_as_before(referee, trial, roll.index) and takes(trial, [f"place {die} {card}:{chip}"]):
                return roll.index, action
    return None


def roll_with(roll: str, old: str, new: str) -> str:
    """The roll action ``roll`` with its (first) die ``old`` read as ``new``."""
    dice = roll.split()[1:]
    dice[dice.index(old)] = new
    return "roll " + " ".join(dice)


def judged_as_before(referee: Referee, trial: Referee, *corrected: int) -> bool:
    """Whether the corrections of the reports at ``corrected`` in ``trial`` are accepted and every other report is
    judged as before (a correction must not turn an accepted placement into a refused one). Each correction
    follows the report it replaces (``Referee.correct``), which moves the reports after it down one."""
    def now(index: int) -> int:
        return index + sum(c < index for c in corrected)

    return all(trial.events[now(c) + 1].accepted for c in corrected) and all(
        trial.events[now(i)].accepted == e.accepted for i, e in enumerate(referee.events) if i not in corrected)


def infer_roll(wanted: int, loose: list[str], placed: list[str], bag: dict[str, int]) -> tuple[list[str], list[str]]:
    """The roll from the loose dice seen since the game last moved and the dice seen settling on chips: each
    placed die is one of the loose dice if it is there, else a die of the roll the camera missed (loose dice
    beyond ``wanted`` are left out, the latest first). Short of ``wanted``, the roll is filled with dice of the
    colours the bag holds most of (``bag``: colours -> count), faces unknown (1): (roll, the fillers), the fillers
    to be corrected as their dice are seen (``fix_roll``)."""
    spare = list(loose)
    roll = []
    for die in placed:
        if die in spare:
            spare.remove(die)
        roll.append(die)
    roll = roll[:wanted] + spare[:max(0, wanted - len(roll))]
    left = dict(bag)
    for die in roll:
        if left.get(colours(die), 0) > 0:
            left[colours(die)] -= 1
    fillers = []
    while len(roll) + len(fillers) < wanted:
        most = max(sorted(left), key=lambda c: left[c], default=None)
        if most is None or left[most] <= 0:
            break
        left[most] -= 1
        fillers.append(f"{most}1")
    return roll + fillers, fillers


SET_ASIDE_LOOKALIKES = 2
"""An unknown card gone again in the deal is taken for the card it looks most like, set aside, only when it looks
like this many known cards at most (``Resync._set_aside_unnamed``): a card half under another in the pile of cards
set aside looks like many, and the first of them is rarely the card."""


class Resync:
    """The interpreter's re-synchronisation with the table (``vision.interpret.Interpreter`` is one): what it
    keeps of the table, and the steps above. The attributes are the interpreter's."""

    referee: Referee
    settings: InterpreterSettings
    zones: Zones
    notes: list[str]
    confirms: list[Confirm]
    _learn_zones: bool
    _pending: list[Change]
    _left: list[Change]
    _picked_up: deque[Change]
    _lay_off_chips: list[tuple[Change, str]]
    _now: tuple[int, float]
    _arrived: dict[int, float]
    _fillers: list[str]
    _table: dict[tuple[str, int], str]
    _faint: set[tuple[str, int]]
    _lost: dict[tuple[str, int], list[tuple[str, float]]]
    _gone_early: list[Change]
    _judged_again: list[Change]
    _unseen_stand_ins: set[str]
    _stand_ins: dict[str, str]
    _back: dict[str, str]
    _looks: dict[str, str]
    _resembles: dict[str, tuple[str, ...]]
    _turned_up: dict[str, float]
    _cards_at: dict[str, tuple[Point, float, float]]
    _doubt_until: float
    _reread_on_chips: list[Change]
    _landed: bool
    _printed: dict[tuple[str, int], str]
    _turned_up: dict[str, float]
    _laid: dict[str, tuple[Point, float]]
    _renamed: dict[str, float]
    _given_up: list[Change]
    row_off_line: float | None
    _static: list[Point]
    _lying: list[Change]
    _refused: list[tuple[int, str, str, int]]

    # the interpreter's own steps, used here
    state: State
    _done: Any
    _ask: Any
    _report: Any
    _doubted_refusal: Any
    _trial: Any
    _owner: Any
    _held: Any
    _chip_die: Any
    _infer_unseen: Any
    _game_time: Any
    _learn_deal: Any
    _spark_drawer: Any
    correct: Any
    _unfit_inferences: Any
    _renumber: Any

    def remember(self, changes: list[Change]) -> list[Change]:
        """What the interpreter keeps of the table from each frame's changes (the dice on chips, where cards lie),
        and the changes left once look-alikes are dropped and unknown cards named as their stand-ins."""
        names = self._stand_ins | self._back
        seen = self._not_static(changes)
        changes = [replace(c, card=names[c.card]) if c.card in names else c for c in seen]
        for was, c in zip(seen, changes):
            if c.kind == "die+":
                self._table[(c.card, c.chip)] = c.die
                if c.confidence < self.settings.min_confidence:
                    self._faint.add((c.card, c.chip))
                else:
                    self._faint.discard((c.card, c.chip))
            elif c.kind == "die-":
                self._table.pop((c.card, c.chip), None)
                self._faint.discard((c.card, c.chip))
                self._lost.setdefault((c.card, c.chip), []).append((c.die, c.elapsed))
            elif c.kind == "loose+" and not c.brief:
                self._lying.append(c)
            elif c.kind == "loose-":
                same = [k for k in self._lying if k.die == c.die]
                if same:
                    self._lying.remove(min(same, key=lambda k: dist(k.where, c.where)))
            if c.kind == "card+":
                self._turned_up.setdefault(c.card, c.elapsed)
            if c.kind in ("card+", "card>") and c.size:
                self._cards_at[c.card] = (c.where, c.size, float("inf"))
            elif c.kind == "card-":
                for card in {was.card, c.card} & self._cards_at.keys():  # (an unknown card's place, by either name)
                    self._cards_at[card] = (*self._cards_at[card][:2], c.elapsed)
        return changes

    def _not_static(self, changes: list[Change]) -> list[Change]:
        """A loose die seen alone before anything was rolled is no die of the game (the game's are in the bag): its
        spot is remembered, and whatever a loose die does there later is ignored, but for a die landing there in a
        heap with others (a roll's: the spot is forgotten). A die seen on a chip then, or
        from the moment its card turned up, is the card's print, and that reading on that chip is ignored from
        then on."""
        arrived = [c for c in changes if c.kind == "loose+" and not c.brief]
        if len(arrived) == 1 and self.state.phase in ("deal", "reveal", "role") and not any(
                e.accepted and e.action.startswith("roll ") for e in self.referee.events if not e.undone):
            self._static.append(arrived[0].where)  # (dice landing together are a roll: a card missed before it)
        reach = self.settings.static_px
        kept = []
        if len(arrived) >= 2:
            self._landed = True  # dice landing together: a roll (whether or not the game has taken it)
        before_play = not self._landed and self.state.phase in ("deal", "reveal", "role") and not any(
            e.accepted and e.action.startswith("roll ") for e in self.referee.events if not e.undone)
        self._turned_up.update({c.card: c.elapsed for c in changes if c.kind == "card+"})
        lifting = [c for c in changes if c.kind == "loose-" and self._card_under(c) is None]  # (not yet in _left)
        for c in changes:
            with_card = c.kind == "die+" and c.elapsed - self._turned_up.get(c.card, -inf) <= self.settings.print_s
            if c.kind in ("die+", "die-") and (before_play or with_card or self._print_again(c, lifting)
                                              or self._exact_print(c)):
                if c.kind == "die+":  # a die on a chip before anything was rolled: the card's print read as a die
                    self._printed[(c.card, c.chip)] = c.die
                self.notes.append(f"{c.kind} {c.die} on {c.card}:{c.chip} at {c.elapsed:.2f} s: the card's print")
                continue
            spots = [p for p in self._static if dist(c.where, p) <= reach]
            if spots and c in arrived and any(self._landed_with(c, d) for d in arrived):
                # landing in a heap with others: a roll's die, where a die once lay
                self._static = [p for p in self._static if p not in spots]
            elif c.kind in ("loose+", "loose-") and spots:
                self.notes.append(f"{c.kind} {c.die} at {c.elapsed:.2f} s: where a loose die lay before the game")
                continue
            kept.append(c)
        return kept

    def _landed_with(self, die: Change, other: Change) -> bool:
        """Whether the loose die ``die`` landed in a heap with ``other``: near it, or a little further off as they
        landed at the same moment (unseen5 h3s1002's roll, its dice 68-84 px apart)."""
        apart, heap = dist(die.where, other.where), self.settings.heap_px
        return 0 < apart <= heap or other is not die and other.elapsed == die.elapsed and apart <= 1.5 * heap

    def _print_again(self, change: Change, lifting: list[Change]) -> bool:
        """The card's print read on its chip again: the same die, or one of its colours when no die of them was
        lately picked up from the roll area, nor is being (``lifting``, seen in the same frame: unseen4 h2s801's
        blue3 put on F-G15's ``[blue3]``) (a print's face is read variously; a die put there came from the roll)."""
        printed = self._printed.get((change.card, change.chip))
        if printed is None or colours(printed) != colours(change.die):
            return False
        return printed == change.die or not any(colours(c.die) == colours(change.die)
                                                for c in [*self._left, *lifting])

    def _exact_print(self, change: Change) -> bool:
        """A die read on a chip printed with exactly that die (``[black3]``) while neither the roll nor the dice
        lately picked up from the roll area hold a die of its colours: the print, drawn as a die, read as one."""
        if change.kind != "die+" or not self._printed_as(f"place {change.die} {change.card}:{change.chip}"):
            return False
        return not any(colours(d) == colours(change.die) for d in [*map(str, self.state.roll),
                                                                     *(c.die for c in self._left)])

    def _resync(self, change: Change) -> bool:
        """A change that has waited ``wait_s`` for the game: infer what the table shows happened and vision missed
        (see ``vision.resync``); True if the game moved on."""
        if self.state.is_terminal():
            return False
        if (change.kind == "die+" and not self._back_on_its_chip(change) or change.kind == "loose+"
                and self._heap(change)) and self.state.tasks[0][0] in ("deal", "reveal"):
            # play goes on while the game waits for a card: vision missed one turned up
            kind = "fuse" if self.state.tasks[0][1:2] == ("fuse",) else "bomb"
            if self._stand_in(replace(change, kind="card+", card="?", type=kind)) is None:
                return False
            self.notes.append(f"a card turned up unseen before {change.elapsed:.2f} s")
            return True
        if change.kind == "loose+" and self._heap(change) and self.state.phase not in ("roll", "name", "six"):
            # the next roll lands while the game waits for something else
            task = self.state.phase
            if task == "spark":
                return self._sparks_drawn_unseen(change)  # (the sparks' own rule: no catching up past it)
            return (task == "distribute" and self._place_leftovers(change)
                    or task == "defuse" and (self._defused_early() or self._completed_by_a_print(change))
                    or task == "lose" and self._unused_owes_less(change)
                    or self._catch_up(change))
        if change.kind == "die+" and self.state.tasks[0][0] in ("unused", "lose", "spark"):
            return self._retract_done(change)
        if change.kind == "die+" and self.state.tasks[0][0] in ("roll", "name"):
            return self._infer_roll(change)
        if change.kind == "loose+" and self._may_place(change) and (card := self._card_under(change)) is not None:
            return self._loose_on_card(change, card)
        if change.kind in ("card-", "card>") and self._owner(change.card) is not None:
            return self._set_aside_instead(change) or self._card_left_unfinished(change)
        if self.state.phase == "defuse":
            return self._defused_early()
        return False

    def _back_on_its_chip(self, change: Change) -> bool:
        """Whether ``change`` (a ``die+``) is the die seen gone from that chip within ``wait_s`` before: a hand passed
        over it, no play going on."""
        return any(die == change.die and 0 <= change.elapsed - gone <= self.settings.wait_s
                   for die, gone in self._lost.get((change.card, change.chip), ()))

    def _catch_up(self, change: Change) -> bool:
        """The next roll lands while the game waits for something that none of the stories above explains: the
        actions (``_catch_up_options``, at most ``catch_up_actions``) that take the game to the roll leaving its dice
        on chips most like the table's, the fewest such, are taken to have happened unseen (a last resort:
        reported, noted, doubted)."""
        if change.elapsed <= self._rolled_at():
            return False  # dice seen before the game's last roll (given up, judged again): no next roll
        whole = min(self.state.config.dice_per_roll, sum(self.state.bag.values()) + len(self.state.roll))
        if len(self._heap(change, given_up=True)) < whole:
            return False  # fewer dice than a roll: unused dice rolled again, or a roll not all seen
        best: tuple[tuple[int, int], list[A.Action]] | None = None
        nodes = self.settings.catch_up_nodes

        def search(state: State, path: list[A.Action]) -> None:
            nonlocal best, nodes
            if state.phase in ("roll", "name"):
                key = (self._unlike_table(state), len(path))
                if best is None or key < best[0]:
                    best = (key, path)
                return
            if len(path) >= self.settings.catch_up_actions:
                return  # a longer story than this is no likelier than a game lost from sight
            for action in self._catch_up_options(state):
                if nodes <= 0 or best is not None and best[0] <= (0, len(path)):
                    return  # (a path no longer than this one already left the game just like the table)
                nodes -= 1
                trial = state.clone()
                try:
                    trial.apply_action(action)
                except (IllegalActionError, RulesError):
                    continue
                search(trial, [*path, action])

        search(self.state.clone(), [])
        if best is None:
            return False
        self._doubt(change)
        shown = self._shown_along(best[1], change.elapsed)
        for _, by in shown:  # explained, so never judged again (an unused die's landing as a die of the next roll)
            for kept in (self._pending, self._given_up):
                if by in kept:
                    kept.remove(by)
        times = [at for at, _ in shown]
        shown_at = -inf
        for i, at in enumerate(times):  # what the table showed came no earlier than what it showed before it (a
            if at < change.elapsed:     # die looking gone under a hand before the unused die it answers landed)
                times[i] = shown_at = max(at, shown_at)
        for i in reversed(range(len(times) - 1)):
            times[i] = min(times[i], times[i + 1])  # (what came before happened no later)
        seen = self._turned_up_waiting()
        for action, at in zip(best[1], times):
            self._report(replace(change, elapsed=at, confidence=0.0), str(action))
            if isinstance(action, (A.Deal, A.DealRole, A.Reveal, A.DrawSpark)) and action.card not in seen:
                self._unseen_stand_ins.add(action.card)  # a card turned up unseen: a stand-in
        self.notes.append(f"{', '.join(map(str, best[1]))}: inferred at {change.elapsed:.2f} s, the next roll "
                          f"landing ({best[0][0]} chips unlike the table)")
        return True

    def _shown_along(self, path: list[A.Action], landed: float) -> list[tuple[float, Change | None]]:
        """``_shown_by`` for each action of ``path``, taken in turn from the game now. A return nothing showed was
        made after the unused die it answered landed and before that die went back in the bag (its first lift from
        the roll area since): it is dated midway, the least that date can be wrong (unseen4 s804's return of
        F-G28:2 and probe12 h2s2001's of F-G25:2, neither die ever seen on its chip)."""
        state, start = self.state.clone(), self.settings.clock_start
        unused = [e.elapsed + start for e in self.referee.events if not e.undone and e.action.startswith("unused ")]
        since = max(unused, default=-inf)
        shown = []
        for action in path:
            at, by = self._shown_by(action, landed)
            bag = next((task[1] for task in state.tasks if task[0] == "bag"), None)
            if isinstance(action, A.Return) and by is None and at == landed and bag is not None:
                bagged = min((c.elapsed for c in self._picked_up if colours(c.die) == colours(str(bag))
                              and not c.turned and since <= c.elapsed < landed), default=None)
                if bagged is not None:
                    at = (since + bagged) / 2 if since > -inf else bagged
            since = at if isinstance(action, A.RollUnused) else since
            state.apply_action(action)
            shown.append((at, by))
        return shown

    def _shown_by(self, action: A.Action, landed: float) -> tuple[float, Change | None]:
        """When the table showed ``action`` (a die gone from its chip, a die settled there, a card gone, an unused
        die landing again), by the latest change given up or still waiting from before the roll ``landed`` (with
        that change), or since the game's last roll by a sighting the rules refused then, the game being behind
        (probe12 h2s2001's return of p2's yellow2 while the game still waited for p1's return), or by a report of it
        taken back since (unseen4 h2s801's black3 on F-G15:2); else then."""
        changes = self._pending + self._given_up
        if isinstance(action, A.RollUnused):
            rolled = self._rolled_at()
            shown = [c for c in changes if c.kind == "loose+" and colours(c.die) == colours(str(action.die))
                     and rolled <= c.elapsed < landed]
        elif isinstance(action, (A.Return, A.Place)):
            kind = "die-" if isinstance(action, A.Return) else "die+"
            shown = [c for c in changes if c.kind == kind and (c.card, c.chip) == (action.card, action.chip)
                     and c.elapsed < landed]
        elif isinstance(action, A.Defuse):
            shown = [c for c in changes if c.kind == "card-" and c.card == action.card and c.elapsed < landed]
        else:
            return landed, None
        latest = max(shown, key=lambda c: c.elapsed, default=None)
        sighted = self._sighted(str(action), landed)
        if sighted is not None and (latest is None or sighted > latest.elapsed):
            return sighted, None
        return (latest.elapsed, latest) if latest is not None else (landed, None)

    def _sighted(self, action: str, until: float) -> float | None:
        """The latest time since the game's last roll and before ``until`` that vision saw ``action`` but the game
        did not keep it: a sighting the rules refused (asked about), or a report of it taken back since."""
        start, rolled = self.settings.clock_start, self._rolled_at()
        times = [q.elapsed + start for q in self.confirms if q.action == action]
        times += [e.elapsed + start for e in self.referee.events if e.undone and e.action == action]
        return max((t for t in times if rolled <= t < until), default=None)

    def _return_seen_late(self, change: Change) -> None:
        """A die seen leaving its chip only after the game inferred its return at the next roll's landing (nothing
        had shown it yet): the return is moved back to when the die left, where the game takes it there just as
        well (probe2 h2s901's red1, lifted from F-004:3 at 88.7 s under a hand, seen gone 10 s later)."""
        action, at = f"return {change.card}:{change.chip}", self._game_time(change.elapsed)
        on_chip = [e for e in self.referee.events if not e.undone and e.action.startswith(("place ", "return "))
                   and e.action.endswith(f" {change.card}:{change.chip}")]
        if len(on_chip) < 2 or on_chip[-2].elapsed >= at:
            return  # (the placement it undoes came before the die was seen leaving)
        inferred = on_chip[-1]
        if inferred.action != action or inferred.confidence != 0.0 or inferred.elapsed <= at:
            return
        if self._redate(inferred.index, at):
            self.notes.append(f"{action}: inferred at {inferred.elapsed:.2f} s, seen at {at:.2f} s")

    def _redate(self, index: int, at: float) -> bool:
        """Report ``index`` moved to game time ``at`` (``Referee.redate``), the reports kept by index following; False
        if the game takes it only where it was."""
        moved = self.referee.redate(index, at)
        if moved:
            self._renumber(moved)
        return moved is not None

    def _catch_up_options(self, state: State) -> list[A.Action]:
        """What ``_catch_up`` tries next: placements where the table shows such a die, ``done``, the returns of
        dice the table no longer shows first, defuses of cards gone from the table taking a row card gone too (or
        never named), an unused die rolled again with any face (its old face first), a card turned up that was seen
        (else an unseen one)."""
        legal, kind = state.legal_actions(), state.phase
        if kind == "distribute":
            return [a for a in legal if isinstance(a, A.Done) or isinstance(a, A.Place)
                    and colours(self._table.get((a.card, a.chip), "")) == colours(str(a.die))]
        if kind == "lose":
            return sorted(legal, key=lambda a: (a.card, a.chip) in self._table)  # type: ignore[attr-defined]
        if kind == "defuse":  # the card gone from the table, and the row card it takes (never seen, or gone)
            return [a for a in legal if isinstance(a, A.Defuse) and not self._on_table(a.card)
                    and not (a.take and self._on_table(a.take))]
        if kind == "unused":
            return sorted(legal, key=lambda a: a.die != state.tasks[0][1])  # type: ignore[attr-defined]
        if kind in ("reveal", "spark", "deal", "role"):
            seen = self._turned_up_waiting()
            cards = [a for a in legal if a.card in seen] + [  # type: ignore[attr-defined]
                a for a in legal if a.card not in self._seen_cards()]  # type: ignore[attr-defined]
            return cards[:1]
        if kind == "ability":
            return [a for a in legal if isinstance(a, A.Ready)]
        return []

    def _turned_up_waiting(self) -> set[str]:
        """The cards seen turning up that the game has not taken yet."""
        return {c.card for c in self._pending if c.kind == "card+"}

    def _on_table(self, card: str) -> bool:
        return self._cards_at.get(card, (None, None, -inf))[2] == inf

    def _unlike_table(self, state: State) -> int:
        """On how many chips of the game's cards the game's dice and the table's differ in colour."""
        game = dice_on_chips(state)
        held = {cip.id for area in state.players for cip in area.cards}
        keys = set(game) | {k for k in self._table if k[0] in held}
        return sum(colours(game.get(k, "")) != colours(self._table.get(k, "")) for k in keys)

    def _sparks_drawn_unseen(self, change: Change) -> bool:
        """The next roll lands while the game waits for sparks owed for dice of the last roll not taken: a spark
        was drawn unseen (a stand-in, asked about). Not when the game holds that no die of the roll was taken:
        then vision missed the placements, not the sparks."""
        roll = latest_roll(self.referee)
        owed = sum(task[0] == "spark" for task in self.state.tasks)
        if roll is None or owed >= len(roll.action.split()) - 1:
            return False
        if self._stand_in(replace(change, kind="card+", card="?", type="spark")) is None:
            return False
        self.notes.append(f"a spark card drawn unseen before {change.elapsed:.2f} s")
        return True

    def _defused_early(self) -> bool:
        """Play goes on while the game waits for completed cards defused: a completed card of a player seen leaving
        before the game wanted it (its last die inferred only later) was defused then, taking a row card seen
        moving since the turn's roll. Those changes are judged again (once)."""
        complete = {c.id for area in self.state.players for c in area.cards if c.complete}
        left = [c for c in self._gone_early if c.kind == "card-" and c.card in complete]
        if not left:
            return False
        # the row card taken for it: one seen moving since this turn's roll
        row = [c for c in self._gone_early if c.card in self.state.row and c.elapsed >= self._rolled_at()]
        self._judge_again(left + row)
        self.notes.append(f"{', '.join(c.card for c in left)} left before the game wanted it: judged again")
        return True

    def _completed_by_a_print(self, change: Change) -> bool:
        """The next roll lands while the game waits for a completed card defused that still lies on the table: when
        one die placed on it since the roll was read on a chip printed with exactly that die, it was the print read
        as a die (unseen4 h2s801's blue3 on F-G15's ``[blue3]``, the roll misread with a blue3). That placement and
        what followed are taken back, and the print is known as one. (Taking back the card's latest inferred
        placement instead lost probe12 cd2s2003 a defuse seen rightly.)"""
        complete = [c.id for area in self.state.players for c in area.cards if c.complete and self._on_table(c.id)]
        roll = latest_roll(self.referee)
        if len(complete) != 1 or roll is None:
            return False
        events = self.referee.events
        printed = [e for e in events[roll.index:] if not e.undone and e.accepted and e.action.startswith("place ")
                   and e.action.split()[2].startswith(f"{complete[0]}:") and self._printed_as(e.action)]
        if len(printed) != 1:
            return False
        later = [e.index for e in events[printed[0].index:] if not e.undone]
        for index in reversed(later):
            self.referee.undo(index)
        _, die, where = printed[0].action.split()
        card, _, chip = where.rpartition(":")
        self._printed[(card, int(chip))] = die
        self._doubt(change)
        self.notes.append(f"{card} still lies on the table as the next roll lands at {change.elapsed:.2f} s: "
                          f"{printed[0].action} was its print ({len(later)} events taken back)")
        self._roll_as_before_the_print(roll, die, printed[0].action)
        return True

    def _roll_as_before_the_print(self, roll: Event, die: str, placement: str) -> None:
        """The roll corrected to hold ``die`` (``Referee.correct`` keeps the report it replaced just before it, taken
        back) when ``placement``, the card's print read as that die, settled: read as before again, where the game
        judges every other report as before (unseen4 h2s801's blue2, corrected to blue3 by F-G15's ``[blue3]``)."""
        before = self.referee.events[roll.index - 1] if roll.index else None
        if roll.source != "correction" or before is None or not before.undone \
                or not before.action.startswith("roll ") or die in before.action.split()[1:]:
            return
        self._correct_if(lambda _, correct: correct(roll.index, before.action), f"{placement} was the print",
                         lambda trial: judged_as_before(self.referee, trial, roll.index))

    def _printed_as(self, placement: str) -> bool:
        """Whether the chip of ``placement`` is printed with exactly its die (``[black3]``), or with two dice of its
        face whose colours a split die's reading joins (``[yellow5/black5]`` read as black/yellow5: unseen5
        cd2s1003's C-G15, whose print so read corrected the roll twice)."""
        _, die, where = placement.split()
        card, _, chip = where.rpartition(":")
        rule = chip_rule(self.state, card, int(chip)) if chip.isdigit() else None
        if rule is None or not 1 <= len(rule.atoms) <= 2 or any(a.negated or a.split for a in rule.atoms):
            return False
        return {f"{a.colour}{a.number}" for a in rule.atoms} == {f"{c}{face(die)}" for c in colours(die).split("/")}

    def _straighten_row(self) -> None:
        """Once the first row is out, its cards lie in a line. When they do not (``row_line``), and swapping one or
        two of them with as many cards dealt to one player makes a line, the deal went by the order in which the
        layout named the cards, and a player's far, small cards were named after the row's: the deal and the
        reveals are corrected. So are the reveals alone when the swap is with cards lying on the table that the
        game holds nowhere (a card named too late for the deal, the row already full): the row was those
        (tried on a copy of the game first: no report may become refused)."""
        row = [c for c in self.state.row if c in self._laid]
        if len(row) < 4:
            return
        size = sorted(self._laid[c][1] for c in row)[len(row) // 2]
        line = self.settings.row_line
        self.row_off_line = round(off_line([self._laid[c][0] for c in row]) / size, 3)
        if self.row_off_line <= line[0]:
            return
        unreported = self._unreported_lying(row)
        where = {c: self._cards_at[c][0] for c in unreported} | {c: w for c, (w, _) in self._laid.items()}
        groups = [(player, [c.id for c in area.cards if c.id in self._laid])
                  for player, area in enumerate(self.state.players)]
        best: tuple[float, int | None, tuple[str, ...], tuple[str, ...]] | None = None
        for player, hand in [*groups, (None, unreported)]:
            for k in (1, 2):
                for dealt in combinations(hand, k):
                    for shown in combinations(row, k):
                        cards = [c for c in row if c not in shown] + list(dealt)
                        off = off_line([where[c] for c in cards]) / size
                        if best is None or off < best[0]:
                            best = (off, player, dealt, shown)
        if best is None or best[0] > line[1]:
            return
        _, player, dealt, shown = best
        fixes = [(f"deal p{player + 1} {d}", f"deal p{player + 1} {r}") for d, r in zip(dealt, shown)
                 if player is not None]
        fixes += [(f"reveal {r}", f"reveal {d}") for d, r in zip(dealt, shown)]

        def fix(referee: Referee, correct: Correct) -> None:
            for old, new in fixes:
                correct(_report_index(referee, old), new)

        if not self._correct_if(fix, "the row's cards lie in a line", self._no_new_violation):
            return
        for d, r in zip(dealt, shown):
            if player is not None:
                self.zones.relearn(player, self._laid[d][0], self._laid[r][0])
            self.zones.relearn("row", self._laid[r][0], where[d])

    def _deal_in_order(self, player: int) -> None:
        """Once the deal is over, the cards dealt to ``player`` are reported in the order they turned up, cards
        turning up together (named in the same frame) from the player's left, as a hand is laid out: the deal went
        by the order in which the layout named the cards, and ``_straighten_row`` put the row's cards it swapped in
        the dealt cards' places. Not when a card's time is not known, nor when the order changes the hand or the
        cards set aside (the starting-hand rule)."""
        prefix = f"deal p{player + 1} "

        def dealt(referee: Referee) -> list[Event]:
            return [e for e in referee.events if not e.undone and e.action.startswith(prefix)]

        cards = [e.action.removeprefix(prefix) for e in dealt(self.referee)]
        unknown = {v: k for k, v in self._stand_ins.items()}
        times = [self._turned_up.get(unknown.get(c, c)) for c in cards]
        seat, centre = self.zones.players.get(player), self.zones.row
        if None in times or seat is None or centre is None or not all(c in self._laid for c in cards):
            return
        left = (centre[1] - seat[1], seat[0] - centre[0])  # the player's facing direction turned to their left
        key = {c: (t, -(self._laid[c][0][0] * left[0] + self._laid[c][0][1] * left[1])) for c, t in zip(cards, times)}
        order = sorted(cards, key=key.__getitem__)
        if order == cards:
            return

        def put_in_order(referee: Referee, correct: Correct) -> None:
            for k, card in enumerate(order):
                if (slot := dealt(referee)[k]).action != prefix + card:
                    correct(slot.index, prefix + card)

        def same_hand(trial: Referee) -> bool:
            return self._no_new_violation(trial) and _hand(trial, player) == _hand(self.referee, player)

        self._correct_if(put_in_order, "the deal in the order the cards turned up", same_hand)

    def _unreported_lying(self, row: list[str]) -> list[str]:
        """Named cards of the row's kinds lying on the table now that the game has not dealt or turned up."""
        kinds = {self.state.game.card(c).kind for c in row}
        return [c for c, (_, _, gone) in self._cards_at.items()
                if gone == inf and c in self.state.game.cards and self.state.game.card(c).kind in kinds
                and any(c in source.pool for source in self.state.sources.values())]

    def _judge_again(self, changes: list[Change]) -> None:
        """Changes given up, pending again: each waits ``wait_s`` from now, as a change just seen."""
        for change in changes:
            if change in self._gone_early:
                self._gone_early.remove(change)
            self._judged_again.append(change)
            self._wait_again(change)
        self._pending.sort(key=lambda c: c.elapsed)

    def _wait_again(self, change: Change) -> None:
        """``change`` pending: it waits ``wait_s`` from now, as a change just seen."""
        self._pending.append(change)
        self._arrived[id(change)] = self._now[1]

    def _place_leftovers(self, change: Change, dice: list[str] | None = None,
                         why: str = "the next roll landing") -> bool:
        """The next roll lands while the game still holds dice of the last one (or ``dice`` of it lifted from the
        roll area are seen nowhere): where the table shows such a die on a chip the game holds empty, it was placed
        there (vision missed it, or misread it as it landed). Else (``guess_leftovers``) it lies on its card, or went
        on a stack; the rest are guessed last, on chips no evidence claimed (unseen5 p4s1005's yellow2 took the
        chip stacked on a green4 that the green4 lifted unseen went on)."""
        dice = [str(d) for d in self.state.roll] if dice is None else dice
        trial = self.state.clone()
        placed: dict[int, str | None] = {i: self._shown_on_a_chip(trial, die) for i, die in enumerate(dice)}
        if not self.settings.guess_leftovers and None in placed.values():
            return False
        for where in (lambda die: self._on_its_card(trial, die) or self._on_a_stack(trial, die),
                      lambda die: self._somewhere(trial, die)):
            for i, die in enumerate(dice):
                placed[i] = placed[i] or where(die)
        if None in placed.values():
            return False
        self._report_leftovers(change, [a for a in placed.values() if a], why)
        return True

    def _shown_leftovers(self, change: Change) -> bool:
        """A completed card leaves (to be defused) while the game still holds dice of the roll: those the table
        shows on a chip the game holds empty were put there (seen before the roll held them, or misread as they
        landed), not left unused. False if the table shows none of them."""
        trial = self.state.clone()
        actions = [a for die in [str(d) for d in self.state.roll] if (a := self._shown_on_a_chip(trial, die))]
        if not actions:
            return False
        self._report_leftovers(change, actions, f"{change.card} leaving")
        return True

    def _shown_on_a_chip(self, trial: State, die: str) -> str | None:
        """The placement of ``die`` where the table shows a die of its colours on a chip the game holds empty, if
        ``trial`` takes it (applied to it)."""
        for (card, chip), seen in sorted(self._table.items()):
            if colours(seen) == colours(die) and self._chip_die(card, chip) is None \
                    and self._printed.get((card, chip)) != seen \
                    and applied(trial, action := f"place {die} {card}:{chip}"):
                return action
        return None

    def _report_leftovers(self, change: Change, actions: list[str], why: str) -> None:
        """Leftover dice's placements inferred at ``change``, each dated when vision saw it (``_sighted``), else when
        its die was lifted from the roll."""
        self._doubt(change)
        for action in actions:
            self.notes.append(f"{action}: inferred at {change.elapsed:.2f} s from the table, {why}")
            at = self._sighted(action, change.elapsed)
            at = self._lifted_at(action.split()[1], change) if at is None else at
            self._report(replace(change, elapsed=at, confidence=0.0), action)

    def _lifted_at(self, die: str, change: Change) -> float:
        """When a die read ``die`` (else one of its colours) was last picked up from the roll area since the roll,
        before ``change`` (a die put down unseen was put down once lifted); ``change``'s time if none was seen picked
        up. For a change from before the roll (judged again), now stands for its time."""
        rolled = self._rolled_at()
        until = change.elapsed if change.elapsed >= rolled else self._now[1]
        lifts = [c for c in self._picked_up if colours(c.die) == colours(die) and not c.turned
                 and rolled <= c.elapsed < until]  # (a die read again where it lies was not lifted)
        lifts = [c for c in lifts if c.die == die] or lifts  # (that very die's lift, if read so: not another's)
        return max((c.elapsed for c in lifts), default=until)

    def _rolled_at(self) -> float:
        """When (the changes' time) the game's latest roll was seen: -inf before any."""
        roll = latest_roll(self.referee)
        return roll.elapsed + self.settings.clock_start if roll is not None else -inf

    def _on_its_card(self, trial: State, die: str) -> str | None:
        """The placement of ``die`` on the one empty chip the game takes it on of a card where a die of its colours
        lies loose (the layout put it on no chip), applied to ``trial``."""
        for lying in self._lying:
            card = self._card_under(lying) if colours(lying.die) == colours(die) else None
            held = self._held(card) if card is not None else None
            if held is None:
                continue
            options = [action for chip in held.empty_chips if (card, chip) not in self._table
                       and applied(trial.clone(), action := f"place {die} {card}:{chip}")]
            if len(options) == 1 and applied(trial, options[0]):
                return options[0]
        return None

    def _on_a_stack(self, trial: State, die: str) -> str | None:
        """The placement of ``die`` on the one empty chip the game takes it on stacked right on dice the game holds
        that the table shows of its colours or not at all (applied to ``trial``): a die on its twin shows the
        layout one die (unseen4 s804's green4 on green4), and one on another hides it (h2s801's red1 on black2)."""
        options = [f"place {die} {cip.id}:{k + 1}" for area in trial.players for cip in area.cards
                   if cip.card.layout is not None for k, beneath in cip.card.layout.supports.items()
                   if k + 1 not in cip.physical and (cip.id, k + 1) not in self._table and beneath
                   and all(b + 1 in cip.physical and colours(self._table.get((cip.id, b + 1), die)) == colours(die)
                           for b in beneath)]
        options = [a for a in options if applied(trial.clone(), a)]
        return options[0] if len(options) == 1 and applied(trial, options[0]) else None

    def _somewhere(self, trial: State, die: str) -> str | None:
        """A placement of ``die`` the game takes on an empty chip the table shows empty too (applied to ``trial``),
        not the last chip of its card: a guess that completes a card has the game wait for a defuse the table
        does not show (unseen5 p4s1005's yellow2 on F-009)."""
        for area in trial.players:
            for cip in area.cards:
                for chip in cip.empty_chips:
                    if (cip.id, chip) in self._table or len(cip.empty_chips) == 1:
                        continue
                    action = f"place {die} {cip.id}:{chip}"
                    if applied(trial, action):
                        return action
        return None

    def _retract_done(self, change: Change) -> bool:
        """A die of the roll settles on a chip while the game waits for unused dice rolled again (or, in Countdown,
        for the sparks owed for dice not taken): the ``done`` inferred before (nothing shows it; a die read as
        rolled again, the next roll landing) was wrong. It is taken back with what followed it, if the placement
        then makes sense; a card drawn since is seen turning up again, to be judged in the game as it is now."""
        def placing(trial: Referee) -> list[str]:
            die = change.die
            roll = [str(d) for d in trial.state.roll]
            if die not in roll:
                alike = [d for d in roll if colours(d) == colours(die)]
                die = alike[0] if len(alike) == 1 else die
            action = f"place {die} {change.card}:{change.chip}"
            return [action] if takes(trial, [action]) else []

        if not self._undo_done(change, placing):
            return False
        self.notes.append(f"{change.die} settled on {change.card}:{change.chip} at {change.elapsed:.2f} s: "
                          "the distribution was not over")
        return True

    def _completed_after_done(self, change: Change, cip: Any) -> bool:
        """A player's card left the table with chips the game holds empty after the ``done`` inferred before (the
        last die was put down under the hand that took the card): the ``done`` is taken back (``_undo_done``) when
        exactly one choice of the roll's dice left over completes the card, and they are placed."""
        actions = self._undo_done(change, lambda trial: _completion(trial, cip, [str(d) for d in trial.state.roll]))
        if not actions:
            return self._done_was_the_last_die(change, cip)
        for action in actions:
            self.notes.append(f"{action}: inferred at {change.elapsed:.2f} s, the card leaving with it after the "
                              "distribution seemed over")
            self._report(replace(change, elapsed=self._lifted_at(action.split()[1], change), confidence=0.0), action)
        return bool(actions)

    def _done_was_the_last_die(self, change: Change, cip: Any) -> bool:
        """As ``_completed_after_done``, but cards were defused since the ``done``, as they are once the dice are all
        placed: the roll's one die left over completes the card, so the ``done`` was that die put down unseen. The
        ``done`` is corrected to its placement, the sparks drawn for it as a die not taken judged again, when the
        game then takes every other report since."""
        events = self.referee.events
        done = _latest_done(self.referee)
        if done is None:
            return False
        later = [e for e in events[done.index + 1:] if not e.undone]
        before = copy_of(self.referee)
        for event in reversed(later):
            before.undo(event.index)
        before.undo(done.index)
        left = [str(d) for d in before.state.roll]
        actions = _completion(before, cip, left)
        if len(left) != 1 or len(actions) != 1:
            return False
        sparks = [e for e in later if e.action.startswith("spark ")]

        def corrections(referee: Referee, correct: Correct) -> None:
            for event in reversed(sparks):
                referee.undo(event.index)
            correct(done.index, actions[0])

        if not self._correct_if(corrections, f"{cip.id} left the table at {change.elapsed:.2f} s one die short: the "
                                             "distribution ended with its last die, not a done",
                                lambda trial: judged_as_before(self.referee, trial, done.index)):
            return False
        self._spark_drawn_again(sparks)
        self._doubt(change)
        self._redate_to_lift(actions[0], change)
        return True

    def _redate_to_lift(self, action: str, change: Change) -> None:
        """The placement ``action``, put in the log in place of a report it corrected (and so at that report's
        time), dated when its die was lifted from the roll, where the game judges every report there as before
        (fresh cd3s206's red6, lifted 3.7 s before the ``done`` it corrects)."""
        fix = next((e for e in reversed(self.referee.events) if e.action == action and not e.undone), None)
        lifted = self._game_time(self._lifted_at(action.split()[1], change))
        if fix is not None and lifted < fix.elapsed:
            self._redate(fix.index, lifted)

    def _spark_drawn_again(self, sparks: list[Event]) -> None:
        """Spark cards whose drawing was taken back wait to be judged again, as cards just seen turning up."""
        for event in sparks:
            self._wait_again(Change("card+", event.frame or 0, event.elapsed + self.settings.clock_start,
                                    event.action.split()[-1], type="spark"))

    def _undo_done(self, change: Change, placing: Callable[[Referee], list[str]]) -> list[str]:
        """The latest ``done`` (no roll since, nor a card defused) and what followed it taken back when the game
        would then take ``placing``'s placements (an empty list: it would not): those placements. A spark drawn since
        waits to be judged again, as a card just seen turning up."""
        events = self.referee.events
        done = _latest_done(self.referee)
        if done is None:
            return []
        later = [e.index for e in events[done.index:] if not e.undone]
        if any(events[i].action.startswith("defuse ") for i in later):
            return []  # a card seen leaving since: the distribution was over
        trial = copy_of(self.referee)
        for index in reversed(later):
            trial.undo(index)
        actions = placing(trial)
        if not actions:
            return []
        for index in reversed(later):
            self.referee.undo(index)
        self._spark_drawn_again([events[i] for i in later if events[i].action.startswith("spark ")])
        self._doubt(change)
        self.notes.append(f"the distribution was not over at {change.elapsed:.2f} s: {len(later)} events taken back")
        return actions

    def _set_aside_instead(self, change: Change) -> bool:
        """A card of a player's starting hand leaves the table before the first roll while a card dealt to that
        player and set aside by the starting-hand rule still lies there: the cards set aside are the ones taken away
        as the deal ends, so the two were dealt the other way round (the camera named them in the order it made them
        out). Their deals are swapped if the game then sets the leaving card aside and takes every report."""
        owner = self._owner(change.card)
        if latest_roll(self.referee) is not None or owner is None:
            return False

        def hand(state: State) -> list[str]:
            return [c.id for c in state.players[owner].cards]

        deals = [e for e in self.referee.events if not e.undone and e.action.startswith(f"deal p{owner + 1} ")]
        leaving = next((e for e in deals if e.action.split()[-1] == change.card), None)
        if leaving is None:
            return False
        for aside in [e for e in deals if e.action.split()[-1] not in hand(self.state)]:
            card = aside.action.split()[-1]
            if self._cards_at.get(card, (None, None, -inf))[2] < change.elapsed:
                continue  # gone too
            if self._correct_all([(leaving.index, aside.action), (aside.index, leaving.action)],
                                 f"{change.card} left the table at {change.elapsed:.2f} s as the deal ended, {card} "
                                 "stays: set aside the other way round",
                                 lambda trial, card=card: card in hand(trial.state)
                                 and change.card not in hand(trial.state)
                                 and all(e.accepted for e in trial.events if not e.undone)):
                return True
        return False

    def _card_left_unfinished(self, change: Change) -> bool:
        """A card of a player left the table with chips the game holds empty: the dice seen on it on no chip are
        placed (``_loose_on_card``); if it is then complete, it was defused, else a question."""
        for c in [c for c in self._pending if c.kind == "loose+" and self._may_place(c)
                  and self._card_under(c) == change.card]:
            self._loose_on_card(c, change.card)
        card = self._held(change.card)
        if card.complete or self._complete_from_roll(change, card) or self._completed_after_done(change, card):
            return True  # ``_step`` defuses it now
        if change.kind == "card>":
            return False
        self._done(change)
        self._doubt(change)
        self._ask(change, f"{change.card} left the table at {change.elapsed:.2f} s with empty chips: "
                          "defused, or only hidden?")
        return True

    def _complete_from_roll(self, change: Change, cip: Any) -> bool:
        """A player's card left unfinished while dice of the roll that were lately picked up from the roll area are
        seen nowhere: they went onto its empty chips and the card was defused at once (the hand that put the last
        die down hid it until the card was taken). Placed when exactly one choice of them completes the card."""
        if self.state.phase != "distribute":
            return False
        lifted = self._lifted_unseen()
        actions = _completion(self.referee, cip, list(lifted))
        if not actions:
            return False
        self._doubt(change)
        for action in actions:
            self.notes.append(f"{action}: inferred at {change.elapsed:.2f} s, the card leaving with it seen nowhere")
            at = min(change.elapsed, lifted[action.split()[1]].elapsed)  # put down once lifted
            self._report(replace(change, elapsed=at, confidence=0.0), action)
        return True

    def _lifted_unseen(self) -> dict[str, Change]:
        """The dice of the roll being distributed picked up from the roll area since it landed (their ``loose-``)
        and seen on no chip since, nor lying loose again, in the roll's order. A die read again where it lies (a
        ``turned`` pair) was not picked up."""
        # (a die the table shows where the game holds that very die is the game's, not one lifted since)
        on_chips = {die for (card, chip), die in self._table.items() if self._chip_die(card, chip) != die}
        lying, rolled = {c.die for c in self._lying}, self._rolled_at()
        lifted = {c.die: c for c in self._picked_up if c.die not in on_chips and not c.turned
                  and (c in self._left or c.elapsed >= rolled and c.die not in lying)}
        return {str(d): lifted[str(d)] for d in self.state.roll if str(d) in lifted}

    def _infer_roll(self, change: Change) -> bool:
        """Dice settle on chips while the game waits for the roll: the roll was missed or misread."""
        if self.state.tasks[0][0] == "name" and not self._infer_unseen(change, "roll"):
            return False
        task = self.state.tasks[0]
        if task[0] != "roll":
            return False
        wanted = min(task[1], sum(self.state.bag.values()))
        events = [e for e in self.referee.events if not e.undone]
        since = events[-1].elapsed - 0.5 if events else 0.0
        loose = [c for c in self._pending if c.kind == "loose+" and not c.brief
                 and self._game_time(c.elapsed) >= since]
        # dice that landed together, given up while the rest of the roll settled on chips: the roll's
        loose += [c for c in self._given_up if c.kind == "loose+" and self._game_time(c.elapsed) >= since
                  and self._heap(c, given_up=True)]
        placed = [c for c in self._pending if c.kind == "die+" and self._game_time(c.elapsed) >= since
                  and self._chip_die(c.card, c.chip) is None]
        bag = {"/".join(k): n for k, n in self.state.bag.items()}
        faint = sorted([c for c in placed if c.confidence < self.settings.min_confidence], key=lambda c: c.confidence)
        tries = [(faint[:dropped], loose) for dropped in range(len(faint) + 1)]  # a faint reading on a chip may
        # be no die of the roll: least sure out first; all out first if none shares colours with a loose die and
        # sure loose dice make up the roll without them
        if faint and not any(colours(f.die) == colours(c.die) for f in faint for c in loose):
            tries.insert(0, (faint, [c for c in loose if c.confidence >= self.settings.min_confidence]))
        for out, seen in tries:
            kept = [c for c in placed if c not in out]
            dice, fillers = infer_roll(wanted, [c.die for c in seen], [c.die for c in kept], bag)
            if len(dice) == wanted and len(fillers) <= self.settings.max_fillers \
                    and takes(self.referee, ["roll " + " ".join(dice)]):
                break
        else:
            return False
        self._fillers = fillers
        for c in loose:
            if c.die in dice:
                if c in self._pending:
                    self._done(c)
                else:
                    self._given_up.remove(c)
        # dice put on chips one by one were rolled a while before; dice seen on chips at once landed there
        # (probe11 cd3s1906's, on a spark card's chips)
        lead = 0.0 if len({c.elapsed for c in kept}) < len(kept) else 2.0
        first = min([c.elapsed for c in loose] + [c.elapsed - lead for c in kept])
        at = max(first, events[-1].elapsed + self.settings.clock_start if events else first)
        self._doubt(change)
        self.notes.append(f"roll {' '.join(dice)} inferred at {change.elapsed:.2f} s from the dice on the table")
        self._report(Change("loose+", change.frame, at, confidence=0.0), "roll " + " ".join(dice))
        return True

    def _doubt(self, change: Change) -> None:
        self._doubt_until = max(self._doubt_until, change.elapsed + self.settings.doubt_s)

    def _in_step(self, action: str) -> bool:
        """Whether the game's dice on the card ``action`` names are the table's (colours compared, the chip it names
        aside; a card's rules read only its own dice): only then is a refused action judged as the players' doing
        rather than vision's. ``whole_table_step``: all cards compared."""
        card, _, chip = action.split()[-1].rpartition(":")
        skip = (card, int(chip)) if chip.isdigit() else None
        game = {k: v for k, v in dice_on_chips(self.state).items() if k != skip}
        # a die read faintly where the game holds none is no sign of vision out of step: a misread or a print
        table = {k: v for k, v in self._table.items() if k != skip and (k in game or k not in self._faint)}
        if self.settings.whole_table_step:
            known = {c for c, _ in game} | {c for c, _ in table}
            known -= set(self._stand_ins.values()) | self._unseen_stand_ins
        else:
            known = {card}
        stacked = {(c, k) for c in known for k in self._stacked_chips(c)}
        placed = colours(action.split()[1]) if action.startswith("place ") and skip in stacked else None

        def seen_on(c: str) -> list[tuple[str, ...]]:
            seen = [colours(table[k]) for k in sorted(stacked) if k[0] == c and k in table]
            # the die placed on the stack's top, read a level low under it (the die it hides unseen)
            return seen[:-1] if c == card and placed and seen[-1:] == [placed] else seen

        return all(colours(game.get(k, "")) == colours(table.get(k, "")) for k in set(game) | set(table)
                   if k[0] in known and k not in stacked) \
            and all(_within([colours(game[k]) for k in sorted(stacked) if k[0] == c and k in game], seen_on(c))
                    for c in {c for c, _ in stacked})

    def _stacked_chips(self, card: str) -> list[int]:
        """The chips of ``card``'s stacks (one die on another): a die deep in a tall stack is hidden, and the layout,
        counting the stack's levels by how high its top die stands, may read it short (unseen5 s1004's F-G27)."""
        layout = card_layout(self.state, card)
        return [c.number for g in (layout.groups if layout else ()) if g.kind == "stack" for c in g.chips]

    def _stand_in(self, change: Change) -> str | None:
        """An unknown card dealt (a role card too), turned up into the row or drawn as a spark: the game cannot go on
        without a card there, so it is reported as a stand-in, an unseen card of its type that keeps the deal as it
        is (the card layout never names it later, but the later dealing and the dice on the known cards then still
        make sense).
        The candidates are the game's own chance outcomes for what it waits for."""
        task = self.state.tasks[0]
        if task[0] not in ("deal", "reveal", "role", "spark") or not change.type:
            return None
        # a card turning up where the dealer set cards aside is one set aside: its stand-in must be one too
        aside = task[0] == "deal" and self.zones.set_aside(task[1], change.where)
        # where they lie is not known before the first: a card away from the player's hand may be that one
        first_aside = (task[0] == "deal" and self.zones.aside is None and task[1] in self.zones.players
                       and not self.zones.in_hand(task[1], change.where, self.settings.hand_reach * change.size))
        if change.likely and change.resembles[:1] not in ((), (change.likely,)):
            # the look of a view or two, which its views together rank below another card: no hint (warm h3s2202)
            change = replace(change, likely="")
        if change.likely:
            self._looks[change.card] = change.likely
            self._free_look(change, task, aside)
        self._resembles[change.card] = change.resembles
        # the game's own chance outcomes: the cards that can come now (the deck, a role card), as actions
        outcomes = sorted((a for a, _ in self.state.chance_outcomes()), key=lambda a: a.card, reverse=True)
        player = task[1]
        if task[0] == "spark" and change.card != "?":  # drawn by the owing player nearest where it turned up
            player = self._spark_drawer(change.where)
            outcomes = [A.DrawSpark(player, a.card) for a in outcomes]
        # the card named since where it lies is that card, not one seen elsewhere (warm cd3s2206: a card dealt and
        # set aside, named before its report, took another stand-in, and the deal was read out of step)
        named = next((c.card for c in self._pending if c.kind == "card=" and c.where is not None
                      and change.where is not None and dist(c.where, change.where) <= change.size), "")
        # a card that left the table before (a card set aside at the deal, shuffled back) can come again
        gone = {card for card, (_, _, left) in self._cards_at.items() if left < change.elapsed}
        seen, hint = self._seen_cards() - {named} - (gone - set(self._stand_ins.values())), named or change.likely
        # that card or the one it looked most like first, if it can come, then the cards it resembles, closest first
        outcomes.sort(key=lambda a: (a.card != hint, _place(change.resembles, a.card)))
        for outcome in outcomes:
            card, action = outcome.card, str(outcome)
            if card in seen or self.state.game.card(card).kind != change.type:
                continue
            after = self.state.clone()
            try:
                after.apply_action(outcome)
            except (IllegalActionError, RulesError):
                continue
            if task[0] == "reveal":
                kept = after.row
            else:
                area = after.players[player]
                kept = [c.id for c in area.cards] + ([area.role.id] if area.role else [])
            looks_set_aside = first_aside and card == hint and card in after.set_aside
            if not looks_set_aside and ((card in after.set_aside) != aside or (card not in kept and not aside)):
                continue  # a card that would be dealt again (a starting hand it breaks): not the simplest
            if change.card != "?":
                self._stand_ins[change.card] = card  # (no doubt: the game is still in step on the known cards)
            else:
                self._unseen_stand_ins.add(card)
                self._doubt(change)
            self._report(replace(change, confidence=0.0), action)
            if self._learn_zones and task[0] == "deal" and change.card:
                self._learn_deal(task[1], card, change.where)
            return card
        return None

    def _set_aside_unnamed(self, change: Change) -> bool:
        """An unknown card that turned up while the game deals and left again before it was taken for a card dealt
        (the cards set aside are shuffled back as the deal ends), found like ``SET_ASIDE_LOOKALIKES`` known cards at
        most, the first of which the starting-hand rule sets aside now: that card, dealt and set aside, reported as
        a stand-in (a name the layout gives it later corrects it)."""
        task = self.state.tasks[0] if self.state.tasks else None
        if task is None or task[0] != "deal" or not 0 < len(change.resembles) <= SET_ASIDE_LOOKALIKES:
            return False
        card, action = change.resembles[0], f"deal p{task[1] + 1} {change.resembles[0]}"
        if card in self._seen_cards() or self._trial(action) or _kept_in_hand(self.state, task[1], card):
            return False
        self._stand_ins[change.card] = card
        self._resembles[change.card] = change.resembles
        self._report(replace(change, confidence=0.0), action)
        self.notes.append(f"unknown card {change.card} at {change.elapsed:.2f} s, gone again: like {card}, which the "
                          "starting hand sets aside")
        return True

    def _free_look(self, change: Change, task: tuple, aside: bool) -> None:
        """The card an unknown card looks like is kept from it by a guess: a stand-in for another unknown card that
        looked like something else (or nothing), or, in a deal, a stand-in dealt before it that breaks the
        starting hand the look would join. That guess becomes another card."""
        look = change.likely
        taken = next((k for k, v in self._stand_ins.items() if v == look and self._looks.get(k) != look), None)
        if taken is not None:
            self._other_stand_in(taken, look, f"{change.card} at {change.elapsed:.2f} s looks like {look}")
        if task[0] == "deal" and not aside and not _kept_in_hand(self.state, task[1], look):
            self._keep_in_hand(task[1], change, look)

    def _seen_cards(self) -> set[str]:
        """Cards the camera has named (on the table now or before, or about to be used), and the stand-ins."""
        return (set(self._cards_at) | {c.card for c in self._pending if c.kind.startswith("card")}
                | set(self._stand_ins.values()) | self._unseen_stand_ins)

    def _guessed(self, card: str) -> bool:
        """Whether ``card`` is reported only as a guess: a stand-in for an unknown card, not named where that card
        lay (``_named_later``: then it is that card, and turning up elsewhere is that card moved)."""
        return card in self._stand_ins.values() and card not in self._renamed

    def _unknown_for(self, stand_in: str) -> str:
        """The unknown card ``stand_in`` stands in for."""
        return next(k for k, v in self._stand_ins.items() if v == stand_in)

    def _replace_stand_in(self, change: Change) -> None:
        """The card taken as a stand-in for an unknown one turned up itself: the stand-in becomes another card."""
        unknown = self._unknown_for(change.card)
        self._other_stand_in(unknown, change.card, f"{change.card} turned up at {change.elapsed:.2f} s")

    def _keep_in_hand(self, player: int, change: Change, card: str = "") -> None:
        """A card dealt to ``player`` (or ``card``, the look of an unknown card about to be dealt) is set aside by
        the starting-hand rule, yet it lies beside the player's cards, not with those set aside: the stand-in dealt
        to the player before it broke the hand. Another stand-in is taken, one that keeps the card in the hand."""
        card = card or change.card
        if not self.zones.in_hand(player, change.where, self.settings.hand_reach * change.size):
            return
        hand = {c.id for c in self.state.players[player].cards} - set(self._renamed)  # (a card named is no guess)
        for unknown in [k for k, v in self._stand_ins.items() if v in hand]:
            if self._other_stand_in(unknown, card, f"{card} lies in p{player + 1}'s hand",
                                    lambda trial: _kept_in_hand(trial.state, player, card)):
                return

    def _other_stand_in(self, unknown: str, not_card: str, why: str,
                        wanted: Callable[[Referee], bool] = lambda trial: True) -> bool:
        """The stand-in for ``unknown`` becomes another unseen card of its kind (not ``not_card``) with which the
        game is ``wanted`` and takes what followed as before."""
        kind = self.state.game.card(self._stand_ins[unknown]).kind
        pools = [c for src in self.referee.state.sources.values() for c in src.pool]
        candidates = sorted(dict.fromkeys(pools), reverse=True)
        resembles = self._resembles.get(unknown, ())
        candidates.sort(key=lambda c: _place(resembles, c))  # the cards it resembles first, closest first
        for card in candidates:
            if card == not_card or card in self._seen_cards() or self.state.game.card(card).kind != kind:
                continue
            if self._swap_stand_in(unknown, card, f"{why}: the stand-in is {card}", wanted):
                return True
        return False

    def _named_later(self, change: Change) -> None:
        """A die seen on a card the game does not hold, or such a card moved from where an unknown card reported as
        a stand-in lay: the card layout has named that card since, and the stand-in's report is corrected to it."""
        unknown = min((key for key, (centre, size, gone) in self._cards_at.items()
                       if key in self._stand_ins and change.elapsed <= gone and dist(centre, change.where) <= size),
                      key=lambda key: dist(self._cards_at[key][0], change.where), default=None)
        if unknown is None:
            self._drawn_unseen_named(change)
            return
        if self._stand_ins[unknown] == change.card:
            if change.kind != "die+":
                self._renamed.setdefault(change.card, change.elapsed)  # named there: no guess any more
            return
        if change.kind == "die+" and self._resembles.get(unknown, ()) == (self._stand_ins[unknown],):
            return  # it looked like its stand-in alone: a name read under a die is the likelier misreading
        if self._guessed(change.card):
            self._replace_stand_in(change)  # it stood in for another unknown card, which now needs another
        seen = self._seen_cards() - ({change.card} if change.kind in ("card>", "card-") else set())  # (this card)
        if self._owner(change.card) is not None or change.card in seen:
            return
        if self._swap_stand_in(unknown, change.card, f"{change.card} named where {unknown} lay, at "
                                                     f"{change.elapsed:.2f} s", placed=change.kind == "die+"):
            self._renamed[change.card] = change.elapsed  # a card named only now may be misnamed (``_report``)

    def _drawn_unseen_named(self, change: Change) -> None:
        """A die seen on a card that no player holds, nor was seen before, of the kind of a card drawn unseen (a
        spark taken as a stand-in when the next roll landed, ``_sparks_drawn_unseen``, ``_catch_up``): the card
        drawn was that one, the one stand-in of its kind that a player holds."""
        if self._owner(change.card) is not None or change.card in self._seen_cards():
            return
        kind = self.state.game.card(change.card).kind
        held = [c for c in self._unseen_stand_ins
                if self._owner(c) is not None and self.state.game.card(c).kind == kind]
        if len(held) == 1 and self._correct_report(held[0], change.card, f"{change.card} seen in play at "
                                                                          f"{change.elapsed:.2f} s"):
            self._unseen_stand_ins.discard(held[0])
            self._renamed[change.card] = change.elapsed

    def _swap_stand_in(self, unknown: str, card: str, why: str,
                       wanted: Callable[[Referee], bool] = lambda trial: True, placed: bool = False) -> bool:
        """The report of the stand-in for ``unknown`` corrected to ``card`` (``placed``: and the dice placed on it),
        if the game still takes what followed it as before (and is ``wanted`` then)."""
        if not self._correct_report(self._stand_ins[unknown], card, why, wanted, placed):
            return False
        self._stand_ins[unknown] = card
        return True

    def _placed_read_again(self, card: str, action: str) -> bool:
        """A placement on ``card`` the rules refuse (``action``), taken once a die of the game on that card, read
        surely as another die where it lies since (``_reread_on_chips``), is that die: the die's placement and the roll
        it came from are corrected (it was misread as it was rolled and as it landed) if the game then takes
        ``action`` and judges every other report as before. A die read again explains nothing by itself: the die
        may have been swapped, or misread at rest."""
        placing = self.referee.placing_events()
        for again in reversed(self._reread_on_chips):
            was = self._chip_die(card, again.chip) if again.card == card else None
            placed = placing.get((card, again.chip))
            if was is not None and placed is not None and placed.action == f"place {was} {card}:{again.chip}" \
                    and self._placement_misread(placed, was, again, action):
                self._reread_on_chips.remove(again)
                return True
        return False

    def _taken_on_its_twin(self, again: Change) -> bool:
        """A die the game holds on a chip, read again surely as another die (``again``), while the table shows the
        held die on the one other chip of that card the game holds empty: the held die was seen on both chips as it
        was put down and taken on the wrong one, and ``again``'s die was put down since. The placement is corrected
        to the other chip, if the game judges every other report as before, and ``again`` waits to be judged as a
        die settling there."""
        card, chip = again.card, again.chip
        was, placed = self._chip_die(card, chip), self.referee.placing_events().get((card, chip))
        if placed is None or again.confidence < self.settings.sure_face:
            return False
        twins = [k for (c, k), seen in self._table.items() if c == card and k != chip and seen == was
                 and self._chip_die(card, k) is None]
        if len(twins) != 1:
            return False
        why = f"{was} on {card}:{chip} read again as {again.die} at {again.elapsed:.2f} s, {was} seen on {twins[0]}"
        if not self._correct_if(lambda _, correct: correct(placed.index, f"place {was} {card}:{twins[0]}"), why,
                                lambda trial: judged_as_before(self.referee, trial, placed.index)):
            return False
        self._wait_again(replace(again, turned=False))
        return True

    def _placement_misread(self, placed: Event, was: str, again: Change, action: str) -> bool:
        """``placed`` (of die ``was``) and the roll before it corrected to ``again``'s die, as ``_placed_read_again``
        says."""
        roll = next((e for e in reversed(self.referee.events[:placed.index])
                     if not e.undone and e.accepted and e.action.startswith("roll ")), None)
        if roll is None or was not in roll.action.split()[1:]:
            return False
        why = f"{was} on {again.card}:{again.chip} read again as {again.die} at {again.elapsed:.2f} s, so {action!r}"
        return self._correct_all([(placed.index, f"place {again.die} {again.card}:{again.chip}"),
                                  (roll.index, roll_with(roll.action, was, again.die))], why,
                                 lambda trial: judged_as_before(self.referee, trial, roll.index, placed.index)
                                 and takes(trial, [action]))

    def _unused_owed(self) -> Die | None:
        """The unused die rolled again that the returns now owed match (back to the bag after them); None when the
        returns owed are a fuse card's (a colour or a number) or a spark shortage's: no die was rolled."""
        lose = next((t for t in self.state.tasks if t[0] == "lose"), None)
        read = next((t[1] for t in self.state.tasks if t[0] == "bag"), None)
        return read if lose is not None and read is not None and lose[2] == (*read.colours, read.face) else None

    def _unused_misread(self, action: str, die: str, at: float) -> bool:
        """A return of ``die`` the rules refuse as unlike the unused die rolled again (``action``), seen lifted
        after that die was seen rolled (game time ``at``): its one reading is corrected to ``die``'s face (its
        colour stays: colours are read surely, faces of a die just rolled less so) if the game then takes
        ``action`` and judges every other report as before. (A die lifted before then was moved for another
        reason, and says nothing of the unused die.)"""
        read = self._unused_owed()
        if read is None:
            return False
        unused = self._unused_report(str(read))
        new = read.with_face(Die.parse(die).face)
        if unused is None or unused.elapsed > at or new == read:
            return False
        if self._matches_a_later_landing(die, unused, at):
            return False
        why = f"unused {read} read again as {new}, so {action!r}"
        return self._correct_if(lambda _, correct: correct(unused.index, f"unused {new}"), why,
                                lambda trial: judged_as_before(self.referee, trial, unused.index)
                                and takes(trial, [action]))

    def _matches_a_later_landing(self, die: str, unused: Event, at: float) -> bool:
        """Whether a die seen landing after ``unused`` was rolled again and by game time ``at`` matches the returned
        ``die``: the return of that die, the returns owed for ``unused`` unseen, so neither die was misread (probe12
        h2s2001: yellow2 returned for yellow1, not green1 read as green2)."""
        returned = Die.parse(die)
        return any(c.kind == "loose+" and unused.elapsed < self._game_time(c.elapsed) <= at
                   and (returned.shares_colour(rolled := Die.parse(c.die)) or returned.face == rolled.face)
                   for c in [*self._pending, *self._given_up])

    def _returned_misread(self, action: str, die: str, at: float) -> bool:
        """As ``_unused_misread``, but the returned die read less surely as it was placed than the unused die as it
        was rolled again: the returned die had the unused die's face, misread in its roll and on its chip alike (warm
        h2s2201's blue3, read blue2 at 0.55 on F-G11:1, returned for green3 read at 0.76). Its roll and placement
        are corrected if the game then takes ``action`` and judges every other report as before."""
        read = self._unused_owed()
        unused = self._unused_report(str(read)) if read is not None else None
        card, chip = action.split()[-1].rsplit(":", 1)
        placing = self.referee.placing_events().get((card, int(chip)))
        if read is None or unused is None or unused.elapsed > at or placing is None \
                or self._matches_a_later_landing(die, unused, at):
            return False
        roll = next((e for e in reversed(self.referee.events[:placing.index]) if not e.undone and e.accepted
                     and e.action.startswith("roll ")), None)
        new = str(Die.parse(die).with_face(read.face))
        if roll is None or die not in roll.action.split()[1:] or new == die:
            return False
        if max(placing.confidence, roll.confidence) >= unused.confidence:
            return False  # (a roll's confidence is its least sure die's: the returned die was read at least so)
        fixes = [(roll.index, roll_with(roll.action, die, new)), (placing.index, f"place {new} {card}:{chip}")]
        return self._correct_all(fixes, f"{die} on {card}:{chip}, returned for unused {read}, was {new}",
                                 lambda trial: judged_as_before(self.referee, trial, roll.index, placing.index)
                                 and takes(trial, [action]))

    def _unused_owes_less(self, change: Change) -> bool:
        """The next roll lands (``change``) while a player still owes a die matching the unused die rolled again,
        and the table still shows every die that would pay it: that die's one reading, a faint one, had the wrong
        face (its colour stays, as in ``_unused_misread``). Corrected to the first face with which no return is owed
        any more, if every other report is judged as before. (A die that would pay it gone from the table: its
        return was missed, ``_catch_up``.)"""
        read, lose = self._unused_owed(), self.state.tasks[0]
        unused = self._unused_report(str(read)) if read is not None else None
        if unused is None or unused.confidence >= self.settings.min_confidence:
            return False  # (read surely: its returns were missed)
        if any((a.card, a.chip) not in self._table for a in self.state.legal_actions() if isinstance(a, A.Return)):
            return False
        for new in [read.with_face(shown) for shown in range(1, 7) if shown != read.face]:
            why = f"unused {read} read again as {new}: the next roll landed at {change.elapsed:.2f} s, no return " \
                  f"of p{lose[1] + 1}'s seen"
            if self._correct_if(lambda _, correct, new=new: correct(unused.index, f"unused {new}"), why,
                                lambda trial: judged_as_before(self.referee, trial, unused.index)
                                and trial.state.phase != "lose"):
                return True
        return False

    def _rolled_again_late(self, change: Change, left: Change) -> bool:
        """A die of the unused die's colours lifted (``left``) and seen landing (``change``) after that die was
        reported rolled again, while no return owed for it was made yet and no other unused die of its colours is
        left: the die was rolled again only now, and what was taken for it was the die nudged where it lay (warm
        h2s2201's black5, seen moved at 74 s, rolled again as black1 at 80 s). Its report takes the new face and
        time, if every other report stands."""
        read = self._unused_owed()
        unused = self._unused_report(str(read)) if read is not None else None
        if read is None or unused is None or colours(change.die) != colours(str(read)) \
                or self._game_time(left.elapsed) <= unused.elapsed or change.die == str(read) or self._heap(change) \
                or not 0 <= change.elapsed - left.elapsed <= self.settings.wait_s:
            return False  # (a heap landing: the next roll)
        if any(t[0] == "unused" and t[1].colours == read.colours for t in self.state.tasks) \
                or any(e.action.startswith("return ") and not e.undone for e in self.referee.events[unused.index:]):
            return False
        why = f"unused {read} rolled again at {change.elapsed:.2f} s as {change.die}: it had only been moved"
        if not self._correct_if(lambda _, correct: correct(unused.index, f"unused {change.die}"), why,
                                lambda trial: judged_as_before(self.referee, trial, unused.index)):
            return False
        self._redate(unused.index + 1, self._game_time(change.elapsed))
        self._done(change)
        self._left.remove(left)
        return True

    def _unused_read_again(self, change: Change) -> bool:
        """The unused die rolled again, lying where it landed, read again with another face (``change``, turned)
        before the next roll: its one reading was wrong, and is corrected if every other report stands."""
        old = self._read_before(change)
        unused = self._unused_report(old.die) if old is not None else None
        if old is None or unused is None:
            return False
        why = f"unused {old.die} read again at {change.elapsed:.2f} s as {change.die}"
        if not self._correct_if(lambda _, correct: correct(unused.index, f"unused {change.die}"), why,
                                lambda trial: judged_as_before(self.referee, trial, unused.index)):
            return False
        self._done(change)
        self._left.remove(old)
        return True

    def _unused_report(self, die: str) -> Event | None:
        """The report of the unused die ``die`` rolled again, if nothing was rolled since (the die the returns now
        owed match)."""
        latest = next((e for e in reversed(self.referee.events) if not e.undone and e.accepted
                       and e.action.startswith(("unused ", "roll "))), None)
        return latest if latest is not None and latest.action == f"unused {die}" else None

    def _read_before(self, change: Change) -> Change | None:
        """The reading a loose die read again where it lies (``change``, a ``turned`` pair's ``loose+``) replaces:
        the pair's ``loose-``, of its colours, in the same frame."""
        return next((c for c in reversed(self._left) if c.turned and c.frame == change.frame
                     and colours(c.die) == colours(change.die)), None)

    def _no_card_dealt(self, change: Change) -> bool:
        """An unknown card dealt as a stand-in (``change.card``) left the table before any die was placed: it was no
        card (the locator's false card on the table's pattern, a glimpse). Its deal is taken back if every other
        report is judged as before (the player's next card dealt in its turn)."""
        if change.card not in self._stand_ins.values() or any(e.action.startswith("place ") and not e.undone
                                                               for e in self.referee.events):
            return False
        deal = next((e for e in self.referee.events if not e.undone and e.accepted and e.action.startswith("deal ")
                     and e.action.split()[-1] == change.card), None)
        if deal is None:
            return False
        trial = copy_of(self.referee)
        trial.undo(deal.index)
        if not judged_as_before(self.referee, trial):
            return False
        self.referee.undo(deal.index)
        self._done(change)
        unknown = self._unknown_for(change.card)
        del self._stand_ins[unknown]
        self.notes.append(f"card {unknown} left at {change.elapsed:.2f} s before any die was placed: no card, "
                          f"{deal.action!r} taken back")
        return True

    def _correct_report(self, stand_in: str, card: str, why: str,
                        wanted: Callable[[Referee], bool] = lambda trial: True, placed: bool = False) -> bool:
        """The report that brought ``stand_in`` into the game corrected to ``card`` (with ``placed``, a die seen on
        that card: every report since that names it too, the dice placed on it while it stood in), if the game
        still takes what followed as before (and is ``wanted`` then)."""
        event = next((e for e in self.referee.events if not e.undone and e.accepted
                      and e.action.split()[-1] == stand_in), None)
        if event is None:
            return False

        def renamed(action: str) -> str:
            return " ".join(card + w[len(stand_in):] if w.split(":")[0] == stand_in else w for w in action.split())

        fixes = [(e.index, renamed(e.action)) for e in self.referee.events[event.index:] if not e.undone
                 and e.accepted and (e is event or placed and renamed(e.action) != e.action)]
        return self._correct_all(fixes, why, lambda trial: judged_as_before(self.referee, trial, *(i for i, _ in fixes))
                                 and wanted(trial))

    def _correct_if(self, corrections: Callable[[Referee, Correct], None], why: str,
                    keeps: Callable[[Referee], bool]) -> bool:
        """``corrections`` (given a referee and its way to correct a report) made on a copy of the game first, then,
        if the copy ``keeps`` what it should, on the game itself."""
        trial = copy_of(self.referee)
        corrections(trial, trial.correct)
        if not keeps(trial):
            return False
        corrections(self.referee, lambda index, action: self.correct(index, action, why, more_to_come=True))
        self._unfit_inferences(why)
        return True

    def _correct_all(self, fixes: list[tuple[int, str]], why: str, keeps: Callable[[Referee], bool]) -> bool:
        """Reports (index, corrected action) corrected together (``_correct_if``), the later first: a correction
        shifts the reports after it, so the earlier indices hold."""
        def corrections(_: Referee, correct: Correct) -> None:
            for index, action in sorted(fixes, reverse=True):
                correct(index, action)

        return self._correct_if(corrections, why, keeps)

    def _no_new_violation(self, trial: Referee) -> bool:
        return len(trial.violations) <= len(self.referee.violations)

    def _may_place(self, change: Change) -> bool:
        """Whether a loose die may be a die of the roll being distributed (else a die on a card is a roll landing
        there, or a die rolled again)."""
        return self.state.phase == "distribute" and any(colours(str(d)) == colours(change.die)
                                                        for d in self.state.roll)

    def _card_under(self, change: Change) -> str | None:
        """The card a loose die lies on (the card layout did not place it on a chip), if any: within
        ``on_card_share`` of a card's short side of its centre, or, for a die the tracker saw inside a card's
        outline (``Change.on_card``), the nearest card within its short side (a die on the card's far end). An
        unknown card is the stand-in the game took it as (its dice are dice on that card, their chips unknown)."""
        reach = 1.0 if change.on_card else self.settings.on_card_share
        near = [(dist(centre, change.where) / size, card) for card, (centre, size, gone) in self._cards_at.items()
                if change.elapsed <= gone and dist(centre, change.where) <= reach * size]
        if not near:
            return None
        card = min(near)[1]
        return self._stand_ins.get(card, card)

    def _heap(self, change: Change, given_up: bool = False) -> list[Change]:
        """The loose dice that landed with ``change`` (within ``heap_s``), itself included, when they are more than
        one: a roll, not one die rolled again. Dice seen lying on a card are none of them: dice on a card glimpsed
        off their chips (a hand over it), not landing from a roll; nor are dice turning up where a die of their
        colours was lifted since the roll (``_where_one_was_lifted``). Those still waiting for the game
        (``given_up``: and those given up since)."""
        seen = [change, *self._pending, *(self._given_up if given_up else ())]
        heap = [c for c in dict.fromkeys(seen) if c.kind == "loose+" and not c.brief
                and abs(c.elapsed - change.elapsed) <= self.settings.heap_s
                and (c is change or self._card_under(c) is None) and not self._where_one_was_lifted(c)]
        return heap if len(heap) >= 2 and change in heap else []

    def _where_one_was_lifted(self, change: Change) -> bool:
        """Whether a loose die turns up where a die of its colours was lifted from the roll area since the roll
        (``same_spot_px``): that die put back, or read again where it lay, not one landing."""
        rolled = self._rolled_at()
        return any(rolled <= c.elapsed <= change.elapsed and colours(c.die) == colours(change.die)
                   and dist(c.where, change.where) <= self.settings.same_spot_px for c in self._picked_up)

    def _loose_on_card(self, change: Change, card: str) -> bool:
        """A die seen on a card but on none of its chips: placed there, on the one empty chip of that card where
        the game takes it; else it says nothing the game can use (it is no roll, nor a die rolled again)."""
        self._done(change)
        if self.state.phase != "distribute" or self._owner(card) is None:
            self.notes.append(f"{change.die} at {change.elapsed:.2f} s lies on {card}, on no chip")
            return True
        options = [(d, chip) for d in self._roll_dice_like(change) for chip in self._held(card).empty_chips
                   if not self._trial(f"place {d} {card}:{chip}")]
        if len(options) != 1:
            self.notes.append(f"{change.die} at {change.elapsed:.2f} s lies on {card}, on no chip the game can tell")
            self._lay_off_chips.append((change, card))
            self._doubt(change)
            return True
        die, chip = options[0]
        self._forget_lift(lambda die: colours(die) == colours(change.die))
        self.notes.append(f"{change.die} at {change.elapsed:.2f} s lies on {card}: placed on chip {chip}")
        self._report(replace(change, die=die, confidence=min(change.confidence, 0.5)),
                     f"place {die} {card}:{chip}")
        return True

    def _roll_dice_like(self, change: Change) -> list[str]:
        """The roll's dice that loose ``change`` may be: itself, else those of its colours."""
        roll = [str(d) for d in self.state.roll]
        return [change.die] if change.die in roll else list(dict.fromkeys(d for d in roll
                                                                          if colours(d) == colours(change.die)))

    def _refused_on_card(self, change: Change, card: str) -> bool:
        """A die of the roll seen lying on ``card`` but on none of its chips (the layout could not name the card
        under a stack's top die), while the card has one empty chip and that chip's rule refuses the die: put there
        all the same, an illegal placement (unseen5 s1004's blue4 on top of F-G27's four-die stack)."""
        cip = self._held(card) if self.state.phase == "distribute" and self._owner(card) is not None else None
        dice = self._roll_dice_like(change)
        if cip is None or len(cip.empty_chips) != 1 or len(dice) != 1:
            return False
        action = f"place {dice[0]} {card}:{cip.empty_chips[0]}"
        why = self._trial(action)
        if not by_chip_rule(why) or self._doubted_refusal(change, action, why):
            return False  # (a refusal asked about waits: the die may yet be seen on its chip)
        self._done(change)
        self._forget_lift(lambda die: colours(die) == colours(change.die))
        self.notes.append(f"{change.die} at {change.elapsed:.2f} s lies on {card}: on its one empty chip, refused")
        event = self._report(replace(change, die=dice[0]), action, rule_kind=True)
        self._note_refused(event, dice[0], card, cip.empty_chips[0])
        return True

    def _forget_lift(self, went: Callable[[str], bool]) -> None:
        """Forget the latest die lifted from the roll area whose name ``went`` accepts: it went where the game now has
        it, and is no die left to be rolled again."""
        gone = [c for c in self._left if went(c.die)]
        if gone:
            self._left.remove(gone[-1])

    def _note_refused(self, event: Event | None, die: str, card: str, chip: int) -> None:
        """Keep a refused placement (``event`` not accepted) to see its die taken back."""
        if event is not None and not event.accepted:
            self._refused.append((event.index, die, card, chip))


def _completion(referee: Referee, cip: Any, dice: list[str]) -> list[str]:
    """The placements of ``dice`` on the empty chips of ``cip`` (a card in play) that complete it, when exactly one
    choice of the dice does and the game takes it (tried on a copy); else none."""
    empty = cip.empty_chips
    found = {f for chosen in permutations(dice, len(empty))
             if takes(referee, list(f := tuple(f"place {d} {cip.id}:{k}" for d, k in zip(chosen, empty))))}
    return list(min(found)) if len({tuple(sorted(a.split()[1] for a in f)) for f in found}) == 1 else []


HELD = " already holds "
"""A die seen on a chip the game holds: a chip takes one die, so the game's die is not there (missed
leaving, or misread)."""
NOT_THE_CHIPS_RULE = (HELD, "does not exist", "dice have no")
"""Refusals that name a chip but not its rule: a die already there, a chip the card lacks, a colour the game lacks."""


def by_chip_rule(why: str) -> bool:
    """A refusal by the chip's own rule (its colour, number or order, read from the card's own dice), not by what
    the game keeps of the turn (whose quota, which chip holds what) that a missed or misread placement skews."""
    return why.startswith("chip ") and not any(words in why for words in NOT_THE_CHIPS_RULE)


def card_layout(state: State, card: str) -> Layout | None:
    """The layout of catalog card ``card`` (none for a card the game does not know, or one without chips)."""
    return state.game.cards[card].layout if card in state.game.cards else None


def chip_rule(state: State, card: str, chip: int) -> Chip | None:
    """Chip ``chip`` of catalog card ``card`` (its rule), if the card has such a chip."""
    layout = card_layout(state, card)
    return layout.chips[chip - 1] if layout is not None and 0 < chip <= len(layout.chips) else None


def dist(a: Point, b: Point) -> float:  # (used by vision.interpret too)
    return ((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5


def _kept_in_hand(state: State, player: int, card: str) -> bool:
    """Whether ``card`` is in ``player``'s hand, or would be if dealt there now (not set aside)."""
    if any(c.id == card for c in state.players[player].cards):
        return True
    deal = next((a for a, _ in state.chance_outcomes()
                 if isinstance(a, A.Deal) and a.card == card and a.player == player), None)
    if deal is None:
        return False
    after = state.clone()
    after.apply_action(deal)
    return card not in after.set_aside


def _latest_done(referee: Referee) -> Event | None:
    """The game's latest ``done``, if no roll came since."""
    events = referee.events
    done = next((e for e in reversed(events) if not e.undone and e.accepted and e.action == "done"), None)
    if done is None or any(not e.undone and e.action.startswith("roll ") for e in events[done.index:]):
        return None
    return done


def _report_index(referee: Referee, action: str) -> int:
    return next(e.index for e in referee.events if e.action == action and not e.undone)


def off_line(points: list[Point]) -> float:
    """The largest distance of ``points`` from the straight line that fits them best (total least squares)."""
    n = len(points)
    mx, my = sum(p[0] for p in points) / n, sum(p[1] for p in points) / n
    sxx = sum((p[0] - mx) ** 2 for p in points)
    syy = sum((p[1] - my) ** 2 for p in points)
    sxy = sum((p[0] - mx) * (p[1] - my) for p in points)
    angle = 0.5 * atan2(2 * sxy, sxx - syy)  # the line's direction
    return max(abs((p[1] - my) * cos(angle) - (p[0] - mx) * sin(angle)) for p in points)


def _hand(referee: Referee, player: int) -> tuple[list[str], list[str]]:
    """The cards ``player`` holds and the cards set aside, sorted."""
    return sorted(c.id for c in referee.state.players[player].cards), sorted(referee.state.set_aside)


def _place(names: tuple[str, ...], name: str) -> int:
    """Where ``name`` comes in ``names`` (after all of them if it is not there)."""
    return names.index(name) if name in names else len(names)
