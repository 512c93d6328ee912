"""Where each physical thing of a rendered game is over time: a ``Track`` of timed poses per card, die, hand
and pile, read at any frame time. Pure data (no numpy), so a whole game's timeline pickles to worker processes.

A key ``(t, value, glide)`` says "``value`` from time ``t`` on"; with ``glide`` the thing moves there smoothly
from the previous key's value, arriving at ``t``. ``None`` means absent (a card not yet dealt, a die in the bag,
a hand off the table). Times are game seconds (the countdown's elapsed time; the deal happens before 0).
"""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass, field, replace
from typing import Any


@dataclass(frozen=True)
class CardPose:
    x: float
    y: float
    """Centre on the table, mm."""
    angle: float
    face_up: bool = True
    z: float = 0.0


@dataclass(frozen=True)
class DiePose:
    """A die on the table (``card`` empty) at ``x, y``, or on chip ``chip`` of card ``card`` offset by ``x, y``."""

    die: str
    """As ``rules.dice.Die`` prints it: ``red5``."""
    x: float
    y: float
    yaw: float
    turn: int = 0
    card: str = ""
    chip: int = 0
    level: int = 0


@dataclass(frozen=True)
class HandPose:
    x: float
    y: float
    """Palm centre, mm."""
    angle: float
    """Direction the fingers point (from the player towards the table), degrees."""
    height: float
    """Above the table, mm."""
    pose: int = 1
    """The renderer's hand variant modulo 3: 0 open, 1 holding, 2 pointing."""


def _ease(u: float) -> float:
    """Smooth start and stop (smoothstep)."""
    u = min(1.0, max(0.0, u))
    return u * u * (3 - 2 * u)


def _lerp_angle(a: float, b: float, u: float) -> float:
    d = (b - a + 180.0) % 360.0 - 180.0
    return a + d * u


def blend(a: Any, b: Any, u: float) -> Any:
    """``a`` moving towards ``b``, ``u`` of the way (eased); cards turn over half-way."""
    u = _ease(u)
    if isinstance(a, CardPose) and isinstance(b, CardPose):
        lift = 4.0 * math.sin(math.pi * u)  # a card in motion is lifted a little off the table
        return CardPose(a.x + (b.x - a.x) * u, a.y + (b.y - a.y) * u, _lerp_angle(a.angle, b.angle, u),
                        a.face_up if u < 0.5 else b.face_up, max(a.z, b.z) + lift)
    if isinstance(a, HandPose) and isinstance(b, HandPose):
        return replace(b, x=a.x + (b.x - a.x) * u, y=a.y + (b.y - a.y) * u, angle=_lerp_angle(a.angle, b.angle, u),
                       height=a.height + (b.height - a.height) * u)
    return a if u < 1.0 else b


@dataclass
class Track:
    """Timed values of one thing; keys must be added in time order."""

    times: list[float] = field(default_factory=list)
    keys: list[tuple[Any, bool]] = field(default_factory=list)

    def add(self, t: float, value: Any, glide: bool = False) -> None:
        if self.times and t < self.times[-1] - 1e-9:
            raise ValueError(f"track keys out of order: {t} after {self.times[-1]}")
        self.times.append(t)
        self.keys.append((value, glide))

    def last(self) -> Any:
        return self.keys[-1][0] if self.keys else None

    def at(self, t: float) -> tuple[Any, bool]:
        """The value at time ``t`` and whether it is in motion then."""
        k = bisect.bisect_right(self.times, t) - 1
        if k < 0:
            return None, False
        value = self.keys[k][0]
        if k + 1 < len(self.keys):
            nxt, glide = self.keys[k + 1]
            span = self.times[k + 1] - self.times[k]
            if glide and value is not None and nxt is not None and span > 0:
                return blend(value, nxt, (t - self.times[k]) / span), True
        return value, False

    def move(self, start: float, end: float, value: Any) -> None:
        """Hold the current value until ``start``, then glide to ``value`` by ``end``."""
        current = self.last()
        start = max(start, self.times[-1]) if self.times else start
        end = max(end, start)
        if current is not None and value is not None and end > start:
            self.add(start, current)
            self.add(end, value, glide=True)
        else:
            self.add(end, value)


@dataclass
class Tracks:
    """Every track of one game, by name: ``card:F-003``, ``die:7``, ``hand:0``, ``pile:deck``, ``bag``."""

    tracks: dict[str, Track] = field(default_factory=dict)

    def __getitem__(self, name: str) -> Track:
        if name not in self.tracks:
            self.tracks[name] = Track()
        return self.tracks[name]

    def at(self, t: float, prefix: str) -> list[tuple[str, Any, bool]]:
        """``(name, value, moving)`` of every present thing whose name starts with ``prefix``."""
        out = []
        for name, track in self.tracks.items():
            if name.startswith(prefix):
                value, moving = track.at(t)
                if value is not None:
                    out.append((name, value, moving))
        return out
