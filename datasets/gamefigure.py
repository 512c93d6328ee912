"""The README's figure of a rendered game: six moments of the bundled sample, the scripted violation with its labels.

python -m datasets.gamefigure [--sample datasets/sample] [--out datasets/figures/game.png]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2
import numpy as np

from datasets.game import read_frames
from datasets.grid import overlay, tiles
from rules.catalog import load_catalog

HERE = Path(__file__).parent


def moments(truth: dict) -> list[tuple[float, str]]:
    """(game seconds, caption): the deal, the first roll and placement, the violation, a defuse, a fuse card."""
    log = truth["log"]
    first_roll = next(t for t, a in log if a.startswith("roll"))
    first_place = next(t for t, a in log if a.startswith("place") and t > first_roll)
    defuse = next(t for t, a in log if a.startswith("defuse") and " take " in a)
    kinds = {c.id: c.kind for c in load_catalog(truth["config"]["edition"], include_user=False).cards}
    reveals = [t for t, a in log if a.startswith("reveal ") and kinds.get(a.split()[1]) == "fuse"]
    return [(-2.0, "the deal"), (first_roll - 0.35, "the leader rolls"), (first_place - 0.35, "a placement"),
            (-1.0, "illegal die, labels"), (defuse - 0.5, "defuse: card taken from the row"),
            ((reveals[0] + 1.0) if reveals else defuse + 1.5, "fuse card revealed")]


def figure(sample: Path) -> np.ndarray:
    truth = json.loads((sample / "truth.json").read_text())
    frames = read_frames(sample)
    entries = frames["frames"]
    times = [e["elapsed"] for e in entries]
    capture = cv2.VideoCapture(str(sample / frames["video"]))
    images = []
    for t, caption in moments(truth):
        violation = t == -1.0
        index = truth["violations"][0]["frame"] if violation else max(i for i, x in enumerate(times) if x <= t)
        capture.set(cv2.CAP_PROP_POS_FRAMES, index)
        ok, image = capture.read()
        if not ok:
            raise SystemExit(f"cannot read frame {index} of {sample / frames['video']}")
        if violation:
            image = overlay(image, entries[index]["truth"])
        label = f"{entries[index]['elapsed']:.1f} s: {caption}"
        h = image.shape[0]
        (w, _), _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, 1.1, 2)
        cv2.rectangle(image, (0, h - 54), (w + 28, h), (20, 20, 20), -1)
        cv2.putText(image, label, (14, h - 16), cv2.FONT_HERSHEY_SIMPLEX, 1.1, (255, 255, 255), 2, cv2.LINE_AA)
        images.append(image)
    capture.release()
    return tiles(images, 2, 600, bits=5)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m datasets.gamefigure")
    parser.add_argument("--sample", type=Path, default=HERE / "sample")
    parser.add_argument("--out", type=Path, default=HERE / "figures" / "game.png")
    args = parser.parse_args(argv)
    cv2.imwrite(str(args.out), figure(args.sample), [cv2.IMWRITE_PNG_COMPRESSION, 9])
    print(f"{args.out}: {args.out.stat().st_size // 1024} KB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
