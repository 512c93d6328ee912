"""The dashboard's live feed: the vision pipeline on a folder of the bundled sample's frames."""

from __future__ import annotations

import time
from pathlib import Path

import cv2
import pytest

from rules.config import GameConfig

SAMPLE = Path(__file__).resolve().parents[2] / "datasets" / "sample"

pytest.importorskip("onnxruntime", reason="the detector runs on onnxruntime")


def test_the_live_feed_hands_out_annotated_frames(tmp_path: Path) -> None:
    from webui.vision_feed import VisionFeed

    capture = cv2.VideoCapture(str(SAMPLE / "game.mp4"))
    capture.set(cv2.CAP_PROP_POS_FRAMES, 36)  # the hands are dealt by then
    for i in range(4):
        ok, image = capture.read()
        assert ok
        cv2.imwrite(str(tmp_path / f"{i:03d}.png"), image)
    capture.release()
    feed = VisionFeed(str(tmp_path), GameConfig("fuse", 2))
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not feed.error and getattr(feed.frame(0.0), "index", -1) < 3:
            time.sleep(0.1)
        frame = feed.frame(0.0)
        assert feed.error == "" and frame is not None
        assert frame.image.shape == (720, 1280, 3) and any(m.label.startswith("F-") for m in frame.marks)
        assert feed.state()["kind"] == "vision" and isinstance(feed.poll(0.0), list)
    finally:
        feed.close()


def test_answers_and_reports_typed_at_the_dashboard_go_into_the_pipeline_s_own_game(tmp_path: Path) -> None:
    from vision.interpret import Confirm
    from webui.errors import FeedError
    from webui.vision_feed import VisionFeed

    (tmp_path / "frames").mkdir()
    capture = cv2.VideoCapture(str(SAMPLE / "game.mp4"))
    ok, image = capture.read()
    capture.release()
    assert ok
    cv2.imwrite(str(tmp_path / "frames" / "000.png"), image)
    feed = VisionFeed(str(tmp_path / "frames"), GameConfig("fuse", 2))
    try:
        feed.pipeline.interpreter.confirms.append(Confirm(3, 0.5, "a card turned up: is it F-G21?", "deal p1 F-G21"))
        assert list(feed.questions()) == [1]
        asked = feed.questions()[1]
        assert asked.action == "deal p1 F-G21"
        feed.answer(1, asked.action)
        assert feed.questions() == {}
        event = feed.pipeline.referee.events[-1]
        assert (event.action, event.source, event.accepted) == ("deal p1 F-G21", "manual", True)
        with pytest.raises(FeedError, match="no open question 1"):
            feed.answer(1, None)
        feed.told("deal p1 F-G10")  # typed at the dashboard
        assert feed.pipeline.referee.events[-1].action == "deal p1 F-G10"
    finally:
        feed.close()

