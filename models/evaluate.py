"""Score the detector on a dataset in the renderer's layout (``truth/*.json`` next to ``images/``).

mAP50 and mAP50-95 per class (all detections down to confidence 0.001); at the operating threshold
(``Detector`` default 0.25): top-face and colour accuracy of dice matched one-to-one at IoU >= 0.5 whatever
their class, misses and false alarms per image, recall and accuracy by die size (the small-dice figures), faces
read right by the die's colour and size, and the commonest colour misreads.
Cards are scored by their boxes; their corners (in the truth JSON) are estimated later by the pipeline.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

from models.errors import EvaluationError
from models.metrics import average_precision, box_iou, match, true_positives
from vision.detections import CARD_TYPES, split_die_name

SIZE_BINS: tuple[tuple[float, float], ...] = ((0, 16), (16, 24), (24, 36), (36, float("inf")))
"""Die sizes (longer box side, frame pixels) for the small-dice figures."""
ALL_CONF = 0.001


def load_truth(path: Path) -> tuple[Path, np.ndarray, list[str], str]:
    """One truth JSON -> (image path, labelled boxes (N, 4), their class names, die faces: numeral or pip)."""
    truth = json.loads(path.read_text())
    objects = [o for o in truth["dice"] + truth["cards"] if o.get("label")]
    boxes = np.array([o["box"] for o in objects], np.float32).reshape(-1, 4)
    faces = truth.get("setting", {}).get("die_look", {}).get("faces", "numeral")
    return path.parent.parent / truth["image"], boxes, [o["label"] for o in objects], faces


def _ratio(num: float, den: float) -> float | None:
    return round(num / den, 4) if den else None


def _mean(values: list[float]) -> float | None:
    values = [v for v in values if not np.isnan(v)]
    return round(float(np.mean(values)), 4) if values else None


class _Tally:
    """Running sums of the operating-point figures."""

    def __init__(self) -> None:
        self.count: dict[str, int] = {}
        self.bins = [{"dice": 0, "found": 0, "face": 0, "colour": 0} for _ in SIZE_BINS]
        self.by_colour: dict[str, list[list[int]]] = {}  # truth colour -> per size bin [found, face right]
        self.misreads: Counter[tuple[str, str]] = Counter()  # (truth colour, colour read) of found dice

    def add(self, key: str, value: int = 1) -> None:
        self.count[key] = self.count.get(key, 0) + value

    def score(
        self, pred: np.ndarray, pred_names: list[str], gt: np.ndarray, gt_names: list[str], dice: bool, faces: str
    ) -> None:
        kind = "dice" if dice else "cards"
        pairs = match(box_iou(pred, gt), 0.5) if len(pred) and len(gt) else []
        self.add(f"{kind}_truth", len(gt))
        self.add(f"{kind}_matched", len(pairs))
        self.add(f"{kind}_false_alarms", len(pred) - len(pairs))
        found = {t: p for p, t in pairs}
        for t, name in enumerate(gt_names):
            p = found.get(t)
            if dice:
                colour, face = split_die_name(name)
                got = split_die_name(pred_names[p]) if p is not None else ("", -1)
                self.add("face_ok", int(got[1] == face))
                self.add(f"{faces}_matched", int(p is not None))
                self.add(f"{faces}_face_ok", int(got[1] == face))
                self.add("colour_ok", int(got[0] == colour))
                side = float(max(gt[t, 2] - gt[t, 0], gt[t, 3] - gt[t, 1]))
                b = next(i for i, (lo, hi) in enumerate(SIZE_BINS) if lo <= side < hi)
                self.bins[b]["dice"] += 1
                self.bins[b]["found"] += int(p is not None)
                self.bins[b]["face"] += int(got[1] == face)
                self.bins[b]["colour"] += int(got[0] == colour)
                if p is not None:
                    counts = self.by_colour.setdefault(colour, [[0, 0] for _ in SIZE_BINS])[b]
                    counts[0], counts[1] = counts[0] + 1, counts[1] + int(got[1] == face)
                    if got[0] != colour:
                        self.misreads[(colour, got[0])] += 1
            elif p is not None:
                self.add("type_ok", int(pred_names[p] == name))


def evaluate(
    data: str | Path,
    *,
    model: str | Path | None = None,
    backend: str | None = None,
    imgsz: str | None = None,
    limit: int = 0,
    conf: float = 0.25,
    reader: str | Path | None = None,
) -> dict[str, Any]:
    """Evaluate a model (default: the shipped ONNX) on every truth JSON under ``data``; a report dict."""
    from vision.detector import Detector, read_image

    files = sorted(Path(data).glob("truth/*.json"))[: limit or None]
    if not files:
        raise EvaluationError(f"no truth/*.json under {str(data)!r}: expected a dataset from fuse-referee synth")
    detector = Detector(model, backend=backend, imgsz=imgsz, conf=ALL_CONF, max_det=300, reader=reader)
    index = {name: i for i, name in enumerate(detector.names)}
    is_card = np.array([name in CARD_TYPES for name in detector.names])
    records: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []  # tp, conf, class, agnostic tp
    truth_count = np.zeros(len(detector.names), int)
    tally, seconds = _Tally(), 0.0
    for path in files:
        image_path, gt_box, gt_names, faces = load_truth(path)
        unknown = [n for n in gt_names if n not in index]
        if unknown:
            raise EvaluationError(f"{path.name}: classes {unknown} are not among the model's")
        gt_cls = np.array([index[n] for n in gt_names], np.int64)
        np.add.at(truth_count, gt_cls, 1)
        image = read_image(image_path)
        start = time.perf_counter()
        det = detector.detect(image)
        seconds += time.perf_counter() - start
        tp = true_positives(det.xyxy, det.class_id, gt_box, gt_cls)
        agnostic = true_positives(det.xyxy, is_card[det.class_id].astype(int), gt_box, is_card[gt_cls].astype(int))
        records.append((tp, det.confidence, det.class_id, agnostic[:, 0]))
        # matched at the locator's confidence: a die found but misread counts against accuracy, not as a miss
        keep = det[det.data.get("located", det.confidence) >= conf]
        keep_card = is_card[keep.class_id]
        names = keep.class_name
        for dice in (True, False):
            sel = np.flatnonzero(~keep_card if dice else keep_card)
            gsel = np.flatnonzero(~is_card[gt_cls] if dice else is_card[gt_cls])
            picked = [names[i] for i in sel]
            tally.score(keep.xyxy[sel], picked, gt_box[gsel], [gt_names[i] for i in gsel], dice, faces)
    return _report(data, detector, files, records, truth_count, tally, seconds, is_card, conf)


def _report(
    data: str | Path,
    detector: Any,
    files: list[Path],
    records: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]],
    truth_count: np.ndarray,
    tally: _Tally,
    seconds: float,
    is_card: np.ndarray,
    conf: float,
) -> dict[str, Any]:
    tp = np.concatenate([r[0] for r in records]) if records else np.zeros((0, 10), bool)
    confidence = np.concatenate([r[1] for r in records]) if records else np.zeros(0)
    cls = np.concatenate([r[2] for r in records]) if records else np.zeros(0, int)
    located = np.concatenate([r[3] for r in records]) if records else np.zeros(0, bool)
    ap = np.array([average_precision(tp[cls == c], confidence[cls == c], truth_count[c]) for c in range(len(is_card))])
    dice_pred = ~is_card[cls]
    located_ap = average_precision(located[dice_pred, None], confidence[dice_pred], int(truth_count[~is_card].sum()))
    c, n = tally.count, len(files)
    per_class = {
        name: {"truth": int(truth_count[i]), "ap50": _mean([ap[i, 0]]), "ap50_95": _mean([float(np.mean(ap[i]))])}
        for i, name in enumerate(detector.names)
        if truth_count[i]
    }
    return {
        "data": str(data),
        "model": str(detector.path),
        "backend": detector.backend,
        "input": f"{detector.size[0]}x{detector.size[1]}",
        "images": n,
        "conf": conf,
        "dice_map50": _mean(list(ap[~is_card, 0])),
        "dice_map50_95": _mean(list(ap[~is_card].mean(1))),
        "cards_map50": _mean(list(ap[is_card, 0])),
        "cards_map50_95": _mean(list(ap[is_card].mean(1))),
        "map50": _mean(list(ap[:, 0])),
        "map50_95": _mean(list(ap.mean(1))),
        "dice_located_ap50": _mean([float(located_ap[0])]),
        "face_accuracy": _ratio(c.get("face_ok", 0), c.get("dice_matched", 0)),
        "colour_accuracy": _ratio(c.get("colour_ok", 0), c.get("dice_matched", 0)),
        "face_accuracy_numeral": _ratio(c.get("numeral_face_ok", 0), c.get("numeral_matched", 0)),
        "face_accuracy_pip": _ratio(c.get("pip_face_ok", 0), c.get("pip_matched", 0)),
        "card_type_accuracy": _ratio(c.get("type_ok", 0), c.get("cards_matched", 0)),
        "dice_truth": c.get("dice_truth", 0),
        "dice_matched": c.get("dice_matched", 0),
        "dice_misses_per_image": _ratio(c.get("dice_truth", 0) - c.get("dice_matched", 0), n),
        "dice_false_alarms_per_image": _ratio(c.get("dice_false_alarms", 0), n),
        "card_misses_per_image": _ratio(c.get("cards_truth", 0) - c.get("cards_matched", 0), n),
        "card_false_alarms_per_image": _ratio(c.get("cards_false_alarms", 0), n),
        "dice_by_size": [
            {
                "px": f"{lo:g}-{hi:g}",
                "dice": b["dice"],
                "recall": _ratio(b["found"], b["dice"]),
                "face_accuracy": _ratio(b["face"], b["found"]),
                "colour_accuracy": _ratio(b["colour"], b["found"]),
            }
            for (lo, hi), b in zip(SIZE_BINS, tally.bins)
        ],
        "faces_by_colour": {
            colour: [
                {"px": f"{lo:g}-{hi:g}", "found": found, "face_accuracy": _ratio(right, found)}
                for (lo, hi), (found, right) in zip(SIZE_BINS, bins)
            ]
            for colour, bins in sorted(tally.by_colour.items())
        },
        "colour_misreads": [
            {"truth": truth, "read": read, "count": count} for (truth, read), count in tally.misreads.most_common(10)
        ],
        "ms_per_image": round(1000 * seconds / max(n, 1), 1),
        "per_class": per_class,
    }


def format_report(report: dict[str, Any]) -> str:
    """The report as text: headline figures, dice by size, faces by colour and size, colour misreads, then one
    line per class."""

    def f(value: Any) -> str:
        return "-" if value is None else f"{value:.3f}" if isinstance(value, float) else str(value)

    r = report
    lines = [f"{r['images']} images of {r['data']}, {r['model']} ({r['backend']}, input {r['input']})"]
    keys = [
        "dice_map50", "dice_map50_95", "cards_map50", "cards_map50_95", "map50", "map50_95", "dice_located_ap50",
        "face_accuracy", "face_accuracy_numeral", "face_accuracy_pip", "colour_accuracy", "card_type_accuracy",
        "dice_misses_per_image",
        "dice_false_alarms_per_image", "card_misses_per_image", "card_false_alarms_per_image", "ms_per_image",
    ]  # fmt: skip
    lines += [f"  {key:<28} {f(report[key])}" for key in keys]
    lines.append(f"dice by size (longer side, frame px), at confidence {report['conf']}:")
    for b in report["dice_by_size"]:
        lines.append(
            f"  {b['px']:>8} px  {b['dice']:>5} dice  recall {f(b['recall'])}  face {f(b['face_accuracy'])}"
            f"  colour {f(b['colour_accuracy'])}"
        )
    lines.append("faces read right of the dice found, by colour and size (found dice in brackets):")
    for colour, bins in report["faces_by_colour"].items():
        cells = "  ".join(f"{b['px']:>6} {f(b['face_accuracy']):>5} ({b['found']})" for b in bins)
        lines.append(f"  {colour:<13} {cells}")
    misreads = ", ".join(f"{m['truth']} as {m['read']} {m['count']}" for m in report["colour_misreads"])
    lines.append(f"commonest colour misreads: {misreads or 'none'}")
    lines.append("per class: truth  AP50  AP50-95")
    for name, row in report["per_class"].items():
        lines.append(f"  {name:<16} {row['truth']:>5}  {f(row['ap50'])}  {f(row['ap50_95'])}")
    return "\n".join(lines)
