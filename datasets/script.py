"""Play a seeded game with the rules engine at a table's pace, with scripted illegal placements, and keep what
happened both as the referee's action log and as the physical timeline (``TableModel`` tracks) to render.

Chance and the team's choices come from ``random.Random(seed)``, as in ``rules.simulate.play_game``; the table's
pace, positions and hands from a second generator, so the timing never changes the cards or dice drawn. The
clock is the physical timeline's: each action is logged when it is settled, and an action that would settle
after the countdown's end does not happen (the game is lost on time).

A scripted illegal placement: in a chosen turn, just before one of the team's placements, a player puts a
rolled die on an empty chip of their own card that the rules refuse (a chip the die could physically go on:
any dice under it are there). It is logged as ``place`` (the referee refuses it, quoting the rule), stays on
the chip for ``hold`` seconds, then the player takes it back where it lay and the game goes on legally.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import numpy as np

from datasets.errors import DatasetError
from datasets.motions import initial, plan, record, settle, tidy
from datasets.tablemap import TableMap, make_table_map
from datasets.timeline import Plan, TableModel, mismatches
from rules import actions as A
from rules.catalog import load_catalog
from rules.clock import ManualClock
from rules.config import GameConfig
from rules.errors import IllegalActionError, RulesError
from rules.game import CHANCE, Game, State
from rules.legality import judge
from rules.simulate import POLICIES

SETUP_STEP = 0.45
"""Seconds between cards dealt before the countdown starts."""
SET_ASIDE_PAUSE = 0.6
"""Seconds more the dealer takes over a card the starting-hand rule sets aside (it lies on top of the set-aside
cards, in view, before the next one is dealt)."""
FIRST_ROLL = 0.8
PAUSES = {
    A.Roll: (1.2, 2.2), A.Defuse: (0.4, 0.9), A.Reveal: (0.15, 0.35), A.Return: (0.5, 1.0), A.Done: (0.2, 0.5),
    A.RollUnused: (0.5, 0.9), A.DrawSpark: (0.4, 0.8), A.ExtraRoll: (0.3, 0.6), A.Name: (0.2, 0.4),
    A.Ready: (0.2, 0.4),
}
"""Seconds of talk and reach before each kind of action (a placement: 1-2 s after the roll, else 0.3-0.9)."""


@dataclass(frozen=True)
class GameOptions:
    seed: int = 0
    edition: str = "fuse"
    players: int = 2
    difficulty: str = "standard"
    fuse_cards: int | None = None
    policy: str = "greedy"
    illegal: int | None = None
    """Scripted illegal placements; None draws 1 or 2 from the seed."""
    limit_seconds: int = 600
    hold: float = 3.0
    """Seconds an illegal die stays on its chip before it is taken back."""
    pace: float = 1.0
    """Multiplies every motion's duration (2: a slow table)."""
    die_mm: float = 16.0

    def config(self) -> GameConfig:
        try:
            config = GameConfig(self.edition, self.players, self.difficulty, self.fuse_cards,
                                limit_seconds=self.limit_seconds)
        except RulesError as exc:
            raise DatasetError(str(exc)) from None
        if config.epic:
            raise DatasetError("epic games (6-9 players) are not rendered: use 1-4 Countdown players")
        if self.policy not in POLICIES:
            raise DatasetError(f"unknown policy {self.policy!r}: expected {', '.join(POLICIES)}")
        return config


@dataclass
class PlayedGame:
    options: GameOptions
    config: GameConfig
    state: State
    model: TableModel
    plans: list[tuple[float, Plan]] = field(default_factory=list)
    """(log time, plan) of every logged action, illegal ones included, in log order."""
    start: float = 0.0
    """Game seconds when the deal begins (negative: before the countdown)."""
    end: float = 0.0
    """When the game ended: the countdown's end, or the last action."""

    @property
    def log(self) -> list[tuple[float, str]]:
        return [(t, str(p.action)) for t, p in self.plans]


def illegal_placement(state: State, rng: random.Random) -> tuple[A.Place, str] | None:
    """A die of the roll on an empty chip where the rules refuse it, and the engine's reason."""
    dice = state.game.dice
    options = []
    for area in state.players:
        for card in area.cards:
            layout = card.card.layout
            if card.complete or layout is None:
                continue
            for die in dict.fromkeys(state.roll):
                for chip in layout.chips:
                    n = chip.number
                    below = layout.supports.get(n - 1, ())
                    if n in card.placed or any(j + 1 not in card.placed for j in below):
                        continue
                    verdict = judge(layout, card.placed, n, die, dice)
                    if not verdict:
                        options.append((A.Place(die, card.id, n), verdict.reason))
    rng.shuffle(options)
    for action, reason in options:
        try:  # refused for the chip's rule, not for a player's quota
            state.clone().apply_action(action)
        except IllegalActionError as exc:
            if str(exc) == f"{action}: {reason}":
                return action, reason
    return None


