"""Benchmarks of the rules engine: one legality check, all legal placements of a roll, simulated games.

``fuse-referee bench rules`` prints the figures quoted in the README. Positions come from seeded random games,
so every run measures the same work; checks are timed one by one with ``perf_counter_ns``.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from rules.config import GameConfig
from rules.game import CHANCE, Game, State
from rules.legality import judge, solver_for
from rules.simulate import random_policy, simulate


def _positions(config: GameConfig, games: int, seed: int) -> list[State]:
    """States at the start of each distribution step of random games."""
    found = []
    rng = random.Random(seed)
    game = Game(config)
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal() and state.turn < 30:
            if state.phase == "distribute" and not any(a.taken for a in state.players):
                found.append(state.clone())
            action = state.sample_chance(rng) if state.current_player() == CHANCE else random_policy(state, rng)
            state.apply_action(action)
    return found


def _fresh_memos(states: list[State]) -> None:
    """Forget every memoised verdict, so a check measures the work, not a dictionary lookup."""
    for state in states:
        for area in state.players:
            for card in area.cards:
                solver_for(card.card.layout, state.game.dice).forget()  # type: ignore[arg-type]


def _cold_and_warm(states: list[State], items: list, run_one: Callable[[Any], object], name: str,
                   unit: str) -> dict[str, float]:
    """Time ``run_one`` on each item, first with the memos emptied, then again with them full."""
    scale = {"us": 1e3, "ms": 1e6}[unit]
    results = {}
    for label in ("cold", "warm"):
        if label == "cold":
            _fresh_memos(states)
        times = []
        for item in items:
            start = time.perf_counter_ns()
            run_one(item)
            times.append((time.perf_counter_ns() - start) / scale)
        times.sort()
        results[f"{name}_{label}_median_{unit}"] = round(statistics.median(times), 3)
        results[f"{name}_{label}_p95_{unit}"] = round(times[int(0.95 * len(times))], 3)
    return results


def bench_checks(states: list[State]) -> dict[str, float]:
    """Single ``judge`` calls on every empty chip of every player's card with every rolled die, in µs."""
    dice = states[0].game.dice
    cases = [
        (card.card.layout, dict(card.placed), chip.number, die)
        for state in states for area in state.players for card in area.cards for die in state.roll
        for chip in card.card.layout.chips  # type: ignore[union-attr]
        if chip.number not in card.placed
    ]
    results = _cold_and_warm(states, cases, lambda case: judge(*case, dice), "check", "us")
    return {**results, "checks": len(cases)}


def bench_all_placements(states: list[State]) -> dict[str, float]:
    """Every legal placement of every rolled die on every player's cards, per roll, in ms."""

    def all_placements(state: State) -> None:
        for player in range(len(state.players)):
            for die in state.roll:
                state.placements(player, die)

    return {**_cold_and_warm(states, states, all_placements, "placements", "ms"), "rolls": len(states)}


def run(games: int = 2000, seed: int = 1) -> dict[str, object]:
    four = _positions(GameConfig("fuse", 4, "standard"), 40, seed)
    figures: dict[str, object] = {"positions": "4-player FUSE Standard, random play, 40 games"}
    figures.update(bench_checks(four))
    figures.update(bench_all_placements(four))
    report = simulate(GameConfig("fuse", 3, "standard"), games, seed, "random")
    figures["simulate"] = f"{games} FUSE games, 3 players, Standard, random policy, one process"
    figures["games_per_second"] = round(report.games_per_second, 1)
    return figures


def main(argv: list[str]) -> int:
    import argparse
    import json

    parser = argparse.ArgumentParser(prog="fuse-referee bench rules", description=__doc__)
    parser.add_argument("--games", type=int, default=2000, help="simulated games for the games/second figure")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    figures = run(args.games, args.seed)
    print(json.dumps(figures) if args.json else "\n".join(f"{k}: {v}" for k, v in figures.items()))
    return 0
