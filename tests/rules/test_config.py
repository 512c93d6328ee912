"""Game configuration against the rulebooks' tables, typed here from the rulebook text (not imported)."""

from __future__ import annotations

import pytest

from rules.config import GameConfig
from rules.errors import RulesError

FUSE_LEVELS = ("training", "standard", "expert", "elite", "insane")
COUNTDOWN_LEVELS = ("training", "standard", "expert", "elite", "heroic")

# FUSE rulebook, "Preparation": "# of players / Training Standard Expert Elite Insane"
FUSE_TABLE = """
1 16 19 21 23 25
2 17 20 22 24 26
3 18 21 23 25 27
4 19 22 24 26 28
5 20 23 25 27 29
"""
# FUSE: Countdown rulebook, "Game Setup": "Players Training Standard Expert Elite Heroic"
COUNTDOWN_TABLE = """
1 19 21 24 26 28
2 19 22 25 27 29
3 24 27 29 31 33
4 28 31 33 35 37
"""
# FUSE: Countdown rulebook, "Epic Games"
EPIC_TABLE = """
6 36 41 44 48 52
7 40 46 49 54 60
8 44 51 54 60 68
9 48 56 59 66 76
"""


def cells(table: str, levels: tuple[str, ...]) -> list[tuple[int, str, int]]:
    rows = [list(map(int, line.split())) for line in table.strip().splitlines()]
    return [(row[0], level, size) for row in rows for level, size in zip(levels, row[1:])]


@pytest.mark.parametrize(("players", "difficulty", "size"), cells(FUSE_TABLE, FUSE_LEVELS))
def test_fuse_deck_sizes(players: int, difficulty: str, size: int) -> None:
    config = GameConfig("fuse", players, difficulty)
    assert config.deck_size == size
    assert config.fuse_card_count == 6  # "Shuffle 6 random Fuse Cards into the remaining Bomb Cards"
    assert not config.epic and not config.uses_sparks and not config.uses_roles


@pytest.mark.parametrize(("players", "difficulty", "size"), cells(COUNTDOWN_TABLE, COUNTDOWN_LEVELS))
def test_countdown_deck_sizes(players: int, difficulty: str, size: int) -> None:
    config = GameConfig("countdown", players, difficulty)
    assert config.deck_size == size
    assert not config.epic and config.uses_sparks and config.uses_roles


@pytest.mark.parametrize(("players", "difficulty", "size"), cells(EPIC_TABLE, COUNTDOWN_LEVELS))
def test_epic_deck_sizes(players: int, difficulty: str, size: int) -> None:
    config = GameConfig("countdown", players, difficulty)
    assert config.deck_size == size
    assert config.epic and config.uses_sparks and not config.uses_roles  # "Do not include the role cards"


@pytest.mark.parametrize(
    ("edition", "players"), [("fuse", 0), ("fuse", 6), ("countdown", 0), ("countdown", 5), ("countdown", 10)]
)
def test_player_counts(edition: str, players: int) -> None:
    with pytest.raises(RulesError, match=f"not {players}"):
        GameConfig(edition, players)


@pytest.mark.parametrize(
    ("edition", "difficulty"), [("fuse", "heroic"), ("countdown", "insane"), ("fuse", "easy"), ("chess", "standard")]
)
def test_unknown_difficulty_or_edition(edition: str, difficulty: str) -> None:
    with pytest.raises(RulesError):
        GameConfig(edition, 2, difficulty)


# ------------------------------------------------------------------ fuse cards in Countdown

@pytest.mark.parametrize("difficulty", ["training", "standard"])
def test_countdown_no_fuse_cards_at_training_and_standard(difficulty: str) -> None:
    assert GameConfig("countdown", 2, difficulty).fuse_card_count == 0
    assert GameConfig("countdown", 2, difficulty, fuse_cards=0).fuse_card_count == 0
    with pytest.raises(RulesError, match="no fuse cards"):
        GameConfig("countdown", 2, difficulty, fuse_cards=1)


@pytest.mark.parametrize("difficulty", ["expert", "elite", "heroic"])
@pytest.mark.parametrize("count", range(1, 11))
def test_countdown_chooses_one_to_ten_fuse_cards(difficulty: str, count: int) -> None:
    assert GameConfig("countdown", 3, difficulty, fuse_cards=count).fuse_card_count == count
    assert GameConfig("countdown", 7, difficulty, fuse_cards=count).fuse_card_count == count


