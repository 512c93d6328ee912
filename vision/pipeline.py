"""The whole referee pipeline, one frame at a time.

``Pipeline.step(image, index, elapsed)``: detector -> card layout -> settled-state tracker -> interpreter ->
referee, returning what the frame showed and the events it settled. ``Pipeline.run(frames)`` does the same for
a stream of frames with ``workers`` frames in the detector at once (the rest of the pipeline takes them in
order); the dashboard's live feed (``webui.vision_feed``) runs one on a camera, file, folder or stream.

Why frames in parallel: a network run on two threads leaves the two cores partly idle (its layers do not all
split evenly); two frames on one thread each keep both busy. With ONNX Runtime on the 2-core machine the float
locator went from 9.8 to 12.3 frames/s, each frame's verdict coming later (one frame's network on one core takes
longer). With OpenVINO, which uses all cores for one frame, two at once gain almost nothing and only delay each
verdict, so a camera runs one (``LIVE_WORKERS``) and a recording, where only throughput counts, two
(``default_workers``; ``fuse-referee bench pipeline --workers 1|2``, README).
A frame that did not move since the last detected one keeps that frame's detections (``vision.motion``;
``skip_still=False`` detects every frame): 17.5 frames/s with the float locator, 29 on a faster machine where,
live, every frame of a 15 fps camera is judged (README). With ``windows`` one that moved
is detected only where it moved (``vision.regions``): 21.6 frames/s against 18.1 on another machine, but it
matched fewer events in the games (README), so it is not the default.
"""

from __future__ import annotations

import operator
import os
import queue
import threading
from collections import Counter
from collections.abc import Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from math import inf
from typing import Any

import numpy as np

from rules.clock import ManualClock
from rules.config import GameConfig
from rules.referee import Event, Referee
from vision.interpret import Interpreter, InterpreterSettings
from vision.motion import MotionGate, gate_for, to_detect
from vision.observation import TableObservation
from vision.regions import detect_change
from vision.resync import dice_on_chips
from vision.sources import Frame
from vision.tracker import Tracker, TrackerSettings


@dataclass(frozen=True)
class Step:
    observation: TableObservation
    events: tuple[Event, ...]
    """Events the referee recorded on this frame (accepted or refused), in the log's order: wherever they went in
    it (a report seen late goes in by its time, a correction beside the report it replaces)."""
    replaces: tuple[str | None, ...] = ()
    """For each event that is a correction, the action of the report it replaced (else None)."""
    taken_back: tuple[str, ...] = ()
    """The actions of reports the interpreter took back on this frame (a distribution that was not over), but
    those a correction replaced."""


def _key(event: Event) -> tuple:
    """A report as ``new_events`` and ``taken_back`` know it across insertions and corrections (which renumber it)."""
    return event.elapsed, event.action, event.source, event.frame


def new_events(referee: Referee, before: tuple[Event, ...]) -> tuple[Event, ...]:
    """The referee's reports made since its log was ``before``: not its last entries, which an insertion or a
    correction makes older ones."""
    if len(referee.events) == len(before):
        return ()  # (an undo marks a report; it makes none)
    left = Counter(map(_key, before))
    fresh = []
    for event in referee.events:
        if left[_key(event)] > 0:
            left[_key(event)] -= 1
        else:
            fresh.append(event)
    return tuple(fresh)


def taken_back(referee: Referee, before: tuple[Event, ...], replaced: set[int]) -> tuple[str, ...]:
    """The actions of reports taken back since the log was ``before`` (open then, undone now), but those at the
    indices ``replaced`` (a correction undoes the report it replaces)."""
    if len(referee.events) == len(before) and all(map(operator.is_, referee.events, before)):
        return ()  # (the log untouched, as on most frames: no count made)
    was_open = Counter(_key(e) for e in before if not e.undone)
    gone = []
    for event in referee.events:
        if event.undone and event.index not in replaced and was_open[_key(event)] > 0:
            was_open[_key(event)] -= 1
            gone.append(event.action)
    return tuple(gone)


def default_workers() -> int:
    """Frames of a recording in the detector at once: two where there are two cores or more."""
    return 2 if (os.cpu_count() or 1) >= 2 else 1


LIVE_WORKERS = 1
"""Frames of a camera in the detector at once: one, on all cores. The detector shares its threads out between the
frames at once, so two make each frame wait twice as long for the same frames a second: on two cores (forty-first
session, `fuse-referee bench pipeline --workers 1` and `--workers 2`, two runs each) 14.9 updates a second either
way, verdicts a median 51-55 ms after their frame against 84-94 ms (p95 171-184 against 229-269 ms)."""


