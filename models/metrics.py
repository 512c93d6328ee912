"""Detection metrics in numpy: IoU, COCO-style average precision, one-to-one matching.

AP follows ultralytics/COCO: per class, predictions sorted by confidence, precision made monotone, area under
precision-recall sampled at 101 recall points (a perfect class scores 0.995, as in ultralytics); mAP50-95
averages IoU thresholds 0.50, 0.55, ..., 0.95.
"""

from __future__ import annotations

import numpy as np

IOU_THRESHOLDS = np.linspace(0.5, 0.95, 10)
_trapezoid = getattr(np, "trapezoid", None) or np.trapz  # numpy < 2 has only trapz


def box_iou(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """IoU of boxes ``a`` (N, 4) and ``b`` (M, 4), xyxy -> (N, M)."""
    a, b = np.asarray(a, np.float64).reshape(-1, 4), np.asarray(b, np.float64).reshape(-1, 4)
    lt = np.maximum(a[:, None, :2], b[None, :, :2])
    rb = np.minimum(a[:, None, 2:], b[None, :, 2:])
    inter = np.prod(np.clip(rb - lt, 0, None), axis=2)
    area_a = np.prod(a[:, 2:] - a[:, :2], axis=1)
    area_b = np.prod(b[:, 2:] - b[:, :2], axis=1)
    return inter / np.maximum(area_a[:, None] + area_b[None, :] - inter, 1e-9)


def match(iou: np.ndarray, threshold: float, allowed: np.ndarray | None = None) -> list[tuple[int, int]]:
    """One-to-one (prediction, truth) pairs with IoU >= ``threshold``, highest IoU first; ``allowed`` (N, M)
    bool restricts pairs (same class, say)."""
    ok = iou >= threshold
    if allowed is not None:
        ok &= allowed
    rows, cols = np.nonzero(ok)
    order = np.argsort(-iou[rows, cols], kind="stable")
    used_p: set[int] = set()
    used_t: set[int] = set()
    pairs = []
    for r, c in zip(rows[order], cols[order]):
        if r not in used_p and c not in used_t:
            used_p.add(int(r))
            used_t.add(int(c))
            pairs.append((int(r), int(c)))
    return pairs


def true_positives(pred_xyxy: np.ndarray, pred_cls: np.ndarray, gt_xyxy: np.ndarray, gt_cls: np.ndarray) -> np.ndarray:
    """(N, 10) bool: prediction i is a true positive at each IoU threshold (same class, one-to-one)."""
    tp = np.zeros((len(pred_xyxy), len(IOU_THRESHOLDS)), bool)
    if not len(pred_xyxy) or not len(gt_xyxy):
        return tp
    iou = box_iou(pred_xyxy, gt_xyxy)
    same = pred_cls[:, None] == gt_cls[None, :]
    for k, threshold in enumerate(IOU_THRESHOLDS):
        for p, _ in match(iou, threshold, same):
            tp[p, k] = True
    return tp


def average_precision(tp: np.ndarray, confidence: np.ndarray, n_truth: int) -> np.ndarray:
    """AP at each IoU threshold of one class: ``tp`` (N, T) bool, ``confidence`` (N,) -> (T,)."""
    if n_truth == 0:
        return np.full(tp.shape[1], np.nan)
    if not len(tp):
        return np.zeros(tp.shape[1])
    order = np.argsort(-confidence, kind="stable")
    tpc = np.cumsum(tp[order], axis=0)
    fpc = np.cumsum(~tp[order], axis=0)
    recall = tpc / n_truth
    precision = tpc / (tpc + fpc)
    points = np.linspace(0, 1, 101)
    ap = np.zeros(tp.shape[1])
    for k in range(tp.shape[1]):
        r = np.concatenate([[0.0], recall[:, k], [1.0]])
        p = np.concatenate([[1.0], precision[:, k], [0.0]])
        p = np.flip(np.maximum.accumulate(np.flip(p)))
        ap[k] = _trapezoid(np.interp(points, r, p), points)
    return ap
