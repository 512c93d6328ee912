"""Placement legality: may this die go on this chip of this card, given the dice already there?

Three tiers, as in python-chess: ``judge`` returns a ``Verdict`` with a one-line reason and never raises for a
well-formed request; ``is_legal`` is its bool; ``place`` raises ``IllegalPlacementError`` with the reason.

A placement is legal when (card-notation.md, "What legal means"):
1. the die satisfies the chip;
2. every relation and equation whose chips are now all filled holds;
3. the order rules hold (stacks, pyramid/wall/ziggurat support, ``first``, ``last``);
4. the card can still be completed with dice of the edition's set that are not already on this card
   (a search over the set; dice on other cards count as available, as they can come back to the bag).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence

from rules.dice import DiceSet, Die
from rules.errors import IllegalPlacementError, RulesError
from rules.notation import COLOUR, NUMBER, Chip, Equation, Group, Layout, Relation, parse_layout

Placed = Mapping[int, Die]
"""Dice on a card: 1-based chip number -> die."""


class Verdict:
    """The answer to one placement; ``reason`` is empty when it is legal.

    The reason of an illegal verdict is worked out only when asked for: simulations need the bool alone.
    """

    __slots__ = ("legal", "_reason", "_explain")

    def __init__(self, legal: bool, reason: str = "", explain: Callable[[], str] | None = None) -> None:
        self.legal = legal
        self._reason = reason
        self._explain = explain

    @property
    def reason(self) -> str:
        if self._explain is not None:
            self._reason, self._explain = self._explain(), None
        return self._reason

    def __bool__(self) -> bool:
        return self.legal

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Verdict) and (self.legal, self.reason) == (other.legal, other.reason)

    def __hash__(self) -> int:
        return hash((self.legal, self.reason))

    def __repr__(self) -> str:
        return f"Verdict({self.legal!r}, {self.reason!r})"

    def __str__(self) -> str:
        return "ok" if self.legal else f"illegal: {self.reason}"


OK = Verdict(True)


class _Solver:
    """A layout compiled against one dice set, with a memo of completability per filling."""

    def __init__(self, layout: Layout, dice: DiceSet) -> None:
        self.layout = layout
        self.dice = dice
        chips = layout.chips
        self.n = len(chips)
        self.kind_index = {kind.colours: i for i, kind in enumerate(dice.kinds)}
        self.capacity = tuple(kind.count for kind in dice.kinds)
        self.relations_of: list[list[Relation]] = [[] for _ in chips]
        for rel in layout.relations:
            self.relations_of[rel.left].append(rel)
            self.relations_of[rel.right].append(rel)
        self.equations_of: list[list[Equation]] = [[] for _ in chips]
        for eq in layout.equations:
            for i in eq.chips:
                self.equations_of[i].append(eq)
        self.accepted: list[frozenset[Die]] = [
            frozenset(d for d in dice.possible_dice() if chip.accepts(d)) for chip in chips
        ]
        self.domains = [self._domain(i) for i in range(self.n)]
        self.below = layout.supports
        self.first = [i for i, c in enumerate(chips) if c.order == "first"]
        self.last = {i for i, c in enumerate(chips) if c.order == "last"}
        self.modes = self._projection_modes()
        self.keeps_all = not any(self.modes)
        self.memo: dict[tuple[object, ...], bool] = {}
        self.by_projection: dict[tuple[object, ...], tuple[int, ...]] = {}
        self.verdicts: dict[tuple[tuple[Die | None, ...], int, Die], Verdict] = {}
        self.chip_lists: dict[tuple[tuple[Die | None, ...], Die], tuple[int, ...]] = {}

    def legal_chips(self, filling: tuple[Die | None, ...], die: Die) -> tuple[int, ...]:
        key = (filling, die)
        chips = self.chip_lists.get(key)
        if chips is None:
            if len(self.chip_lists) > 200_000:  # bound the memos in long simulations
                self.forget()
            projected = (self.project(filling), die)
            chips = self.by_projection.get(projected)
            if chips is None:
                chips = self.by_projection[projected] = tuple(
                    i + 1 for i in range(self.n) if filling[i] is None and self.allows(filling, i, die)
                )
            self.chip_lists[key] = chips
        return chips

    def _projection_modes(self) -> tuple[int, ...]:
        """Per chip, what of a placed die the rest of the card can ever read: 0 all of it, 1 its colour,
        2 its number, 3 only that the chip is filled. Fillings that agree on that are the same position,
        which lets the memos answer for positions never seen die for die. Colours are always kept when the
        set has a kind with fewer dice than the card has chips, since then how many of a kind are used counts."""
        if any(kind.count < self.n for kind in self.dice.kinds):
            return (0,) * self.n
        modes = []
        for i in range(self.n):
            reads: set[str] = set()
            for rel in self.relations_of[i]:
                reads |= rel.aspects
            if self.equations_of[i]:
                reads.add(NUMBER)
            modes.append({frozenset((NUMBER, COLOUR)): 0, frozenset((COLOUR,)): 1, frozenset((NUMBER,)): 2}.get(
                frozenset(reads), 3))
        return tuple(modes)

    def project(self, filling: tuple[Die | None, ...]) -> tuple[object, ...]:
        """The filling reduced to what matters (see ``_projection_modes``)."""
        if self.keeps_all:
            return filling
        return tuple(
            d if d is None or m == 0 else d.colours if m == 1 else d.face if m == 2 else True
            for d, m in zip(filling, self.modes)
        )

    def forget(self) -> None:
        """Empty every memo (long simulations bound them; benchmarks measure from cold)."""
        for memo in (self.memo, self.verdicts, self.chip_lists, self.by_projection):
            memo.clear()

    def allows(self, filling: tuple[Die | None, ...], index: int, die: Die) -> bool:
        """``_judge(...).legal`` without building a reason: the simulator's hot path."""
        if filling[index] is not None or die not in self.accepted[index] or not self.order_allows(filling, index):
            return False
        after = filling[:index] + (die,) + filling[index + 1 :]
        return self._consistent(after, index) and self.can_complete(after)

    def order_allows(self, filling: tuple[Die | None, ...], index: int) -> bool:
        """Stack order, support from below, and the ``first``/``last`` chips."""
        if any(filling[j] is None for j in self.below.get(index, ())):
            return False
        for j in self.first:
            if j != index and filling[j] is None:
                return False
            if j == index and any(d is not None for d in filling):
                return False
        if index in self.last and sum(d is None for d in filling) > 1:
            return False
        return True

    def _domain(self, i: int) -> list[tuple[Die, int]]:
        """Candidate dice for chip ``i``, one per value that can make a difference, each with a bitmask of
        the die kinds that could show it (so colour-blind chips are not searched once per colour)."""
        reads = set()
        for rel in self.relations_of[i]:
            reads |= rel.aspects
        if self.equations_of[i]:
            reads.add(NUMBER)
        by_value: dict[Hashable, tuple[Die, int]] = {}
        for die in sorted(self.accepted[i], key=str):
            kind_bit = 1 << self.kind_index[die.colours]
            # what the chip itself and its constraints can tell apart
            key = (die.colours if COLOUR in reads else None, die.face if NUMBER in reads else None)
            if key not in by_value:
                by_value[key] = (die, kind_bit)
            else:
                rep, mask = by_value[key]
                by_value[key] = (rep, mask | kind_bit)
        # a chip that accepts only some colours or faces still narrows its kinds through its mask
        return list(by_value.values())

    def can_complete(self, filling: tuple[Die | None, ...]) -> bool:
        key = self.project(filling)
        known = self.memo.get(key)
        if known is None:
            if len(self.memo) > 200_000:
                self.memo.clear()
            known = self.memo[key] = self._search(filling)
        return known

    def _search(self, filling: tuple[Die | None, ...]) -> bool:
        remaining = list(self.capacity)
        for die in filling:
            if die is not None:
                remaining[self.kind_index[die.colours]] -= 1
        if min(remaining) < 0 or sum(d is None for d in filling) > sum(remaining):
            return False
        open_chips = [i for i, d in enumerate(filling) if d is None]
        assignment: list[Die | None] = list(filling)
        masks: list[int] = [0] * self.n
        return self._extend(assignment, masks, open_chips, 0, remaining)

    def _consistent(self, assignment: Sequence[Die | None], i: int) -> bool:
        die = assignment[i]
        assert die is not None
        for rel in self.relations_of[i]:
            a, b = assignment[rel.left], assignment[rel.right]
            if a is not None and b is not None and not rel.holds(a, b):
                return False
        for eq in self.equations_of[i]:
            total = eq.constant
            for coefficient, j in eq.terms:
                other = assignment[j]
                if other is None:
                    break
                total += coefficient * other.face
            else:
                if total:
                    return False
        return True

    def _extend(
        self, assignment: list[Die | None], masks: list[int], open_chips: list[int], k: int, remaining: list[int]
    ) -> bool:
        if k == len(open_chips):
            return _fits([masks[i] for i in open_chips], remaining)
        i = open_chips[k]
        for die, mask in self.domains[i]:
            assignment[i] = die
            masks[i] = mask
            if self._consistent(assignment, i) and self._extend(assignment, masks, open_chips, k + 1, remaining):
                assignment[i] = None
                return True
        assignment[i] = None
        return False


