"""Measure the pipeline on rendered games with truth: ``python -m vision.evaluate GAME_DIR... [--oracle]``.

Per game:

- event log: the truth ``log`` and the referee's events (refused ones included, undone ones not) are aligned
  as sequences of action texts (longest matching subsequence; a roll's dice compared as a set, since the order
  a camera lists them in is not the order they were drawn). An aligned pair counts as matched when its times
  differ by at most ``tolerance`` seconds, except ``done`` and ``ready``, which nothing on the table shows (text
  and order only). ``exact``: every truth action matched and no other event. Unseen actions at the log's very end,
  after its last visible action, are ``unknowable`` (nothing could show them) rather than missed.
- per-chip error: over settled frames (the truth's dice on chips unchanged for ``settle`` seconds), the share of
  occupied chips (in truth or in the pipeline) whose die the pipeline has wrong or missing: ``Pipeline.chips``,
  the tracker's chips with the game's dice where it placed one. ``tracker_chip_error`` is the same for the
  tracker's chips alone (its own readings, as before the fifty-seventh session); ``chip_observations`` counts
  the wrong and all settled (chip, frame) observations.
- violations: every scripted illegal placement refused by the referee (``flagged``), and ``false`` violations
  (refused actions that are not scripted ones).
- score: the final score and result exactly the truth's.

Given several games, a last line totals them (``totals``): events matched, extra and logs exact summed, the median
per-chip error (the tracker's alone beside it) and the share wrong of all the games' settled observations together
(a long, chaotic game weighs more), violations flagged and false, scores exact.

``--oracle`` is the ORACLE PERCEPTION ablation: observations built from ``frames.json`` truth, which tests the
tracker and interpreter apart from the detector. Without it the detector reads ``game.mp4``.

``--cache DIR`` keeps each game's detections and observations (pickled) in DIR and reuses them: the detector
costs up to 90 ms a frame, the card layout about 50 ms a game second, the tracker and interpreter a fraction
of that, so with a cache a change to them is measured in seconds, and a change to the layout in a minute a
game. Detections are keyed by the game folder's name and video, the detector's threshold, the ``--model`` given
and its runtime (``$FUSE_REFEREE_BACKEND``), the contents of ``models/fuse-detector.onnx`` and
``models/die-reader.onnx`` (a retrained model is a new key; old entries are left to be deleted by hand), what
the detector sees (below), the text of the modules that
detect (``DETECTION_SOURCES``) and, unless ``--every-frame``, of those that choose where it looks
(``GATE_SOURCES``); observations also by the text of the layout's modules (``LAYOUT_SOURCES``), the catalog
and the enrolled cards. Never the oracle's.

``--every-frame`` detects every frame, as the pipeline did before still frames kept the detections of the last
frame that moved (``vision.motion``): the ablation of that gate. ``--windows`` detects only the part of a frame
that moved (``vision.regions``), as ``Pipeline(windows=True)`` does.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import pickle
import statistics
import sys
from difflib import SequenceMatcher
from pathlib import Path
from typing import Any

from vision.errors import VisionError
from vision.observation import TableObservation
from vision.pipeline import Pipeline
from vision.score import config_from_truth, read_truth, referee_run, result, video_detections, video_observations

UNSEEN = ("done", "ready")
"""Actions with no visible sign: matched by text and order only."""


def normalise(action: str) -> str:
    words = action.split()
    if words and words[0] == "roll":
        return " ".join(["roll", *sorted(words[1:])])
    return " ".join(words)


def compare_logs(truth: list[tuple[float, str]], seen: list[tuple[float, str]], tolerance: float) -> dict[str, Any]:
    a = [normalise(t) for _, t in truth]
    b = [normalise(t) for _, t in seen]
    matched, late, hit = 0, [], set()
    for block in SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks():
        for k in range(block.size):
            (t1, text), (t2, _) = truth[block.a + k], seen[block.b + k]
            if text.split()[0] in UNSEEN or abs(t1 - t2) <= tolerance:
                matched += 1
                hit.add(block.a + k)
            else:
                late.append({"action": text, "truth": t1, "seen": t2})
    # unseen actions after the last visible one (a ``ready`` just before the countdown's end): nothing could show
    # them, so not seeing them is no miss (a referee that reports one anyway is right, and matched)
    tail = len(a)
    while tail and a[tail - 1].split()[0] in UNSEEN:
        tail -= 1
    unknowable = sum(1 for i in range(tail, len(a)) if i not in hit)
    missed = len(a) - matched - unknowable
    extra = len(b) - matched
    return {"truth": len(a), "seen": len(b), "matched": matched, "missed": missed, "extra": extra,
            "unknowable": unknowable, "recall": round(matched / (len(a) - unknowable), 4) if a else 1.0,
            "precision": round(matched / len(b), 4) if b else 1.0,
            "exact": missed == 0 and extra == 0, "off_time": late[:10]}


class ChipScore:
    """Per-chip error over settled frames (see the module docstring)."""

    def __init__(self, frames: list[dict[str, Any]], settle: float = 1.0) -> None:
        self.truth: dict[int, frozenset] = {}
        self.settled: set[int] = set()
        since, previous = None, None
        for entry in frames:
            chips = _truth_chips(entry["truth"])
            if chips != previous:
                since, previous = entry["elapsed"], chips
            self.truth[entry["index"]] = chips
            if entry["elapsed"] - since >= settle:  # type: ignore[operator]
                self.settled.add(entry["index"])
        self.wrong, self.total = [0, 0], [0, 0]
        """Of the pipeline's chips, then of the tracker's."""

    def __call__(self, obs: TableObservation, pipeline: Pipeline) -> None:
        tracker = pipeline.tracker.last
        if obs.frame not in self.settled or tracker is None:
            return
        truth = self.truth[obs.frame]
        for view, chips in enumerate((pipeline.chips(), tracker.chips)):
            keys = {(c, k) for c, k, _ in truth} | {(c, k) for c, k, _ in chips}
            self.total[view] += len(keys)
            self.wrong[view] += len(keys) - len(truth & frozenset(chips))

    def _share(self, view: int) -> float | None:
        return round(self.wrong[view] / self.total[view], 4) if self.total[view] else None

    @property
    def error(self) -> float | None:
        return self._share(0)

    @property
    def tracker_error(self) -> float | None:
        return self._share(1)


def _truth_chips(truth: dict[str, Any]) -> frozenset:
    names = {d["index"]: d["die"] for d in truth["dice"]}
    return frozenset((c["id"], s["chip"], names[s["die"]]) for c in truth["cards"]
                     for s in c.get("chips", ()) if s.get("die") is not None and s["die"] in names)


MODEL_FILES = ("fuse-detector.onnx", "die-reader.onnx")
"""The shipped model files whose contents key the cache."""
DETECTION_SOURCES = ("detector.py", "reader.py", "detections.py")
"""The modules of ``vision`` whose code makes a game's detections (what the detector sees of each frame) ..."""
GATE_SOURCES = ("motion.py", "regions.py")
"""... and those that choose what it looks at (not with ``--every-frame``)."""
LAYOUT_SOURCES = ("cards.py", "cast.py", "corners.py", "identify.py", "gallery.py", "roles.py", "observation.py")
"""The modules of ``vision`` whose code makes an observation of the detections: their text keys the cached
observations (with the catalog and the cards enrolled), so a change to them is measured, never a stale cache."""


