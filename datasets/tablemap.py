"""Where things lie on a rendered game's table (world mm, x right, y away from the camera's usual side), fixed
for the whole game, and a camera aimed so that all of it is in view.

The rulebooks' setup: the row of five face-up cards across the middle with the face-down deck at one end (and
Countdown's spark deck beside it), the defused cards' face-down score pile and the discarded fuse cards at the
other end. Players sit along the near and far sides, each with their cards in a row facing them (Countdown: the
role card first, then bomb cards, then sparks), the leader's roll landing between their cards and the row, the
dice bag beside it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from datasets.camera import Projector
from datasets.geometry import card_polygon, rot
from datasets.scene import CARD_H_MM, CARD_W_MM, Camera, CardFace, PlacedCard
from datasets.tracks import CardPose

PITCH = CARD_W_MM + 10.0
"""Centre to centre of neighbouring cards, mm."""
REACH = 235.0
"""Table centre to a row of players' cards, mm."""
ROLL_AT = (-45.0, 117.0)
"""A leader's roll lands here, in the player's own frame (x to their right, y towards the table centre)."""
BAG_AT = (135.0, 112.0)
SPARK_SLOTS = 2
"""Places for spark cards beside a Countdown player's bomb cards (more go in rows nearer the player)."""
STACK_MM = 5 * 16.0 + 4.0
"""Height of the highest stack of dice on a player's card (five levels of 16 mm dice): the camera keeps the top
of every stack in view, as a referee's camera must (a stack's top die is the one that tells what it holds)."""


@dataclass(frozen=True)
class PlayerSeat:
    """Where a player sits at the table, in table millimetres."""

    x: float
    y: float
    facing: float
    """Angle of the player's cards (0: readable from -y, the near side)."""

    def point(self, lx: float, ly: float) -> tuple[float, float]:
        """A point given in the player's own frame."""
        dx, dy = rot(lx, ly, self.facing)
        return self.x + dx, self.y + dy


@dataclass(frozen=True)
class TableMap:
    players: int
    hand: int
    """Bomb cards per player."""
    countdown: bool
    seats: tuple[PlayerSeat, ...]
    jitter: tuple[tuple[float, float, float], ...]
    """Small fixed offsets (dx, dy, degrees) so cards do not lie on a perfect grid."""

    @property
    def slots(self) -> int:
        """Card places per player in a row: role, bombs, sparks."""
        return self.hand + (1 + SPARK_SLOTS if self.countdown else 0)

    def _jit(self, key: int) -> tuple[float, float, float]:
        return self.jitter[key % len(self.jitter)]

    def row(self, slot: int) -> CardPose:
        dx, dy, da = self._jit(slot)
        return CardPose((slot - 2) * PITCH + dx, dy, da)

    def player_card(self, player: int, slot: int) -> CardPose:
        """Card place ``slot`` of a player: ``-1`` is the role card, ``0..hand-1`` bombs, then sparks."""
        seat = self.seats[player]
        first = -1 if self.countdown else 0
        k, row = slot - first, 0
        if slot >= self.hand:  # sparks: their places beside the bombs, more in rows nearer the player (in view,
            row, column = divmod(slot - self.hand, SPARK_SLOTS)  # never under another card)
            k = self.hand - first + column
        lx = (k - (self.slots - 1) / 2) * PITCH
        dx, dy, da = self._jit(10 + 7 * player + slot)
        x, y = seat.point(lx + dx, dy - row * (CARD_H_MM + 8.0))
        return CardPose(x, y, seat.facing + da, True)

    def roll_spot(self, player: int) -> tuple[float, float]:
        return self.seats[player].point(*ROLL_AT)

    def bag(self, player: int) -> tuple[float, float, float]:
        seat = self.seats[player]
        x, y = seat.point(*BAG_AT)
        return x, y, seat.facing - 10.0

    def edge(self, player: int) -> tuple[float, float]:
        """Where a player's hand comes from: behind their cards, off the table."""
        return self.seats[player].point(0.0, -330.0)

    # piles at the row's ends, and where a revealed fuse card is shown
    @property
    def deck(self) -> CardPose:
        return CardPose(3 * PITCH + 12, 0.0, 2.0, False)

    @property
    def spark_deck(self) -> CardPose:
        return CardPose(3 * PITCH + 12, 76.0, -3.0, False)

    @property
    def display(self) -> CardPose:
        return CardPose(3 * PITCH + 12, -76.0, -4.0, True, 0.5)

    @property
    def score(self) -> CardPose:
        return CardPose(-3 * PITCH - 12, 0.0, -3.0, False)

    @property
    def fuse_pile(self) -> CardPose:
        return CardPose(-3 * PITCH - 12, 76.0, 5.0, True)

    @property
    def spark_discard(self) -> CardPose:
        return CardPose(-3 * PITCH - 12, -76.0, 4.0, True)

    def extent(self) -> np.ndarray:
        """(N, 3) world points that must be in view: every card place, the tops of stacks on players' cards, roll
        area and bag."""
        poses = [self.row(k) for k in range(5)] + [self.deck, self.score, self.display]
        poses += [self.spark_deck, self.fuse_pile, self.spark_discard] if self.countdown else [self.fuse_pile]
        first = -1 if self.countdown else 0
        poses += [self.player_card(p, s) for p in range(self.players) for s in range(first, self.slots + first)]
        pts = [np.column_stack([card_polygon(_placed(c), 4.0), np.zeros(4)]) for c in poses]
        more = range(self.hand + SPARK_SLOTS, self.hand + 2 * SPARK_SLOTS) if self.countdown else range(0)
        poses += [self.player_card(p, s) for p in range(self.players) for s in more]  # a second row of sparks
        mine = [self.player_card(p, s) for p in range(self.players) for s in (*range(first, self.slots + first), *more)]
        pts += [np.column_stack([card_polygon(_placed(c)), np.full(4, STACK_MM)]) for c in mine]  # stacks' tops
        for p in range(self.players):
            for (x, y), r in ((self.roll_spot(p), 60.0), (self.bag(p)[:2], 70.0)):
                ring = [(x + r * math.cos(a), y + r * math.sin(a), 0.0) for a in np.linspace(0, 2 * math.pi, 8)]
                pts.append(np.array(ring))
        return np.vstack(pts)


