"""``fuse-referee score`` on bad input: one line naming the input, exit status 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from webui.cli import main


def test_a_missing_recording_is_one_line_and_status_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    missing = tmp_path / "nothing.mp4"
    assert main(["score", str(missing)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and str(missing) in err


def test_a_corrupt_video_is_one_line_and_status_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "game.mp4"
    bad.write_bytes(b"\x00not a video" * 100)
    assert main(["score", str(bad)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and str(bad) in err


def test_a_folder_without_a_video_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["score", str(tmp_path)]) == 2
    assert "has no game.mp4" in capsys.readouterr().err


def test_the_oracle_ablation_scores_the_sample(capsys: pytest.CaptureFixture[str]) -> None:
    sample = Path(__file__).resolve().parents[2] / "datasets" / "sample"
    assert main(["score", str(sample), "--oracle"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# ORACLE PERCEPTION") and "score 16" in out