def _stat(path: Path) -> str:
    try:
        st = path.stat()
        return f"{path.name}:{st.st_size}:{st.st_mtime_ns}"
    except OSError:
        return f"{path.name}:missing"


def _digest(path: Path) -> str:
    """A file's contents (a model checked out again is the same model)."""
    try:
        return f"{path.name}:{hashlib.sha1(path.read_bytes()).hexdigest()}"
    except OSError:
        return f"{path.name}:missing"


DETECTING = ("moved frames", "every frame", "windows")
"""What the detector sees: frames that moved (the default), every frame (``--every-frame``), or the parts of
frames that moved (``--windows``)."""


def cache_key(folder: Path, model: str | None = None, conf: float = 0.25, stage: str = "detections",
              detecting: str = DETECTING[0]) -> str:
    """The cache file name of a game's ``detections`` or ``observations`` (``--cache`` in the module docstring)."""
    from vision.cards import detector_conf
    from vision.detector import SHIPPED_MODEL, default_backend
    from vision.gallery import enrolled_path, gallery_key

    here = Path(__file__).resolve().parent
    stamp = [folder.resolve().name, str(model), str(detector_conf(conf)), _stat(folder / "game.mp4"),
             default_backend(Path(model) if model else SHIPPED_MODEL)]
    models = [here.parent / "models" / name for name in MODEL_FILES] + ([Path(model)] if model else [])
    stamp += [_digest(path) for path in models]
    sources = DETECTION_SOURCES + (() if detecting == "every frame" else GATE_SOURCES)
    stamp += [_digest(here / name) for name in sources] + ([detecting] if detecting != DETECTING[0] else [])
    if stage == "observations":
        stamp += [_digest(here / name) for name in LAYOUT_SOURCES] + [gallery_key(), _stat(enrolled_path())]
    digest = hashlib.sha1("|".join(stamp).encode()).hexdigest()[:16]
    return f"{folder.resolve().name}-{digest}.{stage}.pkl"


