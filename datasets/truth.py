"""Ground truth of a rendered scene: every card and die in view with image geometry, visibility, what lies
where (which die on which chip, hidden dice in stacks), and the detector label if it gets one."""

from __future__ import annotations

import numpy as np

from datasets.camera import Projector
from datasets.draw_cards import DrawnCard
from datasets.draw_dice import DrawnDie
from datasets.geometry import card_point, card_top, clip_polygon
from datasets.layout import chip_positions
from datasets.scene import Scene

CARD_MIN_VISIBLE = 0.35
"""A card is labelled if at least this share of it is seen (in frame, not hidden by hands or objects)."""
DIE_MIN_VISIBLE = 0.5
"""A die is labelled if nothing rests on it and at least this share of its silhouette is seen."""
DIE_MIN_PX = 6.0
"""...and if its box is at least this many pixels across (smaller ones cannot be read)."""


def _box(outline: np.ndarray, w: int, h: int) -> list[float] | None:
    """Box of the part of a closed outline inside the frame, or None if under a pixel."""
    inside = clip_polygon(outline, w, h)
    if len(inside) < 3:
        return None
    x0, y0 = inside.min(axis=0)
    x1, y1 = inside.max(axis=0)
    if x1 - x0 < 1 or y1 - y0 < 1:
        return None
    return [round(float(x0), 2), round(float(y0), 2), round(float(x1), 2), round(float(y1), 2)]


PER_EDGE = 8
_RING = np.array([[np.cos(a), np.sin(a)] for a in np.linspace(0, 2 * np.pi, 8, endpoint=False)])


def _edges(poly: np.ndarray, per_edge: int) -> np.ndarray:
    t = np.linspace(0, 1, per_edge, endpoint=False)[:, None]
    return np.concatenate([p + (q - p) * t for p, q in zip(poly, np.roll(poly, -1, axis=0))])


def _convex(points: np.ndarray) -> np.ndarray:
    import cv2

    return cv2.convexHull(points.astype(np.float32)).reshape(-1, 2).astype(np.float64)


def _pt(p: np.ndarray) -> list[float]:
    return [round(float(p[0]), 2), round(float(p[1]), 2)]


def card_type(face_up: bool, kind: str) -> str:
    return kind if face_up else "back"


def build_truth(
    scene: Scene,
    proj: Projector,
    counts: np.ndarray,
    cards: list[DrawnCard | None],
    dice: list[DrawnDie | None],
    poses: list,
) -> dict:
    cam = scene.camera
    w, h = cam.width, cam.height
    """``counts[k]``: pixels showing object k (cards 1.., then dice), counted before lens distortion."""
    size = scene.setting.die_look.size_mm
    on_chip = {(d.on.card, d.on.chip): j for j, d in enumerate(scene.dice) if d.on is not None}
    out_cards = []
    for i, (card, drawn) in enumerate(zip(scene.cards, cards)):
        if drawn is None:
            continue
        outline = proj.distort(_edges(drawn.corners, PER_EDGE))
        box = _box(outline, w, h)
        if box is None:
            continue
        visible = float(min(1.0, counts[1 + i] / max(drawn.area, 1.0)))
        kind = card_type(card.face_up, card.face.kind)
        entry = {
            "index": i,
            "id": card.face.id,
            "edition": card.face.edition,
            "kind": card.face.kind,
            "face_up": card.face_up,
            "type": kind,
            "points": card.face.points,
            "text": card.face.text,
            "corners": [_pt(p) for p in outline[::PER_EDGE]],
            "box": box,
            "visible": round(visible, 3),
            "label": kind if visible >= CARD_MIN_VISIBLE else None,
            "chips": [],
        }
        if card.face_up and card.face.text:
            seats = chip_positions(card.face.text)
            world = np.array([(*card_point(card, s.u, s.v), card_top(card)) for s in seats])
            centres = proj.distort(proj.project(world))
            entry["chips"] = [
                {"chip": s.chip, "center": _pt(c), "level": s.level, "die": on_chip.get((i, s.chip))}
                for s, c in zip(seats, centres)
            ]
        out_cards.append(entry)
    out_dice = []
    bottoms = np.array([p[:3] for p in poses]).reshape(-1, 3)
    for j, (die, drawn) in enumerate(zip(scene.dice, dice)):
        if drawn is None:
            continue
        grown = (drawn.hull[:, None, :] + _RING[None, :, :] * drawn.radius).reshape(-1, 2)
        outline = proj.distort(_convex(grown))
        box = _box(outline, w, h)
        if box is None:
            continue
        x, y, z, _ = poses[j]
        # covered: another die rests on this one (its bottom at this one's top, close enough to touch)
        near = np.hypot(bottoms[:, 0] - x, bottoms[:, 1] - y) < size * 0.95
        covered = bool(np.any(near & (np.abs(bottoms[:, 2] - (z + size)) < 1.0)))
        visible = float(min(1.0, counts[1 + len(scene.cards) + j] / max(drawn.area, 1.0)))
        top = proj.distort(drawn.top[None, :])[0]
        in_frame = 0 <= top[0] < w and 0 <= top[1] < h
        big = max(box[2] - box[0], box[3] - box[1]) >= DIE_MIN_PX
        colours, face = die.die[:-1], int(die.die[-1])
        entry = {
            "index": j,
            "die": die.die,
            "colour": colours,
            "face": face,
            "box": box,
            "top": _pt(top),
            "visible": round(visible, 3),
            "covered": covered,
            "label": die.die if (not covered and visible >= DIE_MIN_VISIBLE and in_frame and big) else None,
            "on": None
            if die.on is None
            else {
                "card": die.on.card,
                "card_id": scene.cards[die.on.card].face.id,
                "chip": die.on.chip,
                "level": die.on.level,
            },
        }
        out_dice.append(entry)
    return {
        "width": w,
        "height": h,
        "edition": scene.setting.edition,
        "cards": out_cards,
        "dice": out_dice,
        "distractors": [d.kind for d in scene.distractors],
    }
