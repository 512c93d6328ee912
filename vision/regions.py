"""Detect again only where the frame changed, and keep the detections kept elsewhere.

``MotionGate.change`` gives the box around what moved since the detections kept; ``detect_change`` widens it
until no kept detection crosses its edge (a die half in it is wholly in it), adds ``CONTEXT`` pixels each side
for the network to see around it, and runs the detector on that window alone (``Detector.detect_window``, at
the whole frame's scale). What the window finds on the changed part replaces what was kept there. The whole
frame is detected instead when nothing is kept, the model takes one input size only, the window would be most
of the frame anyway, or something found runs out of the window (a card slid in from outside).
"""

from __future__ import annotations

from concurrent.futures import Future
from typing import Any

import numpy as np

from models.metrics import box_iou
from vision.detections import Detections

Box = tuple[float, float, float, float]

CONTEXT = 64
"""Frame pixels of unchanged table each side of the changed part that the network sees (a 720p die is 12-60)."""
MOST = 0.6
"""A window over this share of the frame is not worth it: the whole frame is detected."""
SAME = 0.5
"""A kept detection overlapping one found again this much (IoU) is the same object: the found one replaces it."""


def detect_change(detector: Any, image: np.ndarray, change: Box,
                  kept: Detections | Future[Detections] | None) -> Detections:
    """The detections of ``image``: ``detector``'s own on the part ``change`` (frame pixels) and what it
    touches, ``kept`` (the detections of the frame the change is measured from, or their future; waited for
    only when the window is worth it) elsewhere."""
    height, width = image.shape[:2] if isinstance(image, np.ndarray) and image.ndim >= 2 else (0, 0)

    def window_around(part: Box) -> Box | None:
        """``part`` with its context, or None when that is most of the frame."""
        window = _clip(_widen(part, CONTEXT), width, height)
        return window if _area(window) < MOST * width * height else None

    change = _clip(change, width, height)
    if kept is None or not getattr(detector, "windowed", False) or window_around(change) is None:
        return detector.detect(image)
    if isinstance(kept, Future):
        kept = None if kept.exception() is not None else kept.result()
        if kept is None:  # the frame it was made from could not be detected
            return detector.detect(image)
    changed = _grow(change, kept.xyxy)
    window = window_around(changed)
    if window is None:
        return detector.detect(image)
    found, seen = detector.detect_window(image, window)
    found = found[_overlaps(found.xyxy, changed)]
    if _runs_out(found.xyxy, seen, width, height):
        return detector.detect(image)
    others = kept[~_overlaps(kept.xyxy, changed)]
    if len(others) and len(found):
        others = others[box_iou(others.xyxy, found.xyxy).max(axis=1) < SAME]
    return others.joined(found)


def _grow(box: Box, boxes: np.ndarray) -> Box:
    """``box`` widened until every one of ``boxes`` it overlaps lies inside it."""
    while True:
        touched = boxes[_overlaps(boxes, box)]
        grown = (min([box[0], *touched[:, 0]]), min([box[1], *touched[:, 1]]),
                 max([box[2], *touched[:, 2]]), max([box[3], *touched[:, 3]]))
        if grown == box:
            return box
        box = grown


def _overlaps(boxes: np.ndarray, box: Box) -> np.ndarray:
    x1, y1, x2, y2 = box
    return (boxes[:, 0] < x2) & (boxes[:, 2] > x1) & (boxes[:, 1] < y2) & (boxes[:, 3] > y1)


def _runs_out(boxes: np.ndarray, seen: Box, width: int, height: int, slack: float = 2.0) -> bool:
    """Whether any of ``boxes`` reaches an edge of the window ``seen`` that is not an edge of the frame."""
    x1, y1, x2, y2 = seen
    return bool(((x1 > 0) & (boxes[:, 0] <= x1 + slack)).any() | ((y1 > 0) & (boxes[:, 1] <= y1 + slack)).any()
                | ((x2 < width) & (boxes[:, 2] >= x2 - slack)).any()
                | ((y2 < height) & (boxes[:, 3] >= y2 - slack)).any())


def _widen(box: Box, by: float) -> Box:
    return box[0] - by, box[1] - by, box[2] + by, box[3] + by


def _clip(box: Box, width: int, height: int) -> Box:
    return max(0, box[0]), max(0, box[1]), min(width, box[2]), min(height, box[3])


def _area(box: Box) -> float:
    return max(0, box[2] - box[0]) * max(0, box[3] - box[1])