def _cached(path: Path, make: Any, key: Any) -> Any:
    """``make()``'s result, read from ``path`` if it is there, else made and kept (unless ``key()``, the file's
    name, changed while it was made: a model replaced meanwhile)."""
    if path.is_file():
        try:
            with path.open("rb") as f:
                return pickle.load(f)
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError):
            pass  # unreadable: made again below
    made = make()
    if key() != path.name:
        return made
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    with tmp.open("wb") as f:
        pickle.dump(made, f, protocol=pickle.HIGHEST_PROTOCOL)
    tmp.replace(path)
    return made


def cached_observations(folder: Path, cache: Path | None, detect: Any, observe: Any,
                        model: str | None = None, detecting: str = DETECTING[0]) -> list[TableObservation]:
    """``observe(detections)``'s observations of a game, with ``detect()``'s detections, each read from ``cache``
    when it holds them for this game, these models (and, for observations, this layout code)."""
    if cache is None:
        return list(observe(detect()))

    def detections() -> Any:
        def key() -> str:
            return cache_key(folder, model, detecting=detecting)

        return _cached(cache / key(), detect, key)

    def observed() -> str:
        return cache_key(folder, model, stage="observations", detecting=detecting)

    return _cached(cache / observed(), lambda: list(observe(detections())), observed)


def evaluate_game(folder: Path, oracle: bool, tolerance: float = 1.0, model: str | None = None,
                  cache: Path | None = None, detecting: str = DETECTING[0]) -> dict[str, Any]:
    from datasets.errors import DatasetError
    from datasets.game import read_frames

    truth = read_truth(folder)
    if truth is None:
        raise VisionError(f"{str(folder)!r} has no truth.json")
    config = config_from_truth(truth)
    try:
        frames = read_frames(folder)["frames"]
    except DatasetError as exc:
        raise VisionError(str(exc)) from None
    chips = ChipScore(frames)
    if oracle:
        from vision.oracle import oracle_observations

        observations = oracle_observations(folder)
    else:
        video, edition = folder / "game.mp4", config.edition
        first = float(truth.get("render", {}).get("first_elapsed", 0.0))
        if detecting not in DETECTING:
            raise VisionError(f"cannot detect {detecting!r}: expected one of {', '.join(DETECTING)}")
        still, windows = detecting != "every frame", detecting == "windows"
        observations = cached_observations(
            folder, cache,
            lambda: video_detections(video, model, edition=edition, skip_still=still, windows=windows),
            lambda found: video_observations(video, model, first_elapsed=first, edition=edition, detections=found),
            model, detecting)
    interp = referee_run(observations, config, on_frame=chips)
    data = result(interp)
    seen = [(e["elapsed"], e["action"]) for e in data["events"] if not e["undone"]]
    scripted = [v["action"] for v in truth["violations"]]
    refused = [v["action"] for v in data["violations"]]
    return {
        "game": str(folder),
        "perception": "oracle (frames.json truth)" if oracle else "detector",
        "log": compare_logs([(t, a) for t, a in truth["log"]], seen, tolerance),
        "chip_error": chips.error,
        "tracker_chip_error": chips.tracker_error,
        "chip_observations": {"wrong": chips.wrong[0], "settled": chips.total[0]},
        "violations": {"scripted": len(scripted), "flagged": sum(1 for a in scripted if a in refused),
                       "false": sum(1 for a in refused if a not in scripted)},
        "score": {"truth": truth["score"]["total"], "seen": data["score"]["total"],
                  "exact": data["score"] == truth["score"] and data["won"] == truth["won"]},
        "confirm": len(data["confirm"]),
        "first_row_off_line": interp.row_off_line,
    }