def _placed(pose: CardPose) -> PlacedCard:
    """A blank card at ``pose`` (what ``card_polygon`` reads)."""
    return PlacedCard(CardFace("", "", "bomb", 0, "", ""), pose.x, pose.y, pose.angle)


def make_table_map(players: int, hand: int, countdown: bool, rng: np.random.Generator) -> TableMap:
    """Players along the near side (left to right), then the far side (right to left)."""
    near = (players + 1) // 2
    far = players - near
    width = (hand + (1 + SPARK_SLOTS if countdown else 0)) * PITCH + 60.0
    seats = [PlayerSeat((j - (near - 1) / 2) * width, -REACH, 0.0) for j in range(near)]
    seats += [PlayerSeat(((far - 1) / 2 - j) * width, REACH, 180.0) for j in range(far)]
    jitter = tuple((float(rng.normal(0, 1.5)), float(rng.normal(0, 1.5)), float(rng.normal(0, 2.0)))
                   for _ in range(64))
    return TableMap(players, hand, countdown, tuple(seats), jitter)


def fit_camera(camera: Camera, points: np.ndarray, margin: float = 0.03) -> Camera:
    """The camera moved (target and distance, nothing else) so that ``points`` fill the frame with a margin."""
    w, h = camera.width, camera.height
    lo = np.array([margin * w, margin * h])
    hi = np.array([(1 - margin) * w, (1 - margin) * h])

    def aimed(distance: float) -> tuple[Camera, bool]:
        cam = replace(camera, distance=distance, target=tuple(float(v) for v in points[:, :2].mean(axis=0)))
        for _ in range(4):  # centre the points' image
            proj = Projector(cam)
            if float(proj.to_camera(points)[:, 2].min()) < 50.0:
                return cam, False
            px = proj.project(points)
            mid = (px.min(axis=0) + px.max(axis=0)) / 2
            shift = proj.to_plane(mid[None, :])[0] - proj.to_plane(np.array([[w / 2, h / 2]]))[0]
            cam = replace(cam, target=(cam.target[0] + float(shift[0]), cam.target[1] + float(shift[1])))
        proj = Projector(cam)
        if float(proj.to_camera(points)[:, 2].min()) < 50.0:
            return cam, False
        px = proj.distort(proj.project(points))
        return cam, bool(np.all(px >= lo) and np.all(px <= hi))

    near, far = 200.0, 20000.0
    for _ in range(40):
        mid = (near + far) / 2
        if aimed(mid)[1]:
            far = mid
        else:
            near = mid
    return aimed(far)[0]
