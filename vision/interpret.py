"""Settled-table changes -> the rules engine's actions, reported to a ``Referee``.

The game itself says what a change means: a card turning up is ``deal pN`` while the game deals (to the
player the game deals to next), ``reveal`` while it waits for a card turned up; loose dice appearing are the
``roll`` while it waits for one, and an unused die rolled again (``unused``) after the roll; a die settling
on a chip is a ``place``; a die leaving a chip is a ``return`` while a player owes one; a completed card
leaving (or carried to a discard pile) while a row card moves is ``defuse X take Y`` (a spark card takes none).
Actions with no visible sign (``done``, ``ready``) are reported when the next visible change needs them. A change
the game cannot use yet waits ``wait_s`` seconds (after it happened and after it was committed) for the changes
that explain it (the tracker commits them in whatever order they settle); the countdown is judged ``time_lag_s``
behind the latest frame, so that a change made just before the end, committed after it, still counts.

The game also checks what vision read: a die of the roll read again with another face while it lies there
corrects the roll (``Referee.correct``), and a die settling on a chip with a face no die of the roll shows is the
one die of the roll of its colours, if that die may go there.

Vision misses and misreads things, and one missed die must not leave the game waiting for ever. Before a
change is given up (after ``wait_s``), the game is re-synchronised with the table where the table shows what
happened (``vision.resync``): a roll missed is inferred from the dice settling on chips; a roll misread is
corrected by the die seen on a chip; a card turned up unseen, or never recognised, gets a stand-in card (and a
question), corrected when the card is named later (a die on it, moved, or named where it lies: ``card=``); a die
the card layout put on no chip of a card is placed on the one chip it can take; a ``done`` inferred from a die
that only seemed rolled again is taken back when the roll's dice are still being placed;
dice of the last roll still held by the game when the next roll lands are placed where the table shows them.
Loose "dice" lying alone before the first roll, or apart from the roll's heap, are no dice of the game.

Every action is first tried on a copy of the game. An illegal placement or return is reported, and the
referee refuses it with the rule's reason: a violation. But where vision may be wrong (a misread die, an
unknown card, a low confidence, an action the game cannot take now), nothing is reported as a violation: a
``Confirm`` item asks the person at the table instead. The same holds while the game may be out of step with
the table: within ``doubt_s`` of a re-synchronisation or of a die change given up, and whenever the game's dice
on chips are not the table's (``Interpreter._in_step``).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from itertools import combinations
from math import inf

from rules import actions as A
from rules.dice import Die
from rules.errors import IllegalActionError, RulesError
from rules.game import State
from rules.referee import Event, Referee
from rules.table import CardInPlay
from vision.observation import Point, colours
from vision.resync import (
    HELD,
    Correct,
    Resync,
    by_chip_rule,
    chip_rule,
    copy_of,
    dist,
    face,
    fix_roll,
    judged_as_before,
    last_roll,
    latest_roll,
    roll_with,
    takes,
)
from vision.tracker import Change

UNSEEN_CHAINS = (("done",), ("ready",), ("ready", "done"))
"""Actions with no visible sign, alone or in a row, the interpreter may infer (see ``Interpreter._infer_unseen``)."""
PERCEPTION_DOUBTS = ("not now", "no ", "is not in front of any player", "is not in the deck", "cannot come from",
                     "must return a die matching")
"""Refusals that say more about what vision read than about the players: never a violation. (A return unlike the
unused die is judged by that die's one reading as it was rolled again: more often misread than misplayed.)"""
LOGISTICS = "logistics-specialist"
"""The role whose leader rolls one extra die (``rules.game``): the one role a roll's size tells."""
VALUE_RELATIONS = (" breaks ", " makes ", " leaves ")
"""Refusals by a chip's rule that weigh its die against the card's other dice (a neighbour's relation, a sum, what
the rest can still make)."""


CARD_WITH_DICE_S = 0.5
"""A die lifted this close in time to its card leaving the table left with the card (``_taken_back``)."""
BEFORE_THE_END = 0.001
"""How long before the countdown's end a change is dated that was first seen on the frame on which it ran out."""
FRAMES_KEPT = 600
"""Frame times kept (``Interpreter._frames``): longer than the tracker takes to commit a change."""
LIFTS_KEPT = 32
"""Dice lifted from the roll area remembered (``Interpreter._picked_up``): a few rolls' worth."""


@dataclass(frozen=True)
class Confirm:
    """A question for the person at the table: what vision saw and could not judge alone."""

    frame: int
    elapsed: float
    question: str
    action: str = ""
    """The action vision would report if the person agrees (empty if none)."""


@dataclass(frozen=True)
class RollSeen:
    """A roll seen landing: its game time, how surely each of its dice was read there, and where each lay (in
    the order of its report)."""

    time: float = -inf
    readings: dict[str, float] = field(default_factory=dict)
    spots: tuple[Point, ...] = ()

    def near(self, where: Point, px: float) -> list[int]:
        """The indices of the roll's dice that lay within ``px`` of ``where``."""
        return [i for i, spot in enumerate(self.spots) if dist(spot, where) <= px]

    def nearest(self, where: Point, px: float) -> int | None:
        """The index of the roll's die that lay nearest ``where``, if within ``px`` (a die is nudged a little as
        fingers close on it); None when none was."""
        near = min(range(len(self.spots)), key=lambda i: dist(self.spots[i], where), default=None)
        return near if near is not None and dist(self.spots[near], where) <= px else None

    def of(self, roll: Event | None) -> bool:
        """Whether ``roll`` is this roll (seen landing, not inferred): only then do its spots and readings apply."""
        return roll is not None and roll.elapsed == self.time


@dataclass(frozen=True)
class InterpreterSettings:
    min_confidence: float = 0.5
    """Below this, an action the rules refuse becomes a question, not a violation."""
    sure_face: float = 0.6
    """A die settling on a chip read at least this surely, with a face the roll lacks, is that die (the roll was
    misread, and is corrected) unless the roll's one die of its colours, lifted from the roll area, was read surer
    as it landed; read less surely, it is that die of the roll (its face misread on the chip). Of 26 such dice on
    all the game sets, 8 of 9 read at 0.5 or more were as read, 14 of 17 below were the roll's. Over every game set
    (2,882 events) 0.4, 0.5 and 0.6 matched 2,362, 2,367 and 2,371 (vision/README.md)."""
    fix_roll_confidence: float = 0.2
    """A die read on a chip less surely than this never corrects the roll (``fix_roll``): probe11 h3s1902's blue3 at
    0.12 on F-008 made the roll's green3 blue3. Over the 36 games of the fifty-fourth session 2192 -> 2205 events, 231
    -> 218 extra; the same at 0.15 and 0.25, 2204 at 0.3 and 0.4."""
    wait_s: float = 4.0
    """Seconds a change may wait for the game (or other changes) to make sense of it."""
    clock_start: float = 0.0
    """Observation seconds at which the countdown starts: game time is ``elapsed - clock_start`` (at least 0)."""
    time_lag_s: float = 3.0
    """Seconds the countdown is judged behind the latest frame: the tracker commits a change only once it has
    settled (a die gone: after ``vanish_s``, longer under a hand), so a change made just before the end still
    counts. ``finish`` judges it at the recording's last moment; a change later than the end is not reported."""
    doubt_s: float = 20.0
    """After vision lost step with the game (a change it gave up on, an action inferred to re-synchronise), this
    many seconds in which an action the rules refuse is a question, never a violation."""
    same_spot_px: float = 4.0
    """A loose die gone and back within this many pixels of where it lay, showing the same face, was only hidden:
    a die rolled again lands elsewhere (or shows another face)."""
    nudged_px: float = 12.0
    """A die lifted from within this many pixels of where a die of the roll landed (the nearest) was that die: a
    die is nudged a little as fingers close on it."""
    roll_patience_s: float = 8.0
    """How long dice settling on chips wait for a roll vision missed to be inferred from them."""
    max_fillers: int = 0
    """Most dice of an inferred roll that nothing showed (stand-ins, corrected once seen): with more missing, the
    roll waits for more of its dice to settle on chips."""
    guess_leftovers: bool = True
    """When the next roll lands while the game holds dice of the last one that the table shows nowhere, take them
    as placed on the first empty chips that accept them (a stand-in, asked about) rather than leave the game stuck."""
    heap_s: float = 0.5
    """Loose dice first seen within this many seconds of each other landed together: a roll."""
    moved_s: float = 0.5
    """An unknown card gone as a new card of its type turns up elsewhere within this many seconds: the card, moved."""
    unknown_wait_s: float = 4.0
    """An unknown card is taken to be a card (a stand-in reported for it) once it has lain there this long (a card
    that is gone again before is a glimpse); the cards turned up after it wait for it."""
    deal_order_s: float = 1.5
    """A card named as it is dealt waits this long after it turned up before it is dealt: the layout may name a card
    that turned up before it later (probe2 h3s902's F-G27, set aside under a hand, named 0.5 s after p1's next card
    and dealt to p2)."""
    on_card_share: float = 0.5
    """A loose die within this share of a card's short side of its centre lies on that card (on no chip that the
    card layout found); one the tracker saw inside a card's outline, within its whole short side."""
    whole_table_step: bool = True
    """Judge a refused action a violation only while every card's dice agree with the table (False: only the dice
    of the card it names, which are all its rules read; on the default-style games that flags 7 of 22 scripted
    illegal placements rather than 5, but with a false violation, and two under injected misreads)."""
    put_down_px: float = 30.0
    """A die seen loose on a card (``Change.on_card``) this close to the chip it then settles on was put down there
    when it was first seen so: the placement's time."""
    taken_back_s: float = 8.0
    """A placement the rules refuse, asked about because vision was unsure of the game, is a violation when its die
    is lifted off again within this many seconds (``_taken_back``)."""
    taken_back_confidence: float = 0.35
    """A placement the rules refuse by its chip's rule, asked about, is a violation taken back when its die, read at
    least this surely, is lifted again soon (``taken_back_s``) from a card that stays: under ``min_confidence`` (0.5)
    too, since the lift is the players' own sign (green6 at 0.38 and blue/red4 at 0.45 taken back in probe2 h2s901
    and one-minute s4s615 were read right). Every set: flagged 64 -> 66 of 86, no false violation."""
    rejudge_s: float = 20.0
    """When the game's task changes, the changes given up in the last this many seconds are judged again (once): a
    change seen before the game wanted it (a die returned before the unused die was seen rolled again) makes
    sense once the game has caught up. On the dev games 889 -> 895 events, unseen 173 -> 178 (README)."""
    row_line: tuple[float, float] = (0.25, 0.15)
    """The first row's cards lie in a line: when none of them lies further than the first share of a card's short
    side from the line that fits them best, the row stands; else the swap of row and dealt cards that makes the
    best line, if it keeps them within the second share (``Resync._straighten_row``)."""
    hand_reach: float = 3.0
    """A card dealt within this many card short sides of a card of the player's lies in that hand, beside it: one
    that the starting-hand rule sets aside there was broken by a stand-in (``Resync._keep_in_hand``)."""
    catch_up_actions: int = 5
    """Most actions ``Resync._catch_up`` takes to have happened unseen: in a game lost further from sight than that,
    a longer story made more wrong events than right ones (README: unseen 258 -> 249 events matched, extra
    120 -> 83; dev the same)."""
    catch_up_nodes: int = 400
    """Most actions ``Resync._catch_up`` tries (on copies of the game) when the next roll lands while the game waits
    for something else that nothing explains."""
    print_s: float = 0.5
    """A die read on a chip within this many seconds of its card first being seen lay there as the card turned up:
    the card's print (a spark card drawn, a card revealed), not a die put down."""
    static_px: float = 12.0
    """Loose changes within this many pixels of where a loose die lay before the first roll are ignored..."""
    heap_px: float = 60.0
    """... but for a die landing within this many pixels of another landing with it: a roll's heap."""
    leaving_s: float = 1.0
    """A die lifted from a chip where a placement the rules refused was asked about is judged this many seconds after
    the tracker reported it: its card may be seen leaving with it (defused), and the tracker commits a card's leaving
    later than a die's (thirty-third session: only for the die that would have completed its card before; probe2
    cd2s903's C-G16 then left half a second after its die was taken for one taken back, a false violation)."""
    put_down_s: float = 0.65
    """A die is put on its chip this long after it left the roll area at the soonest (the median of 2,022
    placements of the looked-into games seen on their chip within a second, forty-first session; p10 0.54, p90
    0.75) ..."""
    late_seen_s: tuple[float, float] = (1.5, 3.0)
    """... so a die seen on its chip this many seconds after it left the roll area, and nowhere in between (a hand
    over it, or the locator missing it a while; or held before it was put down), was put down between the two:
    dated halfway. Of the 9 such placements in the looked-into games, 5 were seen over a second late; dated halfway,
    3 more placements match the truth's time (two logs made exact) and none less, where dating them at the soonest
    made 3 match and 3 others not (dice held a while). Seen later than the second bound, the die was held or put
    down elsewhere first (the truth's placement a median 3.4-6 s after such a lift)."""
    which_lifted_s: float = 2.0
    """A die on a chip that the roll lacks, while several dice of its colours lie loose still, waits this long after it
    settled for the tracker to say which of them was picked up (``_lift_may_tell``): unseen5 p4s1005's came 1.7 s
    after its blue5 settled."""
    lift_s: float = 1.0
    """A die on a chip printed with its colour, read with a face the roll lacks, is the roll's one die of its
    colours unless that die still lies loose this many seconds after it was seen there: then it is the card's
    print read as a die (read faintly as the roll's very die, the print while that die lies where the roll landed
    ``wait_s`` after)."""
    surer_lift_s: float = 0.5
    """A die read faintly (under ``min_confidence``) lost from its chip when a die is to be returned waits this long
    after it was committed for a surer die of the same player's lost with it: the hand lifting one die often hides a
    faint die beside it. (A whole ``lift_s`` let other changes the return explains come first: h3s2102.)"""


@dataclass
class Zones:
    """Where each player's cards, the row and the cards set aside at the deal lie (frame pixels), learned from
    the deal unless given."""

    players: dict[int, Point] = field(default_factory=dict)
    row: Point | None = None
    aside: Point | None = None
    """Where the dealer puts the cards that break a starting hand (shuffled back once every hand is legal)."""
    _samples: dict[object, list[Point]] = field(default_factory=dict, repr=False)

    def learn(self, where: object, point: Point) -> None:
        points = self._samples.setdefault(where, [])
        points.append(point)
        self._centre(where)

    def relearn(self, where: object, old: Point, new: Point) -> None:
        """A card learned at ``old`` for ``where`` was the one at ``new`` (a deal corrected)."""
        points = self._samples.get(where, [])
        if old in points:
            points[points.index(old)] = new
            self._centre(where)

    def _centre(self, where: object) -> None:
        points = self._samples[where]
        centre = (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))
        if where in ("row", "aside"):
            setattr(self, str(where), centre)
        else:
            self.players[int(where)] = centre  # type: ignore[call-overload]

    def distance(self, player: int, point: Point) -> float:
        centre = self.players.get(player)
        if centre is None:
            return 0.0
        return dist(centre, point)

    def in_hand(self, player: int, point: Point, reach: float) -> bool:
        """A card at ``point`` lies beside one of ``player``'s cards (within ``reach``), nearer them than any card set
        aside."""
        hand = self._samples.get(player)
        return bool(hand) and min(dist(p, point) for p in hand) <= reach and not self.set_aside(player, point)

    def set_aside(self, player: int, point: Point) -> bool:
        """A card turning up at ``point`` while ``player`` is dealt to lies nearer a card set aside than any of the
        player's (cards set aside are laid side by side, a pile as long as a hand): the dealer sets it aside."""
        aside, hand = self._samples.get("aside"), self._samples.get(player)
        return bool(aside and hand) and min(dist(p, point) for p in aside) < min(dist(p, point) for p in hand)


