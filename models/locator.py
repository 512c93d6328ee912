"""The locator's dataset: the renderer's classes folded to one ``die`` class and the five card types.

Stage one of the detector only finds dice and cards; the die reader (``models/reader.py``) reads each die's
colour and top face from a full-resolution crop, where a 12-pixel die still has all its pixels.

    python -m models.locator data/train data/train-locate
    python -m models.locator data/train data/train-tiles --tiles 960x544

writes ``DST/data.yaml``, ``DST/labels`` with the folded classes and ``DST/images`` as links to SRC's images
(ultralytics finds a label by swapping ``images`` for ``labels`` in the image's path). With ``--tiles`` each
frame is scaled as the detector scales it for that input and cut into 640-wide tiles (``tile_frame``), so a
640 training run sees dice at the size the detector meets them (a whole frame squeezed to 640 shows them at
two thirds of that, and the smallest under 6 px).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
from pathlib import Path

import numpy as np

from datasets.yolo import yolo_line
from models.errors import ModelsError
from vision.errors import VisionError

LOCATOR_CLASSES = ("die", "bomb", "fuse", "spark", "role", "back")


def locator_class(renderer_class: int) -> int:
    """The renderer's class number -> the locator's: every die (game or plain) is ``die``, cards keep their type."""
    from datasets.classes import class_names

    name = class_names()[renderer_class]
    return LOCATOR_CLASSES.index(name) if name in LOCATOR_CLASSES else 0


def fold_labels(text: str) -> str:
    lines = []
    for line in text.splitlines():
        if line.strip():
            cls, rest = line.split(maxsplit=1)
            lines.append(f"{locator_class(int(cls))} {rest}")
    return "".join(line + "\n" for line in lines)


def make_locator_dataset(src: str | Path, dst: str | Path) -> Path:
    """Write the locator's view of the renderer dataset ``src`` at ``dst``; return ``dst/data.yaml``."""
    src, dst = Path(src).resolve(), Path(dst)
    splits = _splits(src, dst)
    for split in splits:
        for image in sorted((src / "images" / split).iterdir()):
            link = dst / "images" / split / image.name
            if not link.exists():
                os.symlink(image, link)
            (dst / "labels" / split / (image.stem + ".txt")).write_text(fold_labels(_label_text(src, split, image)))
    return _write_yaml(src, dst, splits)


def _splits(src: Path, dst: Path) -> list[str]:
    """The renderer dataset ``src``'s splits, each with its folders made under ``dst``."""
    if not (src / "labels").is_dir() or not (src / "images").is_dir():
        raise ModelsError(f"no renderer dataset at {str(src)!r}: expected images/ and labels/")
    splits = [p.name for p in sorted((src / "labels").iterdir()) if p.is_dir()]
    for split in splits:
        (dst / "images" / split).mkdir(parents=True, exist_ok=True)
        (dst / "labels" / split).mkdir(parents=True, exist_ok=True)
    return splits


def _label_text(src: Path, split: str, image: Path) -> str:
    label = src / "labels" / split / (image.stem + ".txt")
    return label.read_text() if label.is_file() else ""


def _write_yaml(src: Path, dst: Path, splits: list[str]) -> Path:
    if (src / "manifest.json").is_file():
        shutil.copy(src / "manifest.json", dst / "manifest.json")
    names = "".join(f'  {i}: "{name}"\n' for i, name in enumerate(LOCATOR_CLASSES))
    yaml = dst / "data.yaml"
    lines = [f"# locator view of {src}", *(f"{s}: images/{s}" for s in splits if s in ("train", "val"))]
    yaml.write_text("\n".join(lines) + f"\nnc: {len(LOCATOR_CLASSES)}\nnames:\n{names}")
    return yaml


TILE = 640
"""Side of a training tile: the locator trains at 640, so a tile is used at its own scale."""
MIN_KEPT = {"die": 0.6, "card": 0.35}
"""Share of a box's area that must lie in a tile for it to be labelled there: a die must show most of itself
(the renderer labels dice at least half visible), a card as much as the renderer asks of a card at the frame's
edge."""


