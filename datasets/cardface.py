"""Card face textures: bomb, spark, fuse and role fronts and card backs, cached with a mip pyramid.

Bomb cards imitate fuse-physical.md: a dark navy circuit board with lighter frame bands at the top and
bottom, the point hexagon at the top right, white chips and operator glyphs. What the page does not say
(spark and role cards, Countdown's set icon) is a plain guess in the same style, easy to change here.
"""

from __future__ import annotations

import math
import zlib
from functools import lru_cache

import cv2
import numpy as np

from datasets import glyphs
from datasets.chipface import WHITE, draw_chip
from datasets.glyphs import INK
from datasets.layout import card_geometry
from datasets.scene import CARD_H_MM, CARD_W_MM, CardFace

PX_PER_MM = 6.0
TEX_W, TEX_H = int(CARD_W_MM * PX_PER_MM), int(CARD_H_MM * PX_PER_MM)
CORNER_MM = 3.2

NAVY = (82, 38, 18)
BAND = (138, 82, 44)
TRACE = (120, 66, 34)
SPARK_BG = (30, 30, 92)
SPARK_TRACE = (40, 70, 150)
POINT_COLOURS = {
    1: (60, 170, 60),
    2: (40, 170, 215),
    3: (40, 70, 220),
    4: (30, 110, 235),
    5: (200, 140, 40),
    6: (150, 50, 130),
}
"""Hexagon colour per point value (fuse-physical.md: 1 green, 2 gold, 3-4 red/orange, 6 purple; 5 is a guess)."""


def _rng_for(key: str) -> np.random.Generator:
    return np.random.default_rng(zlib.crc32(key.encode()))


def _board(bg: tuple, trace: tuple, key: str, band: tuple | None) -> np.ndarray:
    """Dark printed circuit board: traces at 0/45/90 degrees with vias, lighter bands at top and bottom."""
    img = np.empty((TEX_H, TEX_W, 3), np.uint8)
    img[:] = bg
    rng = _rng_for(key)
    mm = PX_PER_MM
    for _ in range(34):
        x, y = rng.uniform(0, TEX_W), rng.uniform(0, TEX_H)
        pts = [(x, y)]
        for _ in range(rng.integers(2, 5)):
            ang = math.radians(45 * int(rng.integers(0, 8)))
            length = rng.uniform(6, 26) * mm
            x, y = x + length * math.cos(ang), y + length * math.sin(ang)
            pts.append((x, y))
        for p, q in zip(pts, pts[1:]):
            glyphs.line(img, p, q, trace, 0.6 * mm)
        glyphs.circle(img, pts[-1], 1.0 * mm, trace, max(1, int(0.45 * mm)))
        glyphs.circle(img, pts[0], 0.7 * mm, trace)
    if band is not None:
        for y0, y1 in ((0, 6.5), (CARD_H_MM - 6.5, CARD_H_MM)):
            img[int(y0 * mm) : int(y1 * mm)] = band
        for y in (6.5, CARD_H_MM - 6.5):
            glyphs.line(img, (0, y * mm), (TEX_W, y * mm), tuple(min(255, c + 60) for c in band), 0.35 * mm)
        # a row of little "contacts" on the bands, like a board's edge connector
        for k in range(12):
            x = (8 + k * 6.4) * mm
            for y in (2.2, CARD_H_MM - 4.3):
                cv2.rectangle(
                    img,
                    (int(x), int(y * mm)),
                    (int(x + 3 * mm), int((y + 2.1) * mm)),
                    tuple(max(0, c - 35) for c in band),
                    -1,
                )
    return img


def _points_hexagon(img: np.ndarray, points: int) -> None:
    mm = PX_PER_MM
    cx, cy, r = (CARD_W_MM - 8.5) * mm, 8.2 * mm, 6.3 * mm
    glyphs.hexagon(img, cx, cy, r + 0.6 * mm, WHITE)
    glyphs.hexagon(img, cx, cy, r, POINT_COLOURS.get(points, (120, 120, 120)))
    glyphs.number(img, points, cx, cy, r * 1.05, WHITE)


def _set_icon(img: np.ndarray) -> None:
    """Countdown's set icon (its look is unknown): a small white stopwatch at the bottom left."""
    mm = PX_PER_MM
    cx, cy = 6.0 * mm, (CARD_H_MM - 9.5) * mm
    glyphs.circle(img, (cx, cy), 2.4 * mm, WHITE, max(1, int(0.5 * mm)))
    glyphs.line(img, (cx, cy), (cx, cy - 1.6 * mm), WHITE, 0.45 * mm)
    glyphs.line(img, (cx, cy - 2.6 * mm), (cx, cy - 3.3 * mm), WHITE, 0.7 * mm)


