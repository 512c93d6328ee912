"""The interpreter on the bundled sample game, with ORACLE PERCEPTION (observations from frames.json truth):
the tracker and interpreter must give back the truth's action log, violations and score."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules.config import GameConfig
from vision.evaluate import compare_logs, evaluate_game
from vision.oracle import oracle_observations
from vision.score import config_from_truth, referee_run, result

SAMPLE = Path(__file__).resolve().parents[2] / "datasets" / "sample"


@pytest.fixture(scope="module")
def run() -> tuple[dict, dict]:
    truth = json.loads((SAMPLE / "truth.json").read_text())
    interp = referee_run(oracle_observations(SAMPLE), config_from_truth(truth))
    return truth, result(interp)


def test_the_sample_game_log_is_reproduced(run: tuple[dict, dict]) -> None:
    truth, seen = run
    log = compare_logs([tuple(x) for x in truth["log"]], [(e["elapsed"], e["action"]) for e in seen["events"]], 1.0)
    assert log["exact"], log
    assert all(e["source"] == "vision" and e["frame"] is not None for e in seen["events"])


def test_the_scripted_illegal_placements_are_the_violations(run: tuple[dict, dict]) -> None:
    truth, seen = run
    assert [(v["action"], v["reason"]) for v in seen["violations"]] == [
        (v["action"], v["reason"]) for v in truth["violations"]]
    for mine, scripted in zip(seen["violations"], truth["violations"]):
        assert (mine["player"], mine["card"], mine["chip"], mine["die"]) == (
            scripted["player"], scripted["card"], scripted["chip"], scripted["die"])
        assert abs(mine["frame"] - scripted["frame"]) <= 3
        assert mine["frame_taken_back"] is not None
    assert seen["confirm"] == []


def test_the_final_score_is_exact(run: tuple[dict, dict]) -> None:
    truth, seen = run
    assert seen["score"] == truth["score"] and seen["won"] == truth["won"]


def test_the_evaluation_reports_the_match() -> None:
    report = evaluate_game(SAMPLE, oracle=True)
    assert report["log"]["exact"] and report["score"]["exact"]
    assert report["violations"] == {"scripted": 2, "flagged": 2, "false": 0}
    assert report["chip_error"] is not None and report["chip_error"] < 0.1


def test_an_unsure_illegal_placement_is_a_question_not_a_violation() -> None:
    from rules.clock import ManualClock
    from rules.referee import Referee
    from vision.interpret import Interpreter
    from vision.tracker import Change

    referee = Referee(GameConfig("fuse", 2), ManualClock())
    for action in ("deal p1 F-G21", "deal p1 F-G10", "deal p2 F-G28", "deal p2 F-G04", "reveal F-011",
                   "reveal F-015", "reveal F-009", "reveal F-G07", "reveal F-G06", "roll black5 red6 black2 green1"):
        referee.submit(action)
    interp = Interpreter(referee)
    interp.feed([Change("die+", 10, 2.0, "F-G28", 1, "black5", confidence=0.3)], 10, 2.0)
    assert referee.violations == [] and len(interp.confirms) == 1
    assert interp.confirms[0].action == "place black5 F-G28:1"
    interp.feed([Change("die+", 20, 4.0, "F-G28", 1, "green1", confidence=0.9)], 20, 4.0)
    assert [e.action for e in referee.violations] == ["place green1 F-G28:1"]
