"""The game engine: setup (hands, redeals, the row, the deck and its fuse cards, advanced setups), the turn
(rolls, who takes how many dice, unused dice, defusing, fuse cards), scoring, and how games end.

Situations are built by replaying logs with chosen chance actions; whole games come from seeded playouts."""

from __future__ import annotations

import pytest

from rules.clock import ManualClock
from rules.config import GameConfig
from rules.dice import Die
from rules.errors import IllegalActionError, RulesError
from rules.game import CHANCE, TEAM, TERMINAL, Game, Outcome, State, play_log
from rules.simulate import greedy_policy, play_game, random_policy
from tests.rules.helpers import FUSE_ROW, act, bag_size, card_dice, hand, setup_log, start, texts


def points(state: State, cards: list[str]) -> list[int]:
    return [state.game.card(c).points for c in cards]


def first_row_reveal_outcomes(config: GameConfig, hands: list[list[str]]) -> set[str]:
    """The cards the first row reveal can turn up, once the hands below are dealt."""
    state = play_log(Game(config), setup_log(hands, ()))
    assert state.phase == "reveal"
    return {a.card for a, _ in state.chance_outcomes()}  # type: ignore[attr-defined]


# ------------------------------------------------------------------ starting hands

HANDS = [
    # edition, players, variants, cards dealt to p1 in order, p1's hand, cards set aside (redealt)
    # FUSE: "If the first card ... is a 3, 4, or 6 point card, then the second card must be a 1 or 2 point card"
    ("fuse", 2, (), ["F-019", "F-011", "F-001"], ["F-019", "F-001"], ["F-011"]),  # 4, 3 -> redeal -> 1
    ("fuse", 2, (), ["F-010", "F-018", "F-012", "F-006"], ["F-010", "F-006"], ["F-018", "F-012"]),  # 3; 4, 3; 2
    ("fuse", 2, (), ["F-010", "F-007"], ["F-010", "F-007"], []),  # 3 then 2
    ("fuse", 2, (), ["F-001", "F-019"], ["F-001", "F-019"], []),  # a 1 first: anything may follow
    ("fuse", 2, (), ["F-009", "F-011"], ["F-009", "F-011"], []),  # a 2 first
    ("fuse", 2, ("hard-cards",), ["F-024", "F-015", "F-002"], ["F-024", "F-002"], ["F-015"]),  # 6, 4 -> 1
    # Countdown: "If a player's first card is worth 4-6 points, then their second card must be worth 1-3"
    ("countdown", 2, (), ["C-G29", "C-G39", "C-G19"], ["C-G29", "C-G19"], ["C-G39"]),  # 4, 5 -> 3
    ("countdown", 2, (), ["C-G47", "C-G30", "C-G01"], ["C-G47", "C-G01"], ["C-G30"]),  # 6, 4 -> 1
    ("countdown", 2, (), ["C-G39", "C-G12"], ["C-G39", "C-G12"], []),  # 5 then 2
    ("countdown", 2, (), ["C-G19", "C-G47"], ["C-G19", "C-G47"], []),  # a 3 first: anything may follow
    # solo: "at least 3 different value cards (1,1,2,3 or 2,3,3,4, etc)"
    ("fuse", 1, (), ["F-001", "F-002", "F-003", "F-006", "F-007", "F-010"],
     ["F-001", "F-002", "F-006", "F-010"], ["F-003", "F-007"]),
    ("fuse", 1, (), ["F-010", "F-011", "F-019", "F-020", "F-007"], ["F-010", "F-011", "F-019", "F-007"], ["F-020"]),
    ("countdown", 1, (), ["C-G01", "C-G02", "C-G12", "C-G19"], ["C-G01", "C-G02", "C-G12", "C-G19"], []),
    ("countdown", 1, (), ["C-G47", "C-G48", "C-G49", "C-G39", "C-G01"], ["C-G47", "C-G48", "C-G39", "C-G01"],
     ["C-G49"]),
]


@pytest.mark.parametrize(("edition", "players", "variants", "dealt", "kept", "aside"), HANDS)
def test_starting_hands(edition: str, players: int, variants: tuple[str, ...], dealt: list[str], kept: list[str],
                        aside: list[str]) -> None:
    config = GameConfig(edition, players, "standard", variants=frozenset(variants))
    state = play_log(Game(config), [f"deal p1 {c}" for c in dealt])
    assert hand(state, 0) == kept
    if players > 1:
        assert state.waiting_for() == "a card dealt to p2"  # p1's hand is complete
    # the replaced cards go back into the deck: the row can turn them up
    others = [["F-004", "F-005"] if edition == "fuse" else ["C-G03", "C-G04"]] * (players - 1)
    assert set(aside) <= first_row_reveal_outcomes(config, [dealt, *others])


