"""Card notation (``shared/docs/card-notation.md``): parse a card's one-line text into a ``Layout`` and print it back.

Details the notation page leaves open, settled here:

- Canonical text: tokens separated by one space, groups by ``"; "``, colours as full lowercase words,
  ``!=`` for "different" (``≠`` is read too). ``str(parse_layout(text)) == text`` for canonical text; for any
  other spelling (``R5``, extra spaces) the printed form parses to the same layout.
- What a chip's die is compared on by ``=`` and ``!=`` is what matters in both chips (their intersection).
  ``#`` marks the number, ``C`` the colour, ``#/C`` either (a relation holds if it holds on one), ``#C``
  both (it must hold on both). A chip with no such mark (``[?]``, ``[red]``, ``[5]``) takes what its
  neighbour's chip says matters; between two unmarked chips, both number and colour are compared.
  A relation whose two chips share nothing to compare (``[#] = [C]``) is a notation error.
- ``<`` and ``>`` always compare numbers. In an equation every chip contributes its number.
- Colours: a split die counts as both its colours, so "same colour" means a colour in common and
  "different colour" means no colour in common.
- Equations may appear only in plain groups (not inside a stack, pyramid, wall or ziggurat).
- A wall's upper row has one position per lower die (``_`` marks an empty one); a pyramid's rows shrink by
  one die each; a ziggurat has one die on top of the dice below.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from typing import Literal

from rules.dice import COLOURS, SHORT_COLOURS, Die
from rules.errors import NotationError

Kind = Literal["plain", "stack", "pyramid", "wall", "ziggurat"]
CONFIGURATIONS: tuple[str, ...] = ("stack", "pyramid", "wall", "ziggurat")
RELATIONS: tuple[str, ...] = ("=", "!=", "<", ">")
NUMBER, COLOUR = "number", "colour"


@dataclass(frozen=True, slots=True)
class Atom:
    """One alternative inside a chip: ``?``, ``#``, ``C``, ``#C``, ``red``, ``3``, ``red3``, ``blue#``, ``!red``,
    ``split``."""

    colour: str | None = None
    number: int | None = None
    matters: str = ""
    """Explicit "matters" mark: ``""``, ``"#"`` (number), ``"C"`` (colour) or ``"#C"`` (both)."""
    negated: bool = False
    split: bool = False

    def accepts(self, die: Die) -> bool:
        if self.split:
            return die.is_split
        if self.negated:
            return not die.has_colour(self.colour or "")
        if self.colour is not None and not die.has_colour(self.colour):
            return False
        return self.number is None or die.face == self.number

    def __str__(self) -> str:
        if self.split:
            return "split"
        if self.negated:
            return f"!{self.colour}"
        text = (self.colour or "") + (str(self.number) if self.number is not None else "") + self.matters
        return text or "?"


@dataclass(frozen=True, slots=True)
class Chip:
    """One white chip: a place for one die. ``number`` is 1-based, in written order."""

    number: int
    atoms: tuple[Atom, ...]
    """Alternatives: the chip accepts a die that any one of them accepts."""
    order: str = ""
    """``"first"``, ``"last"`` or ``""``."""

    def accepts(self, die: Die) -> bool:
        return any(atom.accepts(die) for atom in self.atoms)

    @property
    def marked(self) -> frozenset[str]:
        """What the chip's marks say matters for relations (empty when it has no ``#``/``C`` mark)."""
        found: set[str] = set()
        for atom in self.atoms:
            if "#" in atom.matters:
                found.add(NUMBER)
            if "C" in atom.matters:
                found.add(COLOUR)
        return frozenset(found)

    @property
    def needs_both(self) -> bool:
        """``#C``: a relation must hold on number and on colour."""
        return any(atom.matters == "#C" for atom in self.atoms)

    @property
    def body(self) -> str:
        """The text inside the brackets."""
        return (f"{self.order} " if self.order else "") + "/".join(str(a) for a in self.atoms)

    def __str__(self) -> str:
        return f"[{self.body}]"


