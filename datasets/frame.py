"""The frame being drawn: colour image, per-pixel object ids (for occlusion), optional per-object masks,
and soft shadow maps.

Coordinates given to this module are continuous pixels (pixel i spans [i, i+1)); drawing helpers
convert to OpenCV's pixel-centre convention.
"""

from __future__ import annotations

import cv2
import numpy as np

from datasets import glyphs
from datasets.geometry import clip_polygon


class Frame:
    def __init__(self, img: np.ndarray, keep_masks: bool = False) -> None:
        self.img = img
        self.h, self.w = img.shape[:2]
        self.ids = np.zeros((self.h, self.w), np.uint16)
        self.masks: dict[int, np.ndarray] | None = {} if keep_masks else None

    def clip(self, x0: int, y0: int, x1: int, y1: int) -> tuple[int, int, int, int] | None:
        """Intersection of [x0, x1) x [y0, y1) with the frame, or None."""
        a, b, c, d = max(x0, 0), max(y0, 0), min(x1, self.w), min(y1, self.h)
        return (a, b, c, d) if a < c and b < d else None

    def paste(self, x0: int, y0: int, patch: np.ndarray, alpha: np.ndarray, obj_id: int) -> None:
        """Blend ``patch`` (h, w, 3 uint8) with ``alpha`` (h, w float32 in 0..1) at (x0, y0); record the object."""
        h, w = alpha.shape
        box = self.clip(x0, y0, x0 + w, y0 + h)
        if box is None:
            return
        a, b, c, d = box
        sub_a = alpha[b - y0 : d - y0, a - x0 : c - x0]
        sub_p = patch[b - y0 : d - y0, a - x0 : c - x0]
        roi = self.img[b:d, a:c]
        sub_a = np.ascontiguousarray(sub_a, np.float32)
        roi[:] = cv2.blendLinear(np.ascontiguousarray(sub_p), roi, sub_a, 1.0 - sub_a)
        solid = sub_a > 0.5
        self.ids[b:d, a:c][solid] = obj_id
        if self.masks is not None:
            mask = self.masks.setdefault(obj_id, np.zeros((self.h, self.w), bool))
            mask[b:d, a:c] |= solid

    def darken_u8(self, x0: int, y0: int, shade: np.ndarray) -> None:
        """Multiply the region at (x0, y0) by (1 - shade / 255), ``shade`` being uint8."""
        h, w = shade.shape
        box = self.clip(x0, y0, x0 + w, y0 + h)
        if box is None:
            return
        a, b, c, d = box
        keep = cv2.bitwise_not(np.ascontiguousarray(shade[b - y0 : d - y0, a - x0 : c - x0]))
        roi = self.img[b:d, a:c]
        roi[:] = cv2.multiply(roi, cv2.merge([keep, keep, keep]), scale=1 / 255)

    def darken(self, x0: int, y0: int, shade: np.ndarray) -> None:
        """Multiply the region at (x0, y0) by (1 - shade)."""
        h, w = shade.shape
        box = self.clip(x0, y0, x0 + w, y0 + h)
        if box is None:
            return
        a, b, c, d = box
        keep = ((1.0 - shade[b - y0 : d - y0, a - x0 : c - x0]) * 255.0).astype(np.uint8)
        roi = self.img[b:d, a:c]
        roi[:] = cv2.multiply(roi, cv2.merge([keep, keep, keep]), scale=1 / 255)


def soft_polygon_shade(frame: Frame, polys: list[np.ndarray], sigma: float, strength: float) -> None:
    """Darken the frame under soft-edged polygons (a cast shadow), working only around them."""
    if strength <= 0 or not polys:
        return
    pad = int(3 * sigma + 2)
    # only the part that can reach the frame matters (a low light can throw very long shadows)
    polys = [q for q in (clip_polygon(p, frame.w, frame.h, pad + 2) for p in polys) if len(q) >= 3]
    if not polys:
        return
    allp = np.concatenate(polys)
    x0, y0 = int(np.floor(allp[:, 0].min())) - pad, int(np.floor(allp[:, 1].min())) - pad
    x1, y1 = int(np.ceil(allp[:, 0].max())) + pad, int(np.ceil(allp[:, 1].max())) + pad
    if frame.clip(x0, y0, x1, y1) is None:
        return
    # soft shadows are drawn and blurred at a reduced scale, then enlarged: same look, much less work
    scale = 1.0 if sigma < 2 else 2.0 / sigma
    w, h = max(1, int((x1 - x0) * scale)), max(1, int((y1 - y0) * scale))
    if w * h > 4_000_000:
        return
    # 8-bit mask: the darkening needs no finer steps, and 8-bit blurs and products are several times faster
    mask = np.zeros((h, w), np.uint8)
    for p in polys:
        glyphs.fill_poly(mask, (p - [x0, y0]) * scale - 0.5, (int(round(255 * min(strength, 1.0))),))
    if sigma > 0.3:
        mask = cv2.GaussianBlur(mask, (0, 0), sigma * scale)
    if scale != 1.0:
        mask = cv2.resize(mask, (x1 - x0, y1 - y0), interpolation=cv2.INTER_LINEAR)
    frame.darken_u8(x0, y0, mask)
