"""Die faces (seven-segment numerals or pips, single colour or diagonal split) and the cube's face layout.

A die is modelled as a real cube: body faces +-X, +-Y, +-Z carry the three opposite pairs of its kind
(FUSE: 1-6, 2-4, 3-5, from ``rules.dice``); ordinary pip dice use the usual 1-6, 2-5, 3-4. Of the 24
rotations of a cube, four put a given face on top; ``turn`` picks one, so the side faces are always
those a physical die would show.
"""

from __future__ import annotations

import colorsys
import itertools
from functools import lru_cache

import cv2
import numpy as np

from datasets import glyphs

FACE_PX = 96
PIP_OPPOSITES = ((1, 6), (2, 5), (3, 4))

BODY = {
    "classic": {
        "red": (38, 38, 196),
        "blue": (160, 80, 18),
        "green": (58, 140, 30),
        "yellow": (28, 196, 238),
        "black": (34, 32, 32),
        "white": (226, 232, 236),
    },
    "gem": {
        "red": (70, 60, 235),
        "blue": (215, 130, 50),
        "green": (110, 205, 60),
        "yellow": (70, 230, 250),
        "black": (70, 60, 75),
        "white": (245, 248, 250),
    },
}
"""BGR body colours per die look family (``gem`` is the held-out look)."""
INKS = {"white": (242, 242, 242), "dark": (30, 30, 30), "gold": (60, 190, 225)}

_AXES = np.eye(3)
NORMALS = [_AXES[2], -_AXES[2], _AXES[0], -_AXES[0], _AXES[1], -_AXES[1]]


def _rotations() -> list[np.ndarray]:
    out = []
    for perm in itertools.permutations(range(3)):
        for signs in itertools.product((1, -1), repeat=3):
            m = np.zeros((3, 3))
            for row, (col, sign) in enumerate(zip(perm, signs)):
                m[row, col] = sign
            if np.linalg.det(m) > 0:
                out.append(m)
    return out


ROTATIONS = _rotations()


def body_faces(opposites: tuple[tuple[int, int], ...]) -> list[int]:
    """Face values on the body's +Z, -Z, +X, -X, +Y, -Y faces."""
    (a, b), (c, d), (e, f) = opposites
    return [a, b, c, d, e, f]


def face_up_vector(index: int) -> np.ndarray:
    """The direction that is "up" on the printed face (+Y for the Z faces, +Z for the side faces)."""
    return _AXES[1] if index < 2 else _AXES[2]


@lru_cache(maxsize=256)
def orientation(opposites: tuple[tuple[int, int], ...], top: int, turn: int) -> np.ndarray:
    """Rotation (body -> world before yaw) that puts ``top`` on top; ``turn`` (0..3) chooses among four."""
    faces = body_faces(opposites)
    if top not in faces:
        raise ValueError(f"face {top} is not on a die with opposite faces {opposites}")
    normal = NORMALS[faces.index(top)]
    options = [r for r in ROTATIONS if np.allclose(r @ normal, _AXES[2])]
    return options[turn % len(options)]


def _split_mask(size: int) -> np.ndarray:
    yy, xx = np.mgrid[0:size, 0:size]
    return (xx + yy) < size - 1


def _pips(img: np.ndarray, value: int, ink: tuple) -> None:
    s = img.shape[0]
    spots = {
        1: [(0, 0)],
        2: [(-1, -1), (1, 1)],
        3: [(-1, -1), (0, 0), (1, 1)],
        4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
        5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
        6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
    }
    for dx, dy in spots[value]:
        glyphs.circle(img, (s / 2 + dx * s * 0.27, s / 2 + dy * s * 0.27), s * 0.085, ink)


Tint = tuple[float, float, float]
NO_TINT: Tint = (0.0, 1.0, 1.0)


