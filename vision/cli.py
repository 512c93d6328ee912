"""``fuse-referee detect IMAGE``: the dice and cards the detector sees in one photo.

Kept cheap to import: numpy, OpenCV and ONNX Runtime load only when the command runs.
"""

from __future__ import annotations

import argparse
import json
import sys


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``detect`` to an argparse subparsers object."""
    detect = subparsers.add_parser(
        "detect",
        help="detect dice and cards in one image",
        description="Print the dice (colour, face) and cards (type) the detector finds in IMAGE, in its pixels.",
    )
    detect.add_argument("image", help="image file (jpg, png, ...)")
    detect.add_argument("--model", default=None, help="weights (.onnx or .pt; default: the shipped model)")
    detect.add_argument("--backend", choices=("onnx", "torch"), default=None, help="runtime (default from suffix)")
    detect.add_argument("--imgsz", default=None, help="network input WxH (torch backend; default the model's)")
    detect.add_argument("--conf", type=float, default=0.25, help="confidence threshold (default 0.25)")
    detect.add_argument("--save", metavar="PATH", default=None, help="write an annotated copy of the image")
    detect.add_argument("--json", action="store_true", help="print JSON")
    detect.set_defaults(func=run_detect)


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
