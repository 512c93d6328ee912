"""The fallback demo game: a seeded simulated game played in real time while the bundled sample is missing.

The rules engine plays a whole game with the greedy policy; its log is re-timed to a table's pace (a roll every
``SECONDS_PER_TURN`` seconds, the turn's placements spread after it), and two illegal placements are injected
(early, so a new user sees a violation within seconds) plus one low-confidence read, so the dashboard shows
all three overlay colours. A refused report leaves the game as it was, so the rest of the log stays legal.
"""

from __future__ import annotations

from rules import actions as A
from rules.config import GameConfig
from rules.game import Game, State
from rules.simulate import greedy_policy, play_game
from webui.feeds import LogFeed, Report

DEFAULT_SEED = 9
"""FUSE, 3 players, standard: the greedy team wins this one with seconds to spare."""
SECONDS_PER_TURN = 12.0
FIRST_ROLL_AT = 3.0
VIOLATION_TURNS = (0, 5)
UNSURE_TURN = 1
UNSURE_CONFIDENCE = 0.55


def _illegal_placement(state: State) -> str | None:
    """A rolled die on an empty chip where the rules forbid it (the first such, in table order)."""
    dice = state.game.dice
    for die in state.roll:
        for area in state.players:
            for card in area.cards:
                layout = card.card.layout
                if card.complete or layout is None:
                    continue
                legal = set(card.legal_chips(die, dice))
                for chip in layout.chips:
                    if chip.number not in card.placed and chip.number not in legal:
                        return str(A.Place(die, card.id, chip.number))
    return None


def simulated_reports(config: GameConfig, seed: int = DEFAULT_SEED) -> list[Report]:
    """The whole demo game as timed reports (setup at 0 s)."""
    log = play_game(config, greedy_policy, seed, SECONDS_PER_TURN).log()
    state = Game(config).new_initial_state()
    turns: list[list[tuple[str, float]]] = [[]]  # [setup, turn 0, turn 1, ...]; (action, confidence)
    last_time = None
    injected: set[int] = set()
    for elapsed, action in log:
        if action.startswith("roll") and elapsed > 0 and elapsed != last_time:
            turns.append([])
            last_time = elapsed
        turn = len(turns) - 2
        if action.startswith("place") and turn in VIOLATION_TURNS and turn not in injected:
            injected.add(turn)
            illegal = _illegal_placement(state)
            if illegal:
                turns[-1].append((illegal, 1.0))
        turns[-1].append((action, 1.0))
        state.apply_action(A.parse_action(action))
        if action.startswith("place") and turn == UNSURE_TURN and sum(a.startswith("place") for a, _ in turns[-1]) == 2:
            turns[-1][-1] = (action, UNSURE_CONFIDENCE)
    reports = [Report(0.0, action, "log", conf) for action, conf in turns[0]]
    for k, turn_actions in enumerate(turns[1:]):
        start = FIRST_ROLL_AT + k * SECONDS_PER_TURN
        step = min(1.5, (SECONDS_PER_TURN - 2.0) / max(1, len(turn_actions)))
        reports += [Report(round(start + i * step, 2), action, "log", conf)
                    for i, (action, conf) in enumerate(turn_actions)]
    return reports


def simulated_feed(config: GameConfig, seed: int = DEFAULT_SEED, cursor: int = 0, speed: float = 1.0) -> LogFeed:
    return LogFeed(simulated_reports(config, seed), "simulated", "seeded demo game (no camera, no sample yet)", True,
                   None, {"seed": seed}, cursor, speed)
