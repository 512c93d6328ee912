"""The physical side of a rendered game: which die is which, where every card and die lies, and the hands and
card glides that move them, recorded as ``Tracks`` while the rules engine plays.

For each action ``plan()`` (on the state before it) decides the timing: when the hand starts, when the thing
is settled (the log's time), which physical die moves; the game loop checks the time limit, applies the
action, and ``record()`` (with the state after it) writes the motions. Dice have identities here (the engine
only counts colours in the bag): a roll takes the lowest-numbered free dice of the rolled colours.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any

from datasets.geometry import card_point
from datasets.layout import chip_positions
from datasets.scene import CardFace, PlacedCard
from datasets.tablemap import TableMap
from datasets.tracks import CardPose, DiePose, HandPose, Tracks
from rules import actions as A
from rules.dice import Die
from rules.game import Game, State

HAND_IN, HAND_OUT = 0.45, 0.45
"""Seconds a hand takes to come in from the player's edge of the table, and to go back."""
HOVER, LOW = 60.0, 24.0
"""Hand heights (mm): moving over the table, and holding a die just above where it goes."""
EFFECTS = (A.Return, A.ExtraRoll, A.DrawSpark)
"""Actions that belong to a revealed fuse card's effect (it stays on show until they are done)."""


@dataclass
class Plan:
    """One action's timing, decided before it is applied."""

    action: A.Action
    start: float
    """Game seconds when its motion begins."""
    at: float
    """When it is settled: the log's time."""
    actor: int | None = None
    """The player whose hand moves, if any."""
    facts: dict[str, Any] = field(default_factory=dict)
    illegal: str = ""
    """For a scripted illegal placement: the rule it breaks."""
    settled: float = 0.0
    """When it can be seen settled (the hand gone); set by ``record``."""
    end: float = 0.0
    """When its motions are over (an illegal die taken back)."""


