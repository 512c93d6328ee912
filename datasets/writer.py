"""``synth images``: render a labelled dataset in the ultralytics layout, on several processes.

    DIR/images/{train,val}/000123.jpg   DIR/labels/{train,val}/000123.txt   DIR/truth/000123.json
    DIR/data.yaml (class names)         DIR/manifest.json (seed, style, counts)

Image ``i`` depends only on (seed, i, style): every process renders its own share and writes its own
files, so the bytes are the same for any number of processes.
"""

from __future__ import annotations

import json
import os
import time
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path

import cv2
import numpy as np

from datasets.classes import class_index, class_names
from datasets.errors import DatasetError
from datasets.progress import Progress
from datasets.raster import render
from datasets.sampler import scene_for
from datasets.style import Style, describe
from datasets.yolo import yolo_lines


@dataclass(frozen=True)
class Job:
    out: str
    seed: int
    style: Style
    val_share: float
    fmt: str


def split_of(index: int, val_share: float) -> str:
    """Exactly ``val_share`` of the images, spread evenly, go to ``val``."""
    return "val" if int((index + 1) * val_share) > int(index * val_share) else "train"


def encode(img: np.ndarray, fmt: str, quality: int) -> bytes:
    """Fixed encoder settings (baseline JPEG, no optimisation) so a seed always gives the same bytes."""
    if fmt == "jpg":
        ok, buf = cv2.imencode(
            ".jpg",
            img,
            [cv2.IMWRITE_JPEG_QUALITY, int(quality), cv2.IMWRITE_JPEG_OPTIMIZE, 0, cv2.IMWRITE_JPEG_PROGRESSIVE, 0],
        )
    else:
        # PNG keeps the camera's JPEG artefacts by a round trip at the scene's quality
        ok, jpg = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
        img = cv2.imdecode(jpg, cv2.IMREAD_COLOR)
        ok, buf = cv2.imencode(".png", img, [cv2.IMWRITE_PNG_COMPRESSION, 3])
    if not ok:
        raise DatasetError(f"cannot encode an image as {fmt}")
    return buf.tobytes()


def render_one(job: Job, index: int) -> dict[str, int]:
    """Render image ``index`` and write its image, label and truth files; returns its label counts."""
    scene = scene_for(job.seed, index, job.style)
    img, truth = render(scene)
    split = split_of(index, job.val_share)
    name = f"{index:06d}"
    root = Path(job.out)
    image_path = root / "images" / split / f"{name}.{job.fmt}"
    image_path.write_bytes(encode(img, job.fmt, scene.effects.jpeg_quality))
    lines = yolo_lines(truth)
    (root / "labels" / split / f"{name}.txt").write_text("".join(line + "\n" for line in lines))
    truth.update(
        {
            "image": str(image_path.relative_to(root)),
            "split": split,
            "seed": job.seed,
            "index": index,
            "style": job.style.name,
            "setting": _setting_summary(scene),
        }
    )
    (root / "truth" / f"{name}.json").write_text(json.dumps(truth, separators=(",", ":")))
    names = class_names()
    return dict(Counter(names[int(line.split()[0])] for line in lines))


def _setting_summary(scene: object) -> dict:
    setting = scene.setting  # type: ignore[attr-defined]
    return {
        "camera": asdict(setting.camera),
        "table": setting.table.family,
        "kelvin": round(setting.lighting.kelvin),
        "die_look": asdict(setting.die_look),
    }


def _worker_init() -> None:
    cv2.setNumThreads(1)


def _run(args: tuple[Job, list[int]]) -> tuple[int, dict[str, int]]:
    job, indexes = args
    total: Counter[str] = Counter()
    for index in indexes:
        total.update(render_one(job, index))
    return len(indexes), dict(total)


def data_yaml(n: int, seed: int, style: Style) -> str:
    lines = [
        f"# fuse-referee synthetic tabletop: {n} images, seed {seed}, style {style.name}",
        "# dice classes are colour(s) and top face as rules.dice.Die prints them; see datasets/README.md",
        "train: images/train",
        "val: images/val",
        f"nc: {len(class_names())}",
        "names:",
    ]
    lines += [f'  {i}: "{name}"' for i, name in enumerate(class_names())]
    return "\n".join(lines) + "\n"


def write_dataset(
    out: Path | str,
    n: int,
    seed: int,
    style: Style,
    workers: int = 0,
    val_share: float = 0.1,
    fmt: str = "jpg",
    start: int = 0,
    progress: bool = True,
    times: list[tuple[int, float]] | None = None,
) -> dict[str, int]:
    """Render images ``start .. start+n-1``; returns label counts per class name.

    ``times``, if given, receives (images done, ``time.perf_counter()``) as batches finish.
    """
    if fmt not in ("jpg", "png"):
        raise DatasetError(f"unknown image format {fmt!r}: expected jpg or png")
    if not 0 <= val_share < 1:
        raise DatasetError(f"validation share must be in [0, 1), not {val_share}")
    root = Path(out)
    for sub in ("images/train", "images/val", "labels/train", "labels/val", "truth"):
        (root / sub).mkdir(parents=True, exist_ok=True)
    job = Job(str(root), seed, style, val_share, fmt)
    workers = workers or os.cpu_count() or 1
    chunk = 4
    batches = [list(range(i, min(i + chunk, start + n))) for i in range(start, start + n, chunk)]
    bar = Progress(n, "synth", enabled=progress)
    counts: Counter[str] = Counter()
    if workers <= 1:
        _worker_init()
        for batch in batches:
            done, c = _run((job, batch))
            counts.update(c)
            bar.update(done)
            if times is not None:
                times.append((bar.done, time.perf_counter()))
    else:
        import multiprocessing as mp

        # spawn, not fork: a forked child can hang on OpenCV's thread pool if the parent has used it
        ctx = mp.get_context("spawn")
        with ctx.Pool(workers, initializer=_worker_init) as pool:
            for done, c in pool.imap_unordered(_run, [(job, b) for b in batches]):
                counts.update(c)
                bar.update(done)
                if times is not None:
                    times.append((bar.done, time.perf_counter()))
    bar.close()
    (root / "data.yaml").write_text(data_yaml(n, seed, style))
    manifest = {
        "seed": seed,
        "start": start,
        "n": n,
        "style": describe(style).splitlines(),
        "format": fmt,
        "val_share": val_share,
        "classes": list(class_names()),
        "label_counts": dict(sorted(counts.items(), key=lambda kv: class_index()[kv[0]])),
    }
    (root / "manifest.json").write_text(json.dumps(manifest, indent=1))
    return dict(counts)
