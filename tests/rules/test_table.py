"""Cards in play: which dice are safe from fuse cards and unused dice (under another die, or in a "first" chip)."""

from __future__ import annotations

import pytest

from rules.catalog import parse_card_line
from rules.dice import Die
from rules.table import CardInPlay

SAFE = [
    # card, dice on it by chip, chips whose dice are safe
    ("stack [yellow] [red] [blue] [green]", {1: "yellow1", 2: "red2"}, {1}),
    ("stack [yellow] [red] [blue] [green]", {1: "yellow1", 2: "red2", 3: "blue3"}, {1, 2}),
    ("stack [yellow] [red] [blue] [green]", {1: "yellow1"}, set()),
    ("pyramid [green] [3] | [black]", {1: "green1", 2: "red3"}, set()),
    ("pyramid [green] [3] | [black]", {1: "green1", 2: "red3", 3: "black4"}, {1, 2}),
    ("wall [yellow] [black] [blue] | [red] _ [green]", {1: "yellow1", 2: "black2", 4: "red3"}, {1}),
    ("ziggurat [blue] [5] [6] [yellow] | [red]", {1: "blue1", 2: "red5", 3: "red6", 4: "yellow1"}, set()),
    ("[first blue] [red/6] [last ?]", {1: "blue2", 2: "red6"}, {1}),
    ("[C] = [C]; [#] = [#]", {1: "red1", 3: "red2"}, set()),
]


@pytest.mark.parametrize(("text", "dice", "safe"), SAFE)
def test_safe_chips(text: str, dice: dict[int, str], safe: set[int]) -> None:
    card = CardInPlay(parse_card_line(f"X-1 3 user {text}", "countdown", "bomb"))
    for chip, die in dice.items():
        card.put(chip, Die.parse(die))
    assert {chip for chip in card.safe_chips() if chip in card.placed} == safe


def test_placed_and_physical_dice() -> None:
    card = CardInPlay(parse_card_line("X-1 1 user [red] [?]", "fuse", "bomb"))
    card.put(1, Die.parse("red3"), Die.parse("blue3"))  # a die the Cutter made red
    copy = card.copy()
    assert card.take(1) == Die.parse("blue3") and card.placed == {} and card.physical == {}
    assert copy.placed == {1: Die.parse("red3")} and copy.describe() == "X-1 [red] [?] [1=red3]"
    assert copy.take_all() == [Die.parse("blue3")] and not copy.complete


def test_empty_chips() -> None:
    card = CardInPlay(parse_card_line("X-1 1 user [red] [?] [3]", "fuse", "bomb"))
    assert card.empty_chips == [1, 2, 3]
    card.put(2, Die.parse("blue5"))
    assert card.empty_chips == [1, 3]
    card.take(2)
    assert card.empty_chips == [1, 2, 3]
