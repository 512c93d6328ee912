"""Benchmark: the whole pipeline on a 1280x720 recording, from the decoded frame to the referee's verdict.

    fuse-referee bench pipeline [--recording datasets/sample] [--frames 300] [--fps 15]

Decodes the recording's first ``--frames`` frames, then steps the pipeline (detector, card layout, tracker,
interpreter, referee) through them as fast as it can: frames per second (state updates a second) and the
latency of each frame from the decoded image to the verdict (median, p95, max). Then it replays them as a
``--fps`` camera would deliver them, the pipeline always taking the newest frame: how many frames it judged,
and how old each frame was when its verdict came (queueing included).
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import numpy as np


def _stats(values: list[float]) -> str:
    a = np.array(values) * 1000
    return f"median {np.median(a):.1f} ms  p95 {np.percentile(a, 95):.1f} ms  max {a.max():.1f} ms"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="fuse-referee bench pipeline")
    parser.add_argument("--recording", default=None, help="a rendered game folder or video (default: the sample)")
    parser.add_argument("--frames", type=int, default=300, help="frames to use (default 300)")
    parser.add_argument("--fps", type=float, default=15.0, help="camera rate for the live replay (default 15)")
    args = parser.parse_args(argv)
    from vision.pipeline import Pipeline
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

    pipeline = Pipeline(config)
    pipeline.step(images[0], 0, 0.0)  # loads the card gallery
    latency: list[float] = []
    start = time.perf_counter()
    for i, image in enumerate(images[1:], 1):
        t0 = time.perf_counter()
        pipeline.step(image, i, i / args.fps)
        latency.append(time.perf_counter() - t0)
    wall = time.perf_counter() - start
    print(
        f"{len(images)} frames of {video} ({width}x{height}) on {os.cpu_count()} cores, "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    print(f"as fast as it goes: {len(latency) / wall:.1f} frames/s; frame -> verdict {_stats(latency)}")

    # a camera delivering frames at --fps; the pipeline takes the newest each time it is free
    pipeline = Pipeline(config)
    pipeline.step(images[0], 0, 0.0)
    period, ages, judged = 1.0 / args.fps, [], 0
    start = time.perf_counter()
    while True:
        now = time.perf_counter() - start
        newest = int(now / period)
        if newest >= len(images):
            break
        pipeline.step(images[newest], newest, newest * period)
        ages.append(time.perf_counter() - start - newest * period)
        judged += 1
        wait = (newest + 1) * period - (time.perf_counter() - start)
        if wait > 0:
            time.sleep(wait)
    print(
        f"live at {args.fps:g} fps: judged {judged} of {len(images)} frames "
        f"({judged / (len(images) * period):.1f} updates/s); frame age at verdict {_stats(ages)}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
