"""The locator's dataset view: every die one class, cards kept, images linked not copied."""

from __future__ import annotations

from pathlib import Path

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
