"""The countdown clock: a manual clock for tests and replays, a wall clock that pauses and survives a restart."""

from __future__ import annotations

import pytest

from rules.clock import GameClock, ManualClock, format_remaining


class FakeTime:
    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_manual_clock() -> None:
    clock = ManualClock()
    assert clock.elapsed() == 0.0
    clock.advance(12.5)
    clock.advance(0.5)
    assert clock.elapsed() == 13.0


def test_game_clock_pauses_and_resumes() -> None:
    now = FakeTime()
    clock = GameClock(now)
    assert clock.elapsed() == 0.0 and not clock.running
    clock.start()
    now.now += 30
    assert clock.elapsed() == 30.0 and clock.running
    clock.pause()
    now.now += 100  # paused time does not count
    assert clock.elapsed() == 30.0 and not clock.running
    clock.resume()
    now.now += 5
    assert clock.elapsed() == 35.0
    clock.start()  # starting again changes nothing
    assert clock.elapsed() == 35.0


def test_game_clock_survives_a_restart() -> None:
    now = FakeTime()
    clock = GameClock(now)
    clock.start()
    now.now += 40
    clock.pause()
    now.now += 20
    clock.resume()
    now.now += 2
    saved = clock.to_dict()
    restored = GameClock.from_dict(saved, now)
    assert restored.elapsed() == clock.elapsed() == 42.0
    now.now += 8
    assert restored.elapsed() == 50.0


@pytest.mark.parametrize(
    ("seconds", "text"),
    [(600, "10:00"), (599.2, "10:00"), (59.0, "00:59"), (0.4, "00:01"), (0, "00:00"), (-5, "00:00")],
)
def test_format_remaining(seconds: float, text: str) -> None:
    assert format_remaining(seconds) == text