def test_an_action_out_of_turn_is_refused_while_a_card_is_to_be_turned_up() -> None:
    # waiting_for() once built every task's words eagerly and failed on a reveal task's non-player argument
    state = play_log(Game(GameConfig("fuse", 2)), ["deal p1 F-G21", "deal p1 F-G10", "deal p2 F-G28", "deal p2 F-G04"])
    assert state.waiting_for() == "a card turned up"
    with pytest.raises(IllegalActionError, match="not now: the game waits for a card turned up"):
        act(state, "roll red1 red2 red3 red4")


def test_a_dealt_card_goes_to_the_player_whose_turn_it_is() -> None:
    state = play_log(Game(GameConfig("fuse", 2)), ["deal p1 F-001"])
    with pytest.raises(IllegalActionError, match="the next card goes to p1"):
        act(state, "deal p2 F-002")
    with pytest.raises(IllegalActionError, match="not in the deck"):
        act(state, "deal p1 F-001")


def test_six_point_cards_stay_in_the_box_unless_asked_for() -> None:
    """FUSE: "Remove these cards from the deck unless you want a more difficult game"."""
    sixes = {"F-022", "F-023", "F-024", "F-025", "F-G29"}
    state = Game(GameConfig("fuse", 3)).new_initial_state()
    assert sixes.isdisjoint(a.card for a, _ in state.chance_outcomes())  # type: ignore[attr-defined]
    with pytest.raises(IllegalActionError):
        act(state, "deal p1 F-024")
    hard = Game(GameConfig("fuse", 3, variants=frozenset({"hard-cards"}))).new_initial_state()
    assert sixes <= {a.card for a, _ in hard.chance_outcomes()}  # type: ignore[attr-defined]


# ------------------------------------------------------------------ the row, the deck and fuse cards

def test_fuse_setup_row_and_first_turn() -> None:
    state = start(GameConfig("fuse", 3), [["F-001", "F-002"], ["F-003", "F-004"], ["F-005", "F-009"]])
    assert state.row == list(FUSE_ROW)
    assert state.phase == "roll" and state.current_player() == CHANCE
    assert state.leader == 0 and bag_size(state) == 25
    assert state.describe().splitlines()[0] == "turn 1, leader p1, roll; bag 25 dice"


@pytest.mark.parametrize("edition", ["fuse", "countdown"])
def test_the_row_is_dealt_before_fuse_cards_are_shuffled_in(edition: str) -> None:
    config = GameConfig(edition, 2, "expert", fuse_cards=10 if edition == "countdown" else None)
    hands = [["F-001", "F-002"], ["F-003", "F-004"]] if edition == "fuse" else [["C-G01", "C-G02"], ["C-G03", "C-G04"]]
    state = play_log(Game(config), setup_log(hands, ()))
    for _ in range(5):
        outcomes = state.chance_outcomes()
        assert all(state.game.card(a.card).kind == "bomb" for a, _ in outcomes)  # type: ignore[attr-defined]
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        state.apply_action(outcomes[0][0])
    assert len(state.row) == 5


def solo_defuse(config: GameConfig) -> State:
    """A solo game whose first roll completes a card, defused taking the row's first card: the refill is next."""
    if config.edition == "fuse":
        state = start(config, [["F-002", "F-005", "F-009", "F-011"]])
        act(state, "roll blue1 yellow2 red3", "place blue1 F-002:1", "place yellow2 F-002:2", "place red3 F-002:3")
        return act(state, "defuse F-002 take F-006")
    state = start(config, [["C-G05", "C-G12", "C-G19", "C-G29"]], roles=["R-4"])
    act(state, "roll red2 blue5 green3", "ready", "place red2 C-G05:1", "place blue5 C-G05:2", "place green3 C-G05:3")
    return act(state, "defuse C-G05 take C-G07")