def _fits(masks: list[int], remaining: list[int]) -> bool:
    """Can each open chip get its own physical die, of a kind in its mask, within the counts left?"""
    if all(r >= len(masks) for r in remaining):
        return True
    if len(masks) > sum(remaining):
        return False
    order = sorted(masks, key=lambda m: bin(m).count("1"))
    failed: set[tuple[int, ...]] = set()  # (chips assigned, counts left) already known to fail

    def assign(k: int) -> bool:
        if k == len(order):
            return True
        key = (k, *remaining)
        if key in failed:
            return False
        for kind, left in enumerate(remaining):
            if left and order[k] >> kind & 1:
                remaining[kind] -= 1
                ok = assign(k + 1)
                remaining[kind] += 1
                if ok:
                    return True
        failed.add(key)
        return False

    return assign(0)


_solvers: dict[tuple[str, str], _Solver] = {}


def solver_for(layout: Layout, dice: DiceSet) -> _Solver:
    """The compiled solver for a layout and dice set (built once, then shared by equal layouts)."""
    cache = layout.solvers
    solver = cache.get(dice.name)
    if solver is None or solver.dice is not dice:
        key = (layout.text, dice.name)
        solver = _solvers.get(key)
        if solver is None or solver.dice is not dice:
            solver = _solvers[key] = _Solver(layout, dice)
        cache[dice.name] = solver
    return solver


