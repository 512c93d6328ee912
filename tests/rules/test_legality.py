"""Placement legality: the notation page's examples, every rule of "What legal means" with its reason, the
"cannot be completed" rule with the dice sets' counts, and the three tiers (judge, is_legal, place)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from rules.dice import Die, load_dice_set
from rules.errors import IllegalPlacementError, RulesError
from rules.legality import OK, Verdict, can_complete, is_legal, judge, legal_chips, legal_placements, place
from rules.notation import parse_layout


def verdicts(card: str, placements: list[str], edition: str = "fuse") -> list[Verdict]:
    """Judge ``CHIP=DIE`` placements in order, stopping at the first illegal one."""
    layout, dice = parse_layout(card), load_dice_set(edition)
    placed: dict[int, Die] = {}
    found = []
    for text in placements:
        chip, die = text.split("=")
        verdict = judge(layout, placed, int(chip), Die.parse(die), dice)
        found.append(verdict)
        if not verdict:
            break
        placed[int(chip)] = Die.parse(die)
    return found


# ------------------------------------------------------------------ the notation page's examples

DOC_EXAMPLES = [
    ("[#] - [#] = [#]", ["2=red6"], [False]),
    ("[#/C] = [#/C] = [#/C]", ["1=yellow5", "2=red5", "3=red2"], [True, True, True]),
    ("stack [yellow] [red] [blue] [green]", ["2=red1"], [False]),
    ("pyramid [green] [3] | [black]", ["2=blue3", "1=green6", "3=black1"], [True, True, True]),
    ("[C] != [C] != [C] != [C]", ["1=red1", "2=red4"], [True, False]),
]


@pytest.mark.parametrize(("card", "placements", "legal"), DOC_EXAMPLES)
def test_notation_page_examples(card: str, placements: list[str], legal: list[bool]) -> None:
    assert [v.legal for v in verdicts(card, placements)] == legal


def test_notation_page_reason_text() -> None:
    (verdict,) = verdicts("[#] - [#] = [#]", ["2=red6"])
    assert verdict.reason == "chip 2 (#) = 6 leaves [#] - 6 = [#] unsolvable with faces 1-6"
    assert str(verdict) == "illegal: chip 2 (#) = 6 leaves [#] - 6 = [#] unsolvable with faces 1-6"


# ------------------------------------------------------------------ each rule, with its reason

RULES = [
    # card, placements (the last is judged), edition, legal, words of the reason
    # 1. the die satisfies the chip
    ("[red] [?]", ["1=blue1"], "fuse", False, "chip 1 (red) does not accept blue1: the die must match the chip"),
    ("[red3/blue5] [?]", ["1=blue3"], "fuse", False, "does not accept blue3"),
    ("[!red] [?]", ["1=blue/red2"], "countdown", False, "chip 1 (!red) does not accept blue/red2"),
    ("[split] [?]", ["1=black/yellow2"], "countdown", True, ""),
    ("[split] [?]", ["1=black/yellow2"], "fuse", False, "chip 1 (split): the fuse dice have no black/yellow die"),
    ("[red] [?]", ["1=red2", "1=red3"], "fuse", False, "chip 1 (red) already holds red2: placed dice cannot be moved"),
    # 2. relations and equations whose chips are all filled hold
    ("[#] = [#] [#]", ["1=red3", "3=blue4"], "fuse", True, ""),  # no operator: chip 3 is independent
    ("[#] = [#] = [#]", ["1=red3", "3=blue4"], "fuse", False, "chip 3 (#) = 4 leaves 3 = [#] = 4 unsolvable"),
    ("[#] = [#] = [#]", ["1=red3", "2=blue4"], "fuse", False,
     "chip 2 (#) = blue4 breaks [#] = [#] with chip 1 = red3: must be the same number"),
    ("[C] != [C]", ["2=red1", "1=red4"], "fuse", False,
     "chip 1 (C) = red4 breaks [C] != [C] with chip 2 = red1: must differ in colour"),
    ("[#/C] = [#/C]", ["1=red1", "2=blue2"], "fuse", False, "must share the number or the colour"),
    ("[#C] = [#C]", ["1=red1", "2=red2"], "fuse", False, "must be the same colour and number"),
    ("[#] < [#]", ["2=red3", "1=red3"], "fuse", False, "the right die must show a greater number"),
    ("[#] > [#]", ["1=red3", "2=red5"], "fuse", False, "the left die must show a greater number"),
    ("[#] + [#] = 7", ["1=red6", "2=blue2"], "fuse", False, "chip 2 (#) = blue2 makes 6 + 2 = 7 false"),
    ("[green/yellow] + [red/blue] = 7", ["1=green3", "2=red4"], "fuse", True, ""),
    ("[green/yellow] + [red/blue] = 7", ["1=green3", "2=red5"], "fuse", False, "makes 3 + 5 = 7 false"),
    ("[#] + [#] = [#] + [#]", ["1=red1", "2=red1", "3=red1", "4=red2"], "fuse", False, "makes 1 + 1 = 1 + 2 false"),
    # 3. order: stacks, support in pyramids and walls, ziggurat top last, first, last
    ("stack [yellow] [red] [blue] [green]", ["1=yellow1", "2=red1", "4=green1"], "fuse", False,
     "chip 4 (green) goes on chip 3, still empty: stack dice go on in the order written"),
    ("stack [#] < [#] [#] < [#]", ["1=red2", "2=red3", "3=red1", "4=red2"], "fuse", True, ""),
    ("pyramid [green] [3] | [black]", ["1=green1", "3=black1"], "fuse", False,
     "chip 3 (black) goes on chip 2, still empty: a die on an upper row needs both dice under it"),
    ("pyramid [black] [red] [black] | [blue] [green] | [yellow]",
     ["1=black1", "2=red1", "4=blue1", "3=black2", "6=yellow1"], "fuse", False, "goes on chip 5, still empty"),
    ("wall [yellow] [black] [blue] | [red] _ [green]", ["4=red1"], "countdown", False,
     "chip 4 (red) goes on chip 1, still empty: a die on the upper level needs the die beneath it"),
    ("wall [yellow] [black] [blue] | [red] _ [green]", ["3=blue1", "5=green1", "2=black1"], "countdown", True, ""),
    ("ziggurat [blue] [5] [6] [yellow] | [red]", ["1=blue1", "2=red5", "3=red6", "5=red1"], "countdown", False,
     "chip 5 (red) goes on chip 4, still empty: the top of a ziggurat goes on last, after all four below"),
    ("ziggurat [blue] [5] [6] [yellow] | [red]", ["4=yellow1", "1=blue1", "2=red5", "3=red6", "5=red1"],
     "countdown", True, ""),
    ("stack [1/2] [3/4] [5/6]; stack [red/yellow] [black/blue] [red/green]", ["4=red1", "1=red2"], "fuse", True, ""),
    ("stack [1/2] [3/4] [5/6]; stack [red/yellow] [black/blue] [red/green]", ["5=black1"], "fuse", False,
     "chip 5 (black/blue) goes on chip 4, still empty"),
    ("[first red] [?] [?]", ["2=red1"], "countdown", False,
     "chip 2 (?) cannot come before chip 1 (first red): it must receive the first die placed on this card"),
    ("[first red] [?] [?]", ["1=red1", "3=blue2"], "countdown", True, ""),
    ("[?] [last ?] [?]", ["1=red1", "2=blue1"], "countdown", False,
     "chip 2 (last ?) must receive the last die placed on this card; chip 3 still empty"),
    ("[?] [last ?] [?]", ["1=red1", "3=blue1", "2=blue2"], "countdown", True, ""),
    # 4. the card can still be completed
    ("[#] - [#] = [#]", ["1=red1"], "fuse", False, "chip 1 (#) = 1 leaves 1 - [#] = [#] unsolvable with faces 1-6"),
    ("[#] - [#] = [#]", ["1=red6", "2=red3"], "fuse", True, ""),
    ("[#] < [#]", ["1=red6"], "fuse", False, "leaves 6 < [#] unsolvable with faces 1-6"),
    ("stack [#] < [#] < [#] < [#]", ["1=red4"], "fuse", False,
     "chip 1 (#) = 4 leaves stack 4 < [#] < [#] < [#] unsolvable with faces 1-6"),
    ("[4] > [?] > [?]", ["2=red1"], "fuse", False, "leaves [4] > 1 > [?] unsolvable with the fuse dice"),
    ("[#] + 2 = [#]", ["1=red5"], "fuse", False, "leaves 5 + 2 = [#] unsolvable"),
    # a reason names the group that cannot be finished, on any group of the card
    ("[C] = [C]; [#] - [#] = [#]", ["4=red6"], "fuse", False,
     "chip 4 (#) = 6 leaves [#] - 6 = [#] unsolvable with faces 1-6"),
    ("[?]; stack [#] < [#] < [#]", ["2=red5"], "fuse", False,
     "chip 2 (#) = 5 leaves stack 5 < [#] < [#] unsolvable with faces 1-6"),
    ("[?]; [#] < [#] < [#]", ["3=red6"], "fuse", False, "chip 3 (#) = 6 leaves [#] < 6 < [#] unsolvable"),
    # the dice sets' counts: five red FUSE dice, four red Countdown dice and two split dice with red
    ("[red] [red] [red] [red] [red] [?]", ["1=red1", "2=red1", "3=red1", "4=red1", "6=red1"], "fuse", False,
     "chip 6 (?) = red1 leaves"),
    ("[red] [red] [red] [red] [red] [?]", ["1=red1", "2=red1", "3=red1", "4=red1", "6=blue1"], "fuse", True, ""),
    ("[C] = [C] = [C] = [C] = [C]; [red]", ["1=red1"], "fuse", False,
     "leaves too few fuse dice of the right kinds to fill the rest of the card"),
    ("[C] = [C] = [C] = [C] = [C]; [red]", ["1=blue1"], "fuse", True, ""),
    # split dice (Countdown) count as both colours: the rulebook's [C] != [C] != [C] != [C] example
    ("[C] != [C] != [C] != [C]", ["2=black/yellow2", "1=yellow1"], "countdown", False,
     "chip 1 (C) = yellow1 breaks [C] != [C] with chip 2 = black/yellow2: must differ in colour"),
    ("[C] != [C] != [C] != [C]", ["2=black/yellow2", "3=black1"], "countdown", False, "must differ in colour"),
    ("[C] != [C] != [C] != [C]", ["2=black/yellow2", "1=red1", "3=green1"], "countdown", True, ""),
    ("[C] = [C]", ["1=black/yellow2", "2=yellow6"], "countdown", True, ""),
    ("[C] = [C]", ["1=black/yellow2", "2=red6"], "countdown", False, "must be the same colour"),
    ("[red] [blue]", ["1=blue/red3", "2=blue/red4"], "countdown", False, "leaves"),  # there is one red/blue die
]


@pytest.mark.parametrize(("card", "placements", "edition", "legal", "reason"), RULES)
def test_rules_and_reasons(card: str, placements: list[str], edition: str, legal: bool, reason: str) -> None:
    found = verdicts(card, placements, edition)
    assert len(found) == len(placements), [str(v) for v in found]
    last = found[-1]
    assert last.legal is legal
    if legal:
        assert last == OK and last.reason == "" and str(last) == "ok"
    else:
        assert reason in last.reason
        assert str(last) == f"illegal: {last.reason}"


# ------------------------------------------------------------------ completability

COMPLETABLE = [
    ("[red] [red] [red] [red] [red]", "fuse", True),
    ("[red] [red] [red] [red] [red] [red]", "fuse", False),  # five red FUSE dice
    ("[red] [red] [red] [red] [red] [red]", "countdown", True),  # 4 red + blue/red + green/red
    ("[red] [red] [red] [red] [red] [red] [red]", "countdown", False),
    ("[C] = [C] = [C] = [C] = [C]", "fuse", True),
    ("[C] = [C] = [C] = [C] = [C] = [C]", "fuse", False),
    ("[#C] = [#C] = [#C] = [#C] = [#C] = [#C]", "fuse", False),
    ("[black3] [black3] [black3] [black3] [black3]", "fuse", True),
    ("[split]", "fuse", False),
    ("[split] [split] [split] [split] [split]", "countdown", True),
    ("[split] [split] [split] [split] [split] [split]", "countdown", False),
    ("[#] - [#] = [#]", "fuse", True),
    ("[#] + [#] = 13", "fuse", False),
    ("[#] + [#] = [#] + [#] + [#] + 10", "fuse", False),
    ("[#] > [#] > [#] > [#] > [#] > [#]", "fuse", True),
    ("[#] > [#] > [#] > [#] > [#] > [#] > [#]", "fuse", False),
    ("[#] < [4] < [#] < [5]", "fuse", False),
    ("[C] != [C] != [C] != [C]", "fuse", True),
    ("[red/blue/green] " * 15 + "[red/blue/green]", "fuse", False),  # 16 chips, 15 such dice
    (" ".join(["[?]"] * 25), "fuse", True),  # 26 chips: see test_more_chips_than_dice_is_answered_at_once
]


@pytest.mark.parametrize(("card", "edition", "completable"), COMPLETABLE)
def test_can_complete(card: str, edition: str, completable: bool) -> None:
    assert can_complete(parse_layout(card), {}, load_dice_set(edition)) is completable


def test_can_complete_counts_the_dice_already_on_the_card() -> None:
    layout, dice = parse_layout("[red] [red] [red] [?] [?] [?]"), load_dice_set("fuse")
    two_red = {4: Die.parse("red1"), 5: Die.parse("red2")}
    assert can_complete(layout, two_red, dice)
    assert not can_complete(layout, {**two_red, 6: Die.parse("red3")}, dice)


def test_more_chips_than_dice_is_answered_at_once() -> None:
    """A card with more chips than the set has dice: the search must not try every assignment (it hung)."""
    code = (
        "from rules.legality import can_complete; from rules.notation import parse_layout;"
        "from rules.dice import load_dice_set;"
        "print(can_complete(parse_layout(' '.join(['[?]'] * 30)), {}, load_dice_set('fuse')))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.stdout.strip() == "False"


# ------------------------------------------------------------------ tiers

def test_three_tiers_agree() -> None:
    layout, dice = parse_layout("[#] - [#] = [#]"), load_dice_set("fuse")
    six, three = Die.parse("red6"), Die.parse("blue3")
    reason = "chip 2 (#) = 6 leaves [#] - 6 = [#] unsolvable with faces 1-6"
    assert judge(layout, {}, 2, six, dice) == Verdict(False, reason)
    assert not is_legal(layout, {}, 2, six, dice)
    with pytest.raises(IllegalPlacementError) as info:
        place(layout, {}, 2, six, dice)
    assert str(info.value) == reason
    placed = {1: six}
    after = place(layout, placed, 2, three, dice)
    assert after == {1: six, 2: three}
    assert placed == {1: six}  # place returns a new mapping
    assert is_legal(layout, after, 3, Die.parse("green3"), dice)
    assert not is_legal(layout, after, 3, Die.parse("green2"), dice)


def test_missing_chip() -> None:
    layout, dice = parse_layout("[#] = [#]"), load_dice_set("fuse")
    verdict = judge(layout, {}, 3, Die.parse("red1"), dice)
    assert not verdict and "chip 3 does not exist" in verdict.reason
    assert not is_legal(layout, {}, 0, Die.parse("red1"), dice)
    with pytest.raises(RulesError):
        judge(layout, {5: Die.parse("red1")}, 1, Die.parse("red1"), dice)


LEGAL_CHIPS = [
    # card, dice already on it, die, chips where it may go
    ("[#] - [#] = [#]", {}, "red6", (1,)),
    ("[#] - [#] = [#]", {}, "red1", (2, 3)),
    ("[#] - [#] = [#]", {1: "red5"}, "red2", (2, 3)),
    ("[#] - [#] = [#]", {1: "red5"}, "red5", ()),
    ("stack [yellow] [red] [blue] [green]", {}, "yellow1", (1,)),
    ("stack [yellow] [red] [blue] [green]", {}, "red1", ()),
    ("pyramid [green] [3] | [black]", {1: "green1", 2: "red3"}, "black4", (3,)),
    ("[C] != [C] != [C] != [C]", {2: "red1"}, "red2", (4,)),
    ("[first red] [red] [?]", {}, "red2", (1,)),
    ("[red/3] [?] [last 3]", {}, "red3", (1, 2)),
]


@pytest.mark.parametrize(("card", "placed", "die", "chips"), LEGAL_CHIPS)
def test_legal_chips(card: str, placed: dict[int, str], die: str, chips: tuple[int, ...]) -> None:
    layout, dice = parse_layout(card), load_dice_set("fuse")
    on_card = {chip: Die.parse(d) for chip, d in placed.items()}
    assert legal_chips(layout, on_card, Die.parse(die), dice) == chips
    expected = tuple(c for c in range(1, len(layout.chips) + 1) if is_legal(layout, on_card, c, Die.parse(die), dice))
    assert chips == expected


def test_legal_placements_across_cards() -> None:
    dice = load_dice_set("fuse")
    cards = [("A", parse_layout("[#] - [#] = [#]"), {}), ("B", parse_layout("[red] [blue]"), {})]
    assert legal_placements(cards, Die.parse("red6"), dice) == [("A", 1), ("B", 1)]
    assert legal_placements(cards, Die.parse("green6"), dice) == [("A", 1)]
