"""FUSE: Countdown's role cards (only the leader's is active), fuse card effects, and spark cards."""

from __future__ import annotations

from collections import Counter

import pytest

from rules.config import GameConfig
from rules.dice import COLOURS, Die, load_dice_set
from rules.errors import IllegalActionError
from rules.game import CHANCE, State
from tests.rules.helpers import act, bag_size, card_dice, hand, start, texts

SOLO_HAND = ["C-G05", "C-G12", "C-G22", "C-G30"]  # 1, 2, 3 and 4 points
"""C-G05 ``[red] [5/1] [?]``, C-G12 ``[#] + [#] = 9``, C-G22 ``stack [#] < [#] [#] < [#]``, C-G30 a wall."""
PAIR_HANDS = [["C-G05", "C-G16"], ["C-G01", "C-G03"]]
"""p1: ``[red] [5/1] [?]``, ``[first blue] [red/6] [last ?]``; p2: ``[C] != [C] != [C]``, ``[black] [5/6] [?]``."""
ROLE_IDS = {"cutter": "R-1", "operations-engineer": "R-2", "logistics-specialist": "R-3", "technologist": "R-4",
            "equipment-technician": "R-5", "disposal-expert": "R-6", "explosives-instructor": "R-7"}


def solo(role: str, *then: str) -> State:
    return start(GameConfig("countdown", 1), [SOLO_HAND], roles=[ROLE_IDS[role]], then=then)


def pair(first: str, second: str, *then: str) -> State:
    return start(GameConfig("countdown", 2), PAIR_HANDS, roles=[ROLE_IDS[first], ROLE_IDS[second]], then=then)


def changes(state: State) -> list[str]:
    return [t for t in texts(state.legal_actions()) if t.startswith("change")]


# ------------------------------------------------------------------ dealing roles

def test_each_player_gets_a_different_role() -> None:
    state = start(GameConfig("countdown", 3), [["C-G01", "C-G02"], ["C-G03", "C-G04"], ["C-G05", "C-G06"]])
    assert state.phase == "role" and state.current_player() == CHANCE
    assert texts(state.legal_actions()) == [f"role p1 R-{i}" for i in range(1, 8)]
    act(state, "role p1 R-3")
    assert "role p2 R-3" not in texts(state.legal_actions())
    with pytest.raises(IllegalActionError, match="not a free role card"):
        act(state, "role p2 R-3")
    act(state, "role p2 R-7", "role p3 R-1")
    assert [a.role.name for a in state.players] == ["logistics-specialist", "explosives-instructor", "cutter"]  # type: ignore[union-attr]


EPIC_HANDS = [["C-G01", "F-001"], ["F-002", "F-003"], ["F-004", "F-005"], ["F-009", "F-007"], ["F-006", "F-008"],
              ["F-010", "F-016"]]


def test_no_roles_in_fuse_or_epic_games() -> None:
    fuse = start(GameConfig("fuse", 2), [["F-001", "F-002"], ["F-003", "F-004"]])
    assert fuse.phase == "roll" and all(a.role is None for a in fuse.players)
    epic = start(GameConfig("countdown", 6), EPIC_HANDS)
    assert epic.phase == "roll" and all(a.role is None for a in epic.players)
    assert len(epic.roll) == 0 and epic.game.dice.size == 35  # Countdown's 25 and 10 FUSE dice


# ------------------------------------------------------------------ the roles

def test_cutter_names_a_colour_and_changes_those_dice() -> None:
    state = pair("cutter", "technologist")
    assert state.phase == "name" and state.current_player() == 0
    assert texts(state.legal_actions()) == [f"name {c}" for c in COLOURS] + ["ready"]
    with pytest.raises(IllegalActionError):
        act(state, "name 5")
    act(state, "name red", "roll red5 blue2 yellow3 blue/red1")
    found = changes(state)
    assert {t.split()[1] for t in found} == {"0", "3"}  # only dice showing red, the split die too
    assert "change 0 blue5" in found and "change 0 red1" in found  # colour or number ...
    assert "change 0 blue1" not in found  # ... not both
    assert not any("/" in t.split()[2] for t in found if t.startswith("change 0"))  # never into a split die
    assert "change 3 green1" in found  # a split die may become a single colour
    act(state, "change 0 blue5")
    assert {t.split()[1] for t in changes(state)} == {"3"}  # each die once; the others still
    act(state, "change 3 blue/red6")  # nothing left to change: distribution starts
    assert state.phase == "distribute" and [str(d) for d in state.roll] == ["blue5", "blue2", "yellow3", "blue/red6"]