def body_colour(family: str, colour: str, tint: Tint = NO_TINT) -> tuple[int, int, int]:
    """BGR body colour of one die colour in a look family, with the dice set's tint (hue shift in degrees,
    saturation and value gains)."""
    b, g, r = BODY[family][colour]
    if tint == NO_TINT:
        return b, g, r
    h, sat, val = colorsys.rgb_to_hsv(r / 255, g / 255, b / 255)
    h = (h + tint[0] / 360) % 1.0
    rgb = colorsys.hsv_to_rgb(h, min(1.0, sat * tint[1]), min(1.0, val * tint[2]))
    return round(rgb[2] * 255), round(rgb[1] * 255), round(rgb[0] * 255)


LEGIBLE_DELTA_E = 45.0
"""Least colour difference (CIE76, L* 0-100) between a random ink and the body it is printed on."""


def _lab(bgr: tuple) -> np.ndarray:
    lab = cv2.cvtColor(np.uint8([[bgr]]), cv2.COLOR_BGR2LAB)[0, 0].astype(np.float64)
    return lab * (100 / 255, 1, 1)


def ink_colour(ink: str, colours: tuple[str, ...], family: str, body: tuple) -> tuple[int, int, int]:
    """BGR of a named (``white``, ``dark``, ``gold``) or ``#rrggbb`` ink on a die of ``colours``: makers print
    the numerals legibly, by lightness or by hue, so an ink too close to the body's colour becomes white or dark."""
    if ink.startswith("#"):
        r, g, b = (int(ink[i : i + 2], 16) for i in (1, 3, 5))
        body_lab = _lab(body)
        if np.linalg.norm(_lab((b, g, r)) - body_lab) >= LEGIBLE_DELTA_E:
            return b, g, r
        return INKS["white"] if body_lab[0] < 50 else INKS["dark"]
    if colours == ("white",):
        return INKS["dark"]  # plain white dice have dark pips
    if ink == "white" and colours == ("yellow",) and family == "classic":
        return INKS["dark"]
    if ink == "gold" and colours == ("yellow",):
        return INKS["dark"]  # gold on yellow is illegible; makers print such dice in a dark ink
    if colours == ("black",) and ink == "dark":
        return INKS["white"]
    return INKS[ink]


@lru_cache(maxsize=1024)
def face_texture(
    colours: tuple[str, ...], value: int, look: str, faces: str, ink: str, tint: Tint = NO_TINT
) -> tuple[np.ndarray, ...]:
    """BGR texture of the flat part of one die face, FACE_PX square, and its mip levels."""
    s = FACE_PX
    img = np.empty((s, s, 3), np.uint8)
    img[:] = body_colour(look, colours[0], tint)
    if len(colours) == 2:
        img[~_split_mask(s)] = body_colour(look, colours[1], tint)
    ink_bgr = ink_colour(ink, colours, look, body_colour(look, colours[0], tint))
    mark = np.zeros((s, s, 3), np.uint8)
    if faces == "pip":
        _pips(mark, value, (255, 255, 255))
    else:
        glyphs.seven_segment(mark, value, s / 2, s / 2, s * 0.6, (255, 255, 255), slant=0.08)
    alpha = mark[..., :1].astype(np.float32) / 255.0
    if len(colours) == 2:
        # split dice: light ink with a dark rim so it reads on both halves
        rim = cv2.dilate(alpha, np.ones((5, 5), np.uint8))[..., None]
        img = (img * (1 - rim) + np.array(INKS["dark"], np.float32) * rim).astype(np.uint8)
        ink_bgr = INKS["white"] if ink in ("white", "dark") else ink_bgr
    img = (img * (1 - alpha) + np.array(ink_bgr, np.float32) * alpha).astype(np.uint8)
    # the flat face darkens a little towards its rounded edges
    yy, xx = np.mgrid[0:s, 0:s].astype(np.float32) / (s - 1) * 2 - 1
    edge = np.clip(np.maximum(np.abs(xx), np.abs(yy)) - 0.82, 0, 1) / 0.18
    img = (img * (1 - 0.18 * edge[..., None] ** 2)).astype(np.uint8)
    levels = [img]
    while levels[-1].shape[0] > 12:
        levels.append(cv2.pyrDown(levels[-1]))
    return tuple(levels)