@dataclass(frozen=True, slots=True)
class Relation:
    """``left op right`` between two neighbouring chips (0-based chip indexes)."""

    op: str
    left: int
    right: int
    aspects: frozenset[str]
    """What ``=``/``!=`` compare: ``{'number'}``, ``{'colour'}`` or both."""
    need_all: bool
    """With both aspects: True if the relation must hold on both, False if on either."""

    def holds(self, a: Die, b: Die) -> bool:
        if self.op == "<":
            return a.face < b.face
        if self.op == ">":
            return a.face > b.face
        same = self.op == "="
        results = []
        if NUMBER in self.aspects:
            results.append((a.face == b.face) == same)
        if COLOUR in self.aspects:
            # a split die has both colours: "same" needs one in common, "different" needs none in common
            results.append(a.shares_colour(b) == same)
        return all(results) if self.need_all else any(results)


@dataclass(frozen=True, slots=True)
class Equation:
    """``sum(coefficient * face) + constant == 0`` over the chips' numbers (0-based chip indexes)."""

    terms: tuple[tuple[int, int], ...]
    """``(coefficient, chip index)`` pairs; coefficients are +1 or -1."""
    constant: int

    @property
    def chips(self) -> tuple[int, ...]:
        return tuple(index for _, index in self.terms)

    def holds(self, faces: dict[int, int]) -> bool:
        return sum(c * faces[i] for c, i in self.terms) + self.constant == 0


Token = Chip | str | int | None
"""A group's written items: a ``Chip``, an operator or ``'|'``, an integer constant, or ``None`` for ``_``."""


@dataclass(frozen=True)
class Group:
    """One independent part of a card (the text between ``;``)."""

    kind: Kind
    tokens: tuple[Token, ...]
    relations: tuple[Relation, ...]
    equation: Equation | None

    @cached_property
    def chips(self) -> tuple[Chip, ...]:
        return tuple(t for t in self.tokens if isinstance(t, Chip))

    @property
    def rows(self) -> tuple[tuple[Chip | None, ...], ...]:
        """Rows bottom first; a row's items are chips, or ``None`` for an empty wall position."""
        rows: list[list[Chip | None]] = [[]]
        for token in self.tokens:
            if token == "|":
                rows.append([])
            elif token is None or isinstance(token, Chip):
                rows[-1].append(token)
        return tuple(tuple(r) for r in rows)

    def supports(self) -> dict[int, tuple[int, ...]]:
        """For each chip (0-based) the chips directly beneath it, which must hold dice before it can."""
        rows = self.rows
        below: dict[int, tuple[int, ...]] = {}
        if self.kind == "stack":
            chips = self.chips
            for lower, upper in zip(chips, chips[1:]):
                below[upper.number - 1] = (lower.number - 1,)
        elif self.kind == "pyramid":
            for lower_row, upper_row in zip(rows, rows[1:]):
                for j, chip in enumerate(upper_row):
                    below[chip.number - 1] = (lower_row[j].number - 1, lower_row[j + 1].number - 1)  # type: ignore[union-attr]
        elif self.kind == "wall":
            for lower, upper in zip(rows[0], rows[1]):
                if upper is not None:
                    below[upper.number - 1] = (lower.number - 1,)  # type: ignore[union-attr]
        elif self.kind == "ziggurat":
            base = tuple(c.number - 1 for c in rows[0] if c is not None)
            for chip in rows[1]:
                below[chip.number - 1] = base  # type: ignore[union-attr]
        return below

    def __str__(self) -> str:
        parts = [] if self.kind == "plain" else [self.kind]
        parts += ["_" if t is None else str(t) for t in self.tokens]
        return " ".join(parts)