def test_a_colour_changed_die_is_its_own_colour_again_once_placed() -> None:
    """"If you change a die's color, as soon as it has been placed, it becomes its original color again"."""
    state = solo("cutter", "name blue", "roll blue3 green5 yellow2", "change 0 red3")
    act(state, "place red3 C-G05:1", "place green5 C-G05:2", "place yellow2 C-G05:3")
    assert card_dice(state, "C-G05") == {1: "red3", 2: "green5", 3: "yellow2"}
    card = next(c for c in state.players[0].cards if c.id == "C-G05")
    assert card.physical[1] == Die.parse("blue3")
    assert state.dice_accounted() == Counter({k.colours: k.count for k in load_dice_set("countdown").kinds})
    act(state, "defuse C-G05 take C-G07")
    assert state.bag[("blue",)] == 4 and state.bag[("red",)] == 4  # the blue die went back as blue


def test_a_number_changed_die_stays_turned() -> None:
    """"If you change a die's number, rotate the die to show the new number"."""
    state = solo("operations-engineer", "name 5", "roll red5 blue5 green2")
    found = changes(state)
    assert {t.split()[1] for t in found} == {"0", "1"}
    assert "change 1 blue3" in found and "change 1 black5" in found
    act(state, "change 0 red4", "ready", "place red4 C-G05:1", "place blue5 C-G05:2", "place green2 C-G05:3")
    card = next(c for c in state.players[0].cards if c.id == "C-G05")
    assert card.physical[1] == card.placed[1] == Die.parse("red4")


def test_operations_engineer_names_a_number() -> None:
    state = pair("operations-engineer", "cutter")
    assert texts(state.legal_actions()) == [f"name {n}" for n in range(1, 7)] + ["ready"]
    act(state, "ready", "roll red5 blue2 yellow3 blue/red1")
    assert state.phase == "distribute"  # nothing named: nothing to change


def test_technologist_changes_the_colour_of_one_die() -> None:
    state = pair("technologist", "cutter", "roll red5 blue2 yellow3 black/yellow1")
    assert state.phase == "ability" and state.current_player() == 0
    found = changes(state)
    assert len(found) == 3 * 4 + 5  # four other colours per single die, five single colours for the split die
    assert all(Die.parse(t.split()[2]).face == state.roll[int(t.split()[1])].face for t in found)
    assert "change 3 black/yellow2" not in found
    act(state, "change 3 red1")  # one die only: distribution starts
    assert state.phase == "distribute" and [str(d) for d in state.roll] == ["red5", "blue2", "yellow3", "red1"]


def test_equipment_technician_changes_the_number_of_one_die() -> None:
    state = pair("equipment-technician", "cutter", "roll red5 blue2 yellow3 black/yellow1")
    found = changes(state)
    assert len(found) == 4 * 5
    assert "change 3 black/yellow6" in found and "change 0 blue5" not in found
    with pytest.raises(IllegalActionError, match="cannot do that"):
        act(state, "change 2 green3")
    act(state, "change 1 blue6")
    assert state.phase == "distribute" and [str(d) for d in state.roll] == ["red5", "blue6", "yellow3", "black/yellow1"]
    with pytest.raises(IllegalActionError, match="not now"):
        act(state, "change 2 yellow4")


def test_disposal_expert_flips_dice_to_their_opposite_faces() -> None:
    state = pair("disposal-expert", "cutter", "roll red1 blue2 yellow3 green6")
    assert [t for t in texts(state.legal_actions()) if t.startswith("flip")] == [f"flip {i}" for i in range(4)]
    act(state, "flip 0", "flip 1", "flip 2")
    assert [str(d) for d in state.roll] == ["red6", "blue4", "yellow5", "green6"]  # 1-6, 2-4, 3-5
    assert texts(state.legal_actions()) == ["flip 3", "ready"]  # each die once
    act(state, "ready")
    assert state.phase == "distribute" and state.placements(0, Die.parse("red6")) == [("C-G05", 1), ("C-G05", 3)]