def _requirements(img: np.ndarray, text: str) -> None:
    mm = PX_PER_MM
    for m in card_geometry(text).marks:
        x, y = m.x * mm, m.y * mm
        if m.kind in ("chip", "blank", "slot"):
            draw_chip(img, m.chip if m.kind != "blank" else None, x, y, m.w * mm, pins=3 if m.kind != "slot" else 2)
        elif m.kind == "op":
            glyphs.operator(img, m.text, x, y, m.w * mm, WHITE)
        elif m.kind == "const":
            glyphs.number(img, int(m.text), x, y, m.h * mm, WHITE)
        elif m.kind == "arrow":
            glyphs.arrow(img, x - m.w * mm / 2, x + m.w * mm / 2, y, m.h * mm, WHITE)


def _spark_icon(img: np.ndarray, cx: float, cy: float, r: float, colour: tuple) -> None:
    pts = []
    for k in range(16):
        rr = r if k % 2 == 0 else r * 0.42
        a = math.radians(k * 22.5 - 90)
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    glyphs.fill_poly(img, pts, colour)


def _burst(img: np.ndarray, cx: float, cy: float, r: float, key: str) -> None:
    """Sparks flying out of a die: radial streaks and specks in yellow, orange and white."""
    rng = _rng_for(key + "burst")
    glow = np.zeros(img.shape[:2], np.float32)
    cv2.circle(glow, (int(cx), int(cy)), int(r * 1.6), 1.0, -1)
    glow = cv2.GaussianBlur(glow, (0, 0), r * 0.8)
    img[:] = np.clip(img + glow[..., None] * np.array([20, 110, 230], np.float32) * 0.8, 0, 255).astype(np.uint8)
    for _ in range(46):
        a = rng.uniform(0, 2 * math.pi)
        r0, r1 = r * rng.uniform(0.8, 1.1), r * rng.uniform(1.4, 3.2)
        colour = [(60, 220, 255), (40, 140, 255), (230, 250, 255)][int(rng.integers(0, 3))]
        glyphs.line(
            img,
            (cx + r0 * math.cos(a), cy + r0 * math.sin(a)),
            (cx + r1 * math.cos(a), cy + r1 * math.sin(a)),
            colour,
            max(1.0, r * rng.uniform(0.03, 0.08)),
        )
        if rng.random() < 0.5:
            glyphs.circle(img, (cx + r1 * 1.1 * math.cos(a), cy + r1 * 1.1 * math.sin(a)), r * 0.05, colour)


def _fuse_die(img: np.ndarray, cx: float, cy: float, s: float, colours: list[str], numbers: list[int]) -> None:
    """A tilted die drawn with a darker side (pseudo 3-D): solid colour(s), or white with a numeral."""
    base = INK[colours[0]] if colours else (235, 235, 235)
    side = tuple(int(c * 0.6) for c in base)
    off = s * 0.16
    glyphs.rounded_rect(img, cx - s / 2 + off, cy - s / 2 + off, cx + s / 2 + off, cy + s / 2 + off, s * 0.16, side)
    glyphs.rounded_rect(img, cx - s / 2, cy - s / 2, cx + s / 2, cy + s / 2, s * 0.16, base)
    if len(colours) > 1:
        glyphs.fill_poly(
            img,
            [(cx + s * 0.42, cy - s * 0.42), (cx + s * 0.42, cy + s * 0.42), (cx - s * 0.42, cy + s * 0.42)],
            INK[colours[1]],
        )
    if numbers:
        ink = (30, 30, 30) if not colours or colours[0] == "yellow" else WHITE
        glyphs.number(img, numbers[0], cx, cy, s * 0.6, ink)


def _text(img: np.ndarray, text: str, cx: float, cy: float, height: float, colour: tuple, bold: int = 1) -> None:
    font = cv2.FONT_HERSHEY_DUPLEX
    scale = height / 22.0
    thickness = max(1, int(round(scale * 1.6 * bold)))
    (w, h), _ = cv2.getTextSize(text, font, scale, thickness)
    cv2.putText(img, text, (int(cx - w / 2), int(cy + h / 2)), font, scale, colour, thickness, cv2.LINE_AA)


