"""Drawing one white microchip and its requirement (fuse-physical.md: fills, numerals, ``#``, pinwheel, splits)."""

from __future__ import annotations

import cv2
import numpy as np

from datasets import glyphs
from datasets.glyphs import INK
from rules.notation import Atom, Chip

WHITE = (244, 244, 240)
PIN = (185, 190, 192)
DARK = (30, 28, 28)


def _symbol(img: np.ndarray, atom: Atom, cx: float, cy: float, s: float, on_colour: bool) -> None:
    """The atom's mark (numeral, #, pinwheel, ...) centred at (cx, cy), about s pixels tall."""
    ink = DARK if not on_colour or atom.colour == "yellow" else WHITE
    if atom.split:
        half = s * 0.32
        glyphs.fill_poly(img, [(cx - half, cy - half), (cx + half, cy - half), (cx - half, cy + half)], DARK)
        glyphs.fill_poly(img, [(cx + half, cy - half), (cx + half, cy + half), (cx - half, cy + half)], (150, 150, 150))
        cv2.rectangle(
            img, (int(cx - half), int(cy - half)), (int(cx + half), int(cy + half)), DARK, max(1, int(s * 0.04))
        )
        return
    if atom.negated:
        glyphs.circle(img, (cx, cy), s * 0.36, INK[atom.colour or "black"])
        glyphs.circle(img, (cx, cy), s * 0.36, DARK, max(1, int(round(s * 0.07))))
        glyphs.line(img, (cx - s * 0.25, cy + s * 0.25), (cx + s * 0.25, cy - s * 0.25), DARK, s * 0.08)
        return
    if "C" in atom.matters:
        glyphs.pinwheel(img, cx, cy, s * 0.38)
        if "#" in atom.matters:
            glyphs.circle(img, (cx, cy), s * 0.2, WHITE)
            glyphs.hash_glyph(img, cx, cy, s * 0.3, DARK)
        return
    if "#" in atom.matters:
        glyphs.hash_glyph(img, cx, cy, s * 0.55, ink)
    elif atom.number is not None:
        glyphs.seven_segment(img, atom.number, cx, cy, s * 0.62, ink)


def _atom_patch(atom: Atom, size: int, cx: float, cy: float, scale: float) -> np.ndarray:
    patch = np.empty((size, size, 3), np.uint8)
    on_colour = atom.colour is not None and not atom.negated
    patch[:] = INK[atom.colour] if on_colour else WHITE  # type: ignore[index]
    _symbol(patch, atom, cx, cy, scale, on_colour)
    return patch


def chip_content(chip: Chip | None, size: int) -> np.ndarray:
    """The chip's face, size x size BGR, without the chip body (blank for ``None`` or ``[?]``)."""
    if chip is None or len(chip.atoms) == 0:
        out = np.empty((size, size, 3), np.uint8)
        out[:] = WHITE
        return out
    atoms = chip.atoms
    if len(atoms) == 1:
        return _atom_patch(atoms[0], size, size / 2, size / 2, size)
    if len(atoms) == 2:
        # diagonal split: first alternative top-left, second bottom-right
        a = _atom_patch(atoms[0], size, size * 0.34, size * 0.34, size * 0.62)
        b = _atom_patch(atoms[1], size, size * 0.66, size * 0.66, size * 0.62)
        yy, xx = np.mgrid[0:size, 0:size]
        upper = (xx + yy) < size - 1
        out = np.where(upper[..., None], a, b)
        glyphs.line(out, (size - 1, 0), (0, size - 1), DARK, max(1, size * 0.025))
        return out
    strips = np.empty((size, size, 3), np.uint8)
    edges = np.linspace(0, size, len(atoms) + 1).astype(int)
    for k, atom in enumerate(atoms):
        w = edges[k + 1] - edges[k]
        patch = _atom_patch(atom, size, w / 2, size / 2, min(size, w * 1.4))
        strips[:, edges[k] : edges[k + 1]] = patch[:, :w]
    return strips


def draw_chip(img: np.ndarray, chip: Chip | None, cx: float, cy: float, side: float, pins: int = 3) -> None:
    """A white microchip (rounded square with pins on its left and right sides) showing ``chip``'s requirement."""
    half = side / 2
    pin_len, pin_w = side * 0.09, side * 0.09
    for k in range(pins):
        py = cy - half + side * (k + 1) / (pins + 1)
        for sign in (-1, 1):
            x0 = cx + sign * half
            glyphs.fill_poly(
                img,
                [
                    (x0, py - pin_w / 2),
                    (x0 + sign * pin_len, py - pin_w / 2),
                    (x0 + sign * pin_len, py + pin_w / 2),
                    (x0, py + pin_w / 2),
                ],
                PIN,
            )
    glyphs.rounded_rect(img, cx - half, cy - half, cx + half, cy + half, side * 0.12, WHITE)
    if chip is not None and chip.order:
        # "must be placed first/last" mark: a tab above the chip with a play (first) or stop (last) sign
        tab_y = cy - half - side * 0.16
        glyphs.rounded_rect(
            img, cx - side * 0.2, tab_y - side * 0.12, cx + side * 0.2, tab_y + side * 0.12, side * 0.05, WHITE
        )
        s = side * 0.08
        if chip.order == "first":
            glyphs.fill_poly(img, [(cx - s, tab_y - s), (cx + s, tab_y), (cx - s, tab_y + s)], DARK)
        else:
            glyphs.fill_poly(
                img, [(cx - s, tab_y - s), (cx + s, tab_y - s), (cx + s, tab_y + s), (cx - s, tab_y + s)], DARK
            )
    inner = int(round(side * 0.8))
    if inner < 4 or chip is None or all(str(a) == "?" for a in chip.atoms):
        return
    content = chip_content(chip, inner)
    x0, y0 = int(round(cx - inner / 2)), int(round(cy - inner / 2))
    h, w = img.shape[:2]
    if x0 < 0 or y0 < 0 or x0 + inner > w or y0 + inner > h:
        return
    mask = np.zeros((inner, inner), np.uint8)
    glyphs.rounded_rect(mask, 0, 0, inner - 1, inner - 1, inner * 0.1, (255,))
    roi = img[y0 : y0 + inner, x0 : x0 + inner, :3]
    a = (mask.astype(np.float32) / 255.0)[..., None]
    roi[:] = (roi * (1 - a) + content * a).astype(np.uint8)
