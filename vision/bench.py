"""Benchmark: detection latency on 1280x720 rendered frames, end to end from the decoded frame to ``Detections``.

    fuse-referee bench detect [--n 100] [--frames 10] [--model PATH] [--backend B] [--threads N]
                              [--window WxH]

Renders ``--frames`` default-style 1280x720 scenes in memory, warms up, then times ``Detector.detect`` ``--n``
times over them: median, p95 and mean wall milliseconds, CPU milliseconds per frame (what free cores would
give when other work shares the machine), and for ONNX the split into letterbox, network and decoding.
``--window WxH`` times ``Detector.detect_window`` on a part of that size (frame pixels) in the middle of each
frame instead: what a frame that moved there costs the pipeline with ``windows``.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np


def frames(count: int, seed: int) -> list[np.ndarray]:
    """``count`` rendered 1280x720 BGR frames of the default style."""
    from datasets.raster import render
    from datasets.sampler import scene_for
    from datasets.style import get_style

    style = get_style("default", ["sizes=1280x720"])
    return [render(scene_for(seed, i, style))[0] for i in range(count)]


def _ms(values: list[float]) -> str:
    a = np.array(values) * 1000
    return f"median {np.median(a):.1f} ms  p95 {np.percentile(a, 95):.1f} ms  mean {a.mean():.1f} ms"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="fuse-referee bench detect")
    parser.add_argument("--n", type=int, default=100, help="timed detections (default 100)")
    parser.add_argument("--frames", type=int, default=10, help="distinct rendered frames (default 10)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--model", default=None, help="weights (default: the shipped ONNX)")
    parser.add_argument("--backend", default=None,
                        help="openvino (default), openvino-bf16, onnx (ONNX Runtime) or torch (a .pt)")
    parser.add_argument("--imgsz", default=None, help="network input WxH (torch backend)")
    parser.add_argument("--threads", type=int, default=None, help="ONNX Runtime threads (default: every core)")
    parser.add_argument("--window", default=None, help="time a window of WxH frame pixels instead of the frame")
    args = parser.parse_args(argv)
    from vision.detector import Detector

    images = frames(args.frames, args.seed)
    detector = Detector(args.model, backend=args.backend, imgsz=args.imgsz, threads=args.threads)
    detect = detector.detect
    if args.window:
        try:
            width, height = (int(v) for v in args.window.lower().split("x"))
        except ValueError:
            parser.error(f"--window {args.window!r}: expected WxH in pixels, such as 640x384")
        box = (640 - width / 2, 360 - height / 2, 640 + width / 2, 360 + height / 2)
        detect = lambda image: detector.detect_window(image, box)[0]  # noqa: E731
    for image in images[:5]:
        detect(image)
    wall: list[float] = []
    found = 0
    cpu0 = time.process_time()
    for i in range(args.n):
        start = time.perf_counter()
        found += len(detect(images[i % len(images)]))
        wall.append(time.perf_counter() - start)
    cpu = (time.process_time() - cpu0) / args.n * 1000
    size = f"{detector.size[0]}x{detector.size[1]}"
    load = os.getloadavg()[0]
    print(f"{detector.path.name} ({detector.backend}, input {size}) on {os.cpu_count()} cores, load average {load:.1f}")
    what = f"a {args.window} window of a 1280x720 frame" if args.window else "1280x720 frame"
    print(f"detect, {what} -> Detections, {args.n} runs: {_ms(wall)}")
    print(f"CPU time {cpu:.1f} ms per frame; {found / args.n:.1f} detections per frame")
    if detector.backend != "torch" and not args.window:
        stages: dict[str, list[float]] = {"letterbox": [], "network": [], "decode": [], "read dice": []}
        for i in range(min(args.n, 30)):
            image = images[i % len(images)]
            t0 = time.perf_counter()
            blob, scale, pad = detector.preprocess(image)
            t1 = time.perf_counter()
            output = detector.infer(blob)
            t2 = time.perf_counter()
            located = detector.postprocess(output, scale, pad, (image.shape[1], image.shape[0]))
            t3 = time.perf_counter()
            detector.read_dice(image, located)
            t4 = time.perf_counter()
            for key, value in zip(stages, (t1 - t0, t2 - t1, t3 - t2, t4 - t3)):
                stages[key].append(value)
        print("stages: " + "; ".join(f"{k} {1000 * np.median(v):.1f} ms" for k, v in stages.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
