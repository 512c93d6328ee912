"""What lies on the table: cards in play with their dice, players' areas, and face-down decks."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules.catalog import Card
from rules.dice import DiceSet, Die
from rules.legality import filling_of, solver_for


@dataclass
class CardInPlay:
    """A bomb or spark card in front of a player, with its dice.

    ``placed`` holds each die as the rules judged it (a colour changed by a role ability included);
    ``physical`` holds the die as it really is, which is what fuse cards and penalties match.
    """

    card: Card
    placed: dict[int, Die] = field(default_factory=dict)
    physical: dict[int, Die] = field(default_factory=dict)
    _filling: tuple[Die | None, ...] | None = field(default=None, repr=False, compare=False)
    _solver: Any = field(default=None, repr=False, compare=False)

    @property
    def id(self) -> str:
        return self.card.id

    @property
    def filling(self) -> tuple[Die | None, ...]:
        """The dice by chip, ``None`` where empty (cached until the dice change)."""
        if self._filling is None:
            assert self.card.layout is not None
            self._filling = filling_of(self.card.layout, self.placed)
        return self._filling

    def put(self, chip: int, die: Die, physical: Die | None = None) -> None:
        self.placed[chip] = die
        self.physical[chip] = physical or die
        self._filling = None

    def take(self, chip: int) -> Die:
        """Remove the die on ``chip``; returns the physical die."""
        del self.placed[chip]
        self._filling = None
        return self.physical.pop(chip)

    def take_all(self) -> list[Die]:
        dice = list(self.physical.values())
        self.placed.clear()
        self.physical.clear()
        self._filling = None
        return dice

    def legal_chips(self, die: Die, dice: DiceSet) -> tuple[int, ...]:
        """Chips where ``die`` may legally go now (none on a complete card)."""
        solver = self._solver
        if solver is None or solver.dice is not dice:
            solver = self._solver = solver_for(self.card.layout, dice)  # type: ignore[arg-type]
        return solver.legal_chips(self._filling or self.filling, die)

    @property
    def complete(self) -> bool:
        return len(self.placed) == self.card.chip_count

    @property
    def empty_chips(self) -> list[int]:
        """The chips (1-based) that hold no die yet."""
        return [k for k in range(1, self.card.chip_count + 1) if k not in self.placed]

    def safe_chips(self) -> set[int]:
        """Chips whose die is beneath another die, or in a ``first`` chip: fuse cards and rerolls cannot take them."""
        layout = self.card.layout
        assert layout is not None
        safe = {c.number for c in layout.chips if c.order == "first"}
        for upper, lower in layout.supports.items():
            if upper + 1 in self.placed:
                safe.update(j + 1 for j in lower)
        return safe

    def copy(self) -> CardInPlay:
        return CardInPlay(self.card, dict(self.placed), dict(self.physical), self._filling, self._solver)

    def describe(self) -> str:
        dice = " ".join(f"{chip}={die}" for chip, die in sorted(self.placed.items()))
        return f"{self.card.id} {self.card.body}" + (f" [{dice}]" if dice else "")


@dataclass
class PlayerArea:
    """One player's cards (bombs and sparks), role and the dice taken this turn."""

    cards: list[CardInPlay] = field(default_factory=list)
    role: Card | None = None
    role_active: bool = True
    taken: int = 0

    def copy(self) -> PlayerArea:
        return PlayerArea([c.copy() for c in self.cards], self.role, self.role_active, self.taken)

    def bombs(self) -> list[CardInPlay]:
        return [c for c in self.cards if c.card.kind == "bomb"]

    def sparks(self) -> list[CardInPlay]:
        return [c for c in self.cards if c.card.kind == "spark"]


@dataclass
class Source:
    """A face-down pile whose order nobody knows: ``count`` cards drawn at random from ``pool``.

    A FUSE deck of 21 cards drawn from 54 is a source with a pool of the unseen cards and a count of 21;
    a reveal picks one unseen card, so a replay names the card and a simulation samples it.
    """

    pool: list[str]
    count: int

    def copy(self) -> Source:
        return Source(list(self.pool), self.count)

    def take(self, card_id: str) -> None:
        self.pool.remove(card_id)
        self.count -= 1

    def put_back(self, card_id: str) -> None:
        self.pool.append(card_id)
        self.count += 1
