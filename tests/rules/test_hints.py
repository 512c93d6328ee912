"""The hint solver: a distribution of the roll that is legal, respects each player's share, finishes cards
when it can, and explains itself."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rules.catalog import load_catalog
from rules.dice import Die, load_dice_set
from rules.hints import Hint, suggest
from rules.legality import judge
from rules.table import CardInPlay


def card(edition: str, card_id: str, **dice: str) -> CardInPlay:
    """A card in play with dice on it, given as ``c1="red3"``."""
    in_play = CardInPlay(load_catalog(edition).get(card_id))
    for chip, die in dice.items():
        in_play.put(int(chip[1:]), Die.parse(die))
    return in_play


def roll(*dice: str) -> list[Die]:
    return [Die.parse(d) for d in dice]


def check_hint(hint: Hint, players: list[list[CardInPlay]], rolled: list[Die], edition: str, per_player: int) -> None:
    """Every step is legal in order; each die is used once; no player takes more than their share."""
    dice = load_dice_set(edition)
    assert Counter(s.die for s in hint.steps) + Counter(hint.unused) == Counter(rolled)
    assert all(n <= per_player for n in Counter(s.player for s in hint.steps).values())
    cards = {c.id: c.copy() for cards in players for c in cards}
    owner = {c.id: p for p, cards in enumerate(players) for c in cards}
    for step in hint.steps:
        target = cards[step.card]
        assert owner[step.card] == step.player
        assert judge(target.card.layout, target.placed, step.chip, step.die, dice).legal  # type: ignore[arg-type]
        target.put(step.chip, step.die)
        assert step.completes == target.complete
        assert step.points == (target.card.points if target.complete else 0)
    assert str(hint) == "\n".join(hint.reasons)


def test_finishes_a_card_when_it_can() -> None:
    players = [[card("fuse", "F-002", c1="blue1", c2="yellow2"), card("fuse", "F-001")], [card("fuse", "F-011")],
               [card("fuse", "F-019")]]
    rolled = roll("red3", "green2", "black5")
    hint = suggest(players, rolled, load_dice_set("fuse"), 1, "fuse")
    check_hint(hint, players, rolled, "fuse", 1)
    assert hint.reasons[0] == "p1: red3 on F-002 chip 3: completes it (+1 points)"
    assert {s.player for s in hint.steps} == {0, 1, 2} and hint.unused == ()


def test_solo_player_places_the_whole_roll() -> None:
    players = [[card("fuse", "F-002", c1="blue1", c2="yellow2"), card("fuse", "F-001")]]
    rolled = roll("red3", "green2", "black5")
    hint = suggest(players, rolled, load_dice_set("fuse"), 3, "fuse")
    check_hint(hint, players, rolled, "fuse", 3)
    assert len(hint.steps) == 3 and hint.steps[0].completes


def test_a_player_with_nothing_to_take_and_the_unused_die() -> None:
    players = [[card("fuse", "F-019", c1="red2")], [card("fuse", "F-012")]]  # [2] [2] [2]; [5] [yellow] [green2]
    rolled = roll("blue6", "green2", "black4", "red1")
    hint = suggest(players, rolled, load_dice_set("fuse"), 2, "fuse")
    check_hint(hint, players, rolled, "fuse", 2)
    assert [str(s.die) for s in hint.steps] == ["green2"]  # the only die either of them can use
    assert sorted(map(str, hint.unused)) == ["black4", "blue6", "red1"]


def test_reasons_in_words() -> None:
    players = [[card("fuse", "F-019", c1="red2")], [card("fuse", "F-012")]]
    hint = suggest(players, roll("green2", "black4"), load_dice_set("fuse"), 1, "fuse")
    assert hint.reasons == (
        "p1: green2 on F-019 chip 2: keeps the card completable",
        "p2: takes no die: the others make better use of the dice",
        "black4 unused: each player may have to return a black die or a 4",
    )
    nothing = suggest(players, roll("blue6", "black4"), load_dice_set("fuse"), 1, "fuse")
    assert nothing.steps == () and nothing.reasons[:2] == (
        "p1: takes no die: no rolled die fits their cards",
        "p2: takes no die: no rolled die fits their cards",
    )


def test_countdown_reasons_mention_sparks() -> None:
    players = [[card("countdown", "C-G05")], [card("countdown", "C-G03")]]  # [red] [5/1] [?]; [black] [5/6] [?]
    hint = suggest(players, roll("red2", "red3"), load_dice_set("countdown"), 1, "countdown", names=["Ann", "Bo"])
    check_hint(hint, players, roll("red2", "red3"), "countdown", 1)
    assert len(hint.steps) == 2  # both can take a die: a spark costs more than any placement gains
    assert all(r.startswith(("Ann: ", "Bo: ")) for r in hint.reasons)
    lonely = suggest([[card("countdown", "C-G05")], [card("countdown", "C-G12")]], roll("red1", "yellow2"),
                     load_dice_set("countdown"), 1, "countdown")  # nothing below 3 fits [#] + [#] = 9
    assert "p2: draws a spark card: no rolled die fits their cards" in lonely.reasons
    assert sum(r.endswith("unused: back to the bag") for r in lonely.reasons) == 1


@pytest.mark.parametrize("seed", range(4))
def test_hints_are_legal_on_random_tables(seed: int) -> None:
    rng = random.Random(seed)
    catalog = load_catalog("fuse")
    dice = load_dice_set("fuse")
    bombs = [c.id for c in catalog.bombs if c.layout is not None and len(c.layout.chips) <= 5]
    players = [[card("fuse", cid) for cid in rng.sample(bombs, 2)] for _ in range(3)]
    rolled = [rng.choice(dice.possible_dice()) for _ in range(3)]
    hint = suggest(players, rolled, dice, 1, "fuse")
    check_hint(hint, players, rolled, "fuse", 1)
    assert hint == suggest(players, rolled, dice, 1, "fuse")  # the same table, the same hint
