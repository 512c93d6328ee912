"""The ``fuse-referee`` command: one entry point whose subcommands come from each package.

Each package's ``cli.register(subparsers)`` adds its commands; a package's heavy imports (OpenCV, Flask,
the detector) happen only when one of its commands runs.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

COMMAND_MODULES = ("rules.cli", "datasets.cli", "webui.commands", "models.cli", "vision.cli")
BENCHMARKS = {
    "rules": "rules.bench",
    "synth": "datasets.bench",
    "webui": "webui.bench",
    "detect": "vision.bench",
    "pipeline": "vision.bench_pipeline",
}


def run_benchmark(args: argparse.Namespace) -> int:
    """``fuse-referee bench TARGET [options]``: each target's own ``main(argv)`` prints its figures; a bad input
    (a missing model or recording) is the one-line error of the package that refused it."""
    from datasets.errors import DatasetError
    from models.errors import ModelsError
    from rules.errors import RulesError
    from vision.errors import VisionError
    from webui.errors import WebUIError

    module = importlib.import_module(BENCHMARKS[args.target])
    try:
        return int(module.main(args.options))
    except (DatasetError, ModelsError, RulesError, VisionError, WebUIError) as error:
        print(f"fuse-referee bench {args.target}: {error}", file=sys.stderr)
        return 2


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="fuse-referee", description="Referee, scorer and table assistant for FUSE and FUSE: Countdown."
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    bench = subparsers.add_parser("bench", help="print speed figures (see the README for each target)")
    bench.add_argument("target", choices=sorted(BENCHMARKS))
    bench.add_argument("options", nargs=argparse.REMAINDER, help="the target's own options (--help for them)")
    bench.set_defaults(func=run_benchmark)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
