"""Whole rendered games: the physical table follows the engine, the log replays through the referee to the same
violations, score and result, a tiny game renders to the same bytes on one or two processes, per-frame truth shows
the scripted illegal die where and when truth.json says, the CLI, and the bundled sample."""

from __future__ import annotations

import gzip
import hashlib
import json
import math
import random
from pathlib import Path

import cv2
import numpy as np
import pytest

from datasets.cli import main as cli_main
from datasets.errors import DatasetError
from datasets.game import RenderOptions, build_timeline, game_truth, read_frames, render_game
from datasets.script import GameOptions, illegal_placement, play
from rules import actions as A
from rules.clock import ManualClock
from rules.config import GameConfig
from rules.referee import Referee

SAMPLE = Path(__file__).resolve().parents[2] / "datasets" / "sample"
TINY = RenderOptions(fps=2, width=192, height=108, workers=1)
TABLES = [
    ("fuse", 1, "training", "greedy"),
    ("fuse", 2, "standard", "random"),
    ("fuse", 4, "expert", "greedy"),
    ("fuse", 5, "insane", "random"),
    ("countdown", 1, "expert", "random"),
    ("countdown", 2, "heroic", "greedy"),
    ("countdown", 3, "expert", "greedy"),
    ("countdown", 4, "elite", "random"),
]


def replay(truth: dict) -> Referee:
    """What a perfect referee makes of truth.json's log (the clock run out at the end of a game lost on time)."""
    c = truth["config"]
    config = GameConfig(c["edition"], c["players"], c["difficulty"],
                        c["fuse_cards"] if c["edition"] == "countdown" else None, limit_seconds=c["limit_seconds"])
    referee = Referee(config, ManualClock())
    for elapsed, action in truth["log"]:
        referee.clock.seconds = elapsed  # type: ignore[attr-defined]
        referee.submit(action, "log")
    if truth["outcome"] == "time":
        referee.clock.seconds = truth["end"]  # type: ignore[attr-defined]
        referee.check_time()
    return referee


def assert_replays(truth: dict) -> None:
    referee = replay(truth)
    assert [(v.action, v.reason) for v in referee.violations] == [(v["action"], v["reason"]) for v in
                                                                  truth["violations"]]
    assert referee.state.score() == truth["score"]
    assert referee.state.outcome is not None and referee.state.outcome.won == truth["won"]
    assert referee.state.outcome.reason == truth["outcome"]


@pytest.mark.parametrize(("edition", "players", "difficulty", "policy"), TABLES)
@pytest.mark.parametrize("seed", [0, 1])
def test_the_physical_table_follows_the_game(edition: str, players: int, difficulty: str, policy: str,
                                             seed: int) -> None:
    # check=True compares dice on chips, the roll, unused dice, cards and the bag after every action
    played = play(GameOptions(seed, edition, players, difficulty, policy=policy, illegal=2), check=True)
    assert played.state.outcome is not None
    times = [t for t, _ in played.log]
    assert times == sorted(times) and times[0] == 0.0 and played.start < 0
    assert all(t < played.config.limit_seconds for t in times)


@pytest.mark.parametrize(("edition", "players", "difficulty", "policy"), TABLES[:6])
@pytest.mark.parametrize("limit", [90, 600])
def test_the_log_replays_through_the_referee(edition: str, players: int, difficulty: str, policy: str,
                                             limit: int) -> None:
    played = play(GameOptions(3, edition, players, difficulty, policy=policy, illegal=3, limit_seconds=limit))
    truth = game_truth(played, build_timeline(played, TINY))
    assert_replays(truth)
    assert truth["violations"], "no scripted illegal placement happened"
    for v in truth["violations"]:  # the illegal place, then the game goes on with legal actions
        at = truth["log"].index([v["elapsed"], v["action"]])
        assert v["action"].startswith("place ") and truth["events"][at + 1]["accepted"]
        assert "does not accept" in v["reason"] or "chip" in v["reason"]


def test_scripted_illegal_placements_are_refused_for_the_chip_not_the_quota() -> None:
    played = play(GameOptions(7, illegal=0))
    assert not [p for _, p in played.plans if p.illegal]
    state = played.model.game.new_initial_state()
    rng = random.Random(1)
    for _, text in played.log:
        if text.startswith("place"):
            found = illegal_placement(state, rng)
            assert found is not None
            action, reason = found
            card = next(c for a in state.players for c in a.cards if c.id == action.card)
            assert action.chip not in card.placed and reason
            break
        state.apply_action(A.parse_action(text))


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("game") / "one"
    render_game(out, GameOptions(4, limit_seconds=40, illegal=1), TINY, progress=False)
    return out


