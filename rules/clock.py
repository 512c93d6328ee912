"""The 10-minute countdown as an injected clock: the engine asks it for elapsed seconds, so tests, simulations
and replays use a manual clock while the live referee uses wall time that survives a restart."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol


class Clock(Protocol):
    def elapsed(self) -> float:
        """Seconds of play so far (paused time does not count)."""
        ...


@dataclass
class ManualClock:
    """A clock that moves only when told: for tests, simulations and replays."""

    seconds: float = 0.0

    def elapsed(self) -> float:
        return self.seconds

    def advance(self, seconds: float) -> None:
        self.seconds += seconds


@dataclass
class GameClock:
    """Wall-clock countdown that can be paused, and saved and restored as plain numbers.

    ``started_at`` and ``paused_at`` are readings of ``now`` (by default ``time.time``, so a restarted process
    continues the same countdown); ``paused_total`` is seconds spent paused before the current pause.
    """

    now: Callable[[], float] = time.time
    started_at: float | None = None
    paused_at: float | None = None
    paused_total: float = 0.0

    def start(self) -> None:
        if self.started_at is None:
            self.started_at = self.now()

    def pause(self) -> None:
        if self.started_at is not None and self.paused_at is None:
            self.paused_at = self.now()

    def resume(self) -> None:
        if self.paused_at is not None:
            self.paused_total += self.now() - self.paused_at
            self.paused_at = None

    @property
    def running(self) -> bool:
        return self.started_at is not None and self.paused_at is None

    def elapsed(self) -> float:
        if self.started_at is None:
            return 0.0
        end = self.paused_at if self.paused_at is not None else self.now()
        return max(0.0, end - self.started_at - self.paused_total)

    def to_dict(self) -> dict[str, float | None]:
        return {"started_at": self.started_at, "paused_at": self.paused_at, "paused_total": self.paused_total}

    @classmethod
    def from_dict(cls, data: dict[str, float | None], now: Callable[[], float] = time.time) -> GameClock:
        return cls(now, data.get("started_at"), data.get("paused_at"), float(data.get("paused_total") or 0.0))


def format_remaining(seconds: float) -> str:
    """``mm:ss`` of the time left, never negative."""
    whole = max(0, int(seconds + 0.999))
    return f"{whole // 60:02d}:{whole % 60:02d}"
