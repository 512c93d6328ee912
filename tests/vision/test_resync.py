"""The interpreter catching up with the table when vision missed or misread something (``vision.resync``): fed
through its public interface (``Interpreter.feed``) with the changes a tracker would commit, one thing left out
or misread, it re-synchronises with the table, or asks, rather than flagging violations or stalling."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.clock import ManualClock
from rules.config import GameConfig
from rules.referee import Event, Referee
from vision.interpret import Interpreter, InterpreterSettings
from vision.tracker import Change

SETUP = ("deal p1 F-G21", "deal p1 F-G10", "deal p2 F-G28", "deal p2 F-G04", "reveal F-011", "reveal F-015",
         "reveal F-009", "reveal F-G07", "reveal F-G06")
"""p1: F-G21 ``[1] [1] [1]``, F-G10 ``[green/4] [yellow/5] [black/1]``; p2: F-G28 ``stack [4] ...``, F-G04
``[#] != [#] != [#] != [#]``."""


def _dealt(config: GameConfig | None = None, setup: tuple[str, ...] = SETUP) -> tuple[Referee, Interpreter]:
    referee = Referee(config or GameConfig("fuse", 2), ManualClock())
    for action in setup:
        referee.submit(action)
    return referee, Interpreter(referee)


def _loose(dice: tuple[str, ...], at: float, x: float = 500.0) -> list[Change]:
    return [Change("loose+", int(at * 6), at, die=d, where=(x + 40 * i, 400.0)) for i, d in enumerate(dice)]


def _run(interp: Interpreter, timeline: list[Change], until: float) -> None:
    """Feed each change in the frame after it happened, then empty frames up to ``until`` seconds."""
    t = 0.0
    while t <= until:
        frame = int(round(t * 6))
        interp.feed([c for c in timeline if frame - 1 < c.elapsed * 6 <= frame], frame, t)
        t = round(t + 1 / 6, 4)


def _bomb(card: str, at: float, x: float, y: float, kind: str = "card+") -> Change:
    """A bomb card turning up (or, ``kind``, named since) at (x, y), 80 px across."""
    return Change(kind, int(at * 6), at, card, where=(x, y), type="bomb", size=80.0)


def _actions(referee: Referee) -> list[str]:
    return [e.action for e in referee.events if not e.undone][len(SETUP):]


def test_a_roll_vision_missed_is_inferred_from_the_dice_settling_on_chips() -> None:
    referee, interp = _dealt()
    # the roll lands unseen (a hand over the roll area); its dice are then seen settling on chips one by one
    timeline = [Change("die+", 30, 5.0, "F-G21", 1, "red1"), Change("die+", 42, 7.0, "F-G28", 1, "black4"),
                Change("die+", 54, 9.0, "F-G10", 1, "green4"), Change("die+", 66, 11.0, "F-G04", 1, "blue6")]
    _run(interp, timeline, 20.0)
    assert _actions(referee)[0].split()[0] == "roll"
    assert sorted(_actions(referee)[0].split()[1:]) == ["black4", "blue6", "green4", "red1"]
    assert _actions(referee)[1:] == ["place red1 F-G21:1", "place black4 F-G28:1", "place green4 F-G10:1",
                                     "place blue6 F-G04:1"]
    assert all(e.accepted for e in referee.events) and referee.violations == []


@pytest.mark.parametrize(("second_at", "rolled_at"), [(7.0, 3.0), (5.0, 5.0)], ids=["one by one", "landed on chips"])
def test_a_roll_inferred_from_dice_on_chips_is_dated_by_how_they_came_there(second_at: float, rolled_at: float) -> None:
    """The roll lands unseen. Dice seen settling on chips one by one were put there a while after it was rolled; two
    seen on chips in the same frame landed there as it was rolled (probe11 cd3s1906: dice landing on a spark card's
    chips dated the roll 2 s early)."""
    referee, interp = _dealt()
    timeline = [Change("die+", 30, 5.0, "F-G21", 1, "red1"), Change("die+", int(second_at * 6), second_at, "F-G28",
                                                                     1, "black4"),
                Change("die+", 54, 9.0, "F-G10", 1, "green4"), Change("die+", 66, 11.0, "F-G04", 1, "blue6")]
    _run(interp, timeline, 20.0)
    roll = next(e for e in referee.events if not e.undone and e.action.startswith("roll "))
    assert roll.elapsed == pytest.approx(rolled_at - interp.settings.clock_start, abs=0.01)


HALF_SEEN_ROLL = ("deal p1 C-G40", "deal p1 C-G17", "deal p2 C-G50", "deal p2 C-G24", "reveal C-G52", "reveal C-G36",
                  "reveal C-G32", "reveal C-G16", "reveal C-G11", "role p1 R-1", "role p2 R-4", "ready")
"""Countdown, two players, waiting for a roll of four dice (minute s4s615 at 34 s): two of them land together and
are seen, a third is seen alone as it lands, the fourth only on the chip it is put on (black/yellow1 on C-G17:1),
then the third on its chip (yellow3 on C-G50:1)."""


def _half_seen_roll(faint: list[Change]) -> Referee:
    referee, interp = _dealt(GameConfig("countdown", 2), HALF_SEEN_ROLL)
    _run(interp, [*_loose(("blue3", "black2"), 2.0), Change("loose+", 28, 4.7, die="yellow3", where=(700.0, 380.0)),
                  Change("die+", 31, 5.2, "C-G17", 1, "black/yellow1", confidence=0.46, where=(300.0, 600.0)),
                  Change("loose-", 40, 6.6, die="yellow3", where=(700.0, 380.0)),
                  Change("die+", 42, 7.0, "C-G50", 1, "yellow3", confidence=0.54, where=(600.0, 150.0)), *faint],
         20.0)
    return referee


def test_a_roll_half_seen_landing_is_inferred_with_the_dice_that_landed_together() -> None:
    """The two dice that landed together are given up before the rest of the roll has settled on chips, yet they
    are the roll's: inferred from the dice on chips, it takes them (short of them, it was never inferred)."""
    referee = _half_seen_roll([])
    actions = [e.action for e in referee.events if not e.undone][len(HALF_SEEN_ROLL):]
    assert actions[:3] == ["roll black/yellow1 yellow3 blue3 black2", "place black/yellow1 C-G17:1",
                           "place yellow3 C-G50:1"], actions
    assert referee.violations == []


def test_a_faint_reading_on_a_chip_that_no_roll_can_hold_is_left_out_of_the_roll_inferred() -> None:
    """A faint black/yellow3 read on another chip (a print, a hand) cannot be in the roll with the black/yellow1 (the
    bag holds one black/yellow die): the roll is inferred without it, from the dice that landed together."""
    referee = _half_seen_roll([Change("die+", 50, 8.3, "C-G24", 1, "black/yellow3", confidence=0.12,
                                      where=(650.0, 150.0))])
    rolls = [e.action for e in referee.events if not e.undone and e.action.startswith("roll ")]
    assert rolls == ["roll black/yellow1 yellow3 blue3 black2"], rolls
    assert referee.violations == []


def test_a_faint_reading_on_a_chip_of_colours_no_loose_die_has_gives_way_to_a_sure_die_seen_late() -> None:
    """probe3 p4s1105 at 15 s: three red dice of the roll are seen landing, the fourth (red5) only as it is uncovered
    later; meanwhile one is put on a chip and a blue1 read faintly on another (a shadow). The roll inferred is the
    four red dice: the faint reading shares colours with no loose die and the sure red5 makes up the roll."""
    referee, interp = _dealt()
    _run(interp, [*_loose(("red2", "red3", "red2"), 2.0), Change("loose-", 30, 5.0, die="red2", where=(500.0, 400.0)),
                  Change("die+", 33, 5.5, "F-G04", 1, "red2", confidence=0.8, where=(300.0, 600.0)),
                  Change("loose+", 39, 6.5, die="red5", confidence=0.8, where=(620.0, 420.0)),
                  Change("die+", 45, 7.5, "F-G10", 3, "blue1", confidence=0.11, where=(700.0, 600.0))], 20.0)
    rolls = [a for a in _actions(referee) if a.startswith("roll ")]
    assert [sorted(r.split()[1:]) for r in rolls] == [["red2", "red2", "red3", "red5"]], _actions(referee)
    assert "place red2 F-G04:1" in _actions(referee) and referee.violations == []


def test_an_unknown_card_where_one_was_taken_as_no_card_before_is_that_object_again() -> None:
    """Countdown (minute v3s618): something spark-like lies beside the table as the game waits for the roll, and is
    taken as no card; uncovered again while the roll is distributed, it is that object again, not a spark drawn
    (which would end the distribution)."""
    referee, interp = _dealt(GameConfig("countdown", 2), HALF_SEEN_ROLL)
    spot = (540.0, 372.0)
    _run(interp, [Change("card+", 6, 1.0, "?7", where=spot, type="spark", size=80.0),
                  Change("card-", 36, 6.0, "?7", where=spot, type="spark"),
                  *_loose(("black2", "yellow3", "blue3", "red4"), 7.0),
                  Change("die+", 60, 10.0, "C-G50", 1, "yellow3", where=(600.0, 150.0)),
                  Change("card+", 72, 12.0, "?9", where=(541.0, 371.0), type="spark", size=80.0)], 20.0)
    actions = [e.action for e in referee.events if not e.undone][len(HALF_SEEN_ROLL):]
    assert actions == ["roll black2 yellow3 blue3 red4", "place yellow3 C-G50:1"], actions


def test_a_die_of_the_roll_read_with_another_colour_is_corrected_by_where_it_settles() -> None:
    referee, interp = _dealt()
    # the roll was read with a blue4 that is a black4: the die seen on the chip, read for longer, is right
    _run(interp, _loose(("red1", "blue4", "green4", "yellow2"), 2.0)
         + [Change("loose-", 40, 6.5, die="blue4", where=(540.0, 400.0)),
            Change("die+", 42, 7.0, "F-G28", 1, "black4")], 12.0)
    assert _actions(referee)[-1] == "place black4 F-G28:1" and referee.events[-1].accepted
    assert [e.action for e in referee.events if not e.undone and e.action.startswith("roll")] == [
        "roll red1 black4 green4 yellow2"]
    assert referee.violations == [] and interp.confirms == []


def test_a_die_seen_as_the_roll_holds_it_goes_before_a_roll_correction_read_in_the_same_frame() -> None:
    """tune cd2s5 at 64 s: blue4, lifted from the roll area, is seen on F-G04:1, and in the same frame something on
    F-G10:1 is read faintly as green4, a die the roll lacks but one a colour misread of blue4 would be. The die
    the roll holds is placed; the faint reading does not take it from the roll, and is asked about."""
    referee, interp = _dealt()
    _run(interp, [*_loose(("red1", "blue4", "yellow2", "black3"), 2.0),
                  Change("loose-", 24, 4.0, die="blue4", where=(540.0, 400.0)),
                  Change("die+", 30, 5.0, "F-G10", 1, "green4", confidence=0.3, where=(300.0, 600.0)),
                  Change("die+", 30, 5.0, "F-G04", 1, "blue4", confidence=0.8, where=(600.0, 150.0))], 15.0)
    assert _actions(referee) == ["roll red1 blue4 yellow2 black3", "place blue4 F-G04:1"]
    assert [c.action for c in interp.confirms] == ["place green4 F-G10:1"]


def test_dice_seen_again_where_they_were_lifted_from_the_roll_area_are_no_next_roll_landing() -> None:
    """one-minute v3s618 at 19 s: blue4, lifted (its placement refused, taken back), is put back where it lay as
    yellow2 there is read again as yellow5, in one frame. Two dice turning up together, but where dice of their
    colours were lifted: no roll landing (the dice left over were not placed unseen), and not rolled again."""
    referee, interp = _dealt()
    _run(interp, [*_loose(("red1", "blue4", "yellow2", "black3"), 2.0),
                  Change("loose-", 24, 4.0, die="blue4", where=(540.0, 400.0)),
                  Change("loose-", 44, 7.3, die="yellow2", where=(580.0, 400.0)),
                  Change("loose+", 45, 7.5, die="blue4", where=(541.0, 401.0)),
                  Change("loose+", 45, 7.5, die="yellow5", where=(580.0, 400.0))], 20.0)
    assert _actions(referee) == ["roll red1 blue4 yellow2 black3"]
    assert interp.confirms == []


def test_a_die_seen_on_two_chips_is_moved_to_the_other_when_the_first_is_read_surely_as_another_die() -> None:
    """probe2 p4s905 at 99 s: black4, put on F-G10:3, is seen first on chip 1 (both take it) and taken there; chip
    3's reading is refused (the roll has no black4 left). When chip 1 is read again, surely, as green6, the black4
    was chip 3's: its placement is corrected, and green6 is placed on chip 1."""
    referee, interp = _dealt()
    _run(interp, [*_loose(("red1", "black4", "yellow2", "green6"), 2.0),
                  Change("die+", 30, 5.0, "F-G10", 1, "black4", where=(400.0, 600.0)),
                  Change("die+", 31, 5.17, "F-G10", 3, "black4", where=(440.0, 600.0)),
                  Change("die-", 54, 9.0, "F-G10", 1, "black4", where=(400.0, 600.0), turned=True),
                  Change("die+", 54, 9.0, "F-G10", 1, "green6", confidence=0.9, where=(400.0, 600.0), turned=True)],
         20.0)
    assert _actions(referee) == ["roll red1 black4 yellow2 green6", "place black4 F-G10:3", "place green6 F-G10:1"]
    assert all(e.accepted for e in referee.events)


@pytest.mark.parametrize("rolled_surely", [True, False])
def test_a_die_on_a_chip_refusing_it_and_the_surely_rolled_die_alike_lifted_is_that_dies_violation(
        rolled_surely: bool) -> None:
    """unseen2 h3s502 at 54 s: red3, read surely as the roll landed and lifted from the roll area, is put on F-G21:1
    (`[1]`) and read there as red5, a die the roll lacks; no correction of the roll fits (the chip refuses red5
    too). The roll's one red die is the die put there: an illegal placement either way, flagged as red3. Read
    faintly as it landed (unseen2 h2s501 at 5 s: the roll was the misread one), it is asked about instead."""
    referee, interp = _dealt()
    landed = [replace(c, confidence=0.9 if rolled_surely or c.die != "red3" else 0.55)
              for c in _loose(("red3", "blue4", "yellow2", "black6"), 2.0)]
    _run(interp, [*landed, Change("loose-", 24, 4.0, die="red3", where=(500.0, 400.0)),
                  Change("die+", 30, 5.0, "F-G21", 1, "red5", confidence=0.8, where=(290.0, 600.0))], 15.0)
    assert [e.action for e in referee.violations] == (["place red3 F-G21:1"] if rolled_surely else [])
    assert [c.action for c in interp.confirms] == ([] if rolled_surely else ["place red5 F-G21:1"])


def test_of_two_dice_alike_in_the_roll_the_one_lifted_is_the_violation_on_a_chip_refusing_all_readings() -> None:
    """As above, but the roll holds red3 and red2: the lifted one, red3, is the die put on F-G21:1 (warm h2s2201's
    green3 on F-021:2, beside green5)."""
    referee, interp = _dealt()
    landed = [replace(c, confidence=0.9) for c in _loose(("red3", "blue4", "red2", "black6"), 2.0)]
    _run(interp, [*landed, Change("loose-", 24, 4.0, die="red3", where=(500.0, 400.0)),
                  Change("die+", 30, 5.0, "F-G21", 1, "red5", confidence=0.8, where=(290.0, 600.0))], 15.0)
    assert [e.action for e in referee.violations] == ["place red3 F-G21:1"]
    assert interp.confirms == []


def test_a_die_like_object_lying_on_the_table_before_the_first_roll_is_no_die_of_the_game() -> None:
    referee, interp = _dealt()
    phantom = [Change("loose+", 1, 0.2, die="green2", where=(830.0, 476.0)),
               Change("loose-", 12, 2.0, die="green2", where=(830.0, 476.0), turned=True),
               Change("loose+", 12, 2.2, die="green5", where=(830.0, 476.0), turned=True)]
    _run(interp, phantom + _loose(("blue1", "green2", "red5", "yellow1"), 3.5), 10.0)
    assert _actions(referee) == ["roll blue1 green2 red5 yellow1"]
    assert interp.confirms == []


@pytest.mark.parametrize("others", [((100.0, 110.0), (125.0, 90.0), (185.0, 120.0)),
                                    ((80.0, 100.0), (152.0, 30.0), (230.0, 110.0))], ids=["close", "scattered"])
def test_a_die_of_a_roll_landing_where_a_look_alike_lay_is_a_die_of_the_roll(others: tuple) -> None:
    """A loose "die" lay apart from the first roll's heap, so what a loose die does at its spot is ignored; but a
    die of the next roll that lands there in a heap with the others is the roll's: the spot is forgotten. So is one
    landing at the same moment as others a little further off (70-80 px: unseen5 h3s1002's scattered roll)."""
    referee, interp = _dealt()
    stray = Change("loose+", 18, 3.0, die="black1", where=(150.0, 100.0))
    _run(interp, [stray, *_loose(("red1", "green4", "blue3", "yellow6"), 3.5)], 10.0)
    assert any("apart from the roll" in n for n in interp.notes)
    for action in ("place red1 F-G21:1", "place blue3 F-G04:1", "place green4 F-G10:1", "place yellow6 F-G04:2"):
        referee.submit(action)
    landing = [Change("loose+", 84, 14.0, die=d, where=xy) for d, xy in (
        *zip(("blue1", "red5", "yellow1"), others), ("black4", (152.0, 104.0)))]
    _run_from(interp, landing, 10.0, 20.0)
    assert _actions(referee)[-1] == "roll blue1 red5 black4 yellow1"


def test_a_stray_loose_die_apart_from_the_roll_heap_is_left_out() -> None:
    referee, interp = _dealt()
    stray = Change("loose+", 18, 3.0, die="black1", where=(150.0, 100.0))
    _run(interp, [stray, *_loose(("black2", "black5", "green1", "red6"), 3.5)], 10.0)
    assert _actions(referee) == ["roll black2 black5 green1 red6"]


def test_loose_dice_seen_one_at_a_time_are_no_roll_until_dice_land_together() -> None:
    """Four die-like sightings, none within a moment of another (a die in a hand, a print, a glimpse), while the
    game waits for the roll are no roll; the roll is the dice that then land together."""
    referee, interp = _dealt()
    strays = [Change("loose+", int(at * 6), at, die=d, where=xy) for at, d, xy in (
        (1.0, "red2", (725.0, 122.0)), (1.8, "black6", (635.0, 444.0)), (2.6, "blue5", (300.0, 600.0)),
        (3.4, "green4", (709.0, 132.0)))]
    _run(interp, [*strays, *_loose(("black2", "black5", "green1", "red6"), 5.0)], 10.0)
    assert [a for a in _actions(referee) if a.startswith("roll")] == ["roll black2 black5 green1 red6"]


def test_the_unused_die_read_again_where_it_landed_corrects_its_reading() -> None:
    """yellow6 is left unused and rolled again, read yellow2 faintly as it lands; read again where it lies as
    yellow5 before the next roll: the unused die's reading is corrected."""
    referee, interp = _dealt()
    _run(interp, _loose(("red1", "green4", "black1", "yellow6"), 2.0) + [
        Change("die+", 30, 5.0, "F-G21", 1, "red1"), Change("die+", 36, 6.0, "F-G10", 1, "green4"),
        Change("die+", 42, 7.0, "F-G04", 1, "black1"),
        Change("loose-", 54, 9.0, die="yellow6", where=(620.0, 400.0)),
        Change("loose+", 57, 9.5, die="yellow2", where=(700.0, 450.0), confidence=0.3),
        Change("loose-", 66, 11.0, die="yellow2", where=(700.0, 450.0), turned=True),
        Change("loose+", 66, 11.0, die="yellow5", where=(700.0, 450.0), turned=True)], 20.0)
    assert _actions(referee)[-2:] == ["done", "unused yellow5"]
    assert referee.violations == [] and interp.confirms == []


def _yellow_die_unplaced(confidence: float) -> tuple[Referee, Interpreter]:
    """After the roll, a yellow die read on F-G21:2 at ``confidence`` that the game never saw placed (a reading it
    could make no sense of)."""
    referee, interp = _dealt()
    _run(interp, _loose(("black5", "red6", "black2", "green1"), 2.0)
         + [Change("die+", 36, 6.0, "F-G21", 2, "yellow3", confidence=confidence)], 12.0)
    return referee, interp


def test_a_refused_placement_is_a_question_while_the_game_is_out_of_step_with_the_table() -> None:
    referee, interp = _yellow_die_unplaced(0.9)
    assert referee.violations == []
    # an illegal-looking placement is then vision's error as much as the player's: asked, not flagged
    _run_from(interp, [Change("die+", 80, 13.0, "F-G28", 1, "green1", confidence=0.9)], 13.0, 20.0)
    assert referee.violations == []
    assert any(c.action == "place green1 F-G28:1" for c in interp.confirms)


def test_a_refused_placement_asked_about_is_a_violation_once_its_die_is_taken_back() -> None:
    referee, interp = _yellow_die_unplaced(0.9)  # out of step: the refused green1 is first a question...
    _run_from(interp, [Change("die+", 80, 13.0, "F-G28", 1, "green1", confidence=0.9)], 13.0, 15.0)
    assert referee.violations == []
    # ... and lifted off again two seconds later: the player took an illegal placement back
    _run_from(interp, [Change("die-", 92, 15.0, "F-G28", 1, "green1")], 15.0, 20.0)
    assert [e.action for e in referee.violations] == ["place green1 F-G28:1"]
    assert referee.violations[0].elapsed == 13.0 and list(interp.taken_back.values()) == [92]


def test_a_die_lifted_before_the_game_judged_its_placement_is_judged_after_it() -> None:
    """The roll is committed late (a hand over the roll area): the green1 seen on F-G28:1 waits for it, and so does
    its lift, which then takes the refused placement back (it is not judged first, as a die the game never had)."""
    referee, interp = _dealt()
    placed = Change("die+", 30, 5.0, "F-G28", 1, "green1", confidence=0.9)
    lifted = Change("die-", 42, 7.0, "F-G28", 1, "green1")
    _run_from(interp, [placed], 5.0, 5.5)
    _run_from(interp, [lifted], 7.0, 7.5)
    interp.feed(_loose(("black5", "red6", "black2", "green1"), 3.0), 48, 8.0)
    _run_from(interp, [], 8.2, 14.0)
    assert [e.action for e in referee.violations] == ["place green1 F-G28:1"]
    assert list(interp.taken_back.values()) == [42]


@pytest.mark.parametrize(("read", "flagged"), [(0.4, True), (0.25, False)])
def test_a_refused_placement_read_unsurely_and_taken_back_is_a_violation_unless_barely_read(
        read: float, flagged: bool) -> None:
    """Under ``min_confidence`` the refusal alone is a question, but the lift is the players' own sign: read at
    ``taken_back_confidence`` or more, the die taken back was the die refused."""
    referee, interp = _yellow_die_unplaced(0.9)
    _run_from(interp, [Change("die+", 80, 13.0, "F-G28", 1, "green1", confidence=read),
                       Change("die-", 92, 15.0, "F-G28", 1, "green1")], 13.0, 20.0)
    assert [e.action for e in referee.violations] == (["place green1 F-G28:1"] if flagged else [])


def test_a_refused_placement_barely_read_taken_back_is_a_violation_if_its_die_was_rolled_surely_and_lifted() -> None:
    """As above at 0.25, but green1 was read surely as the roll landed and seen lifted from the roll area before it
    was seen on F-G28:1 (probe cd2s403 at 18 s): the die taken back was that die, an illegal placement."""
    referee, interp = _yellow_die_unplaced(0.9)
    _run_from(interp, [Change("loose-", 76, 12.5, die="green1", where=(620.0, 400.0)),
                       Change("die+", 80, 13.0, "F-G28", 1, "green1", confidence=0.25),
                       Change("die-", 92, 15.0, "F-G28", 1, "green1")], 12.5, 20.0)
    assert [e.action for e in referee.violations] == ["place green1 F-G28:1"]


@pytest.mark.parametrize("late", [0.0, 0.5], ids=["seen at once", "its leaving committed half a second later"])
def test_a_refused_placement_whose_die_leaves_with_its_card_is_no_violation(late: float) -> None:
    """As above, but the card leaves the table with the die (defused, with dice on its other chips the game never
    saw placed, which made the rules refuse this one): nothing was taken back, also when the tracker commits the
    card's leaving a few frames after the die's (probe2 cd2s903's C-G16, flagged falsely)."""
    referee, interp = _dealt()
    card = Change("card+", 3, 0.5, "F-G28", where=(300.0, 600.0), type="bomb", size=80.0)
    _run(interp, [card, *_loose(("black5", "red6", "black2", "green1"), 2.0),
                  Change("die+", 36, 6.0, "F-G21", 2, "yellow3", confidence=0.9)], 12.0)
    _run_from(interp, [Change("die+", 80, 13.0, "F-G28", 1, "green1", confidence=0.9)], 13.0, 15.0)
    lifted = Change("die-", 92, 15.0, "F-G28", 1, "green1")
    left = Change("card-", 92, 15.0, "F-G28", where=(300.0, 600.0), type="bomb")
    interp.feed([lifted] if late else [lifted, left], 90, 15.0)
    if late:
        interp.feed([left], 93, 15.0 + late)
    _run_from(interp, [], 15.0 + late + 0.2, 20.0)
    assert referee.violations == [] and interp.taken_back == {}


def test_a_refused_last_die_taken_back_from_a_card_that_keeps_its_dice_is_a_violation() -> None:
    """The die refused on F-G21's last chip (as below) is lifted alone, the card and its other dice staying: no
    defuse, the player took the illegal placement back."""
    referee, interp = _dealt()
    for action in ("roll black1 red1 green2 blue5", "place black1 F-G21:1", "place red1 F-G21:2",
                   "place green2 F-G04:1", "place blue5 F-G04:2"):
        referee.submit(action)
    on_the_card = [Change("die+", 6, 1.0, "F-G21", k, die, confidence=0.9) for k, die in ((1, "black1"), (2, "red1"))]
    _run(interp, on_the_card + _loose(("yellow4", "green3", "red6", "black5"), 2.0)
         + [Change("die+", 42, 7.0, "F-G10", 2, "yellow3", confidence=0.9),
            Change("die+", 54, 9.0, "F-G21", 3, "green3", confidence=0.9)], 10.0)
    _run_from(interp, [Change("die-", 66, 11.0, "F-G21", 3, "green3")], 11.0, 16.0)
    assert [e.action for e in referee.violations] == ["place green3 F-G21:3"]


def test_a_refused_last_die_lifted_with_its_card_s_other_dice_is_no_violation() -> None:
    referee, interp = _dealt()
    for action in ("roll black1 red1 green2 blue5", "place black1 F-G21:1", "place red1 F-G21:2",
                   "place green2 F-G04:1", "place blue5 F-G04:2"):
        referee.submit(action)
    # F-G21 [1] [1] [1] holds black1 and red1; the green3 seen on its last chip is refused while vision is out of
    # step (a yellow die on F-G10:2 the game never saw placed): an earlier die may be misread...
    _run(interp, _loose(("yellow4", "green3", "red6", "black5"), 2.0)
         + [Change("die+", 42, 7.0, "F-G10", 2, "yellow3", confidence=0.9),
            Change("die+", 54, 9.0, "F-G21", 3, "green3", confidence=0.9)], 10.0)
    # ... so all three lifted together may be the card defused, not a placement taken back
    _run_from(interp, [Change("die-", 66, 11.0, "F-G21", k, die) for k, die in ((1, "black1"), (2, "red1"),
                                                                                (3, "green3"))], 11.0, 16.0)
    assert referee.violations == []
    assert any(c.action == "place green3 F-G21:3" for c in interp.confirms)


def test_a_die_read_faintly_where_the_game_holds_none_leaves_the_game_in_step() -> None:
    # something on F-G21:2 read faintly as a yellow die (a misread, or the chip's print): no sign of a die missed...
    referee, interp = _yellow_die_unplaced(0.2)
    # ... so a placement the rules refuse, seen clearly, is the player's
    _run_from(interp, [Change("die+", 80, 13.0, "F-G28", 1, "green1", confidence=0.9)], 13.0, 20.0)
    assert [e.action for e in referee.violations] == ["place green1 F-G28:1"]


def test_a_refused_placement_is_a_violation_while_the_game_is_in_step() -> None:
    referee, interp = _dealt()
    _run(interp, _loose(("black5", "red6", "black2", "green1"), 2.0)
         + [Change("die+", 80, 6.0, "F-G28", 1, "green1", confidence=0.9)], 12.0)
    assert [e.action for e in referee.violations] == ["place green1 F-G28:1"]


@pytest.mark.parametrize(("seen_at", "counted"), [(12.0, True), (12.5, False)])
def test_a_placement_first_seen_on_the_frame_the_countdown_ran_out_was_in_time(seen_at: float, counted: bool) -> None:
    """A 12-second game seen at 6 frames a second: a die first seen on its chip on the frame at 12.0 s was put
    down since the frame before, in time; one first seen three frames later was not."""
    referee, interp = _dealt(GameConfig("fuse", 2, limit_seconds=12))
    _run(interp, _loose(("black5", "red6", "black2", "green1"), 2.0)
         + [Change("die+", int(seen_at * 6), seen_at, "F-G21", 1, "green1", confidence=0.9)], 14.0)
    placed = [e for e in referee.events if e.action == "place green1 F-G21:1"]
    assert [(e.accepted, e.elapsed < 12.0) for e in placed] == ([(True, True)] if counted else [])


def test_a_done_inferred_from_a_die_that_seemed_rolled_again_is_taken_back_when_its_dice_are_placed() -> None:
    referee, interp = _dealt()
    timeline = _loose(("black5", "red6", "black2", "green1"), 2.0) + [
        # the green die is lifted, and a green die appears elsewhere: it looks like an unused die rolled again...
        Change("loose-", 30, 5.0, die="green1", where=(620.0, 400.0)),
        Change("loose+", 36, 5.5, die="green3", where=(300.0, 600.0)),
        # ... but the roll's dice are then placed: the distribution was not over
        Change("die+", 48, 8.0, "F-G04", 1, "black5", confidence=0.9),
    ]
    _run(interp, timeline, 16.0)
    assert "done" not in _actions(referee) and _actions(referee)[-1] == "place black5 F-G04:1"
    assert referee.violations == []


DEAL_WITH_AN_UNKNOWN_CARD = [
    Change("card+", 6, 1.0, "F-G21", where=(300.0, 600.0), type="bomb", size=80.0),
    Change("card+", 12, 2.0, "?1", where=(420.0, 600.0), type="bomb", size=80.0),
    Change("card+", 18, 3.0, "F-G28", where=(300.0, 100.0), type="bomb", size=80.0),
    Change("card+", 24, 4.0, "F-G04", where=(420.0, 100.0), type="bomb", size=80.0)]


def test_an_unknown_card_dealt_gets_a_stand_in_and_the_deal_goes_on_to_the_right_players() -> None:
    referee = Referee(GameConfig("fuse", 2), ManualClock())
    interp = Interpreter(referee)
    _run(interp, DEAL_WITH_AN_UNKNOWN_CARD, 8.0)
    deals = [e.action for e in referee.events if e.action.startswith("deal")]
    assert deals[0] == "deal p1 F-G21" and deals[1].startswith("deal p1 ")
    assert deals[2:] == ["deal p2 F-G28", "deal p2 F-G04"]
    assert any("which card is it?" in c.question for c in interp.confirms)


DEAL_WITH_AN_UNKNOWN_CARD_SET_ASIDE = [
    Change("card+", 6, 1.0, "F-G21", where=(300.0, 600.0), type="bomb", size=80.0),
    Change("card+", 12, 2.0, "F-G28", where=(900.0, 300.0), type="bomb", size=80.0),
    Change("card+", 18, 3.0, "?1", where=(920.0, 310.0), type="bomb", size=80.0),
    Change("card+", 24, 4.0, "F-G10", where=(420.0, 600.0), type="bomb", size=80.0),
    Change("card+", 30, 5.0, "F-G04", where=(300.0, 100.0), type="bomb", size=80.0),
    Change("card+", 36, 6.0, "F-G05", where=(420.0, 100.0), type="bomb", size=80.0)]
"""p1 is dealt F-G21 (worth 4) and F-G28 (4), which the starting-hand rule sets aside, then an unknown card beside
F-G28 (set aside too), then F-G10; p2 F-G04 and F-G05."""


def test_an_unknown_card_put_where_the_dealer_sets_cards_aside_gets_a_stand_in_that_is_set_aside() -> None:
    """p1's first card is worth 4, so the second must be worth 1 or 2: F-G28 (4) is set aside by the deck, and
    the unknown card put beside it is another that breaks the hand, not p1's second card."""
    referee = Referee(GameConfig("fuse", 2), ManualClock())
    interp = Interpreter(referee)
    _run(interp, DEAL_WITH_AN_UNKNOWN_CARD_SET_ASIDE, 10.0)
    deals = [e.action for e in referee.events if e.action.startswith("deal")]
    assert deals[:2] == ["deal p1 F-G21", "deal p1 F-G28"] and deals[2].startswith("deal p1 ")
    assert referee.state.game.card(deals[2].split()[-1]).points in (3, 4, 6)  # it breaks the hand too
    assert deals[3:] == ["deal p1 F-G10", "deal p2 F-G04", "deal p2 F-G05"]
    assert all(e.accepted for e in referee.events)
    assert abs(interp.zones.players[0][0] - 360.0) < 1 and interp.zones.aside is not None


def test_a_card_named_late_is_dealt_in_the_order_the_cards_turned_up() -> None:
    """F-G28 (worth 4, set aside beside F-G21's 4) turns up at 2 s but the layout names it only at 3.2 s, after
    F-G10, which turned up at 2.5 s, is named: p1 was dealt F-G28 before F-G10, so F-G10 is p1's and F-G28 no card
    of p2's (probe2 h3s902's F-G27, set aside under a hand)."""
    referee = Referee(GameConfig("fuse", 2), ManualClock())
    interp = Interpreter(referee)
    late = Change("card+", 19, 2.0, "F-G28", where=(900.0, 300.0), type="bomb", size=80.0)
    timeline = [Change("card+", 6, 1.0, "F-G21", where=(300.0, 600.0), type="bomb", size=80.0),
                Change("card+", 15, 2.5, "F-G10", where=(420.0, 600.0), type="bomb", size=80.0),
                Change("card+", 24, 4.0, "F-G04", where=(300.0, 100.0), type="bomb", size=80.0),
                Change("card+", 30, 5.0, "F-G05", where=(420.0, 100.0), type="bomb", size=80.0)]
    for frame in range(61):
        interp.feed([c for c in [*timeline, late] if c.frame == frame], frame, frame / 6)
    deals = [e.action for e in referee.events if e.action.startswith("deal") and not e.undone]
    assert deals == ["deal p1 F-G21", "deal p1 F-G28", "deal p1 F-G10", "deal p2 F-G04", "deal p2 F-G05"], deals


def test_a_card_of_a_starting_hand_leaving_as_the_deal_ends_was_the_card_set_aside() -> None:
    """p1 is dealt F-G21 (worth 4), F-G28 (4, set aside by the starting-hand rule) and F-G10, but the camera names
    F-G28 first: taken as p1's first card, it keeps F-G21 out. As the deal ends the cards set aside leave the
    table, and F-G28 goes while F-G21 stays: the two were dealt the other way round (probe10 h3s1802's p2)."""
    referee = Referee(GameConfig("fuse", 2), ManualClock())
    interp = Interpreter(referee)
    deal = [Change("card+", 6, 1.0, "F-G28", where=(900.0, 300.0), type="bomb", size=80.0),
            Change("card+", 9, 1.5, "F-G21", where=(300.0, 600.0), type="bomb", size=80.0),
            Change("card+", 18, 3.0, "F-G10", where=(420.0, 600.0), type="bomb", size=80.0),
            Change("card+", 24, 4.0, "F-G04", where=(300.0, 100.0), type="bomb", size=80.0),
            Change("card+", 30, 5.0, "F-G05", where=(420.0, 100.0), type="bomb", size=80.0),
            Change("card-", 40, 6.7, "F-G28", where=(900.0, 300.0), type="bomb")]
    _run(interp, deal, 20.0)
    assert [c.id for c in referee.state.players[0].cards] == ["F-G21", "F-G10"]
    assert all(e.accepted for e in referee.events if not e.undone)
    assert not any("F-G28 left the table" in c.question for c in interp.confirms)


@pytest.mark.parametrize(("where", "set_aside"), [((900.0, 300.0), True), ((420.0, 600.0), False)],
                         ids=["away from the hand", "beside the hand"])
def test_the_first_card_set_aside_unknown_but_looking_like_a_card_the_hand_refuses_is_that_card(
        where: tuple[float, float], set_aside: bool) -> None:
    """p1 is dealt F-G21 (worth 4), then an unknown card that looks most like F-G28 (4, refused by the starting hand)
    far from p1's cards; no card set aside yet shows where the dealer puts them: it is F-G28, set aside, and F-G10
    is p1's second card (probe3 cd2s1103's C-G47). Put down beside F-G21 it lies in the hand: a card the hand keeps,
    and F-G10 is p2's."""
    referee = Referee(GameConfig("fuse", 2), ManualClock())
    interp = Interpreter(referee)
    deal = [Change("card+", 6, 1.0, "F-G21", where=(300.0, 600.0), type="bomb", size=80.0),
            Change("card+", 12, 2.0, "?1", where=where, type="bomb", size=80.0, likely="F-G28",
                   resembles=("F-G28", "F-G22")),
            Change("card+", 24, 4.0, "F-G10", where=(540.0, 600.0), type="bomb", size=80.0)]
    _run(interp, deal, 8.0)
    deals = [e.action for e in referee.events if e.action.startswith("deal")]
    assert (deals[1] == "deal p1 F-G28") == set_aside
    assert deals[2:] == ["deal p1 F-G10" if set_aside else "deal p2 F-G10"]
    assert all(e.accepted for e in referee.events)


def test_an_unknown_card_on_a_card_set_aside_that_looks_most_like_it_is_that_card_seen_again() -> None:
    """As above, but the unknown card's outline (a third of a card from F-G28's, two cards set aside outlined as one)
    looks most like F-G28: F-G28 seen again, no card dealt, and p1's next card is F-G10."""
    referee = Referee(GameConfig("fuse", 2), ManualClock())
    interp = Interpreter(referee)
    again = [replace(c, where=(925.0, 312.0), resembles=("F-G28", "F-G22")) if c.card == "?1" else c
             for c in DEAL_WITH_AN_UNKNOWN_CARD_SET_ASIDE]
    _run(interp, again, 10.0)
    deals = [e.action for e in referee.events if e.action.startswith("deal")]
    assert deals == ["deal p1 F-G21", "deal p1 F-G28", "deal p1 F-G10", "deal p2 F-G04", "deal p2 F-G05"]
    assert any("?1" in note and "F-G28, back where it lay" in note for note in interp.notes)


def test_an_unknown_card_set_aside_named_as_the_cards_set_aside_leave_corrects_its_stand_in() -> None:
    """The unknown card set aside beside F-G28 got a stand-in; the layout names it as the cards set aside are
    shuffled back (the tracker's ``card-`` carries the name, where the unknown card lay): the deal is corrected to
    that card, and a stand-in for another unknown card that was that card becomes another card."""
    referee = Referee(GameConfig("fuse", 2), ManualClock())
    interp = Interpreter(referee)
    _run(interp, DEAL_WITH_AN_UNKNOWN_CARD_SET_ASIDE, 10.0)
    stand_in = [e.action for e in referee.events if e.action.startswith("deal")][2].split()[-1]
    named = next(c for c in ("F-019", "F-G22") if c != stand_in)  # worth 4 as well: set aside by the hand rule
    for action in SETUP[4:]:
        referee.submit(action)
    shuffled_back = [Change("card-", 72, 12.0, "F-G28", where=(900.0, 300.0)),
                     Change("card-", 72, 12.0, named, where=(920.0, 310.0))]
    _run_from(interp, shuffled_back, 10.0, 14.0)
    deals = [e.action for e in referee.events if e.action.startswith("deal") and not e.undone]
    assert deals == ["deal p1 F-G21", "deal p1 F-G28", f"deal p1 {named}", "deal p1 F-G10", "deal p2 F-G04",
                     "deal p2 F-G05"]
    assert all(e.accepted for e in referee.events if not e.undone)


def test_a_card_set_aside_and_shuffled_back_can_turn_up_again_in_the_row() -> None:
    """F-G28, set aside at the deal, leaves the table with the cards set aside (shuffled back into the deck); an
    unknown card then revealed into the row looking like F-G28 is F-G28, not another card (unseen5 p4s1005's
    F-G24, set aside for p3, then revealed: taken for F-020)."""
    referee = Referee(GameConfig("fuse", 2), ManualClock())
    interp = Interpreter(referee)
    deal = [c for c in DEAL_WITH_AN_UNKNOWN_CARD_SET_ASIDE if c.card != "?1"]
    deal += [Change("card-", 42, 7.0, "F-G28", where=(900.0, 300.0)),
             Change("card+", 48, 8.0, "?2", where=(200.0, 350.0), type="bomb", size=80.0, likely="F-G28",
                    resembles=("F-G28", "F-019"))]
    _run(interp, deal, 16.0)
    assert [e.action for e in referee.events if not e.undone and e.action.startswith("reveal")] == ["reveal F-G28"]


def test_a_stand_in_named_where_its_card_lies_is_that_card_when_it_turns_up_again_in_the_row() -> None:
    """The unknown card set aside beside F-G28 looks like F-019, its stand-in, and is then named F-019 where it lies:
    no guess any more. Shuffled back with the cards set aside, F-019 turns up in the row: revealed again, and the deal
    keeps it (probe h3s402's F-G27, taken back from the deal for another card)."""
    referee = Referee(GameConfig("fuse", 2), ManualClock())
    interp = Interpreter(referee)
    deal = [replace(c, likely="F-019", resembles=("F-019", "F-G22")) if c.card == "?1" else c
            for c in DEAL_WITH_AN_UNKNOWN_CARD_SET_ASIDE]
    deal += [Change("card=", 42, 7.0, "F-019", where=(920.0, 310.0), type="bomb"),
             Change("card-", 48, 8.0, "F-G28", where=(900.0, 300.0)),
             Change("card-", 48, 8.0, "F-019", where=(920.0, 310.0)),
             Change("card+", 54, 9.0, "F-019", where=(200.0, 350.0), type="bomb", size=80.0)]
    _run(interp, deal, 16.0)
    actions = [e.action for e in referee.events if not e.undone]
    assert "deal p1 F-019" in actions and "reveal F-019" in actions, actions


def test_two_unknown_cards_set_aside_side_by_side_are_each_corrected_by_the_name_given_where_it_lay() -> None:
    """Two unknown cards set aside 60 px apart (less than a card's length), both named as they are shuffled back:
    each name corrects the stand-in of the unknown card nearest where it was seen, not the first within reach."""
    referee = Referee(GameConfig("fuse", 2), ManualClock())
    interp = Interpreter(referee)
    second = Change("card+", 21, 3.5, "?2", where=(980.0, 310.0), type="bomb", size=80.0)
    deal = [c if c.card != "F-G10" else replace(c, elapsed=4.5) for c in DEAL_WITH_AN_UNKNOWN_CARD_SET_ASIDE]
    _run(interp, sorted([*deal, second], key=lambda c: c.elapsed), 12.0)
    for action in SETUP[4:]:
        referee.submit(action)
    named = [c for c in ("F-019", "F-G22", "F-G20") if c not in {e.action.split()[-1] for e in referee.events}]
    shuffled_back = [Change("card-", 84, 14.0, named[1], where=(980.0, 310.0)),
                     Change("card-", 84, 14.0, named[0], where=(920.0, 310.0)),
                     Change("card-", 84, 14.0, "F-G28", where=(900.0, 300.0))]
    _run_from(interp, shuffled_back, 12.0, 16.0)
    deals = [e.action for e in referee.events if e.action.startswith("deal") and not e.undone]
    assert deals == ["deal p1 F-G21", "deal p1 F-G28", f"deal p1 {named[0]}", f"deal p1 {named[1]}",
                     "deal p1 F-G10", "deal p2 F-G04", "deal p2 F-G05"]


@pytest.mark.parametrize(("to", "revealed"), [((300.0, 350.0), True), ((870.0, 305.0), False)],
                         ids=["into the row", "within the pile"])
def test_a_card_set_aside_moved_into_the_row_while_the_deal_waits_for_an_unknown_card_is_revealed(
        to: tuple[float, float], revealed: bool) -> None:
    """F-G28 set aside, then an unknown card, a glimpse: the cards dealt after it wait for it. F-G28 is seen moved
    into the row before the glimpse is known to be over (a card's leaving is committed late): shuffled back as the
    deal ended, and turned up as the row's first card. Moved less than its short side, it only shifted in the pile
    (one-minute v3s614's F-019, 37 px, as the next card was laid on it): no reveal."""
    referee = Referee(GameConfig("fuse", 2), ManualClock())
    interp = Interpreter(referee)
    deal = [Change("card+", 6, 1.0, "F-G21", where=(300.0, 600.0), type="bomb", size=80.0),
            Change("card+", 9, 1.5, "F-G28", where=(900.0, 300.0), type="bomb", size=80.0),
            Change("card+", 12, 2.0, "?1", where=(960.0, 300.0), type="bomb", size=80.0,
                   resembles=("F-G22", "F-019", "F-G20")),
            Change("card+", 15, 2.5, "F-G10", where=(420.0, 600.0), type="bomb", size=80.0),
            Change("card+", 18, 3.0, "F-G04", where=(300.0, 100.0), type="bomb", size=80.0),
            Change("card+", 21, 3.5, "F-G05", where=(420.0, 100.0), type="bomb", size=80.0),
            Change("card>", 27, 4.5, "F-G28", where=to, before=(900.0, 300.0), size=80.0),
            Change("card-", 30, 5.0, "?1", where=(960.0, 300.0)),
            Change("card+", 33, 5.5, "F-011", where=(420.0, 350.0), type="bomb", size=80.0)]
    _run(interp, deal, 10.0)
    assert [e.action for e in referee.events] == [
        "deal p1 F-G21", "deal p1 F-G28", "deal p1 F-G10", "deal p2 F-G04", "deal p2 F-G05",
        *(["reveal F-G28"] if revealed else []), "reveal F-011"]


@pytest.mark.parametrize(("looks_like", "set_aside"), [
    (("F-G28", "F-G22"), "F-G28"), (("F-G28", "F-G22", "F-019"), None), (("F-G05",), None)])
def test_an_unknown_card_gone_again_in_the_deal_is_the_card_it_looks_like_set_aside(
        looks_like: tuple[str, ...], set_aside: str | None) -> None:
    """p1 is dealt F-G21 (worth 4); an unknown card turns up and is taken away again before it could be taken for a
    card dealt (set aside, then shuffled back). Found like two known cards at most, the first of which the starting
    hand sets aside (F-G28, worth 4), it is that card set aside; found like more (half under another card), or like
    a card the hand would keep (F-G05, worth 1), it was a glimpse of something."""
    referee = Referee(GameConfig("fuse", 2), ManualClock())
    interp = Interpreter(referee)
    deal = [Change("card+", 6, 1.0, "F-G21", where=(300.0, 600.0), type="bomb", size=80.0),
            Change("card+", 12, 2.0, "?1", where=(900.0, 300.0), type="bomb", size=80.0, resembles=looks_like),
            Change("card-", 18, 3.0, "?1", where=(900.0, 300.0)),
            Change("card+", 24, 4.0, "F-G10", where=(420.0, 600.0), type="bomb", size=80.0),
            Change("card+", 30, 5.0, "F-G04", where=(300.0, 100.0), type="bomb", size=80.0),
            Change("card+", 36, 6.0, "F-G05", where=(420.0, 100.0), type="bomb", size=80.0)]
    _run(interp, deal, 12.0)
    deals = [e.action for e in referee.events if e.action.startswith("deal")]
    assert deals == ["deal p1 F-G21", *([f"deal p1 {set_aside}"] if set_aside else []), "deal p1 F-G10",
                     "deal p2 F-G04", "deal p2 F-G05"]
    assert all(e.accepted for e in referee.events) and referee.state.set_aside == []


@pytest.mark.parametrize("leaves", [True, False])
def test_an_unknown_card_dealt_that_leaves_before_any_die_is_placed_was_no_card(leaves: bool) -> None:
    """p2's first card is unknown, far from where p2's cards then lie (the locator's false card on the table's
    pattern): its stand-in (F-G27, worth 4) makes the starting-hand rule set F-G28 (4) aside, and F-G04 is p2's
    second card. It leaves before any die is placed: it was no card, its deal is taken back, and p2 holds F-G28
    and F-G04. Lying on, it stays p2's card."""
    referee = Referee(GameConfig("fuse", 2), ManualClock())
    interp = Interpreter(referee)
    deal = [Change("card+", 6, 1.0, "F-G21", where=(300.0, 600.0), type="bomb", size=80.0),
            Change("card+", 12, 2.0, "F-G10", where=(420.0, 600.0), type="bomb", size=80.0),
            Change("card+", 18, 3.0, "?1", where=(900.0, 650.0), type="bomb", size=80.0, resembles=("F-G27",)),
            Change("card+", 24, 4.0, "F-G28", where=(300.0, 100.0), type="bomb", size=80.0),
            Change("card+", 30, 5.0, "F-G04", where=(420.0, 100.0), type="bomb", size=80.0)]
    _run(interp, deal + ([Change("card-", 60, 10.0, "?1", where=(900.0, 650.0))] if leaves else []), 16.0)
    assert [c.id for c in referee.state.players[1].cards] == (["F-G28", "F-G04"] if leaves else ["F-G27", "F-G04"])
    assert all(e.accepted for e in referee.events) and referee.violations == []


def test_a_die_landing_where_an_unknown_card_set_aside_lay_before_it_left_lies_on_no_card() -> None:
    """The unknown card set aside at the deal (taken as a stand-in) is shuffled back; the unused black5, rolled
    again, lands where it lay: the die rolled again, not a die lying on that card."""
    referee = Referee(GameConfig("fuse", 2), ManualClock())
    interp = Interpreter(referee)
    _run(interp, DEAL_WITH_AN_UNKNOWN_CARD_SET_ASIDE, 10.0)
    for action in SETUP[4:]:
        referee.submit(action)
    play = [Change("card-", 72, 12.0, "F-G28", where=(900.0, 300.0)), Change("card-", 72, 12.0, "?1",
                                                                              where=(920.0, 310.0)),
            *_loose(("black5", "red6", "black1", "red1"), 14.0),
            Change("die+", 96, 16.0, "F-G21", 1, "red1"), Change("die+", 102, 17.0, "F-G21", 2, "black1"),
            Change("die+", 108, 18.0, "F-G04", 1, "red6"),
            Change("loose-", 120, 20.0, die="black5", where=(500.0, 400.0)),
            Change("loose+", 123, 20.5, die="black2", where=(915.0, 305.0))]
    _run_from(interp, play, 10.0, 28.0)
    assert _actions(referee)[-2:] == ["done", "unused black2"], _actions(referee)


def test_a_stand_in_that_breaks_the_hand_is_swapped_for_one_that_keeps_the_next_card_dealt_beside_it() -> None:
    """p1's first card is unknown; its stand-in is chosen before the second is seen. F-G28 (worth 4), put beside it
    in p1's hand, is set aside by the starting-hand rule if the stand-in is worth 3, 4 or 6: then the stand-in is
    another card, one that keeps F-G28 in the hand, and the deal goes on to p2."""
    referee = Referee(GameConfig("fuse", 2), ManualClock())
    interp = Interpreter(referee)
    deal = [Change("card+", 6, 1.0, "?1", where=(300.0, 600.0), type="bomb", size=80.0),
            Change("card+", 12, 2.0, "F-G28", where=(420.0, 600.0), type="bomb", size=80.0),
            Change("card+", 18, 3.0, "F-G04", where=(300.0, 100.0), type="bomb", size=80.0),
            Change("card+", 24, 4.0, "F-G05", where=(420.0, 100.0), type="bomb", size=80.0)]
    _run(interp, deal, 8.0)
    hands = [[c.id for c in area.cards] for area in referee.state.players]
    assert "F-G28" in hands[0] and referee.state.set_aside == []
    assert hands[1] == ["F-G04", "F-G05"] and all(e.accepted for e in referee.events)
    assert any("F-G28 lies in p1's hand: the stand-in is" in note for note in interp.notes)


def test_an_unknown_card_that_looks_like_a_card_the_hand_refuses_swaps_the_stand_in_that_broke_the_hand() -> None:
    """As above, but p1's second card is unknown too, and looks like F-G28: the look is refused only for the
    guess dealt before it, so that guess becomes another card and the second card is taken as F-G28."""
    referee = Referee(GameConfig("fuse", 2), ManualClock())
    interp = Interpreter(referee)
    deal = [Change("card+", 6, 1.0, "?1", where=(300.0, 600.0), type="bomb", size=80.0),
            Change("card+", 12, 2.0, "?2", where=(420.0, 600.0), type="bomb", size=80.0, likely="F-G28"),
            Change("card+", 18, 3.0, "F-G04", where=(300.0, 100.0), type="bomb", size=80.0),
            Change("card+", 24, 4.0, "F-G05", where=(420.0, 100.0), type="bomb", size=80.0)]
    _run(interp, deal, 8.0)
    hands = [[c.id for c in area.cards] for area in referee.state.players]
    assert hands[0][1] == "F-G28" and referee.state.set_aside == []
    assert hands[1] == ["F-G04", "F-G05"] and all(e.accepted for e in referee.events)
    assert any("F-G28 lies in p1's hand: the stand-in is" in note for note in interp.notes)


def test_an_unknown_card_that_looks_like_another_unknown_cards_guess_takes_it_from_that_card() -> None:
    """p1's second card is unknown and looks like nothing known: it gets a guess. p2's second card, unknown too,
    looks like that very card: it is taken as that card, and p1's card gets another guess."""
    referee = Referee(GameConfig("fuse", 2), ManualClock())
    interp = Interpreter(referee)
    _run(interp, DEAL_WITH_AN_UNKNOWN_CARD[:3], 8.0)
    guess = referee.state.players[0].cards[1].id
    later = Change("card+", 54, 9.0, "?2", where=(420.0, 100.0), type="bomb", size=80.0, likely=guess)
    _run_from(interp, [later], 8.2, 14.0)
    hands = [[c.id for c in area.cards] for area in referee.state.players]
    assert hands[1] == ["F-G28", guess] and hands[0][0] == "F-G21" and hands[0][1] not in (guess, "F-G28")
    assert all(e.accepted for e in referee.events if not e.undone)
    assert any(f"?2 at 9.00 s looks like {guess}" in note for note in interp.notes)


def test_a_card_set_aside_away_from_the_hand_leaves_the_stand_in_as_it_is() -> None:
    """The same deal, but F-G28 put down far from p1's unknown card: the dealer set it aside, so the stand-in that
    broke the hand is kept, and the next card is p1's second."""
    referee = Referee(GameConfig("fuse", 2), ManualClock())
    interp = Interpreter(referee)
    deal = [Change("card+", 6, 1.0, "?1", where=(300.0, 600.0), type="bomb", size=80.0),
            Change("card+", 12, 2.0, "F-G28", where=(900.0, 300.0), type="bomb", size=80.0),
            Change("card+", 18, 3.0, "F-G10", where=(420.0, 600.0), type="bomb", size=80.0)]
    _run(interp, deal, 8.0)
    assert referee.state.set_aside == ["F-G28"] and [c.id for c in referee.state.players[0].cards][1] == "F-G10"
    assert not any("lies in p1's hand" in note for note in interp.notes)


def test_a_stand_in_is_corrected_when_a_die_names_the_card_it_stood_in_for() -> None:
    """The card dealt unknown is named later (the dice on it carry its name): the stand-in's deal is corrected,
    and the placement on it is taken."""
    referee = Referee(GameConfig("fuse", 2), ManualClock())
    interp = Interpreter(referee)
    row = [Change("card+", 54 + 6 * i, 9.0 + i, card, where=(100.0 + 120 * i, 350.0), type="bomb", size=80.0)
           for i, card in enumerate(("F-011", "F-015", "F-009", "F-G07", "F-G06"))]
    placed = Change("die+", 120, 20.0, "F-G10", 1, "green4", where=(400.0, 590.0))
    roll = _loose(("green4", "red6", "black1", "yellow2"), 16.0)
    lifted = Change("loose-", 117, 19.5, die="red6", where=(540.0, 400.0))
    _run(interp, DEAL_WITH_AN_UNKNOWN_CARD + row + roll + [placed, lifted], 24.0)
    deals = [e.action for e in referee.events if e.action.startswith("deal") and not e.undone]
    assert deals == ["deal p1 F-G21", "deal p1 F-G10", "deal p2 F-G28", "deal p2 F-G04"]
    assert [(e.action, e.accepted) for e in referee.events][-1] == ("place green4 F-G10:1", True)
    assert referee.violations == []


@pytest.mark.parametrize("resembles", [(), ("F-G12",)], ids=["looked like nothing", "looked like F-G12 alone"])
def test_a_stand_in_named_by_a_die_after_dice_were_placed_on_it_is_corrected_with_those_placements(
        resembles: tuple[str, ...]) -> None:
    """p1's second card, dealt unknown, stands in as F-G12 and takes black4 on chip 1 (F-G12's black4); then
    yellow5 is seen on it named F-G10: the deal and the placement on it are corrected together (black4 on F-G10's
    [green/4]), which the deal corrected alone could not be (the placement would name a card no one holds). An
    unknown card that looked like its stand-in and nothing else keeps it: a name read under a die is the likelier
    misreading (probe10 cd2s1803's spark S-G18, named S-G19 under green5)."""
    referee = Referee(GameConfig("fuse", 2), ManualClock())
    interp = Interpreter(referee)
    deal = [replace(c, resembles=resembles) if c.card == "?1" else c for c in DEAL_WITH_AN_UNKNOWN_CARD]
    row = [Change("card+", 54 + 6 * i, 9.0 + i, card, where=(100.0 + 120 * i, 350.0), type="bomb", size=80.0)
           for i, card in enumerate(("F-011", "F-015", "F-009", "F-G07", "F-G06"))]
    play = [*_loose(("black4", "yellow5", "green1", "red6"), 16.0),
            Change("loose-", 114, 19.0, die="black4", where=(500.0, 400.0)),
            Change("die+", 120, 20.0, "?1", 1, "black4", where=(400.0, 590.0)),
            Change("loose-", 129, 21.5, die="yellow5", where=(540.0, 400.0)),
            Change("die+", 135, 22.5, "F-G10", 2, "yellow5", where=(420.0, 590.0))]
    _run(interp, deal + row + play, 28.0)
    reports = [(e.action, e.accepted) for e in referee.events if not e.undone]
    if resembles:
        assert ("deal p1 F-G12", True) in reports and ("place black4 F-G12:1", True) in reports, reports
        return
    assert ("deal p1 F-G10", True) in reports
    assert reports[-2:] == [("place black4 F-G10:1", True), ("place yellow5 F-G10:2", True)], reports


@pytest.mark.parametrize("named_at", [6.0, 2.5], ids=["after its stand-in", "before its stand-in"])
def test_a_stand_in_is_corrected_when_the_card_it_stood_in_for_is_named_where_it_lies(named_at: float) -> None:
    """The card dealt unknown is named later where it lies (the tracker's ``card=``: no die on it, not moved): the
    stand-in's deal is corrected. Named while the unknown card still waits for its stand-in, the name waits for
    it (probe4 cd2s1203's spark S-G24, named two seconds after it turned up)."""
    referee = Referee(GameConfig("fuse", 2), ManualClock())
    interp = Interpreter(referee)
    named = Change("card=", int(named_at * 6), named_at, "F-G10", where=(420.0, 600.0), type="bomb", size=80.0)
    _run(interp, sorted([*DEAL_WITH_AN_UNKNOWN_CARD, named], key=lambda c: c.elapsed), 10.0)
    deals = [e.action for e in referee.events if e.action.startswith("deal") and not e.undone]
    assert deals == ["deal p1 F-G21", "deal p1 F-G10", "deal p2 F-G28", "deal p2 F-G04"]
    assert all(e.accepted for e in referee.events if not e.undone)


def test_a_placement_the_rules_refuse_on_a_card_named_only_now_is_asked_about_not_flagged() -> None:
    """The card dealt unknown is named later, by a die on it that its chip refuses: the card may be misnamed
    (a look-alike named for it), so the placement is a question, not a violation."""
    referee = Referee(GameConfig("fuse", 2), ManualClock())
    interp = Interpreter(referee)
    row = [Change("card+", 54 + 6 * i, 9.0 + i, card, where=(100.0 + 120 * i, 350.0), type="bomb", size=80.0)
           for i, card in enumerate(("F-011", "F-015", "F-009", "F-G07", "F-G06"))]
    placed = Change("die+", 120, 20.0, "F-G10", 1, "red6", where=(400.0, 590.0))  # chip 1 takes green or 4
    roll = _loose(("green4", "red6", "black1", "yellow2"), 16.0)
    lifted = Change("loose-", 117, 19.5, die="red6", where=(540.0, 400.0))
    _run(interp, DEAL_WITH_AN_UNKNOWN_CARD + row + roll + [placed, lifted], 24.0)
    assert "deal p1 F-G10" in [e.action for e in referee.events if not e.undone]
    assert referee.violations == []
    assert any("place red6 F-G10:1" in c.question for c in interp.confirms)


def test_an_unknown_card_is_taken_meanwhile_as_the_card_it_looks_most_like() -> None:
    # twins told apart by one small chip: the layout cannot name the card, but the closest known card is a hint
    referee = Referee(GameConfig("fuse", 2), ManualClock())
    interp = Interpreter(referee)
    cards = [Change("card+", 6, 1.0, "F-G21", where=(300.0, 600.0), type="bomb", size=80.0),
             Change("card+", 12, 2.0, "?1", where=(420.0, 600.0), type="bomb", size=80.0, likely="F-G10")]
    _run(interp, cards, 8.0)
    assert [e.action for e in referee.events] == ["deal p1 F-G21", "deal p1 F-G10"]
    assert any("taken as F-G10" in c.question for c in interp.confirms)


def _run_from(interp: Interpreter, timeline: list[Change], start: float, until: float) -> None:
    t = start
    while t <= until:
        frame = int(round(t * 6))
        interp.feed([c for c in timeline if frame - 1 < c.elapsed * 6 <= frame], frame, t)
        t = round(t + 1 / 6, 4)


def test_a_row_card_reported_as_a_stand_in_is_corrected_when_it_is_named_as_it_is_taken() -> None:
    """p1's second card is dealt unknown and taken as F-G07 (the card it looks most like); the fifth row card is
    unknown too. Taken from the row, that card is named on the way: F-G07. The row's report is corrected to it,
    and p1's unknown card stands in as another card."""
    referee = Referee(GameConfig("fuse", 2), ManualClock())
    interp = Interpreter(referee)
    deal = [Change("card+", 6, 1.0, "F-G21", where=(300.0, 600.0), type="bomb", size=80.0),
            Change("card+", 12, 2.0, "?1", where=(420.0, 600.0), type="bomb", size=80.0, likely="F-G07"),
            Change("card+", 18, 3.0, "F-G28", where=(300.0, 100.0), type="bomb", size=80.0),
            Change("card+", 24, 4.0, "F-G04", where=(420.0, 100.0), type="bomb", size=80.0)]
    row = [Change("card+", 54 + 6 * i, 9.0 + i, card, where=(100.0 + 120 * i, 350.0), type="bomb", size=80.0)
           for i, card in enumerate(("F-011", "F-015", "F-009", "F-G06", "?2"))]
    _run(interp, deal + row, 18.0)
    before = [e.action for e in referee.events if not e.undone]
    assert before[1] == "deal p1 F-G07" and before[-1].startswith("reveal ") and before[-1] != "reveal F-G07"
    taken = Change("card>", 120, 20.0, "F-G07", where=(300.0, 100.0), before=(580.0, 350.0), type="bomb", size=80.0)
    _run_from(interp, [taken], 18.2, 24.0)
    after = [e.action for e in referee.events if not e.undone]
    assert after[-1] == "reveal F-G07" and after[0] == before[0] and after[2:-1] == before[2:-1]
    assert after[1].startswith("deal p1 ") and after[1] != "deal p1 F-G07"
    assert all(e.accepted for e in referee.events if not e.undone)


def test_a_card_named_where_an_unknown_card_lay_keeps_that_name_when_it_turns_up_again() -> None:
    """As above; the card taken, F-G07, then turns up where it was put (the tracker lost it under the hand):
    it is the row's card named on its way, not a second F-G07, so the row's report keeps its name."""
    referee = Referee(GameConfig("fuse", 2), ManualClock())
    interp = Interpreter(referee)
    deal = [Change("card+", 6 * i + 6, i + 1.0, card, where=(300.0 + 120 * (i % 2), 600.0 - 500 * (i // 2)),
                   type="bomb", size=80.0) for i, card in enumerate(("F-G21", "F-G10", "F-G28", "F-G04"))]
    row = [Change("card+", 54 + 6 * i, 9.0 + i, card, where=(100.0 + 120 * i, 350.0), type="bomb", size=80.0,
                  likely="F-G05" if card == "?2" else "")
           for i, card in enumerate(("F-011", "F-015", "F-009", "F-G06", "?2"))]
    _run(interp, deal + row, 18.0)
    assert [e.action for e in referee.events if not e.undone][-1] == "reveal F-G05"
    taken = Change("card>", 120, 20.0, "F-G07", where=(300.0, 100.0), before=(580.0, 350.0), type="bomb", size=80.0)
    again = Change("card+", 150, 25.0, "F-G07", where=(310.0, 105.0), type="bomb", size=80.0)
    _run_from(interp, [taken, again], 18.2, 32.0)
    assert [e.action for e in referee.events if not e.undone][-1] == "reveal F-G07"
    assert not any("F-G07 turned up" in note for note in interp.notes)


@pytest.mark.parametrize("hidden", [True, False])
def test_an_unknown_card_turning_up_where_a_named_card_lies_or_just_lay_is_that_card(hidden: bool) -> None:
    """F-G21 is dealt, then seen unnamed where it lies: hidden a moment as the next card is dealt beside it, or
    as a second box on it while it shows. That is F-G21, not a second card dealt (no stand-in), and what happens
    to the unknown card later is F-G21's."""
    referee = Referee(GameConfig("fuse", 2), ManualClock())
    interp = Interpreter(referee)
    deal = [Change("card+", 6, 1.0, "F-G21", where=(300.0, 600.0), type="bomb", size=80.0),
            *([Change("card-", 12, 2.0, "F-G21", where=(300.0, 600.0), type="bomb", size=80.0)] if hidden else []),
            Change("card+", 13, 2.17, "?1", where=(306.0, 592.0), type="bomb", size=80.0),
            Change("card+", 18, 3.0, "F-G10", where=(420.0, 600.0), type="bomb", size=80.0)]
    _run(interp, deal, 12.0)
    assert [e.action for e in referee.events] == ["deal p1 F-G21", "deal p1 F-G10"]
    assert any("F-G21, back where it lay" in n for n in interp.notes)
    assert interp.remember([Change("card-", 80, 13.0, "?1", where=(306.0, 592.0))])[0].card == "F-G21"


def test_an_unknown_role_card_gets_a_stand_in_so_the_game_goes_on() -> None:
    referee, interp = _dealt(GameConfig("countdown", 2), ("deal p1 C-G06", "deal p1 C-G03", "deal p2 C-G34",
                             "deal p2 C-G42", "deal p2 C-G16", "reveal C-G44", "reveal C-G20", "reveal C-G02",
                             "reveal C-G28", "reveal C-G12"))
    roles = [Change("card+", 6, 1.0, "R-1", where=(300.0, 650.0), type="role", size=80.0),
             Change("card+", 12, 2.0, "?1", where=(300.0, 80.0), type="role", size=80.0)]
    _run(interp, roles, 12.0)
    dealt = [e.action for e in referee.events if e.action.startswith("role")]
    assert dealt[0] == "role p1 R-1" and dealt[1].startswith("role p2 R-") and dealt[1] != "role p2 R-1"
    assert referee.state.phase != "role"  # play can go on
    assert any("unknown role card" in c.question and "taken as" in c.question for c in interp.confirms)


@pytest.mark.parametrize("looks_like", [(), ("R-2", "R-1")], ids=["stand-in R-7", "stand-in R-2, who names"])
def test_one_die_more_rolled_than_the_stand_in_role_allows_makes_the_leader_the_logistics_specialist(
        looks_like: tuple[str, ...]) -> None:
    """The leader's role card is unknown (a stand-in); five dice land where two players roll four: only the
    Logistics Specialist rolls one extra die, so the stand-in becomes R-3 and the roll is all five dice. Also when
    the stand-in is a role that names a number before the roll (probe7 cd3s1506): no "ready" is inferred for it
    first (it would keep the stand-in)."""
    referee, interp = _dealt(GameConfig("countdown", 2), ("deal p1 C-G06", "deal p1 C-G03", "deal p2 C-G34",
                             "deal p2 C-G42", "deal p2 C-G16", "reveal C-G44", "reveal C-G20", "reveal C-G02",
                             "reveal C-G28", "reveal C-G12"))
    roles = [Change("card+", 6, 1.0, "?1", where=(300.0, 650.0), type="role", size=80.0, resembles=looks_like),
             Change("card+", 12, 2.0, "R-4", where=(300.0, 80.0), type="role", size=80.0)]
    _run(interp, roles + _loose(("black5", "red6", "black2", "green1", "yellow3"), 14.0), 20.0)
    actions = [e.action for e in referee.events if not e.undone]
    assert "role p1 R-3" in actions and "roll black5 red6 black2 green1 yellow3" in actions, actions
    assert "ready" not in actions



@pytest.mark.parametrize("carried", [True, False], ids=["row card seen moving", "row card seen leaving"])
def test_a_card_defused_as_its_last_die_went_down_unseen_is_completed_by_the_die_lifted_from_the_roll(
        carried: bool) -> None:
    """The bundled sample at 76 s: p1 puts the green1 lifted from the roll area on F-G07:3 and defuses the card at
    once; the hand hides the die until the card is gone. The card's leaving is committed late (a hand over it
    suspends judgement), after the row card taken with it and the fuse card turned up in its place. The row card
    is seen moving to p1's cards, or (hidden in the hand on the way) leaving the row and turning up there."""
    import json
    from pathlib import Path

    truth = json.loads((Path(__file__).resolve().parents[2] / "datasets" / "sample" / "truth.json").read_text())
    referee = Referee(GameConfig("fuse", 2), ManualClock())
    for t, action in [(t, a) for t, a in truth["log"] if t < 76.0]:
        referee.clock.seconds = t  # type: ignore[attr-defined]
        referee.submit(action)
    interp, gone, before = Interpreter(referee), (700.0, 600.0), len(referee.events)
    taken = [(79.7, Change("card>", 475, 79.2, "F-008", where=(650.0, 650.0), before=(300.0, 100.0), type="bomb",
                           size=80.0))]
    if not carried:
        taken = [(79.7, Change("card-", 475, 78.9, "F-008", where=(300.0, 100.0), type="bomb")),
                 (80.7, Change("card+", 484, 80.2, "F-008", where=(650.0, 650.0), type="bomb", size=80.0))]
    commits = [(76.5, Change("loose-", 458, 76.3, die="green1", where=(500.0, 400.0))), *taken,
               (80.5, Change("card+", 480, 80.0, "FF-08", where=(300.0, 100.0), type="fuse", size=80.0))]
    commits += [(82.7, Change("die-", 496, 78.3, "F-G07", k, d, where=gone)) for k, d in ((1, "black3"), (2, "green2"))]
    commits.append((82.7, Change("card-", 496, 78.3, "F-G07", where=gone, type="bomb")))
    t = 76.0
    while t <= 95.0:
        frame = int(round(t * 6))
        interp.feed([c for at, c in commits if frame - 1 < at * 6 <= frame], frame, t)
        t = round(t + 1 / 6, 4)
    assert [e.action for e in referee.events if not e.undone][-3:] == [
        "place green1 F-G07:3", "defuse F-G07 take F-008", "reveal FF-08"]
    assert all(e.accepted for e in referee.events[before:]) and interp.confirms == []


def test_a_die_settling_while_sparks_are_owed_takes_back_the_done_and_the_spark_drawn_is_judged_again() -> None:
    """Countdown, two players: one spark per die not taken. yellow1 went onto C-G50:2 unseen, so two sparks seemed
    owed and p1's was drawn; then yellow1 is seen there. The ``done`` and the spark are taken back, the placement
    taken, and the spark card drawn is judged again: one spark owed now, p1's."""
    setup = ("deal p1 C-G40", "deal p1 C-G17", "deal p2 C-G50", "deal p2 C-G24", "reveal C-G52", "reveal C-G36",
             "reveal C-G32", "reveal C-G16", "reveal C-G11", "role p1 R-1", "role p2 R-4", "ready",
             "roll yellow1 blue5 yellow2 black1", "place yellow2 C-G50:1", "place blue5 C-G40:1", "done",
             "spark p1 S-G05")
    referee, interp = _dealt(GameConfig("countdown", 2), setup)
    assert referee.state.tasks[0] == ("spark", 1)
    _run_from(interp, [Change("die+", 120, 20.0, "C-G50", 2, "yellow1", where=(400.0, 600.0))], 20.0, 30.0)
    actions = [e.action for e in referee.events if not e.undone and e.accepted][len(setup) - 2:]
    assert actions == ["place yellow1 C-G50:2", "done", "spark p1 S-G05"], actions
    assert referee.violations == []


C_G13_SPARK_DRAWN = ("deal p1 C-G40", "deal p1 C-G17", "deal p2 C-G13", "deal p2 C-G24", "reveal C-G52",
                     "reveal C-G36", "reveal C-G32", "reveal C-G16", "reveal C-G11", "role p1 R-1", "role p2 R-4",
                     "ready", "roll yellow1 blue5 yellow4 black2", "place yellow4 C-G13:1", "place blue5 C-G40:1",
                     "done", "spark p1 S-G05")
"""Countdown, two players: p2's C-G13 ([#] + [#] = 5) holds yellow4 on chip 1; two dice were not taken, p1's spark
is drawn and p2's owed."""


def test_a_card_leaving_one_die_short_after_the_distribution_seemed_over_takes_back_the_done() -> None:
    """Countdown, two players: yellow1 went onto C-G13:2 ([#] + [#] = 5, yellow4 on chip 1) unseen, so sparks
    seemed owed and p1's was drawn; then C-G13 leaves the table, a row card taken to its place: the ``done`` is
    taken back, yellow1 (of the roll's dice left, the one that completes the card) placed when a yellow die was last
    picked up from the roll area, and the card defused."""
    referee, interp = _dealt(GameConfig("countdown", 2), C_G13_SPARK_DRAWN)
    _run_from(interp, [
        Change("card+", 6, 1.0, "C-G13", where=(400.0, 600.0), type="bomb", size=80.0),
        Change("card+", 6, 1.0, "C-G52", where=(300.0, 350.0), type="bomb", size=80.0),
        Change("die+", 60, 10.0, "C-G13", 1, "yellow4", where=(390.0, 600.0)),
        Change("loose-", 96, 16.0, die="yellow1", where=(500.0, 400.0)),
        Change("die-", 120, 20.0, "C-G13", 1, "yellow4", where=(400.0, 600.0)),
        Change("card-", 120, 20.0, "C-G13", where=(400.0, 600.0), type="bomb"),
        Change("card>", 126, 21.0, "C-G52", where=(400.0, 600.0), before=(300.0, 350.0), type="bomb", size=80.0),
    ], 0.0, 30.0)
    events = [e for e in referee.events if not e.undone and e.accepted][len(C_G13_SPARK_DRAWN) - 4:]
    assert [e.action for e in events] == ["place yellow4 C-G13:1", "place blue5 C-G40:1", "place yellow1 C-G13:2",
                                          "defuse C-G13 take C-G52"], events
    assert events[2].elapsed == 16.0 - interp.settings.clock_start  # put down once picked up from the roll area
    assert referee.violations == []



def test_a_die_of_the_roll_read_again_where_it_lies_is_no_die_lifted_when_a_card_leaves_one_die_short() -> None:
    """Countdown, two players (probe13 cd2s2103 at 86 s): p2's spark is drawn unseen, so the game takes the next
    roll only once it gives the spark up. Meanwhile black1 is read again where it lies (black4). Then C-G13 ([#] +
    [#] = 5) leaves with yellow4 on chip 1 as the green1 lifted from the roll area is seen nowhere: black1 would
    complete it too, but it was never lifted, so green1 is placed and the card defused."""
    referee, interp = _dealt(GameConfig("countdown", 2), C_G13_SPARK_DRAWN)
    assert referee.state.tasks[0] == ("spark", 1)
    black = (620.0, 400.0)
    _run_from(interp, [
        Change("card+", 0, 0.0, "C-G13", where=(400.0, 600.0), type="bomb", size=80.0),
        Change("card+", 0, 0.0, "C-G40", where=(300.0, 650.0), type="bomb", size=80.0),
        Change("card+", 0, 0.0, "C-G52", where=(300.0, 350.0), type="bomb", size=80.0),
        Change("die+", 6, 1.0, "C-G40", 1, "blue5", where=(290.0, 650.0)),
        Change("die+", 6, 1.0, "C-G13", 1, "yellow4", where=(390.0, 600.0)),
        *_loose(("green1", "red3", "blue6", "black1"), 2.0),
        Change("loose-", 18, 3.0, die="black1", where=black, turned=True),
        Change("loose+", 18, 3.0, die="black4", where=black, turned=True),
        Change("loose-", 30, 5.0, die="red3", where=(540.0, 400.0)),
        Change("die+", 33, 5.5, "C-G40", 2, "red3", where=(310.0, 650.0)),
        Change("loose-", 39, 6.5, die="green1", where=(500.0, 400.0)),
        Change("die-", 48, 8.0, "C-G13", 1, "yellow4", where=(400.0, 600.0)),
        Change("card-", 48, 8.0, "C-G13", where=(400.0, 600.0), type="bomb"),
        Change("card>", 54, 9.0, "C-G52", where=(400.0, 600.0), before=(300.0, 350.0), type="bomb", size=80.0),
    ], 0.0, 20.0)
    actions = [e.action for e in referee.events if not e.undone and e.accepted][len(C_G13_SPARK_DRAWN):]
    assert "place green1 C-G13:2" in actions and "defuse C-G13 take C-G52" in actions, actions
    assert referee.violations == []

CD3S206 = ("deal p1 C-G01", "deal p1 C-G07", "deal p2 C-G22", "deal p2 C-G51", "deal p3 C-G17", "deal p3 C-G11",
           "reveal C-G20", "reveal C-G23", "reveal C-G12", "reveal C-G18", "reveal C-G25", "role p1 R-3",
           "role p2 R-7", "role p3 R-5", "roll black/yellow4 blue/red1 green6 yellow6", "place yellow6 C-G01:1",
           "place blue/red1 C-G11:2", "place green6 C-G01:2", "place black/yellow4 C-G22:1",
           "roll black1 black5 black1", "ready", "place black1 C-G11:1", "place black5 C-G22:2",
           "place black1 C-G01:3", "done", "defuse C-G01 take C-G20", "reveal C-G16", "spark p3 S-G24",
           "roll red1 blue1 red3", "ready", "place blue1 C-G07:2", "place red1 C-G22:3")
"""Countdown, three players (fresh cd3s206 to 40 s; black1 on C-G11:1 is a violation): red3 is left to place."""


def test_a_card_leaving_one_die_short_after_cards_were_defused_corrects_the_done_to_its_last_die() -> None:
    """Countdown, three players (fresh cd3s206 at 48 s): red6 went onto C-G22:4 unseen, the roll's last die, so a
    ``done`` was inferred and a spark seemed owed; C-G07, complete, is defused and C-G03 turned up in its place.
    Then C-G22 leaves, C-G03 taken to its place: the ``done`` was red6 put down, and C-G22 is defused."""
    setup = (*CD3S206, "place red3 C-G11:1", "roll red6 red3 black3 green/red6", "place black3 C-G07:1",
             "place green/red6 S-G24:1", "place red3 C-G07:3", "done", "defuse C-G07 take C-G16", "reveal C-G03")
    referee, interp = _dealt(GameConfig("countdown", 3), setup)
    assert referee.state.tasks[0] == ("spark", 1)
    chips = ((1, "black/yellow4"), (2, "black5"), (3, "red1"))
    _run_from(interp, [
        Change("card+", 6, 1.0, "C-G22", where=(400.0, 600.0), type="bomb", size=80.0),
        Change("card+", 6, 1.0, "C-G03", where=(300.0, 350.0), type="bomb", size=80.0),
        *[Change("die+", 60, 10.0, "C-G22", k, d, where=(380.0 + 20 * k, 600.0)) for k, d in chips],
        *[Change("die-", 120, 20.0, "C-G22", k, d, where=(380.0 + 20 * k, 600.0)) for k, d in chips],
        Change("card-", 120, 20.0, "C-G22", where=(400.0, 600.0), type="bomb"),
        Change("card>", 126, 21.0, "C-G03", where=(400.0, 600.0), before=(300.0, 350.0), type="bomb", size=80.0),
    ], 0.0, 30.0)
    actions = [e.action for e in referee.events if not e.undone][len(setup) - 4:]
    assert actions == ["place red3 C-G07:3", "place red6 C-G22:4", "defuse C-G07 take C-G16", "reveal C-G03",
                       "defuse C-G22 take C-G03"], actions
    assert referee.violations == [e for e in referee.events if e.action == "place black1 C-G11:1"]


@pytest.mark.parametrize("read_again", [False, True])
def test_the_done_corrected_to_the_last_die_is_dated_when_that_die_was_lifted_from_the_roll(read_again: bool) -> None:
    """The same game with its times: the roll at 2 s, the ``done`` inferred at 11 s, and red6 seen lifted from the
    roll area at 6 s. Corrected to red6's placement, the ``done`` goes into the log at 6 s, before red3's. A red die
    read again where it lies at 9 s was not lifted (unseen5 p4s1005's green4, dated by green6 read again)."""
    clock = ManualClock()
    referee = Referee(GameConfig("countdown", 3), clock)
    for action in (*CD3S206, "place red3 C-G11:1"):
        referee.submit(action)
    for clock.seconds, action in ((2.0, "roll red6 red3 black3 green/red6"), (4.0, "place black3 C-G07:1"),
                                  (5.0, "place green/red6 S-G24:1"), (8.0, "place red3 C-G07:3"), (11.0, "done"),
                                  (12.0, "defuse C-G07 take C-G16"), (13.0, "reveal C-G03")):
        referee.submit(action)
    interp = Interpreter(referee)
    chips = ((1, "black/yellow4"), (2, "black5"), (3, "red1"))
    again = [Change("loose-", 54, 9.0, die="red1", where=(700.0, 400.0), turned=True),
             Change("loose+", 54, 9.2, die="red4", where=(700.0, 400.0), turned=True)] if read_again else []
    _run_from(interp, [
        Change("loose-", 36, 6.0, die="red6", where=(600.0, 400.0)), *again,
        Change("card+", 6, 1.0, "C-G22", where=(400.0, 600.0), type="bomb", size=80.0),
        Change("card+", 6, 1.0, "C-G03", where=(300.0, 350.0), type="bomb", size=80.0),
        *[Change("die+", 60, 10.0, "C-G22", k, d, where=(380.0 + 20 * k, 600.0)) for k, d in chips],
        *[Change("die-", 120, 20.0, "C-G22", k, d, where=(380.0 + 20 * k, 600.0)) for k, d in chips],
        Change("card-", 120, 20.0, "C-G22", where=(400.0, 600.0), type="bomb"),
        Change("card>", 126, 21.0, "C-G03", where=(400.0, 600.0), before=(300.0, 350.0), type="bomb", size=80.0),
    ], 0.0, 30.0)
    events = [(e.elapsed, e.action) for e in referee.events if not e.undone][-6:]
    assert events == [(5.0, "place green/red6 S-G24:1"), (6.0, "place red6 C-G22:4"), (8.0, "place red3 C-G07:3"),
                      (12.0, "defuse C-G07 take C-G16"), (13.0, "reveal C-G03"), (21.0, "defuse C-G22 take C-G03")]
    assert all(e.accepted for e in referee.events if not e.undone and e.action != "place black1 C-G11:1")


def test_a_die_seen_on_a_chip_before_the_roll_held_it_is_placed_there_when_a_completed_card_leaves() -> None:
    """Countdown, three players (unseen3 cd3s706 at 88 s): red6 is read faintly on C-G22:4 before the roll holds
    one (refused), and is put there after the next roll lands, which the table cannot show. When C-G07, complete,
    leaves, the red6 the table shows is placed: no ``done`` (no die was left unused, no spark is owed)."""
    referee, interp = _dealt(GameConfig("countdown", 3), CD3S206)
    _run_from(interp, [
        Change("die+", 6, 1.0, "C-G22", 4, "red6", confidence=0.3), Change("die+", 12, 2.0, "C-G11", 1, "red3"),
        *_loose(("red6", "red3", "black3", "green/red6"), 4.0),
        Change("die+", 42, 7.0, "C-G07", 1, "black3"), Change("die+", 48, 8.0, "S-G24", 1, "green/red6"),
        Change("die+", 54, 9.0, "C-G07", 3, "red3"),
        Change("card-", 72, 12.0, "C-G07", where=(400.0, 600.0), type="bomb"),
        Change("card>", 78, 13.0, "C-G16", where=(400.0, 600.0), before=(300.0, 350.0), type="bomb", size=80.0),
    ], 0.0, 30.0)
    actions = [e.action for e in referee.events if not e.undone][len(CD3S206):]
    assert actions[-3:] == ["place red3 C-G07:3", "place red6 C-G22:4", "defuse C-G07 take C-G16"], actions
    assert "done" not in actions


def test_a_die_lifted_and_seen_nowhere_is_placed_out_of_sight_when_a_completed_card_leaves() -> None:
    """The same roll, but red6 is never seen on a chip: lifted from the roll area at 8 s, it is seen nowhere
    since. When C-G07, complete, leaves, red6 was placed out of sight (on C-G22:4, the one chip that takes it),
    dated when it was lifted, not when red3 was: no ``done`` and no unused red6 (probe11 h3s1902's blue5 on
    F-008; fresh cd3s206's blue6, lifted before blue1)."""
    referee, interp = _dealt(GameConfig("countdown", 3), CD3S206)
    _run_from(interp, [
        Change("die+", 12, 2.0, "C-G11", 1, "red3"),
        *_loose(("red6", "red3", "black3", "green/red6"), 4.0),
        Change("die+", 42, 7.0, "C-G07", 1, "black3"), Change("die+", 48, 8.0, "S-G24", 1, "green/red6"),
        Change("loose-", 48, 8.0, die="red6", where=(500.0, 400.0)),
        Change("loose-", 51, 8.5, die="red3", where=(540.0, 400.0)),
        Change("die+", 54, 9.0, "C-G07", 3, "red3"),
        Change("card-", 72, 12.0, "C-G07", where=(400.0, 600.0), type="bomb"),
        Change("card>", 78, 13.0, "C-G16", where=(400.0, 600.0), before=(300.0, 350.0), type="bomb", size=80.0),
    ], 0.0, 30.0)
    events = [(e.elapsed, e.action) for e in referee.events if not e.undone][len(CD3S206):]
    assert events[-3:] == [(8.0, "place red6 C-G22:4"), (9.0, "place red3 C-G07:3"),
                           (13.0, "defuse C-G07 take C-G16")], events
    assert not any(action in ("done", "unused red6") for _, action in events)


def test_a_die_lifted_and_seen_nowhere_is_placed_out_of_sight_when_a_spark_is_drawn() -> None:
    """The same roll and lift, but a spark card turns up instead, the distribution seen over that way: red6 was
    placed out of sight too, not left unused (unseen4 cd3s806's green3 on C-G30)."""
    referee, interp = _dealt(GameConfig("countdown", 3), CD3S206)
    _run_from(interp, [
        Change("die+", 12, 2.0, "C-G11", 1, "red3"),
        *_loose(("red6", "red3", "black3", "green/red6"), 4.0),
        Change("die+", 42, 7.0, "C-G07", 1, "black3"), Change("die+", 48, 8.0, "S-G24", 1, "green/red6"),
        Change("loose-", 48, 8.0, die="red6", where=(500.0, 400.0)),
        Change("die+", 54, 9.0, "C-G07", 3, "red3"),
        Change("card+", 72, 12.0, "S-G04", where=(700.0, 100.0), type="spark", size=60.0),
    ], 0.0, 30.0)
    events = [(e.elapsed, e.action) for e in referee.events if not e.undone][len(CD3S206):]
    assert (8.0, "place red6 C-G22:4") in events and not any(a in ("done", "unused red6") for _, a in events)


def test_a_chip_printed_with_two_dice_of_a_face_read_as_the_split_die_joining_them_is_the_print() -> None:
    """C-G15's chip 1 is printed ``[yellow5/black5]``; read as black/yellow5, a split die no die of the roll is
    like, it is the print, not the roll's red5 misread (unseen5 cd2s1003: the roll was corrected twice by it)."""
    setup = ("deal p1 C-G15", *CD3S206[1:14])
    referee, interp = _dealt(GameConfig("countdown", 3), setup)
    _run(interp, [*_loose(("red5", "red3", "black3", "green/red6"), 2.0),
                  Change("die+", 36, 6.0, "C-G15", 1, "black/yellow5", confidence=0.3)], 12.0)
    assert [e.action for e in referee.events if not e.undone][len(setup):] == ["roll red5 red3 black3 green/red6"]
    assert any("the card's print" in note for note in interp.notes) and interp.confirms == []


def test_a_ready_inferred_goes_before_a_die_put_down_earlier_and_seen_later() -> None:
    """Countdown (one-minute s4s615 at 22 s): the leader's ``ready`` has no sign; it is inferred when blue1 settles
    on C-G07:2, and dated by the first die lifted from the roll area, red1, which is seen on C-G22:3 only later,
    dated when it was put down, before blue1. Both placements follow the ``ready`` in the order they were made."""
    setup = CD3S206[:CD3S206.index("roll red1 blue1 red3")]
    referee, interp = _dealt(GameConfig("countdown", 3), setup)
    commits = [(2.0, c) for c in _loose(("red1", "blue1", "red3"), 2.0)]
    commits += [(4.0, Change("loose-", 24, 4.0, die="red1", where=(500.0, 400.0))),
                (5.0, Change("loose-", 30, 5.0, die="blue1", where=(540.0, 400.0))),
                (6.5, Change("die+", 36, 6.0, "C-G07", 2, "blue1", where=(420.0, 600.0))),
                (9.0, Change("die+", 54, 4.5, "C-G22", 3, "red1", where=(380.0, 200.0)))]
    t = 0.0
    while t <= 20.0:
        frame = int(round(t * 6))
        interp.feed([c for at, c in commits if frame - 1 < at * 6 <= frame], frame, t)
        t = round(t + 1 / 6, 4)
    assert [e.action for e in referee.events if not e.undone][len(setup):] == [
        "roll red1 blue1 red3", "ready", "place red1 C-G22:3", "place blue1 C-G07:2"]


@pytest.mark.parametrize("named_at", [3.17, 3.83])
def test_an_unknown_card_gone_as_a_new_card_turns_up_elsewhere_was_that_card_moved(named_at: float) -> None:
    """The row's first card turns up unrecognised at 1 s and is gone at 3 s (the tracker says so 1.2 s later), as
    F-011 turns up elsewhere (probe11 h3s1902's fuse card, drawn unrecognised and named in its place): F-011 was
    revealed at 1 s. A card turning up 0.8 s after is another card: revealed when it turned up."""
    referee, interp = _dealt(setup=("deal p1 F-G21", "deal p1 F-G10", "deal p2 F-G28", "deal p2 F-G04"))
    _run(interp, [_bomb("?1", 1.0, 700.0, 500.0), _bomb("F-011", named_at, 250.0, 350.0)], 4.0)
    interp.feed([Change("card-", 18, 3.0, "?1", where=(700.0, 500.0), type="bomb")], 25, 4.17)
    _run_from(interp, [], 4.33, 12.0)
    reveal = referee.events[-1]
    assert (reveal.action, reveal.elapsed) == ("reveal F-011", 1.0 if named_at - 3.0 <= 0.5 else named_at)


def test_a_card_seen_unrecognised_like_it_alone_then_named_elsewhere_turned_up_when_first_seen() -> None:
    """A row card is turned up where the layout cannot name it, though it looks like one card alone (C-G30), and
    is named 3 s later where it is laid: it was revealed when first seen."""
    setup = ("deal p1 C-G40", "deal p1 C-G17", "deal p2 C-G13", "deal p2 C-G24", "reveal C-G52", "reveal C-G36",
             "reveal C-G32", "reveal C-G16", "reveal C-G11", "role p1 R-1", "role p2 R-4", "ready",
             "roll yellow1 blue5 yellow4 black2", "place yellow4 C-G13:1", "place yellow1 C-G13:2",
             "defuse C-G13 take C-G52")
    referee, interp = _dealt(GameConfig("countdown", 2), setup)
    _run_from(interp, [
        Change("card+", 72, 12.0, "?5", where=(200.0, 300.0), type="bomb", size=80.0, resembles=("C-G30",)),
        Change("card+", 90, 15.0, "C-G30", where=(400.0, 350.0), type="bomb", size=80.0),
        Change("card-", 92, 15.3, "?5", where=(200.0, 300.0), type="bomb")], 10.0, 25.0)
    assert [(e.elapsed, e.action) for e in referee.events][-1] == (12.0, "reveal C-G30")
    assert interp.confirms == []


SPARKS_OWED = ("deal p1 C-G40", "deal p1 C-G17", "deal p2 C-G50", "deal p2 C-G24", "reveal C-G52", "reveal C-G36",
               "reveal C-G32", "reveal C-G16", "reveal C-G11", "role p1 R-1", "role p2 R-4", "ready",
               "roll yellow1 blue5 yellow2 black1", "place yellow2 C-G50:1", "place blue5 C-G40:1", "done")
"""Countdown, two players, each owing a spark per die not taken: p1 took one, p2 one (yellow1 went onto C-G50:2
unseen), so each owes one and p1 draws first."""


def test_a_deal_named_out_of_order_is_corrected_by_the_row_lying_in_a_line() -> None:
    """p2's cards lie far from the camera, small, and the layout names them after two row cards: taken in turn,
    those two were dealt to p2 and p2's cards revealed. The row's five cards lie in a line only with them swapped
    back, so the deal and the reveals are corrected."""
    referee, interp = _dealt(setup=())
    laid = [("F-G21", (300.0, 600.0), 90.0), ("F-G10", (420.0, 600.0), 90.0),  # p1's, near the camera
            ("F-009", (250.0, 350.0), 65.0), ("F-G07", (380.0, 350.0), 65.0),  # the row's first two ...
            ("F-G28", (300.0, 100.0), 45.0), ("F-G04", (420.0, 100.0), 45.0),  # ... named before p2's
            ("F-011", (510.0, 352.0), 65.0), ("F-015", (640.0, 349.0), 65.0), ("F-G06", (770.0, 351.0), 65.0)]
    timeline = [Change("card+", 3 * i + 3, 0.5 * i + 0.5, card, where=where, type="bomb", size=size)
                for i, (card, where, size) in enumerate(laid)]
    _run(interp, timeline, 8.0)
    state = referee.state
    assert [[c.id for c in area.cards] for area in state.players] == [["F-G21", "F-G10"], ["F-G28", "F-G04"]]
    assert sorted(state.row) == ["F-009", "F-011", "F-015", "F-G06", "F-G07"]
    assert referee.violations == [] and any("line" in n for n in interp.notes)
    assert interp.row_off_line is not None and interp.row_off_line > 1  # as dealt: p2's cards 250 px off


def test_a_row_card_named_after_the_row_was_full_replaces_the_one_lying_off_its_line() -> None:
    """A card lying off to the side is named during the deal and dealt to p2, so p2's second card (F-G04) is revealed
    into the row, and the row's last card (F-015), named when the row is already full, is in the game nowhere. The
    row lies in a line only with that card in it: the reveal is corrected to it."""
    referee, interp = _dealt(setup=())
    laid = [("F-G21", (300.0, 600.0), 90.0), ("F-G10", (420.0, 600.0), 90.0),  # p1's
            ("F-G28", (300.0, 100.0), 45.0), ("F-G02", (1100.0, 620.0), 80.0),  # p2's first, a card aside
            ("F-G04", (420.0, 100.0), 45.0),  # p2's second: revealed
            ("F-009", (250.0, 350.0), 65.0), ("F-G07", (380.0, 350.0), 65.0), ("F-011", (510.0, 352.0), 65.0),
            ("F-015", (640.0, 349.0), 65.0)]
    timeline = [Change("card+", 3 * i + 3, 0.5 * i + 0.5, card, where=where, type="bomb", size=size)
                for i, (card, where, size) in enumerate(laid)]
    timeline.append(Change("card+", 27, 4.48, "F-G06", where=(770.0, 351.0), type="bomb", size=65.0))
    _run(interp, timeline, 8.0)
    assert sorted(referee.state.row) == ["F-009", "F-011", "F-015", "F-G06", "F-G07"]
    assert referee.violations == [] and any("line" in n for n in interp.notes)


def test_an_unknown_spark_card_drawn_gets_a_stand_in_so_the_game_goes_on() -> None:
    referee, interp = _dealt(GameConfig("countdown", 2), SPARKS_OWED)
    assert referee.state.tasks[0] == ("spark", 0)
    drawn = Change("card+", 120, 20.0, "?1", where=(300.0, 650.0), type="spark", size=80.0)
    _run_from(interp, [drawn], 20.0, 30.0)
    assert referee.events[-1].action.startswith("spark p1 S-") and referee.events[-1].accepted
    assert referee.state.tasks[0] == ("spark", 1)
    assert any("unknown spark card" in c.question and "taken as" in c.question for c in interp.confirms)



@pytest.mark.parametrize("second", ["S-G07", "?2"], ids=["named", "unknown"])
def test_a_spark_card_drawn_goes_to_the_owing_player_it_lies_beside(second: str) -> None:
    """Both players owe a spark; they draw in any order. p2 draws first: the card turns up beside p2's cards, so
    it is p2's (the rules' first in turn would be p1); then p1's, beside p1's (named, or unknown: a stand-in)."""
    from vision.interpret import Zones

    referee = Referee(GameConfig("countdown", 2), ManualClock())
    for action in SPARKS_OWED:
        referee.submit(action)
    zones = Zones()
    for player, y in ((0, 600.0), (1, 100.0)):
        for x in (300.0, 420.0):
            zones.learn(player, (x, y))
    interp = Interpreter(referee, zones=zones)
    _run_from(interp, [Change("card+", 120, 20.0, "S-G05", where=(560.0, 110.0), type="spark", size=80.0),
                       Change("card+", 150, 25.0, second, where=(560.0, 610.0), type="spark", size=80.0)], 20.0, 35.0)
    sparks = [e.action.rsplit(" ", 1)[0] + (" S-G05" if "S-G05" in e.action else "") for e in referee.events
              if e.action.startswith("spark ") and not e.undone]
    assert sparks == ["spark p2 S-G05", "spark p1"], sparks
    assert referee.violations == []


def test_an_unknown_spark_card_turning_up_as_the_roll_is_distributed_ends_the_distribution() -> None:
    """Countdown: while the game waits for dice placed (or ``done``), an unknown spark card turns up: the
    distribution was over, and it is the spark owed, taken as the spark card it looks most like meanwhile."""
    referee, interp = _dealt(GameConfig("countdown", 2), SPARKS_OWED[:-1])
    _run_from(interp, [Change("card+", 60, 10.0, "?1", where=(300.0, 100.0), type="spark", size=80.0,
                              resembles=("S-G05", "S-G07"))], 9.0, 20.0)
    assert [e.action for e in referee.events][len(SPARKS_OWED) - 1:] == ["done", "spark p1 S-G05"]
    assert [c.question for c in interp.confirms] == [
        "an unknown spark card turned up at (300, 100): which card is it? (taken as S-G05 meanwhile)"]


def test_sparks_owed_and_never_seen_drawn_are_drawn_unseen_once_the_next_roll_lands() -> None:
    """Each player owes a spark, and the cards drawn are never seen (a hand over them, or named as nothing): when
    the next roll lands, the sparks were drawn unseen. Each gets a stand-in, asked about, and the roll is taken."""
    referee, interp = _dealt(GameConfig("countdown", 2), SPARKS_OWED)
    _run_from(interp, _loose(("green4", "blue2", "red3", "green5"), 5.0), 0.0, 20.0)
    actions = [e.action for e in referee.events[len(SPARKS_OWED):] if not e.undone]
    assert [a.split()[:2] for a in actions[:2]] == [["spark", "p1"], ["spark", "p2"]]
    assert "roll green4 blue2 red3 green5" in actions and referee.violations == []
    assert sum("unseen" in n for n in interp.notes) == 2


def test_a_whole_roll_of_sparks_owed_is_not_taken_as_drawn_unseen() -> None:
    """The game holds that no die of the roll was taken (four sparks owed for four dice): vision more likely missed
    the placements than four cards drawn, so no spark is inferred when the next roll lands."""
    setup = (*SPARKS_OWED[: SPARKS_OWED.index("ready") + 1], "roll yellow1 blue5 yellow2 black1", "done")
    referee, interp = _dealt(GameConfig("countdown", 2), setup)
    assert sum(t[0] == "spark" for t in referee.state.tasks) == 4
    _run_from(interp, _loose(("green4", "blue2", "red3", "green5"), 5.0), 0.0, 20.0)
    assert [e.action for e in referee.events[len(setup):]] == [] and referee.state.tasks[0][0] == "spark"


def test_a_bomb_card_turning_up_while_a_spark_is_owed_is_not_asked_about_as_the_spark() -> None:
    """A bomb card turning up while the game waits for a spark drawn (a row card revealed: the game is out of
    step) is no spark: it waits for the game to want it, and the question says what was seen."""
    referee, interp = _dealt(GameConfig("countdown", 2), SPARKS_OWED)
    before = len(referee.events)
    _run_from(interp, [Change("card+", 120, 20.0, "C-G03", where=(700.0, 150.0), type="bomb", size=80.0)],
              20.0, 30.0)
    assert len(referee.events) == before and referee.state.tasks[0] == ("spark", 0)
    assert [(c.question, c.action) for c in interp.confirms] == [
        ("card C-G03 turned up at 20.00 s, but the game waits for a spark card drawn", "")]


def test_while_the_game_stays_stuck_the_changes_it_cannot_use_are_asked_about_once() -> None:
    """Two bomb cards turn up while the game waits for a spark drawn: one question says so, the second card is
    noted (a stuck game would otherwise ask the same thing of every change until it moves on)."""
    referee, interp = _dealt(GameConfig("countdown", 2), SPARKS_OWED)
    cards = [Change("card+", 120, 20.0, "C-G03", where=(700.0, 150.0), type="bomb", size=80.0),
             Change("card+", 126, 21.0, "C-G05", where=(820.0, 150.0), type="bomb", size=80.0)]
    _run_from(interp, cards, 20.0, 30.0)
    assert [c.question for c in interp.confirms] == [
        "card C-G03 turned up at 20.00 s, but the game waits for a spark card drawn"]
    assert "card C-G05 turned up at 21.00 s: the game waits for a spark card drawn still" in interp.notes


def test_a_card_of_another_catalog_turning_up_while_a_spark_is_owed_is_asked_about() -> None:
    """A FUSE card enrolled and seen on a Countdown table: never reported, only asked about."""
    referee, interp = _dealt(GameConfig("countdown", 2), SPARKS_OWED)
    before = len(referee.events)
    _run_from(interp, [Change("card+", 120, 20.0, "F-G21", where=(700.0, 150.0), type="spark", size=80.0)],
              20.0, 30.0)
    assert all(not e.accepted for e in referee.events[before:]) and referee.state.tasks[0] == ("spark", 0)
    assert any("F-G21" in c.question for c in interp.confirms)


CARDS_SEEN = [Change("card+", 3, 0.5, card, where=where, type="bomb", size=80.0)
              for card, where in (("F-G21", (300.0, 600.0)), ("F-G10", (420.0, 600.0)), ("F-G28", (300.0, 100.0)),
                                  ("F-G04", (420.0, 100.0)))]
PLACED = _loose(("black5", "red6", "black1", "green1"), 2.0) + [
    Change("die+", 30, 5.0, "F-G21", 1, "black1"), Change("die+", 42, 7.0, "F-G04", 1, "red6"),
    Change("die+", 54, 9.0, "F-G04", 2, "black5")]
"""The roll's dice placed but green1 (p1: black1 on F-G21; p2: red6 and black5 on F-G04)."""


def test_dice_glimpsed_off_their_chips_on_a_card_are_no_roll_landing_with_an_unused_die_rolled_again() -> None:
    referee, interp = _dealt()
    timeline = CARDS_SEEN + PLACED + [
        # a hand over F-G04 shows its dice as loose dice lying on it, as the unused green die is rolled again
        Change("loose+", 70, 11.6, die="black5", where=(410.0, 95.0)),
        Change("loose+", 70, 11.7, die="red6", where=(430.0, 105.0)),
        Change("loose-", 68, 11.3, die="green1", where=(620.0, 400.0)),
        Change("loose+", 72, 12.0, die="green3", where=(560.0, 430.0))]
    _run(interp, timeline, 20.0)
    assert _actions(referee)[-2:] == ["done", "unused green3"]


def test_a_die_lifted_and_lying_loose_on_a_card_is_placed_on_that_cards_chip_when_an_unused_die_is_rerolled() -> None:
    """The red1 was lifted from the roll area and is seen lying on F-G10, on no chip the layout knows; before
    anything else tells where it went, the black5 is rolled again (left unused): the red1 was put on F-G10's one
    chip that takes it (chip 3, black/1), not on the first empty chip of any card that would (F-G21:2)."""
    referee, interp = _dealt()
    timeline = CARDS_SEEN + _loose(("black5", "red6", "black1", "red1"), 2.0) + [
        Change("die+", 30, 5.0, "F-G21", 1, "black1"), Change("die+", 42, 7.0, "F-G04", 1, "red6"),
        Change("loose-", 57, 9.5, die="red1", where=(620.0, 400.0)),
        Change("loose+", 60, 10.0, die="red1", where=(425.0, 598.0), on_card=True),
        Change("loose-", 63, 10.5, die="black5", where=(500.0, 400.0)),
        Change("loose+", 66, 11.0, die="black2", where=(560.0, 430.0))]
    _run(interp, timeline, 20.0)
    actions = _actions(referee)
    assert "place red1 F-G10:3" in actions and "unused black2" in actions, actions


def test_a_die_lying_on_an_unknown_card_is_placed_on_its_stand_in() -> None:
    """p1's second card is unknown, dealt as a stand-in (F-G12: [black4] [yellow/blue] [?]); the red1 lifted from
    the roll area is seen lying on it, on no chip the layout knows (it knows none of an unknown card): when the
    black5 is rolled again, the red1 was put on the stand-in's one chip that takes it."""
    referee = Referee(GameConfig("fuse", 2), ManualClock())
    interp = Interpreter(referee)
    _run(interp, DEAL_WITH_AN_UNKNOWN_CARD, 8.0)
    for action in SETUP[4:]:
        referee.submit(action)
    assert referee.events[1].action == "deal p1 F-G12"
    _run_from(interp, _loose(("black5", "red6", "black1", "red1"), 9.0) + [
        Change("die+", 66, 11.0, "F-G21", 1, "black1"), Change("die+", 72, 12.0, "F-G04", 1, "red6"),
        Change("loose-", 81, 13.5, die="red1", where=(620.0, 400.0)),
        Change("loose+", 84, 14.0, die="red1", where=(425.0, 598.0), on_card=True),
        Change("loose-", 93, 15.5, die="black5", where=(500.0, 400.0)),
        Change("loose+", 96, 16.0, die="black2", where=(560.0, 430.0))], 8.0, 24.0)
    assert [e.action for e in referee.events][-3:] == ["place red1 F-G12:3", "done", "unused black2"]


@pytest.mark.parametrize("x", [425.0, 472.0])
def test_a_die_lying_on_a_card_that_holds_another_of_its_colour_is_placed_when_the_roll_holds_its_reading(
        x: float) -> None:
    """F-G10 holds p1's black4; the roll's black1 is seen lying on F-G10, on no chip the layout knows (near its
    centre, or near one end: further from the centre than half its short side, inside its outline as the tracker
    saw it). It is no glimpse of the black4 off its chip (the roll holds a black1, the card a black4): it was put
    on the one chip of F-G10 that takes it."""
    referee, interp = _dealt()
    timeline = CARDS_SEEN + _loose(("black4", "red6", "black1", "green1"), 2.0) + [
        Change("die+", 30, 5.0, "F-G10", 1, "black4"),
        Change("loose-", 57, 9.5, die="black1", where=(580.0, 400.0)),
        Change("loose+", 60, 10.0, die="black1", where=(x, 598.0), on_card=True)]
    _run(interp, timeline, 20.0)
    assert "place black1 F-G10:3" in _actions(referee), _actions(referee)


def _placed(timeline: list[Change], action: str) -> Event:
    """The event of ``action`` once ``timeline`` is fed to an interpreter of the game dealt ``SETUP``."""
    referee, interp = _dealt()
    _run(interp, CARDS_SEEN + timeline, 25.0)
    return next(e for e in referee.events if e.action == action)


@pytest.mark.parametrize("lying_as", ["black4", "black1"], ids=["read alike", "another face read"])
def test_a_die_seen_lying_on_a_card_before_it_is_seen_on_its_chip_was_put_down_when_first_seen_lying(
        lying_as: str) -> None:
    """The roll's second black4 is seen lying on F-G10 (taken at first for the black4 on its chip 1, glimpsed off
    it), and only 1.5 s later on chip 3: it was put down when it was first seen lying there, whichever face was read
    as it lay (probe13 cd2s2103's red4, lying as red1 on C-G50 for 2 s)."""
    placed = _placed(_loose(("black4", "red6", "black4", "green1"), 2.0) + [
        Change("die+", 30, 5.0, "F-G10", 1, "black4"),
        Change("loose-", 57, 9.5, die="black4", where=(580.0, 400.0)),
        Change("loose+", 60, 10.0, die=lying_as, where=(440.0, 600.0)),
        Change("die+", 69, 11.5, "F-G10", 3, "black4", where=(442.0, 601.0))], "place black4 F-G10:3")
    assert placed.accepted and placed.elapsed == 10.0


def test_a_die_seen_surely_lying_on_its_card_long_before_it_is_seen_on_its_chip_was_put_down_then() -> None:
    """probe h3s402 at 59 s: red1 is seen lying on F-G21 (any of its three chips takes it) and only 8 s later on
    chip 2, where it lay all along: it was put down when first seen lying there."""
    placed = _placed(_loose(("red1", "red6", "black4", "green1"), 2.0) + [
        Change("loose-", 57, 9.5, die="red1", where=(500.0, 400.0)),
        Change("loose+", 60, 10.0, die="red1", where=(300.0, 600.0)),
        Change("die+", 108, 18.0, "F-G21", 2, "red1", where=(302.0, 601.0))], "place red1 F-G21:2")
    assert placed.accepted and placed.elapsed == 10.0


def test_what_waits_when_the_recording_ends_is_judged_as_if_its_wait_were_over() -> None:
    """The red1 is seen lying on F-G10, off its chips, a second before the recording ends: at the end it is placed
    on F-G10's one chip that takes it, as it would have been had the recording gone on."""
    referee, interp = _dealt()
    timeline = CARDS_SEEN + _loose(("black5", "red6", "black1", "red1"), 2.0) + [
        Change("die+", 30, 5.0, "F-G21", 1, "black1"),
        Change("loose-", 57, 9.5, die="red1", where=(620.0, 400.0)),
        Change("loose+", 60, 10.0, die="red1", where=(425.0, 598.0), on_card=True)]
    _run(interp, timeline, 11.0)
    interp.finish(66, 11.0)
    assert _actions(referee)[-1] == "place red1 F-G10:3"


def test_a_die_returned_before_the_game_wanted_it_is_the_return_once_it_does() -> None:
    referee, interp = _dealt()
    timeline = CARDS_SEEN + PLACED + [
        # p1 takes the black1 off F-G21 before the unused green die is seen rolled again (it matches the 1)...
        Change("die-", 60, 10.0, "F-G21", 1, "black1"),
        Change("loose-", 90, 15.0, die="green1", where=(620.0, 400.0)),
        Change("loose+", 93, 15.5, die="green1", where=(560.0, 430.0)),
        # ... and play goes on: the next roll lands while the game waits for p1's return
        *_loose(("blue2", "yellow3", "red4", "green5"), 19.0, x=700.0)]
    _run(interp, timeline, 30.0)
    actions = _actions(referee)
    assert actions[actions.index("unused green1") + 1] == "return F-G21:1"
    assert actions[-1] == "roll blue2 yellow3 red4 green5" and referee.violations == []



@pytest.mark.parametrize("ambiguous", [False, True])
def test_a_return_never_seen_is_inferred_when_the_next_roll_lands(ambiguous: bool) -> None:
    """The unused red1 costs p1 a die matching it. p1's black1 was never seen on its chip (nor leaving it), and
    the next roll lands: that die was returned. With a second matching die of p1's that the table does not show
    either (a green1 on F-G10), either may have been: one is taken (a guess, noted) so that the game goes on."""
    referee, interp = _dealt()
    second = ("place green1 F-G10:3", "place blue5 F-G04:1") if ambiguous else (
        "place black6 F-G04:1", "place blue5 F-G04:2")
    roll = "roll black1 red1 green1 blue5" if ambiguous else "roll black1 red1 black6 blue5"
    for action in (roll, "place black1 F-G21:1", *second, "done", "unused red1"):
        referee.submit(action)
    _run(interp, _loose(("blue2", "yellow3", "red4", "green5"), 3.0, x=700.0), 12.0)
    actions = _actions(referee)
    returned = ("return F-G21:1", "return F-G10:3") if ambiguous else ("return F-G21:1",)
    assert actions[-2] in returned and actions[-1] == "roll blue2 yellow3 red4 green5", actions
    assert referee.violations == [] and any("inferred" in n for n in interp.notes)


def test_a_faint_die_lost_under_the_hand_that_lifts_the_return_is_not_the_return() -> None:
    """The unused red1 costs p1 a die matching it, and both its dice match. The hand lifting black1 from F-G21:1
    hides green1, read faintly, beside it a frame before: the surer die lifted is the return, and green1, seen
    again where it lay, still lies there (probe13 s2104's blue3 and black1)."""
    referee, interp = _dealt()
    for action in ("roll black1 red1 green1 blue5", "place black1 F-G21:1", "place green1 F-G21:2",
                   "place blue5 F-G04:1", "done", "unused red1"):
        referee.submit(action)
    _run(interp, [Change("die-", 30, 5.0, "F-G21", 2, "green1", confidence=0.3),
                  Change("die-", 31, 5.17, "F-G21", 1, "black1", confidence=0.8),
                  Change("die+", 48, 8.0, "F-G21", 2, "green1", confidence=0.3)], 12.0)
    assert _actions(referee)[-1] == "return F-G21:1" and referee.violations == []


def test_a_die_lying_on_a_card_off_its_chips_lifted_while_a_return_is_owed_is_that_return() -> None:
    """The unused red1 costs p1 a die matching it, and p1's black1 on F-G21 is seen lying on the card but on no
    chip the layout knows: lifting it is the return of F-G21:1, the one matching die of its colour there."""
    referee, interp = _dealt()
    for action in ("roll black1 red1 black6 blue5", "place black1 F-G21:1", "place black6 F-G04:1",
                   "place blue5 F-G04:2", "done", "unused red1"):
        referee.submit(action)
    _run(interp, CARDS_SEEN + [Change("loose+", 12, 2.0, die="black1", where=(305.0, 596.0), on_card=True),
                               Change("loose-", 30, 5.0, die="black1", where=(305.0, 596.0))], 9.0)
    assert _actions(referee)[-1] == "return F-G21:1" and referee.violations == []


def test_a_die_seen_lying_on_a_card_where_another_later_settles_on_a_chip_that_refuses_it_was_taken_back() -> None:
    """red6 is seen lying on F-G21 (``[1] [1] [1]``) on no chip the game can tell, then back off the cards; black1
    then settles on F-G21:1 just where red6 lay: red6 was put on that chip first, which refuses it, and taken back
    (probe11 cd2s1903's yellow1 on S-G20's ``[6]``)."""
    referee, interp = _dealt()
    _run(interp, CARDS_SEEN + _loose(("black5", "red6", "black1", "green1"), 2.0) + [
        Change("loose-", 15, 2.5, die="red6", where=(540.0, 400.0)),
        Change("loose+", 18, 3.0, die="red6", where=(305.0, 596.0), on_card=True),
        Change("loose-", 24, 4.0, die="red6", where=(305.0, 596.0)),
        Change("loose+", 27, 4.5, die="red6", where=(542.0, 401.0)),
        Change("loose-", 51, 8.5, die="black1", where=(580.0, 400.0)),
        Change("die+", 54, 9.0, "F-G21", 1, "black1", where=(305.0, 598.0))], 12.0)
    events = [(e.elapsed, e.action, e.accepted) for e in referee.events if not e.undone][-2:]
    assert events == [(3.0, "place red6 F-G21:1", False), (9.0, "place black1 F-G21:1", True)], events
    assert [v.action for v in referee.violations] == ["place red6 F-G21:1"]


def test_the_next_roll_landing_while_an_unused_die_waits_to_be_rolled_again_catches_the_game_up() -> None:
    """The green1 was left unused; vision saw neither it rolled again nor p1's black1 (the only die matching it)
    returned. The next roll lands: the game is caught up by the fewest actions that reach the roll and leave its
    dice on chips like the table's, where the black1 is gone."""
    referee, interp = _dealt()
    for action in ("roll black5 red6 black1 green1", "place black1 F-G21:1", "place red6 F-G04:1",
                   "place black5 F-G04:2", "done"):
        referee.submit(action)
    _run(interp, _loose(("blue2", "yellow3", "red4", "green5"), 3.0, x=700.0), 12.0)
    assert _actions(referee)[-4:] == ["done", "unused green1", "return F-G21:1", "roll blue2 yellow3 red4 green5"]
    assert referee.violations == [] and any("inferred" in note for note in interp.notes)


def test_a_die_of_the_next_roll_read_again_where_it_lies_before_the_catch_up_corrects_the_roll() -> None:
    """The same catch-up, but blue2 is read again where it lies, as blue5, before the game has caught up: that is
    the roll's die read again, which corrects the roll, not a loose die apart from it (unseen5 p4s1005's red6)."""
    referee, interp = _dealt()
    for action in ("roll black5 red6 black1 green1", "place black1 F-G21:1", "place red6 F-G04:1",
                   "place black5 F-G04:2", "done"):
        referee.submit(action)
    _run(interp, _loose(("blue2", "yellow3", "red4", "green5"), 3.0, x=700.0) + [
        Change("loose-", 24, 4.0, die="blue2", where=(700.0, 400.0), turned=True),
        Change("loose+", 24, 4.0, die="blue5", where=(700.0, 400.0), confidence=0.8, turned=True)], 12.0)
    assert _actions(referee)[-1] == "roll blue5 yellow3 red4 green5"
    assert not any("apart from the roll" in note for note in interp.notes)


def test_a_die_of_the_next_roll_placed_before_the_game_caught_up_waits_for_the_catch_up() -> None:
    """Vision missed the done (the green1 left unused); the next roll lands, and its blue2 is put on F-G04:3
    before the game has caught up with that roll (a catch-up waits ``wait_s``): the placement waits for the
    roll, rather than being refused as a die the old roll lacks."""
    referee, interp = _dealt()
    for action in ("roll black5 red6 black1 green1", "place black1 F-G21:1", "place red6 F-G04:1",
                   "place black5 F-G04:2"):
        referee.submit(action)
    _run(interp, [*_loose(("blue2", "yellow3", "red4", "green5"), 3.0, x=700.0),
                  Change("loose-", 27, 4.5, die="blue2", where=(700.0, 400.0)),
                  Change("die+", 30, 5.0, "F-G04", 3, "blue2", confidence=0.9)], 14.0)
    assert _actions(referee)[-2:] == ["roll blue2 yellow3 red4 green5", "place blue2 F-G04:3"]
    assert referee.violations == [] and not any(c.action == "place blue2 F-G04:3" for c in interp.confirms)


def test_a_die_glimpsed_once_as_the_next_roll_lands_a_die_short_waits_for_the_catch_up() -> None:
    """The same missed done, but the next roll is seen landing two dice short: its blue2 is glimpsed once (a brief
    reading, in no heap) and put on F-G04:3 before its last die, green5, shows. The placement waits for the roll
    that holds it, rather than being taken for the old roll's (probe11 p4s1905's black6)."""
    referee, interp = _dealt()
    for action in ("roll black5 red6 black1 green1", "place black1 F-G21:1", "place red6 F-G04:1",
                   "place black5 F-G04:2"):
        referee.submit(action)
    _run(interp, [*_loose(("yellow3", "red4"), 3.0, x=700.0),
                  Change("loose+", 21, 3.5, die="blue2", where=(780.0, 400.0), brief=True),
                  Change("loose-", 27, 4.5, die="blue2", where=(780.0, 400.0)),
                  Change("die+", 30, 5.0, "F-G04", 3, "blue2", confidence=0.9),
                  *_loose(("green5",), 6.0, x=820.0)], 16.0)
    assert _actions(referee)[-2:] == ["roll yellow3 red4 blue2 green5", "place blue2 F-G04:3"]
    assert referee.violations == []


def test_what_a_catch_up_takes_is_dated_by_what_the_table_showed() -> None:
    """The same table, but p1's black1 was seen leaving its chip at 10 s (the game, waiting for the unused die
    rolled again, could not use that then): the return inferred when the next roll lands is dated 10 s, and
    the unused die rolled again before it no later."""
    referee, interp = _dealt()
    for action in ("roll black5 red6 black1 green1", "place black1 F-G21:1", "place red6 F-G04:1",
                   "place black5 F-G04:2", "done"):
        referee.submit(action)
    _run(interp, [Change("die-", 60, 10.0, "F-G21", 1, "black1"),
                  *_loose(("blue2", "yellow3", "red4", "green5"), 19.0, x=700.0)], 30.0)
    events = [(e.elapsed, e.action) for e in referee.events if not e.undone][-3:]
    assert events == [(10.0, "unused green1"), (10.0, "return F-G21:1"), (19.0, "roll blue2 yellow3 red4 green5")]


def test_a_catch_up_dates_an_unused_die_by_its_landing_and_a_return_by_its_sighting_the_rules_refused() -> None:
    """Two dice left unused (probe12 h2s2001): red1, rolled again, costs p1 its black1, which vision never sees
    go. The green5 is then seen rolled again and p2's blue5 lifted, but the game, still waiting for p1's return,
    takes neither (the lift is asked about). The next roll lands: the catch-up dates the unused green5 when it
    landed, p2's return when it was seen, p1's no later; and the green5 it explained is no die of the new roll."""
    referee, interp = _dealt()
    for action in ("roll black1 red1 green5 blue5", "place black1 F-G21:1", "place blue5 F-G04:1", "done"):
        referee.submit(action)
    _run(interp, CARDS_SEEN + [Change("loose-", 57, 9.5, die="red1", where=(620.0, 400.0)),
                               Change("loose+", 60, 10.0, die="red1", where=(560.0, 430.0)),
                               Change("loose-", 72, 12.0, die="green5", where=(660.0, 400.0)),
                               Change("loose+", 75, 12.5, die="green5", where=(580.0, 450.0)),
                               Change("die-", 84, 14.0, "F-G04", 1, "blue5"),
                               *_loose(("blue2", "yellow3", "red4", "green6"), 19.0, x=700.0)], 30.0)
    events = [(e.elapsed, e.action) for e in referee.events if not e.undone][len(SETUP) + 5:]
    assert events == [(12.5, "return F-G21:1"), (12.5, "unused green5"), (14.0, "return F-G04:1"),
                      (19.0, "roll blue2 yellow3 red4 green6")], events
    assert referee.violations == []


def test_a_return_nothing_showed_is_dated_between_its_unused_dies_landing_and_its_going_back_in_the_bag() -> None:
    """The unused red1, rolled again, lands at 10 s and costs p1 its black1, which vision never sees go; the red1
    is lifted from the roll area at 13 s, back to the bag, once the return is made. The next roll lands at 19 s:
    the return is dated 11.5 s, midway, not 19 s (unseen4 s804, probe12 h2s2001)."""
    referee, interp = _dealt()
    for action in ("roll black1 red1 black6 blue5", "place black1 F-G21:1", "place black6 F-G04:1",
                   "place blue5 F-G04:2", "done"):
        referee.submit(action)
    _run(interp, CARDS_SEEN + [Change("loose-", 57, 9.5, die="red1", where=(620.0, 400.0)),
                               Change("loose+", 60, 10.0, die="red1", where=(560.0, 430.0)),
                               Change("loose-", 78, 13.0, die="red1", where=(560.0, 430.0)),
                               *_loose(("blue2", "yellow3", "red4", "green5"), 19.0, x=700.0)], 30.0)
    assert [(e.elapsed, e.action) for e in referee.events if not e.undone][-3:] == [
        (10.0, "unused red1"), (11.5, "return F-G21:1"), (19.0, "roll blue2 yellow3 red4 green5")]
    assert referee.violations == []


def test_a_catch_up_dates_a_return_seen_before_the_unused_die_it_answers_landed_no_earlier_than_that() -> None:
    """The same two unused dice, but p2's blue5 looks gone from F-G04:1 at 9.8 s, before the red1 and the green5
    it answers are seen rolled again (a hand over the chip): the return came after the green5's landing, and so
    did p1's before it; all are dated then, not before the red1 was rolled (warm h2s2201's return of F-G28:1)."""
    referee, interp = _dealt()
    for action in ("roll black1 red1 green5 blue5", "place black1 F-G21:1", "place blue5 F-G04:1", "done"):
        referee.submit(action)
    _run(interp, CARDS_SEEN + [Change("loose-", 54, 9.0, die="red1", where=(620.0, 400.0)),
                               Change("die-", 58, 9.8, "F-G04", 1, "blue5"),
                               Change("loose+", 60, 10.0, die="red1", where=(560.0, 430.0)),
                               Change("loose-", 72, 12.0, die="green5", where=(660.0, 400.0)),
                               Change("loose+", 75, 12.5, die="green5", where=(580.0, 450.0)),
                               *_loose(("blue2", "yellow3", "red4", "green6"), 19.0, x=700.0)], 30.0)
    events = [(e.elapsed, e.action) for e in referee.events if not e.undone][len(SETUP) + 5:]
    assert events == [(12.5, "return F-G21:1"), (12.5, "unused green5"), (12.5, "return F-G04:1"),
                      (19.0, "roll blue2 yellow3 red4 green6")], events
    assert referee.violations == []


def test_a_placement_taken_back_and_inferred_again_at_the_next_roll_is_dated_when_it_was_seen() -> None:
    """p1's black1 is seen put on F-G21:1 at 5 s, and that report taken back (as at the dashboard, or by a
    correction: unseen4 h2s801's black3 on F-G15:2); the next roll lands with the table still showing it there:
    the placement inferred again is dated 5 s, when vision saw it."""
    referee, interp = _dealt()
    _run(interp, CARDS_SEEN + PLACED, 12.0)
    referee.undo(next(e.index for e in referee.events if e.action == "place black1 F-G21:1"))
    _run_from(interp, _loose(("blue2", "yellow3", "red4", "green5"), 19.0, x=700.0), 12.17, 30.0)
    again = next(e for e in referee.events if e.action == "place black1 F-G21:1" and not e.undone)
    assert again.accepted and again.elapsed == 5.0


def test_a_return_inferred_at_the_next_roll_is_moved_back_to_when_its_die_is_seen_to_have_left() -> None:
    """The return of p1's black1 is inferred when the next roll lands at 19 s; the tracker reports the black1 gone
    from F-G21:1 only later, as having left at 10 s (a hand hid the chip): the return is dated 10 s."""
    referee, interp = _dealt()
    for action in ("roll black5 red6 black1 green1", "place black1 F-G21:1", "place red6 F-G04:1",
                   "place black5 F-G04:2", "done", "unused green1"):
        referee.submit(action)
    _run(interp, _loose(("blue2", "yellow3", "red4", "green5"), 19.0, x=700.0), 28.0)
    assert [(e.elapsed, e.action) for e in referee.events if not e.undone][-2:] == [
        (19.0, "return F-G21:1"), (19.0, "roll blue2 yellow3 red4 green5")]
    interp.feed([Change("die-", 60, 10.0, "F-G21", 1, "black1")], 169, 28.2)
    _run_from(interp, [], 28.4, 35.0)
    assert [(e.elapsed, e.action) for e in referee.events if not e.undone][-2:] == [
        (10.0, "return F-G21:1"), (19.0, "roll blue2 yellow3 red4 green5")]
    assert referee.violations == []


def test_fewer_dice_than_a_roll_landing_together_do_not_catch_the_game_up() -> None:
    """The same table, but two dice land together where a roll is four: unused dice rolled again, or a roll not
    all seen; no next roll to catch up to, so the game goes on waiting for the unused green die."""
    referee, interp = _dealt()
    for action in ("roll black5 red6 black1 green1", "place black1 F-G21:1", "place red6 F-G04:1",
                   "place black5 F-G04:2", "done"):
        referee.submit(action)
    _run(interp, _loose(("blue2", "yellow3"), 3.0, x=700.0), 12.0)
    assert _actions(referee)[-1] == "done" and referee.state.phase == "unused"


def test_a_story_longer_than_catch_up_actions_is_not_taken() -> None:
    """The green1 was left unused while p1 holds a green3: whatever its new face, the green die rolled again costs
    p1 a die, so the game needs two actions to reach the roll. A catch-up of one action at most is too short a
    story, and the game goes on waiting; with two it is taken."""
    results = []
    for most in (1, 2):
        referee = Referee(GameConfig("fuse", 2), ManualClock())
        for action in (*SETUP, "roll black5 red6 green3 green1", "place green3 F-G10:1", "place red6 F-G04:1",
                       "place black5 F-G04:2", "done"):
            referee.submit(action)
        interp = Interpreter(referee, InterpreterSettings(catch_up_actions=most))
        _run(interp, _loose(("blue2", "yellow3", "red4", "green5"), 3.0, x=700.0), 12.0)
        results.append(_actions(referee)[-3:])
    assert results[0][-1] == "done" and results[1] == ["unused green1", "return F-G10:1",
                                                       "roll blue2 yellow3 red4 green5"]


@pytest.mark.parametrize("card_left", [True, False])
def test_catching_up_defuses_only_a_card_gone_from_the_table(card_left: bool) -> None:
    """F-G21 is complete and the game waits for it defused when the next roll lands. If it left the table, it was
    defused (with a row card vision never named, and a card turned up in its place); while the table still shows
    it, the game's dice on it are wrong, and the game goes on waiting rather than defuse it."""
    referee, interp = _dealt()
    for action in ("roll red1 blue1 black4 yellow2", "place red1 F-G21:1", "place blue1 F-G21:2",
                   "place black4 F-G28:1", "place yellow2 F-G04:1", "roll green1 red3 blue5 yellow6",
                   "place green1 F-G21:3", "place red3 F-G04:2", "place blue5 F-G28:2", "place yellow6 F-G10:2"):
        referee.submit(action)
    assert referee.state.phase == "defuse"
    left = [Change("card-", 30, 5.0, "F-G21", where=(300.0, 600.0))] if card_left else []
    _run(interp, CARDS_SEEN + left + _loose(("blue2", "yellow3", "red4", "green5"), 9.0, x=700.0), 20.0)
    actions = _actions(referee)
    if card_left:
        assert actions[-3].startswith("defuse F-G21 take ") and actions[-2].startswith("reveal ")  # (a stand-in)
        assert actions[-1] == "roll blue2 yellow3 red4 green5"
    else:
        assert not any(a.startswith("defuse") for a in actions) and referee.state.phase == "defuse"
    assert referee.violations == []


def test_a_card_defused_while_a_die_of_the_roll_seemed_unplaced_is_defused_once_that_die_is_placed() -> None:
    """Countdown: p1 completes C-G17 and takes it away (with a row card) while p2's green dice are seen nowhere,
    so the game cannot end the distribution (dice not taken owe sparks) and gives the card's leaving up. The next
    roll landing shows the green dice were placed unseen; the game then waits for C-G17 defused, which it was."""
    setup = (*SPARKS_OWED[: SPARKS_OWED.index("ready") + 1], "roll yellow1 blue5 yellow2 black1",
             "place yellow1 C-G17:1", "place yellow2 C-G50:1", "place black1 C-G50:2", "place blue5 C-G40:1")
    referee, interp = _dealt(GameConfig("countdown", 2), setup)
    timeline = [
        *_loose(("green4", "blue2", "red3", "green5"), 2.0),
        Change("die+", 30, 5.0, "C-G17", 2, "blue2"), Change("die+", 36, 6.0, "C-G17", 3, "red3"),
        Change("card-", 54, 9.0, "C-G17", where=(420.0, 600.0), type="bomb"),
        Change("card>", 84, 14.0, "C-G52", where=(420.0, 600.0), before=(300.0, 350.0), type="bomb", size=80.0),
        *_loose(("blue2", "yellow3", "red4", "green5"), 16.0, x=700.0)]
    _run_from(interp, timeline, 0.0, 30.0)
    actions = [e.action for e in referee.events if not e.undone and e.accepted][len(setup):]
    assert "defuse C-G17 take C-G52" in actions, actions
    assert referee.violations == []


def test_a_spark_drawn_unseen_is_corrected_when_a_die_names_the_card_drawn() -> None:
    """p1 owes a spark, and the card drawn is never seen: when the next roll lands it gets a stand-in. A die of
    that roll then settles on a spark card no player holds (the card drawn, named once a die lies on it): the
    stand-in's report is corrected to that card, and the placement taken."""
    setup = (*SPARKS_OWED[:-1], "place yellow1 C-G50:2", "done")
    referee, interp = _dealt(GameConfig("countdown", 2), setup)
    assert [task for task in referee.state.tasks if task[0] == "spark"] == [("spark", 0)]
    roll = _loose(("green4", "blue2", "red3", "green5"), 5.0)
    _run_from(interp, roll, 0.0, 12.0)
    drawn = next(e.action.split()[-1] for e in referee.events[len(setup):] if e.action.startswith("spark p1"))
    assert drawn != "S-G01"
    _run_from(interp, [Change("die+", 90, 15.0, "S-G01", 1, "red3", where=(300.0, 650.0))], 12.0, 20.0)
    actions = [e.action for e in referee.events[len(setup):] if not e.undone and e.accepted]
    assert actions[0] == "spark p1 S-G01" and "place red3 S-G01:1" in actions, actions
    assert referee.violations == []


def test_an_unknown_card_gets_the_stand_in_it_looks_most_like_of_the_cards_that_can_come() -> None:
    """p1's second card is unknown, not told from the cards it resembles (closest first): F-G21 lies in view and
    F-G13 would break the starting hand, so the stand-in is the next of them, F-G07, not the deck's last card."""
    referee = Referee(GameConfig("fuse", 2), ManualClock())
    interp = Interpreter(referee)
    deal = [replace(c, resembles=("F-G21", "F-G13", "F-G07")) if c.card == "?1" else c
            for c in DEAL_WITH_AN_UNKNOWN_CARD]
    _run(interp, deal, 8.0)
    assert [c.id for c in referee.state.players[0].cards] == ["F-G21", "F-G07"]
    assert [c.id for c in referee.state.players[1].cards] == ["F-G28", "F-G04"]


@pytest.mark.parametrize(("resembles", "stand_in"), [(("F-G07", "F-G10"), "F-G07"), (("F-G10", "F-G07"), "F-G10")],
                         ids=["its views rank another first", "its views agree"])
def test_an_unknown_card_s_look_in_a_view_or_two_is_its_stand_in_only_if_its_views_rank_that_card_first(
        resembles: tuple[str, ...], stand_in: str) -> None:
    """p1's second card looked like F-G10 in a view as it was put down, but its views together resemble F-G07 most:
    the stand-in is F-G07 (warm h3s2202's ?19, taken for F-G21 from one view, resembled F-013 in all the rest)."""
    referee = Referee(GameConfig("fuse", 2), ManualClock())
    interp = Interpreter(referee)
    deal = [replace(c, likely="F-G10", resembles=resembles) if c.card == "?1" else c
            for c in DEAL_WITH_AN_UNKNOWN_CARD]
    _run(interp, deal, 8.0)
    assert [c.id for c in referee.state.players[0].cards] == ["F-G21", stand_in]


def test_cards_dealt_in_one_frame_are_reported_from_the_players_left() -> None:
    """p2 sits at the top of the frame, facing down: its left is the frame's right. Its two cards are named in the
    same frame, F-G28 (left in the frame) first; once the row is out the deal is reported F-G04, then F-G28, as
    the hand lies from p2's left, and the game is the same."""
    referee = Referee(GameConfig("fuse", 2), ManualClock())
    interp = Interpreter(referee)
    deal = [_bomb("F-G21", 1.0, 300, 600), _bomb("F-G10", 2.0, 420, 600), _bomb("F-G28", 3.0, 300, 100),
            _bomb("F-G04", 3.0, 420, 100)]
    deal += [_bomb(card, 4.0 + k, 200 + 120 * k, 350) for k, card in enumerate(("F-011", "F-015", "F-009", "F-G07",
                                                                                 "F-G06"))]
    _run(interp, deal, 12.0)
    deals = [e.action for e in referee.events if not e.undone and e.action.startswith("deal")]
    assert deals == ["deal p1 F-G21", "deal p1 F-G10", "deal p2 F-G04", "deal p2 F-G28"]
    assert all(e.accepted for e in referee.events if not e.undone) and len(referee.state.row) == 5


def test_an_unknown_card_named_where_it_lies_before_its_report_is_dealt_as_that_card() -> None:
    """p1 is dealt F-G21 (worth 4), then a card put away from the hand that the camera names only while its report
    waits: F-G28 (4), which the starting-hand rule sets aside. Its stand-in is that card, not another that keeps
    the hand, so the next card is p1's again (warm cd3s2206's C-G47: taken as another card, the deal was read one
    card out of step)."""
    referee = Referee(GameConfig("fuse", 2), ManualClock())
    interp = Interpreter(referee)
    deal = [_bomb("F-G21", 1.0, 300, 600), _bomb("?1", 2.0, 900, 300), _bomb("F-G10", 2.5, 420, 600),
            _bomb("F-G28", 3.0, 900, 300, "card="), _bomb("F-G04", 5.0, 300, 100), _bomb("F-G05", 6.0, 420, 100)]
    _run(interp, deal, 12.0)
    deals = [e.action for e in referee.events if e.action.startswith("deal") and not e.undone]
    assert deals == ["deal p1 F-G21", "deal p1 F-G28", "deal p1 F-G10", "deal p2 F-G04", "deal p2 F-G05"]
    assert all(e.accepted for e in referee.events if not e.undone)


STACK = (300.0, 100.0)
STACK_STARTED = CARDS_SEEN + _loose(("red4", "green2", "black1", "green4"), 2.0) + [
    Change("die+", 18, 3.0, "F-G28", 1, "red4", where=STACK),
    Change("die+", 24, 4.0, "F-G28", 2, "green2", where=STACK),
    Change("die+", 30, 5.0, "F-G21", 1, "black1", where=(360.0, 600.0)),
    Change("die+", 36, 6.0, "F-G10", 1, "green4", where=(360.0, 600.0))]
"""The first roll: red4 and green2 on p2's stack F-G28 (at ``STACK``), black1 and green4 on p1's cards."""


def test_a_die_lying_on_a_stack_whose_one_empty_chip_refuses_it_is_an_illegal_placement() -> None:
    """p2's stack F-G28 gets four dice over two rolls, the tracker seeing it one level short (green2 hidden: blue5
    read on chip 2, yellow3 on 3, each taken for the die on top of the one there). The third roll's red6 is seen
    lying on the card, on no chip (the card unnamed under the stack's top die), then back in the roll area: put on
    the stack's one empty chip, whose rule (blue/4) refuses it, and taken back (unseen5 s1004)."""
    referee, interp = _dealt()
    stack, p1 = STACK, (360.0, 600.0)
    timeline = STACK_STARTED + [
        *_loose(("blue5", "yellow3", "red1", "yellow5"), 8.0),
        Change("die+", 54, 9.0, "F-G28", 2, "blue5", where=stack),
        Change("die+", 60, 10.0, "F-G28", 3, "yellow3", where=stack),
        Change("die+", 66, 11.0, "F-G21", 2, "red1", where=p1),
        Change("die+", 72, 12.0, "F-G10", 2, "yellow5", where=p1),
        *_loose(("red6", "black2", "green1", "yellow1"), 14.0),
        Change("loose-", 93, 15.5, die="red6", where=(500.0, 400.0)),
        Change("loose+", 96, 16.0, die="red6", where=(302.0, 98.0), on_card=True),
        Change("loose-", 114, 19.0, die="red6", where=(302.0, 98.0)),
        Change("loose+", 114, 19.0, die="red6", where=(500.0, 400.0))]
    _run(interp, timeline, 28.0)
    actions = _actions(referee)
    assert "place blue5 F-G28:3" in actions and "place yellow3 F-G28:4" in actions, actions
    refused = [e for e in referee.violations if e.action == "place red6 F-G28:5"]
    assert len(refused) == 1 and refused[0].elapsed == 16.0 and interp.taken_back == {refused[0].index: 114}
    assert not any("red6" in c.question for c in interp.confirms)


GREEN4_STACKED = CARDS_SEEN + _loose(("green4", "black1", "red6", "green1"), 2.0) + [
    Change("die+", 24, 4.0, "F-G28", 1, "green4", where=STACK),
    Change("die+", 30, 5.0, "F-G21", 1, "black1", where=(360.0, 600.0)),
    Change("die+", 36, 6.0, "F-G04", 1, "red6", where=(420.0, 100.0)),
    Change("die+", 42, 7.0, "F-G21", 2, "green1", where=(360.0, 600.0))]
"""The first roll: green4 on p2's stack F-G28, red6 on F-G04, black1 and green1 on p1's F-G21."""


@pytest.mark.parametrize("lifted, hidden", [("green2", []), ("red2", [Change("die-", 67, 11.2, "F-G28", 1, "green4",
                                                                             where=(300.0, 100.0))])],
                         ids=["on its twin", "hiding the die under it"])
def test_a_die_lifted_long_before_and_seen_nowhere_was_put_on_a_stack(lifted: str, hidden: list[Change]) -> None:
    """p2's stack F-G28 holds green4 on chip 1. The second roll's green2 (red2) is lifted from the roll area and
    never seen again: on green4 the layout sees one green die (unseen4 s804's green4 on green4), or it hides the
    green4, which the tracker loses (h2s801's red1 on black2). When the unused black die is rolled again, more than
    ``wait_s`` after that lift, it was put on the stack's chip 2, not left unused."""
    referee, interp = _dealt()
    p1 = (360.0, 600.0)
    timeline = GREEN4_STACKED + [
        *_loose((lifted, "black5", "yellow1", "blue3"), 10.0),
        Change("loose-", 66, 11.0, die=lifted, where=(500.0, 400.0)), *hidden,
        Change("die+", 72, 12.0, "F-G10", 2, "yellow1", where=p1),
        Change("loose-", 99, 16.5, die="black5", where=(540.0, 400.0)),
        Change("loose+", 102, 17.0, die="black3", where=(560.0, 460.0))]
    _run(interp, timeline, 26.0)
    assert _actions(referee)[-4:] == [f"place {lifted} F-G28:2", "place yellow1 F-G10:2", "done", "unused black3"]


@pytest.mark.parametrize("rolled", ["blue3", "blue6"])
def test_a_card_completed_by_its_print_read_as_a_die_is_not_waited_on_once_the_next_roll_lands(rolled: str) -> None:
    """p1's F-G15 (``[green/yellow] [yellow/black] [blue3]``) holds yellow1 and black3; the second roll is read with
    a blue3, and F-G15's print on chip 3 is read as a blue3 settling there, completing the card. The card stays on
    the table and the next roll lands: the blue3 was the print (unseen4 h2s801), its placement is taken back, and
    the game takes the roll rather than wait for F-G15's defuse for the rest of the game. Read with a blue6, which
    the print's reading corrected to blue3, the roll is read as before again."""
    setup = ("deal p1 F-G15", "deal p1 F-G10", "deal p2 F-G28", "deal p2 F-G04") + SETUP[4:]
    referee, interp = _dealt(setup=setup)
    p1, p2 = (300.0, 600.0), (420.0, 100.0)
    cards = [replace(c, card="F-G15") if c.card == "F-G21" else c for c in CARDS_SEEN]
    timeline = cards + _loose(("yellow1", "black3", "red6", "red4"), 2.0) + [
        Change("die+", 24, 4.0, "F-G15", 1, "yellow1", where=p1),
        Change("die+", 30, 5.0, "F-G15", 2, "black3", where=p1),
        Change("die+", 36, 6.0, "F-G04", 1, "red6", where=p2),
        Change("die+", 42, 7.0, "F-G28", 1, "red4", where=(300.0, 100.0)),
        *_loose((rolled, "green5", "yellow2", "black6"), 10.0),
        Change("die+", 66, 11.0, "F-G15", 3, "blue3", where=p1),
        Change("loose-", 72, 12.0, die="green5", where=(540.0, 400.0)),
        Change("die+", 75, 12.5, "F-G10", 1, "green5", where=(420.0, 600.0)),
        *_loose(("red1", "red2", "green3", "blue6"), 20.0, x=700.0)]
    _run(interp, timeline, 32.0)
    actions = [e.action for e in referee.events if not e.undone][len(setup):]
    assert "place blue3 F-G15:3" not in actions and actions[-1] == "roll red1 red2 green3 blue6", actions
    assert f"roll {rolled} green5 yellow2 black6" in actions
    assert any("place blue3 F-G15:3 was its print" in n for n in interp.notes)


def test_a_die_seen_nowhere_is_not_guessed_onto_the_last_empty_chip_of_a_card() -> None:
    """p1's F-G21 (``[1] [1] [1]``) holds black1 and green1. The second roll's yellow1 is lifted from the roll
    area and seen nowhere; when the unused black die is rolled again, the first empty chip that would take it is
    F-G21's last: a guess there would complete the card, and the game would wait for a defuse the table never
    shows (unseen5 p4s1005). It is guessed onto F-G10's yellow/5 instead."""
    referee, interp = _dealt()
    p1 = (360.0, 600.0)
    timeline = CARDS_SEEN + _loose(("black1", "green1", "red6", "red4"), 2.0) + [
        Change("die+", 24, 4.0, "F-G21", 1, "black1", where=p1),
        Change("die+", 30, 5.0, "F-G21", 2, "green1", where=p1),
        Change("die+", 36, 6.0, "F-G04", 1, "red6", where=(420.0, 100.0)),
        Change("die+", 42, 7.0, "F-G28", 1, "red4", where=(300.0, 100.0)),
        *_loose(("yellow1", "black5", "blue2", "blue3"), 10.0),
        Change("loose-", 66, 11.0, die="yellow1", where=(500.0, 400.0)),
        Change("loose-", 99, 16.5, die="black5", where=(540.0, 400.0)),
        Change("loose+", 102, 17.0, die="black3", where=(560.0, 460.0))]
    _run(interp, timeline, 26.0)
    actions = _actions(referee)
    assert "place yellow1 F-G10:2" in actions and "place yellow1 F-G21:3" not in actions, actions


def test_a_die_seen_on_a_held_stack_chip_whose_chip_above_refuses_it_is_an_illegal_placement_there() -> None:
    """p2's stack F-G28 (``[4] [?] [blue5] ...``) holds red4 and green2. The second roll's red6 is seen on chip 2,
    where the game holds green2: the die on top of it, on chip 3, whose print (blue5) refuses it; then lifted from
    where it was seen. A violation on chip 3, taken back (unseen5 s1004 under perfect perception)."""
    referee, interp = _dealt()
    stack = STACK
    timeline = STACK_STARTED + [
        *_loose(("red6", "yellow3", "red1", "yellow5"), 8.0),
        Change("loose-", 57, 9.5, die="red6", where=(500.0, 400.0)),
        Change("die+", 60, 10.0, "F-G28", 2, "red6", where=stack),
        Change("die-", 78, 13.0, "F-G28", 2, "red6", where=stack),
        Change("loose+", 78, 13.0, die="red6", where=(500.0, 400.0))]
    _run(interp, timeline, 20.0)
    refused = [e for e in referee.violations if e.action == "place red6 F-G28:3"]
    assert len(refused) == 1 and interp.taken_back == {refused[0].index: 78}, [e.action for e in referee.events]
    assert not any("red6" in c.question for c in interp.confirms)


def test_dice_seen_nowhere_are_guessed_onto_chips_after_those_the_table_tells() -> None:
    """As above, with yellow2 lifted unseen too, before the green2 in the roll's order: the first chip that would
    take a yellow2 (no card's last) is F-G28:2, but the green2's twin on F-G28:1 tells that the green2 went there;
    the yellow2 is guessed after it, elsewhere (unseen5 p4s1005)."""
    referee, interp = _dealt()
    p1 = (360.0, 600.0)
    timeline = GREEN4_STACKED + [
        *_loose(("yellow2", "green2", "yellow1", "black5"), 10.0),
        Change("loose-", 63, 10.5, die="yellow2", where=(500.0, 400.0)),
        Change("loose-", 66, 11.0, die="green2", where=(540.0, 400.0)),
        Change("die+", 72, 12.0, "F-G10", 2, "yellow1", where=p1),
        Change("loose-", 99, 16.5, die="black5", where=(620.0, 400.0)),
        Change("loose+", 102, 17.0, die="black3", where=(560.0, 460.0))]
    _run(interp, timeline, 26.0)
    actions = _actions(referee)
    assert "place green2 F-G28:2" in actions and "place yellow2 F-G28:2" not in actions, actions
