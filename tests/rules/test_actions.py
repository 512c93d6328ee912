"""Game actions: every kind has a text form that reads back to the same action."""

from __future__ import annotations

import pytest

from rules import actions as A
from rules.dice import Die
from rules.errors import RulesError

ACTIONS = [
    ("deal p1 F-003", A.Deal(0, "F-003"), True),
    ("role p2 R-4", A.DealRole(1, "R-4"), True),
    ("reveal FF-01", A.Reveal("FF-01"), True),
    ("roll red5 black/yellow2 blue1", A.Roll(tuple(map(Die.parse, ("red5", "black/yellow2", "blue1")))), True),
    ("roll", A.Roll(()), True),
    ("unused green4", A.RollUnused(Die.parse("green4")), True),
    ("spark p3 S-G01", A.DrawSpark(2, "S-G01"), True),
    ("six-roll p2 6", A.ExtraRoll(1, 6), True),
    ("name red", A.Name("red"), False),
    ("name 4", A.Name("4"), False),
    ("change 0 blue5", A.Change(0, Die.parse("blue5")), False),
    ("flip 2", A.Flip(2), False),
    ("reroll 0 2", A.Reroll((0, 2)), False),
    ("ready", A.Ready(), False),
    ("place red5 F-003:2", A.Place(Die.parse("red5"), "F-003", 2), False),
    ("discard blue2", A.Discard(Die.parse("blue2")), False),
    ("done", A.Done(), False),
    ("defuse F-003 take F-010", A.Defuse("F-003", "F-010"), False),
    ("defuse S-G01", A.Defuse("S-G01"), False),
    ("defuse F-003 take F-010 fuse", A.Defuse("F-003", "F-010", fuse=True), False),
    ("return F-003:1", A.Return("F-003", 1), False),
    ("clear F-003", A.Clear("F-003"), False),
]


@pytest.mark.parametrize(("text", "action", "chance"), ACTIONS)
def test_text_round_trips(text: str, action: A.Action, chance: bool) -> None:
    assert str(action) == text
    assert A.parse_action(text) == action
    assert A.parse_action(str(A.parse_action(text))) == action
    assert action.chance is chance


def test_every_action_kind_is_covered() -> None:
    assert {type(a) for _, a, _ in ACTIONS} == set(A.Action.__args__)  # type: ignore[attr-defined]


def test_short_die_names_are_read() -> None:
    assert A.parse_action("place R5 F-003:2") == A.Place(Die.parse("red5"), "F-003", 2)


@pytest.mark.parametrize(
    "text", ["", "dance", "deal 1 F-003", "deal p0 F-003", "deal p1", "place red5 F-003", "place red9 F-003:1",
             "place red5 F-003:x", "roll red5 pink2", "flip x", "spark p1", "return F-003"]
)
def test_unreadable_actions(text: str) -> None:
    with pytest.raises(RulesError):
        A.parse_action(text)
