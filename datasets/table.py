"""Procedural table-top textures (tileable, cached per family and variant) and drawing the table into a frame.

Families imitate what a game table really is: ``wood`` (planks with grain), ``cloth`` (felt or woven
tablecloth), ``plain`` (laminate, painted), ``patterned`` (gingham, stripes, tiles, dots). ``marble`` and
``plaid`` are kept out of the default style so that a held-out style can test generalisation.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from datasets.camera import Projector
from datasets.scene import TABLE_FAMILIES, Table

SIZE = 1024
FAMILIES = TABLE_FAMILIES
VARIANTS = 6


def _noise(rng: np.random.Generator, scale: float, size: int = SIZE, stretch: float = 1.0) -> np.ndarray:
    """Tileable smooth noise, zero mean, unit std; ``scale`` is the feature size in texels (x ``stretch`` along x)."""
    white = rng.standard_normal((size, size)).astype(np.float32)
    fy = np.fft.fftfreq(size)[:, None]
    fx = np.fft.rfftfreq(size)[None, :]
    spectrum = np.fft.rfft2(white) * np.exp(-((fx * fx * stretch * stretch + fy * fy) * (scale * scale) * 9.0))
    out = np.fft.irfft2(spectrum, s=(size, size)).astype(np.float32)
    return (out - out.mean()) / (out.std() + 1e-6)


def _colourise(lum: np.ndarray, colour: tuple[float, float, float]) -> np.ndarray:
    return np.clip(lum[..., None] * np.array(colour, np.float32)[None, None, :], 0, 255).astype(np.uint8)


def _wood(rng: np.random.Generator, variant: int) -> np.ndarray:
    tones = [(40, 85, 140), (55, 110, 170), (30, 60, 105), (70, 130, 190), (45, 70, 95), (95, 150, 200)]
    yy, xx = np.mgrid[0:SIZE, 0:SIZE].astype(np.float32)
    planks = int(rng.integers(4, 9))
    plank = np.floor(yy / (SIZE / planks))
    warp = _noise(rng, 40, stretch=6) * 6 + _noise(rng, 6, stretch=10) * 0.8
    freq = 2 * np.pi * (int(rng.integers(60, 120)) / SIZE)
    grain = np.sin((yy + warp * 4 + plank * 37.0) * freq)
    fibre = _noise(rng, 1.5, stretch=12)
    lum = 0.93 + 0.06 * grain + 0.04 * fibre + 0.03 * _noise(rng, 30) + 0.06 * np.sin(plank * 2.1 + variant)
    seam = (np.mod(yy, SIZE / planks) < 2.0).astype(np.float32)
    lum = lum * (1 - 0.45 * seam)
    return _colourise(lum, tones[variant % len(tones)])


def _cloth(rng: np.random.Generator, variant: int) -> np.ndarray:
    tones = [(60, 110, 40), (120, 70, 30), (80, 80, 85), (40, 40, 130), (35, 35, 35), (150, 140, 120)]
    yy, xx = np.mgrid[0:SIZE, 0:SIZE].astype(np.float32)
    period = 4.0 if variant % 2 else 2.0
    weave = np.sin(xx * 2 * np.pi / period) * np.sin(yy * 2 * np.pi / period)
    lum = 1.0 + 0.05 * weave + 0.05 * _noise(rng, 2) + 0.04 * _noise(rng, 80)
    return _colourise(lum, tones[variant % len(tones)])


def _plain(rng: np.random.Generator, variant: int) -> np.ndarray:
    tones = [(225, 225, 225), (150, 150, 150), (170, 200, 215), (60, 60, 60), (120, 150, 170), (200, 190, 180)]
    lum = 1.0 + 0.012 * _noise(rng, 3) + 0.012 * _noise(rng, 150)
    return _colourise(lum, tones[variant % len(tones)])


def _patterned(rng: np.random.Generator, variant: int) -> np.ndarray:
    yy, xx = np.mgrid[0:SIZE, 0:SIZE].astype(np.float32)
    kind = variant % 4
    period = SIZE / int(rng.integers(8, 20))
    a = np.array([(235, 235, 240), (225, 225, 220), (210, 220, 230), (230, 230, 230)][kind], np.float32)
    b = np.array([(50, 50, 190), (140, 90, 40), (60, 120, 60), (90, 90, 95)][int(rng.integers(0, 4))], np.float32)
    if kind == 0:  # gingham
        mx = (np.mod(xx, period) < period / 2).astype(np.float32)
        my = (np.mod(yy, period) < period / 2).astype(np.float32)
        m = (mx + my) / 2
    elif kind == 1:  # stripes
        m = (np.mod(xx + yy * 0.0, period) < period / 3).astype(np.float32)
    elif kind == 2:  # tiles with grout
        m = ((np.mod(xx, period) < 3) | (np.mod(yy, period) < 3)).astype(np.float32) * 0.7
    else:  # dots
        cx = np.mod(xx, period) - period / 2
        cy = np.mod(yy, period) - period / 2
        m = ((cx * cx + cy * cy) < (period * 0.22) ** 2).astype(np.float32)
    m = cv2.GaussianBlur(m, (0, 0), 1.0)
    img = a[None, None, :] * (1 - m[..., None]) + b[None, None, :] * m[..., None]
    img *= (1.0 + 0.03 * _noise(rng, 2))[..., None]
    return np.clip(img, 0, 255).astype(np.uint8)


def _marble(rng: np.random.Generator, variant: int) -> np.ndarray:
    yy, xx = np.mgrid[0:SIZE, 0:SIZE].astype(np.float32)
    turb = _noise(rng, 70) * 1.8 + _noise(rng, 20) * 0.6
    veins = np.abs(np.sin((xx + yy) * 2 * np.pi / SIZE * 3 + turb * 2.5)) ** 0.25
    base = [(225, 228, 230), (60, 60, 62), (200, 210, 220)][variant % 3]
    lum = 0.75 + 0.25 * veins + 0.03 * _noise(rng, 3)
    return _colourise(lum, base)


def _plaid(rng: np.random.Generator, variant: int) -> np.ndarray:
    yy, xx = np.mgrid[0:SIZE, 0:SIZE].astype(np.float32)
    base = np.array([(40, 40, 140), (100, 60, 30), (40, 90, 40)][variant % 3], np.float32)
    period = SIZE / 8
    band = lambda t, w: (np.mod(t, period) < w).astype(np.float32)  # noqa: E731
    m1 = (band(xx, period * 0.25) + band(yy, period * 0.25)) / 2
    m2 = (band(xx + period * 0.5, 6) + band(yy + period * 0.5, 6)) / 2
    img = base * (1 - 0.5 * m1[..., None]) + np.array([200, 200, 90], np.float32) * m2[..., None] * 0.6
    img *= (1.0 + 0.05 * np.sin(xx * np.pi) * np.sin(yy * np.pi))[..., None]
    return np.clip(img, 0, 255).astype(np.uint8)


_MAKERS = {"wood": _wood, "cloth": _cloth, "plain": _plain, "patterned": _patterned, "marble": _marble, "plaid": _plaid}


@lru_cache(maxsize=40)
def table_texture(family: str, variant: int) -> tuple[np.ndarray, ...]:
    """Tileable BGR texture of one table variant and its mip levels (same across processes: seeded by name)."""
    if family not in _MAKERS:
        raise ValueError(f"unknown table family {family!r}: expected one of {', '.join(FAMILIES)}")
    rng = np.random.default_rng([FAMILIES.index(family), variant])
    levels = [_MAKERS[family](rng, variant)]
    for _ in range(3):
        levels.append(cv2.pyrDown(levels[-1]))
    return tuple(levels)


def draw_table(table: Table, proj: Projector, scale: float = 0.5) -> np.ndarray:
    """The bare table as the camera sees it; warped at ``scale`` of the frame size and enlarged (tables are soft)."""
    w, h = proj.camera.width, proj.camera.height
    sw, sh = int(round(w * scale)), int(round(h * scale))
    # texels per output pixel near the top (farthest) and middle of the frame: pick the mip level between them
    probe = proj.to_plane(np.array([[w / 2, h / 2], [w / 2 + 1, h / 2], [w / 2, h * 0.1], [w / 2 + 1, h * 0.1]]))
    mm_per_px = np.sqrt(np.linalg.norm(probe[1] - probe[0]) * np.linalg.norm(probe[3] - probe[2])) / scale
    ratio = mm_per_px / table.mm_per_texel
    level = int(np.clip(np.floor(np.log2(max(ratio, 1.0))), 0, 3))
    tex = table_texture(table.family, table.variant)[level]
    tpt = table.mm_per_texel * (2**level)
    c, s = np.cos(np.radians(table.angle)), np.sin(np.radians(table.angle))
    # texture (u, v) -> world (x, y)
    tex_to_world = np.array([[c * tpt, -s * tpt, table.offset[0]], [s * tpt, c * tpt, table.offset[1]], [0, 0, 1.0]])
    down = np.diag([scale, scale, 1.0])
    down[0, 2] = down[1, 2] = 0.5 * scale - 0.5
    hom = down @ proj.plane_homography(0.0) @ tex_to_world
    small = cv2.warpPerspective(tex, hom, (sw, sh), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_WRAP)
    tint = np.array(table.tint, np.float64)
    if np.any(np.abs(tint - 1.0) > 1e-3):
        small = cv2.multiply(small, (float(tint[0]), float(tint[1]), float(tint[2]), 0.0))
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR) if scale != 1.0 else small
