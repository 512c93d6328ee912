"""Feeds: recorded logs played in game time, the bundled sample's contract (with frames), the simulated
fallback game, and the vision pipeline's absence."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from rules.clock import ManualClock
from rules.config import GameConfig
from rules.referee import Referee
from tests.webui.conftest import make_app
from webui import feeds, table
from webui.errors import FeedError
from webui.feeds import FrameSet, LogFeed, Report, read_log_file, reopen
from webui.setup import GameSetup, engine_deal
from webui.simulated import DEFAULT_SEED, UNSURE_CONFIDENCE, simulated_feed, simulated_reports


def test_log_feed_plays_in_game_time() -> None:
    feed = LogFeed([Report(0, "a"), Report(0, "b"), Report(2.5, "c"), Report(4, "d")])
    assert not feed.ready_to_start()
    assert [r.action for r in feed.poll(0.0)] == ["a", "b"] and feed.ready_to_start()
    assert feed.poll(2.0) == [] and [r.action for r in feed.poll(3.0)] == ["c"]
    assert feed.state()["cursor"] == 3
    assert [r.action for r in LogFeed(feed.reports, cursor=3).poll(10)] == ["d"]
    assert [r.action for r in LogFeed(feed.reports, speed=2.0).poll(1.3)] == ["a", "b", "c"]


def test_simulated_game_is_seeded_and_shows_a_violation_early() -> None:
    config = GameConfig("fuse", 3, "standard")
    reports = simulated_reports(config, DEFAULT_SEED)
    assert reports == simulated_reports(config, DEFAULT_SEED)
    assert [r.elapsed for r in reports] == sorted(r.elapsed for r in reports)
    referee = Referee(config, ManualClock())
    for r in reports:
        referee.clock.seconds = r.elapsed  # type: ignore[attr-defined]
        referee.submit(r.action, r.source, r.confidence)
    assert len(referee.violations) == 2 and referee.violations[0].elapsed < 10
    assert "does not accept" in referee.violations[0].reason
    assert any(e.confidence == UNSURE_CONFIDENCE and e.accepted for e in referee.events)
    assert referee.state.outcome is not None and referee.state.outcome.won


@pytest.mark.parametrize(("edition", "players", "difficulty"), [("countdown", 2, "expert"), ("fuse", 1, "training")])
def test_simulated_game_other_tables(edition: str, players: int, difficulty: str) -> None:
    feed = simulated_feed(GameConfig(edition, players, difficulty), 3)
    assert feed.simulated and feed.reports[0].elapsed == 0 and len(feed.reports) > 100


def test_log_file_errors_quote_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "game.json"
    bad.write_text("{not json")
    with pytest.raises(FeedError, match="game.json"):
        read_log_file(bad)
    bad.write_text(json.dumps({"log": [[0, "deal p1 F-003"], ["soon"]]}))
    with pytest.raises(FeedError, match=r"log entry 1 is \['soon'\]"):
        read_log_file(bad)


def test_a_source_that_cannot_be_opened_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(FeedError, match="cannot open") as caught:
        feeds.vision_feed(str(tmp_path / "nothing.mp4"), GameConfig())
    assert "\n" not in str(caught.value)


def test_a_wrong_model_or_runtime_is_one_line_at_start_up(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The detector loads with the first frame, in the feed's thread; what would stop it is said at once."""
    video = Path(__file__).resolve().parents[2] / "datasets" / "sample" / "game.mp4"
    with pytest.raises(FeedError, match="no model file at"):
        feeds.vision_feed(str(video), GameConfig(), model=str(tmp_path / "nothing.onnx"))
    monkeypatch.setenv("FUSE_REFEREE_BACKEND", "tensorrt")
    with pytest.raises(FeedError, match="unknown backend 'tensorrt'"):
        feeds.vision_feed(str(video), GameConfig())


