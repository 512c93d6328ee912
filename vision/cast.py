"""The colour of the light on the table, learned from the cards named and undone before cards are read.

Why: the matcher's fit (``identify``) takes out a light level and a small white-balance shift, an offset in Lab;
a lamp's colour is a gain per channel in linear light, which moves a white chip far more than the navy board.
Under warm light that the camera's white balance only half undoes (probe13 s2104: 3,100 K, blue at a third of
green) the bombs' coloured chips match no print of their own, and every bomb reads closest to one with white
chips. The cards named all the same (their white chips and board, lined up) show the cast: each gives the gain
of each channel against the card as drawn, over the cells it explains.
"""

from __future__ import annotations

from collections import deque

import cv2
import numpy as np

from vision.identify import CELL, GRID_H, GRID_W

SAMPLES = 30
"""The cast is the median of the last this many named cards' gains: a lamp switched on changes it within a
few cards read, one card half in shadow or glare does not."""
MIN_SAMPLES = 3
"""Cards named before the cast is undone."""
NEUTRAL = 1.0
"""A cast whose strongest channel's gain is under 1 + this times its weakest is left as it is: the matcher's
own fit copes with that. On the 30 unseen4-5 and probe11-13 games (``python -m vision.evaluate GAMES --cache
runs/cache``) the named cards show casts of 1.2-1.8 but s2104's 3.0. Undoing casts from 1.25 up gained s2104
(33 -> 62 events) but lost others (h3s1002 59 -> 45, cd2s1903 56 -> 47; flags 35 -> 33 of 45); from 2 up only
s2104 moves: 1,730 -> 1,759 of 2,098 events, flags 35 of 45 either way (fiftieth session)."""
SANE = (0.05, 20.0)
"""Gains (against green) outside this are no light's colour (a misread face): the card teaches nothing."""


def _linear(srgb: np.ndarray) -> np.ndarray:
    x = srgb.astype(np.float32) / 255.0
    return np.where(x <= 0.04045, x / 12.92, ((x + 0.055) / 1.055) ** 2.4)


def _srgb(linear: np.ndarray) -> np.ndarray:
    x = np.clip(linear, 0.0, 1.0)
    return np.where(x <= 0.0031308, 12.92 * x, 1.055 * x ** (1 / 2.4) - 0.055) * 255.0


def channel_gains(face: np.ndarray, drawn: np.ndarray, explained: np.ndarray) -> np.ndarray | None:
    """Each BGR channel's gain (linear light, green 1) that takes the card as ``drawn`` to its ``face`` as seen
    (both Lab grids, ``identify.grid_image``), fitted on the ``explained`` cells (CELLS,) only; None when those
    give no sane gain."""
    cells = np.asarray(explained, bool).reshape(GRID_H // CELL, GRID_W // CELL)
    mask = np.repeat(np.repeat(cells, CELL, 0), CELL, 1)
    if not mask.any():
        return None
    seen = _linear(cv2.cvtColor(face, cv2.COLOR_LAB2BGR))[mask]
    printed = _linear(cv2.cvtColor(drawn, cv2.COLOR_LAB2BGR))[mask]
    power = (printed * printed).sum(0)
    if (power <= 1e-6).any():
        return None
    gains = (seen * printed).sum(0) / power
    if gains[1] <= 1e-6:
        return None
    gains = gains / gains[1]
    return gains if ((gains >= SANE[0]) & (gains <= SANE[1])).all() else None


class Cast:
    """The light's colour as the named cards show it, and frames with it undone."""

    def __init__(self) -> None:
        self._gains: deque[np.ndarray] = deque(maxlen=SAMPLES)
        self._scale = np.ones(3, np.float32)
        """Each channel's gain undone by the last ``undo`` (linear light divided by it)."""
        self._table: np.ndarray | None = None
        self._stale = False

    def learn(self, face: np.ndarray, drawn: np.ndarray, explained: np.ndarray) -> None:
        """One named card: its ``face`` as read in the frame the last ``undo`` gave, as ``drawn``, and the cells
        of it the match explained."""
        gains = channel_gains(face, drawn, explained)
        if gains is not None:
            gains = gains * self._scale  # the light's own gain: the face was read with the cast then known undone
            self._gains.append(gains / gains[1])
            self._stale = True

    @property
    def gains(self) -> np.ndarray | None:
        """The light's BGR gains (green 1), or None while too few cards were named or the light is near white."""
        if len(self._gains) < MIN_SAMPLES:
            return None
        cast = np.median(np.stack(self._gains), 0)
        return cast if cast.max() > (1 + NEUTRAL) * cast.min() else None

    def undo(self, frame: np.ndarray) -> np.ndarray:
        """``frame`` (BGR) as it would look under white light; the frame itself when no cast is known."""
        if self._stale:
            # (the correction changes only here, so every card of a frame is read and learnt from under one)
            self._stale, cast = False, self.gains
            self._scale = np.ones(3, np.float32) if cast is None else (cast / cast.max()).astype(np.float32)
            # each channel brought up to the strongest: nothing is darkened, a weak channel's top end may clip
            levels = _linear(np.arange(256))[:, None] / self._scale[None, :]
            self._table = None if cast is None else np.clip(np.round(_srgb(levels)), 0, 255).astype(
                np.uint8).reshape(1, 256, 3)
        if self._table is None or frame.ndim != 3 or frame.shape[2] != 3:
            return frame
        return cv2.LUT(frame, self._table)
