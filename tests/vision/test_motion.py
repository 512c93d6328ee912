"""The motion gate: still frames keep the last detected frame's detections; a move goes to the detector, with
the box around what moved. And ``detect_ahead``, which takes frames from the source for the detector."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import numpy as np
import pytest

from vision.errors import SourceError
from vision.motion import MotionGate
from vision.pipeline import detect_ahead
from vision.sources import Frame


def table(noise: float = 0.0, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    image = np.full((720, 1280, 3), (40, 90, 140), np.float32) + rng.normal(0, noise, (720, 1280, 3))
    return np.clip(image, 0, 255).astype(np.uint8)


def with_die(image: np.ndarray, x: int, y: int, side: int = 12) -> np.ndarray:
    image = image.copy()
    image[y : y + side, x : x + side] = (30, 30, 200)  # a red die, 12 px: the smallest the renderer draws
    return image


def test_camera_noise_is_still_and_the_smallest_die_placed_is_a_move() -> None:
    gate = MotionGate()
    assert gate.moved(table(3, seed=1))  # the first frame is always detected
    assert not any(gate.moved(table(3, seed=s)) for s in range(2, 6))  # sensor noise of sigma 3
    assert gate.moved(with_die(table(3, seed=6), 600, 300))
    assert not gate.moved(with_die(table(3, seed=7), 600, 300))
    assert gate.moved(with_die(table(3, seed=8), 640, 300))  # the die moved by 40 px


def test_by_default_a_frame_that_moved_is_detected_whole() -> None:
    gate = MotionGate()
    assert gate.change(table()) == (0, 0, 1280, 720)
    assert gate.change(with_die(table(), 600, 300)) == (0, 0, 1280, 720)
    assert gate.change(with_die(table(), 600, 300)) is None  # no settling: still at once


def test_the_change_is_the_box_around_what_moved() -> None:
    gate = MotionGate(parts=True, settle=0)
    assert gate.change(table(3, seed=1)) == (0, 0, 1280, 720)  # the first frame: all of it
    x1, y1, x2, y2 = gate.change(with_die(table(3, seed=2), 600, 300))
    assert x1 <= 600 and y1 <= 300 and x2 >= 612 and y2 >= 312  # holds the die ...
    assert x2 - x1 <= 24 and y2 - y1 <= 24  # ... and little else
    x1, y1, x2, y2 = gate.change(with_die(with_die(table(3, seed=3), 600, 300), 1000, 600))
    assert x1 >= 900 and y1 >= 500 and x2 >= 1012 and y2 >= 612  # the new die only: the first is seen


def test_a_slow_change_elsewhere_adds_up_while_moves_are_detected() -> None:
    gate = MotionGate(parts=True)
    base = table()
    assert gate.change(base) == (0, 0, 1280, 720)
    changes = []
    for k in range(1, 4):  # the right half brightens 6 levels a frame while a die moves on the left
        frame = base.copy()
        frame[:, 640:] = np.clip(base[:, 640:].astype(int) + 6 * k, 0, 255).astype(np.uint8)
        changes.append(gate.change(with_die(frame, 100 + 40 * k, 300)))
    assert all(c is not None and c[2] <= 640 for c in changes[:2])  # the die alone
    assert changes[2] is not None and changes[2][2] == 1280  # 18 levels from what was detected: seen


def test_what_moved_is_looked_at_again_for_settle_frames() -> None:
    gate = MotionGate(parts=True, settle=2)
    gate.change(table())
    placed = with_die(table(), 600, 300)
    first = gate.change(placed)
    assert first is not None and first[2] - first[0] <= 24
    assert [gate.change(placed) for _ in range(3)] == [first, first, None]  # the same part twice, then still
    moved = with_die(table(), 900, 300)  # the die moved on: its old and new places, and the old ones settling
    both = gate.change(moved)
    assert both is not None and both[0] <= 600 and both[2] >= 912
    assert gate.still == 1


def test_a_slow_change_adds_up_against_the_last_detected_frame() -> None:
    gate = MotionGate()
    base = table()
    assert gate.moved(base)
    steps = [np.clip(base.astype(int) + 6 * k, 0, 255).astype(np.uint8) for k in range(1, 6)]
    # 18 levels above the detected frame is a move; the next steps compare with that one
    assert [gate.moved(step) for step in steps] == [False, False, True, False, False]


def test_a_frame_is_detected_at_least_every_max_reuse_frames() -> None:
    gate = MotionGate(max_reuse=3)
    assert [gate.moved(table()) for _ in range(9)] == [True, False, False, False] * 2 + [True]


def test_with_parts_the_whole_frame_is_detected_more_often() -> None:
    gate = MotionGate(parts=True)  # parts kept long drift from what the whole frame shows
    changes = [gate.change(table()) for _ in range(15)]
    assert [k for k, c in enumerate(changes) if c is not None] == [0, 7, 14]
    assert all(changes[k] == (0, 0, 1280, 720) for k in (0, 7, 14))


def test_bad_frames_go_to_the_detector_to_be_reported() -> None:
    gate = MotionGate()
    assert gate.moved(table())
    assert gate.moved(np.zeros((0, 0, 3), np.uint8)) and gate.moved(None)  # type: ignore[arg-type]
    assert not gate.moved(table())  # the reference is still the last good frame


class CountingDetector:
    def __init__(self) -> None:
        self.images: list[np.ndarray] = []

    def detect(self, image: np.ndarray) -> int:
        self.images.append(image)
        return len(self.images)


def test_detect_ahead_gives_still_frames_the_detections_of_the_frame_they_repeat() -> None:
    still, moved = table(), with_die(table(), 100, 100)
    images = [still, still, still, moved, moved, still]
    frames = [Frame(i, i / 15, image) for i, image in enumerate(images)]
    detector = CountingDetector()
    seen = list(detect_ahead(detector, iter(frames), workers=2, gate=MotionGate()))
    assert [frame.index for frame, _ in seen] == list(range(6))
    assert [found for _, found in seen] == [1, 1, 1, 2, 2, 3]
    ungated = list(detect_ahead(CountingDetector(), iter(frames), workers=2))
    assert [found for _, found in ungated] == [1, 2, 3, 4, 5, 6]


def test_the_next_frame_is_taken_from_the_source_while_a_frame_is_still_judged() -> None:
    """A live source is asked for its next frame while the frame before is still judged (a card being read), so a
    frame slow to judge does not make the camera's next frame missed."""
    asked = threading.Event()

    def camera() -> Iterator[Frame]:
        yield Frame(0, 0.0, table())
        asked.set()
        yield Frame(1, 1 / 15, table())

    frames = detect_ahead(CountingDetector(), camera(), workers=1)
    first, _ = next(frames)
    assert first.index == 0 and asked.wait(timeout=10)  # frame 0 is still with its judge
    assert [frame.index for frame, _ in frames] == [1]


def test_a_source_that_fails_fails_where_the_frames_are_judged() -> None:
    def camera() -> Iterator[Frame]:
        yield Frame(0, 0.0, table())
        raise SourceError("camera 0 stopped answering")

    frames = detect_ahead(CountingDetector(), camera(), workers=2)
    assert next(frames)[0].index == 0
    with pytest.raises(SourceError, match="camera 0 stopped"):
        next(frames)