DECKS = [
    # config, bomb cards left in the deck after the row is dealt, fuse cards shuffled in
    (GameConfig("fuse", 1, "training"), 16 - 5, 6),
    (GameConfig("fuse", 1, "standard"), 19 - 5, 6),
    (GameConfig("fuse", 1, "insane"), 25 - 5, 6),
    (GameConfig("fuse", 1, "standard", variants=frozenset({"reference-deck-sizes"})), 21 - 5, 6),
    (GameConfig("fuse", 1, "standard", variants=frozenset({"reference-fuse-cards"})), 19 - 5, 0),
    # Countdown deals the hands from its bomb deck
    (GameConfig("countdown", 1, "training"), 19 - 4 - 5, 0),
    (GameConfig("countdown", 1, "standard"), 21 - 4 - 5, 0),
    (GameConfig("countdown", 1, "expert", fuse_cards=4), 24 - 4 - 5, 4),
    (GameConfig("countdown", 1, "heroic", fuse_cards=10), 28 - 4 - 5, 10),
    (GameConfig("countdown", 1, "elite", fuse_cards=1), 26 - 4 - 5, 1),
]


@pytest.mark.parametrize(("config", "bombs", "fuses"), DECKS)
def test_deck_after_setup(config: GameConfig, bombs: int, fuses: int) -> None:
    state = solo_defuse(config)
    assert state.phase == "reveal"
    outcomes = state.chance_outcomes()
    fuse_odds = sum(p for a, p in outcomes if state.game.card(a.card).kind == "fuse")  # type: ignore[attr-defined]
    assert fuse_odds == pytest.approx(fuses / (bombs + fuses))
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)


def test_defusing_returns_dice_takes_a_row_card_and_refills() -> None:
    state = solo_defuse(GameConfig("fuse", 1))
    assert bag_size(state) == 25  # the three dice went back into the bag
    assert hand(state, 0) == ["F-005", "F-009", "F-011", "F-006"]
    assert state.row == ["F-007", "F-008", "F-010", "F-012"]
    assert state.defused == ["F-002"]
    assert state.score()["bombs"] == 1
    act(state, "reveal F-016")
    assert state.row == ["F-016", "F-007", "F-008", "F-010", "F-012"]  # the new card takes the taken one's place


def test_fuse_cards_chain_on_refill() -> None:
    state = solo_defuse(GameConfig("fuse", 1))
    act(state, "reveal FF-01", "reveal FF-07")  # red, then 2: no dice on the cards, nothing to return
    assert state.phase == "reveal" and state.row == ["F-007", "F-008", "F-010", "F-012"]
    assert state.score()["fuses"] == 4
    outcomes = {a.card for a, _ in state.chance_outcomes()}  # type: ignore[attr-defined]
    assert "FF-01" not in outcomes and "FF-07" not in outcomes and "FF-02" in outcomes
    act(state, "reveal F-016")
    assert len(state.row) == 5 and state.phase in ("end-turn", "roll")


def test_a_bomb_defuse_must_take_a_row_card() -> None:
    state = start(GameConfig("fuse", 1), [["F-002", "F-005", "F-009", "F-011"]])
    act(state, "roll blue1 yellow2 red3", "place blue1 F-002:1", "place yellow2 F-002:2")
    with pytest.raises(IllegalActionError, match="still has empty chips"):
        act(state, "defuse F-002 take F-006")
    act(state, "place red3 F-002:3")
    with pytest.raises(IllegalActionError, match="take one of the row's cards"):
        act(state, "defuse F-002")
    with pytest.raises(IllegalActionError, match="take one of the row's cards"):
        act(state, "defuse F-002 take F-001")
    assert texts(state.legal_actions()) == [f"defuse F-002 take {c}" for c in FUSE_ROW]


# ------------------------------------------------------------------ advanced setups (FUSE)

LEVELS = ((4, 7), (3, 7), (2, 4), (1, 3))  # the rulebook's example for 3 players at Standard


def test_single_deck_setup() -> None:
    config = GameConfig("fuse", 3, "standard", setup="single-deck", levels=LEVELS)
    hands = [["F-001", "F-002"], ["F-003", "F-004"], ["F-005", "F-009"]]
    state = play_log(Game(config), setup_log(hands, ()))
    outcomes = {a.card for a, _ in state.chance_outcomes()}  # type: ignore[attr-defined]
    assert not outcomes & {c for h in hands for c in h}
    assert {state.game.card(c).points for c in outcomes} == {1, 2, 3, 4}
    for _ in range(5):
        state.apply_action(state.chance_outcomes()[0][0])
    assert len(state.row) == 5 and state.phase == "roll"


