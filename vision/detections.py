"""``Detections``: what the detector saw in one frame, as parallel numpy arrays (in the style of supervision).

Class names are the renderer's (``datasets/README.md``): dice ``red5`` or ``black/yellow2`` (colour(s) and top
face, as ``rules.dice.Die`` prints them), cards ``bomb``, ``fuse``, ``spark``, ``role``, ``back``. Boxes are
``x1, y1, x2, y2`` in the pixels of the frame given to the detector (pixel ``i`` spans ``[i, i+1)``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

CARD_TYPES: tuple[str, ...] = ("bomb", "fuse", "spark", "role", "back")


def split_die_name(name: str) -> tuple[str, int]:
    """``"black/yellow2"`` -> ``("black/yellow", 2)``; a card name -> ``(name, 0)``."""
    if name and name[-1].isdigit():
        return name[:-1], int(name[-1])
    return name, 0


def decode_yolo(
    output: np.ndarray, *, conf: float = 0.25, iou: float = 0.5, max_det: int = 300, candidates: int = 3000
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Raw YOLO head output (1, 4 + C, A) -> (xyxy (N, 4), confidence (N,), class_id (N,)) after class-agnostic
    NMS, best first; at most ``candidates`` boxes enter NMS."""
    import cv2

    pred = np.asarray(output, np.float32)
    pred = pred.reshape(pred.shape[-2], pred.shape[-1])
    best = pred[4:].max(0)
    keep = np.flatnonzero(best > conf)
    if len(keep) > candidates:
        keep = keep[np.argpartition(-best[keep], candidates)[:candidates]]
    confidence, class_id = best[keep], pred[4:, keep].argmax(0).astype(np.int64)
    cx, cy, w, h = pred[:4, keep]
    xywh = np.stack([cx - w / 2, cy - h / 2, w, h], 1)
    chosen = cv2.dnn.NMSBoxes(xywh.tolist(), confidence.tolist(), conf, iou, top_k=max_det) if len(keep) else []
    chosen = np.asarray(chosen, np.int64).reshape(-1)[:max_det]
    box = xywh[chosen]
    xyxy = np.concatenate([box[:, :2], box[:, :2] + box[:, 2:]], 1)
    return xyxy, confidence[chosen], class_id[chosen]


