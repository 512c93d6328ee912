"""YOLO label lines (``class cx cy w h``, normalised to the frame) from a rendered image's truth."""

from __future__ import annotations

from collections.abc import Sequence

from datasets.classes import class_index


def yolo_lines(truth: dict) -> list[str]:
    """One line per labelled card and die (cards first, in scene order)."""
    index = class_index()
    w, h = truth["width"], truth["height"]
    lines = []
    for entry in truth["cards"] + truth["dice"]:
        label = entry.get("label")
        if not label:
            continue
        lines.append(yolo_line(index[label], entry["box"], w, h))
    return lines


def yolo_line(class_id: int, box: Sequence[float], width: float, height: float) -> str:
    """A YOLO label line: the class, then the box (x1, y1, x2, y2 in pixels) as centre and size over the image."""
    x0, y0, x1, y1 = (float(v) for v in box)
    centre = f"{(x0 + x1) / 2 / width:.6f} {(y0 + y1) / 2 / height:.6f}"
    return f"{class_id} {centre} {(x1 - x0) / width:.6f} {(y1 - y0) / height:.6f}"
