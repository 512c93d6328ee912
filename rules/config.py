"""Game configuration: edition, players, difficulty, and the rulebooks' difficulty tables."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from rules.errors import RulesError

FUSE_LEVELS = ("training", "standard", "expert", "elite", "insane")
COUNTDOWN_LEVELS = ("training", "standard", "expert", "elite", "heroic")

# FUSE rulebook, "Preparation": bomb cards in the deck by players (1-5) and difficulty.
FUSE_DECK_SIZES: dict[int, tuple[int, ...]] = {
    1: (16, 19, 21, 23, 25),
    2: (17, 20, 22, 24, 26),
    3: (18, 21, 23, 25, 27),
    4: (19, 22, 24, 26, 28),
    5: (20, 23, 25, 27, 29),
}
# FUSE: Countdown rulebook, "Game Setup" (1-4 players) and "Epic Games" (6-9 players, both sets combined).
COUNTDOWN_DECK_SIZES: dict[int, tuple[int, ...]] = {
    1: (19, 21, 24, 26, 28),
    2: (19, 22, 25, 27, 29),
    3: (24, 27, 29, 31, 33),
    4: (28, 31, 33, 35, 37),
    6: (36, 41, 44, 48, 52),
    7: (40, 46, 49, 54, 60),
    8: (44, 51, 54, 60, 68),
    9: (48, 56, 59, 66, 76),
}
# The third-party reference manual's table (Standard, Advanced), offered only as the named variant
# "reference-deck-sizes": Training and Standard use its first column, harder levels its second.
REFERENCE_DECK_SIZES: dict[int, tuple[int, int]] = {1: (21, 26), 2: (21, 26), 3: (21, 26), 4: (26, 31), 5: (31, 36)}
EPIC_EXTRA_FUSE_DICE = {6: 10, 7: 15, 8: 20, 9: 25}
VARIANTS = {
    "reference-deck-sizes": "deck sizes from the reference manual's Standard/Advanced table (FUSE)",
    "reference-fuse-cards": "fuse cards only at Expert and above, as the reference manual says (FUSE)",
    "hard-cards": "keep FUSE's five 6-point cards in the deck (the rulebook removes them by default)",
}
SETUP_MODES = ("standard", "single-deck", "stacks")
# Fuse cards a Countdown game shuffles in when the table does not choose (the rulebook: 1-10 at Expert+).
DEFAULT_COUNTDOWN_FUSES = {"expert": 3, "elite": 6, "heroic": 10}


@dataclass(frozen=True)
class GameConfig:
    """Everything fixed before the first card is dealt."""

    edition: str = "fuse"
    """``fuse`` or ``countdown``; a Countdown game of 6-9 players is an epic game (both sets combined)."""
    players: int = 3
    difficulty: str = "standard"
    fuse_cards: int | None = None
    """Countdown only: fuse cards shuffled in (1-10 at Expert and above); None takes the default."""
    setup: str = "standard"
    """``standard``, or FUSE's advanced ``single-deck`` / ``stacks`` setups, which use ``levels``."""
    levels: tuple[tuple[int, int], ...] = ()
    """Advanced setups: (points, how many cards) per level; they must add up to the deck size."""
    variants: frozenset[str] = field(default_factory=frozenset)
    limit_seconds: int = 600

    def __post_init__(self) -> None:
        levels = FUSE_LEVELS if self.edition == "fuse" else COUNTDOWN_LEVELS
        if self.edition not in ("fuse", "countdown"):
            raise RulesError(f"unknown edition {self.edition!r}: expected fuse or countdown")
        table = FUSE_DECK_SIZES if self.edition == "fuse" else COUNTDOWN_DECK_SIZES
        if self.players not in table:
            allowed = "1-5" if self.edition == "fuse" else "1-4, or 6-9 for an epic game"
            raise RulesError(f"{self.edition} is played by {allowed} players, not {self.players}")
        if self.difficulty not in levels:
            raise RulesError(f"unknown {self.edition} difficulty {self.difficulty!r}: expected {', '.join(levels)}")
        unknown = set(self.variants) - set(VARIANTS)
        if unknown:
            raise RulesError(f"unknown variant {sorted(unknown)[0]!r}: expected one of {', '.join(VARIANTS)}")
        if self.setup not in SETUP_MODES:
            raise RulesError(f"unknown setup {self.setup!r}: expected {', '.join(SETUP_MODES)}")
        if self.setup != "standard":
            if self.edition != "fuse":
                raise RulesError("the single-deck and stacks setups are FUSE's advanced setups")
            if sum(n for _, n in self.levels) != self.deck_size:
                raise RulesError(
                    f"the levels {dict(self.levels)} add up to {sum(n for _, n in self.levels)} cards, "
                    f"but {self.difficulty} with {self.players} players needs {self.deck_size}"
                )
        if self.edition == "countdown" and self.fuse_cards is not None:
            if self.difficulty in ("training", "standard") and self.fuse_cards:
                raise RulesError("Countdown uses no fuse cards at Training and Standard")
            if self.difficulty not in ("training", "standard") and not 1 <= self.fuse_cards <= 10:
                raise RulesError(f"Countdown at {self.difficulty} shuffles in 1-10 fuse cards, not {self.fuse_cards}")

    @cached_property
    def level_index(self) -> int:
        return (FUSE_LEVELS if self.edition == "fuse" else COUNTDOWN_LEVELS).index(self.difficulty)

    @cached_property
    def epic(self) -> bool:
        return self.edition == "countdown" and self.players >= 6

    @cached_property
    def deck_size(self) -> int:
        """Bomb cards in play: the number in the rulebook's difficulty table."""
        if self.edition == "fuse" and "reference-deck-sizes" in self.variants:
            return REFERENCE_DECK_SIZES[self.players][0 if self.level_index < 2 else 1]
        table = FUSE_DECK_SIZES if self.edition == "fuse" else COUNTDOWN_DECK_SIZES
        return table[self.players][self.level_index]

    @cached_property
    def fuse_card_count(self) -> int:
        if self.edition == "fuse":
            if "reference-fuse-cards" in self.variants and self.level_index < 2:
                return 0
            return 6
        if self.level_index < 2:
            return 0
        return self.fuse_cards if self.fuse_cards is not None else DEFAULT_COUNTDOWN_FUSES[self.difficulty]

    @cached_property
    def hand_size(self) -> int:
        return 4 if self.players == 1 else 2

    @cached_property
    def dice_per_roll(self) -> int:
        return {1: 3, 2: 4}.get(self.players, self.players)

    @cached_property
    def dice_per_player(self) -> int:
        """How many rolled dice each player takes: all three solo, two each with two players, else one."""
        return {1: 3, 2: 2}.get(self.players, 1)

    @cached_property
    def must_clear_own_cards(self) -> bool:
        """Insane (FUSE) and Heroic (Countdown) need the players' own cards defused too."""
        return self.difficulty in ("insane", "heroic")

    @cached_property
    def uses_sparks(self) -> bool:
        return self.edition == "countdown"

    @cached_property
    def uses_roles(self) -> bool:
        return self.edition == "countdown" and not self.epic

    @cached_property
    def early_defuse(self) -> bool:
        """1-2 player games may defuse a card before all rolled dice are placed."""
        return self.players <= 2
