"""The referee: reported actions move the game on or become violations quoting the rule; undo, correct, and a
session saved as plain data resumes where it was."""

from __future__ import annotations

import json

import pytest

from rules.clock import ManualClock
from rules.config import GameConfig
from rules.errors import RulesError
from rules.referee import Referee
from tests.rules.helpers import FUSE_ROW, card_dice, setup_log

SETUP = setup_log([["F-002", "F-005"], ["F-001", "F-003"]], FUSE_ROW)


def referee_after(*actions: str) -> Referee:
    referee = Referee(GameConfig("fuse", 2), ManualClock())
    for text in (*SETUP, *actions):
        assert referee.submit(text).accepted, text
    return referee


def test_illegal_reports_become_violations() -> None:
    referee = referee_after("roll blue1 yellow2 red3 red1")
    before = referee.state.describe()
    event = referee.submit("place red3 F-002:1", source="vision", confidence=0.9, frame=12)
    assert not event.accepted
    assert event.reason == "chip 1 (blue/green) does not accept red3: the die must match the chip"
    assert (event.source, event.confidence, event.frame) == ("vision", 0.9, 12)
    assert referee.violations == [event]
    assert referee.state.describe() == before
    assert not referee.submit("dance").accepted  # unreadable reports are refused too


def test_undo_and_correct() -> None:
    referee = referee_after("roll blue1 yellow2 red3 red1", "place blue1 F-002:1")
    index = len(referee.events) - 1
    referee.undo(index)
    assert referee.events[index].undone and card_dice(referee.state, "F-002") == {}
    fixed = referee.correct(index, "place blue1 F-001:1")
    assert fixed.accepted and fixed.source == "correction"
    assert card_dice(referee.state, "F-001") == {1: "blue1"}
    assert [e.index for e in referee.events] == list(range(len(referee.events)))


def test_placing_events_are_the_accepted_reports_that_put_each_die_where_it_lies() -> None:
    referee = referee_after("roll blue1 yellow2 red3 red1")
    first = referee.submit("place blue1 F-002:1", confidence=0.4)
    second = referee.submit("place yellow2 F-002:2", confidence=0.8)
    assert not referee.submit("place green1 F-002:3").accepted  # refused: no such die in the roll
    assert referee.placing_events() == {("F-002", 1): first, ("F-002", 2): second}
    referee.undo(second.index)
    assert {k: e.action for k, e in referee.placing_events().items()} == {("F-002", 1): first.action}


def test_an_action_made_before_the_last_reports_goes_in_among_them_by_its_time() -> None:
    clock = ManualClock()
    referee = Referee(GameConfig("fuse", 2), clock)
    for text in SETUP:
        referee.submit(text)
    for clock.seconds, text in ((10.0, "roll blue1 yellow2 red3 red1"), (14.0, "place blue1 F-002:1")):
        assert referee.submit(text).accepted
    late, moved = referee.insert("place red3 F-002:3", 12.0, source="vision")
    assert late.accepted and late.index == len(SETUP) + 1 and moved == {late.index: late.index + 1,
                                                                          late.index + 1: late.index}
    assert [e.action for e in referee.events[-3:]] == ["roll blue1 yellow2 red3 red1", "place red3 F-002:3",
                                                       "place blue1 F-002:1"]
    assert [e.index for e in referee.events] == list(range(len(referee.events)))
    assert card_dice(referee.state, "F-002") == {1: "blue1", 3: "red3"}
    # the same die placed before would turn a later report into a violation: it stays last instead
    assert referee.insert("place red1 F-001:1", 13.0)[0].index == len(SETUP) + 2
    again, moved = referee.insert("place blue1 F-001:2", 11.0)
    assert not again.accepted and again.index == len(referee.events) - 1 and again.elapsed == 11.0 and not moved
    assert all(e.accepted for e in referee.events[:-1])
    early, moved = referee.insert("place yellow2 F-003:1", 5.0)  # before the roll: refused there, so made last
    assert early.accepted and early.index == len(referee.events) - 1 and not moved


def test_a_report_redated_goes_in_by_its_new_time_only_where_the_game_judges_every_report_as_before() -> None:
    clock = ManualClock()
    referee = Referee(GameConfig("fuse", 2), clock)
    for text in SETUP:
        referee.submit(text)
    for clock.seconds, text in ((10.0, "roll blue1 yellow2 red3 red1"), (12.0, "place blue1 F-002:1"),
                                (14.0, "place red3 F-002:3")):
        assert referee.submit(text).accepted
    last = len(referee.events) - 1
    assert referee.redate(last, 11.0) == {last: last - 1, last - 1: last}
    assert [(e.elapsed, e.action) for e in referee.events[-2:]] == [(11.0, "place red3 F-002:3"),
                                                                   (12.0, "place blue1 F-002:1")]
    assert all(e.accepted for e in referee.events) and [e.index for e in referee.events] == list(range(last + 1))
    before = list(referee.events)
    assert referee.redate(last, 5.0) is None  # before the roll: refused there, so nothing changes
    assert referee.events == before and card_dice(referee.state, "F-002") == {1: "blue1", 3: "red3"}
    with pytest.raises(RulesError, match="no event 99"):
        referee.redate(99, 1.0)


def test_a_late_report_the_game_takes_early_only_with_the_next_goes_in_with_it() -> None:
    """A card defused late: the placement after its time needs the row card turned up first, so the defuse stays
    last until the reveal, seen late too, puts both in by their times."""
    clock = ManualClock()
    referee = Referee(GameConfig("fuse", 2), clock)
    for text in SETUP:
        referee.submit(text)
    for clock.seconds, text in ((5.0, "roll blue1 yellow2 red3 red1"), (6.0, "place blue1 F-002:1"),
                                (7.0, "place yellow2 F-002:2"), (8.0, "place red3 F-001:1"),
                                (9.0, "place red1 F-003:1"), (10.0, "roll red5 green2 black4 yellow6"),
                                (13.0, "place red5 F-002:3"), (16.0, "place green2 F-001:2")):
        assert referee.submit(text).accepted
    defuse, moved = referee.insert(f"defuse F-002 take {FUSE_ROW[0]}", 14.0)
    assert defuse.index == len(referee.events) - 1 and not moved
    reveal, moved = referee.insert("reveal F-011", 15.0)
    assert [e.action.split()[0] for e in referee.events[-3:]] == ["defuse", "reveal", "place"]
    placed = defuse.index - 1
    assert moved == {placed: placed + 2, defuse.index: placed, defuse.index + 1: placed + 1}
    assert reveal.index == placed + 1
    assert all(e.accepted for e in referee.events)


def test_a_saved_session_resumes() -> None:
    clock = ManualClock()
    referee = Referee(GameConfig("fuse", 2), clock)
    for text in SETUP:
        referee.submit(text)
    clock.advance(42.0)
    referee.submit("roll blue1 yellow2 red3 red1")
    referee.submit("place red3 F-002:1")  # refused
    referee.submit("place blue1 F-002:1")
    saved = json.loads(json.dumps(referee.to_dict()))
    restored = Referee.from_dict(saved)
    assert restored.state.describe() == referee.state.describe()
    assert restored.state.log() == referee.state.log()
    assert [e.accepted for e in restored.events] == [e.accepted for e in referee.events]
    assert restored.state.log()[-1] == (42.0, "place blue1 F-002:1")
    assert referee.remaining() == 600 - 42.0
