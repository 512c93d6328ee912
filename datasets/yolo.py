"""YOLO label lines (``class cx cy w h``, normalised to the frame) from a rendered image's truth."""

from __future__ import annotations

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
        x0, y0, x1, y1 = entry["box"]
        lines.append(
            f"{index[label]} {(x0 + x1) / 2 / w:.6f} {(y0 + y1) / 2 / h:.6f} {(x1 - x0) / w:.6f} {(y1 - y0) / h:.6f}"
        )
    return lines
