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


@pytest.fixture
def first_frame(tmp_path: Path) -> Path:
    """A folder holding the sample's first frame (the table before the deal)."""
    (tmp_path / "frames").mkdir()
    capture = cv2.VideoCapture(str(SAMPLE / "game.mp4"))
    ok, image = capture.read()
    capture.release()
    assert ok
    cv2.imwrite(str(tmp_path / "frames" / "000.png"), image)
    return tmp_path / "frames"


def test_answers_and_reports_typed_at_the_dashboard_go_into_the_pipeline_s_own_game(first_frame: Path) -> None:
    from vision.interpret import Confirm
    from webui.errors import FeedError
    from webui.vision_feed import VisionFeed

    feed = VisionFeed(str(first_frame), GameConfig("fuse", 2))
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


def test_reports_taken_back_or_corrected_at_the_dashboard_are_so_in_the_pipeline_s_own_game(
        first_frame: Path, tmp_path: Path) -> None:
    from webui.hub import Hub
    from webui.live import LiveGame
    from webui.setup import GameSetup
    from webui.store import Store
    from webui.vision_feed import VisionFeed

    feed = VisionFeed(str(first_frame), GameConfig("fuse", 2))
    game = LiveGame.create(Store(tmp_path / "games.sqlite"), Hub(), GameSetup(GameConfig("fuse", 2), deal="table"),
                           feed)
    try:
        for action in ("deal p1 F-G21", "deal p1 F-G10"):
            game.submit(action)  # typed at the dashboard
        game.undo(1)
        assert [(e.action, e.undone) for e in feed.pipeline.referee.events] == [
            ("deal p1 F-G21", False), ("deal p1 F-G10", True)]
        game.correct(0, "deal p1 F-G28")
        mine = [e.action for e in feed.pipeline.referee.events if not e.undone]
        assert mine == ["deal p1 F-G28"] and feed.pipeline.referee.state.players[0].cards[0].id == "F-G28"
    finally:
        feed.close()


def test_a_feed_detecting_where_frames_moved_is_reopened_so(first_frame: Path) -> None:
    from webui.feeds import reopen
    from webui.vision_feed import VisionFeed

    feed = VisionFeed(str(first_frame), GameConfig("fuse", 2), windows=True)
    feed.close()
    state = feed.state()
    assert state["windows"] is True and state["model"] is None
    again = reopen(state, GameConfig("fuse", 2))
    try:
        assert isinstance(again, VisionFeed) and again.windows and again.pipeline.gate.parts
    finally:
        again.close()


def test_a_rendered_recording_is_refereed_as_its_own_game_unless_told_otherwise() -> None:
    """``fuse-referee run --source datasets/sample/game.mp4``: the sample's truth.json beside it says a 2-player
    game (as ``fuse-referee score`` reads it); what is asked for (``--players 4``) still wins."""
    from webui.table import make_feed

    setup, feed = make_feed(str(SAMPLE / "game.mp4"), {})
    feed.close()
    assert setup.config.players == 2 and setup.config.limit_seconds == 150 and feed.state()["kind"] == "vision"
    setup, feed = make_feed(str(SAMPLE / "game.mp4"), {"players": 4})
    feed.close()
    assert setup.config.players == 4


def test_the_overlay_names_a_die_on_a_chip_as_the_pipeline_holds_it() -> None:
    from vision.observation import CardSeen, DieSeen, TableObservation
    from webui.vision_feed import marks

    card = CardSeen(((100.0, 100.0), (200.0, 100.0), (200.0, 160.0), (100.0, 160.0)), "bomb", "F-002", 0.9)
    dice = (DieSeen("blue4", (112.0, 122.0, 128.0, 138.0), 0.9, ("F-002", 1)),
            DieSeen("red2", (142.0, 122.0, 158.0, 138.0), 0.9, ("F-002", 3)),
            DieSeen("red1", (300.0, 300.0, 316.0, 316.0), 0.9))
    observation = TableObservation(0, 0.0, 1280, 720, (card,), dice)
    labels = [m.label for m in marks(observation, {("F-002", 3)}, {("F-002", 1): "blue1"})]
    assert labels == ["F-002", "blue1", "red2", "red1"]
