"""``fuse-referee synth ...``: command-line entry to the synthetic renderer.

Kept cheap to import (no numpy/cv2 here): the handlers import the renderer when they run.
"""

from __future__ import annotations

import argparse
import sys


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``synth`` (with ``images`` and ``game``) to an argparse subparsers object."""
    synth = subparsers.add_parser("synth", help="render synthetic labelled tabletop images")
    sub = synth.add_subparsers(dest="synth_command", metavar="{images,game}")
    sub.required = True
    images = sub.add_parser(
        "images",
        help="render a labelled dataset (ultralytics layout)",
        description="Render N labelled images into DIR: images/, labels/ (YOLO), truth/ (JSON), data.yaml.",
    )
    images.add_argument("--n", type=int, required=False, default=100, help="number of images (default 100)")
    images.add_argument("--out", required=False, help="output directory")
    images.add_argument("--seed", type=int, default=0, help="dataset seed: same seed, same bytes (default 0)")
    images.add_argument("--start", type=int, default=0, help="index of the first image (to extend a dataset)")
    images.add_argument("--style", default="default", help="randomisation preset: default, varied, heldout, clean")
    images.add_argument(
        "--set",
        dest="overrides",
        action="append",
        default=[],
        metavar="KNOB=VALUE",
        help="override one knob of the style, e.g. --set die_px=20,40 --set tables=wood (repeatable)",
    )
    images.add_argument("--show-style", action="store_true", help="print the resolved style's knobs and exit")
    images.add_argument("--workers", type=int, default=0, help="processes (default: one per CPU core)")
    images.add_argument("--val", type=float, default=0.1, help="share of images in the validation split (default 0.1)")
    images.add_argument("--format", choices=("jpg", "png"), default="jpg")
    images.add_argument("--quiet", action="store_true", help="no progress bar")
    images.set_defaults(func=run_images)
    from datasets.gamecli import register_game

    register_game(sub)


def run_images(args: argparse.Namespace) -> int:
    from datasets.errors import DatasetError
    from datasets.style import describe, get_style

    try:
        style = get_style(args.style, args.overrides)
        if args.show_style:
            print(describe(style))
            return 0
        if not args.out:
            print("error: synth images needs --out DIR", file=sys.stderr)
            return 2
        if args.n < 1:
            print(f"error: --n must be at least 1, not {args.n}", file=sys.stderr)
            return 2
        import time

        from datasets.writer import write_dataset

        t0 = time.perf_counter()
        counts = write_dataset(
            args.out,
            args.n,
            args.seed,
            style,
            workers=args.workers,
            val_share=args.val,
            fmt=args.format,
            start=args.start,
            progress=not args.quiet,
        )
        took = time.perf_counter() - t0
    except DatasetError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    dice = sum(v for k, v in counts.items() if k[-1].isdigit())
    print(
        f"wrote {args.n} images to {args.out} in {took:.1f} s ({args.n / took:.1f} images/s): "
        f"{dice} dice and {sum(counts.values()) - dice} cards labelled"
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m datasets", description="fuse-referee synthetic renderer")
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return int(args.func(args))
