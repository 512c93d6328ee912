"""Drawing primitives for textures: seven-segment numerals, ``#``, the colour pinwheel, operators, arrows.

All take pixel coordinates as floats and draw anti-aliased with sub-pixel precision (cv2 ``shift``).
No fonts are loaded: numerals are drawn as segments, like the game's "digital" numerals.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

SHIFT = 4
_ONE = 1 << SHIFT

SEGMENTS = {
    0: "abcdef",
    1: "bc",
    2: "abged",
    3: "abgcd",
    4: "fgbc",
    5: "afgcd",
    6: "afgedc",
    7: "abc",
    8: "abcdefg",
    9: "abcdfg",
}

# BGR colours of the five dice colours as printed on cards
INK = {
    "red": (40, 40, 215),
    "blue": (190, 110, 25),
    "green": (70, 165, 45),
    "yellow": (30, 210, 245),
    "black": (35, 30, 30),
}


def _fix(v: float) -> int:
    # fixed-point coordinate, clamped so that far-off points cannot overflow OpenCV's int32 arithmetic
    return int(round(min(max(v, -1e6), 1e6) * _ONE))


def _pts(points: np.ndarray | list) -> np.ndarray:
    pts = np.asarray(points, dtype=np.float64)
    if pts.size and (pts.max() > 1e6 or pts.min() < -1e6):
        pts = np.clip(pts, -1e6, 1e6)
    return np.round(pts * _ONE).astype(np.int32).reshape(-1, 1, 2)


def fill_poly(img: np.ndarray, points: np.ndarray | list, colour: tuple) -> None:
    cv2.fillPoly(img, [_pts(points)], colour, cv2.LINE_AA, SHIFT)


def line(img: np.ndarray, p: tuple[float, float], q: tuple[float, float], colour: tuple, thickness: float) -> None:
    a = (_fix(p[0]), _fix(p[1]))
    b = (_fix(q[0]), _fix(q[1]))
    cv2.line(img, a, b, colour, max(1, int(round(thickness))), cv2.LINE_AA, SHIFT)


def circle(img: np.ndarray, c: tuple[float, float], r: float, colour: tuple, thickness: int = -1) -> None:
    centre = (_fix(c[0]), _fix(c[1]))
    cv2.circle(img, centre, max(1, int(round(r * _ONE))), colour, thickness, cv2.LINE_AA, SHIFT)


def rounded_rect(img: np.ndarray, x0: float, y0: float, x1: float, y1: float, r: float, colour: tuple) -> None:
    """Filled rectangle with rounded corners (radius r)."""
    r = max(0.0, min(r, (x1 - x0) / 2, (y1 - y0) / 2))
    pts = []
    for cx, cy, start in ((x1 - r, y0 + r, -90), (x1 - r, y1 - r, 0), (x0 + r, y1 - r, 90), (x0 + r, y0 + r, 180)):
        for k in range(7):
            a = math.radians(start + k * 15)
            pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    fill_poly(img, pts, colour)


def seven_segment(
    img: np.ndarray,
    digit: int,
    cx: float,
    cy: float,
    h: float,
    colour: tuple,
    slant: float = 0.1,
    centre_one: bool = True,
) -> None:
    """A seven-segment numeral of height h centred at (cx, cy), slanted like a digital display."""
    w = h * 0.55
    if digit == 1 and centre_one:
        cx -= w * 0.3  # a lone "1" is printed centred, not on the right-hand segments
    t = h * 0.13  # segment thickness
    g = t * 0.18  # gap between segments
    x0, y0 = cx - w / 2, cy - h / 2
    half = t / 2

    def seg_h(y: float) -> list[tuple[float, float]]:
        a, b = x0 + g + half, x0 + w - g - half
        return [(a - half, y), (a, y - half), (b, y - half), (b + half, y), (b, y + half), (a, y + half)]

    def seg_v(x: float, ya: float, yb: float) -> list[tuple[float, float]]:
        a, b = ya + g + half, yb - g - half
        return [(x, a - half), (x + half, a), (x + half, b), (x, b + half), (x - half, b), (x - half, a)]

    top, mid, bot = y0 + half, cy, y0 + h - half
    left, right = x0 + half, x0 + w - half
    shapes = {
        "a": seg_h(top),
        "g": seg_h(mid),
        "d": seg_h(bot),
        "f": seg_v(left, top, mid),
        "b": seg_v(right, top, mid),
        "e": seg_v(left, mid, bot),
        "c": seg_v(right, mid, bot),
    }
    for name in SEGMENTS[digit]:
        pts = [(x + slant * (cy - y), y) for x, y in shapes[name]]
        fill_poly(img, pts, colour)


def number(img: np.ndarray, value: int, cx: float, cy: float, h: float, colour: tuple, slant: float = 0.1) -> None:
    digits = str(value)
    pitch = h * 0.68
    start = cx - pitch * (len(digits) - 1) / 2
    for k, ch in enumerate(digits):
        seven_segment(img, int(ch), start + k * pitch, cy, h, colour, slant, centre_one=len(digits) == 1)


def hash_glyph(img: np.ndarray, cx: float, cy: float, size: float, colour: tuple) -> None:
    t = size * 0.13
    s = size / 2
    for dx in (-0.2, 0.2):
        line(img, (cx + (dx + 0.08) * size, cy - s * 0.95), (cx + (dx - 0.08) * size, cy + s * 0.95), colour, t)
    for dy in (-0.2, 0.2):
        line(img, (cx - s * 0.9, cy + dy * size), (cx + s * 0.9, cy + dy * size), colour, t)


def pinwheel(img: np.ndarray, cx: float, cy: float, r: float, start: float = -90.0) -> None:
    """Five-colour pinwheel: the "colour matters" icon."""
    colours = [INK[c] for c in ("red", "blue", "green", "yellow", "black")]
    for k, colour in enumerate(colours):
        a0 = start + k * 72
        pts = [(cx, cy)]
        for j in range(9):
            a = math.radians(a0 + j * 9)
            # blades curve like a pinwheel: radius shrinks along the blade's trailing side
            rr = r * (0.55 + 0.45 * j / 8)
            pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
        fill_poly(img, pts, colour)


def operator(img: np.ndarray, op: str, cx: float, cy: float, size: float, colour: tuple) -> None:
    t = max(1.0, size * 0.16)
    s = size / 2
    if op in ("=", "!="):
        for dy in (-0.22, 0.22):
            line(img, (cx - s, cy + dy * size), (cx + s, cy + dy * size), colour, t)
        if op == "!=":
            line(img, (cx + s * 0.45, cy - s), (cx - s * 0.45, cy + s), colour, t)
    elif op in ("+", "-"):
        line(img, (cx - s, cy), (cx + s, cy), colour, t)
        if op == "+":
            line(img, (cx, cy - s), (cx, cy + s), colour, t)
    elif op in ("<", ">"):
        tip, back = (cx - s * 0.8, cx + s * 0.8) if op == "<" else (cx + s * 0.8, cx - s * 0.8)
        line(img, (back, cy - s * 0.8), (tip, cy), colour, t)
        line(img, (tip, cy), (back, cy + s * 0.8), colour, t)


def arrow(img: np.ndarray, x0: float, x1: float, y: float, h: float, colour: tuple) -> None:
    """Long arrow pointing right (stack build order)."""
    shaft = h * 0.35
    head = h * 1.3
    fill_poly(
        img,
        [
            (x0, y - shaft / 2),
            (x1 - head, y - shaft / 2),
            (x1 - head, y - h / 2),
            (x1, y),
            (x1 - head, y + h / 2),
            (x1 - head, y + shaft / 2),
            (x0, y + shaft / 2),
        ],
        colour,
    )


def hexagon(img: np.ndarray, cx: float, cy: float, r: float, colour: tuple) -> None:
    pts = [
        (cx + r * math.cos(math.radians(30 + 60 * k)), cy + r * math.sin(math.radians(30 + 60 * k))) for k in range(6)
    ]
    fill_poly(img, pts, colour)