def test_explosives_instructor_rerolls_any_dice_up_to_three_times() -> None:
    state = pair("explosives-instructor", "cutter", "roll red1 blue2 yellow3 green6")
    rerolls = [t for t in texts(state.legal_actions()) if t.startswith("reroll")]
    assert len(rerolls) == 2 ** 4 - 1  # any non-empty set of the rolled dice
    assert "reroll 0 2" in rerolls and "reroll 0 1 2 3" in rerolls
    act(state, "reroll 0 2")
    assert state.current_player() == CHANCE
    with pytest.raises(IllegalActionError, match="only faces change"):
        act(state, "roll blue4 yellow5")
    act(state, "roll red4 yellow5")
    assert [str(d) for d in state.roll] == ["red4", "blue2", "yellow5", "green6"]
    act(state, "reroll 1", "roll blue3", "reroll 1 3", "roll blue6 green1")
    assert state.phase == "distribute"  # four rolls in all: the ability is used up
    assert [str(d) for d in state.roll] == ["red4", "blue6", "yellow5", "green1"]


def test_logistics_specialist_rolls_an_extra_die_and_may_take_it() -> None:
    state = pair("logistics-specialist", "cutter")
    with pytest.raises(IllegalActionError, match="draws 5 dice, not 4"):
        act(state, "roll red5 blue2 yellow3 green6")
    act(state, "roll red5 blue2 yellow3 green6 black1")
    assert "discard red5" in texts(state.legal_actions())
    act(state, "place red5 C-G05:1", "place black1 C-G05:2", "place green6 C-G05:3")  # three dice: one extra
    assert not any(t.startswith("discard") for t in texts(state.legal_actions()))  # took the extra: no return
    with pytest.raises(IllegalActionError, match="already taken 3 dice"):
        act(state, "place blue2 C-G16:1")
    with pytest.raises(IllegalActionError, match="once a turn"):
        act(state, "discard yellow3")
    act(state, "place yellow3 C-G01:1", "place blue2 C-G01:2")  # p2 takes the other two
    assert state.phase == "defuse"


def test_logistics_specialist_returns_a_die_instead() -> None:
    """"You may take one extra die OR return one die to the bag without penalty"."""
    state = pair("logistics-specialist", "cutter", "roll red5 blue2 yellow3 green6 black1")
    act(state, "discard yellow3")
    assert bag_size(state) == 21
    assert not any(t.startswith("discard") for t in texts(state.legal_actions()))  # once a turn
    act(state, "place red5 C-G05:1", "place black1 C-G05:2")
    assert state.placements(0, Die.parse("green6")) == []  # returned a die: no extra die to take
    with pytest.raises(IllegalActionError, match="already taken 2 dice"):
        act(state, "place green6 C-G16:2")
    act(state, "place green6 C-G03:2", "place blue2 C-G01:1")
    assert state.leader == 1 and state.phase == "name"  # the next turn: no spark for the returned die
    assert all(not area.sparks() for area in state.players)


def test_logistics_specialist_spark_for_the_extra_die_not_taken() -> None:
    state = pair("logistics-specialist", "cutter", "roll red5 blue2 yellow3 green6 black1")
    act(state, "place red5 C-G05:1", "place black1 C-G05:2", "place yellow3 C-G01:1", "place blue2 C-G01:2", "done")
    assert state.phase == "spark" and state.tasks[0] == ("spark", 0)
    assert [t for t in state.tasks if t[0] == "spark"] == [("spark", 0)]
    act(state, "spark p1 S-G01")
    assert state.leader == 1 and state.phase == "name"
    assert hand(state, 0)[-1] == "S-G01" and hand(state, 1) == ["C-G01", "C-G03"]


def test_players_owing_sparks_draw_them_in_any_order() -> None:
    """"Any player who did not take a die this turn must draw one spark card": the rulebook sets no order, so p2
    may draw before p1; a player owing none is told who does."""
    state = pair("explosives-instructor", "cutter", "roll red1 blue2 yellow3 green6", "ready")
    act(state, "place red1 C-G05:2", "done")
    assert [t for t in state.tasks if t[0] == "spark"] == [("spark", 0), ("spark", 1), ("spark", 1)]
    act(state, "spark p2 S-G01", "spark p1 S-G02")
    with pytest.raises(IllegalActionError, match="p1 owes no spark now: p2 draw"):
        act(state, "spark p1 S-G03")
    act(state, "spark p2 S-G03")
    assert hand(state, 0)[-1] == "S-G02" and hand(state, 1)[-2:] == ["S-G01", "S-G03"]
    assert state.phase == "name" and state.leader == 1


