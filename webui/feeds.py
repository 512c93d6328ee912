"""Where reports come from: a feed hands the referee timestamped reports of what happened at the table, and
optionally the camera's frames to draw the overlay on.

Kinds of feed:

- ``LogFeed``: a recorded action log played in game time: the bundled sample (``datasets/sample/truth.json``,
  with its rendered video ``game.mp4`` and per-frame truth ``frames.json.gz``), the simulated fallback game
  (``webui.simulated``) or any log file given as ``--source``;
- ``ManualFeed``: nothing of its own: reports are typed in the dashboard or posted to ``/api/report``;
- the vision pipeline's feed (camera, video file, folder or URL), ``webui.vision_feed.VisionFeed``.

A feed is driven by the game clock: ``poll(elapsed)`` returns the reports due by then, so pausing the clock
pauses a recorded game too, and ``cursor`` (reports handed out) is saved with the game so a resumed session
does not repeat them.
"""

from __future__ import annotations

import bisect
import gzip
import importlib
import importlib.util
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from webui.errors import FeedError

if TYPE_CHECKING:
    import numpy as np

    from rules.config import GameConfig
    from rules.referee import Event
    from vision.interpret import Confirm


@dataclass(frozen=True)
class Report:
    """One action seen or typed at the table."""

    elapsed: float
    """Seconds of play when it happened (recorded logs); live feeds use the clock's reading."""
    action: str
    """The action's text form, e.g. ``place red5 F-003:2``."""
    source: str = "log"
    confidence: float = 1.0
    frame: int | None = None
    replaces: str | None = None
    """A correction: the action of the report (the latest one so worded) that this one replaces."""
    taken_back: bool = False
    """The feed took back its own report of ``action`` (the latest one so worded)."""


@dataclass(frozen=True)
class Mark:
    """One recognised thing in a frame, outlined by the overlay."""

    box: tuple[float, float, float, float]
    """``x0, y0, x1, y1`` in pixels of the frame."""
    label: str
    status: str = "legal"
    """``legal`` (green), ``illegal`` (red) or ``unsure`` (amber)."""
    card: str = ""
    """For a die on a chip: the card id and chip, so the overlay can match it with a violation."""
    chip: int = 0


@dataclass
class Frame:
    """A camera frame and what was recognised in it."""

    image: np.ndarray
    """BGR, shape ``(height, width, 3)``, uint8."""
    index: int
    marks: list[Mark] = field(default_factory=list)
    annotated: bool = False
    """True when the feed has drawn its own overlay already."""


class Feed(Protocol):
    kind: str
    """``sample``, ``simulated``, ``log``, ``manual`` or ``vision``."""
    label: str
    """One line for the dashboard, e.g. ``simulated table (no camera)``."""
    simulated: bool
    autostart: bool
    """Start the clock by itself once the setup reports are in (recorded games)."""
    cursor: int

    def poll(self, elapsed: float) -> list[Report]: ...

    def frame(self, elapsed: float) -> Frame | None: ...

    def ready_to_start(self) -> bool: ...

    def state(self) -> dict[str, Any]:
        """Plain data that ``reopen`` turns back into this feed at the same place."""
        ...

    def questions(self) -> dict[int, Confirm]:
        """The open questions (what vision could not judge alone) by number (1, 2, ... as asked), oldest first."""
        ...

    def answer(self, number: int, action: str | None) -> None:
        """Question ``number`` answered: ``action`` happened (``told``), or None: dismissed. An unknown or answered
        question is a ``FeedError``."""
        ...

    def told(self, action: str) -> None:
        """The person reported ``action`` at the dashboard: a feed that keeps a game of its own takes it too."""
        ...

    def amended(self, event: Event, action: str | None) -> None:
        """The person took report ``event`` back at the dashboard (``action`` None) or corrected it to ``action``:
        a feed that keeps a game of its own does the same to its own report of it."""
        ...

    def close(self) -> None: ...


class Unquestioning:
    """A feed that asks nothing: recorded reports, or the person's own."""

    def questions(self) -> dict[int, Confirm]:
        return {}

    def answer(self, number: int, action: str | None) -> None:
        raise FeedError(f"no open question {number}: this feed asks none")

    def told(self, action: str) -> None:
        pass  # no game of its own

    def amended(self, event: Event, action: str | None) -> None:
        pass


