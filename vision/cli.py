"""``fuse-referee detect IMAGE``: the dice and cards the detector sees in one photo; ``fuse-referee enrol PHOTO``.

Kept cheap to import: numpy, OpenCV and ONNX Runtime load only when the command runs.
"""

from __future__ import annotations

import argparse
import json
import sys


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``detect`` and ``enrol`` to an argparse subparsers object."""
    detect = subparsers.add_parser(
        "detect",
        help="detect dice and cards in one image",
        description="Print the dice (colour, face) and cards (type) the detector finds in IMAGE, in its pixels.",
    )
    detect.add_argument("image", help="image file (jpg, png, ...)")
    detect.add_argument("--model", default=None, help="weights (.onnx or .pt; default: the shipped model)")
    detect.add_argument("--backend", default=None,
                        help="openvino (default), openvino-bf16, onnx (ONNX Runtime) or torch (a .pt)")
    detect.add_argument("--imgsz", default=None, help="network input WxH (torch backend; default the model's)")
    detect.add_argument("--conf", type=float, default=0.25, help="confidence threshold (default 0.25)")
    detect.add_argument("--save", metavar="PATH", default=None, help="write an annotated copy of the image")
    detect.add_argument("--json", action="store_true", help="print JSON")
    detect.set_defaults(func=run_detect)
    register_score(subparsers)
    enrol = subparsers.add_parser(
        "enrol",
        help="enrol a card from a photo, so the camera recognises it",
        description="Find the card in PHOTO and store its face under a catalog id, or add it to the catalog as a "
        "new card (--notation and --points) and store it under the new id.",
    )
    enrol.add_argument("photo", help="photo of the card, face up on a table (jpg, png, ...)")
    enrol.add_argument("--id", dest="card_id", default=None, help="the card's catalog id (e.g. F-011)")
    enrol.add_argument("--notation", default=None, help="a new card's notation, e.g. '[#] = [#] = [#]'")
    enrol.add_argument("--points", type=int, default=None, help="a new card's points (1-6)")
    enrol.add_argument("--edition", choices=("fuse", "countdown"), default="fuse")
    enrol.set_defaults(func=run_enrol)


def annotate(image: object, detections: object) -> object:
    """A copy of ``image`` with boxes: dice yellow with colour and face, cards green with their type."""
    import cv2

    from vision.detections import Detections

    assert isinstance(detections, Detections)
    out = image.copy()  # type: ignore[attr-defined]
    for (x1, y1, x2, y2), name, card, conf in zip(
        detections.xyxy.astype(int), detections.class_name, detections.is_card, detections.confidence
    ):
        colour = (80, 220, 80) if card else (0, 230, 255)
        cv2.rectangle(out, (x1, y1), (x2, y2), colour, 2 if card else 1)
        cv2.putText(out, f"{name} {conf:.2f}", (x1, max(10, y1 - 3)), cv2.FONT_HERSHEY_SIMPLEX, 0.4, colour, 1)
    return out


def run_detect(args: argparse.Namespace) -> int:
    from vision.detector import Detector, read_image
    from vision.errors import VisionError

    try:
        image = read_image(args.image)
        detections = Detector(args.model, backend=args.backend, imgsz=args.imgsz, conf=args.conf).detect(image)
        if args.save:
            import cv2

            if not cv2.imwrite(args.save, annotate(image, detections)):
                raise VisionError(f"cannot write {args.save!r}: unknown image suffix or unwritable folder")
    except VisionError as error:
        print(f"fuse-referee detect: {error}", file=sys.stderr)
        return 2
    result = detections.to_json()
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"{args.image}: {len(result['dice'])} dice, {len(result['cards'])} cards")
    for die in result["dice"]:
        print(f"  die  {die['colour']:<13} {die['face']}  {die['confidence']:.2f}  box {die['box']}")
    for card in result["cards"]:
        print(f"  card {card['type']:<15} {card['confidence']:.2f}  box {card['box']}")
    return 0


def run_enrol(args: argparse.Namespace) -> int:
    from vision.detector import read_image
    from vision.enrol import enrol_card
    from vision.errors import VisionError

    try:
        entry = enrol_card(
            read_image(args.photo), args.card_id, notation=args.notation, points=args.points, edition=args.edition
        )
    except VisionError as error:
        print(f"fuse-referee enrol: {error}", file=sys.stderr)
        return 2
    print(f"enrolled {entry.card_id} ({entry.edition} {entry.kind}, {entry.points} points) {entry.notation}".rstrip())
    return 0


def register_score(subparsers: argparse._SubParsersAction) -> None:
    """Add ``score`` to an argparse subparsers object."""
    score = subparsers.add_parser(
        "score",
        help="referee and score a recorded game (video, or a rendered game folder)",
        description="Run a recording through the whole pipeline (detector, card reader, settled-state tracker, "
        "interpreter, referee) and print the event log, violations, questions to confirm and the final score. "
        "RECORDING is a video file or a rendered game folder (game.mp4, with truth.json giving the config).",
    )
    score.add_argument("recording", help="video file, or a folder with game.mp4")
    score.add_argument("--edition", choices=("fuse", "countdown"), default=None, help="default: truth.json, or fuse")
    score.add_argument("--players", type=int, default=None, help="default: truth.json, or 2")
    score.add_argument("--difficulty", default=None, help="default: truth.json, or standard")
    score.add_argument("--fuse-cards", type=int, default=None, help="Countdown at Expert and above: 1-10")
    score.add_argument("--limit-seconds", type=int, default=None, help="the countdown (default: truth.json, or 600)")
    score.add_argument("--clock-start", type=float, default=0.0,
                       help="seconds into the video at which the countdown starts (default 0)")
    score.add_argument("--model", default=None, help="detector weights (default: the shipped model)")
    score.add_argument("--conf", type=float, default=0.25,
                       help="confidence a detection needs (default 0.25; a die on a chip: 0.4 of it)")
    score.add_argument("--windows", action="store_true",
                       help="detect only the part of a frame that moved: faster, but fewer events right (README)")
    score.add_argument("--oracle", action="store_true",
                       help="ORACLE PERCEPTION ablation: observations from the folder's frames.json truth, no detector")
    score.add_argument("--json", action="store_true", help="print JSON (truth.json's shape, plus confirm)")
    score.set_defaults(func=run_score)


def run_score(args: argparse.Namespace) -> int:
    from rules.config import GameConfig
    from rules.errors import RulesError
    from vision.errors import VisionError
    from vision.interpret import InterpreterSettings
    from vision.score import config_from_truth, locate, print_result, referee_run, result, video_observations

    try:
        video, truth = locate(args.recording)
        chosen = (args.edition, args.players, args.difficulty, args.fuse_cards, args.limit_seconds)
        if truth is not None and all(v is None for v in chosen):
            config = config_from_truth(truth)
        else:
            config = GameConfig(args.edition or "fuse", args.players or 2, args.difficulty or "standard",
                                args.fuse_cards, limit_seconds=args.limit_seconds or 600)
        first = float(truth["render"].get("first_elapsed", 0.0)) if truth and "render" in truth else 0.0
        if args.oracle:
            from vision.oracle import oracle_observations

            observations = oracle_observations(video.parent)
        else:
            observations = video_observations(video, args.model, args.conf, first, config.edition,
                                              windows=args.windows)
        interp = referee_run(observations, config, interpreter=InterpreterSettings(clock_start=args.clock_start))
    except (VisionError, RulesError) as error:
        print(f"fuse-referee score: {error}", file=sys.stderr)
        return 2
    data = result(interp)
    if args.oracle:
        data["perception"] = "oracle (frames.json truth, not the detector)"
    if args.json:
        print(json.dumps(data))
    else:
        if args.oracle:
            print("# ORACLE PERCEPTION: observations from frames.json truth, not from the detector")
        print_result(data)
    return 0
