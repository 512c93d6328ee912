"""Card notation (shared/docs/card-notation.md): every chip form, relation, equation and configuration parses
and means what the page says, canonical text prints back unchanged, and malformed cards point at the column."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.catalog import load_catalog
from rules.dice import Die
from rules.errors import NotationError, RulesError
from rules.notation import COLOUR, NUMBER, parse_layout

BOTH = frozenset((NUMBER, COLOUR))

# ------------------------------------------------------------------ chips

# chip -> (dice it accepts, dice it refuses); split dice are FUSE: Countdown's
CHIPS = [
    ("[?]", ["red1", "black6", "black/yellow3"], []),
    ("[red]", ["red1", "red6", "blue/red2"], ["blue1", "black/yellow1"]),
    ("[blue]", ["blue4", "blue/red2"], ["red4"]),
    ("[green]", ["green2"], ["yellow2"]),
    ("[yellow]", ["yellow2", "black/yellow5"], ["green2"]),
    ("[black]", ["black2", "black/yellow5"], ["red2"]),
    ("[3]", ["red3", "black/yellow3"], ["red4", "blue2"]),
    ("[red3]", ["red3", "blue/red3"], ["red4", "blue3"]),
    ("[red/blue]", ["red1", "blue6", "blue/yellow2"], ["green2", "black1"]),
    ("[1/4]", ["green1", "red4"], ["green3", "red6"]),
    ("[red3/blue5]", ["red3", "blue5"], ["red5", "blue3", "green3"]),
    ("[red/3]", ["red1", "blue3"], ["blue1", "green6"]),
    ("[#]", ["red1", "green6", "black/yellow2"], []),
    ("[C]", ["red1", "black/yellow2"], []),
    ("[#/C]", ["yellow5", "blue/red1"], []),
    ("[#C]", ["yellow5"], []),
    ("[blue#]", ["blue2", "blue/red5"], ["red2"]),
    ("[!red]", ["blue1", "black/yellow2"], ["red1", "blue/red1", "green/red6"]),
    ("[split]", ["black/yellow1", "blue/red6"], ["red1", "black3"]),
    ("[first red]", ["red2"], ["blue2"]),
    ("[last ?]", ["red2", "blue/yellow6"], []),
]


@pytest.mark.parametrize(("text", "accepts", "refuses"), CHIPS)
def test_chip_forms(text: str, accepts: list[str], refuses: list[str]) -> None:
    layout = parse_layout(text)
    (chip,) = layout.chips
    assert str(layout) == text
    assert [d for d in accepts if not chip.accepts(Die.parse(d))] == []
    assert [d for d in refuses if chip.accepts(Die.parse(d))] == []


@pytest.mark.parametrize(("text", "order"), [("[first red]", "first"), ("[last ?]", "last"), ("[red]", "")])
def test_chip_order(text: str, order: str) -> None:
    assert parse_layout(text).chips[0].order == order


# ------------------------------------------------------------------ relations

RELATIONS = [
    # card, operator, what it compares, must it hold on all of them (vs. on either)
    ("[#] = [#]", "=", {NUMBER}, True),
    ("[C] = [C]", "=", {COLOUR}, True),
    ("[#/C] = [#/C]", "=", BOTH, False),
    ("[#C] = [#C]", "=", BOTH, True),
    ("[#] = [#/C]", "=", {NUMBER}, True),
    ("[#/C] = [C]", "=", {COLOUR}, True),
    ("[C] != [C]", "!=", {COLOUR}, True),
    ("[#] != [#]", "!=", {NUMBER}, True),
    ("[blue#] = [#]", "=", {NUMBER}, True),
    ("[?] = [#]", "=", {NUMBER}, True),  # an unmarked chip takes what its neighbour says matters
    ("[?] = [?]", "=", BOTH, True),
    ("[#C] = [#/C]", "=", BOTH, True),
    ("[#] < [#]", "<", {NUMBER}, True),
    ("[#] > [#]", ">", {NUMBER}, True),
    ("[4] > [?]", ">", {NUMBER}, True),
]


@pytest.mark.parametrize(("text", "op", "aspects", "need_all"), RELATIONS)
def test_relation_aspects(text: str, op: str, aspects: set[str], need_all: bool) -> None:
    (relation,) = parse_layout(text).relations
    assert (relation.op, relation.left, relation.right) == (op, 0, 1)
    assert relation.aspects == aspects
    assert relation.need_all == need_all


HOLDS = [
    # relation card, left die, right die, holds
    ("[#] = [#]", "red3", "blue3", True),
    ("[#] = [#]", "red3", "red4", False),
    ("[C] = [C]", "red3", "red4", True),
    ("[C] = [C]", "red3", "blue3", False),
    ("[#/C] = [#/C]", "yellow5", "red5", True),
    ("[#/C] = [#/C]", "red5", "red2", True),
    ("[#/C] = [#/C]", "red5", "blue2", False),
    ("[#C] = [#C]", "red5", "red5", True),
    ("[#C] = [#C]", "red5", "red2", False),
    ("[#C] = [#C]", "red5", "blue5", False),
    ("[#] = [#/C]", "red5", "red2", False),  # only the number matters in both
    ("[#/C] = [C]", "red5", "blue5", False),  # only the colour matters in both
    ("[C] != [C]", "red1", "red4", False),
    ("[C] != [C]", "red1", "blue1", True),
    ("[#] != [#]", "red1", "blue1", False),
    ("[#/C] != [#/C]", "red1", "red2", True),  # differs in number
    ("[#/C] != [#/C]", "red1", "red1", False),
    ("[#] < [#]", "red2", "red3", True),
    ("[#] < [#]", "red3", "red3", False),
    ("[#] > [#]", "red4", "red3", True),
    ("[#] > [#]", "red3", "red4", False),
    # split dice count as both colours: "same" needs one in common, "different" none in common
    ("[C] = [C]", "black/yellow2", "yellow1", True),
    ("[C] = [C]", "black/yellow2", "black1", True),
    ("[C] = [C]", "black/yellow2", "red1", False),
    ("[C] = [C]", "black/yellow2", "blue/yellow1", True),
    ("[C] != [C]", "black/yellow2", "yellow1", False),
    ("[C] != [C]", "black/yellow2", "black1", False),
    ("[C] != [C]", "black/yellow2", "red1", True),
    ("[C] != [C]", "black/yellow2", "blue/yellow1", False),
]


@pytest.mark.parametrize(("text", "left", "right", "holds"), HOLDS)
def test_relation_holds(text: str, left: str, right: str, holds: bool) -> None:
    (relation,) = parse_layout(text).relations
    assert relation.holds(Die.parse(left), Die.parse(right)) is holds


def test_no_operator_means_independent() -> None:
    layout = parse_layout("[#] [#] = [#] [C]")
    assert [(r.left, r.right) for r in layout.relations] == [(1, 2)]


# ------------------------------------------------------------------ equations

EQUATIONS = [
    # equation, faces by chip, holds
    ("[#] - [#] = [#]", (6, 2, 4), True),
    ("[#] - [#] = [#]", (6, 2, 3), False),
    ("[#] + [#] = 7", (3, 4), True),
    ("[#] + [#] = 7", (3, 3), False),
    ("7 = [#] + [#]", (1, 6), True),
    ("[#] + 2 = [#]", (3, 5), True),
    ("[#] + 2 = [#]", (5, 3), False),
    ("[#] + [#] = [#] + [#]", (1, 6, 3, 4), True),
    ("[#] + [#] = [#] + [#]", (1, 6, 3, 3), False),
    ("[green/yellow] + [red/blue] = 7", (2, 5), True),
    ("[#] + [#] + [#] = 9", (2, 3, 4), True),
    ("[#] + [#] + [#] = 9", (2, 3, 5), False),
    ("[#] - 1 = 2", (3,), True),
]


@pytest.mark.parametrize(("text", "faces", "holds"), EQUATIONS)
def test_equations(text: str, faces: tuple[int, ...], holds: bool) -> None:
    layout = parse_layout(text)
    (equation,) = layout.equations
    assert layout.relations == ()
    assert equation.chips == tuple(range(len(faces)))
    assert equation.holds(dict(enumerate(faces))) is holds


# ------------------------------------------------------------------ configurations

CONFIGURATIONS = [
    # card, kinds of its groups, chip (0-based) -> chips beneath it
    ("stack [yellow] [red] [blue] [green]", ("stack",), {1: (0,), 2: (1,), 3: (2,)}),
    ("stack [#] < [#] [#] < [#]", ("stack",), {1: (0,), 2: (1,), 3: (2,)}),
    ("pyramid [green] [3] | [black]", ("pyramid",), {2: (0, 1)}),
    ("pyramid [black] [red] [black] | [blue] [green] | [yellow]", ("pyramid",), {3: (0, 1), 4: (1, 2), 5: (3, 4)}),
    ("wall [yellow] [black] [blue] | [red] _ [green]", ("wall",), {3: (0,), 4: (2,)}),
    ("wall [#] [#] | [red] [yellow]", ("wall",), {2: (0,), 3: (1,)}),
    ("ziggurat [blue] [5] [6] [yellow] | [red]", ("ziggurat",), {4: (0, 1, 2, 3)}),
    (
        "stack [1/2] [3/4] [5/6]; stack [red/yellow] [black/blue] [red/green]",
        ("stack", "stack"),
        {1: (0,), 2: (1,), 4: (3,), 5: (4,)},
    ),
    ("[C] = [C]; [#] = [#]", ("plain", "plain"), {}),
    ("[#] - [#] = [#]", ("plain",), {}),
]


@pytest.mark.parametrize(("text", "kinds", "supports"), CONFIGURATIONS)
def test_configurations(text: str, kinds: tuple[str, ...], supports: dict[int, tuple[int, ...]]) -> None:
    layout = parse_layout(text)
    assert layout.kinds == kinds
    assert layout.supports == supports
    assert [c.number for c in layout.chips] == list(range(1, len(layout.chips) + 1))


def test_wall_rows_and_numbering() -> None:
    """Chips are numbered bottom row first, left to right; ``_`` is an empty position, not a chip."""
    layout = parse_layout("wall [yellow] [black] [blue] | [red] _ [green]")
    lower, upper = layout.groups[0].rows
    assert [str(c) for c in lower] == ["[yellow]", "[black]", "[blue]"]
    assert [None if c is None else c.number for c in upper] == [4, None, 5]
    assert [c.body for c in layout.chips] == ["yellow", "black", "blue", "red", "green"]


def test_groups_are_independent() -> None:
    layout = parse_layout("[C] = [C]; [#] = [#]")
    assert [(r.left, r.right, r.aspects) for r in layout.relations] == [(0, 1, {COLOUR}), (2, 3, {NUMBER})]
    assert layout.group_of(2) is layout.groups[1]


# ------------------------------------------------------------------ printing

DOC_CARDS = [
    "[#] - [#] = [#]",
    "[#] + [#] = 7",
    "[green/yellow] + [red/blue] = 7",
    "[#] + [#] = [#] + [#]",
    "[#/C] = [#/C] = [#/C]",
    "[C] != [C] != [C] != [C]",
    "stack [yellow] [red] [blue] [green]",
    "stack [#] < [#] [#] < [#]",
    "pyramid [green] [3] | [black]",
    "wall [yellow] [black] [blue] | [red] _ [green]",
    "ziggurat [blue] [5] [6] [yellow] | [red]",
    "stack [1/2] [3/4] [5/6]; stack [red/yellow] [black/blue] [red/green]",
    "[C] = [C]; [#] = [#]",
    "[#] = [#/C] = [C]",
    "[#C] = [#C]",
    "[#] = [#] = [blue#]",
    "[first blue] [red/6] [last ?]",
    "[!red] [split] [red3/blue5] [red/3] [1/4] [?]",
]


@pytest.mark.parametrize("text", DOC_CARDS)
def test_canonical_text_round_trips(text: str) -> None:
    layout = parse_layout(text)
    assert str(layout) == text
    assert parse_layout(str(layout)) == layout
    assert repr(layout) == f"parse_layout({text!r})"


@pytest.mark.parametrize("edition", ["fuse", "countdown"])
def test_every_catalog_card_round_trips(edition: str) -> None:
    for card in load_catalog(edition).cards:
        if card.layout is not None:
            assert str(card.layout) == card.body, card.id


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("[R5] [K] [b/Y]", "[red5] [black] [blue/yellow]"),
        ("[#]  =   [#]", "[#] = [#]"),
        ("[#]=[#]", "[#] = [#]"),
        ("[#] ≠ [#]", "[#] != [#]"),
        ("  [#]-[#]=[#]  ", "[#] - [#] = [#]"),
        ("STACK [Y] [R]", "stack [yellow] [red]"),
        ("[ first  Red ] [Last ?]", "[first red] [last ?]"),
        ("[C]=[C];[#]=[#]", "[C] = [C]; [#] = [#]"),
        ("pyramid [G] [3]|[K]", "pyramid [green] [3] | [black]"),
    ],
)
def test_other_spellings_print_canonically(text: str, canonical: str) -> None:
    layout = parse_layout(text)
    assert str(layout) == canonical
    assert parse_layout(canonical) == layout


# ------------------------------------------------------------------ malformed cards

MALFORMED = [
    # text, 1-based column of the fault, a word of the message
    ("", 1, "expected a card"),
    ("   ", 1, "expected a card"),
    ("[C] != [C", 10, "expected ']'"),
    ("[#] [#", 7, "expected ']'"),
    ("[#] - [#] = ", 13, "to end the equation"),
    ("[#] - [#] = 7 +", 16, "to end the equation"),
    ("[pink]", 2, "'pink'"),
    ("[red/pink]", 6, "'pink'"),
    ("[red/]", 6, "expected a requirement"),
    ("[]", 2, "expected a requirement"),
    ("[c]", 2, "'c'"),
    ("[!3]", 2, "'!3'"),
    ("[3#]", 2, "blue#"),
    ("[red3#]", 2, "blue#"),
    ("[#] = [C]", 5, "compares nothing"),
    ("[#] = [#]; [C] = [#]", 16, "compares nothing"),
    ("[#] [#] ]", 9, "expected '['"),
    ("[#] & [#]", 5, "'&'"),
    ("[#] = [#] $", 11, "'$'"),
    ("[#] = = [#]", 7, "expected a chip before '='"),
    ("[#] =< [#]", 6, "expected a chip before '<'"),
    ("= [#]", 1, "expected a chip before '='"),
    ("[#] =", 6, "expected a chip after '='"),
    ("tower [red]", 1, "'tower'"),
    ("[red] stack [blue]", 7, "only at the start"),
    ("[#] + [#] = [#] = 7", 17, "exactly one '='"),
    ("stack [#] + [#] = 7", 11, "no equation inside a stack"),
    ("[#] 5", 5, "a constant needs an equation"),
    ("[red] | [blue]", 7, "expected no '|'"),
    ("pyramid [red] [blue] | [green] [black]", 22, "one die fewer"),
    ("wall [red] [blue] | [green]", 19, "upper row of 2 positions"),
    ("wall [red] _ | [green] [blue]", 12, "'_' marks an empty position"),
    ("ziggurat [red] [blue] | [green] [black]", 23, "exactly one die on top"),
    ("pyramid [red] [blue]", 21, "expected '|'"),
    ("pyramid [red] [blue]; [C]", 21, "expected '|'"),
    ("wall [red] [blue]", 18, "expected '|'"),
    ("[first last red]", 8, "first or last, not both"),
    ("[#]; ", 6, "after ';'"),
    ("; [#]", 1, "before ';'"),
    ("[#]; ; [#]", 6, "before ';'"),
]


@pytest.mark.parametrize(("text", "column", "words"), MALFORMED)
def test_malformed_cards_point_at_the_column(text: str, column: int, words: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_layout(text)
    error = info.value
    assert isinstance(error, RulesError)
    assert error.column == column
    assert words in error.expected
    assert str(error) == f"column {column}: {error.expected} in {text!r}"
    assert error.pointer() == f"{text}\n{' ' * (column - 1)}^"


# ------------------------------------------------------------------ generated cards (hypothesis, derandomized)

ATOMS = st.sampled_from(["?", "#", "C", "#C", "red", "blue", "green", "yellow", "black", "3", "red3", "blue#",
                         "!red", "split", "1", "6", "black5"])
CHIP_TEXT = st.lists(ATOMS, min_size=1, max_size=3).map(lambda atoms: "[" + "/".join(atoms) + "]")


@st.composite
def plain_groups(draw: st.DrawFn) -> str:
    chips = draw(st.lists(CHIP_TEXT, min_size=1, max_size=5))
    parts = [chips[0]]
    for chip in chips[1:]:
        parts += [draw(st.sampled_from(["", "=", "!=", "<", ">"])), chip]
    return " ".join(p for p in parts if p)


@settings(derandomize=True, max_examples=150, deadline=None)
@given(st.lists(plain_groups(), min_size=1, max_size=3))
def test_generated_cards_print_back_or_point_at_a_column(groups: list[str]) -> None:
    text = "; ".join(groups)
    try:
        layout = parse_layout(text)
    except NotationError as error:  # e.g. a relation between chips that share nothing to compare
        assert 1 <= error.column <= len(text) + 1
        return
    assert str(layout) == text
    assert len(layout.chips) == text.count("[")
    assert all(r.right == r.left + 1 for r in layout.relations)