def totals(reports: list[dict[str, Any]]) -> str:
    """One line over several games' reports: events matched and extra, logs exact, the median per-chip error,
    violations flagged and false, scores exact (the figures the README gives for a set)."""
    def total(part: str, key: str) -> int:
        return sum(int(r[part][key]) for r in reports)

    def median(key: str) -> str:
        errors = [r[key] for r in reports if r.get(key) is not None]
        return f"{statistics.median(errors):.4f}" if errors else "none"

    def pooled() -> str:  # (the share of all the games' settled observations, each game weighed by its length)
        counts = [r["chip_observations"] for r in reports]
        settled = sum(c["settled"] for c in counts)
        return f"{sum(c['wrong'] for c in counts) / settled:.4f}" if settled else "none"

    return (f"{len(reports)} games: log {total('log', 'matched')}/{total('log', 'truth')} matched, "
            f"{total('log', 'extra')} extra, {total('log', 'exact')} exact; chip error median {median('chip_error')} "
            f"(the tracker's {median('tracker_chip_error')}), over all observations {pooled()}; violations "
            f"{total('violations', 'flagged')}/{total('violations', 'scripted')} flagged, "
            f"{total('violations', 'false')} false; {total('score', 'exact')} scores exact")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.evaluate", description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="--cache DIR: " + __doc__.split("``--cache DIR`` ")[1].split("\n\n")[0])
    parser.add_argument("games", nargs="+", help="rendered game folders (truth.json, frames.json[.gz], game.mp4)")
    parser.add_argument("--oracle", action="store_true", help="ORACLE PERCEPTION ablation (no detector)")
    parser.add_argument("--tolerance", type=float, default=1.0, help="seconds an event's time may be off (1.0)")
    parser.add_argument("--model", default=None, help="detector weights (default: the shipped model)")
    parser.add_argument("--cache", type=Path, default=None, metavar="DIR",
                        help="keep and reuse the detector's observations per game in DIR (see below)")
    seen = parser.add_mutually_exclusive_group()
    seen.add_argument("--every-frame", action="store_const", dest="detecting", const="every frame",
                      default=DETECTING[0], help="detect every frame, still ones too (the still-frame gate's ablation)")
    seen.add_argument("--windows", action="store_const", dest="detecting", const="windows",
                      help="detect only the part of a frame that moved (vision.regions)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    reports = []
    try:
        for game in args.games:
            reports.append(evaluate_game(Path(game), args.oracle, args.tolerance, args.model, args.cache,
                                         args.detecting))
    except VisionError as error:
        print(f"vision.evaluate: {error}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(reports, indent=1))
        return 0
    if args.oracle:
        print("# ORACLE PERCEPTION: observations from frames.json truth, not from the detector")
    for r in reports:
        log, v, s = r["log"], r["violations"], r["score"]
        print(f"{r['game']}: log {log['matched']}/{log['truth']} matched, {log['extra']} extra"
              f"{', ' + str(log['unknowable']) + ' unknowable' if log['unknowable'] else ''}"
              f"{' (exact)' if log['exact'] else ''}; chip error {r['chip_error']} (the tracker's "
              f"{r['tracker_chip_error']}); violations "
              f"{v['flagged']}/{v['scripted']} flagged, {v['false']} false; score {s['seen']} vs {s['truth']}"
              f"{' (exact)' if s['exact'] else ''}; {r['confirm']} to confirm")
    if len(reports) > 1:
        print(totals(reports))
    return 0


if __name__ == "__main__":
    sys.exit(main())
