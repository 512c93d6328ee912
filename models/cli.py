"""``fuse-referee train`` and ``fuse-referee eval``: the detector's training and evaluation commands.

Kept cheap to import: ultralytics, numpy and OpenCV load only when a command runs.
"""

from __future__ import annotations

import argparse
import json
import sys


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``train`` and ``eval`` to an argparse subparsers object."""
    train = subparsers.add_parser(
        "train",
        help="train the dice-and-cards detector from scratch (ultralytics, offline)",
        description="Train YOLO11 from scratch on a dataset made by `fuse-referee synth images`.",
    )
    train.add_argument("--data", default=None, help="dataset directory (or its data.yaml); not with --resume")
    train.add_argument("--epochs", type=int, default=30, help="epochs (default 30)")
    train.add_argument("--imgsz", type=int, default=640, help="square training size in pixels (default 640)")
    train.add_argument("--batch", type=int, default=16, help="images per batch (default 16)")
    train.add_argument("--device", default="cpu", help="cpu, or a CUDA index such as 0 (default cpu)")
    train.add_argument("--model", default="yolo11n.yaml", help="architecture file (default yolo11n.yaml)")
    train.add_argument("--project", default="runs/detect", help="where runs go (default runs/detect)")
    train.add_argument("--name", default="fuse", help="run name: PROJECT/NAME (default fuse)")
    train.add_argument("--seed", type=int, default=0, help="training seed (default 0)")
    train.add_argument("--workers", type=int, default=1, help="data-loading processes (default 1)")
    train.add_argument("--hours", type=float, default=None, help="stop after this many hours (fits the schedule)")
    train.add_argument("--cache", choices=("ram", "disk"), default=None, help="cache decoded images")
    train.add_argument("--resume", action="store_true", help="continue PROJECT/NAME/weights/last.pt")
    train.add_argument(
        "--stage",
        choices=("locator", "reader"),
        default="locator",
        help="locator: the YOLO network that finds dice and cards; reader: the die reader's CNN (default locator)",
    )
    train.add_argument("--init", default=None, help="start from these weights (.pt; layers of matching shape)")
    train.add_argument(
        "--set", dest="extra", action="append", default=[], metavar="KEY=VALUE", help="any ultralytics setting"
    )
    train.set_defaults(func=run_train)

    evaluate = subparsers.add_parser(
        "eval",
        help="score the detector on a rendered dataset: mAP, face and colour accuracy, misses",
        description="Evaluate the detector on every image of a dataset in the renderer's layout (truth/*.json).",
    )
    evaluate.add_argument("--data", required=True, help="dataset directory (images/ and truth/)")
    evaluate.add_argument("--model", default=None, help="weights (.onnx or .pt; default: the shipped model)")
    evaluate.add_argument("--reader", default=None, help="die reader (.onnx; default: the shipped one)")
    evaluate.add_argument("--backend", default=None,
                        help="openvino (default), openvino-bf16, onnx (ONNX Runtime) or torch (a .pt)")
    evaluate.add_argument("--imgsz", default=None, help="inference size WxH or W (default: the model's)")
    evaluate.add_argument("--limit", type=int, default=0, help="only the first N images (default all)")
    evaluate.add_argument("--json", action="store_true", help="print one JSON object")
    evaluate.set_defaults(func=run_eval)


def _value(text: str) -> object:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return {"true": True, "false": False}.get(text.lower(), text)


def run_train(args: argparse.Namespace) -> int:
    from models.errors import ModelsError
    from models.train import train

    try:
        if args.data is None and not args.resume:
            raise ModelsError("--data is required (a dataset directory or its data.yaml), unless --resume")
        extra = {}
        for item in args.extra:
            key, sep, value = item.partition("=")
            if not sep:
                raise ModelsError(f"--set wants KEY=VALUE, got {item!r}")
            extra[key.strip()] = _value(value.strip())
        run = train(
            args.data or "",
            epochs=args.epochs,
            imgsz=args.imgsz,
            batch=args.batch,
            device=args.device,
            model=args.model,
            project=args.project,
            name=args.name,
            seed=args.seed,
            workers=args.workers,
            hours=args.hours,
            cache=args.cache or False,
            resume=args.resume,
            init=args.init,
            stage=args.stage,
            extra=extra,
        )
    except ModelsError as error:
        print(f"fuse-referee train: {error}", file=sys.stderr)
        return 2
    print(f"run: {run}")
    return 0


def run_eval(args: argparse.Namespace) -> int:
    from models.errors import ModelsError
    from models.evaluate import evaluate, format_report
    from vision.errors import VisionError

    try:
        report = evaluate(
            args.data, model=args.model, backend=args.backend, imgsz=args.imgsz, limit=args.limit, reader=args.reader
        )
    except (ModelsError, VisionError) as error:
        print(f"fuse-referee eval: {error}", file=sys.stderr)
        return 2
    print(json.dumps(report, indent=2) if args.json else format_report(report))
    return 0