def test_only_the_leaders_role_is_active() -> None:
    state = pair("explosives-instructor", "cutter", "roll red1 blue2 yellow3 green6", "ready")
    act(state, "place red1 C-G05:2", "place blue2 C-G16:1", "place yellow3 C-G01:1", "place green6 C-G03:2")
    assert state.leader == 1 and state.phase == "name"  # p2 is the cutter: p2 names a colour
    assert state.current_player() == 1
    act(state, "ready", "roll red2 blue3 yellow4 black5")
    assert state.phase == "distribute"  # p1's rerolls are not offered on p2's turn


# ------------------------------------------------------------------ fuse cards

def fuse_scenario() -> State:
    """Solo at Expert with 10 fuse cards; after three rolls C-G05 is complete and defused, and the row refills.

    On the table: C-G16 ``[first blue] [red/6] [last ?]`` with blue2 in its first chip and red6;
    C-G22 ``stack [#] < [#] [#] < [#]`` with green3 under red4; C-G30 wall with green5 and blue6 on its lower level."""
    state = start(GameConfig("countdown", 1, "expert", fuse_cards=10), [["C-G05", "C-G16", "C-G22", "C-G30"]],
                  roles=["R-6"])
    act(state, "roll blue2 red6 green3", "ready", "place blue2 C-G16:1", "place red6 C-G16:2", "place green3 C-G22:1")
    act(state, "roll red4 green5 yellow1", "ready", "place red4 C-G22:2", "place green5 C-G30:1",
        "place yellow1 C-G05:2")
    act(state, "roll red2 black5 blue6", "ready", "place red2 C-G05:1", "place black5 C-G05:3", "place blue6 C-G30:3")
    return act(state, "defuse C-G05 take C-G07")


@pytest.mark.parametrize(
    ("fuse", "returns"),
    [
        ("CF-05", ["return C-G30:3"]),  # blue or 2: blue2 is in a "first" chip, so safe
        ("CF-06", ["return C-G30:1"]),  # green or 3: green3 is under red4, so safe
        ("CF-04", ["return C-G16:2", "return C-G22:2"]),  # red or 1: the player chooses
        ("CF-10", ["return C-G16:2", "return C-G22:2", "return C-G30:3"]),  # red or blue
        ("CF-09", ["return C-G16:2", "return C-G30:3"]),  # a 6
        ("CF-07", ["return C-G22:2"]),  # yellow or 4: red4 tops the stack
        ("CF-08", ["return C-G30:1"]),  # black or 5: green5 has nothing above it
    ],
)
def test_matching_fuse_cards(fuse: str, returns: list[str]) -> None:
    state = fuse_scenario()
    assert state.phase == "reveal"
    act(state, f"reveal {fuse}")
    assert state.current_player() == 0 and texts(state.legal_actions()) == returns
    before = bag_size(state)
    act(state, returns[-1])
    assert bag_size(state) == before + 1
    assert state.phase == "reveal"  # then the row is refilled: a fuse card is replaced by the next card
    assert state.score()["fuses"] == 2


def test_a_safe_die_as_the_only_match_is_kept() -> None:
    state = fuse_scenario()
    act(state, "reveal CF-08", "return C-G30:1", "reveal CF-06")  # green or 3: only the safe green3 is left
    assert state.phase == "reveal"
    assert card_dice(state, "C-G22") == {1: "green3", 2: "red4"}
    assert state.score()["fuses"] == 4


def test_fuse_effects_chain() -> None:
    """Draw a spark, lose roles, roll a 6: each resolves, then the next card is drawn to refill the row."""
    state = fuse_scenario()
    act(state, "reveal CF-01")
    assert state.phase == "spark" and state.current_player() == CHANCE
    act(state, "spark p1 S-G16")
    assert hand(state, 0)[-1] == "S-G16"
    act(state, "reveal CF-02")
    assert not state.players[0].role_active and "(disposal-expert, inactive)" in state.describe()
    act(state, "reveal CF-03")
    assert state.phase == "six"
    assert texts(state.legal_actions()) == [f"six-roll p1 {f}" for f in range(1, 7)]
    act(state, "six-roll p1 3", "six-roll p1 5")
    assert state.phase == "six"  # until a 6
    act(state, "six-roll p1 6")
    assert state.phase == "reveal"
    act(state, "reveal C-G20")
    assert state.row == ["C-G20", "C-G08", "C-G13", "C-G14", "C-G33"]
    assert state.score() == {"win": 0, "time": 0, "bombs": 1, "sparks": 0, "fuses": 6, "total": 7}
    assert bag_size(state) == 25 - 6  # the extra dice for the 6 came from the bag and went back