class TableModel:
    """Physical dice and cards of one game, and their tracks."""

    def __init__(self, game: Game, tmap: TableMap, rng: random.Random, die_mm: float, pace: float = 1.0) -> None:
        self.game, self.tmap, self.rng, self.size, self.pace = game, tmap, rng, die_mm, pace
        self.tracks = Tracks()
        self.colours = [kind.colours for kind in game.dice.kinds for _ in range(kind.count)]
        self.tints = [rng.uniform(0.92, 1.07) for _ in self.colours]
        self.free = {i: -1e9 for i in range(len(self.colours))}
        """Die ids in the bag, with the time each went in."""
        self.loose: list[int] = []
        """Die ids of the roll, in the engine's ``roll_physical`` order."""
        self.rolled_again: dict[int, float] = {}
        """Unused dice rolled again and still on the table -> when they landed."""
        self.pending: list[int] = []
        """Unused dice still on the table, in the order of the engine's ``unused``/``bag`` tasks."""
        self.chips: dict[tuple[str, int], int] = {}
        self.place: dict[str, tuple] = {}
        """Card id -> ("row", slot), ("player", p, slot), ("display",) or ("aside",)."""
        self.row_free = [4, 3, 2, 1, 0]
        self.hand_free = [-1e9] * tmap.players
        self.showing: tuple[str, float] | None = None
        self.six: dict[int, int] = {}
        self.leader = 0
        self.hands = [(rng.uniform(78, 92), rng.randrange(6), rng.randrange(7)) for _ in range(tmap.players)]
        """Per player: hand size (mm), skin tone and sleeve (indexes into ``datasets.distract``)."""

    # ------------------------------------------------------------------ small helpers

    def dur(self, seconds: float) -> float:
        return seconds * self.pace * self.rng.uniform(0.85, 1.2)

    def face(self, card_id: str) -> CardFace:
        return CardFace.from_card(self.game.card(card_id))

    def card_pose(self, card_id: str) -> CardPose:
        pose = self.tracks[f"card:{card_id}"].last()
        assert pose is not None, card_id
        return pose

    def die_xy(self, die_id: int) -> tuple[float, float]:
        """Where a die is on the table now (for a die on a chip: the chip's seat)."""
        pose: DiePose = self.tracks[f"die:{die_id}"].last()
        if not pose.card:
            return pose.x, pose.y
        return self.chip_xy(pose.card, pose.chip)

    def chip_xy(self, card_id: str, chip: int) -> tuple[float, float]:
        pose = self.card_pose(card_id)
        face = self.face(card_id)
        seat = next(s for s in chip_positions(face.text) if s.chip == chip)
        placed = PlacedCard(face, pose.x, pose.y, pose.angle, pose.face_up, pose.z)
        return card_point(placed, seat.u, seat.v)

    def level(self, card_id: str, chip: int) -> int:
        return next(s.level for s in chip_positions(self.face(card_id).text) if s.chip == chip)

    def take_from_bag(self, colours: tuple[str, ...] | None, t: float) -> int:
        """The lowest-numbered die of ``colours`` (any, if None) that is in the bag by time ``t``."""
        ids = sorted(i for i in self.free if colours is None or self.colours[i] == colours)
        die_id = min(ids, key=lambda i: (self.free[i] > t, self.free[i] if self.free[i] > t else i))
        del self.free[die_id]
        return die_id

    def to_bag(self, die_id: int, t: float) -> None:
        self.tracks[f"die:{die_id}"].add(t, None)
        self.free[die_id] = t

    def put_loose(self, die_id: int, die: Die, x: float, y: float, t: float) -> None:
        pose = DiePose(str(die), x, y, self.rng.uniform(0, 90), self.rng.randrange(4))
        self.tracks[f"die:{die_id}"].add(t, pose)

    def scatter(self, centre: tuple[float, float], count: int, keep_clear: list[int],
                avoid: tuple[tuple[float, float], ...] = ()) -> list[tuple[float, float]]:
        """Landing places for ``count`` dice around ``centre``, apart from each other, the dice listed and the
        points to ``avoid``."""
        taken = [self.die_xy(i) for i in keep_clear] + list(avoid)
        out: list[tuple[float, float]] = []
        for _ in range(count):
            for tries in range(80):
                r = (45.0 + tries) * math.sqrt(self.rng.random())
                a = self.rng.uniform(0, 2 * math.pi)
                x, y = centre[0] + r * math.cos(a), centre[1] + r * math.sin(a)
                if all(math.hypot(x - u, y - v) > 1.7 * self.size for u, v in taken + out):
                    break
            out.append((x, y))
        return out

    def trip(self, player: int, stops: list[tuple[float, float, float, float]], pose: int = 1) -> float:
        """A hand comes in, reaches each stop ``(t, x, y, height)`` at its time, and goes back; returns when
        it has gone. The fingers point from the player's edge towards the stop (the palm a little behind)."""
        track = self.tracks[f"hand:{player}"]
        size = self.hands[player][0]
        ex, ey = self.tmap.edge(player)

        def at(x: float, y: float, height: float) -> HandPose:
            a = math.atan2(y - ey, x - ex)
            back = 0.6 * size if height < HOVER else 0.0
            return HandPose(x - back * math.cos(a), y - back * math.sin(a), math.degrees(a), height, pose)

        first = at(stops[0][1], stops[0][2], HOVER)
        track.add(stops[0][0] - HAND_IN, HandPose(ex, ey, first.angle, HOVER, pose))
        for t, x, y, height in stops:
            track.add(t, at(x, y, height), glide=True)
        gone = stops[-1][0] + HAND_OUT
        last: HandPose = track.last()
        track.add(gone, HandPose(ex, ey, last.angle, HOVER, pose), glide=True)
        track.add(gone + 1e-3, None)
        self.hand_free[player] = gone + 0.05
        return gone

    def glide(self, card_id: str, start: float, end: float, to: CardPose | None, src: CardPose | None = None) -> None:
        """Move a card (from ``src`` if it is not on the table yet) to ``to``; ``None`` takes it off at ``end``."""
        track = self.tracks[f"card:{card_id}"]
        if track.times and start < track.times[-1]:  # still on its way: a card set aside at the deal, shuffled
            start = track.times[-1]  # back into the deck and turned up at once from its top
            end = max(end, start)
        if src is not None:
            track.add(start, src)
        if to is None:
            track.add(end, None)
        else:
            track.move(start, end, to)

    def pile(self, name: str, t: float, value: Any) -> None:
        track = self.tracks[f"pile:{name}"]
        if track.last() != value:
            track.add(t, value)

    def deck_top(self, count: int) -> CardPose:
        deck = self.tmap.deck
        return CardPose(deck.x, deck.y, deck.angle, False, 0.35 * max(0, count))

    def owner(self, state: State, card_id: str) -> int:
        return next(p for p, area in enumerate(state.players) if any(c.id == card_id for c in area.cards))

    def free_player_slot(self, player: int, sparks: bool) -> int:
        used = {where[2] for where in self.place.values() if where[0] == "player" and where[1] == player}
        slot = self.tmap.hand if sparks else 0
        while slot in used:
            slot += 1
        return slot


def mismatches(model: TableModel, state: State) -> list[str]:
    """Where the physical table disagrees with the game (empty when they agree): for tests."""
    problems = []

    def text(die_id: int) -> str:
        pose = model.tracks[f"die:{die_id}"].last()
        return pose.die if pose is not None else "in bag"

    if [text(i) for i in model.loose] != [str(d) for d in state.roll_physical]:
        problems.append(f"roll {[text(i) for i in model.loose]} != {[str(d) for d in state.roll_physical]}")
    waiting = state.unused + [t[1] for t in state.tasks if t[0] in ("unused", "bag")]
    if [text(i) for i in model.pending] != [str(d) for d in waiting]:
        problems.append(f"unused {[text(i) for i in model.pending]} != {[str(d) for d in waiting]}")
    for p, area in enumerate(state.players):
        for card in area.cards:
            if model.place.get(card.id, ("",))[:2] != ("player", p):
                problems.append(f"{card.id} of p{p + 1} lies at {model.place.get(card.id)}")
            dice = {chip: text(i) for (c, chip), i in model.chips.items() if c == card.id}
            if dice != {chip: str(d) for chip, d in card.physical.items()}:
                problems.append(f"{card.id} holds {dice}, not {card.physical}")
    row = {c for c, where in model.place.items() if where[0] == "row"}
    if row != set(state.row):
        problems.append(f"row {sorted(row)} != {sorted(state.row)}")
    if len(model.free) + len(model.six) != sum(state.bag.values()):
        problems.append(f"bag {len(model.free)} + {len(model.six)} != {sum(state.bag.values())}")
    return problems
