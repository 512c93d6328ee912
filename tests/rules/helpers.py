"""Building game situations for the tests: setup logs with chosen chance actions, then the actions that follow.

Everything goes through the public interface (``play_log``/``Game.replay`` and ``State.apply_action``), so a
situation is just the log a table would have produced.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rules.actions import parse_action
from rules.config import GameConfig
from rules.game import Game, State, play_log

FUSE_ROW = ("F-006", "F-007", "F-008", "F-010", "F-012")
"""Five FUSE cards that no hand below uses."""
COUNTDOWN_ROW = ("C-G07", "C-G08", "C-G13", "C-G14", "C-G33")
"""Five Countdown cards that no hand below uses."""


def setup_log(hands: Sequence[Sequence[str]], row: Sequence[str], roles: Sequence[str] = ()) -> list[str]:
    """The chance actions of a setup: each player's hand in turn, the row, then the role cards."""
    log = [f"deal p{p + 1} {card}" for p, cards in enumerate(hands) for card in cards]
    log += [f"reveal {card}" for card in row]
    log += [f"role p{p + 1} {role}" for p, role in enumerate(roles)]
    return log


def start(config: GameConfig, hands: Sequence[Sequence[str]], row: Sequence[str] = (), roles: Sequence[str] = (),
          then: Iterable[str] = ()) -> State:
    """A game dealt as given (the default row depends on the edition), then ``then`` applied."""
    if not row:
        row = FUSE_ROW if config.edition == "fuse" else COUNTDOWN_ROW
    return play_log(Game(config), setup_log(hands, row, roles) + list(then))


def act(state: State, *actions: str) -> State:
    """Apply action texts in order; returns the state for chaining."""
    for text in actions:
        state.apply_action(parse_action(text))
    return state


def texts(actions: Iterable[object]) -> list[str]:
    return [str(a) for a in actions]


def card_dice(state: State, card_id: str) -> dict[int, str]:
    """The dice on a card in play, chip -> die text (empty if the card is in play without dice)."""
    for area in state.players:
        for card in area.cards:
            if card.id == card_id:
                return {chip: str(die) for chip, die in sorted(card.placed.items())}
    raise KeyError(card_id)


def hand(state: State, player: int) -> list[str]:
    """Card ids in front of player ``player`` (0-based)."""
    return [c.id for c in state.players[player].cards]


def bag_size(state: State) -> int:
    return sum(state.bag.values())