def _filling(layout: Layout, placed: Placed) -> tuple[Die | None, ...]:
    filling: list[Die | None] = [None] * len(layout.chips)
    for number, die in placed.items():
        if not 1 <= number <= len(filling):
            raise RulesError(f"chip {number} does not exist: the card {str(layout)!r} has {len(filling)} chips")
        filling[number - 1] = die
    return tuple(filling)


def can_complete(layout: Layout, placed: Placed, dice: DiceSet) -> bool:
    """True if the chips still empty can be filled so that every rule of the card holds."""
    return solver_for(layout, dice).can_complete(_filling(layout, placed))


def _chip_label(chip: Chip) -> str:
    return f"chip {chip.number} ({chip.body})"


def _shown(die: Die, reads: set[str]) -> str:
    """A die as the rule sees it: ``6`` where only the number matters, ``red`` where only the colour does."""
    if reads == {NUMBER}:
        return str(die.face)
    if reads == {COLOUR}:
        return die.colour
    return str(die)


def _order_reason(layout: Layout, filling: tuple[Die | None, ...], index: int) -> str:
    chip = layout.chips[index]
    empty_below = [j for j in layout.supports.get(index, ()) if filling[j] is None]
    if empty_below:
        kind = layout.group_of(index).kind
        below = ", ".join(str(j + 1) for j in empty_below)
        rule = {
            "stack": "stack dice go on in the order written",
            "pyramid": "a die on an upper row needs both dice under it",
            "wall": "a die on the upper level needs the die beneath it",
            "ziggurat": "the top of a ziggurat goes on last, after all four below",
        }[kind]
        return f"{_chip_label(chip)} goes on chip {below}, still empty: {rule}"
    for other in layout.chips:
        j = other.number - 1
        if other.order == "first" and j != index and filling[j] is None:
            return (f"{_chip_label(chip)} cannot come before chip {other.number} ({other.body}): "
                    "it must receive the first die placed on this card")
        if other.order == "first" and j == index and any(d is not None for d in filling):
            return f"{_chip_label(chip)} must receive the first die placed on this card, but the card already has dice"
    if chip.order == "last":
        empty = [str(j + 1) for j, d in enumerate(filling) if d is None and j != index]
        if empty:
            return (f"{_chip_label(chip)} must receive the last die placed on this card; "
                    f"chip {', '.join(empty)} still empty")
    return ""


