"""The dashboard's live feed: a ``vision.pipeline.Pipeline`` on a camera, video file, image folder or stream,
run in a background thread on the newest frame, handing out reports and annotated frames (``webui.feeds.Feed``).
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Iterator
from typing import Any

from rules.config import GameConfig
from rules.referee import Event
from vision.interpret import Confirm
from vision.observation import TableObservation
from vision.pipeline import LIVE_WORKERS, Pipeline
from vision.sources import Frame as SourceFrame
from webui.errors import FeedError
from webui.feeds import Frame, Mark, Report

OPEN_QUESTIONS = 20
"""Questions shown at most: the oldest unanswered ones are dropped (the game has moved on)."""


def marks(observation: TableObservation, illegal: set[tuple[str, int]],
          chips: dict[tuple[str, int], str] | None = None) -> list[Mark]:
    """The overlay's outlines: each card (its id, or ``unknown``) and each die (amber when not on a chip of a
    recognised card, red on a chip where a violation was flagged), a die on a chip named as ``chips`` hold it
    (``Pipeline.chips``: the game's die where it placed one, not this frame's reading)."""
    chips = chips or {}  # (a loose die's ``on`` is None, never a key)
    out = []
    for card in observation.cards:
        xs, ys = [p[0] for p in card.corners], [p[1] for p in card.corners]
        status = "legal" if card.card_id else "unsure"
        out.append(Mark((min(xs), min(ys), max(xs), max(ys)), card.card_id or f"unknown {card.type}", status))
    for die in observation.dice:
        card, chip = die.on if die.on else ("", 0)
        status = "illegal" if die.on in illegal else ("legal" if die.on else "unsure")
        out.append(Mark(die.box, chips.get(die.on, die.die), status, card, chip))
    return out


class VisionFeed:
    """A ``webui.feeds.Feed`` that referees a camera (or video, folder, stream) through a ``Pipeline``."""

    kind = "vision"
    simulated = False
    autostart = False

    def __init__(self, source: str, config: GameConfig, *, model: str | None = None, windows: bool = False) -> None:
        from vision.sources import open_source

        self.source_text = source
        self.source = open_source(source, realtime=True)  # a video plays at its own pace, as a camera would
        self.label = self.source.description
        self.model, self.windows = model, windows
        self.pipeline = Pipeline(config, model=model, workers=LIVE_WORKERS, windows=windows)
        self.cursor = 0
        self.error = ""
        self._reports: deque[Report] = deque()
        self._frame: Frame | None = None
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._asked = 0
        """The interpreter's questions numbered so far."""
        self._open: dict[int, Confirm] = {}
        self._thread = threading.Thread(target=self._run, name="vision-feed", daemon=True)
        self._thread.start()

    def _frames(self) -> Iterator[SourceFrame]:
        """The source's newest frame each time the pipeline can take one, until closed or the recording ends."""
        while not self._stop.is_set():
            frame = self.source.read(timeout=0.5)
            if frame is not None:
                yield frame
            elif self.source.finished:
                return

    def _run(self) -> None:
        illegal: set[tuple[str, int]] = set()
        try:
            for frame, step in self.pipeline.run(self._frames()):
                for event in step.events:
                    if not event.accepted and event.action.startswith("place "):
                        card, _, chip = event.action.split()[2].rpartition(":")
                        illegal.add((card, int(chip)))
                with self._lock:
                    self._reports += [Report(frame.time, action, "vision", taken_back=True)
                                      for action in step.taken_back]
                    for event, replaces in zip(step.events, step.replaces):
                        self._reports.append(Report(frame.time, event.action, "vision", event.confidence, event.frame,
                                                    replaces))
                    chips = {(card, chip): die for card, chip, die in self.pipeline.chips()}
                    self._frame = Frame(frame.image, frame.index, marks(step.observation, illegal, chips))
        except Exception as error:  # the dashboard shows why the feed stopped rather than dying silently
            self.error = f"vision feed stopped: {type(error).__name__}: {error}"

    def poll(self, elapsed: float) -> list[Report]:
        with self._lock:
            reports = list(self._reports)
            self._reports.clear()
        self.cursor += len(reports)
        return reports

    def frame(self, elapsed: float) -> Frame | None:
        with self._lock:
            return self._frame

    def ready_to_start(self) -> bool:
        return self.pipeline.referee.state.phase not in ("deal", "reveal", "role")

    def questions(self) -> dict[int, Confirm]:
        with self._lock:  # (not the pipeline's lock: the dashboard asks often and must not wait for a step)
            for confirm in self.pipeline.interpreter.confirms[self._asked:]:
                self._asked += 1
                self._open[self._asked] = confirm
            for number in list(self._open)[:-OPEN_QUESTIONS]:
                del self._open[number]
            return dict(self._open)

    def answer(self, number: int, action: str | None) -> None:
        with self._lock:
            if self._open.pop(number, None) is None:
                raise FeedError(f"no open question {number}: answered already, or never asked")
        if action:
            self.told(action)

    def told(self, action: str) -> None:
        """Into the pipeline's own game too, so that what vision judges next is judged against the game the
        dashboard shows (and vision does not report again what the person reported)."""
        with self.pipeline.lock:
            self.pipeline.referee.submit(action, "manual")

    def amended(self, event: Event, action: str | None) -> None:
        """The pipeline's own report of ``event`` (the same action; from the same frame, if vision's) is taken back
        or corrected too, so vision goes on judging the game the dashboard shows."""
        with self.pipeline.lock:
            mine = next((e for e in reversed(self.pipeline.referee.events) if not e.undone
                         and e.action == event.action and (event.source != "vision" or e.frame == event.frame)), None)
            if mine is None:
                return  # a report the pipeline's game never had (another feed's)
            if action is None:
                self.pipeline.referee.undo(mine.index)
            else:
                self.pipeline.interpreter.correct(mine.index, action, "corrected at the dashboard")

    def state(self) -> dict[str, Any]:
        return {"kind": "vision", "source": self.source_text, "model": self.model, "windows": self.windows,
                "cursor": self.cursor, "error": self.error}

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        self.source.close()



