"""The die reader's crops: cut from a renderer dataset or a rendered game's video, and scored."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from models.errors import ModelsError
from models.reader import load_crops, make_crops, reader_colours, score_reader

SAMPLE = Path(__file__).resolve().parents[2] / "datasets" / "sample"


def test_crops_from_a_rendered_game_carry_its_truth_and_the_shipped_reader_reads_them(tmp_path: Path) -> None:
    pytest.importorskip("onnxruntime", reason="the reader runs on onnxruntime")
    out = tmp_path / "sample.npz"
    made = make_crops(SAMPLE, out, jitters=1, step=40)
    crops = np.load(out)
    assert made["crops"] == len(crops["crops"]) > 20 and made["images"] >= 10
    assert crops["crops"].shape[1:] == (32, 32, 3)
    assert set(crops["colour"]) <= set(range(len(reader_colours()))) and set(crops["face"]) <= set(range(6))
    scores = score_reader(SAMPLE.parents[1] / "models" / "die-reader.onnx", out)
    assert scores["crops"] == made["crops"] and scores["both_acc"] >= 0.9  # the sample's dice are clear


def test_a_folder_that_is_neither_a_dataset_nor_a_game_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ModelsError, match="no renderer dataset or rendered game"):
        make_crops(tmp_path, tmp_path / "out.npz")


def test_a_file_that_is_no_crops_file_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.npz"
    bad.write_text("not an npz")
    with pytest.raises(ModelsError, match="cannot read crops from .*bad.npz"):
        load_crops(bad)
    with pytest.raises(ModelsError, match="no die-reader model at 'no-such.onnx'"):
        score_reader("no-such.onnx", bad)