def _broken_rule(layout: Layout, filling: list[Die | None], index: int) -> str:
    chip = layout.chips[index]
    die = filling[index]
    assert die is not None
    for rel in layout.relations:
        if index not in (rel.left, rel.right):
            continue
        a, b = filling[rel.left], filling[rel.right]
        if a is None or b is None or rel.holds(a, b):
            continue
        other = rel.right if index == rel.left else rel.left
        aspects = " and ".join(sorted(rel.aspects))
        either = not rel.need_all and len(rel.aspects) == 2
        words = {
            "<": "the right die must show a greater number",
            ">": "the left die must show a greater number",
            "=": "must share the number or the colour" if either else f"must be the same {aspects}",
            "!=": "must differ in number or in colour" if either else f"must differ in {aspects}",
        }[rel.op]
        left, right = layout.chips[rel.left], layout.chips[rel.right]
        return (
            f"{_chip_label(chip)} = {die} breaks {left} {rel.op} {right} "
            f"with chip {other + 1} = {filling[other]}: {words}"
        )
    return ""


def _reads_of(layout: Layout, index: int) -> set[str]:
    """What the card's relations and equations read of the die on chip ``index``."""
    reads: set[str] = set()
    for rel in layout.relations:
        if index in (rel.left, rel.right):
            reads |= rel.aspects
    if any(index in eq.chips for eq in layout.equations):
        reads.add(NUMBER)
    return reads or {NUMBER, COLOUR}


def _group_text(layout: Layout, filling: list[Die | None], group: Group) -> str:
    """The group with each filled chip replaced by what the rules read of its die (``[#] - 6 = [#]``)."""
    parts = [] if group.kind == "plain" else [group.kind]
    for token in group.tokens:
        die = filling[token.number - 1] if isinstance(token, Chip) else None
        if die is not None:
            parts.append(_shown(die, _reads_of(layout, token.number - 1)))  # type: ignore[union-attr]
        else:
            parts.append("_" if token is None else str(token))
    return " ".join(parts)


def _unsolvable_reason(layout: Layout, filling: list[Die | None], index: int, dice: DiceSet) -> str:
    label = f"{_chip_label(layout.chips[index])} = {_shown(filling[index], _reads_of(layout, index))}"  # type: ignore[arg-type]
    for group in layout.groups:
        first = group.chips[0].number - 1
        own = tuple(filling[first : first + len(group.chips)])
        # the group alone, parsed afresh so that its chips are numbered from 1
        if not solver_for(parse_layout(str(group)), dice).can_complete(own):
            numbers_only = all(c.marked == {NUMBER} for c in group.chips)
            means = "faces 1-6" if numbers_only else f"the {dice.name} dice"
            return f"{label} leaves {_group_text(layout, filling, group)} unsolvable with {means}"
    return f"{label} leaves too few {dice.name} dice of the right kinds to fill the rest of the card"


