"""Benchmark: the whole pipeline on a 1280x720 recording, from the decoded frame to the referee's verdict.

    fuse-referee bench pipeline [--recording datasets/sample] [--frames 300] [--fps 15] [--workers N]
                                [--model M] [--every-frame | --windows]

Decodes the recording's first ``--frames`` frames, then runs the pipeline (detector, card layout, tracker,
interpreter, referee) through them as fast as it can, ``--workers`` frames in the detector at once (default:
one, as the dashboard's live feed: ``vision.pipeline.LIVE_WORKERS``): frames per second (state updates a second)
and the latency of each frame from the decoded image to the verdict (median, p95, max). Then it replays them as a
``--fps`` camera would deliver them, the pipeline always taking the newest frame when a detector is free: how
many frames it judged, and how old each frame was when its verdict came (queueing included). A frame that did
not move since the last detected one keeps its detections, as in the live feed (``vision.motion``; the share
is printed); ``--every-frame`` detects every frame, the cost of a table where something always moves;
``--windows`` detects only the part of a frame that moved (``vision.regions``).
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from vision.sources import Frame


def _stats(values: list[float]) -> str:
    a = np.array(values) * 1000
    return f"median {np.median(a):.1f} ms  p95 {np.percentile(a, 95):.1f} ms  max {a.max():.1f} ms"


def _camera(images: list[np.ndarray], fps: float, clock: list[float]) -> Iterator[Frame]:
    """The frames as a ``fps`` camera delivers them from when the first is taken (``clock[0]``, set here): each
    time one is asked for, the newest not yet given (waiting for the next when the newest was)."""
    period, given = 1.0 / fps, -1
    clock.append(time.perf_counter())
    while True:
        newest = int((time.perf_counter() - clock[0]) / period)
        if newest >= len(images):
            return
        if newest == given:
            time.sleep(max(0.0, (newest + 1) * period - (time.perf_counter() - clock[0])))  # (the clock ran on)
            continue
        given = newest
        yield Frame(newest, newest * period, images[newest])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="fuse-referee bench pipeline")
    parser.add_argument("--recording", default=None, help="a rendered game folder or video (default: the sample)")
    parser.add_argument("--frames", type=int, default=300, help="frames to use (default 300)")
    parser.add_argument("--fps", type=float, default=15.0, help="camera rate for the live replay (default 15)")
    parser.add_argument("--workers", type=int, default=None, help="frames in the detector at once (default: "
                                                                    "1, as the live feed)")
    parser.add_argument("--model", default=None, help="locator weights (default: the shipped ONNX)")
    seen = parser.add_mutually_exclusive_group()
    seen.add_argument("--every-frame", action="store_true", help="detect every frame, still ones too")
    seen.add_argument("--windows", action="store_true", help="detect only the part of a frame that moved")
    args = parser.parse_args(argv)
    from vision.pipeline import LIVE_WORKERS, Pipeline
    from vision.score import config_from_truth, locate
    from vision.sources import VideoFile
    sample = Path(__file__).resolve().parent.parent / "datasets" / "sample"
    video, truth = locate(args.recording or str(sample))
    config = config_from_truth(truth) if truth else None
    if config is None:
        print("the recording needs a truth.json beside it for its game config")
        return 2
    source = VideoFile(video)
    images = [frame.image for _, frame in zip(range(args.frames), source)]
    source.close()
    height, width = images[0].shape[:2]
    workers = args.workers or LIVE_WORKERS

    def pipeline() -> Pipeline:
        made = Pipeline(config, model=args.model, workers=workers, skip_still=not args.every_frame,
                        windows=args.windows)
        made.step(images[0], 0, 0.0)  # loads the networks and the card gallery
        return made

    frames = [Frame(i, i / args.fps, image) for i, image in enumerate(images[1:], 1)]
    taken: dict[int, float] = {}

    def timed(frames: Iterator[Frame]) -> Iterator[Frame]:
        for frame in frames:
            taken[frame.index] = time.perf_counter()
            yield frame

    def skipped(made: Pipeline, judged: int) -> str:
        return f"; {made.gate.still} of {judged} judged frames still (not detected)" if made.gate else ""

    latency: list[float] = []
    fast = pipeline()
    start = time.perf_counter()
    for frame, _ in fast.run(timed(iter(frames))):
        latency.append(time.perf_counter() - taken[frame.index])
    wall = time.perf_counter() - start
    print(
        f"{len(images)} frames of {video} ({width}x{height}) on {os.cpu_count()} cores, {workers} in the detector "
        f"at once, {Path(args.model).name if args.model else 'the shipped locator'}, "
        f"{'every frame detected' if args.every_frame else 'moved frames detected'}"
        f"{' where they moved' if args.windows else ''}, "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    print(
        f"as fast as it goes: {len(latency) / wall:.1f} frames/s; frame -> verdict {_stats(latency)}"
        f"{skipped(fast, len(latency))}"
    )

    live, clock, ages = pipeline(), [], []
    for frame, _ in live.run(_camera(images, args.fps, clock)):
        ages.append(time.perf_counter() - clock[0] - frame.time)
    span = len(images) / args.fps
    print(
        f"live at {args.fps:g} fps: judged {len(ages)} of {len(images)} frames "
        f"({len(ages) / span:.1f} updates/s); frame age at verdict {_stats(ages)}{skipped(live, len(ages))}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
