"""Exporting the committed locator checkpoint: the float model (any input size) and the 8-bit one (its own) find
the same things."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from models.errors import ModelsError
from models.metrics import box_iou

CHECKPOINT = Path(__file__).resolve().parents[2] / "models" / "checkpoints" / "locator.pt"


def test_int8_export_finds_what_the_float_model_finds(tmp_path: Path) -> None:
    pytest.importorskip("ultralytics", reason="export needs ultralytics (pip install ultralytics)")
    from datasets.style import get_style
    from datasets.writer import write_dataset
    from models.export import export
    from vision.detector import Detector, read_image
    from vision.errors import DetectorError

    frames = tmp_path / "frames"
    write_dataset(frames, 6, 21, get_style("default", ["sizes=1280x720"]), workers=1, val_share=0, progress=False)
    size = (640, 384)
    plain = Detector(export(CHECKPOINT, imgsz=size, out=tmp_path / "float.onnx"))
    small = Detector(export(CHECKPOINT, imgsz=size, out=tmp_path / "int8.onnx", int8=frames))
    assert (tmp_path / "int8.onnx").stat().st_size < 0.65 * (tmp_path / "float.onnx").stat().st_size
    # the float model takes any size of input (its default from the export), the 8-bit one its own only
    assert plain.windowed and plain.size == size and not small.windowed and small.size == size
    with pytest.raises(DetectorError, match="inputs only"):
        small.detect_window(np.zeros((720, 1280, 3), np.uint8), (0, 0, 100, 100))
    found = same = 0
    for image in sorted((frames / "images").rglob("*.jpg"))[:4]:
        want, got = plain.detect(read_image(image)), small.detect(read_image(image))
        kept = want.confidence > 0.5
        found += int(kept.sum())
        if kept.any() and len(got):
            same += int((box_iou(want.xyxy[kept], got.xyxy).max(1) > 0.7).sum())
    print(f"\nint8 model: {same} of {found} confident float detections found again")
    assert found >= 10 and same >= 0.9 * found


def test_int8_without_images_is_a_one_line_error(tmp_path: Path) -> None:
    from models.export import export

    with pytest.raises(ModelsError, match="no .jpg or .png images under") as info:
        export(CHECKPOINT, out=tmp_path / "x.onnx", int8=tmp_path)
    assert "\n" not in str(info.value)