def _false_equation(layout: Layout, filling: list[Die | None], index: int) -> str:
    group = layout.group_of(index)
    return f"{_chip_label(layout.chips[index])} = {filling[index]} makes {_group_text(layout, filling, group)} false"


def judge(layout: Layout, placed: Placed, chip: int, die: Die, dice: DiceSet) -> Verdict:
    """Judge placing ``die`` on chip number ``chip`` (1-based) of a card that already holds ``placed``."""
    filling = _filling(layout, placed)
    if not 1 <= chip <= len(filling):
        return Verdict(False, f"chip {chip} does not exist: the card {str(layout)!r} has {len(filling)} chips")
    solver = solver_for(layout, dice)
    key = (filling, chip, die)
    verdict = solver.verdicts.get(key)
    if verdict is None:
        if len(solver.verdicts) > 200_000:  # bound the memo in long simulations
            solver.verdicts.clear()
        verdict = solver.verdicts[key] = _judge(solver, filling, chip - 1, die)
    return verdict


def _judge(solver: _Solver, filling: tuple[Die | None, ...], index: int, die: Die) -> Verdict:
    layout, dice = solver.layout, solver.dice
    target = layout.chips[index]
    if filling[index] is not None:
        return Verdict(False, f"{_chip_label(target)} already holds {filling[index]}: placed dice cannot be moved")
    if die not in solver.accepted[index]:
        return Verdict(False, explain=lambda: _mismatch_reason(target, die, dice))
    if not solver.order_allows(filling, index):
        return Verdict(False, explain=lambda: _order_reason(layout, filling, index))
    after = list(filling)
    after[index] = die
    if not solver._consistent(after, index):
        return Verdict(
            False, explain=lambda: _broken_rule(layout, after, index) or _false_equation(layout, after, index)
        )
    if not solver.can_complete(tuple(after)):
        return Verdict(False, explain=lambda: _unsolvable_reason(layout, after, index, dice))
    return OK


def _mismatch_reason(chip: Chip, die: Die, dice: DiceSet) -> str:
    if chip.accepts(die):
        return f"{_chip_label(chip)}: the {dice.name} dice have no {die.colour} die"
    return f"{_chip_label(chip)} does not accept {die}: the die must match the chip"


def is_legal(layout: Layout, placed: Placed, chip: int, die: Die, dice: DiceSet) -> bool:
    """``judge(...).legal``; never raises for a chip number that exists."""
    return judge(layout, placed, chip, die, dice).legal


def place(layout: Layout, placed: Placed, chip: int, die: Die, dice: DiceSet) -> dict[int, Die]:
    """The card's dice after the placement; raises ``IllegalPlacementError`` with the reason if it is illegal."""
    verdict = judge(layout, placed, chip, die, dice)
    if not verdict:
        raise IllegalPlacementError(verdict.reason)
    return {**placed, chip: die}



def filling_of(layout: Layout, placed: Placed) -> tuple[Die | None, ...]:
    """The card's dice as one tuple, ``None`` for an empty chip: the key of every memo here."""
    return _filling(layout, placed)


def legal_chips(layout: Layout, placed: Placed, die: Die, dice: DiceSet) -> tuple[int, ...]:
    """Every chip number of this card where ``die`` may legally go now (memoised per filling and die)."""
    return solver_for(layout, dice).legal_chips(_filling(layout, placed), die)


def legal_placements(
    cards: Iterable[tuple[Hashable, Layout, Placed]], die: Die, dice: DiceSet
) -> list[tuple[Hashable, int]]:
    """All ``(card key, chip number)`` where ``die`` may legally go, across a player's cards."""
    return [(key, chip) for key, layout, placed in cards for chip in legal_chips(layout, placed, die, dice)]
