"""Score a recorded game: video frames -> detector -> table observations -> settled-state tracker ->
interpreter -> ``Referee``; the result has ``truth.json``'s shape (events, violations, score, won), plus the
questions vision could not settle alone (``confirm``).

A RECORDING is a video file, or a rendered game folder (``game.mp4`` beside ``truth.json``, whose config and
clock are then used unless given).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rules.config import GameConfig
from rules.errors import RulesError
from vision.errors import VisionError
from vision.interpret import Interpreter, InterpreterSettings
from vision.motion import gate_for
from vision.observation import TableObservation
from vision.tracker import TrackerSettings

if TYPE_CHECKING:
    from vision.pipeline import Pipeline


def config_from_truth(truth: dict[str, Any]) -> GameConfig:
    c = truth["config"]
    fuse_cards = c.get("fuse_cards") if c["edition"] == "countdown" else None
    try:
        return GameConfig(c["edition"], c["players"], c["difficulty"], fuse_cards,
                          limit_seconds=c.get("limit_seconds", 600))
    except (RulesError, KeyError) as exc:
        raise VisionError(f"cannot read the game config {c!r}: {exc}") from None


def read_truth(folder: Path) -> dict[str, Any] | None:
    path = folder / "truth.json"
    if not path.is_file():
        return None
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise VisionError(f"cannot read {str(path)!r}: {exc}") from None


def referee_run(observations: Iterable[TableObservation], config: GameConfig,
                tracker: TrackerSettings | None = None, interpreter: InterpreterSettings | None = None,
                on_frame: Callable[[TableObservation, Pipeline], None] | None = None) -> Interpreter:
    """Run observations through tracker and interpreter into a fresh referee; returns the interpreter (its
    ``referee`` holds the events). ``on_frame`` sees the pipeline after each frame (evaluation)."""
    from vision.pipeline import Pipeline

    pipeline = Pipeline(config, tracker=tracker, interpreter=interpreter)
    for obs in observations:
        pipeline.settle(obs)
        if on_frame is not None:
            on_frame(obs, pipeline)
    pipeline.finish()
    return pipeline.interpreter


def result(interp: Interpreter) -> dict[str, Any]:
    """What the referee made of the recording, in ``truth.json``'s shape."""
    referee = interp.referee
    state = referee.state
    violations = []
    for event in referee.violations:
        words = event.action.split()
        entry: dict[str, Any] = {"elapsed": event.elapsed, "action": event.action, "reason": event.reason,
                                 "frame": event.frame, "confidence": event.confidence}
        if words[0] == "place":
            card, _, chip = words[2].rpartition(":")
            owner = interp.players_of.get(event.index, interp.owner_of(card))
            entry.update(player=f"p{owner + 1}" if owner is not None else None, card=card, chip=int(chip),
                         die=words[1], frame_taken_back=interp.taken_back.get(event.index))
        violations.append(entry)
    return {
        "config": {"edition": referee.config.edition, "players": referee.config.players,
                   "difficulty": referee.config.difficulty, "limit_seconds": referee.config.limit_seconds},
        "events": [asdict(e) for e in referee.events],
        "violations": violations,
        "score": state.score(),
        "won": bool(state.outcome and state.outcome.won),
        "outcome": state.outcome.reason if state.outcome else "unfinished",
        "confirm": [asdict(c) for c in interp.confirms],
        "notes": list(interp.notes),
        "zones": {"players": {f"p{p + 1}": list(xy) for p, xy in sorted(interp.zones.players.items())},
                  "row": list(interp.zones.row) if interp.zones.row else None,
                  "aside": list(interp.zones.aside) if interp.zones.aside else None},
    }