def make_sample(folder: Path) -> dict:
    """A tiny sample in the renderer's contract: truth.json (config, log, ...) and frames/ with frames.json."""
    config = GameConfig("fuse", 2, "standard")
    deal = engine_deal(GameSetup(config, seed=4))
    log = [[0.0, a] for a in deal] + [[1.0, "roll red5 blue2 black6 green1"], [2.0, "place red5 F-999:1"]]
    truth = {"config": {"edition": "fuse", "players": 2, "difficulty": "standard", "seed": 4}, "log": log,
             "events": [], "violations": [{"elapsed": 2.0, "action": "place red5 F-999:1"}], "score": 0, "won": False}
    (folder / "frames").mkdir(parents=True)
    (folder / "truth.json").write_text(json.dumps(truth))
    entries = []
    for i in range(4):
        image = np.full((720, 1280, 3), 40 + 30 * i, np.uint8)
        cv2.imwrite(str(folder / "frames" / f"{i:06d}.jpg"), image)
        frame_truth = {"cards": [{"id": "F-999", "face_up": True, "box": [100, 100, 300, 240], "label": "bomb"}],
                       "dice": [{"die": "red5", "box": [120, 150, 150, 180], "label": "red5",
                                 "on": {"card_id": "F-999", "chip": 1}}]}
        entries.append({"file": f"{i:06d}.jpg", "elapsed": i * 1.0, "truth": frame_truth})
    (folder / "frames" / "frames.json").write_text(json.dumps(entries))
    return truth


def test_sample_with_frames_is_played_and_drawn_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "sample"
    make_sample(folder)
    monkeypatch.setattr(table, "sample_folder", lambda: folder)
    app = make_app(tmp_path, FEED="auto")
    t = app.extensions["fuse_referee"]
    game = t.current()
    assert game.feed.kind == "sample" and game.setup.config.players == 2 and game.feed.frames is not None
    t.pipeline.step()
    game.clock.started_at -= 2.5
    jpeg = t.pipeline.step()
    image = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
    assert image.shape == (720, 1280, 3)
    state = app.test_client().get("/api/state").get_json()
    assert state["game"]["feed"] == "sample" and state["violations"][0]["action"] == "place red5 F-999:1"
    red = image[165, 120].astype(int)  # the die's outline: red, as the refused placement is on alert
    assert red[2] > 150 and red[1] < 100
    t.close()
    feed = reopen({"kind": "sample", "path": str(folder), "cursor": 3}, game.setup.config)
    assert feed.cursor == 3 and feed.frames is not None


def test_frame_set_picks_the_frame_shown_at_a_time(tmp_path: Path) -> None:
    make_sample(tmp_path / "s")
    frames = FrameSet.load(tmp_path / "s" / "frames")
    assert frames is not None
    assert frames.at(0.0).index == 0 and frames.at(2.4).index == 2 and frames.at(99).index == 3
    assert frames.at(2.6) is frames.at(2.9)  # decoded once
    assert FrameSet.load(tmp_path) is None