class Interpreter(Resync):
    """Feed it the tracker's changes frame by frame (``feed``), then ``finish`` at the end of the recording."""

    def __init__(self, referee: Referee, settings: InterpreterSettings | None = None,
                 zones: Zones | None = None) -> None:
        self.referee = referee
        self.settings = settings or InterpreterSettings()
        self.zones = zones or Zones()
        self._learn_zones = zones is None
        self.confirms: list[Confirm] = []
        self.notes: list[str] = []
        """Changes dropped as meaning nothing for the game (a card nudged, a die put back), for diagnosis."""
        self.taken_back: dict[int, int] = {}
        """Event index of a refused placement -> the frame its die left the chip."""
        self._pending: list[Change] = []
        self._refused: list[tuple[int, str, str, int]] = []
        """Refused placements whose die is still out: (event index, die, card, chip)."""
        self._back_at: dict[int, float] = {}
        """Event index of a refused placement -> when its die left the chip (seconds)."""
        self.players_of: dict[int, int] = {}
        """Event index of a refused placement -> the player (0-based) holding its card then (defused by the end,
        the card is no one's)."""
        self._reread_on_chips: list[Change] = []
        """Dice of the game read surely as other dice where they lie (the ``die+`` of a ``turned`` pair), latest last:
        each may explain a placement the rules refuse later (``_placed_read_again``)."""
        self._doubted: list[tuple[Change, str, str]] = []
        """Placements the rules refuse that were asked about while vision was unsure of the game (``_taken_back``)."""
        self._made_legal: dict[tuple[str, int], tuple[Change, str]] = {}
        """(card, chip) -> the placement there that a roll correction made legal, and the roll's die of its colours it
        replaced, which the chip's rule refuses (``_made_legal_taken_back``)."""
        self._left: list[Change] = []
        """Dice that left the roll area lately (``loose-``): each may become one die rolled again."""
        self._picked_up: deque[Change] = deque(maxlen=LIFTS_KEPT)
        """Every die lifted from the roll area of late (``loose-``): when a die placed unseen was put down."""
        self._now = (0, 0.0)
        self._frames: deque[float] = deque(maxlen=FRAMES_KEPT)
        """When the latest frames fed were seen (seconds): the frame before a change's first sighting."""
        self._arrived: dict[int, float] = {}
        """id of a pending change -> when it was fed (its commit's frame time)."""
        self._fillers: list[str] = []
        """Stand-in dice of the last roll inferred (``vision.resync.infer_roll``)."""
        self._rolled = RollSeen()
        """The latest roll seen landing."""
        self._read_again: dict[tuple[float, str], str] = {}
        """A die of a roll read again with another face where it lay (``_amend_roll``): (the roll's time, the new
        face) -> the face first read."""
        self._table: dict[tuple[str, int], str] = {}
        """The settled table's dice on chips, as the tracker's changes say (whether or not the game used them)."""
        self._faint: set[tuple[str, int]] = set()
        """Chips of ``_table`` whose die was read below ``min_confidence`` (a misread, or the chip's print)."""
        self._lost: dict[tuple[str, int], list[tuple[str, float]]] = {}
        """The dice the tracker said gone from each chip, and when (a hand hides a die as often as it takes it)."""
        self._given_up: list[Change] = []
        """Changes given up lately (``rejudge_s``): judged again when the game's task changes (``_rejudge``)."""
        self._task: tuple | None = None
        """The game's task when changes were last judged again."""
        self._gone_early: list[Change] = []
        """Cards seen leaving when it made no sense (``card-``, ``card>`` given up): each may be a card defused (or
        taken from the row for it) before the game wanted it (``vision.resync``)."""
        self._stuck: tuple[int, str] | None = None
        """(events reported, what the game waits for) when a change it could not use was last asked about: while
        the game stays stuck so, the changes it cannot use are noted, not asked about again."""
        self._judged_again: list[Change] = []
        """Changes given up and then judged again: given up again, they stay given up, asked about once."""
        self._unseen_stand_ins: set[str] = set()
        """Cards reported for a card turned up that vision never saw."""
        self._stand_ins: dict[str, str] = {}
        """Unknown card (``?N``) -> the card reported in its place (``_stand_in``)."""
        self._looks: dict[str, str] = {}
        """Unknown card -> the known card it looked most like when it turned up (``Change.likely``), if any."""
        self._resembles: dict[str, tuple[str, ...]] = {}
        """Unknown card -> the known cards it looked most like as it turned up, closest first (``Change.resembles``)."""
        self._turned_up: dict[str, float] = {}
        """Card (or unknown card) -> when it first turned up (its first ``card+``)."""
        self._back: dict[str, str] = {}
        """Unknown card -> the known card that had just left where it turned up (``_back_where_it_lay``)."""
        self._not_cards: list[Change] = []
        """Unknown cards asked about and taken as no card (the game wanted none): a card-like object, seen again where
        it lay (``_not_a_card_again``)."""
        self._cards_at: dict[str, tuple[Point, float, float]] = {}
        """Card -> where it lies, its short side (pixels) and when it left (``inf`` while there), from the card
        changes."""
        self._doubt_until = float("-inf")
        """Until then (observation seconds) the game may be out of step with the table: no violations."""
        self._landed = False
        """Whether a roll has landed (dice seen landing together)."""
        self._printed: dict[tuple[str, int], str] = {}
        """Chips read with a die on them before anything was rolled, or from the moment their card turned up (a
        die printed on the card): that reading there later is ignored."""
        self._turned_up: dict[str, float] = {}
        """Card -> when it was first seen (``card+``)."""
        self._renamed: dict[str, float] = {}
        """Card -> when a stand-in's report was corrected to it, named late (``Resync._named_later``): for
        ``doubt_s`` after, what the rules refuse on it is asked about, never flagged (it may be misnamed)."""
        self._laid: dict[str, tuple[Point, float]] = {}
        """Card dealt or revealed -> where it lay when reported, and its short side (``_straighten_row``); not a
        stand-in for a card never seen."""
        self._row_checked = False
        """Whether the first row's line was checked."""
        self.row_off_line: float | None = None
        """How far the first row's cards lay from a line as dealt, in card short sides (``_straighten_row``;
        printed by ``vision.evaluate --json``): rows dealt in order lie close to one."""
        self._lying: list[Change] = []
        """The loose dice on the table now (their ``loose+``, until a ``loose-`` of that die)."""
        self._lay_off_chips: list[tuple[Change, str]] = []
        """Dice of the roll seen lying on a card the game holds, on no chip the game could tell (``_loose_on_card``),
        with that card."""
        self._static: list[Point] = []
        """Where a loose "die" lay before the first roll (a look-alike object, a die that is not in play): loose
        changes there are no game's dice."""

    @property
    def state(self) -> State:
        return self.referee.state

    # ------------------------------------------------------------------ feeding

    def read_as_print(self, card: str, chip: int, die: str) -> bool:
        """Whether a die of ``die``'s colours read on that chip is the card's print, as the game judged a reading
        there (``Resync._not_static``), or, on a card a player holds, whether the chip prints ``die``'s face alone
        (``[6]``) or ``die``'s colour, alone or with a face (``[yellow]``, ``[green3]``: a print's face is read
        variously, probe2 h2s901's F-G08). The game never judges these a print, since a real die whose face the
        roll misread may lie there; it is for ``Pipeline.chips``, which asks only where the game placed no die
        (fifty-eighth session: 379 such readings of a face in the 36 games were the print, 38 a die just put down;
        sixty-first: the colours too, over all observations 0.0980 -> 0.0973 and 0.1207 -> 0.1098). Only held
        cards: where the game lost track of them (unseen4 h3s802), such readings are more often real dice it never
        placed."""
        printed = self._printed.get((card, chip))
        if printed is not None and colours(printed) == colours(die):
            return True
        rule = chip_rule(self.state, card, chip) if self._held(card) is not None else None
        return rule is not None and face(die).isdigit() and any(
            not a.negated and not a.split and (a.number == int(face(die)) and a.colour is None
                                               or a.colour == colours(die))
            for a in rule.atoms)

    def feed(self, changes: list[Change], frame: int, elapsed: float) -> None:
        self._frames.append(elapsed)
        self._now = (frame, elapsed)
        changes = self.remember(changes)
        self._pending += changes
        self._arrived.update((id(c), elapsed) for c in changes)
        self._pending.sort(key=lambda c: c.elapsed)
        self._step_all()
        if not self._row_checked and self.state.phase not in ("deal", "reveal"):
            self._row_checked = True
            self._straighten_row()
            for player in range(len(self.state.players)):
                self._deal_in_order(player)
        self._expire(elapsed)
        self._rejudge(elapsed)
        self._tick(elapsed - self.settings.time_lag_s)

    def finish(self, frame: int, elapsed: float) -> None:
        """The recording is over: what still waits is judged as if its wait were over (a die put down in the last
        seconds), the countdown checked at its last moment, and what is left asked about."""
        self._now = (frame, elapsed)
        self._expire(inf)
        self._tick(elapsed)
        for change in self._pending:
            self._give_up(change)
        self._pending = []

    def _tick(self, elapsed: float) -> None:
        clock = self.referee.clock
        if hasattr(clock, "seconds"):
            clock.seconds = max(clock.seconds, self._game_time(elapsed))  # type: ignore[attr-defined]
        self.referee.check_time()

    def _step_all(self) -> None:
        while not self.state.is_terminal() and self._step():
            pass

    def _step(self) -> bool:
        """Use the first pending change the game can make sense of; True if anything moved on."""
        for change in list(self._pending):
            if getattr(self, "_on_" + _NAMES[change.kind])(change):
                return True
        return False

    def _expire(self, now: float) -> None:
        """Changes the game has made no sense of ``wait_s`` after they happened and after they were committed (a
        die whose face took long to agree on still waits for the others)."""
        wait = self.settings.wait_s
        for change in [c for c in self._pending if now - max(c.elapsed, self._arrived.get(id(c), 0.0)) > wait]:
            if change not in self._pending:
                continue  # used by a re-synchronisation of the one before
            if change.kind == "card+" and any(c.kind == "card+" and c.card.startswith("?") for c in self._pending):
                continue  # an unknown card (``unknown_wait_s``), or a card waiting for the unknown one before it
            if self._resync(change):
                self._step_all()
                if change not in self._pending:
                    continue
            if (change.kind == "die+" and self.state.phase in ("roll", "name")
                    and now - change.elapsed <= self.settings.roll_patience_s):
                continue  # more of a missed roll's dice may settle on chips: the roll is inferred from them all
            self._pending.remove(change)
            self._give_up(change)
        self._arrived = {id(c): self._arrived[id(c)] for c in self._pending if id(c) in self._arrived}

    def _rejudge(self, now: float) -> None:
        """The game's task changed: the changes given up lately are judged again, as if just seen."""
        if self.state.is_terminal() or self.state.tasks[0] == self._task:
            return
        self._task = self.state.tasks[0]
        lately = [c for c in self._given_up if now - c.elapsed <= self.settings.rejudge_s]
        self._given_up = []
        if lately:
            self._judge_again(lately)
            self._step_all()

    def _give_up(self, change: Change) -> None:
        where = f"{change.card}:{change.chip}" if change.chip else change.card
        if change in self._judged_again:
            self.notes.append(f"{change.kind} {where} {change.die} at {change.elapsed:.2f} s: given up again")
            return
        self._given_up.append(change)
        if change.kind in ("card-", "card>"):
            self._gone_early.append(change)  # perhaps a card defused early (``vision.resync``)
        what = {"card+": f"card {change.card} turned up", "card-": f"card {change.card} left the table",
                "die+": f"{change.die} settled on {where}", "die-": f"{change.die} left {where}",
                "loose+": f"a loose {change.die} appeared"}.get(change.kind)
        if what is None or self.state.is_terminal():
            self.notes.append(f"{change.kind} {where} {change.die} at {change.elapsed:.2f} s: ignored")
            return
        if change.kind in ("die+", "die-"):  # (a stray loose die, a card in the row: the dice are still in step)
            self._doubt(change)
        waits = f"the game waits for {self.state.waiting_for()}"
        if self._stuck == (len(self.referee.events), waits):  # asked already, and the game has not moved since
            self.notes.append(f"{what} at {change.elapsed:.2f} s: {waits} still")
            return
        self._stuck = (len(self.referee.events), waits)
        self._ask(change, f"{what} at {change.elapsed:.2f} s, but {waits}")

    def _ask(self, change: Change, question: str, action: str = "") -> None:
        self.confirms.append(Confirm(change.frame, self._game_time(change.elapsed), question, action))

    def _done(self, change: Change) -> None:
        self._pending.remove(change)

    # ------------------------------------------------------------------ reporting

    def _game_time(self, elapsed: float) -> float:
        return round(max(0.0, elapsed - self.settings.clock_start), 3)

    def _trial(self, action: str) -> str:
        """Why the game would refuse ``action`` now (empty if it takes it)."""
        return _refusal(self.referee, action)

    def _report(self, change: Change, action: str, rule_kind: bool = False) -> Event | None:
        """Submit ``action`` if the game takes it, or (``rule_kind``, confidently seen) as a violation; else ask.
        Nothing is reported once the countdown has run out by the change's time: the game is over then."""
        limit = self.state.config.limit_seconds
        if self.state.won_at is None and self._game_time(change.elapsed) >= limit:
            before = max((t for t in self._frames if t < change.elapsed), default=None)
            if before is None or self._game_time(before) >= limit:
                self._tick(change.elapsed)
                return None
            # first seen on the frame on which the countdown ran out: made since the frame before, in time
            change = replace(change, elapsed=limit + self.settings.clock_start - BEFORE_THE_END)
        why = self._trial(action)
        if why and (not rule_kind or self._doubted_refusal(change, action, why)):
            self._ask(change, f"saw {action!r} at {self._game_time(change.elapsed):.2f} s; the rules refuse it "
                              f"({why}): is that what happened?", action)
            if rule_kind and change.kind == "die+" and by_chip_rule(why) \
                    and (change.confidence >= self.settings.taken_back_confidence or self._rolled_surely(change.die)):
                self._doubted.append((change, action, why))
            return None
        if change.kind == "card+" and change.size and action.startswith(("deal ", "reveal ")):
            self._laid[action.split()[-1]] = (change.where, change.size)
        return self._submit(change, action)

    def _doubted_refusal(self, change: Change, action: str, why: str) -> bool:
        """Whether the game's refusal ``why`` of ``action`` may be vision's doing rather than the players': asked
        about, never a violation."""
        return (_doubtful(why) or change.confidence < self.settings.min_confidence
                or change.elapsed < self._doubt_until or not self._in_step(action)
                or change.elapsed - self._renamed.get(change.card, -inf) < self.settings.doubt_s
                or (why.startswith("chip ") and any(w in why for w in VALUE_RELATIONS)
                    and self._unsure_dice_on(change.card))
                or self._unseen_placement_allows(action))

    def _unseen_placement_allows(self, action: str) -> bool:
        """Whether the game would take a placement it refuses had a die of the roll lifted from the roll area and
        seen on no chip since been put on an empty chip of the same card first (a chip to be filled before, or
        after, the others): the refusal rests on a placement vision may have missed."""
        if not action.startswith("place "):
            return False
        card, die = action.split()[-1].rpartition(":")[0], action.split()[1]
        held = self._held(card)
        return held is not None and any(takes(self.referee, [f"place {other} {card}:{k}", action])
                                        for other in self._lifted_unseen() if other != die for k in held.empty_chips)

    def _submit(self, change: Change, action: str) -> Event:
        """``action`` to the referee, dated by the change that showed it."""
        clock, at = self.referee.clock, self._game_time(change.elapsed)
        if hasattr(clock, "seconds"):
            clock.seconds = at  # type: ignore[attr-defined]
        if any(e.elapsed > at for e in self.referee.events):  # seen late, or inferred: in the log by its time
            event, moved = self.referee.insert(action, at, "vision", round(change.confidence, 3), change.frame)
            self._renumber(moved)
        else:
            event = self.referee.submit(action, "vision", round(change.confidence, 3), change.frame)
        if not event.accepted and action.startswith("place ") and (owner := self._owner(change.card)) is not None:
            self.players_of[event.index] = owner
        return event

    def _lifted_leftovers(self, change: Change, why: str) -> bool:
        """The distribution is seen over (``why``: a completed card leaves, a spark is drawn) while dice of the roll
        lifted from the roll area are seen nowhere since: they were placed out of sight, not left unused (probe11
        h3s1902's blue5, put on F-008 across the table as F-G02 was completed)."""
        lifted = list(self._lifted_unseen())
        return bool(lifted) and self._place_leftovers(change, lifted, why)

    def _infer_unseen(self, change: Change, phase: str) -> bool:
        """Report the actions nothing on the table shows (``ready``: the leader is done with the role's naming or
        ability; ``done``: the roll's distribution is over) when they are what lets the game reach ``phase`` for
        this change."""
        for chain in UNSEEN_CHAINS:
            after = self.state.clone()
            try:
                for action in chain:
                    after.apply_action(A.parse_action(action))
            except (IllegalActionError, RulesError):
                continue
            if after.is_terminal() or after.phase != phase:
                continue
            for action in chain:
                self._report(self._ready_by(change) if action == "ready" else change, action)
            return True
        return False

    def _ready_by(self, change: Change) -> Change:
        """``change`` dated for a ``ready`` it needed: by the first die lifted from the roll area since the roll at
        the latest (the leader is ready before any die is taken; a die put down before ``change`` may be seen
        only after it)."""
        rolled = self._rolled_at()
        return replace(change, elapsed=min([change.elapsed, *(c.elapsed for c in self._picked_up
                                                               if rolled <= c.elapsed)]))

    # ------------------------------------------------------------------ cards

    def owner_of(self, card: str) -> int | None:
        """The player (0-based) in front of whom ``card`` lies in the game, if any."""
        return self._owner(card)

    def _owner(self, card: str) -> int | None:
        for p, area in enumerate(self.state.players):
            if any(c.id == card for c in area.cards):
                return p
        return None

    def _unsure_dice_on(self, card: str) -> bool:
        """Whether a die the game holds on ``card`` was put there by a report read below ``min_confidence`` (or only
        inferred): a refusal that weighs it against another die rests on that reading too."""
        held, placing = self._held(card), self.referee.placing_events()
        return held is not None and any(placing[card, chip].confidence < self.settings.min_confidence
                                        for chip in held.physical if (card, chip) in placing)

    def _held(self, card: str) -> CardInPlay | None:
        """The card in front of a player (None if no player holds it)."""
        return next((c for area in self.state.players for c in area.cards if c.id == card), None)

    def _on_card_added(self, change: Change) -> bool:
        if change.card.startswith("?"):
            if any(c.kind == "card-" and c.card == change.card for c in self._pending):
                self._done(change)  # a glimpse of something card-like, gone again
                gone = next(c for c in self._pending if c.kind == "card-" and c.card == change.card)
                self._pending = [c for c in self._pending if not (c.kind == "card-" and c.card == change.card)]
                if not self._named_where_it_went(change, gone) and not self._set_aside_unnamed(change):
                    self.notes.append(f"unknown card {change.card} at {change.elapsed:.2f} s: gone again")
                return True
            if self._now[1] - self._arrived.get(id(change), self._now[1]) < self.settings.unknown_wait_s:
                return False  # a glimpse of something card-like? (the cards after it wait: the deal's order)
            self._done(change)
            if (back := self._back_where_it_lay(change)) is not None:
                self._back[change.card] = back
                self._cards_at[back] = self._cards_at.pop(change.card, self._cards_at[back])
                self.notes.append(f"unknown card {change.card} at {change.elapsed:.2f} s: {back}, back where it lay")
                return True
            if self._not_a_card_again(change):
                return True
            if change.type == "role":
                self._roles_unseen_before(change)
            stand_in = self._stand_in(change)
            if stand_in is None and change.type == "spark" and self._infer_unseen(change, "spark"):
                stand_in = self._stand_in(change)  # drawn as the distribution ended (its ``done`` unseen)
            if stand_in is None:
                self._not_cards.append(change)
            self._ask(change, f"an unknown {change.type} card turned up at ({change.where[0]:.0f}, "
                              f"{change.where[1]:.0f}): which card is it?"
                              + (f" (taken as {stand_in} meanwhile)" if stand_in else ""))
            return True
        alias = next((c for c in self._pending if c.kind == "card+" and c.card.startswith("?")
                      and c.elapsed < change.elapsed and c.resembles == (change.card,)), None)
        if any(c.kind == "card+" and c.card.startswith("?") and c.elapsed < change.elapsed and c is not alias
               for c in self._pending):
            return False  # an unknown card turned up before it: dealt (or revealed) first
        if self.state.tasks[0][0] == "deal" and self._now[1] - change.elapsed < self.settings.deal_order_s:
            return False  # a card that turned up before it may be named later yet: the deal goes by when they did
        if alias is not None:  # that card, seen first unrecognised (like it alone) and named since: turned up then
            self._done(alias)
            self.notes.append(f"unknown card {alias.card} at {alias.elapsed:.2f} s: {change.card}, named since")
        if self._guessed(change.card):
            self._replace_stand_in(change)
        if self._owner(change.card) is not None or change.card in self.state.row:
            self._done(change)  # seen again after a hand passed over it
            left = next((c for c in self._pending if c.kind == "card-" and c.card == change.card), None)
            if left is not None and dist(left.where, change.where) <= change.size:
                self._done(left)  # back where it lay (a row card seen elsewhere is one taken, for its defuse)
            return True
        task = self.state.tasks[0]
        verb = {"deal": "deal", "reveal": "reveal", "spark": "spark", "role": "role"}.get(task[0])
        if verb is None:
            if self.state.phase == "distribute" and change.type == "spark" \
                    and self._lifted_leftovers(change, f"{change.card} drawn"):
                return True  # (a spark drawn as the distribution ends: unseen4 cd3s806's green3 on C-G30)
            return self._infer_unseen(change, "spark") or self._infer_unseen(change, "reveal")
        if verb == "spark" and (card := self.state.game.cards.get(change.card)) is not None and card.kind != "spark":
            return False  # a bomb or fuse card is no spark drawn: it waits for the game to want it (a reveal)
        if verb == "role":
            self._roles_unseen_before(change)
        self._done(change)
        player = self._spark_drawer(change.where) if verb == "spark" else self.state.tasks[0][1]
        who = f" p{player + 1}" if verb in ("deal", "spark", "role") else ""
        self._report(replace(change, elapsed=alias.elapsed) if alias else change, f"{verb}{who} {change.card}")
        if verb == "deal" and change.card in self.state.set_aside:
            self._keep_in_hand(task[1], change)
        if self._learn_zones:
            if verb == "deal":
                self._learn_deal(task[1], change.card, change.where)
            elif verb == "reveal" and change.type == "bomb" and self.state.turn == 0:
                self.zones.learn("row", change.where)
        return True

    def _named_where_it_went(self, unknown: Change, gone: Change) -> bool:
        """An unknown card gone as a new card of its type, one still in the game's decks, turns up elsewhere (within
        ``moved_s``): the same card, moved and named where it went, which turned up when the unknown card did
        (probe11 h3s1902's fuse card FF-08, drawn unrecognised and named in the fuse card's place 3 s later). Not in
        the deal, whose cards turn up one after another."""
        if self.state.tasks[0][0] == "deal":
            return False
        named = next((c for c in self._pending if c.kind == "card+" and not c.card.startswith("?")
                      and c.type == unknown.type and abs(c.elapsed - gone.elapsed) <= self.settings.moved_s
                      and any(c.card in source.pool for source in (*self.state.sources.values(),
                                                                    self.state.fuse_source))), None)
        if named is None:
            return False
        self._pending[self._pending.index(named)] = moved = replace(named, elapsed=unknown.elapsed)
        self._arrived[id(moved)] = self._arrived.get(id(named), self._now[1])
        self.notes.append(f"unknown card {unknown.card} at {unknown.elapsed:.2f} s: {named.card}, named where it "
                          f"went at {named.elapsed:.2f} s")
        return True

    def _spark_drawer(self, where: Point) -> int:
        """Of the players owing a spark (they draw in any order), the one whose cards lie nearest where the spark card
        turned up; the first of them while the zones of some are not known."""
        owing = dict.fromkeys(self.state.owing_sparks())
        if len(owing) == 1 or not all(p in self.zones.players for p in owing):
            return next(iter(owing))
        return min(owing, key=lambda p: self.zones.distance(p, where))

    def _roles_unseen_before(self, change: Change) -> None:
        """A role card turning up in the hand of a player dealt a role after the one the game deals to now: the
        roles dealt before it went unseen (warm cd2s2203's R-7, never located, and R-3 taken for p1's). Each is
        reported as a stand-in and asked about. Only while the hands of all players owed a role are known and the
        card lies clearly nearer the later player's (half the distance at most)."""
        owed = [task[1] for task in self.state.tasks if task[0] == "role"]
        if len(owed) < 2 or not all(p in self.zones.players for p in owed):
            return
        taker = min(owed, key=lambda p: self.zones.distance(p, change.where))
        if taker == owed[0] or self.zones.distance(owed[0], change.where) < 2 * self.zones.distance(taker,
                                                                                                 change.where):
            return
        for player in owed[:owed.index(taker)]:
            unseen = replace(change, card="?", where=self.zones.players[player], likely=None, resembles=())
            stand_in = self._stand_in(unseen)
            if stand_in is None:
                return
            self._ask(change, f"the role card at ({change.where[0]:.0f}, {change.where[1]:.0f}) lies in p{taker + 1}'s "
                              f"hand, so p{player + 1}'s role went unseen: which card is it? (taken as {stand_in} "
                              "meanwhile)")

    def _back_where_it_lay(self, change: Change) -> str | None:
        """The named card that lies where an unknown card turns up, or left there within ``wait_s`` before: the
        same card seen again unnamed (a card dealt beside it hides the corner or print that named it), or a second
        box on it, not another card."""
        looks_like = change.resembles[:1]
        # (a card still lying there: only a box nearly on it, or one that looks most like it; cards set aside are
        # stacked a little apart)
        return next((card for card, (centre, size, gone) in self._cards_at.items()
                     if not card.startswith("?") and change.elapsed - gone <= self.settings.wait_s
                     and dist(centre, change.where) <= size / (2 if gone < inf or looks_like == (card,) else 4)), None)

    def _not_a_card_again(self, change: Change) -> bool:
        """An unknown card of a type turning up where an unknown card of that type turned up before and was taken as
        no card: the same card-like object seen again (a dice bag, a box), not a card drawn or turned up."""
        before = next((c for c in self._not_cards if c.type == change.type
                       and dist(c.where, change.where) <= min(c.size, change.size) / 2), None)
        if before is None:
            return False
        self.notes.append(f"unknown card {change.card} at {change.elapsed:.2f} s: where {before.card} turned up at "
                          f"{before.elapsed:.2f} s, taken as no card")
        return True

    def _learn_deal(self, player: int, card: str, where: Point) -> None:
        """``card``, just dealt to ``player`` at ``where``, shows where that player's cards lie, or where the
        cards that break a starting hand are set aside."""
        self.zones.learn("aside" if card in self.state.set_aside else player, where)

    def _on_card_removed(self, change: Change) -> bool:
        if change.card in self.state.row:
            return False  # taken for a defuse (seen leaving before the card defused), or hidden a while
        owner = self._owner(change.card)
        if owner is None:
            self._named_later(change)  # (an unknown card set aside, named as the cards set aside are shuffled back)
            self._done(change)  # a set-aside card shuffled back, a fuse card discarded
            self.notes.append(f"card {change.card} left at {change.elapsed:.2f} s: not in play")
            return True
        card = self._held(change.card)
        if self._no_card_dealt(change):
            return True
        if not card.complete:  # type: ignore[union-attr]  # its last dice not seen on their chips: lifted from the roll and seen nowhere since?
            if any(c.kind == "die+" and c.card == change.card for c in self._pending):
                return False  # seen there, waiting for the game
            return self._complete_from_roll(change, card)  # else ``_resync`` looks for them, or asks
        if self.state.phase in ("name", "ability"):
            return self._infer_unseen(change, "distribute")
        if self.state.phase not in ("distribute", "defuse"):
            return False
        if self.state.phase == "distribute" and not self.state.config.early_defuse:
            return self._shown_leftovers(change) or self._lifted_leftovers(change, f"{change.card} leaving") \
                or self._infer_unseen(change, "defuse")
        moved = [c for c in self._pending if c.kind in ("card>", "card-") and c.card in self.state.row]
        if card.card.kind == "spark":
            moved = []  # a spark card takes no row card
        elif self.state.row and not moved:
            laid = self._laid_in_its_place(change)
            if laid is None:
                return False  # the card taken from the row has not come to rest yet
            moved = [laid]
        taken = min(moved, key=lambda c: self.zones.distance(owner, c.where), default=None)
        if taken in self._pending:
            self._done(taken)
        self._done(change)
        for die in [c for c in self._pending if c.kind == "die-" and c.card == change.card]:
            self._done(die)
        action = f"defuse {change.card}" + (f" take {taken.card}" if taken else "")
        self._report(taken or change, action)
        return True

    def _laid_in_its_place(self, left: Change) -> Change | None:
        """An unknown card that turned up where the completed card ``left`` lay, within ``wait_s`` of it, looking most
        like a row card: the card taken in the defuse, laid in the defused card's place (its leaving the row
        unseen: the card revealed into its slot at once, or a hand over it). Taken as that row card from now on; a
        ``card>`` of it where it was laid."""
        for c in [*self._pending, *self._given_up]:
            row = [name for name in (c.likely, *c.resembles[:1]) if name in self.state.row]
            if c.kind == "card+" and c.card.startswith("?") and row and c.card not in self._stand_ins \
                    and abs(c.elapsed - left.elapsed) <= self.settings.wait_s and dist(c.where, left.where) <= c.size:
                if c in self._pending:
                    self._done(c)
                else:
                    self._given_up.remove(c)
                self._stand_ins[c.card] = row[0]
                self.notes.append(f"unknown card {c.card} laid where {left.card} lay at {c.elapsed:.2f} s: {row[0]}, "
                                  "taken from the row")
                return replace(c, kind="card>", card=row[0])
        return None

    def _on_card_moved(self, change: Change) -> bool:
        self._named_later(replace(change, where=change.before))  # a stand-in's card, named as it is taken
        if change.card in self.state.row:
            return False  # the card taken in a defuse: used with the defused card leaving
        if change.card in self.state.set_aside and self.state.phase == "deal" \
                and dist(change.before, change.where) > change.size:
            return False  # set aside in a deal not over yet (dealt cards wait for an unknown one), moved away from
            # the pile: shuffled back as the deal ends, then turned up (tune h2s88's F-G23, the row's first card)
        unseen = any(change.card in s.pool for s in self.state.sources.values())
        if unseen and self.state.phase in ("deal", "reveal"):
            return self._on_card_added(change)  # a card set aside at the deal, shuffled back and turned up
        owner = self._owner(change.card)
        if owner is not None and any(c.complete for c in self.state.players[owner].cards if c.id == change.card):
            return self._on_card_removed(change)  # a completed card carried to a discard pile: defused
        self._done(change)
        self.notes.append(f"card {change.card} moved at {change.elapsed:.2f} s")
        return True

    def _on_card_named(self, change: Change) -> bool:
        if any(c.kind == "card+" and c.card.startswith("?") and dist(c.where, change.where) <= change.size
               for c in self._pending):
            return False  # the unknown card named there is not taken for a card yet
        self._done(change)
        self._named_later(change)  # an unknown card named where it lies: a stand-in's report corrected
        return True

    # ------------------------------------------------------------------ dice on chips

    def _chip_die(self, card: str, chip: int) -> str | None:
        held = self._held(card)
        die = held.physical.get(chip) if held is not None else None
        return str(die) if die else None

    def _on_die_added(self, change: Change) -> bool:
        self._named_later(change)
        if self._chip_die(change.card, change.chip) == change.die:
            self._done(change)  # seen again after a hand passed over it: its lift waiting for the game was none
            self._pending = [c for c in self._pending if not (c.kind == "die-" and c.elapsed < change.elapsed
                                                              and (c.card, c.chip) == (change.card, change.chip))]
            return True
        if self.state.phase != "distribute":
            return self._infer_unseen(change, "distribute")  # the leader left the role's ability unused
        if self._next_roll_holds(change):
            return False  # the next roll landed before it: the game catches up with that first (``vision.resync``)
        roll = [str(d) for d in self.state.roll]
        lying = self._roll_die(change)
        if change.die not in roll and (chip := self._held_elsewhere_on(change)) is not None:
            self._done(change)  # (not asked about again and again: it is no play)
            self.notes.append(f"{change.die} seen on {change.card}:{change.chip} at {change.elapsed:.2f} s: the "
                              f"game's {change.die} on chip {chip}, not seen there")
            return True
        if lying not in roll and any(c.kind == "die+" and c.frame == change.frame and c.die in roll
                                     for c in self._pending):
            return False  # a die seen settling with it as the roll holds it goes first, before a roll correction
        # (or read faintly as the roll's very die while that die lies where the roll landed: the print looks like it;
        # a die lifted just then is committed gone late, so its lift is waited for longer)
        alike = lying == change.die and change.confidence < self.settings.min_confidence \
            and self._where_it_landed(lying) >= roll.count(lying) > 0
        if (lying != change.die or alike or self._faint_refused(change)) and self._printed_with(change) \
                and self._seen_elsewhere(lying, change) >= roll.count(lying):  # (a roll may hold two alike)
            if self._now[1] - change.elapsed < (self.settings.wait_s if alike else self.settings.lift_s):
                return False  # (its ``loose-`` may come yet)
            self._done(change)
            self._printed[(change.card, change.chip)] = change.die  # (read so again later: the print again)
            self.notes.append(f"{change.die} on {change.card}:{change.chip} at {change.elapsed:.2f} s: {lying} "
                              f"lies loose still, the card's print")
            return True
        if self._still_lying(change) and lying == change.die \
                and by_chip_rule(self._trial(f"place {change.die} {change.card}:{change.chip}")):
            return False  # refused while the tracker has not yet said its die left the roll area: its lift, and
            # the lifts of dice put down unseen before it (``_unseen_placement_allows``), may come yet
        if self._lift_may_tell(change):
            return False
        self._done(change)
        if change.die not in roll and any(d in roll for d in self._fillers):  # a stand-in die of the roll: seen now
            fix = fix_roll(self.referee, change.die, change.card, change.chip, [], self._fillers)
            if fix is not None:
                self.correct(*fix, f"{change.die} settled on {change.card}:{change.chip} at {change.elapsed:.2f} s")
        self._read_first(change)
        change = self._read_again_refused(change)
        # a face read surely on its chip is the die (the roll misread: ``fix_roll`` below), unless the roll's die of
        # its colours, lifted from the roll area, was read surer there; a faint one is that die
        die = self._roll_die(change)
        if change.confidence >= max(self.settings.sure_face, self._rolled_confidence(die)):
            die = change.die
        if die != change.die:
            self.notes.append(f"{change.die} on {change.card}:{change.chip} at {change.elapsed:.2f} s read as {die}")
            change = replace(change, die=die)
        elif die not in [str(d) for d in self.state.roll]:
            fix = fix_roll(self.referee, die, change.card, change.chip, [self._as_rolled(c) for c in self._left],
                           self._fillers) if change.confidence >= self.settings.fix_roll_confidence else None
            if fix is not None:
                self._made_legal_by(change, *fix)
                self.correct(*fix, f"{die} settled on {change.card}:{change.chip} at {change.elapsed:.2f} s")
                self._doubt(change)
            elif (lifted := self._lifted_alike_refused(change)) is not None:
                self.notes.append(f"{change.die} on {change.card}:{change.chip} at {change.elapsed:.2f} s read as "
                                  f"{lifted}, lifted from the roll area: the chip's rule refuses either")
                change = replace(change, die=lifted)
        change = self._on_top_of_held(change)
        # seen lying there, on no chip, before it was seen on the chip (its card not yet named there, or the layout
        # put it on no chip), of its colours (a face read as it lay may be another): put down then
        lying = dict.fromkeys([*(c for c in self._pending if c.kind == "loose+" and c.on_card), *self._lying])
        put = next((c for c in lying if colours(c.die) == colours(change.die)
                    and dist(c.where, change.where) <= self.settings.put_down_px
                    and (0 <= change.elapsed - c.elapsed <= self.settings.wait_s
                         or c in self._lying and c.elapsed <= change.elapsed
                         and c.confidence >= self.settings.min_confidence)), None)  # (seen surely, lying there since)
        if put is not None:
            if put in self._pending:
                self._done(put)
            change = replace(change, elapsed=put.elapsed)
        elif (lift := self._lifted_long_before(change)) is not None:  # put down unseen since it could reach it
            change = replace(change, elapsed=(lift + self.settings.put_down_s + change.elapsed) / 2)
        elif (put := self._put_down_before_next_roll(change)) is not None:
            change = replace(change, elapsed=put)
        change = self._on_one_put_down_unseen(change)
        action = f"place {change.die} {change.card}:{change.chip}"
        if self._reread_on_chips and self._trial(action):  # (the trial only where a die was read again)
            self._placed_read_again(change.card, action)
        self._doubted_placed_again(change)
        self._lay_there_refused(change)
        event = self._report(change, action, rule_kind=True)
        self._forget_lift(lambda die: die == change.die)  # the die that left the roll area went here: not rolled again
        self._note_refused(event, change.die, change.card, change.chip)
        return True

    def _on_one_put_down_unseen(self, change: Change) -> Change:
        """A die seen on a free stacked chip whose rule refuses it, where one die of the roll lifted from the roll area
        and seen nowhere since fits that chip and this die the free chip right on it: that die went on the chip
        unseen (read as its print: warm h2s2201's green4 on F-G28's ``[4]``), and this one on top of it. The die
        beneath is reported first, dated when it was lifted."""
        held = self._held(change.card)
        here = f"place {change.die} {change.card}:{change.chip}"
        if held is None or held.card.layout is None or change.chip in held.physical \
                or not by_chip_rule(self._trial(here)):
            return change
        above = [k + 1 for k, beneath in held.card.layout.supports.items() if beneath == (change.chip - 1,)
                 and k + 1 not in held.physical]
        lifted = {die: lift for die, lift in self._lifted_unseen().items() if die != change.die}
        fits = [(die, chip) for die in lifted for chip in above
                if takes(self.referee, [f"place {die} {change.card}:{change.chip}",
                                        f"place {change.die} {change.card}:{chip}"])]
        if len(fits) != 1:
            return change
        (die, chip), lift = fits[0], lifted[fits[0][0]]
        self.notes.append(f"{change.die} on {change.card}:{change.chip} at {change.elapsed:.2f} s, which refuses it: "
                          f"on chip {chip}, over {die} put down unseen")
        self._submit(replace(change, die=die, elapsed=lift.elapsed, confidence=0.0),
                     f"place {die} {change.card}:{change.chip}")
        self._forget_lift(lambda d: d == die)
        return replace(change, chip=chip)

    def _held_elsewhere_on(self, change: Change) -> int | None:
        """The chip of ``change``'s card on which the game holds the very die ``change`` saw on another chip, where
        the table does not show it: the layout put that die on a chip beside its own (probe13 cd2s2103's
        black/green3, seen on C-G34:4 turn after turn while the game held it on chip 5)."""
        held = self._held(change.card)
        if held is None:
            return None
        return next((k for k, die in held.physical.items() if str(die) == change.die and k != change.chip
                     and self._table.get((change.card, k)) != change.die), None)

    def _made_legal_by(self, change: Change, index: int, roll: str) -> None:
        """Keep a placement that the roll corrected to ``roll`` makes legal when the die of the roll it replaces has
        the placed die's colours and the chip's rule refuses it: a face misread on the chip may be hiding a
        violation (``_made_legal_taken_back``)."""
        was = [d for d in self.referee.events[index].action.split()[1:] if d not in roll.split()[1:]]
        if len(was) == 1 and colours(was[0]) == colours(change.die) \
                and by_chip_rule(self._trial(f"place {was[0]} {change.card}:{change.chip}")):
            self._made_legal[change.card, change.chip] = (change, was[0])

    def _made_legal_taken_back(self, change: Change) -> bool:
        """A die lifted soon (``taken_back_s``) from a card that stays, off a chip it went on only through a roll
        correction (``_made_legal``), as the last placement of the turn's roll: the player took back an illegal
        placement of the die as rolled, as players do when it is pointed out, and the chip's reading was a face
        misread (unseen4 cd2s803: red4 put beside a 4 on C-G13's ``[#] + [#] = 5``, read there as red1 at 0.38).
        The correction and the placement are taken back; that die's placement is the violation."""
        kept = self._made_legal.pop((change.card, change.chip), None)
        if kept is None:
            return False
        placed, was = kept
        soon = change.elapsed - placed.elapsed <= self.settings.taken_back_s
        card_stays = abs(self._cards_at.get(change.card, (None, None, inf))[2] - change.elapsed) > CARD_WITH_DICE_S
        placing = self.referee.placing_events().get((change.card, change.chip))
        roll = latest_roll(self.referee)
        if not (soon and card_stays) or placing is None or roll is None or placing.index < roll.index:
            return False
        later = [e for e in self.referee.events[placing.index + 1:] if not e.undone]
        if placed.die not in roll.action.split()[1:] or any(e.action.startswith("place ") for e in later):
            return False  # (the turn's last placement, on the roll as corrected for it)
        rolled = roll_with(roll.action, placed.die, was)
        action = f"place {was} {change.card}:{change.chip}"

        def corrections(referee: Referee, correct: Correct) -> None:
            referee.undo(placing.index)
            correct(roll.index, rolled)

        why = f"{placed.die} on {change.card}:{change.chip} at {placed.elapsed:.2f} s lifted at {change.elapsed:.2f} s"
        if not self._correct_if(corrections, why, lambda trial: by_chip_rule(_refusal(trial, action))
                                and judged_as_before(self.referee, trial, roll.index)):
            return False
        event = self._submit(replace(placed, die=was), action)
        self.taken_back[event.index] = change.frame
        self.notes.append(f"{action} at {placed.elapsed:.2f} s taken back at {change.elapsed:.2f} s: a violation, its "
                          f"die read {placed.die} on the chip")
        return True

    def _lifted_long_before(self, change: Change) -> float | None:
        """When ``change``'s die left the roll area, if that was ``late_seen_s`` or more before it was seen on its chip
        and it was seen nowhere since (a hand over it as it was put down, or the locator missing it a while)."""
        lift = self._last_lift(change)
        low, high = self.settings.late_seen_s
        if lift is None or not low <= change.elapsed - lift.elapsed < high:
            return None
        if any(c.kind == "loose+" and colours(c.die) == colours(change.die) and lift.elapsed < c.elapsed
               < change.elapsed for c in [*self._pending, *self._given_up, *self._lying]):
            return None
        return lift.elapsed

    def _last_lift(self, change: Change) -> Change | None:
        """The latest lift from the roll area of a die read as ``change``'s, by ``change``'s time."""
        return next((c for c in reversed(self._left) if c.die == change.die and c.elapsed <= change.elapsed), None)

    def _put_down_before_next_roll(self, change: Change) -> float | None:
        """When ``change``'s die was put on its chip, if the next roll was seen landing after the die left the roll
        area and before it was seen there: before that roll (its turn ended first), at the soonest it could reach
        the chip (``put_down_s``), a hand or the locator hiding it until after (warm h3s2202's green1, lifted at
        7.3 s and seen on F-008 only at 13.8 s, the next roll landing at 11.7 s)."""
        lift = self._last_lift(change)
        if lift is None:
            return None
        landed = [c.elapsed for c in self._pending if c.kind == "loose+" and lift.elapsed < c.elapsed < change.elapsed
                  and self._heap(c)]
        return min([lift.elapsed + self.settings.put_down_s, *landed]) if landed else None

    def _still_lying(self, change: Change) -> bool:
        """Whether a die read as ``change``'s still lies loose as far as the tracker has said, ``change`` seen lately
        (``wait_s``): the tracker commits a die gone from the roll area later than one settling on a chip."""
        return self._now[1] - change.elapsed < self.settings.wait_s and any(c.die == change.die for c in self._lying)

    def _lift_may_tell(self, change: Change) -> bool:
        """Whether ``change``, a die the roll lacks, settled on a chip lately (``which_lifted_s``) while several dice
        of its colours in the roll lie loose still as far as the tracker has said: which of them was picked up, its
        ``loose-`` (committed later than a die settling on a chip), may tell yet (``fix_roll``; unseen5 p4s1005's
        blue5, read blue6 in the roll beside a blue3)."""
        roll = [str(d) for d in self.state.roll]
        alike = [c for c in self._lying if c.die in roll and colours(c.die) == colours(change.die)]
        lately = self._now[1] - change.elapsed < self.settings.which_lifted_s
        return lately and change.die not in roll and len(alike) > 1

    def _faint_refused(self, change: Change) -> bool:
        """Whether ``change`` read its die faintly on a chip whose rule refuses it (a print's look-alike)."""
        return change.confidence < self.settings.min_confidence \
            and by_chip_rule(self._trial(f"place {change.die} {change.card}:{change.chip}"))

    def _seen_elsewhere(self, die: str, change: Change) -> int:
        """How many dice named ``die`` the table shows elsewhere than ``change``'s chip: lying loose still, or seen
        settling on another chip in the same frame, read surer."""
        settling = [c for c in self._pending if c.kind == "die+" and c.frame == change.frame and c.die == die
                    and c.confidence > change.confidence and (c.card, c.chip) != (change.card, change.chip)]
        return sum(c.die == die for c in self._lying) + len(settling)

    def _where_it_landed(self, die: str) -> int:
        """How many dice named ``die`` lie loose still where this turn's roll was seen landing, as far as the tracker
        has said."""
        if not self._rolled.of(latest_roll(self.referee)):
            return 0  # (the roll was inferred, not seen landing: where it lay is not known)
        return sum(c.die == die and bool(self._rolled.near(c.where, self.settings.same_spot_px)) for c in self._lying)

    def _as_rolled(self, lifted: Change) -> str:
        """The die of the roll (as reported, or corrected since) that lay where ``lifted`` was lifted from; else
        as the tracker read it last. A faint die read again with other colours where it lay (red4, black4, blue4:
        colours are not amended, ``_amend_roll``) is still the roll's die of that spot."""
        roll, spots = last_roll(self.referee), self._rolled.spots
        dice = roll.action.split()[1:] if roll is not None and self._rolled.of(roll) else []
        there = self._rolled.near(lifted.where, self.settings.same_spot_px)
        return dice[there[0]] if len(dice) == len(spots) and len(there) == 1 and not lifted.turned else lifted.die

    def _rolled_surely(self, die: str) -> bool:
        """Whether ``die`` was read surely as the roll landed and lifted from the roll area since."""
        return self._rolled_confidence(die) >= self.settings.sure_face

    def _rolled_confidence(self, die: str) -> float:
        """How surely ``die`` was read as the roll landed, if it lifted from the roll area since (else 0)."""
        lifted = self._rolled.of(latest_roll(self.referee)) and die in [c.die for c in self._left]
        return self._rolled.readings.get(die, 0.0) if lifted else 0.0

    def _lifted_alike_refused(self, change: Change) -> str | None:
        """The roll's one die (or the one lately lifted of several) of the colours of a die read on a chip where no
        correction of the roll fits it, read surely as the roll landed and lately lifted from the roll area, when the
        chip's rule refuses that die too: the die put there, its face misread on the chip, an illegal placement
        either way."""
        alike = [d for d in map(str, self.state.roll) if colours(d) == colours(change.die)]
        if len(alike) > 1:  # the one of them lately picked up from the roll area, if the tracker saw which
            alike = [d for d in alike if d in {c.die for c in self._left[-1:]}]
        if len(alike) != 1 or not self._rolled_surely(alike[0]):
            return None
        return alike[0] if by_chip_rule(self._trial(f"place {alike[0]} {change.card}:{change.chip}")) else None

    def _next_roll_holds(self, change: Change) -> bool:
        """Whether a die settling on a chip, of colours the roll lacks, is one of a heap of loose dice that landed
        before it and that the game has not used yet: the next roll, landed before vision caught up with the game
        (a ``done`` or a spark it missed), its dice placed while the catch-up waits."""
        if any(colours(str(d)) == colours(change.die) for d in self.state.roll):
            return False
        landed = [c for c in self._pending if c.kind == "loose+" and c.elapsed < change.elapsed
                  and colours(c.die) == colours(change.die)]
        if any(self._heap(c) for c in landed):
            return True
        # or glimpsed once (brief) while such a heap waits: p4s1905's black6, seen in the roll area only as it was
        # lifted, the heap it landed with seen two dice short
        return any(c.brief for c in landed) and any(
            c.kind == "loose+" and c.elapsed < change.elapsed and self._heap(c) for c in self._pending)

    def _on_top_of_held(self, change: Change) -> Change:
        """A die seen on a chip where the game holds another die, on a card that stacks chips on that one: the die
        on top, when exactly one free chip there takes it (the tracker lost the die under it, hidden now, and so
        put the new die on the bottom chip)."""
        above = self._chip_above_held(change)
        if above is None:
            return change
        self.notes.append(f"{change.die} seen on {change.card}:{change.chip} at {change.elapsed:.2f} s, which "
                          f"holds {self._chip_die(change.card, change.chip)}: on top of it, chip {above}")
        return replace(change, chip=above)

    def _chip_above_held(self, change: Change) -> int | None:
        """The one free chip stacked on the held chip ``change`` saw its die on that takes the die; with none free
        right above it, the one free stacked chip of the card that takes it (a pyramid's upper die, lying over two
        dice, is seen over either). None: none, or the chip is not held by another die."""
        here = self._chip_die(change.card, change.chip)
        if self._owner(change.card) is None or here is None or here == change.die:
            return None
        card = self._held(change.card)
        layout = card.card.layout  # type: ignore[union-attr]
        supports = layout.supports.items() if layout else ()
        free = [(k + 1, beneath) for k, beneath in supports if k + 1 not in card.physical
                and not self._trial(f"place {change.die} {change.card}:{k + 1}")]
        above = [chip for chip, beneath in free if change.chip - 1 in beneath] or [chip for chip, _ in free]
        if not free:  # no chip above takes it: on the one right on it all the same, if a stack's (refused there)
            above = [k + 1 for k, beneath in supports if k + 1 not in card.physical and beneath == (change.chip - 1,)]
        return above[0] if len(above) == 1 else None

    def _roll_die(self, change: Change) -> str:
        """The die of the roll that settled on a chip: as read, or, when no die of the roll shows that face, the one
        die of its colours there if it may go on that chip (a face misread as it landed: the roll was read for
        longer); with none of its colours, the one split die of its face sharing a colour with it (a half misread on
        the chip: split dice are the reader's weakest colours)."""
        roll = [str(d) for d in self.state.roll]
        if change.die in roll:
            return self._lifted_instead(change, roll) or change.die
        alike = {d for d in roll if colours(d) == colours(change.die)} or {
            d for d in roll if face(d) == face(change.die) and "/" in colours(d)
            and set(colours(d).split("/")) & set(colours(change.die).split("/"))}  # (a split die's half misread)
        if len(alike) > 1:  # the one of them lately picked up from the roll area, if the tracker saw which
            alike &= {c.die for c in self._left[-1:]}
        if len(alike) != 1:
            return change.die
        (die,) = alike
        chip = self._chip_above_held(replace(change, die=die)) or change.chip  # (a stack's bottom chip, its top)
        return die if not self._trial(f"place {die} {change.card}:{chip}") else change.die

    def _lifted_instead(self, change: Change, roll: list[str]) -> str | None:
        """A die of the roll read faintly on a chip that refuses it while that die lies loose still, the die lately
        lifted from the roll area being another of the roll of its colours that the chip takes: that one (probe
        h2s401's red5 on F-G09's ``[yellow/5]``, read red3 there while red3 lay in the roll area until rolled
        again)."""
        if change.confidence >= self.settings.min_confidence or not self._left \
                or not any(c.die == change.die for c in self._lying):
            return None
        lifted = self._left[-1].die
        if lifted == change.die or lifted not in roll or colours(lifted) != colours(change.die):
            return None
        refused = by_chip_rule(self._trial(f"place {change.die} {change.card}:{change.chip}"))
        return lifted if refused and not self._trial(f"place {lifted} {change.card}:{change.chip}") else None

    def _on_die_removed(self, change: Change) -> bool:
        here = self._chip_die(change.card, change.chip)
        if change.turned:  # read again as another die where it lay (``Tracker._reread``): nothing was lifted
            self._done(change)
            again = next((c for c in self._pending if c.kind == "die+" and c.turned and c.frame == change.frame
                          and (c.card, c.chip) == (change.card, change.chip)), None)
            if here is not None and again is not None:  # the game's die there, read otherwise now: a misreading
                self._done(again)
                if self._taken_on_its_twin(again):
                    return True
                self._reread_on_chips.append(again)
                self.notes.append(f"{here} on {change.card}:{change.chip} at {again.elapsed:.2f} s read again as "
                                  f"{again.die}")
            return True
        if here is None:
            if any(c.kind == "die+" and (c.card, c.chip) == (change.card, change.chip) and c.elapsed < change.elapsed
                   for c in self._pending):
                return False  # the placement it undoes waits still: that first
            completing = self._completing_lifted(change)
            if self._lifted_doubted(change) \
                    and self._now[1] - self._arrived.get(id(change), -inf) < self.settings.leaving_s:
                return False  # a die only asked about, lifted: its card may be leaving with it (``_taken_back``)
            self._done(change)
            self._return_seen_late(change)
            if not (completing and self._bare(change.card)):  # (all its dice lifted: the card defused)
                self._taken_back(change)
            self._refused_taken_back(change, lambda _, card, chip: (card, chip) == (change.card, change.chip))
            return True
        if self._made_legal_taken_back(change):
            self._done(change)
            return True
        if here != change.die and self._refused_lifted(change):
            self._done(change)  # the refused die on top of a stack, seen a level low, taken back
            return True
        card = self._held(change.card)
        if self.state.phase == "lose":
            if self._surer_lift_may_come(change):
                return False
            self._done(change)
            action = f"return {change.card}:{change.chip}"
            if "must return a die matching" in self._trial(action):
                at = self._game_time(change.elapsed)
                _ = self._returned_misread(action, here, at) or self._unused_misread(action, here, at)
            self._report(change, action, rule_kind=True)
            return True
        if card is not None and card.complete and self.state.phase in ("distribute", "defuse") \
                and self._bare(change.card) \
                and not any(c.kind == "card-" and c.card == change.card for c in self._pending):
            # every die lifted from a completed card that still shows: defused, and the row card taken put in its
            # place (the layout cannot tell the two apart there), or the card about to go
            where = self._cards_at.get(change.card, (change.where,))[0]
            self._pending.append(replace(change, kind="card-", chip=0, die="", where=where,
                                         type=card.card.kind))
            self.notes.append(f"every die lifted from {change.card} by {change.elapsed:.2f} s: taken as gone")
        return False  # the dice of a card being defused (used when the card leaves), or a die to return once an
        # unused die is rolled again (the roll comes first); a die lost from sight alone says nothing

    def _surer_lift_may_come(self, change: Change) -> bool:
        """Whether a die read faintly, lost from its chip as a die is to be returned, may be only hidden by the hand
        that lifts another: a surer die lifted from the same player's cards then (``surer_lift_s``) is the die
        returned (probe13 s2104's blue3, faint on a navy board, lost under the hand lifting black1)."""
        if change.confidence >= self.settings.min_confidence:
            return False
        owner = self._owner(change.card)
        if any(c.kind == "die-" and c is not change and c.confidence > change.confidence
               and self._owner(c.card) == owner and self._chip_die(c.card, c.chip) is not None for c in self._pending):
            return True
        return self._now[1] - self._arrived.get(id(change), -inf) < self.settings.surer_lift_s

    def _taken_back(self, change: Change) -> None:
        """A die lifted from a chip where a placement the rules refuse was only asked about (vision was unsure of
        the game), soon and while the rules still refuse it for the same reason: the player took an illegal
        placement back, as players do when it is pointed out; a misread die stays where it lies. A violation;
        not when the card leaves the table with it (defused with dice the game never saw placed)."""
        left = self._cards_at.get(change.card, (None, None, inf))[2]
        for doubted in list(self._doubted):
            placed, action, why = doubted
            if change.elapsed - placed.elapsed > self.settings.taken_back_s:
                self._doubted.remove(doubted)
            elif (placed.card, placed.chip) == (change.card, change.chip) and self._trial(action) == why \
                    and abs(left - change.elapsed) > CARD_WITH_DICE_S:
                self._doubted_violation(doubted, change, f"taken back at {change.elapsed:.2f} s")

    def _doubted_placed_again(self, change: Change) -> None:
        """The die of a placement the rules refuse by its chip's rule, only asked about (``_doubted``), seen put on
        another card soon (``taken_back_s``) while the roll holds no other die of its name, lifted from the roll area
        before the first placement and seen back there since: the player took it back unseen (the tracker kept
        showing it on the first chip), so the first placement was a violation (unseen4 h2s801's green1 on F-G11's
        ``[blue/6]``, back in the roll area and then put on F-008)."""
        roll, rolled = [str(d) for d in self.state.roll], self._rolled_at()
        for doubted in list(self._doubted):
            placed, action, why = doubted
            die = action.split()[1]
            if die != change.die or placed.card == change.card or roll.count(die) != 1 \
                    or not 0 <= change.elapsed - placed.elapsed <= self.settings.taken_back_s \
                    or self._trial(action) != why:
                continue  # (on another chip of the same card: the layout's first chip for it was wrong)
            lifted = any(not c.turned and colours(c.die) == colours(die) and rolled <= c.elapsed <= placed.elapsed
                         for c in self._picked_up)
            if not lifted or self._seen_back(die, placed.elapsed, change.elapsed) is None:
                continue  # (lifted from the roll area before the first chip, and seen back there since)
            self._doubted_violation(doubted, change, f"taken back unseen: {die} put on {change.card}:{change.chip} "
                                                     f"at {change.elapsed:.2f} s")

    def _lay_there_refused(self, change: Change) -> None:
        """A die of the roll seen lying on ``change``'s card since the roll, on no chip the game could tell, just where
        ``change`` now settles on a chip (``put_down_px``), and seen back off the cards since: it lay on that chip
        first, whose rule refuses it, an illegal placement taken back (probe11 cd2s1903's yellow1 on S-G20's
        ``[6]``, whose chips were placed only when the card was measured again later)."""
        rolled = self._rolled_at()
        self._lay_off_chips = [(lay, card) for lay, card in self._lay_off_chips if lay.elapsed >= rolled]
        for lay, card in list(self._lay_off_chips):
            dice = self._roll_dice_like(lay)
            if card != change.card or lay.die == change.die or lay.elapsed >= change.elapsed or len(dice) != 1 \
                    or dist(lay.where, change.where) > self.settings.put_down_px:
                continue
            back = self._seen_back(lay.die, lay.elapsed, change.elapsed)
            action = f"place {dice[0]} {card}:{change.chip}"
            if back is None or not by_chip_rule(self._trial(action)):
                continue
            self._lay_off_chips.remove((lay, card))
            placed = replace(lay, die=dice[0], card=card, chip=change.chip)
            self.taken_back[self._submit(placed, action).index] = back.frame
            self.notes.append(f"{action} at {lay.elapsed:.2f} s, where {change.die} settled at {change.elapsed:.2f} s, "
                              f"and back off the cards at {back.elapsed:.2f} s: a violation")

    def _seen_back(self, die: str, after: float, before: float) -> Change | None:
        """A die of ``die``'s colours seen loose off the cards (back in the roll area) between those times."""
        return next((c for c in [*self._pending, *self._given_up, *self._lying] if c.kind == "loose+"
                     and not c.on_card and colours(c.die) == colours(die) and after < c.elapsed < before), None)

    def _doubted_violation(self, doubted: tuple[Change, str, str], back: Change, how: str) -> None:
        """A placement only asked about (``_doubted``) reported as the violation it was, taken back at ``back``."""
        placed, action, _ = doubted
        self._doubted.remove(doubted)
        self.taken_back[self._submit(placed, action).index] = back.frame
        self.notes.append(f"{action} at {placed.elapsed:.2f} s {how}: a violation")

    def _lifted_doubted(self, change: Change) -> bool:
        """Whether ``change`` lifted a die whose placement the game was only asked about (``_doubted``)."""
        return any((placed.card, placed.chip) == (change.card, change.chip) for placed, _, _ in self._doubted)

    def _completing_lifted(self, change: Change) -> bool:
        """Whether ``change`` lifted a die the game was only asked about that is the last its card lacks: the card
        may be leaving with all its dice, or all of them be lifted, defused (an earlier die misread made the rules
        refuse the last one), so the lift is judged once the card has had the time to be seen leaving
        (``leaving_s``), and taken back only from a card that keeps its other dice."""
        card = self._held(change.card)
        return card is not None and change.chip not in card.placed \
            and len(card.placed) + 1 == card.card.chip_count and self._lifted_doubted(change)

    def _printed_with(self, change: Change) -> bool:
        """Whether the chip ``change`` saw a die on is printed with a colour of that die (its rule names it)."""
        rule = chip_rule(self.state, change.card, change.chip) if self._held(change.card) is not None else None
        return rule is not None and any(a.colour in colours(change.die).split("/") and not a.negated
                                        for a in rule.atoms)

    def _bare(self, card: str) -> bool:
        """Whether the table shows no die on ``card``'s chips, but for its print read as one."""
        return all(colours(self._printed.get(k, "")) == colours(die) for k, die in self._table.items() if k[0] == card)

    # ------------------------------------------------------------------ loose dice

    def _on_loose_added(self, change: Change) -> bool:
        card = self._card_under(change) if self._may_place(change) else None
        if card is not None:  # a die on a card that the card layout put on no chip: seen on its chip soon?
            owner = self._owner(card)
            cards = self.state.players[owner].cards if owner is not None else []
            rolled = change.die in [str(d) for d in self.state.roll]  # (then a die of its colours there is another)
            held = any(str(d) == change.die or colours(str(d)) == colours(change.die) and not rolled
                       for c in cards if c.id == card for d in c.physical.values())
            if held or owner is None:
                self._done(change)
                self.notes.append(f"{change.die} at {change.elapsed:.2f} s lies on {card}, on no chip")
                return True
            return self._refused_on_card(change, card)  # else used by ``_resync`` if nothing else explains it
        for i, (index, die, _, _) in enumerate(self._refused):
            back = self._back_at.get(index)
            if die == change.die and back is not None and change.elapsed - back <= self.settings.wait_s:
                self._done(change)  # the refused die, just taken off its chip, back where it lay
                del self._refused[i]
                return True
        # (a die of its colours there: the same die, read now with another face; one rolled again lands elsewhere)
        same = next((c for c in self._left if colours(c.die) == colours(change.die) and not change.turned
                     and 0 <= change.elapsed - c.elapsed <= self.settings.wait_s
                     and dist(c.where, change.where) <= self.settings.same_spot_px), None)
        if same is not None and self.state.phase in ("distribute", "unused") and not self._heap(change):
            self._done(change)  # hidden a while (a hand), seen again where it lay: not rolled again
            self._left.remove(same)
            self.notes.append(f"{change.die} at {change.elapsed:.2f} s: seen again where it lay")
            return True
        if change.turned and (self._amend_roll(change) or self._unused_read_again(change)
                              or self._left_unused_read_again(change)):
            return True
        task = self.state.tasks[0]
        if task[0] == "roll" and not change.brief:
            return self._roll(task)
        if task[0] == "name" and not change.brief:  # the leader named nothing: the roll follows at once
            # (unless one die more lands than the leader rolls: a stand-in role is the Logistics Specialist's, who
            # names nothing; a "ready" inferred first would keep the stand-in)
            if self._one_die_more(self._lying_loose(), self._roll_size()) and self.state.tasks[0][0] == "roll":
                return self._roll(self.state.tasks[0])
            return self._infer_unseen(change, "roll")
        if change.on_card:
            return False  # put down on a card (on no chip the layout knows yet): no die rolled again
        # a die rolled again (an unused die): a die of its colour left the roll area just before (not one read
        # again where it lies: unseen5 p4s1005's red die, read red5 there before it was rolled again)
        left = next((c for c in self._left if colours(c.die) == colours(change.die) and not c.turned
                     and c.elapsed <= change.elapsed + 0.5), None)
        if left is None:
            return False
        if task[0] == "lose" and self._rolled_again_late(change, left):
            return True
        if task[0] == "unused":  # in whatever order the leader picks the unused dice up
            if colours(change.die) not in {colours(str(t[1])) for t in self.state.tasks if t[0] == "unused"}:
                return False
            if self._surer_alike(change):
                return False  # the die rolled again is the surer reading (this one a misread, or a shadow)
            self._done(change)
            self._left.remove(left)
            self._report(change, f"unused {change.die}")
            return True
        if task[0] == "distribute" and colours(change.die) in {colours(str(d)) for d in self.state.roll}:
            if change.confidence < self.settings.min_confidence and not self._lifted_since(change) \
                    or self._heap(change):
                return False  # a faint reading, or the next roll landing, ends no one's distribution
            lifted = [die for die, c in self._lifted_unseen().items() if c is not left]
            if lifted:  # picked up before the unused die was rolled again, and seen nowhere: placed out of sight
                self._place_leftovers(change, lifted)
            return self._infer_unseen(change, "unused")
        return False

    def _surer_alike(self, change: Change) -> bool:
        """Whether, ``change`` read faintly, a loose die of its colours waits elsewhere, read surer (the same die
        read again where it lies corrects the reading instead, ``_unused_read_again``)."""
        return change.confidence < self.settings.min_confidence and any(
            colours(c.die) == colours(change.die) and c.confidence > change.confidence
            and dist(c.where, change.where) > self.settings.same_spot_px for c in self._lying_loose())

    def _lifted_since(self, change: Change) -> bool:
        """Whether, since ``change``, one die the game holds on a chip was lifted alone from its card, matching
        ``change``'s colour or face, from a card still lacking dice: no distribution lifts a placed die, and a
        defuse lifts all of a complete card's; a loss lifts one die that matches the unused die rolled again
        (``change``, read too faintly to end the distribution alone)."""
        lifted = [c for c in self._pending if c.kind == "die-" and not c.turned and c.elapsed >= change.elapsed]
        for c in lifted:
            die, held = self._chip_die(c.card, c.chip), self._held(c.card)
            alone = not any(o is not c and o.card == c.card and abs(o.elapsed - c.elapsed) <= self.settings.heap_s
                            for o in lifted)
            if die is None or held is None or held.complete or not alone:
                continue
            held_die, rolled = Die.parse(die), Die.parse(change.die)
            if held_die.face == rolled.face or held_die.shares_colour(rolled):
                return True
        return False

    def _roll(self, task: tuple) -> bool:
        # every loose die still waiting counts, even one first seen before the game's last event: a placement
        # seen late (under a hand) may be reported after the next roll has landed
        seen = [c for c in self._pending if c.kind == "loose+"]
        lying = self._lying_loose()
        if self._one_die_more(lying, task[1]):
            task = self.state.tasks[0]
        wanted = min(task[1], sum(self.state.bag.values()))
        if len(seen) < wanted:
            return False
        landed = _landed_together(lying, self.settings.heap_s)  # (a die lying since before it is none of them)
        if wanted >= 2 and len(landed) < 2:
            return False  # loose dice seen one by one, none landing with another: no roll yet
        chosen = _cluster(landed if len(landed) >= wanted else lying if len(lying) >= wanted else seen, wanted)
        dice = sorted(chosen, key=lambda c: (c.where[0], c.where[1]))
        for c in dice:
            self._done(c)
        for c in seen:
            read_again = c.turned and any(dist(c.where, d.where) <= self.settings.same_spot_px for d in chosen)
            if c not in chosen and not read_again:  # a loose "die" apart from the roll, seen with it: no die of the
                # game (but a die of it read again where it lies, judged once the roll is: p4s1005's red6 as red1)
                self._pending.remove(c)
                self._static.append(c.where)
                self.notes.append(f"loose {c.die} at {c.elapsed:.2f} s: apart from the roll, not in play")
        # half a roll's dice or more show when it landed; the others may be read late (misread at first, under a hand)
        landed = sorted(dice, key=lambda c: c.elapsed)[(len(dice) - 1) // 2]
        low = min(dice, key=lambda c: c.confidence)
        read = {c.die: c.confidence for c in sorted(dice, key=lambda c: c.confidence)}  # (twins: the surer)
        self._rolled = RollSeen(self._game_time(landed.elapsed), read, tuple(c.where for c in dice))
        self._report(Change("loose+", landed.frame, landed.elapsed, confidence=low.confidence),
                     "roll " + " ".join(c.die for c in dice))
        return True

    def _lying_loose(self) -> list[Change]:
        """The loose dice waiting for the game that lie a while, as a roll's do (a glimpse, a hand or a look-alike,
        does not)."""
        return [c for c in self._pending if c.kind == "loose+" and not c.brief]

    def _roll_size(self) -> int:
        """How many dice the leader rolls this turn (as the game knows the leader's role)."""
        return next(task[1] for task in self.state.tasks if task[0] == "roll")

    def _one_die_more(self, lying: list[Change], wanted: int) -> bool:
        """One die more than the leader rolls lands at once while the leader's role is a stand-in (its card
        unknown): the role is the Logistics Specialist's, who rolls one extra die, and the stand-in is corrected to
        it (when no other card is known to be it)."""
        area = self.state.players[self.state.leader]
        if len(lying) <= wanted or area.role is None or not self._guessed(area.role.id):
            return False
        landed = self._heap(max(lying, key=lambda c: c.elapsed))
        logistics = next((card.id for card in self.state.game.of_kind("role") if card.name == LOGISTICS), None)
        if len(landed) != wanted + 1 or logistics is None or logistics in self._seen_cards():
            return False
        unknown = self._unknown_for(area.role.id)
        return self._swap_stand_in(unknown, logistics, f"{wanted + 1} dice rolled at {landed[0].elapsed:.2f} s: "
                                                       f"p{self.state.leader + 1}'s role rolls one extra die")

    def _amend_roll(self, change: Change) -> bool:
        """A die of the roll being distributed, still lying there, read again with another face where it lay: the
        roll was misread. Corrected in the referee's log (``Referee.correct``: the reports since are replayed, and
        none of them used that die)."""
        old = self._read_before(change)
        if old is None or self.state.phase not in ("ability", "distribute"):
            return False
        roll = last_roll(self.referee)
        if roll is None or old.die not in roll.action.split() or old.die not in [str(d) for d in self.state.roll]:
            return False
        self._done(change)
        self._left.remove(old)
        self._roll_read_as(roll, old.die, change.die, f"roll read again at {change.elapsed:.2f} s: {old.die} is "
                                                      f"{change.die}")
        self._read_again[(roll.elapsed, change.die)] = old.die
        return True

    def _left_unused_read_again(self, change: Change) -> bool:
        """A die of the roll left unused, lying where it landed after the distribution, read again with another face
        (``change``, turned) before anything was rolled again: the roll misread it (probe11 cd3s1906's blue6, read
        blue3 as it landed). The roll is corrected if every other report stands."""
        old = self._read_before(change)
        roll = latest_roll(self.referee)
        if old is None or roll is None or not self._rolled.of(roll):
            return False
        dice = roll.action.split()[1:]
        events = [e for e in self.referee.events[roll.index + 1:] if not e.undone]
        later, spot = [e.action for e in events], self._rolled.nearest(old.where, self.settings.nudged_px)
        done = any(e.action == "done" and e.confidence >= self.settings.min_confidence for e in events)  # (seen)
        if spot is None or dice[spot] != old.die or not done \
                or any(a.split()[:2] == ["place", old.die] or a.startswith(("unused ", "roll ")) for a in later):
            return False
        if not self._correct_if(lambda _, correct: correct(roll.index, roll_with(roll.action, old.die, change.die)),
                                f"{old.die}, left unused, read again at {change.elapsed:.2f} s as {change.die}",
                                lambda trial: judged_as_before(self.referee, trial, roll.index)):
            return False
        self._done(change)
        self._left.remove(old)
        return True

    def _read_first(self, change: Change) -> None:
        """A die settling on a chip with the face the roll was first read with, before a reading again where it lay
        changed it (``_amend_roll``): that reading was the misread one; the roll is corrected back."""
        roll = last_roll(self.referee)
        if roll is None:
            return
        again = next((new for (at, new), first in self._read_again.items()
                      if at == roll.elapsed and first == change.die), None)
        rolled = [str(d) for d in self.state.roll]
        if again is None or again not in rolled or change.die in rolled or again not in roll.action.split():
            return
        if self._only_read_again_fits(roll, again, change):
            return
        del self._read_again[(roll.elapsed, again)]
        self._roll_read_as(roll, again, change.die, f"{change.die} settled on {change.card}:{change.chip} at "
                                                    f"{change.elapsed:.2f} s, as the roll was first read")

    def _read_again_refused(self, change: Change) -> Change:
        """A die settling faintly on a chip with the face a reading again of the roll gave it (``_amend_roll``), which
        the chip's rule refuses, when the chip takes the face first read, with the roll read back so: the reading
        again was the misread one (warm h2s2201's red5, read again as red6 where it lay and faintly so on F-G11's
        ``[black/5]``). The roll is corrected back and the die is the first reading's."""
        roll = last_roll(self.referee)
        first = self._read_again.get((roll.elapsed, change.die)) if roll is not None else None
        rolled = [str(d) for d in self.state.roll]
        if roll is None or first is None or change.die not in rolled or first in rolled \
                or not self._faint_refused(change):
            return change
        if not self._placed_with_roll_read(roll, change.die, first, f"place {first} {change.card}:{change.chip}") \
                .accepted:
            return change
        del self._read_again[(roll.elapsed, change.die)]
        self._roll_read_as(roll, change.die, first, f"{change.die} settled faintly on {change.card}:{change.chip} at "
                                                    f"{change.elapsed:.2f} s, which refuses it: as first read")
        return replace(change, die=first)

    def _only_read_again_fits(self, roll: Event, again: str, change: Change) -> bool:
        """Whether the chip ``change`` saw the die settle on takes it as read again (``again``) but, the roll read
        back as first, refuses it by its rule: the reading on the chip, as the first, was the misread one."""
        here = f"{change.card}:{change.chip}"
        if self._trial(f"place {again} {here}"):
            return False
        placed = self._placed_with_roll_read(roll, again, change.die, f"place {change.die} {here}")
        return not placed.accepted and placed.reason.startswith("chip ")  # (its rule, not the turn's count)

    def _placed_with_roll_read(self, roll: Event, old: str, new: str, action: str) -> Event:
        """How the game would judge ``action`` had ``roll`` read ``new`` for ``old`` (tried on a copy)."""
        trial = copy_of(self.referee)
        trial.correct(roll.index, roll_with(roll.action, old, new))
        return trial.submit(action)

    def _roll_read_as(self, roll: Event, old: str, new: str, why: str) -> None:
        """Report ``roll`` corrected: its die ``old`` was ``new``."""
        self.correct(roll.index, roll_with(roll.action, old, new), why)

    def correct(self, index: int, action: str, why: str, *, more_to_come: bool = False) -> None:
        """Replace report ``index`` (a roll or card misread, or as the person corrected it at the dashboard) with
        ``action`` (``Referee.correct``), keeping track of refused placements; ``why`` goes into the notes. The
        inferred reports the game refuses since are taken back once the last of several corrections is made
        (``more_to_come`` before it: halfway, a die's placement and its roll may not fit)."""
        old = self.referee.events[index].action.split()[1:]
        for die in old:  # a stand-in die replaced
            if die in self._fillers and die not in action.split()[1:]:
                self._fillers.remove(die)
        self.referee.correct(index, action)
        self._renumber({i: i + 1 for i in range(index + 1, len(self.referee.events) - 1)})  # the fix's place
        self.notes.append(f"{why}: now {action!r}")
        if not more_to_come:
            self._unfit_inferences(why)

    def _unfit_inferences(self, why: str) -> None:
        """Reports vision only inferred (confidence 0: nothing showed them) that the game refuses once a report
        before them was corrected: the story inferred no longer fits, which says nothing of the players, so never
        a violation. Each is taken back and asked about."""
        while unfit := [e for e in self.referee.events if not e.accepted and not e.undone and e.confidence == 0.0]:
            event = unfit[0]
            self.referee.undo(event.index)
            self.confirms.append(Confirm(event.frame or 0, event.elapsed, f"{event.action!r} was inferred at "
                                         f"{event.elapsed:.2f} s, but after a correction ({why}) the rules refuse "
                                         f"it ({event.reason}): what happened?", event.action))

    def _renumber(self, moved: dict[int, int]) -> None:
        """Reports in the referee's log moved (old index -> new): the ones kept by index follow."""
        def shift(i: int) -> int:
            return moved.get(i, i)
        self._refused = [(shift(i), *rest) for i, *rest in self._refused]  # type: ignore[misc]
        self.taken_back = {shift(i): f for i, f in self.taken_back.items()}
        self.players_of = {shift(i): p for i, p in self.players_of.items()}
        self._back_at = {shift(i): t for i, t in self._back_at.items()}

    def _on_loose_removed(self, change: Change) -> bool:
        self._done(change)  # a die picked up: what it becomes (placed, re-rolled, bagged) says what happened
        if (card := self._card_under(change)) is not None:
            if self.state.phase == "lose":
                self._returned_from(card, change)
            self._refused_lifted(change, card)
            return True  # a die that lay on a card, on no chip: taken with the card, or returned
        self._left = [c for c in self._left if change.elapsed - c.elapsed <= self.settings.wait_s] + [change]
        self._picked_up.append(change)
        self._twin_lifted(change)
        return True

    def _twin_lifted(self, change: Change) -> None:
        """A die lifted from where the roll's ``X`` landed, read ``X``, after ``X`` was placed while the one other die
        of its colours, ``Y``, which the game still holds, was lifted from where ``Y`` landed: the die placed was
        that one, and a face keeps on the table, so it too was an ``X`` (as read on its chip), misread as it landed.
        The roll is corrected where the game judges every report as before (unseen5 h2s1001's two green1s, one read
        green4 as it landed)."""
        roll = latest_roll(self.referee)
        if roll is None or not self._rolled.of(roll) or change.turned:
            return
        dice = roll.action.split()[1:]
        spot = self._rolled.nearest(change.where, self.settings.nudged_px)
        held = [str(d) for d in self.state.roll] + [str(t[1]) for t in self.state.tasks if t[0] == "unused"]
        twin = dice[spot] if spot is not None else None
        alike = [d for d in held if colours(d) == colours(change.die)]
        if twin != change.die or twin in held or dice.count(twin) != 1 or len(alike) != 1:
            return
        at = self._game_time(change.elapsed)
        if not any(e.action.startswith(f"place {twin} ") and not e.undone and e.elapsed < at
                   for e in self.referee.events[roll.index + 1:]):
            return  # (placed after this lift, seen settling before the tracker committed the lift: this very die)
        lifted = [c for c in self._picked_up if roll.elapsed <= self._game_time(c.elapsed) < at and not c.turned
                  and colours(c.die) == colours(twin)]
        if [self._rolled.nearest(c.where, self.settings.nudged_px) for c in lifted] != [dice.index(alike[0])]:
            return
        rolled = roll_with(roll.action, alike[0], twin)
        self._correct_if(lambda _, correct: correct(roll.index, rolled),
                         f"{twin} lifted at {change.elapsed:.2f} s where it landed, after {twin} was placed: "
                         f"{alike[0]} was {twin}", lambda trial: judged_as_before(self.referee, trial, roll.index))

    def _refused_lifted(self, change: Change, card: str | None = None) -> bool:
        """A refused die of ``change``'s colours that lay on ``card`` (``change``'s own) where vision did not see it on
        its chip (on none, ``Resync._refused_on_card``, or a level low on a stack), lifted: taken back."""
        lay_on = card or change.card
        return self._refused_taken_back(change, lambda die, on, _: on == lay_on and colours(die) == colours(change.die))

    def _refused_taken_back(self, change: Change, lifted: Callable[[str, str, int], bool]) -> bool:
        """The first refused placement not yet taken back whose (die, card, chip) ``lifted`` says ``change`` lifted:
        taken back then."""
        for index, die, card, chip in self._refused:
            if index not in self.taken_back and lifted(die, card, chip):
                self.taken_back[index] = change.frame
                self._back_at[index] = change.elapsed
                return True
        return False

    def _returned_from(self, card: str, change: Change) -> None:
        """A die seen lying on ``card`` (on no chip the layout knew) lifted while the game waits for a die returned:
        the return of the one die of its colours on that card the game takes back."""
        returns = [str(a) for a in self.state.legal_actions() if isinstance(a, A.Return) and a.card == card
                   and colours(self._chip_die(card, a.chip) or "") == colours(change.die)]
        if len(returns) == 1:
            self.notes.append(f"{change.die} lifted from {card} at {change.elapsed:.2f} s: {returns[0]}")
            self._report(change, returns[0], rule_kind=True)


_NAMES = {"card+": "card_added", "card-": "card_removed", "card>": "card_moved", "card=": "card_named",
          "die+": "die_added", "die-": "die_removed", "loose+": "loose_added", "loose-": "loose_removed"}


def _refusal(referee: Referee, action: str) -> str:
    """Why ``referee``'s game would refuse ``action`` now (empty if it takes it)."""
    try:
        referee.state.clone().apply_action(A.parse_action(action))
    except (IllegalActionError, RulesError) as exc:
        return str(exc).removeprefix(f"{action}: ")
    return ""


def _doubtful(why: str) -> bool:
    """A refusal that says more about what vision read than about the players (``PERCEPTION_DOUBTS``: at its start,
    or after the card's id that leads it; ``HELD``)."""
    return why.startswith(PERCEPTION_DOUBTS) or why.partition(" ")[2].startswith(PERCEPTION_DOUBTS) or HELD in why


def _landed_together(dice: list[Change], within: float) -> list[Change]:
    """The loose dice first seen within ``within`` seconds of the moment most of them were (the latest such moment
    among equals): a roll's dice land together."""
    if not dice:
        return []
    count = {c.elapsed: sum(abs(d.elapsed - c.elapsed) <= within for d in dice) for c in dice}
    moment = max(count, key=lambda t: (count[t], t))
    return [d for d in dice if abs(d.elapsed - moment) <= within]


def _cluster(dice: list[Change], n: int) -> list[Change]:
    """The ``n`` loose dice lying closest together (a roll lands in one heap; a look-alike object lies apart),
    the earliest seen first among equals."""
    if len(dice) <= n:
        return list(dice)
    best: tuple[float, tuple[int, ...]] | None = None
    for pick in combinations(range(len(dice)), n):
        xs = [dice[i].where[0] for i in pick]
        ys = [dice[i].where[1] for i in pick]
        centre = (sum(xs) / n, sum(ys) / n)
        spread = sum(dist(dice[i].where, centre) for i in pick)
        if best is None or spread < best[0] - 1e-9:
            best = (spread, pick)
    assert best is not None
    return [dice[i] for i in best[1]]