@dataclass
class Detections:
    """N detections: ``xyxy`` (N, 4) float32 pixels, ``confidence`` (N,) float32 in 0..1, ``class_id`` (N,) int64
    indices into ``names``; ``corners`` (N, 4, 2) float32 card corners (top-left, top-right, bottom-right,
    bottom-left) or None when the detector gives boxes only (corners are estimated later by the pipeline)."""

    xyxy: np.ndarray
    confidence: np.ndarray
    class_id: np.ndarray
    names: tuple[str, ...] = ()
    """Class names, indexed by ``class_id``."""
    corners: np.ndarray | None = None
    data: dict[str, np.ndarray] = field(default_factory=dict)
    """Extra per-detection arrays, indexed with the rest."""

    def __post_init__(self) -> None:
        self.xyxy = np.asarray(self.xyxy, np.float32).reshape(-1, 4)
        n = len(self.xyxy)
        self.confidence = np.asarray(self.confidence, np.float32).reshape(-1)
        self.class_id = np.asarray(self.class_id, np.int64).reshape(-1)
        if len(self.confidence) != n or len(self.class_id) != n:
            raise ValueError(f"detections need as many confidences and class ids as boxes ({n})")
        if n and self.names and (self.class_id.min() < 0 or self.class_id.max() >= len(self.names)):
            raise ValueError(f"class ids must index the {len(self.names)} names")
        if self.corners is not None:
            self.corners = np.asarray(self.corners, np.float32).reshape(n, 4, 2)
        for key, value in self.data.items():
            if len(value) != n:
                raise ValueError(f"data[{key!r}] has {len(value)} entries for {n} detections")

    @classmethod
    def empty(cls, names: tuple[str, ...] = ()) -> Detections:
        return cls(np.zeros((0, 4), np.float32), np.zeros(0, np.float32), np.zeros(0, np.int64), tuple(names))

    @classmethod
    def from_onnx(
        cls,
        output: np.ndarray,
        names: tuple[str, ...],
        *,
        conf: float = 0.25,
        iou: float = 0.5,
        max_det: int = 300,
        scale: float = 1.0,
        pad: tuple[float, float] = (0.0, 0.0),
        size: tuple[int, int] | None = None,
    ) -> Detections:
        """Decode a YOLO (v8/11) head's raw output, shape (1, 4 + C, A) or (4 + C, A): centre boxes and class
        scores per anchor in network-input pixels. Keeps each anchor's best class over ``conf``, runs
        class-agnostic NMS at ``iou`` (a die and the card under it barely overlap), keeps ``max_det``, and maps
        boxes back to the frame: ``(xy - pad) / scale``, clipped to ``size`` = (width, height) if given."""
        xyxy, confidence, class_id = decode_yolo(output, conf=conf, iou=iou, max_det=max_det)
        xyxy = (xyxy - np.array([pad[0], pad[1], pad[0], pad[1]], np.float32)) / np.float32(scale)
        if size is not None:
            xyxy = np.clip(xyxy, 0, np.array([size[0], size[1], size[0], size[1]], np.float32))
        return cls(xyxy, confidence, class_id, tuple(names))

    @classmethod
    def from_ultralytics(cls, result: Any) -> Detections:
        """From one ``ultralytics.engine.results.Results`` (``model.predict(...)[0]``)."""
        boxes = result.boxes
        names = tuple(result.names[i] for i in range(len(result.names)))
        return cls(boxes.xyxy.cpu().numpy(), boxes.conf.cpu().numpy(), boxes.cls.cpu().numpy().astype(np.int64), names)

    def __len__(self) -> int:
        return len(self.xyxy)

    def __getitem__(self, index: np.ndarray | slice | int | list[int]) -> Detections:
        """Select with a boolean mask, an index array, a slice or one index (``d[d.confidence > 0.5]``)."""
        if isinstance(index, (int, np.integer)):
            index = [int(index)]
        return Detections(
            self.xyxy[index],
            self.confidence[index],
            self.class_id[index],
            self.names,
            None if self.corners is None else self.corners[index],
            {key: value[index] for key, value in self.data.items()},
        )

    def joined(self, other: Detections) -> Detections:
        """These detections and ``other``'s (the same ``names``), in that order; ``corners`` and ``data`` kept
        where both have them."""
        data = {key: np.concatenate([value, other.data[key]]) for key, value in self.data.items() if key in other.data}
        corners = (None if self.corners is None or other.corners is None
                   else np.concatenate([self.corners, other.corners]))
        return Detections(np.concatenate([self.xyxy, other.xyxy]), np.concatenate([self.confidence, other.confidence]),
                          np.concatenate([self.class_id, other.class_id]), self.names, corners, data)

    @property
    def class_name(self) -> list[str]:
        return [self.names[i] for i in self.class_id]

    @property
    def is_card(self) -> np.ndarray:
        """(N,) bool: the detection is a card (else a die)."""
        return np.array([name in CARD_TYPES for name in self.class_name], bool).reshape(-1)

    @property
    def dice(self) -> Detections:
        return self[~self.is_card]

    @property
    def cards(self) -> Detections:
        return self[self.is_card]

    def to_json(self, digits: int = 1) -> dict[str, list[dict[str, Any]]]:
        """``{"dice": [{colour, face, box, confidence}], "cards": [{type, box, corners, confidence}]}``, in
        pixels rounded to ``digits``; ``corners`` is null where the detector gave none."""
        dice: list[dict[str, Any]] = []
        cards: list[dict[str, Any]] = []
        for i, name in enumerate(self.class_name):
            box = [round(float(v), digits) for v in self.xyxy[i]]
            confidence = round(float(self.confidence[i]), 3)
            if name in CARD_TYPES:
                corners = None
                if self.corners is not None:
                    corners = [[round(float(v), digits) for v in point] for point in self.corners[i]]
                cards.append({"type": name, "box": box, "corners": corners, "confidence": confidence})
            else:
                colour, face = split_die_name(name)
                dice.append({"colour": colour, "face": face, "box": box, "confidence": confidence})
        return {"dice": dice, "cards": cards}

    def __repr__(self) -> str:
        shown = ", ".join(f"{n} {c:.2f}" for n, c in zip(self.class_name[:6], self.confidence[:6]))
        more = ", ..." if len(self) > 6 else ""
        return f"<Detections {len(self)}: {shown}{more}>"
