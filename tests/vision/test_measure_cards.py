"""``python -m vision.measure_cards --levels``: dice on truth cards' chips by level, from frames.json alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from vision.measure_cards import main

SAMPLE = Path(__file__).resolve().parents[2] / "datasets" / "sample"


def test_levels_count_the_sample_s_dice_on_their_chips(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--levels", str(SAMPLE), "--step", "30"]) == 0
    lines = capsys.readouterr().out.splitlines()
    right, other, loose = (int(part.split()[-1]) for part in lines[0].removeprefix("level 0: ").split(", "))
    assert lines[0].startswith("level 0: ") and right > 0 and right > 10 * (other + loose)
    assert lines[-1].startswith("loose dice put on a chip: ")


@pytest.mark.parametrize("levels", [["--levels"], []])
def test_a_game_without_frames_is_one_line(levels: list[str], tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*levels, str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "has no frames.json" in err and err.count("\n") == 1

