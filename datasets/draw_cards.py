"""Drawing cards: the cached face texture warped into a small region, a soft drop shadow, a glare spot."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from datasets.camera import Projector
from datasets.cardface import card_texture, pick_level
from datasets.frame import Frame
from datasets.geometry import card_polygon, card_top, polygon_area
from datasets.scene import PlacedCard


@dataclass(frozen=True)
class DrawnCard:
    corners: np.ndarray
    """(4, 2) undistorted pixels: top-left, top-right, bottom-right, bottom-left of the face."""
    area: float
    """Whole card's area in pixels (including any part outside the frame)."""


def draw_card(
    frame: Frame,
    proj: Projector,
    card: PlacedCard,
    obj_id: int,
    light: np.ndarray,
    shadow: float,
    near: float,
    gloss: float = 1.0,
) -> DrawnCard | None:
    """Draw a card; None if part of it is behind the camera's near plane (not drawn, not in the truth)."""
    z = card_top(card)
    world = np.column_stack([card_polygon(card), np.full(4, z)])
    if float(proj.to_camera(world)[:, 2].min()) < near:
        return None
    corners = proj.project(world)
    drawn = DrawnCard(corners, polygon_area(corners))
    x0, y0 = int(np.floor(corners[:, 0].min())), int(np.floor(corners[:, 1].min()))
    x1, y1 = int(np.ceil(corners[:, 0].max())) + 1, int(np.ceil(corners[:, 1].max())) + 1
    if frame.clip(x0, y0, x1, y1) is None:
        return drawn
    # warp only the clipped region of the frame: a card half out of the frame costs half
    box = frame.clip(x0, y0, x1, y1)
    assert box is not None
    bx0, by0, bx1, by1 = box
    levels = card_texture(card.face, card.face_up)
    width = float(np.max(np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1)))
    tex, _ = pick_level(levels, width)
    th, tw = tex.shape[:2]
    src = np.array([[0, 0], [tw, 0], [tw, th], [0, th]], np.float32) - 0.5
    dst = (corners - [bx0, by0] - 0.5).astype(np.float32)
    m = cv2.getPerspectiveTransform(src, dst)
    warped = cv2.warpPerspective(tex, m, (bx1 - bx0, by1 - by0), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    alpha = warped[..., 3].astype(np.float32) * (1 / 255)
    bgr = warped[..., :3]
    if card.glare > 0 and card.face_up:
        bgr = _glare(bgr, m, tw, th, card, gloss)
    frame.paste(bx0, by0, bgr, alpha, obj_id)
    return drawn


def card_shadow(proj: Projector, card: PlacedCard, light: np.ndarray) -> np.ndarray:
    """Outline (pixels) of the thin shadow a card throws: cards lie a little raised, as they curl."""
    off = -light[:2] / max(light[2], 0.2) * (1.0 + card.z)
    return proj.project(np.column_stack([card_polygon(card, 0.4) + off, np.zeros(4)]))


def _glare(bgr: np.ndarray, m: np.ndarray, tw: int, th: int, card: PlacedCard, gloss: float) -> np.ndarray:
    """A soft specular patch (glossy card under a lamp): brightens towards white."""
    p = cv2.perspectiveTransform(np.array([[[card.glare_at[0] * tw, card.glare_at[1] * th]]], np.float32), m)[0, 0]
    h, w = bgr.shape[:2]
    r = max(4.0, 0.22 * max(h, w))
    yy, xx = np.ogrid[0:h, 0:w]
    g = np.exp(-(((xx - p[0]) ** 2 + ((yy - p[1]) * 1.4) ** 2) / (2 * r * r))).astype(np.float32) * (
        card.glare * gloss * 0.6
    )
    out = bgr.astype(np.float32)
    out += (250 - out) * g[..., None]
    return out.astype(np.uint8)
