"""Still frames and moved parts: the detector sees only what changed since the detections kept.

A table between moves is still, and the detector is four fifths of the pipeline's time on a laptop CPU: in the
rendered games (6 frames a second) this gate finds 43-47 % of the frames still (``fuse-referee bench pipeline
--recording GAME --frames 800`` prints the share), and where a frame moved, the part that moved is often a
small one (a hand placing a die). ``MotionGate.change`` compares a 320 x 180 thumbnail with what the
detections kept were made from: every move of the game (a hand placing a die, a roll, a card taken) changes
hundreds of its pixels, while camera noise, averaged over 4 x 4 pixels, changes none by more than ``level``.
So the detector runs only on frames that moved (optionally on the box around what moved alone,
``vision.regions``), and on the whole frame at least once every ``max_reuse`` frames.
"""

from __future__ import annotations

import cv2
import numpy as np

THUMB = (320, 180)
MAX_REUSE = 30
"""Frames at most between two whole detections ..."""
PARTS_MAX_REUSE = 6
"""... and with ``parts``: every 30 frames, the sample, probe, tuning and fresh games matched 757 events of
1,275; every 6, 786 (README)."""
Box = tuple[int, int, int, int]
EVERYWHERE: Box = (0, 0, 1 << 30, 1 << 30)
"""The change of a frame that is not an image: the whole of it, whatever its size (the detector reports it)."""


class MotionGate:
    """``change(image)``: the part of ``image`` to detect again, or None when it is still. With ``parts`` False
    (the default) a frame that moved is detected whole; with ``parts`` True the part that moved only."""

    def __init__(self, level: int = 16, pixels: int = 3, max_reuse: int | None = None, parts: bool = False,
                 settle: int = 3) -> None:
        self.level, self.pixels, self.parts = level, pixels, parts
        # parts kept from many frames back drift from what whole frames show: look at the whole more often
        self.max_reuse = max_reuse if max_reuse is not None else (PARTS_MAX_REUSE if parts else MAX_REUSE)
        self.settle = settle if parts else 0
        self._reference: np.ndarray | None = None
        self._since_whole = 0
        self._settling: list[tuple[int, Box]] = []
        """Parts that changed in the last ``settle`` frames, with the frames each has left."""
        self.still = 0
        """Frames judged still so far."""

    def change(self, image: np.ndarray) -> Box | None:
        """None if ``image`` shows what the detections kept were made from; else the whole frame (x1, y1, x2,
        y2: 0, 0, width, height), or with ``parts`` the box around what changed and around what changed in the
        ``settle`` frames before (a die a hand just left, blurred or half hidden, is looked at again as it comes
        clear); the whole frame always for the first one, one of a new size and every ``max_reuse``-th. With
        ``parts`` the thumbnail's reference is brought up to date where it changed only, so a slow change
        elsewhere adds up until it is seen."""
        if not isinstance(image, np.ndarray) or image.ndim not in (2, 3) or min(image.shape[:2]) == 0:
            return EVERYWHERE
        height, width = image.shape[:2]
        thumb = _thumbnail(image)
        reference = self._reference
        self._since_whole += 1
        if reference is None or reference.shape != thumb.shape or self._since_whole > self.max_reuse:
            self._reference, self._since_whole, self._settling = thumb, 0, []
            return 0, 0, width, height
        looked = [part for _, part in self._settling]  # still settling from the frames before
        self._settling = [(left - 1, part) for left, part in self._settling if left > 1]
        ys, xs = np.nonzero(_change(reference, thumb) > self.level)
        if len(xs) >= self.pixels:
            if not self.parts:
                self._reference, self._since_whole = thumb, 0
                return 0, 0, width, height
            x1, y1, x2, y2 = xs.min(), ys.min(), xs.max() + 1, ys.max() + 1
            reference[y1:y2, x1:x2] = thumb[y1:y2, x1:x2]
            # a thumbnail pixel spans several frame pixels: one more each side holds all of what changed
            sx, sy = width / THUMB[0], height / THUMB[1]
            part = (max(0, int((x1 - 1) * sx)), max(0, int((y1 - 1) * sy)),
                    min(width, int(np.ceil((x2 + 1) * sx))), min(height, int(np.ceil((y2 + 1) * sy))))
            looked.append(part)
            if self.settle:
                self._settling.append((self.settle, part))
        if not looked:
            self.still += 1
            return None
        return (min(p[0] for p in looked), min(p[1] for p in looked), max(p[2] for p in looked),
                max(p[3] for p in looked))

    def moved(self, image: np.ndarray) -> bool:
        """Whether ``image`` goes to the detector at all."""
        return self.change(image) is not None


def gate_for(skip_still: bool = True, windows: bool = False) -> MotionGate | None:
    """The pipeline's gate: none (every frame detected whole) without ``skip_still``; with ``windows`` one that
    gives the part of a frame that moved. (Here, so that the evaluation's cache, keyed by this module, sees it.)"""
    return MotionGate(parts=windows) if skip_still else None


def to_detect(gate: MotionGate | None, image: np.ndarray, kept: object) -> Box | None:
    """The part of ``image`` the detector must see: all of it without a gate or with no detections ``kept`` yet,
    else what changed (None: nothing, the frame is still)."""
    change = EVERYWHERE if gate is None else gate.change(image)
    return EVERYWHERE if kept is None else change


def _thumbnail(image: np.ndarray) -> np.ndarray:
    return cv2.resize(image, THUMB, interpolation=cv2.INTER_AREA)


def _change(before: np.ndarray, after: np.ndarray) -> np.ndarray:
    """Per pixel, the largest change of any channel (a red die on a brown table of its brightness shows)."""
    change = cv2.absdiff(before, after)
    return change if change.ndim == 2 else change.max(axis=2)
