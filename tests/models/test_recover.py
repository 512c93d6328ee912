"""Recovering a trainable checkpoint from the shipped ONNX locator: it finds what the ONNX model finds."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from models.errors import ModelsError
from models.recover import main, narrow_class_branches, onnx_weights, unfold
from vision.detector import SHIPPED_MODEL


def test_missing_inputs_are_one_line_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ModelsError, match="no ONNX model at"):
        onnx_weights(tmp_path / "none.onnx")
    assert main([str(SHIPPED_MODEL), str(tmp_path / "out.pt"), "--images", str(tmp_path)]) == 2
    assert capsys.readouterr().out.strip() == f"error: no images to calibrate with in {str(tmp_path)!r}"
    assert main([str(SHIPPED_MODEL), str(tmp_path / "out.pt"), "--images", str(tmp_path), "--count", "0"]) == 2
    assert capsys.readouterr().out.strip() == "error: calibration needs at least one image, not 0"


def test_a_wider_class_branch_keeps_the_channels_its_last_layer_weighs_most() -> None:
    rng = np.random.default_rng(0)
    last = rng.normal(size=(6, 5, 1, 1)).astype(np.float32)
    last[:, 2] = 0  # the weakest channel
    weights = {
        "m.cv3.0.0.1.conv.weight": rng.normal(size=(5, 8, 1, 1)),
        "m.cv3.0.1.0.conv.weight": rng.normal(size=(5, 1, 3, 3)),
        "m.cv3.0.1.1.conv.weight": rng.normal(size=(5, 5, 1, 1)),
        "m.cv3.0.2.weight": last,
    }
    before = {k: v.copy() for k, v in weights.items()}
    shapes = {"m.cv3.0.0.1.conv.weight": (4, 8, 1, 1), "m.cv3.0.1.1.conv.weight": (4, 4, 1, 1),
              "m.cv3.0.1.0.conv.weight": (4, 1, 3, 3), "m.cv3.0.2.weight": (6, 4, 1, 1)}  # fmt: skip
    narrow_class_branches(weights, shapes)
    assert {k: v.shape for k, v in weights.items()} == shapes
    keep = [0, 1, 3, 4]
    assert np.array_equal(weights["m.cv3.0.1.1.conv.weight"], before["m.cv3.0.1.1.conv.weight"][keep][:, keep])
    assert np.array_equal(weights["m.cv3.0.2.weight"], last[:, keep])


def test_the_recovered_checkpoint_finds_the_cards_the_onnx_model_finds(tmp_path: Path) -> None:
    pytest.importorskip("ultralytics", reason="recovery builds an ultralytics network (pip install ultralytics)")
    from datasets.raster import render
    from datasets.sampler import scene_for
    from datasets.style import get_style
    from models.metrics import box_iou, match
    from vision.detector import Detector

    style = get_style("clean", ["sizes=1280x720", "die_px=28,48"])
    for i in range(4):
        cv2.imwrite(str(tmp_path / f"{i}.jpg"), render(scene_for(21, i, style))[0])
    checkpoint = tmp_path / "recovered.pt"
    unfold(SHIPPED_MODEL, tmp_path, count=4).save(checkpoint)
    shipped, recovered = Detector(), Detector(checkpoint, backend="torch", imgsz="960x544")
    found = total = 0
    for i in range(4):
        frame = cv2.imread(str(tmp_path / f"{i}.jpg"))
        a, b = shipped.detect(frame).cards, recovered.detect(frame).cards
        found += len(match(box_iou(a.xyxy, b.xyxy), 0.7))
        total += len(a)
    assert total and found >= 0.9 * total, (found, total)