def test_single_deck_levels_short_after_the_hands() -> None:
    """Twelve 1-point cards asked for, but the hands took some of them: say so rather than break later."""
    config = GameConfig("fuse", 3, "standard", setup="single-deck", levels=((1, 12), (2, 9)))
    with pytest.raises(RulesError, match="cards worth 1"):
        play_log(Game(config), setup_log([["F-001", "F-002"], ["F-003", "F-004"], ["F-005", "F-009"]], ()))


def test_stacks_setup() -> None:
    """One face-up stack per level; a defuser may reveal a fuse card, then takes a card from a stack."""
    config = GameConfig("fuse", 1, "standard", setup="stacks", levels=((4, 6), (3, 5), (2, 4), (1, 4)))
    state = play_log(Game(config), setup_log([["F-002", "F-005", "F-009", "F-011"]], ()))
    tops = []
    for _ in range(4):  # one reveal per level: the top card of each stack
        outcomes = state.chance_outcomes()
        assert len({state.game.card(a.card).points for a, _ in outcomes}) == 1  # type: ignore[attr-defined]
        tops.append(outcomes[0][0].card)  # type: ignore[attr-defined]
        state.apply_action(outcomes[0][0])
    assert sorted(points(state, state.row)) == [1, 2, 3, 4] and state.row == tops
    act(state, "roll blue1 yellow2 red3", "place blue1 F-002:1", "place yellow2 F-002:2", "place red3 F-002:3")
    four = next(c for c in state.row if state.game.card(c).points == 4)
    assert f"defuse F-002 take {four} fuse" in texts(state.legal_actions())
    act(state, f"defuse F-002 take {four} fuse")
    outcomes = state.chance_outcomes()
    assert {state.game.card(a.card).kind for a, _ in outcomes} == {"fuse"}  # type: ignore[attr-defined]
    act(state, "reveal FF-11")  # a 6: nobody has one
    refill = state.chance_outcomes()
    assert {state.game.card(a.card).points for a, _ in refill} == {4}  # type: ignore[attr-defined]
    assert state.score()["fuses"] == 2


def test_fuse_card_choice_only_in_stacks() -> None:
    state = start(GameConfig("fuse", 1), [["F-002", "F-005", "F-009", "F-011"]])
    act(state, "roll blue1 yellow2 red3", "place blue1 F-002:1", "place yellow2 F-002:2", "place red3 F-002:3")
    with pytest.raises(IllegalActionError, match="only in the stacks setup"):
        act(state, "defuse F-002 take F-006 fuse")


# ------------------------------------------------------------------ the turn

def fuse_two_players() -> State:
    """FUSE, 2 players: p1 holds a stack and a 1-point card, p2 two 1-point cards."""
    return start(GameConfig("fuse", 2), [["F-017", "F-002"], ["F-001", "F-003"]])


def test_rolls_draw_the_right_number_of_dice_from_the_bag() -> None:
    state = fuse_two_players()
    with pytest.raises(IllegalActionError, match="draws 4 dice, not 3"):
        act(state, "roll red1 red2 red3")
    with pytest.raises(IllegalActionError, match="holds 0 black/yellow dice"):
        act(state, "roll red1 red2 red3 black/yellow4")
    with pytest.raises(IllegalActionError, match="not now: the game waits for the leader's roll"):
        act(state, "place red1 F-002:1")
    act(state, "roll yellow5 red5 blue2 green6")
    assert bag_size(state) == 21 and state.current_player() == TEAM


@pytest.mark.parametrize(("players", "each"), [(1, 3), (2, 2), (3, 1)])
def test_each_player_takes_at_most_their_share(players: int, each: int) -> None:
    """Solo: all three dice; two players: two each; three or more: one each."""
    hands = [["F-001", "F-003"], ["F-004", "F-005"], ["F-009", "F-011"]][:players] if players > 1 else [
        ["F-001", "F-003", "F-009", "F-011"]]
    rolled = ["red1", "blue2", "green3", "yellow4"][: GameConfig("fuse", players).dice_per_roll]
    state = start(GameConfig("fuse", players), hands, then=["roll " + " ".join(rolled)])
    for die in rolled[:each]:
        card, chip = state.placements(0, Die.parse(die))[0]
        act(state, f"place {die} {card}:{chip}")
    assert sum(len(c.placed) for c in state.players[0].cards) == each
    if each == len(rolled):  # the solo player placed the whole roll: the turn is over
        assert state.turn == 1 and state.phase == "roll"
        return
    assert state.players[0].taken == each
    assert state.placements(0, Die.parse(rolled[each])) == []
    assert state.placements(1, Die.parse(rolled[each])) != []
    with pytest.raises(IllegalActionError, match=f"p1 has already taken {each} dice this turn"):
        act(state, f"place {rolled[each]} F-003:1")