@pytest.mark.parametrize("difficulty", ["expert", "elite", "heroic"])
@pytest.mark.parametrize("count", [0, 11, -1])
def test_countdown_fuse_cards_out_of_range(difficulty: str, count: int) -> None:
    with pytest.raises(RulesError, match="1-10 fuse cards"):
        GameConfig("countdown", 3, difficulty, fuse_cards=count)


@pytest.mark.parametrize("difficulty", ["expert", "elite", "heroic"])
def test_countdown_default_fuse_cards_within_range(difficulty: str) -> None:
    assert 1 <= GameConfig("countdown", 3, difficulty).fuse_card_count <= 10


# ------------------------------------------------------------------ turn structure

TURN = [
    # edition, players, dice rolled, dice each player takes, hand size, early defuse
    ("fuse", 1, 3, 3, 4, True),
    ("fuse", 2, 4, 2, 2, True),
    ("fuse", 3, 3, 1, 2, False),
    ("fuse", 4, 4, 1, 2, False),
    ("fuse", 5, 5, 1, 2, False),
    ("countdown", 1, 3, 3, 4, True),
    ("countdown", 2, 4, 2, 2, True),
    ("countdown", 3, 3, 1, 2, False),
    ("countdown", 4, 4, 1, 2, False),
    ("countdown", 6, 6, 1, 2, False),
    ("countdown", 9, 9, 1, 2, False),
]


@pytest.mark.parametrize(("edition", "players", "rolled", "each", "hand", "early"), TURN)
def test_turn_structure(edition: str, players: int, rolled: int, each: int, hand: int, early: bool) -> None:
    config = GameConfig(edition, players)
    assert (config.dice_per_roll, config.dice_per_player, config.hand_size, config.early_defuse) == (
        rolled, each, hand, early)


@pytest.mark.parametrize(
    ("edition", "difficulty", "own_cards"),
    [("fuse", "elite", False), ("fuse", "insane", True), ("countdown", "elite", False), ("countdown", "heroic", True)],
)
def test_own_cards_must_be_cleared_at_insane_and_heroic(edition: str, difficulty: str, own_cards: bool) -> None:
    assert GameConfig(edition, 2, difficulty).must_clear_own_cards is own_cards


def test_ten_minutes() -> None:
    assert GameConfig().limit_seconds == 600


# ------------------------------------------------------------------ variants and advanced setups

# the secondary reference manual's table (Standard, Advanced), only as a named variant
REFERENCE = {1: (21, 26), 2: (21, 26), 3: (21, 26), 4: (26, 31), 5: (31, 36)}


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("difficulty", FUSE_LEVELS)
def test_reference_deck_sizes_variant(players: int, difficulty: str) -> None:
    config = GameConfig("fuse", players, difficulty, variants=frozenset({"reference-deck-sizes"}))
    advanced = difficulty not in ("training", "standard")
    assert config.deck_size == REFERENCE[players][advanced]


@pytest.mark.parametrize(("difficulty", "fuses"), [("training", 0), ("standard", 0), ("expert", 6), ("insane", 6)])
def test_reference_fuse_cards_variant(difficulty: str, fuses: int) -> None:
    config = GameConfig("fuse", 3, difficulty, variants=frozenset({"reference-fuse-cards"}))
    assert config.fuse_card_count == fuses


def test_unknown_variant() -> None:
    with pytest.raises(RulesError, match="unknown variant 'house'"):
        GameConfig("fuse", 3, variants=frozenset({"house"}))


@pytest.mark.parametrize("setup", ["single-deck", "stacks"])
def test_advanced_setups_levels_add_up(setup: str) -> None:
    """The rulebook's example: 3 players at Standard (21 cards) as seven 4s, seven 3s, four 2s and three 1s."""
    config = GameConfig("fuse", 3, "standard", setup=setup, levels=((4, 7), (3, 7), (2, 4), (1, 3)))
    assert config.deck_size == 21
    with pytest.raises(RulesError, match="add up to 20 cards"):
        GameConfig("fuse", 3, "standard", setup=setup, levels=((4, 7), (3, 7), (2, 4), (1, 2)))


def test_advanced_setups_are_fuse_only() -> None:
    with pytest.raises(RulesError, match="FUSE's advanced setups"):
        GameConfig("countdown", 3, setup="stacks", levels=((1, 27),))
    with pytest.raises(RulesError, match="unknown setup"):
        GameConfig("fuse", 3, setup="pile")
