"""Detection metrics: IoU, one-to-one matching and average precision on hand-made cases."""

from __future__ import annotations

import numpy as np
import pytest

from models.metrics import average_precision, box_iou, match, true_positives


def test_box_iou_of_equal_disjoint_and_half_overlapping_boxes() -> None:
    a = np.array([[0, 0, 10, 10]], float)
    b = np.array([[0, 0, 10, 10], [20, 20, 30, 30], [5, 0, 15, 10]], float)
    assert box_iou(a, b) == pytest.approx(np.array([[1.0, 0.0, 1 / 3]]))


def test_match_is_one_to_one_and_prefers_the_higher_iou() -> None:
    iou = np.array([[0.9, 0.6], [0.8, 0.0]])
    assert match(iou, 0.5) == [(0, 0)]
    assert match(iou, 0.5, np.array([[False, True], [True, True]])) == [(1, 0), (0, 1)]


def test_perfect_predictions_score_one_and_a_duplicate_is_a_false_positive() -> None:
    gt = np.array([[0, 0, 10, 10], [50, 50, 70, 70]], float)
    tp = true_positives(gt, np.array([0, 0]), gt, np.array([0, 0]))
    assert tp.all()
    # like ultralytics, the 101-point curve drops to 0 at recall 1, so a perfect class scores 0.995
    assert average_precision(tp, np.array([0.9, 0.8]), 2) == pytest.approx(np.full(10, 0.995), abs=1e-6)
    dup = true_positives(np.vstack([gt, gt[:1]]), np.array([0, 0, 0]), gt, np.array([0, 0]))
    assert dup[:, 0].tolist() == [True, True, False]
    # the duplicate ranks below both true positives: precision stays 1 up to full recall
    assert average_precision(dup, np.array([0.9, 0.8, 0.1]), 2)[0] == pytest.approx(0.995, abs=1e-6)
    assert average_precision(dup, np.array([0.9, 0.1, 0.8]), 2)[0] < 0.9


def test_wrong_class_misses_and_classes_without_truth() -> None:
    gt = np.array([[0, 0, 10, 10]], float)
    assert not true_positives(gt, np.array([1]), gt, np.array([0])).any()
    assert np.isnan(average_precision(np.zeros((1, 10), bool), np.array([0.5]), 0)).all()
    assert average_precision(np.zeros((0, 10), bool), np.zeros(0), 3) == pytest.approx(np.zeros(10))