@dataclass(frozen=True)
class Layout:
    """A parsed card: its groups and all its chips in number order."""

    groups: tuple[Group, ...]

    @cached_property
    def chips(self) -> tuple[Chip, ...]:
        return tuple(c for g in self.groups for c in g.chips)

    @cached_property
    def relations(self) -> tuple[Relation, ...]:
        return tuple(r for g in self.groups for r in g.relations)

    @cached_property
    def equations(self) -> tuple[Equation, ...]:
        return tuple(g.equation for g in self.groups if g.equation is not None)

    @cached_property
    def supports(self) -> dict[int, tuple[int, ...]]:
        """Chip (0-based) -> chips directly beneath it (stacks, pyramids, walls, ziggurats)."""
        merged: dict[int, tuple[int, ...]] = {}
        for group in self.groups:
            merged.update(group.supports())
        return merged

    def group_of(self, index: int) -> Group:
        for group in self.groups:
            if any(c.number - 1 == index for c in group.chips):
                return group
        raise IndexError(index)

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(g.kind for g in self.groups)

    @cached_property
    def solvers(self) -> dict:
        """Compiled legality solvers by dice set name (filled by ``rules.legality``)."""
        return {}

    @cached_property
    def text(self) -> str:
        """The canonical notation."""
        return "; ".join(str(g) for g in self.groups)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"parse_layout({self.text!r})"

    def __hash__(self) -> int:
        return hash(self.text)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Layout) and self.text == other.text


# ---------------------------------------------------------------- parsing

_TOKEN_RE = re.compile(
    r"\s+|\[(?P<chip>[^\[\]]*)\]|(?P<open>\[)|(?P<op>!=|≠|=|<|>|\+|-)|(?P<int>\d+)|(?P<bar>\|)|(?P<empty>_)"
    r"|(?P<semi>;)|(?P<word>[A-Za-z]+)|(?P<other>.)"
)
_COLOUR_NAMES = "|".join(COLOURS) + "|" + "|".join(SHORT_COLOURS)
_ATOM_RE = re.compile(
    rf"^(?:(?P<any>\?)|(?P<both>#C)|(?P<hash>#)|(?P<c>C)|(?P<split>split)|!(?P<neg>{_COLOUR_NAMES})"
    rf"|(?P<colour>{_COLOUR_NAMES})?(?P<num>[1-6])?(?P<chash>#)?)$",
    re.IGNORECASE,
)
_EXPECTED_ATOM = "expected a requirement such as ?, #, C, #/C, #C, red, 3, red3, blue#, !red or split"


def _colour(word: str) -> str:
    return SHORT_COLOURS[word.upper()] if len(word) == 1 else word.lower()


def _parse_atom(text: str, card: str, column: int) -> Atom:
    raw = text.strip()
    match = _ATOM_RE.match(raw)
    if not raw or not match or (raw.upper() == "C" and raw != "C"):
        raise NotationError(card, column, _EXPECTED_ATOM + (f", not {raw!r}" if raw else ""))
    if match["any"]:
        return Atom()
    if match["both"]:
        return Atom(matters="#C")
    if match["hash"]:
        return Atom(matters="#")
    if match["c"]:
        return Atom(matters="C")
    if match["split"]:
        return Atom(split=True)
    if match["neg"]:
        return Atom(colour=_colour(match["neg"]), negated=True)
    colour = _colour(match["colour"]) if match["colour"] else None
    number = int(match["num"]) if match["num"] else None
    if match["chash"] and (colour is None or number is not None):
        raise NotationError(card, column, "expected '#' after a colour alone (as in blue#)")
    if colour is None and number is None:
        raise NotationError(card, column, _EXPECTED_ATOM + f", not {raw!r}")
    return Atom(colour=colour, number=number, matters="#" if match["chash"] else "")


def _parse_chip(body: str, card: str, column: int, number: int) -> Chip:
    """``body`` is the text inside brackets; ``column`` is the 1-based column of its first character."""
    order = ""
    stripped = body.lstrip()
    offset = len(body) - len(stripped)
    for word in ("first", "last"):
        if re.match(rf"{word}\s", stripped, re.IGNORECASE):
            if order:
                raise NotationError(card, column + offset, f"expected first or last, not both {order} and {word}")
            order = word
            rest = stripped[len(word) :]
            offset += len(word) + len(rest) - len(rest.lstrip())
            stripped = rest.lstrip()
    atoms = []
    position = offset
    for part in stripped.split("/") if stripped else [""]:
        atoms.append(_parse_atom(part, card, column + position))
        position += len(part) + 1
    return Chip(number, tuple(atoms), order)


@dataclass
class _Item:
    value: Token
    column: int


