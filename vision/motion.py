"""Still frames: a frame that shows what the last detected frame showed keeps that frame's detections.

A table between moves is still, and the detector is four fifths of the pipeline's time on a laptop CPU: in the
rendered games (6 frames a second) this gate finds 43-47 % of the frames still (``fuse-referee bench pipeline
--recording GAME --frames 800`` prints the share). ``MotionGate.moved`` compares a 320 x 180 thumbnail with the
last frame the detector saw: every move of the game
(a hand placing a die, a roll, a card taken) changes hundreds of its pixels, while camera noise, averaged over
4 x 4 pixels, changes none by more than ``level``. So the detector is run only on frames that moved, and at
least once every ``max_reuse`` frames.
"""

from __future__ import annotations

import cv2
import numpy as np

THUMB = (320, 180)


class MotionGate:
    """``moved(image)``: whether ``image`` must go to the detector (it then becomes the reference)."""

    def __init__(self, level: int = 16, pixels: int = 3, max_reuse: int = 30) -> None:
        self.level, self.pixels, self.max_reuse = level, pixels, max_reuse
        self._reference: np.ndarray | None = None
        self._reused = 0
        self.still = 0
        """Frames judged still so far."""

    def moved(self, image: np.ndarray) -> bool:
        if not isinstance(image, np.ndarray) or image.ndim not in (2, 3) or min(image.shape[:2]) == 0:
            return True  # the detector says what is wrong with it
        thumb = _thumbnail(image)
        reference, self._reference = self._reference, thumb
        if (
            reference is not None
            and reference.shape == thumb.shape
            and self._reused < self.max_reuse
            and int((_change(reference, thumb) > self.level).sum()) < self.pixels
        ):
            self._reference = reference  # compare with the detected frame, so slow changes add up
            self._reused += 1
            self.still += 1
            return False
        self._reused = 0
        return True


def must_detect(gate: MotionGate | None, image: np.ndarray, kept: object) -> bool:
    """Whether ``image`` goes to the detector: always without a gate or with no detections ``kept`` yet, else
    when it moved."""
    return gate is None or gate.moved(image) or kept is None


def _thumbnail(image: np.ndarray) -> np.ndarray:
    return cv2.resize(image, THUMB, interpolation=cv2.INTER_AREA)


def _change(before: np.ndarray, after: np.ndarray) -> np.ndarray:
    """Per pixel, the largest change of any channel (a red die on a brown table of its brightness shows)."""
    change = cv2.absdiff(before, after)
    return change if change.ndim == 2 else change.max(axis=2)
