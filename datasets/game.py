"""``synth game``: play a seeded game (``datasets.script``), render it frame by frame at ``fps`` with one camera,
table and light throughout, and write what a referee should have seen.

    DIR/truth.json    config, the action log, the referee's events, violations, score, won, outcome
    DIR/frames.json   per frame: index, elapsed game seconds, the renderer's truth (boxes, corners, dice on chips);
                      frames.json.gz instead with ``compress`` (``read_frames`` reads either)
    DIR/game.mp4      the frames as video (``--format video``), or DIR/frames/000000.jpg ... (``--format frames``)

Frame ``i`` depends only on the game and ``i``: frames are shared out over processes and come out the same.
"""

from __future__ import annotations

import gzip
import json
import math
import os
from collections.abc import Iterator
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from datasets.errors import DatasetError
from datasets.gamescene import Timeline, pile_faces, scene_at
from datasets.progress import Progress
from datasets.raster import render
from datasets.sampler import sample_effects, sample_setting
from datasets.scene import Camera, CardFace
from datasets.script import GameOptions, PlayedGame, play
from datasets.style import describe, get_style
from datasets.tablemap import fit_camera
from datasets.writer import encode
from rules.clock import ManualClock
from rules.referee import Referee

BAGS = ((40, 40, 120), (30, 60, 40), (70, 40, 30), (25, 25, 25), (90, 60, 110))


@dataclass(frozen=True)
class RenderOptions:
    fps: float = 8.0
    width: int = 1280
    height: int = 720
    fmt: str = "video"
    """``video`` (``game.mp4``, mp4v) or ``frames`` (``frames/000000.jpg`` ...)."""
    style: str = "default"
    overrides: tuple[str, ...] = ()
    """Style knobs, ``name=value`` as ``--set`` takes them."""
    scene_seed: int | None = None
    """Seed of the camera, table, light and looks; None: the game's seed."""
    tail: float = 2.5
    """Seconds shown after the game's end."""
    workers: int = 0
    noise_cap: float = 1.5
    """Most sensor noise (sigma, grey levels) a game's frames get: it changes every frame, and a video stream's own
    compression smooths it (the style's still-image noise of up to 7 would make the video 20 times larger)."""
    compress: bool = False
    """Write ``frames.json.gz`` instead of ``frames.json`` (about 50 times smaller)."""


def build_timeline(played: PlayedGame, ro: RenderOptions) -> Timeline:
    """The game's fixed setting (style drawn from the scene seed, camera aimed at the whole table) and tracks."""
    style = get_style(ro.style, list(ro.overrides))
    seed = played.options.seed if ro.scene_seed is None else ro.scene_seed
    rng = np.random.default_rng([seed, 29])
    setting = sample_setting(rng, style)
    cam = setting.camera
    yaw = (0.0 if rng.random() < 0.5 else 180.0) + float(rng.uniform(-8, 8))
    camera = Camera(ro.width, ro.height, (0.0, 0.0), 1000.0, cam.tilt, yaw, cam.roll, cam.hfov, cam.k1)
    camera = fit_camera(camera, played.model.tmap.extent())
    setting = replace(setting, camera=camera, edition=played.config.edition)
    effects = sample_effects(rng, style)
    effects = replace(effects, motion=0.0, noise=min(effects.noise, ro.noise_cap))
    model = played.model
    faces = {name[5:]: CardFace.from_card(model.game.card(name[5:])) for name in model.tracks.tracks
             if name.startswith("card:")}
    for name in ("fuse", "spark-discard"):
        for card in model.tracks[f"pile:{name}"].last() or ():
            faces[card] = CardFace.from_card(model.game.card(card))
    first = math.floor(played.start * ro.fps)
    count = math.ceil((played.end + ro.tail) * ro.fps) - first + 1
    return Timeline(setting, effects, model.tracks, faces, pile_faces(played.config.edition), model.tmap,
                    tuple(model.tints), tuple(model.hands), BAGS[int(rng.integers(len(BAGS)))], ro.fps, first, count)


def frame_at(tl: Timeline, t: float) -> int:
    """The first frame showing game second ``t`` or later."""
    return max(0, min(tl.count - 1, math.ceil(round(t * tl.fps, 6)) - tl.first))


def game_truth(played: PlayedGame, tl: Timeline) -> dict[str, Any]:
    """The referee's view, checked: replaying the log through ``Referee`` must refuse exactly the scripted
    placements and end with the engine's score and result."""
    config = played.config
    referee = Referee(config, ManualClock())
    for t, p in played.plans:
        referee.clock.seconds = t  # type: ignore[attr-defined]
        referee.submit(str(p.action), "log", frame=frame_at(tl, p.settled))
    state = played.state
    if state.outcome is not None and state.outcome.reason == "time":
        referee.clock.seconds = played.end  # type: ignore[attr-defined]
        referee.check_time()
    outcome = referee.state.outcome
    scripted = [(str(p.action), p.illegal) for _, p in played.plans if p.illegal]
    refused = [(e.action, e.reason) for e in referee.violations]
    if refused != scripted or outcome != state.outcome or referee.state.score() != state.score():
        raise DatasetError(f"the referee disagrees with the game played: refused {refused}, scripted {scripted}, "
                           f"outcome {outcome} vs {state.outcome}")
    violations = []
    for t, p in played.plans:
        if p.illegal:
            action = p.action
            violations.append({
                "elapsed": t, "action": str(action), "reason": p.illegal, "player": f"p{p.actor + 1}",
                "card": action.card, "chip": action.chip, "die": str(action.die),  # type: ignore[union-attr]
                "frame": frame_at(tl, p.settled), "frame_taken_back": frame_at(tl, p.end - 0.5)})
    options = played.options
    return {
        "config": {"edition": config.edition, "players": config.players, "difficulty": config.difficulty,
                   "seed": options.seed, "fuse_cards": config.fuse_card_count, "limit_seconds": config.limit_seconds,
                   "policy": options.policy, "illegal": len(violations)},
        "log": [[t, text] for t, text in played.log],
        "events": [asdict(e) for e in referee.events],
        "violations": violations,
        "score": state.score(),
        "won": bool(state.outcome and state.outcome.won),
        "outcome": state.outcome.reason if state.outcome else "unfinished",
        "end": round(played.end, 3),
    }


