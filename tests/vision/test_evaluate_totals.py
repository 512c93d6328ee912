"""The line that totals several games' reports in ``python -m vision.evaluate``."""

from __future__ import annotations

from typing import Any

from vision.evaluate import totals


def report(matched: int, truth: int, extra: int, chip: float | None, flagged: int, scripted: int,
           false: int, exact: bool) -> dict[str, Any]:
    return {"log": {"matched": matched, "truth": truth, "extra": extra, "exact": matched == truth and not extra},
            "chip_error": chip, "tracker_chip_error": None if chip is None else chip * 2,
            "violations": {"flagged": flagged, "scripted": scripted, "false": false},
            "score": {"exact": exact}}


def test_several_games_are_summed_and_their_chip_errors_given_by_the_median() -> None:
    reports = [report(70, 70, 0, 0.01, 2, 2, 0, True), report(60, 72, 5, 0.3, 1, 2, 0, False),
               report(50, 64, 2, 0.05, 0, 1, 1, True), report(10, 10, 0, None, 0, 0, 0, True)]
    assert totals(reports) == ("4 games: log 190/216 matched, 7 extra, 2 exact; chip error median 0.0500 "
                               "(the tracker's 0.1000); "
                               "violations 3/5 flagged, 1 false; 3 scores exact")