class FrameSet:
    """Frames of a recorded game with each frame's elapsed time (``frames.json``), decoded on demand: image files,
    or the frames of one video (``{"video": "game.mp4", "frames": [{"index", "elapsed", "truth"}, ...]}``, as
    ``fuse-referee synth game`` writes it), read forward and sought only when the game jumps."""

    def __init__(self, folder: Path, entries: Sequence[dict[str, Any]], video: Path | None = None) -> None:
        self.folder = folder
        self.entries = sorted(entries, key=lambda e: e["elapsed"])
        self.times = [float(e["elapsed"]) for e in self.entries]
        self.video = video
        self._capture: Any = None
        self._position = -1
        """Index in the video of the frame read last."""
        self._cached: Frame | None = None

    @classmethod
    def load(cls, folder: Path) -> FrameSet | None:
        """Read ``folder/frames.json`` (or ``frames.json.gz``): a list of ``{"file", "elapsed"[, "truth"]}`` (or
        ``{"frames": [...]}``, with ``"video"`` when the frames are a video's), or a list of elapsed times, one per
        image file in name order."""
        index = folder / "frames.json"
        packed = folder / "frames.json.gz"
        if not index.is_file() and not packed.is_file():
            return None
        try:
            data = json.loads(index.read_text() if index.is_file() else gzip.decompress(packed.read_bytes()))
        except (OSError, ValueError) as exc:
            raise FeedError(f"cannot read {str(index if index.is_file() else packed)!r}: {exc}") from None
        video = folder / data["video"] if isinstance(data, dict) and data.get("video") else None
        if video is not None:
            if not video.is_file():
                raise FeedError(f"{str(index)!r} names the video {str(video)!r}, which is missing")
            entries = data.get("frames", [])
            for n, entry in enumerate(entries):
                entry.setdefault("index", n)
            return cls(folder, entries, video) if entries else None
        entries = data.get("frames", []) if isinstance(data, dict) else data
        if isinstance(entries, list) and entries and all(isinstance(e, (int, float)) for e in entries):
            files = sorted(p.name for p in folder.iterdir() if p.suffix.lower() in (".jpg", ".jpeg", ".png"))
            entries = [{"file": f, "elapsed": float(t)} for f, t in zip(files, entries)]  # times of sorted files
        if not isinstance(entries, list) or not all(isinstance(e, dict) and "elapsed" in e for e in entries):
            raise FeedError(f"{str(index)!r}: expected a list of {{'file', 'elapsed'}} entries")
        for n, entry in enumerate(entries):
            entry.setdefault("file", f"{n:06d}.jpg")
        return cls(folder, entries) if entries else None

    def at(self, elapsed: float) -> Frame | None:
        """The last frame shown by ``elapsed`` seconds (decoded once, then reused)."""
        i = bisect.bisect_right(self.times, elapsed) - 1
        if i < 0:
            i = 0
        if self._cached is not None and self._cached.index == i:
            return self._cached
        import cv2

        if self.video is not None:
            image = self._video_frame(int(self.entries[i]["index"]))
        else:
            image = cv2.imread(str(self.folder / self.entries[i]["file"]), cv2.IMREAD_COLOR)
        if image is None:
            return self._cached
        self._cached = Frame(image, i, marks_from_truth(self.entries[i].get("truth")))
        return self._cached

    def _video_frame(self, n: int) -> np.ndarray | None:
        """Frame ``n`` of the video: the next one is read, a jump back or far ahead seeks."""
        import cv2

        if self._capture is None:
            from vision.errors import SourceError
            from vision.sources import VideoFile

            try:
                self._capture = VideoFile(self.video).capture  # type: ignore[arg-type]
            except SourceError as exc:
                raise FeedError(str(exc)) from None
            self._position = -1
        if n <= self._position or n - self._position > 48:
            self._capture.set(cv2.CAP_PROP_POS_FRAMES, n)
            self._position = n - 1
        while self._position < n - 1 and self._capture.grab():
            self._position += 1
        ok, image = self._capture.read()
        self._position = n if ok else self._position
        return image if ok else None

    def close(self) -> None:
        if self._capture is not None:
            self._capture.release()
            self._capture = None


def marks_from_truth(truth: dict[str, Any] | None) -> list[Mark]:
    """Marks from a frame's ground truth in the renderer's format (``cards`` and ``dice`` with ``box``)."""
    if not truth:
        return []
    marks = []
    for card in truth.get("cards", []):
        label = card.get("id") if card.get("face_up", True) else "card back"
        status = "legal" if card.get("label") else "unsure"
        marks.append(Mark(tuple(card["box"]), str(label), status))
    for die in truth.get("dice", []):
        on = die.get("on") or {}
        status = "legal" if die.get("label") else "unsure"
        marks.append(Mark(tuple(die["box"]), str(die.get("die", "die")), status, on.get("card_id", ""),
                          int(on.get("chip", 0))))
    return marks


