"""``fuse-referee score``: bad input (one line naming the input, exit status 2) and what its output says."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import pytest

from rules.referee import Event
from vision.score import print_result
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


def test_the_json_holds_the_interpreters_notes(capsys: pytest.CaptureFixture[str]) -> None:
    sample = Path(__file__).resolve().parents[2] / "datasets" / "sample"
    assert main(["score", str(sample), "--oracle", "--json"]) == 0
    notes = json.loads(capsys.readouterr().out)["notes"]
    assert "card F-017 left at -2.67 s: not in play" in notes  # set aside at the deal, shuffled back


def test_the_log_says_which_events_were_inferred_corrected_or_taken_back(capsys: pytest.CaptureFixture[str]) -> None:
    events = [Event(0, 3.5, "roll red1 blue2", True, source="vision", confidence=0.8, frame=21, undone=True),
              Event(1, 3.5, "roll red1 blue3", True, source="correction"),
              Event(2, 6.0, "done", True, source="vision", confidence=0.0, frame=40),
              Event(3, 7.0, "place red1 F-G21:1", False, "chip 1 does not accept red1", "vision", 0.9, 45)]
    print_result({"events": [asdict(e) for e in events], "violations": [], "confirm": [],
                  "score": {"total": 0}, "won": False, "outcome": "time"})
    lines = capsys.readouterr().out.splitlines()
    assert lines[:4] == ["    3.50  roll red1 blue2  (taken back)", "    3.50  roll red1 blue3  (corrected)",
                         "    6.00  done  (inferred)",
                         "    7.00  place red1 F-G21:1  REFUSED: chip 1 does not accept red1"]