_TIMELINE: Timeline | None = None
_OUT = ""
_FMT = ""


def _worker_init(tl: Timeline, out: str, fmt: str) -> None:
    global _TIMELINE, _OUT, _FMT
    cv2.setNumThreads(1)
    _TIMELINE, _OUT, _FMT = tl, out, fmt


def _render_frame(index: int) -> tuple[int, np.ndarray | None, dict]:
    assert _TIMELINE is not None
    scene = scene_at(_TIMELINE, index)
    image, truth = render(scene)
    if _FMT == "frames":
        path = Path(_OUT) / "frames" / f"{index:06d}.jpg"
        path.write_bytes(encode(image, "jpg", scene.effects.jpeg_quality))
        return index, None, truth
    return index, image, truth


def render_game(out: Path | str, options: GameOptions, ro: RenderOptions, progress: bool = True) -> dict[str, Any]:
    """Play, render and write one game; returns ``truth.json``'s content."""
    if ro.fmt not in ("video", "frames"):
        raise DatasetError(f"unknown format {ro.fmt!r}: expected video or frames")
    if not 0.5 <= ro.fps <= 60:
        raise DatasetError(f"--fps must be 0.5-60, not {ro.fps:g}")
    played = play(options)
    tl = build_timeline(played, ro)
    truth = game_truth(played, tl)
    root = Path(out)
    (root / "frames" if ro.fmt == "frames" else root).mkdir(parents=True, exist_ok=True)
    writer = None
    if ro.fmt == "video":
        writer = cv2.VideoWriter(str(root / "game.mp4"), cv2.VideoWriter_fourcc(*"mp4v"), ro.fps,
                                 (ro.width, ro.height))
        if not writer.isOpened():
            raise DatasetError("OpenCV cannot write mp4v video here: use --format frames")
    bar = Progress(tl.count, "game", enabled=progress)
    entries = []
    for index, image, frame_truth in _frames(tl, str(root), ro):
        if writer is not None:
            writer.write(image)
        entry = {"index": index, "elapsed": tl.elapsed(index)}
        if ro.fmt == "frames":
            entry["file"] = f"frames/{index:06d}.jpg"
        entries.append({**entry, "truth": frame_truth})
        bar.update()
    bar.close()
    if writer is not None:
        writer.release()
    style = get_style(ro.style, list(ro.overrides))
    truth["config"]["style"] = style.name
    truth["render"] = {"fps": ro.fps, "width": ro.width, "height": ro.height, "format": ro.fmt,
                       "scene_seed": options.seed if ro.scene_seed is None else ro.scene_seed,
                       "overrides": list(ro.overrides), "pace": options.pace, "hold": options.hold,
                       "noise_cap": ro.noise_cap, "frames": tl.count, "first_elapsed": tl.elapsed(0),
                       "video": "game.mp4" if ro.fmt == "video" else None,
                       "frames_json": "frames.json.gz" if ro.compress else "frames.json",
                       "setting": asdict(tl.setting), "effects": asdict(tl.effects),
                       "style": describe(style).splitlines()}
    frames = {"fps": ro.fps, "width": ro.width, "height": ro.height,
              "video": "game.mp4" if ro.fmt == "video" else None, "frames": entries}
    data = json.dumps(frames, separators=(",", ":")).encode()
    for stale in ("frames.json", "frames.json.gz"):
        (root / stale).unlink(missing_ok=True)
    if ro.compress:  # no file name or time in the header: the same game gives the same bytes
        (root / "frames.json.gz").write_bytes(gzip.compress(data, compresslevel=9, mtime=0))
    else:
        (root / "frames.json").write_bytes(data)
    (root / "truth.json").write_text(json.dumps(truth, indent=1))
    return truth


def read_frames(folder: Path | str) -> dict[str, Any]:
    """A rendered game's ``frames.json`` (or ``frames.json.gz``): ``fps``, ``width``, ``height``, ``video`` (the
    video's file name, or None for ``frames/``) and ``frames``, one ``{"index", "elapsed", "truth"[, "file"]}`` each."""
    folder = Path(folder)
    if (folder / "frames.json").is_file():
        return json.loads((folder / "frames.json").read_text())
    if (folder / "frames.json.gz").is_file():
        return json.loads(gzip.decompress((folder / "frames.json.gz").read_bytes()))
    raise DatasetError(f"{str(folder)!r} has no frames.json or frames.json.gz")


def _frames(tl: Timeline, out: str, ro: RenderOptions) -> Iterator[tuple[int, np.ndarray | None, dict]]:
    """``(index, image, truth)`` of every frame in order (the image is None when a worker wrote it as JPEG)."""
    workers = ro.workers or os.cpu_count() or 1
    if workers <= 1 or tl.count < 8:
        _worker_init(tl, out, ro.fmt)
        yield from (_render_frame(i) for i in range(tl.count))
        return
    import multiprocessing as mp

    ctx = mp.get_context("spawn")  # as datasets.writer: a forked child can hang on OpenCV's threads
    with ctx.Pool(workers, initializer=_worker_init, initargs=(tl, out, ro.fmt)) as pool:
        yield from pool.imap(_render_frame, range(tl.count), chunksize=4)
