"""Train the detector's two stages from scratch, offline, resumable, with their seeds recorded.

``train(...)`` (stage ``locator``) builds YOLO11 from its architecture file (no pretrained weights exist
offline), trains it on a dataset in the renderer's layout, its dice folded into one ``die`` class
(``models.locator``), and writes ``RUN/weights/{last,best}.pt`` every epoch, ``RUN/results.csv`` and
``RUN/fuse-train.json`` (the command's settings, seeds, the dataset's seed and style, library versions).
Stage ``reader`` cuts die crops from the same dataset and trains the die reader (``models.reader``):
``RUN/reader.pt``, ``RUN/die-reader.onnx``, ``RUN/log.json``.
"""

from __future__ import annotations

import json
import platform
import time
from pathlib import Path
from typing import Any

from models.errors import TrainingError

# Settings chosen for this detector (see models/README.md); every one can be overridden through ``extra``.
HYPERPARAMETERS: dict[str, Any] = {
    "optimizer": "AdamW",
    "lr0": 0.002,
    "nbs": 16,  # one optimiser step per batch of 16: short runs need many steps
    "warmup_epochs": 0.5,
    "close_mosaic": 1,
    "fliplr": 0.0,  # a mirrored seven-segment 2 is a 5: never flip
    "flipud": 0.0,
    "mosaic": 1.0,
    "scale": 0.5,
    "hsv_h": 0.01,
    "plots": False,  # plots fetch fonts
    "deterministic": True,
}


def dataset_manifest(data: Path) -> dict[str, Any]:
    """The renderer's seed, style name and image count of the dataset whose ``data.yaml`` is ``data``."""
    manifest = data.parent / "manifest.json"
    if not manifest.is_file():
        return {}
    info = json.loads(manifest.read_text())
    style = info.get("style")
    if isinstance(style, list):  # the renderer writes its knobs as lines, the first "# style NAME"
        overrides = [line for line in style[1:] if not line.startswith("#")]
        style = {"name": str(style[0]).removeprefix("# style ").strip(), "knobs": overrides}
    return {"seed": info.get("seed"), "n": info.get("n"), "style": style}


def resolve_data(data: str | Path) -> Path:
    """``DIR`` or ``DIR/data.yaml`` -> the yaml path; a one-line ``TrainingError`` when there is none."""
    path = Path(data)
    if path.is_dir():
        path = path / "data.yaml"
    if not path.is_file():
        raise TrainingError(f"no dataset at {str(data)!r}: expected a data.yaml (fuse-referee synth images --out DIR)")
    return path


def locator_data(yaml: Path) -> Path:
    """The locator's dataset for ``yaml``: itself if its classes are already the locator's, else a folded view
    written beside it (``DIR/locator/``)."""
    from models.locator import LOCATOR_CLASSES, make_locator_dataset

    if f"nc: {len(LOCATOR_CLASSES)}\n" in yaml.read_text():
        return yaml
    return make_locator_dataset(yaml.parent, yaml.parent / "locator")


def train_reader_stage(data: str | Path, *, epochs: int, batch: int, seed: int, run: Path) -> Path:
    from models.reader import export_reader, make_crops, train_reader

    yaml = resolve_data(data)
    crops = yaml.parent / "reader-crops.npz"
    if not crops.is_file():
        make_crops(yaml.parent, crops, seed=seed)
    train_reader(crops, epochs=epochs, batch=batch, seed=seed, out=run)
    export_reader(run / "reader.pt", run / "die-reader.onnx")
    return run


def train(
    data: str | Path,
    *,
    stage: str = "locator",
    epochs: int = 30,
    imgsz: int = 640,
    batch: int = 16,
    device: str = "cpu",
    model: str = "yolo11n.yaml",
    project: str | Path = "runs/detect",
    name: str = "fuse",
    seed: int = 0,
    workers: int = 1,
    hours: float | None = None,
    cache: str | bool = False,
    resume: bool = False,
    init: str | Path | None = None,
    extra: dict[str, Any] | None = None,
) -> Path:
    """Train stage ``locator`` (or with ``resume`` continue ``PROJECT/NAME/weights/last.pt``) or ``reader``;
    return the run's directory.

    ``init`` starts from an earlier run's weights (every layer whose shape matches: a new class count keeps the
    backbone and neck); without it the network starts from random weights."""
    from models.offline import ultralytics_offline

    if stage not in ("locator", "reader"):
        raise TrainingError(f"unknown stage {stage!r}: expected locator or reader")
    if stage == "reader":
        return train_reader_stage(data, epochs=epochs, batch=batch, seed=seed, run=Path(project).resolve() / name)
    yaml = None if resume else resolve_data(data)  # bad input is reported before the heavy import
    if init is not None and not Path(init).is_file():
        raise TrainingError(f"no weights to start from at {str(init)!r}")
    ultralytics = ultralytics_offline()
    run = Path(project).resolve() / name
    if resume:
        last = run / "weights" / "last.pt"
        if not last.is_file():
            raise TrainingError(f"nothing to resume: no checkpoint at {str(last)!r}")
        ultralytics.YOLO(str(last)).train(resume=True)
        return run
    assert yaml is not None
    yaml = locator_data(yaml)
    settings: dict[str, Any] = {
        **HYPERPARAMETERS,
        "data": str(yaml.resolve()),
        "epochs": epochs,
        "imgsz": imgsz,
        "batch": batch,
        "device": device,
        "project": str(Path(project).resolve()),
        "name": name,
        "exist_ok": True,
        "seed": seed,
        "workers": workers,
        "cache": cache,
        # the trainer loads these into the network it builds for the dataset's classes (class head included)
        "pretrained": str(Path(init).resolve()) if init is not None else False,
        "save_period": -1,  # last.pt and best.pt are written every epoch
        **({"time": hours} if hours else {}),
        **(extra or {}),
    }
    run.mkdir(parents=True, exist_ok=True)
    record = {
        "started": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "model": model,
        "init": str(init) if init else None,
        "settings": settings,
        "dataset": dataset_manifest(yaml),
        "versions": {"python": platform.python_version(), "ultralytics": ultralytics.__version__},
    }
    (run / "fuse-train.json").write_text(json.dumps(record, indent=2) + "\n")
    ultralytics.YOLO(model, task="detect").train(**settings)
    return run
