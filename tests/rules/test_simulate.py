"""Simulated games: reports add up, seeds reproduce, the policies all finish their games."""

from __future__ import annotations

import pytest

from rules.config import GameConfig
from rules.game import Game
from rules.simulate import POLICIES, play_game, simulate

KEYS = {"games", "win_rate", "mean_score", "score_quantiles", "min_score", "max_score", "end_reasons",
        "games_per_second"}


@pytest.mark.parametrize(
    ("config", "policy"),
    [(GameConfig("fuse", 3), "random"), (GameConfig("fuse", 2, "expert"), "greedy"),
     (GameConfig("countdown", 3, "expert"), "random"), (GameConfig("countdown", 1), "greedy"),
     (GameConfig("fuse", 3), "hint")],
)
def test_reports_add_up(config: GameConfig, policy: str) -> None:
    games = 1 if policy == "hint" else 4
    report = simulate(config, games, seed=3, policy=policy)
    assert report.games == games == len(report.scores) == sum(report.end_reasons.values())
    assert set(report.end_reasons) <= {"cleared", "time", "bag empty"}
    assert report.wins == report.end_reasons.get("cleared", 0)
    assert report.win_rate == report.wins / games
    summary = report.as_dict()
    assert set(summary) == KEYS
    assert summary["min_score"] == min(report.scores) <= summary["mean_score"] <= summary["max_score"]
    assert summary["games_per_second"] > 0


def test_seeds_reproduce() -> None:
    config = GameConfig("countdown", 2, "elite", fuse_cards=4)
    first = simulate(config, 3, seed=11)
    assert first.scores == simulate(config, 3, seed=11).scores
    assert first.end_reasons == simulate(config, 3, seed=11).end_reasons
    assert {simulate(config, 3, seed=s).scores for s in (12, 13, 14)} != {first.scores}


def test_report_scores_are_the_games_scores() -> None:
    config = GameConfig("fuse", 1, "training")
    report = simulate(config, 2, seed=5, policy="greedy")
    game = Game(config)
    states = [play_game(config, POLICIES["greedy"](), 5 * 1_000_003 + i, 15.0, game) for i in range(2)]
    assert report.scores == tuple(s.score()["total"] for s in states)
    assert all(s.is_terminal() for s in states)


def test_time_per_turn_counts() -> None:
    """At a minute a roll the clock reaches ten minutes as the tenth roll is due: every game is lost on time."""
    report = simulate(GameConfig("fuse", 4, "elite"), 3, seed=1, seconds_per_turn=60.0)
    assert report.end_reasons == {"time": 3} and report.win_rate == 0.0
    state = play_game(GameConfig("fuse", 4, "elite"), POLICIES["random"](), 1, 60.0)
    assert state.turn == 9 and state.clock.elapsed() == 600.0  # turns count from 0: nine rolls were played


def test_the_hint_solver_plays_better_than_chance() -> None:
    config = GameConfig("fuse", 3, "standard")
    random_mean = sum(simulate(config, 4, seed=2, policy="random").scores) / 4
    hint_mean = sum(simulate(config, 4, seed=2, policy="hint").scores) / 4
    assert hint_mean > random_mean + 5
