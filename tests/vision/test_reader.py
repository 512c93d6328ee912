"""The die reader: crops cut the same way for training and serving, bad models refused."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.errors import DetectorError
from vision.reader import CROP, MARGIN, crop_die


def test_a_crop_is_the_box_with_its_margin_scaled_to_the_crop_side() -> None:
    image = np.zeros((100, 200, 3), np.uint8)
    image[40:60, 90:110] = 255  # a 20 px white square
    crop = crop_die(image, [90, 40, 110, 60])
    assert crop.shape == (CROP, CROP, 3)
    inner = round(CROP / (1 + 2 * MARGIN))  # the box's share of the crop
    lo = (CROP - inner) // 2
    assert crop[lo + 2 : lo + inner - 2, lo + 2 : lo + inner - 2].min() > 200
    assert crop[0, 0].max() < 50 and crop[-1, -1].max() < 50


def test_a_crop_past_the_frame_edge_repeats_the_edge() -> None:
    image = np.full((50, 50, 3), 90, np.uint8)
    crop = crop_die(image, [-10, -10, 8, 8])
    assert crop.shape == (CROP, CROP, 3) and crop.min() == 90


def test_missing_or_foreign_models_are_refused(tmp_path: Path) -> None:
    pytest.importorskip("onnxruntime", reason="the reader runs on onnxruntime")
    from vision.reader import DieReader

    with pytest.raises(DetectorError, match="no die-reader model"):
        DieReader(tmp_path / "none.onnx")
    junk = tmp_path / "junk.onnx"
    junk.write_bytes(b"junk")
    with pytest.raises(DetectorError, match="cannot load"):
        DieReader(junk)