def tile_frame(
    image: np.ndarray, boxes: np.ndarray, classes: np.ndarray, size: tuple[int, int] = (960, 544)
) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """``image`` scaled as ``Detector`` scales a frame for a ``size`` (width, height) input, cut into tiles of
    ``TILE`` side that overlap evenly and cover it. ``boxes`` (N, 4) x1 y1 x2 y2 in frame pixels, ``classes``
    (N,) locator classes; each tile comes with its boxes clipped to it (those showing ``MIN_KEPT`` of
    themselves) in tile pixels."""
    import cv2

    h, w = image.shape[:2]
    scale = min(size[0] / w, size[1] / h)
    width, height = round(w * scale), round(h * scale)
    scaled = cv2.resize(image, (width, height), interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    boxes = np.asarray(boxes, np.float64).reshape(-1, 4) * scale
    area = np.maximum((boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1]), 1e-9)
    need = np.where(np.asarray(classes) == 0, MIN_KEPT["die"], MIN_KEPT["card"])
    tiles = []
    for y0 in _starts(height):
        for x0 in _starts(width):
            x1, y1 = min(x0 + TILE, width), min(y0 + TILE, height)
            clipped = np.clip(boxes, [x0, y0, x0, y0], [x1, y1, x1, y1]) - [x0, y0, x0, y0]
            kept = (clipped[:, 2] - clipped[:, 0]) * (clipped[:, 3] - clipped[:, 1]) >= need * area
            tiles.append((scaled[y0:y1, x0:x1], clipped[kept], np.asarray(classes)[kept]))
    return tiles


def _starts(length: int) -> list[int]:
    """Offsets of ``TILE``-long tiles covering ``length``, evenly spaced at most half a tile apart (so whatever
    is under half a tile long lies whole in one of them); one tile if it fits."""
    if length <= TILE:
        return [0]
    count = -(-(length - TILE) // (TILE // 2)) + 1
    return [round(i * (length - TILE) / (count - 1)) for i in range(count)]


def make_tiled_dataset(src: str | Path, dst: str | Path, size: tuple[int, int] = (960, 544)) -> Path:
    """Write the locator's tiled view of the renderer dataset ``src`` at ``dst`` (``tile_frame``: frames scaled
    for a ``size`` input, cut into 640 tiles, labels folded and clipped); return ``dst/data.yaml``."""
    import cv2

    src, dst = Path(src).resolve(), Path(dst)
    splits = _splits(src, dst)
    for split in splits:
        for path in sorted((src / "images" / split).iterdir()):
            image = cv2.imread(str(path))
            if image is None:
                raise ModelsError(f"cannot read the image {str(path)!r}")
            h, w = image.shape[:2]
            rows = [line.split() for line in _label_text(src, split, path).splitlines() if line.strip()]
            classes = np.array([locator_class(int(r[0])) for r in rows], np.int64)
            cxcywh = np.array([[float(v) for v in r[1:5]] for r in rows], np.float64).reshape(-1, 4) * [w, h, w, h]
            boxes = np.concatenate([cxcywh[:, :2] - cxcywh[:, 2:] / 2, cxcywh[:, :2] + cxcywh[:, 2:] / 2], 1)
            for k, (tile, tile_boxes, tile_classes) in enumerate(tile_frame(image, boxes, classes, size)):
                name = f"{path.stem}_{k}"
                cv2.imwrite(str(dst / "images" / split / f"{name}.jpg"), tile, [cv2.IMWRITE_JPEG_QUALITY, 95])
                th, tw = tile.shape[:2]
                lines = [yolo_line(c, b, tw, th) + "\n" for b, c in zip(tile_boxes, tile_classes)]
                (dst / "labels" / split / f"{name}.txt").write_text("".join(lines))
    return _write_yaml(src, dst, splits)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m models.locator", description=__doc__.splitlines()[0])
    parser.add_argument("src", help="a dataset written by fuse-referee synth images")
    parser.add_argument("dst", help="where the locator's dataset goes")
    parser.add_argument("--tiles", metavar="WxH", help="scale frames for this network input and cut 640 tiles")
    args = parser.parse_args(argv)
    try:
        if args.tiles:
            from vision.detector import parse_size

            yaml = make_tiled_dataset(args.src, args.dst, parse_size(args.tiles))
        else:
            yaml = make_locator_dataset(args.src, args.dst)
    except (ModelsError, VisionError) as error:
        print(f"error: {error}")
        return 2
    print(json.dumps({"data": str(yaml)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
