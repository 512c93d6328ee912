"""``Detections``: validation, mask indexing, JSON form and decoding of a raw YOLO output (no model needed)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.detections import Detections, decode_yolo, split_die_name

NAMES = ("red5", "black/yellow2", "bomb", "back")


def _detections() -> Detections:
    return Detections(
        np.array([[10, 10, 30, 30], [40, 40, 60, 60], [0, 0, 200, 140], [300, 0, 400, 70]]),
        np.array([0.9, 0.4, 0.95, 0.6]),
        np.array([0, 1, 2, 3]),
        NAMES,
    )


def test_shapes_are_checked() -> None:
    with pytest.raises(ValueError, match="confidences"):
        Detections(np.zeros((2, 4)), np.zeros(1), np.zeros(2), NAMES)
    with pytest.raises(ValueError, match="index"):
        Detections(np.zeros((1, 4)), np.zeros(1), np.array([7]), NAMES)
    assert len(Detections.empty(NAMES)) == 0


def test_mask_indexing_keeps_arrays_parallel() -> None:
    d = _detections()
    sure = d[d.confidence > 0.5]
    assert sure.class_name == ["red5", "bomb", "back"]
    assert sure.xyxy.shape == (3, 4)
    assert d.dice.class_name == ["red5", "black/yellow2"]
    assert d.cards.class_name == ["bomb", "back"]
    assert d[1].class_name == ["black/yellow2"]
    assert "red5 0.90" in repr(d)


def test_joined_detections_keep_their_arrays_and_data_parallel() -> None:
    d = _detections()
    d.data["located"] = d.confidence * 2
    both = d[[0, 1]].joined(d[[3]])
    assert both.class_name == ["red5", "black/yellow2", "back"]
    assert both.data["located"].tolist() == pytest.approx([1.8, 0.8, 1.2])
    assert len(Detections.empty(NAMES).joined(d)) == 4


def test_json_has_the_issue_format() -> None:
    out = _detections().to_json()
    assert out["dice"][1] == {"colour": "black/yellow", "face": 2, "box": [40.0, 40.0, 60.0, 60.0], "confidence": 0.4}
    assert out["cards"][0]["type"] == "bomb"
    assert out["cards"][0]["corners"] is None
    assert set(out["cards"][0]) == {"type", "box", "corners", "confidence"}
    assert split_die_name("green6") == ("green", 6)
    assert split_die_name("spark") == ("spark", 0)


def _raw(boxes: list[tuple[float, float, float, float, int, float]], classes: int = 4, anchors: int = 50) -> np.ndarray:
    """A raw (1, 4 + classes, anchors) output with the given (cx, cy, w, h, class, score) at the first anchors."""
    out = np.zeros((1, 4 + classes, anchors), np.float32)
    out[0, :4] = 5.0
    out[0, 4:] = 0.001
    for a, (cx, cy, w, h, c, s) in enumerate(boxes):
        out[0, :4, a] = (cx, cy, w, h)
        out[0, 4 + c, a] = s
    return out


def test_decode_keeps_the_best_of_overlapping_boxes_and_maps_back_to_the_frame() -> None:
    raw = _raw([(100, 100, 20, 20, 0, 0.9), (101, 100, 20, 20, 1, 0.8), (300, 200, 100, 60, 2, 0.7)])
    xyxy, conf, cls = decode_yolo(raw, conf=0.25, iou=0.5)
    assert cls.tolist() == [0, 2]
    assert conf == pytest.approx([0.9, 0.7])
    assert xyxy[0] == pytest.approx([90, 90, 110, 110])
    d = Detections.from_onnx(raw, NAMES, scale=0.5, pad=(0, 2), size=(640, 360))
    assert d.xyxy[0] == pytest.approx([180, 176, 220, 216])
    assert d.xyxy[1] == pytest.approx([500, 336, 640, 360])  # clipped to the frame
    assert len(Detections.from_onnx(_raw([]), NAMES)) == 0