def test_unused_dice_are_rolled_again_in_any_order() -> None:
    state = fuse_two_players()
    act(state, "roll yellow3 red2 black4 blue1", "place yellow3 F-002:2", "done")
    with pytest.raises(IllegalActionError, match="the unused dice are red black blue"):
        act(state, "unused green5")
    act(state, "unused blue6")  # the last die rolled first
    while state.phase == "lose":
        act(state, texts(state.legal_actions())[0])
    assert [t[1].colour for t in state.tasks if t[0] == "unused"] == ["black", "red"]
    act(state, "unused red4")
    assert [t[1].colour for t in state.tasks if t[0] == "unused"] == ["black"]


def test_the_players_return_their_matching_dice_in_any_order() -> None:
    """The rulebook has each player return a die at once: p2 may return before p1, whose return stays due."""
    state = fuse_two_players()
    act(state, "roll yellow5 red5 blue2 green6",
        "place yellow5 F-017:1", "place red5 F-017:2", "place blue2 F-001:1", "place green6 F-001:2")
    act(state, "roll yellow3 red2 black4 black1", "place red2 F-002:2", "place yellow3 F-003:1", "done")
    act(state, "unused black2")  # black or 2: p1's red2, p2's blue2
    assert [t[1] for t in state.tasks if t[0] == "lose"] == [0, 1]
    with pytest.raises(IllegalActionError, match="p2 must return a die matching black or 2 that is not safe"):
        act(state, "return F-001:2")  # green6 matches neither
    act(state, "return F-001:1")  # p2 first
    assert [t[1] for t in state.tasks if t[0] == "lose"] == [0]
    act(state, "return F-002:2")
    assert state.phase != "lose" and card_dice(state, "F-001") == {2: "green6"} and card_dice(state, "F-002") == {}


def test_unused_dice_are_rolled_and_each_player_returns_a_match() -> None:
    """FUSE, "Unused Dice": each player returns one die matching the colour or the number; dice under others
    in a stack are safe; a player with no match is unaffected; the die then goes back into the bag."""
    state = fuse_two_players()
    act(state, "roll yellow5 red5 blue2 green6",
        "place yellow5 F-017:1", "place red5 F-017:2",  # red5 on top of yellow5: yellow5 is safe
        "place blue2 F-001:1", "place green6 F-001:2")
    act(state, "roll yellow3 red2 black4 black1", "place yellow3 F-002:2", "place red2 F-003:1", "done")
    assert state.phase == "unused" and state.current_player() == CHANCE
    assert texts(state.chance_outcomes()[i][0] for i in range(6)) == [f"unused black{f}" for f in range(1, 7)]
    with pytest.raises(IllegalActionError, match="the unused die is black"):
        act(state, "unused red5")
    act(state, "unused black5")  # black or 5: p1's red5 (yellow5 is under it), p2 has neither
    assert state.current_player() == 0
    assert texts(state.legal_actions()) == ["return F-017:2"]
    with pytest.raises(IllegalActionError):
        act(state, "return F-017:1")
    act(state, "return F-017:2")
    assert card_dice(state, "F-017") == {1: "yellow5"}
    act(state, "unused black2")  # black or 2: p1 has none now, p2 chooses one of two
    assert state.current_player() == 1
    assert texts(state.legal_actions()) == ["return F-001:1", "return F-003:1"]
    act(state, "return F-003:1")
    assert card_dice(state, "F-001") == {1: "blue2", 2: "green6"} and card_dice(state, "F-003") == {}
    assert state.phase == "roll" and state.leader == 0 and state.turn == 2
    assert bag_size(state) == 21  # yellow5, blue2, green6 and yellow3 are on cards
    assert sum(state.dice_accounted().values()) == 25