def _tokenize(text: str) -> list[list[_Item | str]]:
    """Split into groups; each group is a list of items, with a leading configuration word as a str."""
    groups: list[list[_Item | str]] = [[]]
    chip_number = 0
    for match in _TOKEN_RE.finditer(text):
        column = match.start() + 1
        kind = match.lastgroup
        current = groups[-1]
        if kind is None:
            continue
        if kind == "chip":
            chip_number += 1
            current.append(_Item(_parse_chip(match["chip"], text, column + 1, chip_number), column))
        elif kind == "open":
            raise NotationError(text, len(text) + 1, "expected ']' to close the chip opened at column " f"{column}")
        elif kind == "op":
            current.append(_Item("!=" if match["op"] == "≠" else match["op"], column))
        elif kind == "int":
            current.append(_Item(int(match["int"]), column))
        elif kind == "bar":
            current.append(_Item("|", column))
        elif kind == "empty":
            current.append(_Item(None, column))
        elif kind == "semi":
            if not current:
                raise NotationError(text, column, "expected a group of chips before ';'")
            groups.append([])
        elif kind == "word":
            word = match["word"].lower()
            if word in CONFIGURATIONS and not current:
                current.append(word)
            elif word in CONFIGURATIONS:
                raise NotationError(text, column, f"expected {word!r} only at the start of a group")
            else:
                raise NotationError(
                    text, column,
                    f"expected a chip '[...]', an operator, or stack/pyramid/wall/ziggurat, not {match['word']!r}",
                )
        elif kind == "other":
            if match.group() == "]":
                raise NotationError(text, column, "expected '[' before ']'")
            raise NotationError(
                text, column,
                f"expected a chip '[...]', an operator (= != < > + -), a number, '|', '_' or ';', "
                f"not {match.group()!r}",
            )
    if not groups[-1]:
        raise NotationError(text, len(text) + 1, "expected a chip '[...]'" + (" after ';'" if len(groups) > 1 else ""))
    return groups


def _compare_aspects(a: Chip, b: Chip) -> tuple[frozenset[str], bool]:
    both = frozenset((NUMBER, COLOUR))
    aspects = (a.marked or both) & (b.marked or both)
    # with both aspects each chip is #/C, #C or unmarked: "either" only if one says #/C and none #C
    need_all = len(aspects) < 2 or a.needs_both or b.needs_both or not (a.marked or b.marked)
    return aspects, need_all


def _build_group(items: list[_Item | str], text: str) -> Group:
    kind: Kind = "plain"
    if items and isinstance(items[0], str):
        kind = items.pop(0)  # type: ignore[assignment]
    parts: list[_Item] = items  # type: ignore[assignment]
    tokens = tuple(p.value for p in parts)
    if not any(isinstance(t, Chip) for t in tokens):
        column = parts[0].column if parts else len(text) + 1
        raise NotationError(text, column, "expected a chip '[...]' in this group")
    if any(t in ("+", "-") for t in tokens):
        if kind != "plain":
            first = next(p for p in parts if p.value in ("+", "-"))
            raise NotationError(text, first.column, f"expected no equation inside a {kind}")
        return Group(kind, tokens, (), _build_equation(parts, text))
    relations = _build_relations(parts, text, kind)
    _check_rows(kind, parts, text)
    return Group(kind, tokens, relations, None)


def _build_relations(parts: list[_Item], text: str, kind: str) -> tuple[Relation, ...]:
    relations = []
    previous: _Item | None = None
    pending: _Item | None = None
    for part in parts:
        value = part.value
        if isinstance(value, Chip):
            if pending is not None:
                assert previous is not None and isinstance(previous.value, Chip)
                relations.append(_relation(pending, previous.value, value, text))
            previous, pending = part, None
        elif value in RELATIONS:
            if previous is None or pending is not None:
                raise NotationError(text, part.column, f"expected a chip before {value!r}")
            pending = part
        elif isinstance(value, int):
            raise NotationError(text, part.column, "expected a chip: a constant needs an equation with + or -")
        else:  # '|' or '_' end the current run of neighbours
            if pending is not None:
                raise NotationError(text, part.column, f"expected a chip after {pending.value!r}")
            previous = None
    if pending is not None:
        raise NotationError(text, len(text) + 1, f"expected a chip after {pending.value!r}")
    return tuple(relations)


