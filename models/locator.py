"""The locator's dataset: the renderer's classes folded to one ``die`` class and the five card types.

Stage one of the detector only finds dice and cards; the die reader (``models/reader.py``) reads each die's
colour and top face from a full-resolution crop, where a 12-pixel die still has all its pixels.

    python -m models.locator data/train data/train-locate

writes ``DST/data.yaml``, ``DST/labels`` with the folded classes and ``DST/images`` as links to SRC's images
(ultralytics finds a label by swapping ``images`` for ``labels`` in the image's path).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
from pathlib import Path

from models.errors import ModelsError

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
    if not (src / "labels").is_dir() or not (src / "images").is_dir():
        raise ModelsError(f"no renderer dataset at {str(src)!r}: expected images/ and labels/")
    splits = [p.name for p in sorted((src / "labels").iterdir()) if p.is_dir()]
    for split in splits:
        (dst / "images" / split).mkdir(parents=True, exist_ok=True)
        (dst / "labels" / split).mkdir(parents=True, exist_ok=True)
        for image in sorted((src / "images" / split).iterdir()):
            link = dst / "images" / split / image.name
            if not link.exists():
                os.symlink(image, link)
            label = src / "labels" / split / (image.stem + ".txt")
            text = label.read_text() if label.is_file() else ""
            (dst / "labels" / split / label.name).write_text(fold_labels(text))
    if (src / "manifest.json").is_file():
        shutil.copy(src / "manifest.json", dst / "manifest.json")
    names = "".join(f'  {i}: "{name}"\n' for i, name in enumerate(LOCATOR_CLASSES))
    yaml = dst / "data.yaml"
    lines = [f"# locator view of {src}", *(f"{s}: images/{s}" for s in splits if s in ("train", "val"))]
    yaml.write_text("\n".join(lines) + f"\nnc: {len(LOCATOR_CLASSES)}\nnames:\n{names}")
    return yaml


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m models.locator", description=__doc__.splitlines()[0])
    parser.add_argument("src", help="a dataset written by fuse-referee synth images")
    parser.add_argument("dst", help="where the locator's dataset goes")
    args = parser.parse_args(argv)
    try:
        yaml = make_locator_dataset(args.src, args.dst)
    except ModelsError as error:
        print(f"error: {error}")
        return 2
    print(json.dumps({"data": str(yaml)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
