"""The line that totals several games' reports in ``python -m vision.evaluate``."""

from __future__ import annotations

from typing import Any

from vision.evaluate import totals


def report(matched: int, truth: int, extra: int, chip: float | None, flagged: int, scripted: int,
           false: int, exact: bool, settled: int = 1000) -> dict[str, Any]:
    return {"log": {"matched": matched, "truth": truth, "extra": extra, "exact": matched == truth and not extra},
            "chip_error": chip, "tracker_chip_error": None if chip is None else chip * 2,
            "chip_observations": {"wrong": round((chip or 0) * settled), "settled": settled if chip is not None else 0},
            "violations": {"flagged": flagged, "scripted": scripted, "false": false},
            "score": {"exact": exact}}


def test_several_games_are_summed_and_their_chip_errors_given_by_the_median_and_over_all_observations() -> None:
    """The second game's error, over three times as many observations, weighs three times in the share over all."""
    reports = [report(70, 70, 0, 0.01, 2, 2, 0, True), report(60, 72, 5, 0.3, 1, 2, 0, False, settled=3000),
               report(50, 64, 2, 0.05, 0, 1, 1, True), report(10, 10, 0, None, 0, 0, 0, True)]
    assert totals(reports) == ("4 games: log 190/216 matched, 7 extra, 2 exact; chip error median 0.0500 "
                               "(the tracker's 0.1000), over all observations 0.1920; "
                               "violations 3/5 flagged, 1 false; 3 scores exact")