def test_auto_falls_back_to_the_simulated_game(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(table, "sample_folder", lambda: None)
    setup, feed = table.make_feed("auto", {})
    assert feed.kind == "simulated" and setup.config == GameConfig("fuse", 3, "standard")
    with pytest.raises(FeedError, match="no bundled sample"):
        table.make_feed("sample", {})


def test_log_file_source(tmp_path: Path) -> None:
    path = tmp_path / "recorded.json"
    path.write_text(json.dumps({"config": {"edition": "fuse", "players": 2}, "log": [[0, "deal p1 F-003"]]}))
    setup, feed = table.make_feed(str(path), {})
    assert feed.kind == "log" and setup.config.players == 2 and feed.poll(0)[0].action == "deal p1 F-003"


def test_a_log_that_does_not_start_at_zero_starts_the_clock() -> None:
    feed = LogFeed([Report(1.5, "roll red5")])
    assert feed.ready_to_start() and feed.poll(0.0) == []


def make_video_sample(folder: Path, limit: int = 120) -> list[float]:
    """A sample as ``fuse-referee synth game --compress`` writes it: truth.json with a shortened countdown, the
    frames as game.mp4 and their times and truth in frames.json.gz (frames before 0 s show the deal)."""
    import gzip

    folder.mkdir(parents=True)
    config = GameConfig("fuse", 2, "standard")
    deal = engine_deal(GameSetup(config, seed=4))
    log = [[0.0, a] for a in deal] + [[1.0, "roll red5 blue2 black6 green1"], [2.0, "place red5 F-999:1"]]
    truth = {"config": {"edition": "fuse", "players": 2, "difficulty": "standard", "seed": 4, "fuse_cards": 6,
                        "limit_seconds": limit, "policy": "greedy", "style": "default"},
             "log": log, "events": [], "violations": [], "score": {"total": 0}, "won": False, "outcome": "time"}
    (folder / "truth.json").write_text(json.dumps(truth))
    writer = cv2.VideoWriter(str(folder / "game.mp4"), cv2.VideoWriter_fourcc(*"mp4v"), 2, (1280, 720))
    times = [-1.0 + 0.5 * i for i in range(8)]
    entries = []
    for i, t in enumerate(times):
        writer.write(np.full((720, 1280, 3), 20 + 25 * i, np.uint8))
        entries.append({"index": i, "elapsed": t, "truth": {"cards": [], "dice": [
            {"die": "red5", "box": [120, 150, 150, 180], "label": "red5", "on": {"card_id": "F-999", "chip": 1}}]}})
    writer.release()
    data = json.dumps({"fps": 2, "width": 1280, "height": 720, "video": "game.mp4", "frames": entries}).encode()
    (folder / "frames.json.gz").write_bytes(gzip.compress(data))
    return times


def test_video_sample_frames_are_read_forward_and_sought(tmp_path: Path) -> None:
    times = make_video_sample(tmp_path / "s")
    frames = FrameSet.load(tmp_path / "s")
    assert frames is not None and frames.video is not None and frames.times == times

    def level(t: float) -> float:
        frame = frames.at(t)
        assert frame is not None and frame.image.shape == (720, 1280, 3)
        return float(frame.image.mean())

    assert abs(level(0.0) - (20 + 25 * 2)) < 4  # the last frame shown by 0 s: the table as dealt
    assert abs(level(1.2) - (20 + 25 * 4)) < 4 and abs(level(2.6) - (20 + 25 * 7)) < 4
    assert abs(level(-0.6) - (20 + 25 * 0)) < 4  # a jump back seeks
    assert frames.at(-0.6).marks[0].card == "F-999"  # type: ignore[union-attr]
    frames.close()


def test_video_sample_plays_with_its_shortened_countdown(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "sample"
    make_video_sample(folder, limit=120)
    monkeypatch.setattr(table, "sample_folder", lambda: folder)
    app = make_app(tmp_path, FEED="auto")
    t = app.extensions["fuse_referee"]
    game = t.current()
    assert game.feed.kind == "sample" and game.feed.label == "bundled sample game (rendered video)"
    assert game.setup.config.limit_seconds == 120
    t.pipeline.step()
    state = app.test_client().get("/api/state").get_json()
    assert state["clock"]["limit"] == 120 and state["clock"]["text"] == "02:00"
    t.close()


def test_the_bundled_sample_is_the_default_game() -> None:
    folder = feeds.sample_folder()
    if folder is None:
        pytest.skip("the bundled sample is not rendered")
    config_data, feed = feeds.sample_feed(folder)
    assert feed.frames is not None and feed.frames.video is not None
    truth = json.loads((folder / "truth.json").read_text())
    violation = truth["violations"][0]
    frame = feed.frames.at(violation["elapsed"] + 1.0)
    assert frame is not None and frame.image.shape == (720, 1280, 3)
    assert any(m.card == violation["card"] and m.chip == violation["chip"] for m in frame.marks)
    setup, _ = table.make_feed("auto", {})
    assert setup.feed == "sample" and setup.config.limit_seconds == config_data["limit_seconds"]
    feed.close()