def video_observations(path: Path, model: str | None = None, conf: float = 0.25, first_elapsed: float = 0.0,
                       edition: str | None = None, detections: list[Any] | None = None,
                       skip_still: bool = True, windows: bool = False) -> Iterator[TableObservation]:
    """Each frame of a video through the detector and the card layout (``vision.cards``); ``detections``: one
    per frame, made before (``video_detections``), for the layout alone. As in the live pipeline, a frame that
    did not move since the last detected one keeps its detections unless not ``skip_still``, and with
    ``windows`` one that moved is detected where it moved (``vision.motion``, ``vision.regions``)."""
    from vision.cards import TableLayout

    layout = TableLayout(edition=edition, conf=conf)
    if detections is None:
        frames = _detected_frames(path, model, conf, edition, skip_still, windows)
    else:
        frames = zip(_frames(path), detections)
    for frame, seen in frames:
        yield layout.observe(frame.image, seen, frame.index, first_elapsed + frame.time)


def video_detections(path: Path, model: str | None = None, conf: float = 0.25,
                     edition: str | None = None, skip_still: bool = True, windows: bool = False) -> list[Any]:
    """The ``Detections`` of each frame of a video, as the pipeline has them (every frame detected whole if not
    ``skip_still``)."""
    return [seen for _, seen in _detected_frames(path, model, conf, edition, skip_still, windows)]


def _detected_frames(path: Path, model: str | None, conf: float, edition: str | None,
                     skip_still: bool = True, windows: bool = False) -> Iterator[tuple[Any, Any]]:
    """Each frame of a video with its detections, two frames in the detector at once on two cores."""
    from vision.pipeline import default_workers, detect_ahead, detector_for

    workers = default_workers()
    return detect_ahead(detector_for(edition, model, conf, workers), _frames(path), workers,
                        gate_for(skip_still, windows))


def _frames(path: Path) -> Iterator[Any]:
    from vision.sources import VideoFile

    with _native_stderr_silenced():  # FFmpeg prints its own complaint about a broken file; ours quotes the path
        source = VideoFile(path)
    try:
        frames = 0
        for frame in source:
            frames += 1
            yield frame
        if frames == 0:
            raise VisionError(f"cannot read video {str(path)!r}: no frame decodes")
    finally:
        source.close()


@contextmanager
def _native_stderr_silenced() -> Iterator[None]:
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 2)
            yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def locate(recording: str) -> tuple[Path, dict[str, Any] | None]:
    """The video of RECORDING and the truth beside it (a rendered game folder), quoting RECORDING on error."""
    path = Path(recording)
    if path.is_dir():
        video = path / "game.mp4"
        if not video.is_file():
            raise VisionError(f"{recording!r} has no game.mp4")
        return video, read_truth(path)
    if not path.is_file():
        raise VisionError(f"cannot open {recording!r}: no such file or folder")
    return path, read_truth(path.parent)


def how_known(event: dict[str, Any]) -> str:
    """What a person reading the log should know of an event besides its verdict: taken back (a correction
    replaced it), a correction, or inferred (nothing showed it: vision's report at confidence 0)."""
    if event["undone"]:
        return "taken back"
    if event["source"] == "correction":
        return "corrected"
    return "inferred" if event["source"] == "vision" and event["confidence"] == 0 else ""


def print_result(data: dict[str, Any]) -> None:
    for e in data["events"]:
        how = f"  ({how_known(e)})" if how_known(e) else ""
        mark = "" if e["accepted"] else f"  REFUSED: {e['reason']}"
        print(f"{e['elapsed']:8.2f}  {e['action']}{how}{mark}")
    print(f"violations: {len(data['violations'])}")
    for v in data["violations"]:
        print(f"  {v['elapsed']:.2f} s frame {v['frame']}: {v['action']}: {v['reason']}")
    if data["confirm"]:
        print(f"to confirm: {len(data['confirm'])}")
        for c in data["confirm"]:
            print(f"  {c['elapsed']:.2f} s frame {c['frame']}: {c['question']}")
    score = data["score"]
    print(f"{'won' if data['won'] else 'lost'} ({data['outcome']}), score {score['total']}: "
          + ", ".join(f"{k} {v}" for k, v in score.items() if k != "total"))