def test_fuse_card_spares_completed_cards() -> None:
    """A card that has its last die is complete and safe from fuse cards, even before it is defused."""
    row = ("F-006", "F-007", "F-008", "F-010", "F-013")
    state = start(GameConfig("fuse", 2), [["F-002", "F-012"], ["F-009", "F-004"]], row)
    act(state, "roll blue1 red2 red1 black2",
        "place blue1 F-002:1", "place red2 F-002:2", "place red1 F-009:1", "place black2 F-009:2")
    act(state, "roll red3 red5 black3 red4",
        "place red3 F-002:3", "place red5 F-012:1", "place black3 F-009:3", "place red4 F-004:1")
    assert state.phase == "defuse"
    act(state, "defuse F-002 take F-006", "reveal FF-01")  # red
    assert state.current_player() == 0 and texts(state.legal_actions()) == ["return F-012:1"]
    act(state, "return F-012:1")
    assert texts(state.legal_actions()) == ["return F-004:1"]  # not F-009:1: that card is complete
    act(state, "return F-004:1", "reveal FF-06")  # a 1: only the complete card has one
    assert state.phase == "reveal"
    act(state, "reveal F-016")
    assert card_dice(state, "F-009") == {1: "red1", 2: "black2", 3: "black3"}
    assert state.score()["fuses"] == 4
    assert texts(state.legal_actions()) == [f"defuse F-009 take {c}" for c in state.row]


def test_early_defuse_in_two_player_games() -> None:
    """1-2 players may defuse before all rolled dice are placed, choosing a card for the remaining dice."""
    state = start(GameConfig("fuse", 2), [["F-002", "F-005"], ["F-001", "F-003"]])
    act(state, "roll blue1 yellow2 red3 red1", "place blue1 F-002:1", "place yellow2 F-002:2",
        "place red3 F-001:1", "place red1 F-003:1")
    act(state, "roll red4 blue6 green5 black1", "place red4 F-002:3")
    assert state.phase == "distribute" and "defuse F-002 take F-012" in texts(state.legal_actions())
    act(state, "defuse F-002 take F-012")
    assert state.phase == "reveal"
    act(state, "reveal F-016")
    assert state.phase == "distribute" and hand(state, 0) == ["F-005", "F-012"]
    act(state, "place green5 F-012:1")  # the new card takes the rest of p1's share
    assert card_dice(state, "F-012") == {1: "green5"}
    assert state.players[0].taken == 2


def test_no_early_defuse_with_three_players() -> None:
    state = start(GameConfig("fuse", 3), [["F-002", "F-005"], ["F-001", "F-003"], ["F-004", "F-009"]])
    act(state, "roll blue1 red1 green1", "place blue1 F-002:1", "place red1 F-003:1", "place green1 F-004:1")
    act(state, "roll yellow2 red4 black2", "place yellow2 F-002:2", "place red4 F-003:2", "place black2 F-009:2")
    act(state, "roll red3 green6 blue6", "place red3 F-002:3")
    assert card_dice(state, "F-002") == {1: "blue1", 2: "yellow2", 3: "red3"}
    assert state.phase == "distribute"
    assert not any(t.startswith("defuse") for t in texts(state.legal_actions()))
    with pytest.raises(IllegalActionError, match="only 1-2 player games defuse before the dice are all placed"):
        act(state, "defuse F-002 take F-006")
    act(state, "place green6 F-001:1", "done")
    assert state.phase == "defuse"
    act(state, "defuse F-002 take F-006")
    assert hand(state, 0) == ["F-005", "F-006"]


def test_clear_penalty_returns_the_cards_dice() -> None:
    state = fuse_two_players()
    act(state, "roll yellow5 red5 blue2 green6", "place yellow5 F-017:1", "place red5 F-017:2")
    act(state, "clear F-017")
    assert card_dice(state, "F-017") == {} and bag_size(state) == 23


# ------------------------------------------------------------------ scoring and the end

def test_time_runs_out() -> None:
    clock = ManualClock()
    game = Game(GameConfig("fuse", 1))
    state = game.new_initial_state(clock)
    for text in setup_log([["F-002", "F-005", "F-009", "F-011"]], FUSE_ROW):
        act(state, text)
    clock.advance(599.5)
    assert not state.check_time()
    act(state, "roll blue1 yellow2 red3", "place blue1 F-002:1")
    clock.advance(0.5)
    with pytest.raises(IllegalActionError, match="time ran out"):
        act(state, "place yellow2 F-002:2")
    assert state.is_terminal() and state.outcome == Outcome(False, "time")
    assert state.current_player() == TERMINAL and state.legal_actions() == []
    assert state.score() == {"win": 0, "time": 0, "bombs": 0, "sparks": 0, "fuses": 0, "total": 0}
    assert state.returns() == [0.0]
    with pytest.raises(IllegalActionError, match="the game is over"):
        act(state, "done")


