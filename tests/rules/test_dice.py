"""Dice: text forms, split dice, and each edition's dice set as the rulebooks list it."""

from __future__ import annotations

import pytest

from rules.dice import COLOURS, Die, load_dice_set, parse_colour
from rules.errors import DieError, RulesError


@pytest.mark.parametrize(
    ("text", "colours", "face", "canonical"),
    [
        ("red5", ("red",), 5, "red5"),
        ("R5", ("red",), 5, "red5"),
        ("K3", ("black",), 3, "black3"),
        ("b1", ("blue",), 1, "blue1"),
        ("Yellow6", ("yellow",), 6, "yellow6"),
        ("G2", ("green",), 2, "green2"),
        ("black/yellow2", ("black", "yellow"), 2, "black/yellow2"),
        ("yellow/black2", ("black", "yellow"), 2, "black/yellow2"),
        ("R/B4", ("blue", "red"), 4, "blue/red4"),
        ("  green1 ", ("green",), 1, "green1"),
    ],
)
def test_die_parse(text: str, colours: tuple[str, ...], face: int, canonical: str) -> None:
    die = Die.parse(text)
    assert (die.colours, die.face) == (colours, face)
    assert str(die) == canonical
    assert Die.parse(str(die)) == die
    assert eval(repr(die), {"Die": Die}) == die  # the repr can be pasted back in


@pytest.mark.parametrize("text", ["", "red", "red0", "red7", "pink3", "5red", "red/red3", "red//blue3", "W3", "red 5"])
def test_die_parse_rejects(text: str) -> None:
    with pytest.raises(DieError) as info:
        Die.parse(text)
    assert isinstance(info.value, RulesError)
    assert repr(text) in str(info.value)  # the message quotes the input


def test_die_constructor_validates() -> None:
    assert Die(("yellow", "black"), 2) == Die.parse("black/yellow2")
    with pytest.raises(DieError):
        Die(("red",), 7)
    with pytest.raises(DieError):
        Die(("white",), 1)
    with pytest.raises(DieError):
        Die(("red", "blue", "green"), 1)


@pytest.mark.parametrize(
    ("word", "colour"), [("R", "red"), ("B", "blue"), ("G", "green"), ("Y", "yellow"), ("K", "black"), ("Red", "red")]
)
def test_parse_colour(word: str, colour: str) -> None:
    assert parse_colour(word) == colour


def test_parse_colour_rejects_unknown() -> None:
    with pytest.raises(DieError):
        parse_colour("W")


def test_split_die_counts_as_both_colours() -> None:
    split = Die.parse("black/yellow2")
    assert split.is_split and split.colour == "black/yellow"
    assert split.has_colour("black") and split.has_colour("yellow") and not split.has_colour("red")
    assert split.shares_colour(Die.parse("yellow5"))
    assert split.shares_colour(Die.parse("black1"))
    assert split.shares_colour(Die.parse("blue/yellow1"))
    assert not split.shares_colour(Die.parse("red2"))
    assert not Die.parse("red2").is_split
    assert split.with_face(6) == Die.parse("black/yellow6")


def test_fuse_dice_set() -> None:
    """FUSE: 25 dice, five each of red, blue, green, yellow and black; opposite faces 1-6, 2-4, 3-5."""
    dice = load_dice_set("fuse")
    assert dice.size == 25
    assert {kind.name: kind.count for kind in dice.kinds} == {c: 5 for c in COLOURS}
    for kind in dice.kinds:
        assert kind.faces == (1, 2, 3, 4, 5, 6)
        assert [kind.opposite(f) for f in (1, 2, 3, 4, 5, 6)] == [6, 4, 5, 2, 3, 1]
    assert len(dice.all_dice()) == 25
    assert len(dice.possible_dice()) == 30


def test_countdown_dice_set() -> None:
    """Countdown: 20 single-colour dice (four of each colour) and 5 split dice, black/yellow among them."""
    dice = load_dice_set("countdown")
    assert dice.size == 25
    single = {k.name: k.count for k in dice.kinds if len(k.colours) == 1}
    split = [k for k in dice.kinds if len(k.colours) == 2]
    assert single == {c: 4 for c in COLOURS}
    assert sum(k.count for k in split) == 5
    assert ("black", "yellow") in {k.colours for k in split}
    assert dice.kind_of(Die.parse("yellow/black3")).colours == ("black", "yellow")


def test_kind_of_unknown_die() -> None:
    with pytest.raises(DieError):
        load_dice_set("fuse").kind_of(Die.parse("black/yellow3"))


def test_dice_sets_combine_and_limit() -> None:
    fuse, countdown = load_dice_set("fuse"), load_dice_set("countdown")
    two_each = fuse.limited({c: 2 for c in COLOURS}, "fuse")
    assert two_each.size == 10
    epic = countdown.plus(two_each, "epic")
    assert epic.size == 35
    assert {k.name: k.count for k in epic.kinds if len(k.colours) == 1} == {c: 6 for c in COLOURS}


def test_unknown_edition() -> None:
    with pytest.raises(DieError):
        load_dice_set("chess")
