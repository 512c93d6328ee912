"""The game engine for FUSE and FUSE: Countdown, in OpenSpiel's shape.

A ``Game`` holds the fixed parts (config, catalog, dice set) and makes ``State``s. A state says who acts
(``current_player()``: a player, ``TEAM`` when any player may act, ``CHANCE`` for deals, reveals and rolls,
``TERMINAL``), lists ``legal_actions()``, takes ``apply_action()``, and keeps its action log with the clock
reading of each action, so ``Game.replay(log)`` rebuilds it. Chance actions are explicit: a simulation samples
them (``sample_chance``); a referee applies what the camera saw.

The turn is kept as a list of tasks (``State.tasks``); the first is what happens now, and fuse cards, spark
draws and refills push their own tasks in front. Where the rulebooks leave the order open, this engine plays
a turn as: (name) -> roll -> (ability) -> distribute -> defuse -> unused dice (FUSE) or sparks (Countdown).
Returns for an unused die or a fuse card are tasks in player order, and ``legal_actions()`` offers them in that
order; ``apply_action()`` takes them in any order, as the players return their dice at once at the table.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations, takewhile

from rules import actions as A
from rules.catalog import Card, Catalog, load_catalog
from rules.clock import Clock, ManualClock
from rules.config import EPIC_EXTRA_FUSE_DICE, GameConfig
from rules.dice import COLOURS, DiceSet, Die, load_dice_set
from rules.errors import IllegalActionError, RulesError
from rules.legality import judge
from rules.table import CardInPlay, PlayerArea, Source

CHANCE, TEAM, TERMINAL = -1, -2, -4
ROW_SIZE = 5
CHANCE_TASKS = {"deal", "reveal", "role", "roll", "reroll", "unused", "spark", "six"}
NAMING_ROLES = {"cutter": "colour", "operations-engineer": "number"}
CHANGING_ROLES = ("cutter", "operations-engineer", "technologist", "equipment-technician")
AFTER_ROLL_ROLES = {"cutter", "operations-engineer", "technologist", "equipment-technician", "disposal-expert",
                    "explosives-instructor"}


@dataclass(frozen=True)
class Outcome:
    """How a game ended: ``won`` and why (``cleared``, ``time``, ``bag empty``)."""

    won: bool
    reason: str


class Game:
    """Fixed metadata of one game: config, card catalog and dice set."""

    def __init__(self, config: GameConfig, catalog: Catalog | None = None) -> None:
        self.config = config
        if config.epic:
            fuse, countdown = load_catalog("fuse"), load_catalog("countdown")
            cards = fuse.cards + countdown.cards
            self.cards = {c.id: c for c in cards if not _needs_split(c) and c.kind != "role"}
            extra = EPIC_EXTRA_FUSE_DICE[config.players] // len(COLOURS)
            fuse_dice = load_dice_set("fuse").limited({c: extra for c in COLOURS}, "fuse")
            self.dice: DiceSet = load_dice_set("countdown").plus(fuse_dice, "epic")
        else:
            catalog = catalog or load_catalog(config.edition)
            self.cards = {c.id: c for c in catalog.cards}
            self.dice = load_dice_set(config.edition)

    def card(self, card_id: str) -> Card:
        try:
            return self.cards[card_id]
        except KeyError:
            raise IllegalActionError(f"no card {card_id!r} in this game's catalog") from None

    def of_kind(self, kind: str) -> list[Card]:
        return [c for c in self.cards.values() if c.kind == kind]

    def new_initial_state(self, clock: Clock | None = None) -> State:
        return State(self, clock or ManualClock())

    def replay(self, log: Iterable[tuple[float, A.Action | str]]) -> State:
        """Rebuild a state from an action log of ``(elapsed seconds, action)`` pairs."""
        clock = ManualClock()
        state = State(self, clock)
        for elapsed, action in log:
            clock.seconds = elapsed
            state.apply_action(A.parse_action(action) if isinstance(action, str) else action)
        return state


def _needs_split(card: Card) -> bool:
    return card.layout is not None and any(a.split for chip in card.layout.chips for a in chip.atoms)


def _hand_can_be_legal(points: list[int], size: int, edition: str) -> bool:
    """Starting-hand rule, checked on a partial hand: can it still end up legal?"""
    if size == 4:  # solo: at least three different point values among four cards
        return len(set(points)) + (size - len(points)) >= 3
    if len(points) < 2:
        return True
    high, low = ((3, 4, 6), (1, 2)) if edition == "fuse" else ((4, 5, 6), (1, 2, 3))
    return points[0] not in high or points[1] in low


class State:
    """One moment of a game; see the module docstring."""

    def __init__(self, game: Game, clock: Clock) -> None:
        config = game.config
        self.game = game
        self.config = config
        self.clock = clock
        self.history: list[tuple[float, A.Action]] = []
        self.players = [PlayerArea() for _ in range(config.players)]
        self.bag: Counter[tuple[str, ...]] = Counter({k.colours: k.count for k in game.dice.kinds})
        self.roll: list[Die] = []
        self.roll_physical: list[Die] = []
        self.row: list[str] = []
        self.leader = 0
        self.turn = 0
        self.defused: list[str] = []
        self.sparks_defused = 0
        self.fuses_activated = 0
        self.spark_discard: list[str] = []
        self.named = ""
        self.changed: set[int] = set()
        self.rerolls = 0
        self.discarded = False
        self.unused: list[Die] = []
        self.won_at: float | None = None
        self.outcome: Outcome | None = None
        self.set_aside: list[str] = []
        self._losable_cache: tuple[tuple, list[tuple[CardInPlay, int]]] = ((), [])
        self.sources, self.fuse_source = self._make_sources()
        self.spark_source = Source([c.id for c in game.of_kind("spark")], len(game.of_kind("spark")))
        self.tasks: list[tuple] = [("deal", p) for p in range(config.players) for _ in range(config.hand_size)]
        self.tasks += [("setup-deck",)]

    # ------------------------------------------------------------------ setup

    def _bomb_pool(self) -> list[str]:
        bombs = self.game.of_kind("bomb")
        config = self.config
        if config.edition == "fuse" and config.setup == "standard" and "hard-cards" not in config.variants:
            bombs = [b for b in bombs if b.points != 6]
        return [b.id for b in bombs]

    def _make_sources(self) -> tuple[dict[str, Source], Source]:
        config = self.config
        fuses = [c.id for c in self.game.of_kind("fuse") if not (config.epic and c.body == "lose-roles")]
        fuse_source = Source(fuses, 0)
        pool = self._bomb_pool()
        if config.setup == "standard":
            # Countdown deals hands from the bomb deck; FUSE deals them first and forms the deck after
            count = config.deck_size if config.edition == "countdown" else 0
            return {"deck": Source(pool, count)}, fuse_source
        levels = {}
        for points, count in config.levels:
            level_pool = [c for c in pool if self.game.card(c).points == points]
            if len(level_pool) < count:
                raise RulesError(f"the catalog has {len(level_pool)} cards worth {points}, not {count}")
            levels[f"level{points}"] = Source(level_pool, count)
        # hands follow the standard game's rules, which leave the 6-point cards out unless asked for
        hands = [c for c in pool if self.game.card(c).points != 6 or "hard-cards" in config.variants]
        return {"hands": Source(hands, 0), **levels}, fuse_source

    def _finish_setup(self) -> list[tuple]:
        """After the hands: form the deck, turn up the row, shuffle in fuse cards, deal roles."""
        config = self.config
        self._hand_source().pool += self.set_aside  # replaced cards are shuffled back into the bomb deck
        self.set_aside = []
        if config.setup == "standard" and config.edition == "fuse":
            self.sources["deck"].count = config.deck_size
        if "hands" in self.sources:
            used = {c.card.id for p in self.players for c in p.cards}
            for source in self.sources.values():
                source.pool = [c for c in source.pool if c not in used]
            del self.sources["hands"]
            for name, source in self.sources.items():  # the levels are chosen from the cards the hands left
                if len(source.pool) < source.count:
                    raise RulesError(f"after the hands, the catalog has {len(source.pool)} cards worth "
                                     f"{name.removeprefix('level')} left, not {source.count}")
        tasks: list[tuple] = [("reveal", "row", None)] * (ROW_SIZE if config.setup != "stacks" else 0)
        if config.setup == "stacks":
            tasks = [("reveal", name, None) for name in self.sources]
        tasks.append(("add-fuses",))
        if config.uses_roles:
            tasks += [("role", p) for p in range(config.players)]
        tasks.append(("start-turn",))
        return tasks

    def _hand_source(self) -> Source:
        return self.sources.get("hands") or self.sources["deck"]

    # ------------------------------------------------------------------ who acts

    def is_terminal(self) -> bool:
        return self.outcome is not None

    def current_player(self) -> int:
        if self.outcome is not None:
            return TERMINAL
        kind = self.tasks[0][0]
        if kind in CHANCE_TASKS:
            return CHANCE
        if kind in ("name", "ability"):
            return self.leader
        if kind == "lose":
            return self.tasks[0][1]
        return TEAM

    @property
    def phase(self) -> str:
        return "over" if self.outcome else self.tasks[0][0]

    # ------------------------------------------------------------------ chance

    def chance_outcomes(self) -> list[tuple[A.Action, float]]:
        """Every chance action possible now with its probability."""
        task = self.tasks[0]
        kind = task[0]
        if kind == "deal":
            source = self._hand_source()
            return [(A.Deal(task[1], c), 1 / len(source.pool)) for c in source.pool]
        if kind == "role":
            roles = self._free_roles()
            return [(A.DealRole(task[1], r), 1 / len(roles)) for r in roles]
        if kind == "reveal":
            return [(A.Reveal(c), p) for c, p in self._reveal_odds(task[1]).items()]
        if kind == "spark":
            pool = self.spark_source.pool or self.spark_discard
            return [(A.DrawSpark(task[1], c), 1 / len(pool)) for c in pool]
        if kind == "six":
            return [(A.ExtraRoll(task[1], f), 1 / 6) for f in range(1, 7)]
        if kind == "unused":
            die = task[1]
            faces = self.game.dice.kind_of(die).faces
            return [(A.RollUnused(die.with_face(f)), 1 / len(faces)) for f in faces]
        raise IllegalActionError(f"{kind} has too many outcomes to list: use sample_chance")

    def _sources_for(self, where: str) -> list[Source]:
        """Where a reveal draws from: the deck (bombs and fuse cards), the fuse pile, or one level's stack."""
        if where == "row":
            return [*self.sources.values(), self.fuse_source]
        return [self.fuse_source] if where == "fuse" else [self.sources[where]]

    def _reveal_odds(self, where: str) -> dict[str, float]:
        sources = self._sources_for(where)
        total = sum(s.count for s in sources)
        return {c: s.count / total / len(s.pool) for s in sources if s.count for c in s.pool}

    def _free_roles(self) -> list[str]:
        taken = {p.role.id for p in self.players if p.role}
        return [r.id for r in self.game.of_kind("role") if r.id not in taken]

    def sample_chance(self, rng: random.Random) -> A.Action:
        """A random chance action with the right odds (the dice come out of the bag at random)."""
        task = self.tasks[0]
        if task[0] in ("roll", "reroll"):
            faces = self.game.dice.faces
            if task[0] == "reroll":
                dice = [self.roll[i] for i in task[1]]
                return A.Roll(tuple(d.with_face(rng.choice(faces[d.colours])) for d in dice))
            bag = list(self.bag.elements())
            drawn = rng.sample(bag, min(task[1], len(bag)))
            return A.Roll(tuple(Die(c, rng.choice(faces[c])) for c in drawn))
        if task[0] == "reveal":
            sources = [s for s in self._sources_for(task[1]) if s.count]
            source = rng.choices(sources, weights=[s.count for s in sources])[0]
            return A.Reveal(rng.choice(source.pool))
        if task[0] == "deal":
            return A.Deal(task[1], rng.choice(self._hand_source().pool))
        if task[0] == "unused":
            return A.RollUnused(task[1].with_face(rng.choice(self.game.dice.faces[task[1].colours])))
        if task[0] == "six":
            return A.ExtraRoll(task[1], rng.randint(1, 6))
        return rng.choice([a for a, _ in self.chance_outcomes()])

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self) -> list[A.Action]:
        """Every action legal now (for chance nodes: the possible outcomes, when they can be listed)."""
        if self.outcome is not None:
            return []
        kind = self.tasks[0][0]
        if kind in CHANCE_TASKS:
            return [a for a, _ in self.chance_outcomes()]
        if kind == "name":
            values = COLOURS if NAMING_ROLES[self._leader_role()] == "colour" else tuple("123456")
            return [A.Name(v) for v in values] + [A.Ready()]
        if kind == "ability":
            return self._ability_actions() + [A.Ready()]
        if kind == "lose":
            return [A.Return(c.id, chip) for c, chip in self._losable(self.tasks[0][1], self.tasks[0][2])]
        actions: list[A.Action] = []
        if kind == "distribute":
            for player in range(len(self.players)):
                for die in dict.fromkeys(self.roll):
                    actions += [A.Place(die, card, chip) for card, chip in self.placements(player, die)]
            if self._may_discard():
                actions += [A.Discard(d) for d in dict.fromkeys(self.roll)]
            actions.append(A.Done())
        if kind == "defuse" or (kind == "distribute" and self.config.early_defuse):
            actions += self._defuse_actions()
        return actions

    def placements(self, player: int, die: Die) -> list[tuple[str, int]]:
        """``(card id, chip)`` where ``player`` may legally put ``die`` now (empty if their quota is used)."""
        area = self.players[player]
        if area.taken >= self._quota(player):
            return []
        dice = self.game.dice
        return [(c.card.id, number) for c in area.cards for number in c.legal_chips(die, dice)]

    def _quota(self, player: int) -> int:
        extra = player == self.leader and self._leader_role() == "logistics-specialist" and not self.discarded
        return self.config.dice_per_player + extra

    def _may_discard(self) -> bool:
        """The Logistics Specialist takes one extra die OR returns one to the bag, once a turn."""
        return (self._leader_role() == "logistics-specialist" and not self.discarded
                and self.players[self.leader].taken <= self.config.dice_per_player)

    def _defuse_actions(self) -> list[A.Action]:
        actions: list[A.Action] = []
        for area in self.players:
            for card in area.cards:
                if not card.complete:
                    continue
                if card.card.kind == "spark" or not self.row:
                    actions.append(A.Defuse(card.id))
                    continue
                for take in self.row:
                    actions.append(A.Defuse(card.id, take))
                    if self.config.setup == "stacks" and self.fuse_source.count:
                        actions.append(A.Defuse(card.id, take, fuse=True))
        return actions

    def _ability_actions(self) -> list[A.Action]:
        role = self._leader_role()
        actions: list[A.Action] = []
        for i, die in enumerate(self.roll):
            if role == "disposal-expert" and i not in self.changed:
                actions.append(A.Flip(i))
            if i in self.changed or role not in CHANGING_ROLES:
                continue
            if role in ("technologist", "equipment-technician") and self.changed:
                continue
            if role == "cutter" and not die.has_colour(self.named):
                continue
            if role == "operations-engineer" and str(die.face) != self.named:
                continue
            if role != "equipment-technician":
                actions += [A.Change(i, Die((c,), die.face)) for c in COLOURS if (c,) != die.colours]
            if role != "technologist":
                actions += [A.Change(i, die.with_face(f)) for f in range(1, 7) if f != die.face]
        if role == "explosives-instructor" and self.rerolls < 3 and self.roll:  # any of the rolled dice
            dice = range(len(self.roll))
            actions += [A.Reroll(some) for k in range(1, len(dice) + 1) for some in combinations(dice, k)]
        return actions

    def _leader_role(self) -> str:
        area = self.players[self.leader]
        return area.role.name if area.role is not None and area.role_active else ""

    def _losable(self, player: int, matches: tuple) -> list[tuple[CardInPlay, int]]:
        """Dice ``player`` could hand back for a fuse card or unused die showing ``matches``."""
        key = (len(self.history), player, matches)
        if self._losable_cache[0] == key:  # asked again before anything changed
            return self._losable_cache[1]
        found = []
        for card in self.players[player].cards:
            if card.complete:
                continue  # a completed card is safe
            safe = card.safe_chips()
            for chip, die in card.physical.items():
                if chip in safe:
                    continue
                if any(die.has_colour(m) if isinstance(m, str) else die.face == m for m in matches):
                    found.append((card, chip))
        self._losable_cache = (key, found)
        return found

    # ------------------------------------------------------------------ applying

    def apply_action(self, action: A.Action) -> None:
        """Apply a legal action; raises ``IllegalActionError`` quoting it and the rule it breaks."""
        if self.outcome is not None:
            raise IllegalActionError(f"{action}: the game is over ({self.outcome.reason})")
        elapsed = self.clock.elapsed()
        if self._time_is_up(elapsed):
            raise IllegalActionError(f"{action}: time ran out")
        try:
            self._apply(action)
        except IllegalActionError as exc:
            raise IllegalActionError(f"{action}: {exc}") from None
        self.history.append((elapsed, action))
        self._advance()

    def check_time(self) -> bool:
        """End the game if the clock has run out; True if it has."""
        return self.outcome is not None or self._time_is_up(self.clock.elapsed())

    def _time_is_up(self, elapsed: float) -> bool:
        if self.won_at is None and elapsed >= self.config.limit_seconds and self.outcome is None:
            self.outcome = Outcome(False, "time")
            return True
        return False

    def _expect(self, *kinds: str) -> tuple:
        """The current task, if it is one of ``kinds``; else the error says what the game waits for."""
        task = self.tasks[0]
        if task[0] not in kinds:
            raise IllegalActionError(f"not now: the game waits for {self.waiting_for()}")
        return task

    def waiting_for(self) -> str:
        """What the game waits for now, in words (``the leader's roll``, ``p2 to return a matching die``)."""
        if self.outcome is not None:
            return "nothing: the game is over"
        task = self.tasks[0]
        player = f"p{task[1] + 1}" if task[0] in ("deal", "lose") and len(task) > 1 else "a player"
        words = {
            "deal": f"a card dealt to {player}",
            "reveal": "a card turned up",
            "role": "a role card dealt",
            "roll": "the leader's roll",
            "reroll": "the re-rolled dice",
            "unused": "the unused die rolled",
            "spark": "a spark card drawn",
            "six": "an extra die rolled for the roll-a-6 fuse card",
            "name": "the leader to name a colour or number",
            "ability": "the leader's role ability (or ready)",
            "distribute": "dice placed (or done)",
            "defuse": "completed cards defused",
            "lose": f"{player} to return a matching die",
        }
        return words.get(task[0], task[0])

    def _apply(self, action: A.Action) -> None:
        getattr(self, _HANDLERS[type(action)])(action)

    def _do_deal(self, action: A.Deal) -> None:
        task = self._expect("deal")
        if action.player != task[1]:
            raise IllegalActionError(f"the next card goes to p{task[1] + 1}")
        source = self._hand_source()
        if action.card not in source.pool:
            raise IllegalActionError(f"{action.card} is not in the deck")
        source.pool.remove(action.card)
        if self.config.edition == "countdown" and self.config.setup == "standard":
            source.count -= 1
        area = self.players[action.player]
        points = [c.card.points for c in area.cards] + [self.game.card(action.card).points]
        if _hand_can_be_legal(points, self.config.hand_size, self.config.edition):
            area.cards.append(CardInPlay(self.game.card(action.card)))
            self.tasks.pop(0)
        else:  # the starting-hand rule: deal another, the replaced card goes back into the deck later
            self.set_aside.append(action.card)
            if self.config.edition == "countdown" and self.config.setup == "standard":
                source.count += 1

    def _do_dealrole(self, action: A.DealRole) -> None:
        self._expect("role")
        if action.card not in self._free_roles():
            raise IllegalActionError(f"{action.card} is not a free role card")
        self.players[self.tasks[0][1]].role = self.game.card(action.card)
        self.tasks.pop(0)

    def _do_reveal(self, action: A.Reveal) -> None:
        task = self._expect("reveal")
        where, slot = task[1], task[2]
        source = next((s for s in self._sources_for(where) if s.count and action.card in s.pool), None)
        if source is None:
            raise IllegalActionError(f"{action.card} cannot come from the {where}")
        card = self.game.card(action.card)
        source.take(action.card)
        self.tasks.pop(0)
        if card.kind == "fuse":
            self.fuses_activated += 1
            self.tasks[0:0] = self._fuse_tasks(card) + ([("reveal", where, slot)] if where != "fuse" else [])
        elif slot is None:
            self.row.append(action.card)
        else:
            self.row.insert(slot, action.card)

    def _fuse_tasks(self, card: Card) -> list[tuple]:
        players = range(len(self.players))
        if card.fuse_effect == "match":
            return [("lose", p, card.fuse_matches) for p in players]
        if card.fuse_effect == "draw-spark":
            return [("spark", p) for p in players]
        if card.fuse_effect == "lose-roles":
            for area in self.players:
                area.role_active = False
            return []
        return [("six", p) for p in players]

    def _do_roll(self, action: A.Roll) -> None:
        task = self._expect("roll", "reroll")
        if task[0] == "reroll":
            before = [self.roll[i] for i in task[1]]
            if [d.colours for d in before] != [d.colours for d in action.dice]:
                raise IllegalActionError(f"the re-rolled dice are {' '.join(map(str, before))}, only faces change")
            for i, die in zip(task[1], action.dice):
                self.roll[i] = die
                self.roll_physical[i] = die
            self.tasks.pop(0)
            return
        wanted = min(task[1], sum(self.bag.values()))
        if len(action.dice) != wanted:
            raise IllegalActionError(f"the leader draws {wanted} dice, not {len(action.dice)}")
        drawn = Counter(d.colours for d in action.dice)
        for colours, n in drawn.items():
            if self.bag[colours] < n:
                raise IllegalActionError(f"the bag holds {self.bag[colours]} {'/'.join(colours)} dice, not {n}")
        self.bag -= drawn
        self.roll = list(action.dice)
        self.roll_physical = list(action.dice)
        self.tasks.pop(0)

    def _do_rollunused(self, action: A.RollUnused) -> None:
        task = self._expect("unused")
        if action.die.colours != task[1].colours:
            # the unused dice are rolled again in whatever order the leader picks them up
            later = next((i for i, t in enumerate(self.tasks)
                          if t[0] == "unused" and t[1].colours == action.die.colours), None)
            if later is None:
                colours = " ".join(dict.fromkeys(t[1].colour for t in self.tasks if t[0] == "unused"))
                raise IllegalActionError(f"the unused die is {colours}" if " " not in colours
                                         else f"the unused dice are {colours}")
            self.tasks[0], self.tasks[later] = self.tasks[later], self.tasks[0]
        self.tasks.pop(0)
        # each player returns one die matching its colour or number, then it goes back in the bag
        matches = tuple(action.die.colours) + (action.die.face,)
        self.tasks[0:0] = [("lose", p, matches) for p in range(len(self.players))] + [("bag", action.die)]

    def _do_drawspark(self, action: A.DrawSpark) -> None:
        self._expect("spark")
        owing = self.owing_sparks()  # the rulebook sets no order: each player owing one draws it
        if action.player not in owing:
            raise IllegalActionError(f"p{action.player + 1} owes no spark now: "
                                     f"{', '.join(f'p{p + 1}' for p in dict.fromkeys(owing))} draw")
        if not self.spark_source.pool:  # the discard pile becomes the new spark deck
            self.spark_source = Source(self.spark_discard, len(self.spark_discard))
            self.spark_discard = []
        if action.card not in self.spark_source.pool:
            raise IllegalActionError(f"{action.card} is not in the spark deck")
        self.spark_source.take(action.card)
        self.players[action.player].cards.append(CardInPlay(self.game.card(action.card)))
        self.tasks.remove(("spark", action.player))

    def owing_sparks(self) -> list[int]:
        """The players owing a spark card now (one entry a spark): the spark draws the game waits for."""
        owing = []
        for task in self.tasks:
            if task[0] != "spark":
                break
            owing.append(task[1])
        return owing

    def _do_extraroll(self, action: A.ExtraRoll) -> None:
        task = self._expect("six")
        if action.player != task[1]:
            raise IllegalActionError(f"p{task[1] + 1} rolls now")
        if action.face == 6:
            self.tasks.pop(0)

    def _do_name(self, action: A.Name) -> None:
        self._expect("name")
        if action not in self.legal_actions():
            raise IllegalActionError(f"the {self._leader_role()} names a {NAMING_ROLES[self._leader_role()]}")
        self.named = action.value
        self.tasks.pop(0)

    def _do_ready(self, action: A.Ready) -> None:
        self._expect("name", "ability")
        self.tasks.pop(0)

    def _ability(self, action: A.Action) -> None:
        self._expect("ability")
        if action not in self._ability_actions():
            raise IllegalActionError(f"the {self._leader_role() or 'leader'} cannot do that with this roll")

    def _do_change(self, action: A.Change) -> None:
        self._ability(action)
        old = self.roll[action.index]
        self.roll[action.index] = action.die
        # a changed number is a turned die; a changed colour is back to the real one once placed
        self.roll_physical[action.index] = Die(self.roll_physical[action.index].colours, action.die.face)
        self.changed.add(action.index)
        assert old != action.die

    def _do_flip(self, action: A.Flip) -> None:
        self._ability(action)
        die = self.roll[action.index]
        face = self.game.dice.kind_of(self.roll_physical[action.index]).opposite(die.face)
        self.roll[action.index] = die.with_face(face)
        self.roll_physical[action.index] = self.roll_physical[action.index].with_face(face)
        self.changed.add(action.index)

    def _do_reroll(self, action: A.Reroll) -> None:
        self._ability(action)
        self.rerolls += 1
        self.tasks.insert(0, ("reroll", action.indices))

    def _take_from_roll(self, die: Die) -> int:
        try:
            return self.roll.index(die)
        except ValueError:
            raise IllegalActionError(f"no {die} in the roll ({' '.join(map(str, self.roll)) or 'empty'})") from None

    def _do_place(self, action: A.Place) -> None:
        self._expect("distribute")
        index = self._take_from_roll(action.die)
        player, card = self._find_card(action.card)
        if self.players[player].taken >= self._quota(player):
            raise IllegalActionError(f"p{player + 1} has already taken {self._quota(player)} dice this turn")
        if card.complete:
            raise IllegalActionError(f"{card.id} is already complete")
        verdict = judge(card.card.layout, card.placed, action.chip, action.die, self.game.dice)  # type: ignore[arg-type]
        if not verdict:
            raise IllegalActionError(verdict.reason)
        card.put(action.chip, action.die, self.roll_physical[index])
        del self.roll[index], self.roll_physical[index]
        self.changed = {i - (i > index) for i in self.changed if i != index}
        self.players[player].taken += 1

    def _do_discard(self, action: A.Discard) -> None:
        self._expect("distribute")
        if not self._may_discard():
            raise IllegalActionError(
                "only the Logistics Specialist returns a rolled die, once a turn, instead of taking an extra one")
        index = self._take_from_roll(action.die)
        self.bag[self.roll_physical[index].colours] += 1
        del self.roll[index], self.roll_physical[index]
        self.discarded = True

    def _do_done(self, action: A.Done) -> None:
        self._expect("distribute")
        self.unused = list(self.roll_physical)
        self.roll, self.roll_physical = [], []
        self.tasks.pop(0)

    def _find_card(self, card_id: str) -> tuple[int, CardInPlay]:
        for p, area in enumerate(self.players):
            for card in area.cards:
                if card.id == card_id:
                    return p, card
        raise IllegalActionError(f"{card_id} is not in front of any player")

    def _do_defuse(self, action: A.Defuse) -> None:
        task = self._expect("distribute", "defuse")
        if task[0] == "distribute" and not self.config.early_defuse:
            raise IllegalActionError("only 1-2 player games defuse before the dice are all placed")
        player, card = self._find_card(action.card)
        if not card.complete:
            raise IllegalActionError(f"{card.id} still has empty chips")
        if card.card.kind == "spark" and action.take:
            raise IllegalActionError("a defused spark card is not replaced: take no card from the row")
        if card.card.kind == "bomb" and (self.row or action.take) and action.take not in self.row:
            raise IllegalActionError(f"take one of the row's cards: {', '.join(self.row) or 'none left'}")
        if action.fuse and not (self.config.setup == "stacks" and self.fuse_source.count):
            raise IllegalActionError("a fuse card is chosen only in the stacks setup, while fuse cards remain")
        area = self.players[player]
        for die in card.physical.values():
            self.bag[die.colours] += 1
        area.cards.remove(card)
        if card.card.kind == "spark":
            self.sparks_defused += 1
            self.spark_discard.append(card.id)
        else:
            self.defused.append(card.id)
            area.role_active = True
        if action.take:
            slot = self.row.index(action.take)
            self.row.pop(slot)
            area.cards.append(CardInPlay(self.game.card(action.take)))
        self._check_win()
        if action.take and self.won_at is None:
            refill = self._refill_task(action.take, slot)
            self.tasks[0:0] = ([("reveal", "fuse", None)] if action.fuse else []) + refill

    def _refill_task(self, taken: str, slot: int) -> list[tuple]:
        if self.config.setup == "stacks":
            level = f"level{self.game.card(taken).points}"
            return [("reveal", level, slot)] if self.sources[level].count else []
        if any(s.count for s in self.sources.values()) or self.fuse_source.count:
            return [("reveal", "row", slot)]
        return []

    def _do_return(self, action: A.Return) -> None:
        first = self._expect("lose")
        player, card = self._find_card(action.card)
        due = next((i for i, task in enumerate(takewhile(lambda t: t[0] == "lose", self.tasks)) if task[1] == player),
                   None)  # the returns due now are made at once: any of those players may go first
        task = first if due is None else self.tasks[due]
        if due is None or (card, action.chip) not in self._losable(player, task[2]):
            matching = " or ".join(str(m) for m in task[2])  # colours and a face: "black or 2"
            raise IllegalActionError(f"p{task[1] + 1} must return a die matching {matching} that is not safe")
        die = card.take(action.chip)
        self.bag[die.colours] += 1
        self.tasks.pop(due)

    def _do_clear(self, action: A.Clear) -> None:
        _, card = self._find_card(action.card)
        for die in card.take_all():
            self.bag[die.colours] += 1

    # ------------------------------------------------------------------ automatic steps

    def _advance(self) -> None:
        """Run the automatic steps until someone (or chance) must act."""
        while self.outcome is None and self.tasks:
            step = self._AUTOMATIC.get(self.tasks[0][0])
            if step is None or not step(self, self.tasks[0]):
                return

    # Each automatic step returns True when it moved the game on, False when the task waits for an action.

    def _step_setup_deck(self, task: tuple) -> bool:
        self.tasks[0:1] = self._finish_setup()
        return True

    def _step_add_fuses(self, task: tuple) -> bool:
        stacks = self.config.setup == "stacks"
        self.fuse_source.count = len(self.fuse_source.pool) if stacks else self.config.fuse_card_count
        self.tasks.pop(0)
        return True

    def _step_start_turn(self, task: tuple) -> bool:
        self.tasks[0:1] = self._turn_tasks()
        return True

    def _step_roll(self, task: tuple) -> bool:
        if sum(self.bag.values()):
            return False
        self.outcome = Outcome(False, "bag empty")
        return True

    def _step_name(self, task: tuple) -> bool:
        return self._skip_if(NAMING_ROLES.get(self._leader_role()) is None)

    def _step_ability(self, task: tuple) -> bool:
        return self._skip_if(self._leader_role() not in AFTER_ROLL_ROLES or not self._ability_actions())

    def _step_defuse(self, task: tuple) -> bool:
        return self._skip_if(not self._defuse_actions())

    def _step_lose(self, task: tuple) -> bool:
        return self._skip_if(not self._losable(task[1], task[2]))

    def _step_bag(self, task: tuple) -> bool:
        self.bag[task[1].colours] += 1
        self.tasks.pop(0)
        return True

    def _step_end_turn(self, task: tuple) -> bool:
        self.tasks[0:1] = self._end_turn_tasks()
        return True

    def _step_next_turn(self, task: tuple) -> bool:
        self._next_turn()
        return True

    def _step_spark(self, task: tuple) -> bool:
        if self.spark_source.pool or self.spark_discard:
            return False
        self._spark_shortage(task[1])
        return True

    def _step_reveal(self, task: tuple) -> bool:
        return self._skip_if(not any(s.count for s in self._sources_for(task[1])))

    def _step_six(self, task: tuple) -> bool:
        return self._skip_if(not sum(self.bag.values()))  # no extra die to roll

    def _step_distribute(self, task: tuple) -> bool:
        if self.roll:
            return False
        self._do_done(A.Done())
        return True

    def _skip_if(self, nothing_to_do: bool) -> bool:
        if nothing_to_do:
            self.tasks.pop(0)
        return nothing_to_do

    _AUTOMATIC = {
        "setup-deck": _step_setup_deck, "add-fuses": _step_add_fuses, "start-turn": _step_start_turn,
        "roll": _step_roll, "name": _step_name, "ability": _step_ability, "defuse": _step_defuse,
        "lose": _step_lose, "bag": _step_bag, "end-turn": _step_end_turn, "next-turn": _step_next_turn,
        "spark": _step_spark, "reveal": _step_reveal, "six": _step_six, "distribute": _step_distribute,
    }

    def _turn_tasks(self) -> list[tuple]:
        extra = self._leader_role() == "logistics-specialist"
        return [("name",), ("roll", self.config.dice_per_roll + extra), ("ability",), ("distribute",), ("defuse",),
                ("end-turn",)]

    def _end_turn_tasks(self) -> list[tuple]:
        if self.won_at is not None:
            self.outcome = Outcome(True, "cleared")
            return []
        tasks: list[tuple] = []
        if self.config.uses_sparks:
            # with 1-2 players a spark is owed per die not taken: never more than the dice left unused
            left = len(self.unused) if self.config.players <= 2 else len(self.players)
            for p in self._from_leader():
                area = self.players[p]
                # once the bombs are gone, only players with cards still to defuse must take dice
                if self._bombs_left() or area.sparks() or (self.config.must_clear_own_cards and area.bombs()):
                    owed = min(self._sparks_owed(p), left)
                    left -= owed if self.config.players <= 2 else 0
                    tasks += [("spark", p)] * owed
            tasks += [("bag", d) for d in self.unused]
        else:
            tasks += [("unused", d) for d in self.unused]
        self.unused = []
        return tasks + [("next-turn",)]

    def _from_leader(self) -> list[int]:
        """Players in turn order, the leader first."""
        n = len(self.players)
        return [(self.leader + k) % n for k in range(n)]

    def _sparks_owed(self, player: int) -> int:
        """Countdown: a spark for a player who took no die; in 1-2 player games, one per die not taken
        (the Logistics Specialist's extra die too, unless they returned one to the bag)."""
        taken = self.players[player].taken
        if self.config.players >= 3:
            return int(taken == 0)
        owed = self.config.dice_per_player - taken
        if player == self.leader and self._leader_role() == "logistics-specialist":
            owed += 1 - self.discarded
        return max(0, owed)

    def _next_turn(self) -> None:
        for area in self.players:
            area.taken = 0
        self.leader = (self.leader + 1) % len(self.players)
        self.turn += 1
        self.named, self.changed, self.rerolls, self.discarded = "", set(), 0, False
        self.tasks[0:1] = [("start-turn",)]

    def _spark_shortage(self, player: int) -> None:
        """Every spark card is in play (epic games): the player returns a die of their choice instead."""
        self.tasks[0:1] = [("lose", player, COLOURS)]

    def _bombs_left(self) -> bool:
        return any(self.game.card(c).kind == "bomb" for c in self.row) or any(s.count for s in self.sources.values())

    def _check_win(self) -> None:
        if self.won_at is not None or self._bombs_left():
            return
        if self.config.uses_sparks and any(a.sparks() for a in self.players):
            return
        if self.config.must_clear_own_cards and any(a.bombs() for a in self.players):
            return
        self.won_at = self.clock.elapsed()  # the clock stops; this turn's other defuses still score

    # ------------------------------------------------------------------ results

    def score(self) -> dict[str, int]:
        """The rulebooks' scoring: 10 for a win, 1 per full 10 s left, card points, 2 per spark and fuse card."""
        won = self.outcome is not None and self.outcome.won
        left = self.config.limit_seconds - (self.won_at or 0.0)
        parts = {
            "win": 10 if won else 0,
            "time": int(left // 10) if won else 0,
            "bombs": sum(self.game.card(c).points for c in self.defused),
            "sparks": 2 * self.sparks_defused,
            "fuses": 2 * self.fuses_activated,
        }
        parts["total"] = sum(parts.values())
        return parts

    def returns(self) -> list[float]:
        """OpenSpiel-style returns: the team's score, once per player."""
        return [float(self.score()["total"])] * len(self.players)

    def dice_accounted(self) -> Counter[tuple[str, ...]]:
        """Every die by kind: in the bag, rolled, unused or on a card (sums to the dice set)."""
        total = Counter(self.bag)
        total.update(d.colours for d in self.roll_physical)
        total.update(d.colours for d in self.unused)
        total.update(t[1].colours for t in self.tasks if t[0] in ("unused", "bag"))
        for area in self.players:
            for card in area.cards:
                total.update(d.colours for d in card.physical.values())
        return total

    def clone(self) -> State:
        other = State.__new__(State)
        other.__dict__.update(self.__dict__)
        other.history = list(self.history)
        other.players = [p.copy() for p in self.players]
        other.bag = Counter(self.bag)
        other.roll, other.roll_physical = list(self.roll), list(self.roll_physical)
        other.row, other.defused = list(self.row), list(self.defused)
        other.spark_discard, other.set_aside = list(self.spark_discard), list(self.set_aside)
        other.changed, other.unused = set(self.changed), list(self.unused)
        other.sources = {n: s.copy() for n, s in self.sources.items()}
        other.fuse_source, other.spark_source = self.fuse_source.copy(), self.spark_source.copy()
        other.tasks = list(self.tasks)
        other._losable_cache = ((), [])
        return other

    def log(self) -> list[tuple[float, str]]:
        """The action log as ``(elapsed seconds, action text)``, replayable with ``Game.replay``."""
        return [(t, str(a)) for t, a in self.history]

    def describe(self) -> str:
        """A short human-readable picture of the table."""
        lines = [f"turn {self.turn + 1}, leader p{self.leader + 1}, {self.phase}; bag {sum(self.bag.values())} dice"]
        lines.append("row: " + " ".join(self.row))
        if self.roll:
            lines.append("roll: " + " ".join(map(str, self.roll)))
        for p, area in enumerate(self.players):
            role = f" ({area.role.name}{'' if area.role_active else ', inactive'})" if area.role else ""
            lines.append(f"p{p + 1}{role}: " + "; ".join(c.describe() for c in area.cards))
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.describe()


_HANDLERS = {cls: f"_do_{cls.__name__.lower()}" for cls in A.Action.__args__}  # type: ignore[attr-defined]


def play_log(game: Game, actions: Sequence[str]) -> State:
    """Apply action texts with a clock that stays at zero (handy for tests and the CLI)."""
    return game.replay((0.0, a) for a in actions)