def test_check_time_ends_the_game() -> None:
    clock = ManualClock()
    state = Game(GameConfig("countdown", 2)).new_initial_state(clock)
    clock.advance(600)
    assert state.check_time() and state.outcome == Outcome(False, "time")


def find_game(config: GameConfig, policy: object, seconds: float, reason: str) -> State:
    """The first seeded game that ends for ``reason``."""
    for seed in range(40):
        state = play_game(config, policy, seed, seconds)  # type: ignore[arg-type]
        if state.outcome is not None and state.outcome.reason == reason:
            return state
    raise AssertionError(f"no seeded {config} game ended with {reason!r}")


def test_the_bag_runs_empty() -> None:
    """A loss "if you ever need to draw dice from the bag and it is empty" (seeded: sparks soak up the dice)."""
    config = GameConfig("countdown", 4, "heroic")
    state = find_game(config, random_policy, 1.0, "bag empty")
    assert state.outcome == Outcome(False, "bag empty")
    assert bag_size(state) == 0 and state.phase == "over"
    assert state.score()["win"] == 0 and state.score()["time"] == 0
    replayed = Game(config).replay(state.log())
    assert replayed.outcome == Outcome(False, "bag empty")
    rolls = [text.split()[1:] for _, text in state.log() if text.startswith("roll")]
    assert 0 < len(rolls[-1]) < config.dice_per_roll  # "draw what is remaining and continue playing"


@pytest.mark.parametrize(("players", "dice"), [(6, 35), (7, 40), (8, 45), (9, 50)])
def test_epic_games_add_fuse_dice(players: int, dice: int) -> None:
    """Countdown's dice plus 10, 15, 20 or 25 FUSE dice; no card that needs a split die."""
    game = Game(GameConfig("countdown", players))
    assert game.dice.size == dice and game.dice.name == "epic"
    assert sum(k.count for k in game.dice.kinds if len(k.colours) == 2) == 5
    needs_split = [c.id for c in game.cards.values() if c.layout and any(a.split for ch in c.layout.chips
                                                                          for a in ch.atoms)]
    assert needs_split == []
    assert {c.kind for c in game.cards.values()} == {"bomb", "spark", "fuse"}


