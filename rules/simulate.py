"""Play whole games with the engine: policies for the team, and a runner that reports win rate and scores.

The simulated clock charges ``seconds_per_turn`` for every roll (the table's talk and reach), so a game is
timed like a real one without waiting.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

from rules import actions as A
from rules.clock import ManualClock
from rules.config import GameConfig
from rules.game import CHANCE, TEAM, Game, State
from rules.hints import suggest

Policy = Callable[[State, random.Random], A.Action]


def _distribute_randomly(state: State, rng: random.Random, greedy: bool) -> A.Action:
    """One placement by a random player who can still take a die, or ``Done`` when none can."""
    players = list(range(len(state.players)))
    rng.shuffle(players)
    dice = list(dict.fromkeys(state.roll))
    rng.shuffle(dice)
    for player in players:
        for die in dice:
            options = state.placements(player, die)
            if options:
                if greedy:
                    card, chip = max(options, key=lambda o: _greedy_value(state, player, o))
                else:
                    card, chip = rng.choice(options)
                return A.Place(die, card, chip)
    return A.Done()


def _greedy_value(state: State, player: int, option: tuple[str, int]) -> tuple[int, int]:
    card = next(c for c in state.players[player].cards if c.id == option[0])
    layout = card.card.layout
    assert layout is not None
    completes = len(card.placed) + 1 == len(layout.chips)
    return (card.card.points if completes else 0, len(card.placed))


def _take_value(state: State, action: A.Defuse) -> tuple[int, int]:
    """The rulebook's tip: hold at most one 3-, 4- or 6-point card; otherwise take the richest card."""
    if not action.take:
        return (0, 0)
    points = state.game.card(action.take).points
    player = next(p for p, area in enumerate(state.players) if any(c.id == action.card for c in area.cards))
    heavy = any(c.card.points >= 3 for c in state.players[player].cards if c.id != action.card)
    return (0 if heavy and points >= 3 else 1, points if not heavy else -points)


def random_policy(state: State, rng: random.Random) -> A.Action:
    if state.phase == "distribute":
        defuses = [a for a in state.legal_actions() if isinstance(a, A.Defuse)] if state.config.early_defuse else []
        return rng.choice(defuses) if defuses else _distribute_randomly(state, rng, greedy=False)
    return rng.choice(state.legal_actions())


class RandomPolicy:
    """``random_policy``, planning a whole roll at once where players take one die each: their cards are
    their own, so in random player order each takes a random legal die, and the plan is played out."""

    def __init__(self) -> None:
        self.plan: list[A.Action] = []
        self.turn = -1

    def __call__(self, state: State, rng: random.Random) -> A.Action:
        if state.phase != "distribute" or state.config.dice_per_player > 1 or state._quota(state.leader) > 1:
            return random_policy(state, rng)
        if self.turn != state.turn:
            self.turn = state.turn
            self.plan = self._plan(state, rng)
        return self.plan.pop(0) if self.plan else A.Done()

    @staticmethod
    def _plan(state: State, rng: random.Random) -> list[A.Action]:
        """Each player in random order takes a random die that fits somewhere, on a random chip it fits."""
        players = list(range(len(state.players)))
        rng.shuffle(players)
        left = list(state.roll)
        plan: list[A.Action] = []
        for player in players:
            rng.shuffle(left)
            for die in left:
                spots = state.placements(player, die)
                if spots:
                    card, chip = rng.choice(spots)
                    plan.append(A.Place(die, card, chip))
                    left.remove(die)
                    break
        return plan


def greedy_policy(state: State, rng: random.Random) -> A.Action:
    if state.phase == "distribute":
        defuses = [a for a in state.legal_actions() if isinstance(a, A.Defuse)] if state.config.early_defuse else []
        return max(defuses, key=lambda a: _take_value(state, a)) if defuses else _distribute_randomly(state, rng, True)
    actions = state.legal_actions()
    if state.phase == "defuse":
        return max(actions, key=lambda a: _take_value(state, a))  # type: ignore[arg-type]
    if state.phase in ("ability", "name"):
        return A.Ready()
    return rng.choice(actions)


class HintPolicy:
    """Follows the hint solver's distribution for each roll, greedy elsewhere."""

    def __init__(self) -> None:
        self.turn = -1
        self.plan: list[A.Action] = []

    def __call__(self, state: State, rng: random.Random) -> A.Action:
        if state.phase != "distribute":
            return greedy_policy(state, rng)
        if self.turn != state.turn:
            self.turn = state.turn
            hint = suggest(
                [area.cards for area in state.players], state.roll, state.game.dice,
                max(state._quota(p) for p in range(len(state.players))), state.config.edition,
            )
            self.plan = [A.Place(s.die, s.card, s.chip) for s in hint.steps]
        while self.plan:
            action = self.plan.pop(0)
            if action in state.legal_actions():
                return action
        return greedy_policy(state, rng) if state.config.early_defuse else A.Done()


POLICIES: dict[str, Callable[[], Policy]] = {
    "random": RandomPolicy,
    "greedy": lambda: greedy_policy,
    "hint": HintPolicy,
}


def play_game(config: GameConfig, policy: Policy, seed: int, seconds_per_turn: float = 15.0,
              game: Game | None = None) -> State:
    """One whole game; chance is drawn from ``random.Random(seed)``."""
    rng = random.Random(seed)
    clock = ManualClock()
    state = (game or Game(config)).new_initial_state(clock)
    while not state.is_terminal():
        if state.phase == "roll":
            clock.advance(seconds_per_turn)
        if state.check_time():
            break
        player = state.current_player()
        action = state.sample_chance(rng) if player == CHANCE else policy(state, rng)
        assert player in (CHANCE, TEAM) or player >= 0
        state.apply_action(action)
    return state


@dataclass(frozen=True)
class SimulationReport:
    games: int
    wins: int
    scores: tuple[int, ...]
    seconds: float
    end_reasons: dict[str, int]

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else float("inf")

    def as_dict(self) -> dict[str, object]:
        scores = sorted(self.scores)
        return {
            "games": self.games,
            "win_rate": round(self.win_rate, 4),
            "mean_score": round(statistics.fmean(scores), 3) if scores else 0.0,
            "score_quantiles": {q: scores[min(len(scores) - 1, int(q / 100 * len(scores)))] for q in (10, 50, 90)}
            if scores else {},
            "min_score": scores[0] if scores else 0,
            "max_score": scores[-1] if scores else 0,
            "end_reasons": self.end_reasons,
            "games_per_second": round(self.games_per_second, 2),
        }


def simulate(config: GameConfig, games: int, seed: int, policy: str = "random",
             seconds_per_turn: float = 15.0) -> SimulationReport:
    game = Game(config)
    start = time.perf_counter()
    scores, wins, reasons = [], 0, {}
    for i in range(games):
        state = play_game(config, POLICIES[policy](), seed * 1_000_003 + i, seconds_per_turn, game)
        assert state.outcome is not None
        wins += state.outcome.won
        reasons[state.outcome.reason] = reasons.get(state.outcome.reason, 0) + 1
        scores.append(state.score()["total"])
    return SimulationReport(games, wins, tuple(scores), time.perf_counter() - start, reasons)
