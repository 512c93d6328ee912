"""The hint solver: the distribution of a roll that is best for the team, with the reason in words.

Each player's cards are their own, so a distribution is a choice, per player, of which rolled dice they take
and where they put them. For every player and every set of dice they could take (one die, or two or three
in 1-2 player games) the solver searches the placements in order; then it picks the combination over players
that uses each die at most once and scores best. The score of a plan:

- a card completed now: 10 + 3 x its points (it is defused, and frees a chip-filled card from fuse risk);
- each die placed: 2, plus 1 per chip of the card already filled (finishing cards beats spreading dice);
- flexibility: how many kinds of die could still go on the card afterwards (a card with room is safer);
- each die left unused: in FUSE every player may lose a die matching its colour or number, counted as the
  dice at risk on incomplete cards; in Countdown each player who takes no die draws a spark (-6).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations

from rules.dice import DiceSet, Die
from rules.legality import judge
from rules.table import CardInPlay


@dataclass(frozen=True)
class Step:
    """One die onto one chip."""

    player: int
    die: Die
    card: str
    chip: int
    completes: bool = False
    points: int = 0


@dataclass(frozen=True)
class Hint:
    """A suggested distribution: its steps, the dice left unused, its score and the reason in words."""

    steps: tuple[Step, ...]
    unused: tuple[Die, ...]
    value: float
    reasons: tuple[str, ...] = field(default=())

    def __str__(self) -> str:
        return "\n".join(self.reasons)


def _flexibility(card: CardInPlay, dice: DiceSet) -> int:
    layout = card.card.layout
    assert layout is not None
    free = [c.number for c in layout.chips if c.number not in card.placed]
    return sum(
        any(judge(layout, card.placed, chip, die, dice).legal for chip in free) for die in dice.possible_dice()
    )


def _best_for_player(
    player: int, cards: Sequence[CardInPlay], take: tuple[Die, ...], dice: DiceSet
) -> tuple[float, tuple[Step, ...]] | None:
    """The best way for one player to place exactly the dice ``take`` (None if they cannot all go)."""
    best: tuple[float, tuple[Step, ...]] | None = None

    def search(cards_now: list[CardInPlay], left: tuple[Die, ...], steps: tuple[Step, ...], value: float) -> None:
        nonlocal best
        if not left:
            final = value + sum(_flexibility(c, dice) for c in cards_now if not c.complete) * 0.05
            if best is None or final > best[0]:
                best = (final, steps)
            return
        die, rest = left[0], left[1:]
        for k, card in enumerate(cards_now):
            if card.complete:
                continue
            layout = card.card.layout
            assert layout is not None
            for chip in layout.chips:
                if chip.number in card.placed or not judge(layout, card.placed, chip.number, die, dice).legal:
                    continue
                after = card.copy()
                after.put(chip.number, die)
                done = after.complete
                gain = 2 + len(card.placed) + (10 + 3 * card.card.points if done else 0)
                step = Step(player, die, card.id, chip.number, done, card.card.points if done else 0)
                search(cards_now[:k] + [after] + cards_now[k + 1 :], rest, steps + (step,), value + gain)

    search(list(cards), take, (), 0.0)
    return best


def _unused_cost(unused: Sequence[Die], players: Sequence[Sequence[CardInPlay]], edition: str, idle: int) -> float:
    if edition == "countdown":
        return 6.0 * idle
    cost = 0.0
    for die in unused:
        for cards in players:
            at_risk = [
                d for c in cards if not c.complete for chip, d in c.physical.items()
                if chip not in c.safe_chips() and (d.shares_colour(die) or d.face == die.face)
            ]
            cost += 3.0 * min(1, len(at_risk)) + 0.1 * len(at_risk)
    return cost


def suggest(
    players: Sequence[Sequence[CardInPlay]], roll: Sequence[Die], dice: DiceSet, per_player: int, edition: str = "fuse",
    names: Sequence[str] | None = None,
) -> Hint:
    """The best distribution of ``roll`` among ``players`` (each a list of their cards), at most
    ``per_player`` dice each."""
    names = names or [f"p{i + 1}" for i in range(len(players))]
    roll = tuple(roll)
    indices = range(len(roll))
    options: list[dict[tuple[int, ...], tuple[float, tuple[Step, ...]]]] = []
    for p, cards in enumerate(players):
        mine: dict[tuple[int, ...], tuple[float, tuple[Step, ...]]] = {(): (0.0, ())}
        for size in range(1, min(per_player, len(roll)) + 1):
            for picked in combinations(indices, size):
                if tuple(roll[i] for i in picked) in {tuple(roll[j] for j in k) for k in mine if len(k) == size}:
                    continue  # the same dice by another index: already searched
                found = _best_for_player(p, cards, tuple(roll[i] for i in picked), dice)
                if found is not None:
                    mine[picked] = found
        options.append(mine)

    best: tuple[float, list[tuple[int, ...]]] | None = None

    def choose(p: int, used: frozenset[int], value: float, picks: list[tuple[int, ...]]) -> None:
        nonlocal best
        if p == len(players):
            unused = [roll[i] for i in indices if i not in used]
            idle = sum(1 for k in picks if not k)
            total = value - _unused_cost(unused, players, edition, idle)
            if best is None or total > best[0]:
                best = (total, list(picks))
            return
        for picked, (gain, _) in options[p].items():
            if used.isdisjoint(picked):
                choose(p + 1, used | set(picked), value + gain, picks + [picked])

    choose(0, frozenset(), 0.0, [])
    assert best is not None
    steps = tuple(s for p, picked in enumerate(best[1]) for s in options[p][picked][1])
    used = {i for picked in best[1] for i in picked}
    unused = tuple(roll[i] for i in indices if i not in used)
    forced = {p for p, mine in enumerate(options) if len(mine) == 1}  # only the empty choice
    return Hint(steps, unused, best[0], tuple(_reasons(steps, unused, names, edition, best[1], forced)))


def _reasons(
    steps: Sequence[Step], unused: Sequence[Die], names: Sequence[str], edition: str, picks: list[tuple[int, ...]],
    idle_forced: set[int],
) -> list[str]:
    lines = []
    for step in steps:
        why = f"completes it (+{step.points} points)" if step.completes else "keeps the card completable"
        lines.append(f"{names[step.player]}: {step.die} on {step.card} chip {step.chip}: {why}")
    for p, picked in enumerate(picks):
        if not picked:
            cost = "draws a spark card" if edition == "countdown" else "takes no die"
            why = "no rolled die fits their cards" if p in idle_forced else "the others make better use of the dice"
            lines.append(f"{names[p]}: {cost}: {why}")
    for die in unused:
        if edition == "fuse":
            lines.append(f"{die} unused: each player may have to return a {die.colour} die or a {die.face}")
        else:
            lines.append(f"{die} unused: back to the bag")
    return lines