def expected_score(state: State) -> dict[str, int]:
    """The rulebooks' score, worked out from the game's log alone."""
    config, game = state.config, state.game
    hands = config.hand_size * config.players
    to_take = config.deck_size - (hands if config.edition == "countdown" else 0)  # bombs taken from the row
    taken = sparks_drawn = sparks_defused = defused_bombs = 0
    bombs = fuses = 0
    won_at = None
    for elapsed, text in state.log():
        words = text.split()
        if words[0] == "reveal" and game.card(words[1]).kind == "fuse":
            fuses += 1
        elif words[0] == "spark":
            sparks_drawn += 1
        elif words[0] == "defuse":
            card = game.card(words[1])
            if card.kind == "spark":
                sparks_defused += 1
            else:
                defused_bombs += 1
                bombs += card.points
                taken += "take" in words
            cleared = taken == to_take and sparks_drawn == sparks_defused
            if config.must_clear_own_cards:
                cleared = cleared and defused_bombs == to_take + hands
            if cleared and won_at is None:
                won_at = elapsed
    won = won_at is not None
    score = {
        "win": 10 if won else 0,
        "time": int((600 - won_at) // 10) if won_at is not None else 0,
        "bombs": bombs,
        "sparks": 2 * sparks_defused,
        "fuses": 2 * fuses,
    }
    return {**score, "total": sum(score.values())}


WON_GAMES = [
    (GameConfig("fuse", 1, "training"), 15.0),
    (GameConfig("fuse", 3, "training"), 5.0),
    (GameConfig("fuse", 5, "standard"), 1.0),
    (GameConfig("fuse", 2, "insane"), 1.0),
    (GameConfig("countdown", 2, "training"), 15.0),
    (GameConfig("countdown", 3, "standard"), 5.0),
    (GameConfig("countdown", 1, "heroic"), 1.0),
]


@pytest.mark.parametrize(("config", "seconds"), WON_GAMES)
def test_won_games_score_by_the_rulebook(config: GameConfig, seconds: float) -> None:
    state = find_game(config, greedy_policy, seconds, "cleared")
    assert state.outcome == Outcome(True, "cleared")
    assert state.row == [] and all(s.count == 0 for s in state.sources.values())
    assert not any(area.sparks() for area in state.players)
    if config.must_clear_own_cards:
        assert not any(area.bombs() for area in state.players)
    else:
        assert any(area.bombs() for area in state.players)  # "the cards in front of you turned out to be duds"
    assert state.score() == expected_score(state)
    assert state.returns() == [float(state.score()["total"])] * config.players


@pytest.mark.parametrize(("won_at", "points"), [(0.0, 60), (123.4, 47), (590.0, 1), (595.5, 0), (599.9, 0)])
def test_one_point_per_full_ten_seconds_left(won_at: float, points: int) -> None:
    config = GameConfig("fuse", 1, "training")
    log = find_game(config, greedy_policy, 15.0, "cleared").log()
    state = Game(config).replay([(won_at, text) for _, text in log])  # the same game, all of it at one moment
    assert state.outcome == Outcome(True, "cleared") and state.won_at == won_at
    score = state.score()
    assert (score["win"], score["time"]) == (10, points)
    assert score["total"] == 10 + points + score["bombs"] + score["fuses"]


@pytest.mark.parametrize("config", [GameConfig("fuse", 3), GameConfig("countdown", 3, "expert")])
def test_lost_games_score_cards_sparks_and_fuses_only(config: GameConfig) -> None:
    state = find_game(config, greedy_policy, 15.0, "time")
    assert state.outcome == Outcome(False, "time")
    score = state.score()
    assert score == expected_score(state) and score["win"] == score["time"] == 0 and score["total"] > 0


def test_insane_needs_the_players_own_cards_too() -> None:
    """At Insane the row and deck being clear is not yet a win; at Standard it is."""
    for difficulty, must in (("insane", True), ("standard", False)):
        config = GameConfig("fuse", 2, difficulty)
        log = find_game(config, greedy_policy, 1.0, "cleared").log()
        state = Game(config).new_initial_state()
        waited = False
        for _, text in log:
            act(state, text)
            cleared = state.defused and not state.row and not any(s.count for s in state.sources.values())
            if cleared and any(area.bombs() for area in state.players) and state.phase != "over":
                waited = True
                assert (state.won_at is None) is must
        assert waited and state.outcome == Outcome(True, "cleared")


@pytest.mark.parametrize("players", [1, 2, 3])
def test_countdown_is_not_won_while_sparks_are_in_play(players: int) -> None:
    """"If your team defuses enough bomb cards ... -AND- there are no spark cards currently in play"."""
    config = GameConfig("countdown", players, "training")
    waited = 0
    for seed in range(40):  # seeded games until one clears the bombs while sparks are still out
        log = play_game(config, greedy_policy, seed, 3.0).log()
        state = Game(config).new_initial_state()
        for _, text in log:
            act(state, text)
            cleared = state.defused and not state.row and not any(s.count for s in state.sources.values())
            if cleared and any(area.sparks() for area in state.players):
                assert state.won_at is None and not (state.outcome and state.outcome.won)
                waited += 1
        if waited and state.outcome == Outcome(True, "cleared"):
            break
    assert waited and state.outcome == Outcome(True, "cleared")


def test_no_row_card_to_take_once_the_row_is_empty() -> None:
    """At Insane the players defuse their own cards after the row is gone: nothing to take, and asking fails."""
    config = GameConfig("fuse", 2, "insane")
    log = find_game(config, greedy_policy, 1.0, "cleared").log()
    state = Game(config).new_initial_state()
    tried = False
    for _, text in log:
        if text.startswith("defuse") and not state.row:
            card = text.split()[1]
            with pytest.raises(IllegalActionError, match="take one of the row's cards: none left"):
                act(state.clone(), f"defuse {card} take F-001")
            assert f"defuse {card}" in texts(state.legal_actions())
            tried = True
        act(state, text)
    assert tried


def test_clone_is_independent() -> None:
    state = fuse_two_players()
    act(state, "roll yellow5 red5 blue2 green6")
    copy = state.clone()
    act(copy, "place yellow5 F-017:1", "done")
    assert card_dice(state, "F-017") == {} and state.phase == "distribute" and len(state.roll) == 4
    assert card_dice(copy, "F-017") == {1: "yellow5"}
    assert len(state.log()) + 2 == len(copy.log())
    act(state, "place red5 F-002:2")
    assert card_dice(copy, "F-002") == {}
