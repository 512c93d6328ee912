"""The whole referee pipeline, one frame at a time, and the dashboard's live feed built on it.

``Pipeline.step(image, index, elapsed)``: detector -> card layout -> settled-state tracker -> interpreter ->
referee, returning what the frame showed and the events it settled. ``open_feed(source, config)`` runs a
pipeline on a camera, video file, image folder or stream in a background thread, always on the newest frame,
and hands the dashboard (``webui.feeds.Feed``) the reports and annotated frames.
"""

from __future__ import annotations

import threading
from collections import deque
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


def perception(edition: str | None, model: str | None = None, conf: float = 0.25) -> Any:
    """``(image, index, elapsed) -> TableObservation``: the detector and the card layout, loaded once."""
    from vision.cards import TableLayout
    from vision.detector import Detector, game_colours

    colours = game_colours(edition) if edition else None  # a FUSE table has no split dice to read
    detector = Detector(model, conf=conf, colours=colours)
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


def marks(observation: TableObservation, illegal: set[tuple[str, int]]) -> list[Any]:
    """The overlay's outlines: each card (its id, or ``unknown``) and each die (amber when not on a chip of a
    recognised card, red on a chip where a violation was flagged)."""
    from webui.feeds import Mark

    out = []
    for card in observation.cards:
        xs, ys = [p[0] for p in card.corners], [p[1] for p in card.corners]
        status = "legal" if card.card_id else "unsure"
        out.append(Mark((min(xs), min(ys), max(xs), max(ys)), card.card_id or f"unknown {card.type}", status))
    for die in observation.dice:
        card, chip = die.on if die.on else ("", 0)
        status = "illegal" if die.on in illegal else ("legal" if die.on else "unsure")
        out.append(Mark(die.box, die.die, status, card, chip))
    return out


class VisionFeed:
    """A ``webui.feeds.Feed`` that referees a camera (or video, folder, stream) through a ``Pipeline``."""

    kind = "vision"
    simulated = False
    autostart = False

    def __init__(self, source: str, config: GameConfig, *, model: str | None = None) -> None:
        from vision.sources import open_source

        self.source_text = source
        self.source = open_source(source, realtime=True)  # a video plays at its own pace, as a camera would
        self.label = self.source.description
        self.pipeline = Pipeline(config, model=model)
        self.cursor = 0
        self.error = ""
        self._reports: deque[Any] = deque()
        self._frame: Any = None
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, name="vision-feed", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        from webui.feeds import Frame, Report

        illegal: set[tuple[str, int]] = set()
        try:
            while not self._stop.is_set():
                frame = self.source.read(timeout=0.5)
                if frame is None:
                    if self.source.finished:
                        break
                    continue
                step = self.pipeline.step(frame.image, frame.index, frame.time)
                for event in step.events:
                    if not event.accepted and event.action.startswith("place "):
                        card, _, chip = event.action.split()[2].rpartition(":")
                        illegal.add((card, int(chip)))
                with self._lock:
                    for event in step.events:
                        self._reports.append(Report(frame.time, event.action, "vision", event.confidence, event.frame))
                    self._frame = Frame(frame.image, frame.index, marks(step.observation, illegal))
        except Exception as error:  # the dashboard shows why the feed stopped rather than dying silently
            self.error = f"vision feed stopped: {type(error).__name__}: {error}"

    def poll(self, elapsed: float) -> list[Any]:
        with self._lock:
            reports = list(self._reports)
            self._reports.clear()
        self.cursor += len(reports)
        return reports

    def frame(self, elapsed: float) -> Any:
        with self._lock:
            return self._frame

    def ready_to_start(self) -> bool:
        return self.pipeline.referee.state.phase not in ("deal", "reveal", "role")

    def state(self) -> dict[str, Any]:
        return {"kind": "vision", "source": self.source_text, "cursor": self.cursor, "error": self.error}

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        self.source.close()


def open_feed(source: str, config: GameConfig) -> VisionFeed:
    """The dashboard's feed for ``--source`` (``webui.feeds.vision_feed``)."""
    return VisionFeed(source, config)