def _schedule(options: GameOptions, rng: random.Random) -> list[int]:
    count = options.illegal if options.illegal is not None else 1 + int(rng.random() < 0.5)
    turns, turn = [], rng.randint(0, 2)
    for _ in range(count):
        turns.append(turn)
        turn += rng.randint(2, 4)
    return turns


def _setup(game: PlayedGame, rng: random.Random) -> None:
    """The deal, logged at 0 s and shown before the countdown starts."""
    state, model = game.state, game.model
    done: list[tuple[Plan, State]] = []
    while state.phase in ("deal", "reveal", "role"):
        action = state.sample_chance(rng)
        p = plan(model, state, action, 0.0)
        state.apply_action(action)
        done.append((p, state.clone()))
    steps = [SETUP_STEP + (SET_ASIDE_PAUSE if _set_aside(p.action, after) else 0.0) for p, after in done]
    t = game.start = -round(sum(steps) + 0.6, 1)
    initial(model, state, t - 2.0)
    for (p, after), step in zip(done, steps):
        p.start, p.at = t, t + 0.4
        record(model, p, after)
        settle(model, after, p.at)
        game.plans.append((0.0, p))
        t += step


def _set_aside(action: A.Action, after: State) -> bool:
    return isinstance(action, A.Deal) and action.card in after.set_aside


def play(options: GameOptions, check: bool = False) -> PlayedGame:
    """Play the game and record its timeline. ``check``: after every action, compare the physical table with the
    game and raise ``DatasetError`` where they differ (for tests)."""
    config = options.config()
    engine = Game(config, load_catalog(config.edition, include_user=False))
    clock = ManualClock()
    state = engine.new_initial_state(clock)
    rng = random.Random(options.seed)
    pace = random.Random(f"{options.seed}:table")
    tmap: TableMap = make_table_map(config.players, config.hand_size, config.uses_sparks,
                                    np.random.default_rng([options.seed, 71]))
    model = TableModel(engine, tmap, pace, options.die_mm, options.pace)
    game = PlayedGame(options, config, state, model)
    _setup(game, rng)
    policy = POLICIES[options.policy]()
    scripted = random.Random(f"{options.seed}:illegal")
    turns = _schedule(options, scripted)
    cursor, previous = FIRST_ROLL, None
    limit = config.limit_seconds
    while not state.is_terminal():
        action = state.sample_chance(rng) if state.current_player() == CHANCE else policy(state, rng)
        if isinstance(action, A.Place) and turns and state.turn >= turns[0]:
            cursor = _try_illegal(game, scripted, cursor, turns)
        low, high = PAUSES.get(type(action), (0.3, 0.9))
        if isinstance(action, A.Place) and isinstance(previous, A.Roll):
            low, high = 1.0, 2.0
        start = tidy(model, action, cursor + pace.uniform(low, high) * options.pace)
        p = plan(model, state, action, start)
        if p.at >= limit:
            clock.seconds = limit
            state.check_time()
            break
        clock.seconds = p.at
        state.apply_action(action)
        record(model, p, state)
        game.plans.append((p.at, p))
        cursor = settle(model, state, p.at)
        previous = action
        problems = mismatches(model, state) if check else []
        if problems:
            raise DatasetError(f"after {action} at {p.at:.2f} s the table disagrees with the game: {problems}")
    game.end = float(limit) if state.outcome is not None and state.outcome.reason == "time" else cursor
    return game


def _try_illegal(game: PlayedGame, rng: random.Random, cursor: float, turns: list[int]) -> float:
    state, model = game.state, game.model
    found = illegal_placement(state, rng)
    if found is None:
        turns[0] = state.turn + 1  # nothing to misplace now: try next turn
        return cursor
    turns.pop(0)
    action, reason = found
    p = plan(model, state, action, cursor + rng.uniform(0.8, 1.6) * game.options.pace, illegal=reason)
    p.facts["hold"] = game.options.hold
    if p.at + game.options.hold + 6.0 >= game.config.limit_seconds:  # leave time for the legal continuation
        return cursor
    record(model, p, state)
    game.plans.append((p.at, p))
    return p.end