def _relation(op_item: _Item, left: Chip, right: Chip, text: str) -> Relation:
    op = str(op_item.value)
    if op in ("<", ">"):
        return Relation(op, left.number - 1, right.number - 1, frozenset((NUMBER,)), True)
    aspects, need_all = _compare_aspects(left, right)
    if not aspects:
        raise NotationError(
            text, op_item.column, f"expected chips that share what matters: {left} {op} {right} compares nothing"
        )
    return Relation(op, left.number - 1, right.number - 1, aspects, need_all)


def _build_equation(parts: list[_Item], text: str) -> Equation:
    equals = [p for p in parts if p.value == "="]
    if len(equals) != 1:
        column = equals[1].column if len(equals) > 1 else parts[0].column
        raise NotationError(text, column, "expected exactly one '=' in an equation")
    terms: list[tuple[int, int]] = []
    constant = 0
    side = 1
    sign: int | None = 1  # None: a term was just read, an operator must follow
    for part in parts:
        value = part.value
        if value in ("+", "-", "="):
            if sign is not None:
                raise NotationError(text, part.column, f"expected a chip or a number before {value!r}")
            if value == "=":
                side = -1
            sign = -1 if value == "-" else 1
        elif isinstance(value, (Chip, int)):
            if sign is None:
                raise NotationError(text, part.column, "expected '+', '-' or '=' between terms of an equation")
            if isinstance(value, Chip):
                terms.append((sign * side, value.number - 1))
            else:
                constant += sign * side * value
            sign = None
        else:
            raise NotationError(text, part.column, f"expected a chip or a number in an equation, not {value!r}")
    if sign is not None:
        raise NotationError(text, len(text) + 1, "expected a chip or a number to end the equation")
    return Equation(tuple(terms), constant)


def _check_rows(kind: str, parts: list[_Item], text: str) -> None:
    rows: list[list[_Item]] = [[]]
    bars: list[_Item] = []
    for part in parts:
        if part.value == "|":
            bars.append(part)
            rows.append([])
        elif part.value is None or isinstance(part.value, Chip):
            rows[-1].append(part)
    if kind in ("plain", "stack"):
        if bars:
            raise NotationError(text, bars[0].column, "expected no '|': rows exist only in a pyramid, wall or ziggurat")
    elif len(rows) < 2:
        end = text.find(";", parts[-1].column)  # the end of this group: its ';' or the end of the card
        raise NotationError(text, end + 1 if end >= 0 else len(text) + 1, f"expected '|' and an upper row in a {kind}")
    empties = [p for row in (rows[:1] if kind == "wall" else rows) for p in row if p.value is None]
    if empties:
        raise NotationError(
            text, empties[0].column, "expected a chip: '_' marks an empty position in a wall's upper row"
        )
    if kind == "pyramid":
        for bar, lower, upper in zip(bars, rows, rows[1:]):
            if len(upper) != len(lower) - 1:
                raise NotationError(
                    text, bar.column, f"expected {len(lower) - 1} chip(s) after '|': each pyramid row has one die fewer"
                )
    elif kind == "wall":
        if len(rows) != 2 or len(rows[1]) != len(rows[0]):
            raise NotationError(
                text, bars[-1].column, f"expected one upper row of {len(rows[0])} positions (chips or '_') in a wall"
            )
    elif kind == "ziggurat":
        if len(rows) != 2 or len(rows[1]) != 1 or len(rows[0]) < 2:
            raise NotationError(
                text, bars[-1].column, "expected dice below '|' and exactly one die on top of a ziggurat"
            )


def parse_layout(text: str) -> Layout:
    """Parse a card's notation; raises ``NotationError`` pointing at the column that is wrong."""
    if not text.strip():
        raise NotationError(text, 1, "expected a card, such as '[#] - [#] = [#]'")
    return Layout(tuple(_build_group(items, text) for items in _tokenize(text)))
