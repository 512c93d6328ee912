"""The whole referee pipeline, one frame at a time.

``Pipeline.step(image, index, elapsed)``: detector -> card layout -> settled-state tracker -> interpreter ->
referee, returning what the frame showed and the events it settled. The dashboard's live feed
(``webui.vision_feed``) runs one on a camera, file, folder or stream.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from rules.clock import ManualClock
from rules.config import GameConfig
from rules.referee import Event, Referee
from vision.interpret import Interpreter, InterpreterSettings
from vision.observation import TableObservation
from vision.tracker import Tracker, TrackerSettings


@dataclass(frozen=True)
class Step:
    observation: TableObservation
    events: tuple[Event, ...]
    """Events the referee recorded on this frame (accepted or refused)."""


def detector_for(edition: str | None, model: str | None = None, conf: float = 0.25) -> Any:
    """The detector of a game of ``edition`` (a FUSE table has no split dice to read)."""
    from vision.detector import Detector, game_colours

    return Detector(model, conf=conf, colours=game_colours(edition) if edition else None)


def perception(edition: str | None, model: str | None = None, conf: float = 0.25) -> Any:
    """``(image, index, elapsed) -> TableObservation``: the detector and the card layout, loaded once."""
    from vision.cards import TableLayout

    detector = detector_for(edition, model, conf)
    layout = TableLayout(edition=edition)
    return lambda image, index, elapsed: layout.observe(image, detector.detect(image), index, elapsed)


class Pipeline:
    """Everything between a decoded frame and the referee, loaded once."""

    def __init__(
        self,
        config: GameConfig,
        *,
        model: str | None = None,
        conf: float = 0.25,
        tracker: TrackerSettings | None = None,
        interpreter: InterpreterSettings | None = None,
    ) -> None:
        self.config, self.model, self.conf = config, model, conf
        self.tracker = Tracker(tracker)
        self.interpreter = Interpreter(Referee(config, ManualClock()), interpreter)
        self.last: TableObservation | None = None
        self._perceive: Any = None

    def _perception(self) -> Any:
        """Detector and card layout, loaded on the first frame (settling observations needs neither)."""
        if self._perceive is None:
            self._perceive = perception(self.config.edition, self.model, self.conf)
        return self._perceive

    @property
    def referee(self) -> Referee:
        return self.interpreter.referee

    def observe(self, image: np.ndarray, index: int, elapsed: float) -> TableObservation:
        return self._perception()(image, index, elapsed)

    def settle(self, observation: TableObservation) -> Step:
        before = len(self.referee.events)
        self.interpreter.feed(self.tracker.update(observation), observation.frame, observation.elapsed)
        self.last = observation
        return Step(observation, tuple(self.referee.events[before:]))

    def step(self, image: np.ndarray, index: int, elapsed: float) -> Step:
        return self.settle(self.observe(image, index, elapsed))

    def finish(self) -> tuple[Event, ...]:
        """The end of the recording: settle what is still pending."""
        if self.last is None:
            return ()
        before = len(self.referee.events)
        self.interpreter.finish(self.last.frame, self.last.elapsed)
        return tuple(self.referee.events[before:])