def _wrap(text: str, width: int) -> list[str]:
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def _front(face: CardFace) -> np.ndarray:
    mm = PX_PER_MM
    if face.kind == "bomb":
        img = _board(NAVY, TRACE, face.id, BAND)
        _points_hexagon(img, face.points)
        _requirements(img, face.text)
    elif face.kind == "spark":
        img = _board(SPARK_BG, SPARK_TRACE, face.id, (40, 60, 150))
        _spark_icon(img, (CARD_W_MM - 8.5) * mm, 8.2 * mm, 6.5 * mm, (60, 200, 255))
        _requirements(img, face.text)
    elif face.kind == "fuse":
        img = np.empty((TEX_H, TEX_W, 3), np.uint8)
        img[:] = (28, 26, 30)
        tokens = face.name.split()
        colours = [t for t in tokens if t in INK]
        numbers = [int(t) for t in tokens if t.isdigit()]
        effect = not colours and not numbers
        cy = (CARD_H_MM / 2 - (6 if effect else 0)) * mm
        _burst(img, TEX_W / 2, cy, 13 * mm, face.id)
        if face.name == "roll-six":
            numbers = [6]
        _fuse_die(img, TEX_W / 2, cy, 18 * mm, colours, numbers)
        if face.name == "draw-spark":
            _spark_icon(img, TEX_W / 2, cy, 7 * mm, (40, 90, 230))
        if effect:
            message = {
                "draw-spark": "ALL PLAYERS DRAW A SPARK",
                "lose-roles": "ALL PLAYERS LOSE THEIR ROLE",
                "roll-six": "ALL PLAYERS MUST ROLL A 6",
            }.get(face.name, face.name.upper())
            _text(img, message, TEX_W / 2, (CARD_H_MM - 10) * mm, 3.4 * mm, WHITE)
    elif face.kind == "role":
        img = _board((70, 62, 30), (88, 80, 44), face.id, (110, 100, 60))
        _text(img, face.name.replace("-", " ").upper(), TEX_W / 2, 14 * mm, 5.0 * mm, WHITE, bold=2)
        glyphs.circle(img, (14 * mm, 36 * mm), 8 * mm, (40, 190, 230))
        _spark_icon(img, 14 * mm, 36 * mm, 5 * mm, WHITE)
        for k, line in enumerate(_wrap(face.ability or face.name, 34)[:5]):
            cv2.putText(
                img,
                line,
                (int(25 * mm), int((27 + k * 5) * mm)),
                cv2.FONT_HERSHEY_SIMPLEX,
                2.6 * mm / 22.0,
                WHITE,
                1,
                cv2.LINE_AA,
            )
    else:
        raise ValueError(f"cannot draw a card of kind {face.kind!r}: expected bomb, spark, fuse or role")
    if face.edition == "countdown" and face.kind in ("bomb", "spark"):
        _set_icon(img)
    return img


def _back(kind: str, edition: str) -> np.ndarray:
    """Card back: dark, red FUSE logo and a small 00:05 timer (bomb and fuse cards share the bomb back)."""
    mm = PX_PER_MM
    img = _board(
        (32, 24, 22) if kind != "spark" else (34, 28, 70),
        (48, 38, 34) if kind != "spark" else (50, 45, 100),
        f"back-{kind}-{edition}",
        None,
    )
    cv2.rectangle(
        img,
        (int(3 * mm), int(3 * mm)),
        (int(TEX_W - 3 * mm), int(TEX_H - 3 * mm)),
        (70, 60, 140),
        max(1, int(0.5 * mm)),
    )
    title = "FUSE" if kind != "spark" else "SPARK"
    _text(img, title, TEX_W / 2, 27 * mm, 15 * mm, (30, 30, 210), bold=3)
    if edition == "countdown":
        _text(img, "COUNTDOWN", TEX_W / 2, 39 * mm, 4.2 * mm, (200, 200, 210))
    cx, cy = TEX_W / 2, 48 * mm
    glyphs.rounded_rect(img, cx - 13 * mm, cy - 4.5 * mm, cx + 13 * mm, cy + 4.5 * mm, 1.5 * mm, (20, 20, 20))
    for k, ch in enumerate("0005"):
        x = cx + (-9.5 + k * 5.2 + (2.4 if k >= 2 else 0)) * mm
        glyphs.seven_segment(img, int(ch), x, cy, 6 * mm, (40, 40, 230))
    glyphs.circle(img, (cx, cy - 1.3 * mm), 0.5 * mm, (40, 40, 230))
    glyphs.circle(img, (cx, cy + 1.3 * mm), 0.5 * mm, (40, 40, 230))
    return img


def _with_alpha(img: np.ndarray) -> np.ndarray:
    alpha = np.zeros(img.shape[:2], np.uint8)
    glyphs.rounded_rect(alpha, 0, 0, TEX_W - 1, TEX_H - 1, CORNER_MM * PX_PER_MM, (255,))
    return np.dstack([img, alpha])


def _pyramid(img: np.ndarray) -> tuple[np.ndarray, ...]:
    levels = [img]
    while levels[-1].shape[1] > 48:
        levels.append(cv2.pyrDown(levels[-1]))
    return tuple(levels)


@lru_cache(maxsize=256)
def _front_texture(face: CardFace) -> tuple[np.ndarray, ...]:
    return _pyramid(_with_alpha(_front(face)))


@lru_cache(maxsize=16)
def _back_texture(kind: str, edition: str) -> tuple[np.ndarray, ...]:
    return _pyramid(_with_alpha(_back(kind, edition)))


def card_texture(face: CardFace, face_up: bool = True) -> tuple[np.ndarray, ...]:
    """BGRA texture of a card's front (or back), TEX_W x TEX_H, then halved sizes down to ~48 px wide (cached)."""
    if face_up:
        return _front_texture(face)
    return _back_texture("spark" if face.kind == "spark" else "role" if face.kind == "role" else "bomb", face.edition)


def pick_level(levels: tuple[np.ndarray, ...], width_px: float) -> tuple[np.ndarray, float]:
    """The smallest mip level still at least as wide as the drawn card; returns it and its scale to level 0."""
    chosen = levels[0]
    for level in levels:
        if level.shape[1] >= width_px:
            chosen = level
    return chosen, chosen.shape[1] / levels[0].shape[1]