def test_lost_roles_come_back_with_a_defused_bomb_not_a_spark() -> None:
    state = fuse_scenario()
    act(state, "reveal CF-01", "spark p1 S-G16", "reveal CF-02", "reveal C-G20")  # S-G16 is [red] [3]
    act(state, "roll red3 blue3 yellow6")
    assert state.phase == "distribute"  # no flips: the role card is face down
    act(state, "place red3 S-G16:1", "place blue3 S-G16:2", "place yellow6 C-G30:2", "defuse S-G16")
    assert not state.players[0].role_active  # a spark does not count
    act(state, "roll green3 red5 black1")
    assert state.phase == "distribute"
    act(state, "place green3 C-G07:3", "place red5 C-G07:1", "place black1 C-G07:2", "defuse C-G07 take C-G08")
    assert state.players[0].role_active and "(disposal-expert)" in state.describe()
    act(state, "reveal C-G21", "roll black2 blue4 yellow5")
    assert state.phase == "ability" and "flip 0" in texts(state.legal_actions())


def test_epic_games_leave_out_the_role_fuse_card() -> None:
    config = GameConfig("countdown", 6, "expert", fuse_cards=10)
    state = start(config, EPIC_HANDS)
    assert state.phase == "roll"
    assert "CF-02" not in state.fuse_source.pool and len(state.fuse_source.pool) == 11 + 10 - 1


# ------------------------------------------------------------------ sparks

def test_three_or_more_players_a_spark_for_who_took_no_die() -> None:
    state = start(GameConfig("countdown", 3), [["C-G01", "C-G02"], ["C-G03", "C-G04"], ["C-G05", "C-G06"]],
                  roles=["R-4", "R-5", "R-6"], then=["roll red1 blue2 green3", "ready"])
    act(state, "place red1 C-G01:1", "place blue2 C-G04:1", "done")
    assert state.phase == "spark" and state.tasks[0] == ("spark", 2)
    assert [t[0] for t in state.tasks].count("spark") == 1
    act(state, "spark p3 S-G07")
    assert hand(state, 2) == ["C-G05", "C-G06", "S-G07"]
    assert bag_size(state) == 23  # the die nobody took went back into the bag, no reroll


@pytest.mark.parametrize(
    ("players", "placed", "sparks"), [(1, 0, [0, 0, 0]), (1, 1, [0, 0]), (1, 3, []), (2, 1, [0, 1, 1]), (2, 3, [1]),
                                      (2, 4, [])]
)
def test_one_or_two_players_a_spark_per_die_not_taken(players: int, placed: int, sparks: list[int]) -> None:
    hands = [SOLO_HAND] if players == 1 else PAIR_HANDS
    roles = ["R-4"] if players == 1 else ["R-4", "R-5"]
    rolled = ["red1", "blue5", "black2", "green6"][: 3 if players == 1 else 4]
    state = start(GameConfig("countdown", players), hands, roles=roles, then=["roll " + " ".join(rolled), "ready"])
    spots = {"red1": "C-G05:1", "blue5": "C-G05:2", "black2": "C-G22:1" if players == 1 else "C-G03:1",
             "green6": "C-G01:1"}
    for die in rolled[:placed]:
        act(state, f"place {die} {spots[die]}")
    if state.phase == "distribute":
        act(state, "done")
    assert [t[1] for t in state.tasks if t[0] == "spark"] == sparks
    if not sparks:
        assert state.phase == "roll" and state.turn == 1


def test_sparks_are_defused_without_taking_a_row_card() -> None:
    state = start(GameConfig("countdown", 1), [SOLO_HAND], roles=["R-4"], then=["roll red1 blue5 black2", "ready",
                                                                                  "place red1 C-G05:1", "done"])
    act(state, "spark p1 S-G16", "spark p1 S-G20")  # [red] [3] and [red] [6]
    act(state, "roll red2 green3 yellow4", "ready", "place red2 S-G16:1", "place green3 S-G16:2")
    assert texts(a for a in state.legal_actions() if str(a).startswith("defuse")) == ["defuse S-G16"]
    with pytest.raises(IllegalActionError):
        act(state, "defuse S-G16 take C-G08")
    act(state, "defuse S-G16")
    assert "S-G16" not in hand(state, 0) and state.row == ["C-G07", "C-G08", "C-G13", "C-G14", "C-G33"]
    assert state.score()["sparks"] == 2
    assert state.spark_discard == ["S-G16"]
