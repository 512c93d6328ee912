"""Table geometry shared by the sampler and the rasteriser: card corners, chip seats and dice in world mm."""

from __future__ import annotations

import math

import numpy as np

from datasets.layout import chip_positions
from datasets.scene import CARD_H_MM, CARD_W_MM, PlacedCard, PlacedDie, Scene

CARD_THICK_MM = 0.35


def rot(x: float, y: float, deg: float) -> tuple[float, float]:
    c, s = math.cos(math.radians(deg)), math.sin(math.radians(deg))
    return c * x - s * y, s * x + c * y


def card_point(card: PlacedCard, u: float, v: float) -> tuple[float, float]:
    """Table position of the point (u, v) of a card's face (0..1 across, 0..1 down)."""
    x, y = rot((u - 0.5) * CARD_W_MM, (0.5 - v) * CARD_H_MM, card.angle)
    return card.x + x, card.y + y


def card_polygon(card: PlacedCard, margin: float = 0.0) -> np.ndarray:
    """(4, 2) table corners: top-left, top-right, bottom-right, bottom-left of the printed face."""
    hw, hh = CARD_W_MM / 2 + margin, CARD_H_MM / 2 + margin
    pts = [rot(px, py, card.angle) for px, py in ((-hw, hh), (hw, hh), (hw, -hh), (-hw, -hh))]
    return np.array(pts) + [card.x, card.y]


def card_top(card: PlacedCard) -> float:
    return card.z + CARD_THICK_MM


def die_pose(scene: Scene, die: PlacedDie) -> tuple[float, float, float, float]:
    """(x, y, bottom z, yaw) of a die in world terms; a die on a chip sits on its seat, raised by its level."""
    size = scene.setting.die_look.size_mm
    if die.on is None:
        return die.x, die.y, 0.0, die.yaw
    card = scene.cards[die.on.card]
    seats = chip_positions(card.face.text)
    seat = next((s for s in seats if s.chip == die.on.chip), None)
    if seat is None:
        from datasets.errors import SceneError

        raise SceneError(f"card {card.face.id} ({card.face.text!r}) has no chip {die.on.chip}")
    sx, sy = card_point(card, seat.u, seat.v)
    ox, oy = rot(die.x, die.y, card.angle)
    return sx + ox, sy + oy, card_top(card) + die.on.level * size, card.angle + die.yaw


def polygon_area(pts: np.ndarray) -> float:
    """Area of a simple polygon given as (N, 2) points."""
    x, y = pts[:, 0], pts[:, 1]
    return float(abs(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))) / 2)


def clip_polygon(poly: np.ndarray, w: float, h: float, margin: float = 0.0) -> np.ndarray:
    """Sutherland-Hodgman: the part of a polygon inside [-margin, w + margin] x [-margin, h + margin]."""
    lo, hi = poly.min(axis=0), poly.max(axis=0)
    if lo[0] >= -margin and lo[1] >= -margin and hi[0] <= w + margin and hi[1] <= h + margin:
        return poly
    pts = [tuple(p) for p in poly]
    for axis, limit, sign in ((0, -margin, 1.0), (0, w + margin, -1.0), (1, -margin, 1.0), (1, h + margin, -1.0)):
        out = []
        for k, cur in enumerate(pts):
            prev = pts[k - 1]
            cur_in, prev_in = sign * (cur[axis] - limit) >= 0, sign * (prev[axis] - limit) >= 0
            if cur_in != prev_in:
                t = (limit - prev[axis]) / (cur[axis] - prev[axis])
                out.append((prev[0] + t * (cur[0] - prev[0]), prev[1] + t * (cur[1] - prev[1])))
            if cur_in:
                out.append(cur)
        pts = out
        if not pts:
            break
    return np.array(pts, np.float64).reshape(-1, 2)
