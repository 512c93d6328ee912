"""``fuse-referee score``: bad input (one line naming the input, exit status 2) and what its output says."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import pytest

from rules.referee import Event
from tests.vision.test_resync import _dealt, _loose, _run
from vision.score import print_result, result
from vision.tracker import Change
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


def test_a_violation_names_the_player_who_held_the_card_though_it_was_defused_since() -> None:
    referee, interp = _dealt()  # p1 holds F-G21 [1] [1] [1]
    first_turn = [Change("die+", 24 + 6 * i, 4.0 + i, card, chip, die, confidence=0.9) for i, (card, chip, die)
                  in enumerate((("F-G21", 1, "black1"), ("F-G21", 2, "red1"), ("F-G04", 1, "green2"),
                                ("F-G04", 2, "blue5")))]
    illegal_then_right = [
        Change("die+", 78, 13.0, "F-G21", 3, "green3", confidence=0.9), Change("die-", 84, 14.0, "F-G21", 3, "green3"),
        Change("die+", 96, 16.0, "F-G21", 3, "yellow1", confidence=0.9)]
    defused = [Change("card>", 108, 18.0, "F-011", where=(300.0, 600.0), before=(100.0, 350.0), type="bomb",
                      size=80.0),
               *[Change("die-", 110, 18.3, "F-G21", k, die) for k, die in ((1, "black1"), (2, "red1"), (3, "yellow1"))],
               Change("card-", 110, 18.3, "F-G21", where=(300.0, 600.0), type="bomb", size=80.0)]
    _run(interp, _loose(("black1", "red1", "green2", "blue5"), 2.0) + first_turn
         + _loose(("yellow1", "green3", "red6", "black5"), 10.0, x=700.0) + illegal_then_right + defused, 24.0)
    assert [e.action for e in referee.events][-1] == "defuse F-G21 take F-011"
    (violation,) = result(interp)["violations"]
    assert (violation["action"], violation["player"], violation["frame_taken_back"]) == ("place green3 F-G21:3",
                                                                                         "p1", 84)