def _digest(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir()) if p.is_file()}


def test_tiny_game_writes_video_and_truth(tiny: Path) -> None:
    truth = json.loads((tiny / "truth.json").read_text())
    for key in ("config", "log", "events", "violations", "score", "won", "outcome", "end", "render"):
        assert key in truth
    assert set(truth["config"]) >= {"edition", "players", "difficulty", "seed", "fuse_cards", "limit_seconds",
                                    "policy", "style"}
    assert truth["outcome"] == "time" and truth["end"] == 40 and not truth["won"]
    assert_replays(truth)
    frames = read_frames(tiny)
    assert frames["video"] == "game.mp4" and len(frames["frames"]) == truth["render"]["frames"]
    assert [f["index"] for f in frames["frames"]] == list(range(len(frames["frames"])))
    assert frames["frames"][0]["elapsed"] < 0 < frames["frames"][-1]["elapsed"]
    capture = cv2.VideoCapture(str(tiny / "game.mp4"))
    decoded = 0
    while True:
        ok, image = capture.read()
        if not ok:
            break
        assert image.shape == (108, 192, 3)
        decoded += 1
    assert decoded == len(frames["frames"])


def test_per_frame_truth_shows_the_illegal_die_while_it_lies_there(tiny: Path) -> None:
    truth = json.loads((tiny / "truth.json").read_text())
    frames = read_frames(tiny)["frames"]
    (v,) = truth["violations"]

    def on_chip(index: int) -> list[dict]:
        return [d for d in frames[index]["truth"]["dice"] if d["on"] and d["on"]["card_id"] == v["card"]
                and d["on"]["chip"] == v["chip"]]

    assert frames[v["frame"]]["elapsed"] >= v["elapsed"]
    assert [d["die"] for d in on_chip(v["frame"])] == [v["die"]]
    assert "hand" not in frames[v["frame"]]["truth"]["distractors"] or on_chip(v["frame"])[0]["visible"] > 0.5
    assert on_chip(v["frame_taken_back"]) == [] and not on_chip(v["frame"] - 2)
    event = next(e for e in truth["events"] if e["action"] == v["action"] and not e["accepted"])
    assert event["frame"] == v["frame"] and event["reason"] == v["reason"]


def test_same_seed_same_bytes_on_one_or_two_processes(tiny: Path, tmp_path: Path) -> None:
    again = tmp_path / "again"
    render_game(again, GameOptions(4, limit_seconds=40, illegal=1),
                RenderOptions(fps=2, width=192, height=108, workers=2), progress=False)
    assert _digest(again) == _digest(tiny)


def test_frames_format_and_compressed_truth(tmp_path: Path) -> None:
    out = tmp_path / "frames"
    ro = RenderOptions(fps=1, width=160, height=90, fmt="frames", compress=True, workers=1,
                       style="heldout", overrides=("hand_share=0",))
    truth = render_game(out, GameOptions(2, "countdown", 2, "expert", limit_seconds=25), ro, progress=False)
    assert not (out / "frames.json").exists() and (out / "frames.json.gz").is_file()
    assert gzip.decompress((out / "frames.json.gz").read_bytes())[:1] == b"{"
    frames = read_frames(out)
    assert frames["video"] is None and (out / frames["frames"][0]["file"]).is_file()
    assert len(list((out / "frames").glob("*.jpg"))) == len(frames["frames"])
    assert truth["config"]["style"] == "heldout" and truth["config"]["edition"] == "countdown"
    with pytest.raises(DatasetError, match="no frames.json"):
        read_frames(tmp_path)


