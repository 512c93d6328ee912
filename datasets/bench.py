"""Benchmark: labelled 1280x720 images per second, written to disk as ``synth images`` writes them.

    python -m datasets.bench [--n 2000] [--workers 0]

Renders with the default style restricted to 1280x720 frames into a temporary directory. It reports
the whole run (the first images of each process also build the texture caches, as in a real run) and
the rate after the first fifth (what a long run such as 20,000 images gets), plus the CPU time per
image, which says what free cores would give when other work shares the machine.
"""

from __future__ import annotations

import argparse
import os
import resource
import tempfile
import time


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m datasets.bench")
    parser.add_argument("--n", type=int, default=2000)
    parser.add_argument("--workers", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    from datasets.style import get_style
    from datasets.writer import write_dataset

    style = get_style("default", ["sizes=1280x720"])
    workers = args.workers or os.cpu_count() or 1
    times: list[tuple[int, float]] = []
    before = _cpu_seconds()
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        write_dataset(tmp, args.n, args.seed, style, workers=workers, progress=False, times=times)
        took = time.perf_counter() - t0
    cpu = _cpu_seconds() - before
    print(f"{args.n} labelled 1280x720 images in {took:.1f} s on {workers} process(es): {args.n / took:.1f} images/s")
    first = next(((done, t) for done, t in times if done >= args.n // 5), None)
    if first and times[-1][0] > first[0]:
        steady = (times[-1][0] - first[0]) / (times[-1][1] - first[1])
        print(f"after the first {first[0]} images (texture caches built): {steady:.1f} images/s")
    print(f"CPU time {1000 * cpu / args.n:.1f} ms per image: {args.n / cpu:.1f} images/s per free core")
    return 0


def _cpu_seconds() -> float:
    """User and system time of this process and its finished children (the worker processes)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


if __name__ == "__main__":
    raise SystemExit(main())
