"""Seeded random playouts of both editions, checking the engine's invariants on every state:

- every die is accounted for (bag, roll, unused, on cards) and matches the dice set;
- no card holds an illegal placement: its dice, re-judged in the order they were placed, are each legal, and the
  card can still be completed;
- the log replays: a twin game fed only the log's text stays identical, and ``Game.replay`` rebuilds the end;
- ``clone()`` is independent of the original;
- a state that is not over always offers an action; chance offers outcomes with odds summing to 1;
- a won game has its bombs cleared (and, in Countdown, no sparks; at Insane/Heroic, no own cards left)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rules import actions as A
from rules.clock import ManualClock
from rules.config import GameConfig
from rules.game import CHANCE, TEAM, Game, State
from rules.legality import can_complete, judge
from rules.simulate import greedy_policy, random_policy

CONFIGS = [
    # config, policy, seeds
    (GameConfig("fuse", 1, "standard"), "random", (1, 2)),
    (GameConfig("fuse", 2, "insane"), "greedy", (3,)),
    (GameConfig("fuse", 3, "expert"), "random", (4, 5)),
    (GameConfig("fuse", 5, "training"), "greedy", (6,)),
    (GameConfig("fuse", 2, "standard", setup="stacks", levels=((4, 6), (3, 6), (2, 4), (1, 4))), "random", (7,)),
    (GameConfig("fuse", 4, "elite", setup="single-deck", levels=((1, 6), (2, 6), (3, 7), (4, 7))), "greedy", (8,)),
    (GameConfig("countdown", 1, "expert", fuse_cards=10), "random", (9, 10)),
    (GameConfig("countdown", 2, "elite", fuse_cards=6), "random", (11, 12)),
    (GameConfig("countdown", 3, "standard"), "greedy", (13,)),
    (GameConfig("countdown", 4, "heroic", fuse_cards=10), "random", (14,)),
    (GameConfig("countdown", 6, "expert", fuse_cards=5), "random", (15,)),
]
CASES = [(config, policy, seed) for config, policy, seeds in CONFIGS for seed in seeds]
SECONDS_PER_TURN = 7.0


def snapshot(state: State) -> tuple:
    """A canonical description of a state: equal snapshots, equal states for every purpose the tests have."""
    waiting = state.current_player() == CHANCE and state.phase in ("roll", "reroll")
    return (
        state.describe(),
        tuple(sorted(state.score().items())),
        tuple(sorted(state.bag.items())),
        state.outcome,
        state.current_player(),
        tuple(state.row),
        tuple(map(str, state.roll)),
        tuple(state.log()),
        () if waiting else tuple(map(str, state.legal_actions())),
    )


def check_dice(state: State) -> None:
    expected = Counter({kind.colours: kind.count for kind in state.game.dice.kinds})
    assert state.dice_accounted() == expected
    assert all(n >= 0 for n in state.bag.values())


def check_cards(state: State) -> None:
    dice = state.game.dice
    for area in state.players:
        for card in area.cards:
            layout = card.card.layout
            assert layout is not None
            assert can_complete(layout, card.placed, dice), card.describe()
            placed: dict = {}
            for chip, die in card.placed.items():  # in the order the dice were placed
                verdict = judge(layout, placed, chip, die, dice)
                assert verdict.legal, f"{card.describe()}: {verdict}"
                placed[chip] = die


def check_won(state: State) -> None:
    if state.won_at is None:
        return
    assert not state.row and not any(s.count for s in state.sources.values())
    if state.config.uses_sparks:
        assert not any(area.sparks() for area in state.players)
    if state.config.must_clear_own_cards:
        assert not any(area.bombs() for area in state.players)


def check_offers(state: State) -> None:
    """Someone can act: a player or the team has a legal action, or chance has outcomes whose odds sum to 1."""
    player = state.current_player()
    if player == CHANCE:
        if state.phase not in ("roll", "reroll"):  # too many to list: only sampled
            assert sum(p for _, p in state.chance_outcomes()) == pytest.approx(1.0)
        return
    assert state.legal_actions(), f"no action in phase {state.phase}"
    assert player == TEAM or 0 <= player < len(state.players)


def check_clone(state: State, rng: random.Random) -> None:
    before = snapshot(state)
    copy = state.clone()
    assert snapshot(copy) == before
    if not copy.is_terminal():
        action = copy.sample_chance(rng) if copy.current_player() == CHANCE else rng.choice(copy.legal_actions())
        copy.apply_action(action)
    assert snapshot(state) == before


@pytest.mark.parametrize(("config", "policy", "seed"), CASES)
def test_invariants_hold_on_every_state(config: GameConfig, policy: str, seed: int) -> None:
    choose = {"random": random_policy, "greedy": greedy_policy}[policy]
    rng = random.Random(seed)
    game = Game(config)
    clock = ManualClock()
    state = game.new_initial_state(clock)
    twin = game.new_initial_state(ManualClock())  # fed only the log's text
    steps = 0
    while not state.is_terminal():
        if state.phase == "roll":
            clock.advance(SECONDS_PER_TURN)
        if state.check_time():
            break
        check_offers(state)
        if state.current_player() == CHANCE:
            action = state.sample_chance(rng)
            if state.phase not in ("roll", "reroll"):
                assert dict(state.chance_outcomes()).get(action, 0) > 0
        else:
            action = choose(state, rng)
            assert action in state.legal_actions()
        state.apply_action(action)
        elapsed, text = state.log()[-1]
        twin.clock.seconds = elapsed  # type: ignore[attr-defined]
        twin.apply_action(A.parse_action(text))
        check_dice(state)
        check_cards(state)
        check_won(state)
        assert snapshot(twin) == snapshot(state)
        if steps % 3 == 0:
            check_clone(state, rng)
        steps += 1
    assert state.outcome is not None and steps > 20
    replayed = game.replay(state.log())
    if state.outcome.reason == "time":  # running out of time is the clock's doing, not an action's
        replayed.clock.seconds = clock.elapsed()  # type: ignore[attr-defined]
        assert replayed.check_time()
    assert snapshot(replayed) == snapshot(state)


def test_playouts_reach_every_ending() -> None:
    """The seeded playouts above are not all the same game: wins, time and an empty bag all occur."""
    reasons = set()
    for config, policy, seed in CASES:
        choose = {"random": random_policy, "greedy": greedy_policy}[policy]
        rng = random.Random(seed)
        clock = ManualClock()
        state = Game(config).new_initial_state(clock)
        while not state.is_terminal():
            if state.phase == "roll":
                clock.advance(SECONDS_PER_TURN)
            if state.check_time():
                break
            state.apply_action(state.sample_chance(rng) if state.current_player() == CHANCE else choose(state, rng))
        reasons.add((state.outcome.won, state.outcome.reason))  # type: ignore[union-attr]
    assert {(True, "cleared"), (False, "time")} <= reasons