def test_cli_renders_a_game_and_reports_bad_options(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "g"
    code = cli_main(["synth", "game", "--seed", "3", "--out", str(out), "--fps", "1", "--size", "128x72",
                     "--limit-seconds", "20", "--workers", "1", "--quiet", "--illegal", "1"])
    assert code == 0 and (out / "game.mp4").is_file()
    assert "frames" in capsys.readouterr().out
    assert cli_main(["synth", "game", "--out", str(out), "--size", "big"]) == 2
    assert cli_main(["synth", "game", "--out", str(out), "--players", "7"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[0].startswith("error: cannot read --size 'big'") and err[1].startswith("error: fuse is played by")


@pytest.mark.skipif(not (SAMPLE / "truth.json").is_file(), reason="the bundled sample is not rendered")
def test_the_bundled_sample() -> None:
    size = sum(p.stat().st_size for p in SAMPLE.rglob("*") if p.is_file())
    assert size <= 10_000_000
    truth = json.loads((SAMPLE / "truth.json").read_text())
    assert truth["outcome"] in ("time", "cleared", "bag empty") and truth["end"] <= 180
    assert truth["violations"] and any(" take " in a for _, a in truth["log"])
    referee = replay(truth)
    revealed = [a.split()[1] for _, a in truth["log"] if a.startswith("reveal ")]
    assert any(referee.game.card(c).kind == "fuse" for c in revealed), "no fuse card in the sample"
    assert_replays(truth)
    frames = read_frames(SAMPLE)
    capture = cv2.VideoCapture(str(SAMPLE / frames["video"]))
    assert int(capture.get(cv2.CAP_PROP_FRAME_COUNT)) == len(frames["frames"])
    capture.set(cv2.CAP_PROP_POS_FRAMES, truth["violations"][0]["frame"])
    ok, image = capture.read()
    assert ok and image.shape == (frames["height"], frames["width"], 3)
    assert (SAMPLE / "README.md").is_file()


def test_an_unused_die_rolled_again_lands_away_from_where_it_lay() -> None:
    # a die rolled again in place would show nothing a camera (or a referee) could see
    played = play(GameOptions(23, limit_seconds=120))
    rolled = [p for _, p in played.plans if isinstance(p.action, A.RollUnused)]
    assert rolled
    for p in rolled:
        track = played.model.tracks[f"die:{p.facts['die']}"]
        before, after = track.at(p.start)[0], track.at(p.at + 0.01)[0]
        assert math.hypot(after.x - before.x, after.y - before.y) >= 1.7 * played.options.die_mm
        swept = next(t for t in track.times if t > p.at)  # in view a while, its new face for all to see
        assert swept >= p.at + 1.5 and track.at(swept + 0.01)[0] is None


def test_cards_set_aside_at_the_deal_stay_in_sight() -> None:
    # the starting-hand rule sets cards aside: each must stay in view (not stacked under the next one)
    played = play(GameOptions(5, players=3, limit_seconds=60))
    deals = [p for _, p in played.plans if isinstance(p.action, A.Deal)]
    hands = {c.id for area in played.state.players for c in area.cards}
    assert any(p.action.card not in hands for p in deals), "no card set aside in this game"
    end = deals[-1].at + 0.01
    spots = [played.model.tracks[f"card:{p.action.card}"].at(end)[0] for p in deals]
    for i, a in enumerate(spots):
        for b in spots[i + 1:]:
            assert math.hypot(a.x - b.x, a.y - b.y) >= 35.0


@pytest.mark.parametrize(("seed", "players"), [(12, 3), (9, 4)])
def test_the_camera_keeps_the_tops_of_stacks_in_view(seed: int, players: int) -> None:
    # a stack of five dice on a far player's card must not rise out of the frame: its top die says what it holds
    from datasets.camera import Projector
    from datasets.tablemap import STACK_MM

    played = play(GameOptions(seed, players=players, limit_seconds=30))
    tl = build_timeline(played, RenderOptions())
    proj, tmap = Projector(tl.setting.camera), played.model.tmap
    tops = [(c.x, c.y, STACK_MM) for c in (tmap.player_card(p, s) for p in range(players) for s in range(tmap.hand))]
    px = proj.distort(proj.project(np.array(tops)))
    assert px.min() >= 0 and (px[:, 0] < tl.setting.camera.width).all() and (px[:, 1] < tl.setting.camera.height).all()


def test_spark_cards_beyond_their_places_lie_in_view_not_under_each_other() -> None:
    from datasets.tablemap import make_table_map

    tmap = make_table_map(2, 2, True, np.random.default_rng(0))
    places = [tmap.player_card(0, s) for s in range(-1, tmap.hand + 6)]
    for i, a in enumerate(places):
        for b in places[i + 1:]:
            assert math.hypot(a.x - b.x, a.y - b.y) >= 63.0


def test_a_card_set_aside_and_turned_up_at_once_from_the_deck() -> None:
    # set aside at the deal, shuffled back and revealed at the next step, while it still glides into the deck
    played = play(GameOptions(13, players=2, limit_seconds=30), check=True)
    assert played.log
