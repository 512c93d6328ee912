"""The locator's dataset view: every die one class, cards kept, images linked not copied."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from models.errors import ModelsError
from models.locator import LOCATOR_CLASSES, fold_labels, make_locator_dataset


def test_dice_fold_into_one_class_and_cards_keep_their_type() -> None:
    text = "0 0.5 0.5 0.1 0.1\n59 0.2 0.2 0.1 0.1\n60 0.3 0.3 0.2 0.2\n64 0.4 0.4 0.2 0.2\n67 0.6 0.6 0.1 0.1\n"
    folded = [line.split()[0] for line in fold_labels(text).splitlines()]
    assert [LOCATOR_CLASSES[int(c)] for c in folded] == ["die", "die", "bomb", "back", "die"]  # 67: white3


def test_the_view_links_images_and_writes_folded_labels(tmp_path: Path) -> None:
    src = tmp_path / "src"
    (src / "images" / "train").mkdir(parents=True)
    (src / "labels" / "train").mkdir(parents=True)
    (src / "images" / "train" / "a.jpg").write_bytes(b"jpeg")
    (src / "labels" / "train" / "a.txt").write_text("12 0.5 0.5 0.1 0.1\n61 0.5 0.5 0.4 0.4\n")
    yaml = make_locator_dataset(src, tmp_path / "dst")
    assert "nc: 6" in yaml.read_text() and "train: images/train" in yaml.read_text()
    assert (tmp_path / "dst" / "images" / "train" / "a.jpg").is_symlink()
    assert (tmp_path / "dst" / "labels" / "train" / "a.txt").read_text().split()[::5] == ["0", "2"]
    with pytest.raises(ModelsError, match="no renderer dataset"):
        make_locator_dataset(tmp_path / "nothing", tmp_path / "x")


def test_tiles_show_the_frame_at_the_detectors_scale_and_keep_what_lies_in_them() -> None:
    from models.locator import TILE, tile_frame

    frame = np.zeros((720, 1280, 3), np.uint8)
    boxes = np.array([[100, 100, 120, 120], [620, 300, 660, 340], [1200, 600, 1280, 720], [0, 0, 400, 280]])
    tiles = tile_frame(frame, boxes, np.array([0, 0, 0, 1]), (960, 544))
    assert [t[0].shape[:2] for t in tiles] == [(540, TILE), (540, TILE)]  # 960x540, two tiles 320 apart
    first, second = tiles
    # a die keeps its size (0.75 of the frame's, as the detector sees it); the middle die lies in both tiles
    assert np.allclose(first[1][0], [75, 75, 90, 90]) and list(first[2]) == [0, 0, 1]
    assert np.allclose(second[1][0], [465 - 320, 225, 495 - 320, 255]) and list(second[2]) == [0, 0]
    # the card in the corner is in the first tile only, the die at the far corner in the second only
    assert np.allclose(second[1][1], [900 - 320, 450, 640, 540])


def test_a_tiled_view_writes_tiles_with_their_labels(tmp_path: Path) -> None:
    import cv2

    from models.locator import make_tiled_dataset

    src = tmp_path / "src"
    (src / "images" / "train").mkdir(parents=True)
    (src / "labels" / "train").mkdir(parents=True)
    cv2.imwrite(str(src / "images" / "train" / "a.jpg"), np.full((1080, 1920, 3), 90, np.uint8))
    (src / "labels" / "train" / "a.txt").write_text("12 0.1 0.5 0.02 0.03\n60 0.9 0.5 0.15 0.2\n")
    yaml = make_tiled_dataset(src, tmp_path / "dst")
    assert "nc: 6" in yaml.read_text()
    images = sorted((tmp_path / "dst" / "images" / "train").iterdir())
    assert [p.name for p in images] == ["a_0.jpg", "a_1.jpg"] and cv2.imread(str(images[0])).shape == (540, 640, 3)
    labels = [(tmp_path / "dst" / "labels" / "train" / f"a_{k}.txt").read_text().split() for k in (0, 1)]
    assert labels[0][0] == "0" and len(labels[0]) == 5 and labels[1][0] == "1" and len(labels[1]) == 5
