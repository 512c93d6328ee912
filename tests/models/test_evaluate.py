"""`fuse-referee eval`'s report on a few fixed renders with the shipped model: its breakdowns agree with its totals."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict:
    pytest.importorskip("openvino")
    from datasets.style import get_style
    from datasets.writer import write_dataset
    from models.evaluate import evaluate

    out: Path = tmp_path_factory.mktemp("clean")
    write_dataset(out, 3, 11, get_style("clean", ["sizes=1280x720", "die_px=20,48"]), workers=1, val_share=0,
                  progress=False)  # fmt: skip
    return evaluate(out)


def test_faces_by_colour_and_size_count_the_found_dice_of_the_size_table(report: dict) -> None:
    by_colour = list(report["faces_by_colour"].values())
    found = [sum(bins[b]["found"] for bins in by_colour) for b in range(len(report["dice_by_size"]))]
    assert found == [round((row["recall"] or 0) * row["dice"]) for row in report["dice_by_size"]]
    assert sum(found) == report["dice_matched"] > 0
    right = sum(round((b["face_accuracy"] or 0) * b["found"]) for bins in by_colour for b in bins)
    assert right / sum(found) == pytest.approx(report["face_accuracy"], abs=1e-3)


def test_colour_misreads_are_the_found_dice_read_as_another_colour(report: dict) -> None:
    misread = sum(m["count"] for m in report["colour_misreads"])
    assert all(m["truth"] != m["read"] for m in report["colour_misreads"])
    assert misread == round(report["dice_matched"] * (1 - report["colour_accuracy"]))


def test_the_text_report_shows_both(report: dict) -> None:
    from models.evaluate import format_report

    text = format_report(report)
    assert "by colour and size" in text and "commonest colour misreads:" in text