UNEXPLAINED_LEAVE_S = 9.0
"""Seconds after the tracker saw a die (or its card) leave a chip that a die the game still holds there is shown
again (``Pipeline.chips``), unless its card moved since: by then the game has made no sense of the leave (no return
owed, no defuse judged), and such a die is more often one hidden behind a die put in front of it on a card seen at
a slant than one taken away unseen. A card that moved was more likely carried off with its dice (fifty-eighth
session, ``vision/README.md``: the chip error over all settled observations of the 36 games 12.8 -> 12.0 %)."""


def detector_for(edition: str | None, model: str | None = None, conf: float = 0.25, workers: int = 1) -> Any:
    """The detector of a game of ``edition`` (a FUSE table has no split dice to read) for a card layout needing
    ``conf`` (it finds less sure dice too: ``vision.cards.ON_CHIP``), its network threads shared out between
    ``workers`` frames at once."""
    from vision.cards import detector_conf
    from vision.detector import Detector, game_colours

    threads = max(1, (os.cpu_count() or 1) // workers)
    return Detector(model, conf=detector_conf(conf), colours=game_colours(edition) if edition else None,
                    threads=threads)


def detect_ahead(
    detector: Any, frames: Iterable[Frame], workers: int = 1, gate: MotionGate | None = None
) -> Iterator[tuple[Frame, Any]]:
    """Each frame with its ``Detections``, in order, with up to ``workers`` frames being detected at once (one
    detector serves several threads, each frame on its share of the cores). A thread takes the frames from the
    source while the ones before are still judged, so a frame whose judging takes long (a card read) does not
    make the next one missed; once ``workers`` frames wait for their verdict the source is not asked, so a live
    source hands over its newest when asked again and lag never builds up. With a ``gate``, a frame that did not
    move since the last detected one shares its detections (``vision.motion``) and takes no detector, and one
    that moved in part is detected there (``vision.regions``: after the frame before it, whose detections it
    keeps elsewhere)."""
    waiting: queue.Queue[Any] = queue.Queue(maxsize=max(1, workers))
    stop = threading.Event()

    def hand(item: Any) -> None:
        while not stop.is_set():
            try:
                waiting.put(item, timeout=0.1)
                return
            except queue.Full:
                continue

    def take() -> None:
        try:
            with ThreadPoolExecutor(max(1, workers), thread_name_prefix="detect") as pool:
                found: Any = None
                for frame in frames:
                    part = to_detect(gate, frame.image, found)
                    if part is not None:
                        found = pool.submit(detect_change, detector, frame.image, part, found)
                    hand((frame, found))
                    if stop.is_set():
                        return
        except BaseException as error:  # (the source failing: raised where the frames are judged)
            hand(_Failed(error))
        hand(_END)

    taker = threading.Thread(target=take, name="frames", daemon=True)
    taker.start()
    try:
        while (item := waiting.get()) is not _END:
            if isinstance(item, _Failed):
                raise item.error
            frame, found = item
            yield frame, found.result()
    finally:
        stop.set()
        taker.join(timeout=1.0)  # (a source blocked on a camera gone is left to its own timeout)


@dataclass(frozen=True)
class _Failed:
    error: BaseException


_END = object()


class Pipeline:
    """Everything between a decoded frame and the referee, loaded once. ``lock`` is held while a frame's
    observation goes into the game (and should be while anything else changes that game)."""

    def __init__(
        self,
        config: GameConfig,
        *,
        model: str | None = None,
        conf: float = 0.25,
        tracker: TrackerSettings | None = None,
        interpreter: InterpreterSettings | None = None,
        workers: int = 1,
        skip_still: bool = True,
        windows: bool = False,
    ) -> None:
        self.config, self.model, self.conf, self.workers = config, model, conf, max(1, workers)
        # still frames keep the detections of the last detected one; with windows, so do the parts not moved
        self.gate = gate_for(skip_still, windows)
        self._found: Any = None
        self.tracker = Tracker(tracker)
        self.interpreter = Interpreter(Referee(config, ManualClock()), interpreter)
        self.last: TableObservation | None = None
        self._left: dict[tuple[str, int], float] = {}
        """(card, chip) -> when the tracker last saw a die leave it; (card, 0): the card itself (``chips``)."""
        self._moved: dict[str, float] = {}
        """Card -> when the tracker last saw it move (``chips``)."""
        self.lock = threading.RLock()
        self._detector: Any = None
        self._layout: Any = None

    def _perception(self) -> tuple[Any, Any]:
        """Detector and card layout, loaded on the first frame (settling observations needs neither)."""
        if self._detector is None:
            from vision.cards import TableLayout

            self._detector = detector_for(self.config.edition, self.model, self.conf, self.workers)
            self._layout = TableLayout(edition=self.config.edition, conf=self.conf)
        return self._detector, self._layout

    @property
    def referee(self) -> Referee:
        return self.interpreter.referee

    def chips(self) -> tuple[tuple[str, int, str], ...]:
        """(card, chip, die) of each die on a chip now: the chips the tracker has settled, each with the die the
        game placed there where it has judged one. A die keeps its face when placed, and the game's was read in the
        roll, in the open, where a die on a card shows a small or covered face (on chips, the game's faces are
        right 97.3 % of the time and the tracker's 92.8 %, vision/README.md). Where the game has not judged one
        yet (it waits to, or refused it), the tracker's; none where the game judged such a reading the card's print
        (a die drawn on the chip, ``[blue3]``) or a card it holds prints the reading's face alone or its colour
        (``[6]``, ``[yellow]``, ``[green3]``: ``Interpreter.read_as_print``). Then the game's dice on chips of cards
        the tracker sees that it shows empty (a die the detector missed, or one hidden in a stack read short, that
        the game inferred), but for those it saw leave since they were placed, until the game has held one
        ``UNEXPLAINED_LEAVE_S`` past its leave: a leave it made no sense of."""
        table = self.tracker.last
        if table is None:
            return ()
        placed = dice_on_chips(self.referee.state)
        shown = tuple((card, chip, placed.get((card, chip), die)) for card, chip, die in table.chips
                      if (card, chip) in placed or not self.interpreter.read_as_print(card, chip, die))
        settled, seen = {(card, chip) for card, chip, _ in table.chips}, {card.card for card in table.cards}
        unshown = [key for key in placed if key[0] in seen and key not in settled]
        if not unshown:
            return shown
        placing, now = self.referee.placing_events(), self.last.elapsed if self.last else 0.0

        def kept(card: str, chip: int) -> bool:
            left = max(self._left.get((card, chip), -inf), self._left.get((card, 0), -inf))
            return left < placing[(card, chip)].elapsed or (now - left >= UNEXPLAINED_LEAVE_S
                                                              and self._moved.get(card, -inf) < left)

        return shown + tuple((card, chip, placed[(card, chip)]) for card, chip in unshown
                             if (card, chip) in placing and kept(card, chip))

    def observe(self, image: np.ndarray, index: int, elapsed: float) -> TableObservation:
        detector, layout = self._perception()
        part = to_detect(self.gate, image, self._found)
        if part is not None:
            self._found = detect_change(detector, image, part, self._found)
        return layout.observe(image, self._found, index, elapsed)

    def settle(self, observation: TableObservation) -> Step:
        with self.lock:
            before = tuple(self.referee.events)
            changes = self.tracker.update(observation)
            self._left.update({(c.card, c.chip): c.elapsed for c in changes if c.kind in ("die-", "card-")})
            self._moved.update({c.card: c.elapsed for c in changes if c.kind == "card>"})
            self.interpreter.feed(changes, observation.frame, observation.elapsed)
            self.last = observation
            events = new_events(self.referee, before)
            replaces = tuple(self.referee.events[e.index - 1].action if e.source == "correction" else None
                             for e in events)  # (``Referee.correct`` puts the fix just after what it replaces)
            replaced = {e.index - 1 for e in events if e.source == "correction"}
            return Step(observation, events, replaces, taken_back(self.referee, before, replaced))

    def step(self, image: np.ndarray, index: int, elapsed: float) -> Step:
        return self.settle(self.observe(image, index, elapsed))

    def run(self, frames: Iterable[Frame]) -> Iterator[tuple[Frame, Step]]:
        """Each frame with its step, in order, ``workers`` frames in the detector at once."""
        detector, layout = self._perception()
        for frame, found in detect_ahead(detector, frames, self.workers, self.gate):
            yield frame, self.settle(layout.observe(frame.image, found, frame.index, frame.time))

    def finish(self) -> tuple[Event, ...]:
        """The end of the recording: settle what is still pending."""
        if self.last is None:
            return ()
        with self.lock:
            before = tuple(self.referee.events)
            self.interpreter.finish(self.last.frame, self.last.elapsed)
            return new_events(self.referee, before)