class LogFeed(Unquestioning):
    """Plays recorded reports in game time; ``speed`` > 1 hands them out faster (benchmarks only)."""

    autostart = True

    def __init__(self, reports: Sequence[Report], kind: str = "log", label: str = "recorded game",
                 simulated: bool = False, frames: FrameSet | None = None, params: dict[str, Any] | None = None,
                 cursor: int = 0, speed: float = 1.0) -> None:
        self.reports = sorted(reports, key=lambda r: r.elapsed)
        self.kind, self.label, self.simulated = kind, label, simulated
        self.frames = frames
        self.params = dict(params or {})
        self.cursor = cursor
        self.speed = speed

    def poll(self, elapsed: float) -> list[Report]:
        due = elapsed * self.speed
        start = self.cursor
        while self.cursor < len(self.reports) and self.reports[self.cursor].elapsed <= due:
            self.cursor += 1
        return self.reports[start:self.cursor]

    def ready_to_start(self) -> bool:
        """The setup (reports at 0 s) is in: the countdown may begin."""
        return self.cursor >= len(self.reports) or self.reports[self.cursor].elapsed > 0

    def frame(self, elapsed: float) -> Frame | None:
        return self.frames.at(elapsed * self.speed) if self.frames is not None else None

    def state(self) -> dict[str, Any]:
        return {"kind": self.kind, **self.params, "cursor": self.cursor, "speed": self.speed}

    def close(self) -> None:
        if self.frames is not None:
            self.frames.close()


class ManualFeed(Unquestioning):
    """A game entered by hand: no reports or frames of its own (the dashboard posts them)."""

    kind = "manual"
    label = "entered by hand (no camera)"
    simulated = False
    autostart = False

    def __init__(self, cursor: int = 0) -> None:
        self.cursor = cursor

    def poll(self, elapsed: float) -> list[Report]:
        return []

    def frame(self, elapsed: float) -> Frame | None:
        return None

    def ready_to_start(self) -> bool:
        return False

    def state(self) -> dict[str, Any]:
        return {"kind": "manual", "cursor": 0}

    def close(self) -> None:
        pass


# ---------------------------------------------------------------------- the bundled sample and log files


def sample_folder() -> Path | None:
    """``datasets/sample`` beside the installed ``datasets`` package, if it holds a ``truth.json``."""
    spec = importlib.util.find_spec("datasets")
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = Path(next(iter(spec.submodule_search_locations))) / "sample"
    return folder if (folder / "truth.json").is_file() else None


def read_log_file(path: Path) -> tuple[dict[str, Any], list[Report]]:
    """A recorded game: ``{"config": {...}, "log": [[seconds, action], ...]}`` or a bare list of pairs.

    Returns the config (empty when the file has none) and the reports."""
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, ValueError) as exc:
        raise FeedError(f"cannot read the game log {str(path)!r}: {exc}") from None
    config, log = (data.get("config") or {}, data.get("log")) if isinstance(data, dict) else ({}, data)
    if not isinstance(log, list) or not log:
        raise FeedError(f"{str(path)!r} holds no game log: expected \"log\": [[seconds, action], ...]")
    reports = []
    for n, entry in enumerate(log):
        if not (isinstance(entry, (list, tuple)) and len(entry) >= 2 and isinstance(entry[1], str)):
            raise FeedError(f"{str(path)!r}: log entry {n} is {entry!r}, not [seconds, action]")
        confidence = float(entry[2]) if len(entry) > 2 else 1.0
        reports.append(Report(float(entry[0]), entry[1], "log", confidence))
    return config, reports


def sample_feed(folder: Path, cursor: int = 0, speed: float = 1.0) -> tuple[dict[str, Any], LogFeed]:
    config, reports = read_log_file(folder / "truth.json")
    frames = FrameSet.load(folder / "frames") or FrameSet.load(folder)
    label = "bundled sample game" + ((" (rendered video)" if frames.video else " (recorded frames)") if frames else "")
    feed = LogFeed(reports, "sample", label, False, frames, {"path": str(folder)}, cursor, speed)
    return config, feed


def vision_feed(source: str, config: GameConfig, model: str | None = None, windows: bool = False) -> Feed:
    """The vision pipeline's feed for a camera index, video file, folder or URL (``webui.vision_feed``), its
    detector ``model`` (default the shipped one) detecting only where frames moved with ``windows``; a source
    that cannot be opened is a one-line ``FeedError``."""
    from vision.detector import resolve
    from vision.errors import VisionError
    from webui.vision_feed import VisionFeed

    try:
        resolve(model)  # the detector loads with the first frame: a wrong model or runtime is said now
        return VisionFeed(source, config, model=model, windows=windows)
    except VisionError as error:
        raise FeedError(str(error)) from None


def reopen(state: dict[str, Any], config: GameConfig) -> Feed:
    """The feed a saved game was using, at the place it had reached."""
    kind, cursor, speed = state.get("kind", "manual"), int(state.get("cursor", 0)), float(state.get("speed", 1.0))
    if kind == "sample":
        return sample_feed(Path(state["path"]), cursor, speed)[1]
    if kind == "simulated":
        from webui.simulated import simulated_feed

        return simulated_feed(config, int(state["seed"]), cursor, speed)
    if kind == "log":
        _, reports = read_log_file(Path(state["path"]))
        return LogFeed(reports, "log", f"recorded game {Path(state['path']).name}", False, None,
                       {"path": state["path"]}, cursor, speed)
    if kind == "vision":
        return vision_feed(str(state["source"]), config, state.get("model"), bool(state.get("windows")))
    return ManualFeed()
