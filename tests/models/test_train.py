"""Training and evaluation commands: one epoch on a tiny rendered set (offline), records, evaluation, errors."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest


def _parser() -> argparse.ArgumentParser:
    from models.cli import register

    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    return parser


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """6 small 320x180 renders (4 train, 2 val) in the renderer's layout."""
    from datasets.style import get_style
    from datasets.writer import write_dataset

    out = tmp_path_factory.mktemp("tiny")
    write_dataset(out, 6, 5, get_style("default", ["sizes=320x180", "die_px=12,24"]), workers=1, val_share=0.34,
                  progress=False)  # fmt: skip
    return out


def test_cli_imports_nothing_heavy() -> None:
    code = "import sys, models.cli; print(sorted({'torch', 'ultralytics', 'numpy', 'cv2'} & set(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_train_and_eval_report_one_line_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    parser = _parser()
    args = parser.parse_args(["train", "--data", str(tmp_path / "nothing")])
    assert args.func(args) == 2
    assert "no dataset at" in capsys.readouterr().err
    args = parser.parse_args(["train", "--data", str(tmp_path), "--set", "oops"])
    assert args.func(args) == 2
    assert "KEY=VALUE" in capsys.readouterr().err
    args = parser.parse_args(["eval", "--data", str(tmp_path)])
    assert args.func(args) == 2
    assert "no truth/*.json" in capsys.readouterr().err
    args = parser.parse_args(["train", "--epochs", "1"])
    assert args.func(args) == 2
    assert "--data is required" in capsys.readouterr().err


def test_resume_needs_no_dataset_and_without_a_checkpoint_is_an_error(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("ultralytics", reason="training needs ultralytics (pip install ultralytics)")
    args = _parser().parse_args(["train", "--resume", "--project", str(tmp_path), "--name", "none"])
    assert args.func(args) == 2
    assert "nothing to resume" in capsys.readouterr().err


def test_one_epoch_on_a_tiny_set_then_evaluate(tiny: Path, tmp_path: Path) -> None:
    pytest.importorskip("ultralytics", reason="training needs ultralytics (pip install ultralytics)")
    from models.evaluate import evaluate
    from models.train import train

    run = train(tiny, epochs=1, imgsz=64, batch=2, workers=0, project=tmp_path, name="tiny", seed=3)
    assert (run / "weights" / "last.pt").is_file()
    assert (tiny / "locator" / "data.yaml").is_file()  # the renderer's dice folded into one class
    assert (run / "results.csv").is_file()
    record = json.loads((run / "fuse-train.json").read_text())
    assert record["settings"]["seed"] == 3 and record["settings"]["fliplr"] == 0.0
    assert record["dataset"]["seed"] == 5 and record["dataset"]["style"]["name"] == "default"
    report = evaluate(tiny, model=run / "weights" / "last.pt", imgsz="64", limit=2)
    assert report["images"] == 2 and report["backend"] == "torch"
    for key in ("dice_map50", "cards_map50", "face_accuracy", "colour_accuracy", "dice_misses_per_image"):
        assert key in report


def test_init_starts_from_every_layer_of_earlier_weights_class_head_included(tiny: Path, tmp_path: Path) -> None:
    pytest.importorskip("ultralytics", reason="training needs ultralytics (pip install ultralytics)")
    import torch

    from models.train import train

    def head(run: Path) -> torch.Tensor:
        model = torch.load(run / "weights" / "last.pt", map_location="cpu", weights_only=False)["model"]
        return model.state_dict()["model.23.cv3.0.2.weight"].float()

    first = train(tiny, epochs=1, imgsz=64, batch=2, workers=0, project=tmp_path, name="first", seed=3)
    frozen = {"lr0": 0.0, "warmup_bias_lr": 0.0, "warmup_epochs": 0}  # no step moves a weight
    second = train(tiny, epochs=1, imgsz=64, batch=2, workers=0, project=tmp_path, name="second", seed=4,
                   init=first / "weights" / "last.pt", extra=frozen)  # fmt: skip
    assert torch.allclose(head(second), head(first), atol=1e-3)


def test_reader_stage_trains_exports_and_reads_dice(tiny: Path, tmp_path: Path) -> None:
    pytest.importorskip("torch", reason="training needs torch (pip install ultralytics)")
    import cv2

    from datasets.classes import all_die_classes
    from models.train import train
    from rules.dice import Die
    from vision.detector import game_colours
    from vision.reader import DieReader

    run = train(tiny, stage="reader", epochs=1, batch=4, project=tmp_path, name="reader", seed=1)
    assert json.loads((run / "log.json").read_text())["epochs"] == 1
    reader = DieReader(run / "die-reader.onnx")
    truths = [json.loads(path.read_text()) for path in sorted((tiny / "truth").rglob("*.json"))]
    truth = next(t for t in truths if t["dice"])
    boxes = [d["box"] for d in truth["dice"]]
    names, colour_p, face_p = reader.read(cv2.imread(str(tiny / truth["image"])), boxes)
    assert len(names) == len(boxes) and colour_p.shape == face_p.shape == (len(boxes),)
    assert set(names) <= set(all_die_classes())
    names, _, _ = reader.read(cv2.imread(str(tiny / truth["image"])), boxes, game_colours("countdown"))
    assert all(str(Die.parse(name)) == name for name in names)  # limited to a game's dice: dice the rules know
