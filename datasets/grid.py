"""Figures for datasets/README.md: a grid of sample renders, and renders with their labels drawn on.

python -m datasets.grid [--seed 2024] [--out datasets/figures]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np

from datasets.classes import class_names
from datasets.raster import render
from datasets.sampler import scene_for
from datasets.style import get_style


def overlay(image: np.ndarray, truth: dict) -> np.ndarray:
    """The image with label boxes (dice yellow, cards green), card corners and chip centres drawn on."""
    out = image.copy()
    for card in truth["cards"]:
        if not card["label"]:
            continue
        x0, y0, x1, y1 = (int(round(v)) for v in card["box"])
        cv2.rectangle(out, (x0, y0), (x1, y1), (60, 220, 60), 2)
        cv2.polylines(out, [np.int32(np.round(card["corners"]))], True, (255, 200, 0), 1, cv2.LINE_AA)
        for chip in card["chips"]:
            cv2.drawMarker(out, tuple(int(v) for v in chip["center"]), (255, 0, 255), cv2.MARKER_CROSS, 10, 2)
        cv2.putText(
            out, card["label"], (x0 + 3, y0 + 16), cv2.FONT_HERSHEY_SIMPLEX, 0.55, (60, 220, 60), 2, cv2.LINE_AA
        )
    for die in truth["dice"]:
        if not die["label"]:
            continue
        x0, y0, x1, y1 = (int(round(v)) for v in die["box"])
        cv2.rectangle(out, (x0, y0), (x1, y1), (0, 230, 255), 2)
        cv2.putText(out, die["label"], (x0, y0 - 3), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (0, 230, 255), 1, cv2.LINE_AA)
    return out


def die_size(truth: dict) -> float:
    """Median width of the labelled dice (0 with fewer than three): the label figures show close views."""
    sizes = [d["box"][2] - d["box"][0] for d in truth["dice"] if d["label"]]
    return float(np.median(sizes)) if len(sizes) >= 3 else 0.0


def tiles(images: list[np.ndarray], columns: int, width: int, bits: int = 6) -> np.ndarray:
    """Images shrunk to ``width`` and tiled; ``bits`` per channel kept (fewer bits, smaller PNG)."""
    height = width * 9 // 16
    small = [cv2.resize(im, (width, height), interpolation=cv2.INTER_AREA) for im in images]
    rows = [np.hstack(small[r : r + columns]) for r in range(0, len(small), columns)]
    grid = np.vstack(rows)
    drop = 8 - bits
    return ((grid >> drop) << drop) + (1 << drop >> 1) if drop else grid


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m datasets.grid")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--out", default=str(Path(__file__).parent / "figures"))
    parser.add_argument("--width", type=int, default=240, help="tile width in the grid, pixels")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    cv2.setNumThreads(1)
    style = get_style("default")
    renders = [render(scene_for(args.seed, i, style)) for i in range(16)]
    grid = tiles([img for img, _ in renders], 4, args.width, bits=5)
    cv2.imwrite(str(out / "grid.png"), grid, [cv2.IMWRITE_PNG_COMPRESSION, 9])
    held = [render(scene_for(args.seed, i, get_style("heldout"))) for i in range(12)]
    heldout = [img for img, _ in sorted(held, key=lambda r: -die_size(r[1]))[:4]]
    cv2.imwrite(str(out / "heldout.png"), tiles(heldout, 4, args.width), [cv2.IMWRITE_PNG_COMPRESSION, 9])
    closest = sorted(renders, key=lambda r: -die_size(r[1]))[:2]
    labelled = [overlay(img, truth) for img, truth in closest]
    cv2.imwrite(str(out / "labels.png"), tiles(labelled, 2, 480), [cv2.IMWRITE_PNG_COMPRESSION, 9])
    for name in ("grid.png", "heldout.png", "labels.png"):
        print(f"{out / name}: {(out / name).stat().st_size // 1024} KB")
    print(f"{len(class_names())} classes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
