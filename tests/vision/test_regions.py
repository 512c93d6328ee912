"""Detecting where the frame changed: what the window finds there replaces what was kept there, the rest stays."""

from __future__ import annotations

from concurrent.futures import Future

import numpy as np

from vision.detections import Detections
from vision.regions import detect_change

NAMES = ("red5", "blue2", "bomb")
FRAME = np.zeros((720, 1280, 3), np.uint8)


class SceneDetector:
    """Sees ``objects`` (name, box): all of them in ``detect``, those in a window (cut at its edges) in
    ``detect_window``; records which it was asked."""

    windowed = True

    def __init__(self, objects: list[tuple[str, tuple[float, float, float, float]]]) -> None:
        self.objects, self.calls = objects, []  # type: ignore[var-annotated]

    def _detections(self, boxes: list[tuple[str, tuple[float, ...]]]) -> Detections:
        return Detections(np.array([b for _, b in boxes], np.float32).reshape(-1, 4), np.full(len(boxes), 0.9),
                          [NAMES.index(n) for n, _ in boxes], NAMES)

    def detect(self, image: np.ndarray) -> Detections:
        self.calls.append("whole")
        return self._detections(self.objects)

    def detect_window(self, image: np.ndarray, box: tuple[float, ...]) -> tuple[Detections, tuple[float, ...]]:
        self.calls.append(("window", tuple(round(v) for v in box)))
        x1, y1, x2, y2 = box
        inside = [(n, (max(a, x1), max(b, y1), min(c, x2), min(d, y2))) for n, (a, b, c, d) in self.objects
                  if a < x2 and c > x1 and b < y2 and d > y1]
        return self._detections(inside), box


def named(found: Detections) -> set[tuple[str, tuple[int, ...]]]:
    return {(name, tuple(int(v) for v in box)) for name, box in zip(found.class_name, found.xyxy)}


CARD = ("bomb", (400.0, 200.0, 600.0, 480.0))
DIE_ON_CARD = ("blue2", (450.0, 250.0, 480.0, 280.0))
FAR_DIE = ("red5", (1100.0, 600.0, 1130.0, 630.0))


def test_a_die_placed_is_found_in_a_window_and_the_rest_is_kept() -> None:
    kept = SceneDetector([CARD, FAR_DIE]).detect(FRAME)
    placed = ("red5", (800.0, 100.0, 830.0, 130.0))
    detector = SceneDetector([CARD, FAR_DIE, placed])
    found = detect_change(detector, FRAME, (790, 90, 840, 140), kept)
    assert named(found) == named(detector.detect(FRAME))
    assert detector.calls[0] == ("window", (726, 26, 904, 204))  # the change and 64 px of table round it


def test_a_change_on_a_card_is_looked_at_with_the_whole_card_and_a_die_taken_is_gone() -> None:
    kept = SceneDetector([CARD, DIE_ON_CARD, FAR_DIE]).detect(FRAME)
    detector = SceneDetector([CARD, FAR_DIE])  # the die was taken off the card
    found = detect_change(detector, FRAME, (445, 245, 485, 285), kept)
    assert named(found) == {(CARD[0], (400, 200, 600, 480)), (FAR_DIE[0], (1100, 600, 1130, 630))}
    assert detector.calls == [("window", (336, 136, 664, 544))]  # the card it touched, whole, and context


def test_what_runs_out_of_the_window_is_detected_on_the_whole_frame() -> None:
    kept = SceneDetector([FAR_DIE]).detect(FRAME)
    slid_in = ("bomb", (100.0, 100.0, 500.0, 600.0))  # a card slid in, mostly outside the change
    detector = SceneDetector([FAR_DIE, slid_in])
    found = detect_change(detector, FRAME, (280, 300, 320, 340), kept)
    assert detector.calls[-1] == "whole" and named(found) == named(detector.detect(FRAME))


def test_the_whole_frame_when_the_change_is_most_of_it_nothing_is_kept_or_windows_are_not_possible() -> None:
    detector = SceneDetector([CARD, FAR_DIE])
    kept = detector.detect(FRAME)
    detect_change(detector, FRAME, (0, 0, 1280, 720), kept)
    detect_change(detector, FRAME, (100, 50, 1100, 600), kept)
    detect_change(detector, FRAME, (10, 10, 40, 40), None)
    failed: Future[Detections] = Future()
    failed.set_exception(RuntimeError("a corrupt frame"))
    detect_change(detector, FRAME, (10, 10, 40, 40), failed)  # the frame before could not be detected
    assert detector.calls == ["whole"] * 5
    fixed = SceneDetector([CARD])
    fixed.windowed = False  # a model of one input size
    detect_change(fixed, FRAME, (10, 10, 40, 40), kept)
    assert fixed.calls == ["whole"]


def test_kept_detections_may_come_as_a_future() -> None:
    detector = SceneDetector([CARD, FAR_DIE])
    done: Future[Detections] = Future()
    done.set_result(detector.detect(FRAME))
    found = detect_change(detector, FRAME, (1095, 595, 1135, 635), done)
    assert named(found) == named(done.result()) and detector.calls[-1][0] == "window"
