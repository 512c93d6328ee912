"""Whole-frame effects, in the order a camera applies them: uneven light and its colour, lens distortion,
motion and focus blur, sensor noise, then exposure, white balance and contrast (one lookup table)."""

from __future__ import annotations

import math
from functools import cache

import cv2
import numpy as np

from datasets.scene import Effects, Lighting


def kelvin_bgr(kelvin: float) -> np.ndarray:
    """Approximate colour of a black body at ``kelvin`` (BGR, 0..1), after Tanner Helland's fit."""
    t = kelvin / 100.0
    r = 1.0 if t <= 66 else min(1.0, 1.2929 * (t - 60) ** -0.1332)
    g = (0.3901 * math.log(t) - 0.6318) if t <= 66 else 1.1299 * (t - 60) ** -0.0755
    b = 1.0 if t >= 66 else (0.0 if t <= 19 else 0.5432 * math.log(t - 10) - 1.1962)
    return np.clip(np.array([b, g, r]), 0.05, 1.0)


def light_gain(lighting: Lighting, w: int, h: int) -> np.ndarray:
    """Coarse (h/16, w/16, 3) gain: brightest at the lamp's hotspot, tinted by the light's colour."""
    gw, gh = max(2, w // 16), max(2, h // 16)
    yy, xx = np.mgrid[0:gh, 0:gw].astype(np.float32)
    hx, hy = lighting.hotspot[0] * gw, lighting.hotspot[1] * gh
    d2 = ((xx - hx) ** 2 + (yy - hy) ** 2) / float(gw * gw + gh * gh)
    lum = 1.0 - lighting.falloff * np.clip(d2 * 1.6, 0, 1)
    colour = kelvin_bgr(lighting.kelvin) / kelvin_bgr(6500.0)
    colour = colour / colour.max()
    # auto white balance removes part of the cast
    colour = colour ** (1.0 - lighting.awb)
    colour = colour / colour.mean()
    return lum[..., None] * colour[None, None, :].astype(np.float32)


def apply_light(img: np.ndarray, lighting: Lighting) -> np.ndarray:
    h, w = img.shape[:2]
    gain = light_gain(lighting, w, h)
    g8 = np.clip(gain * 128, 0, 255).astype(np.uint8)
    full = cv2.resize(g8, (w, h), interpolation=cv2.INTER_LINEAR)
    return cv2.multiply(img, full, scale=1 / 128)


def motion_kernel(length: float, angle: float) -> np.ndarray:
    size = int(math.ceil(length)) | 1
    k = np.zeros((size, size), np.float32)
    c = (size - 1) / 2
    dx, dy = math.cos(math.radians(angle)) * length / 2, math.sin(math.radians(angle)) * length / 2
    cv2.line(
        k,
        (int(round((c - dx) * 16)), int(round((c - dy) * 16))),
        (int(round((c + dx) * 16)), int(round((c + dy) * 16))),
        1.0,
        1,
        cv2.LINE_AA,
        4,
    )
    return k / max(k.sum(), 1e-6)


@cache
def _noise_tile() -> np.ndarray:
    """A fixed 2048 x 2048 x 3 tile of grain (uint8 around 128, std 32), slightly correlated like demosaiced noise."""
    rng = np.random.default_rng(20240601)
    tile = rng.standard_normal((2048, 2048, 3)).astype(np.float32)
    tile = cv2.GaussianBlur(tile, (0, 0), 0.55)
    tile /= tile.std()
    return np.clip(128 + tile * 32, 0, 255).astype(np.uint8)


def add_noise(img: np.ndarray, sigma: float, seed: int) -> np.ndarray:
    if sigma <= 0:
        return img
    h, w = img.shape[:2]
    tile = _noise_tile()
    rng = np.random.default_rng(seed)
    oy, ox = int(rng.integers(0, tile.shape[0] - h + 1)), int(rng.integers(0, tile.shape[1] - w + 1))
    beta = sigma / 32.0
    return cv2.addWeighted(img, 1.0, tile[oy : oy + h, ox : ox + w], beta, -128.0 * beta)


def sensor_lut(effects: Effects) -> np.ndarray:
    x = np.arange(256, dtype=np.float32) / 255.0
    gain = 2.0**effects.exposure
    out = []
    for c in range(3):
        v = np.clip(x * gain * effects.wb[c], 0, 1)
        v = np.clip((v - 0.5) * effects.contrast + 0.5, 0, 1)
        out.append(np.round(v * 255))
    return np.stack(out, axis=-1).reshape(256, 1, 3).astype(np.uint8)


def camera_effects(img: np.ndarray, effects: Effects) -> np.ndarray:
    """Blur, noise and the exposure/white balance/contrast curve (distortion is applied by the caller)."""
    if effects.motion >= 1.0:
        img = cv2.filter2D(img, -1, motion_kernel(effects.motion, effects.motion_angle), borderType=cv2.BORDER_REFLECT)
    if effects.focus > 0.2:
        img = cv2.GaussianBlur(img, (0, 0), effects.focus)
    img = add_noise(img, effects.noise, effects.seed)
    if effects.exposure != 0 or effects.contrast != 1 or effects.wb != (1.0, 1.0, 1.0):
        img = cv2.LUT(img, sensor_lut(effects))
    return img
