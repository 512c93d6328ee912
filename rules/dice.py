"""Dice: colours, faces, split dice and each edition's dice set (loaded from ``rules/data``)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import NamedTuple

from rules.errors import DieError

COLOURS: tuple[str, ...] = ("red", "blue", "green", "yellow", "black")
SHORT_COLOURS: dict[str, str] = {"R": "red", "B": "blue", "G": "green", "Y": "yellow", "K": "black"}
FACES: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
DATA_DIR = Path(__file__).parent / "data"

_DICE: dict[tuple[tuple[str, ...], int], Die] = {}
_COLOUR_WORD = r"(?:red|blue|green|yellow|black|[RBGYK])"
_DIE_RE = re.compile(rf"^({_COLOUR_WORD})(?:/({_COLOUR_WORD}))?([1-6])$", re.IGNORECASE)


def parse_colour(word: str) -> str:
    """``'R'`` or ``'red'`` (any case) -> ``'red'``; raises ``DieError`` for anything else."""
    if word.upper() in SHORT_COLOURS and len(word) == 1:
        return SHORT_COLOURS[word.upper()]
    if word.lower() in COLOURS:
        return word.lower()
    raise DieError(f"unknown colour {word!r}: expected one of {', '.join(COLOURS)} or R B G Y K")


def canonical_colours(colours: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """Colours of one die in a fixed order (alphabetical), so ``yellow/black`` == ``black/yellow``."""
    return tuple(sorted(set(colours)))


class _DieValue(NamedTuple):
    colours: tuple[str, ...]
    face: int


class Die(_DieValue):
    """One die as it lies: its colour(s) and the face showing. ``str(Die.parse('red5')) == 'red5'``.

    ``colours`` holds one colour, or two for a split die, in alphabetical order; ``face`` is the number on
    top, 1-6. A small immutable value: each (colours, face) exists once, so the rules' memos compare dice
    by identity and hash them in C (a tuple underneath).
    """

    __slots__ = ()

    def __new__(cls, colours: tuple[str, ...], face: int) -> Die:
        if type(colours) is not tuple:
            colours = tuple(colours)
        known = _DICE.get((colours, face))
        if known is not None:
            return known
        if not 1 <= len(colours) <= 2 or any(c not in COLOURS for c in colours) or len(set(colours)) != len(colours):
            raise DieError(f"a die has one or two different colours of {', '.join(COLOURS)}, not {colours!r}")
        if face not in FACES:
            raise DieError(f"a die shows 1-6, not {face!r}")
        canonical = canonical_colours(colours)
        die = _DICE.get((canonical, face)) or super().__new__(cls, canonical, face)
        _DICE[(colours, face)] = _DICE[(canonical, face)] = die
        return die

    def __getnewargs__(self) -> tuple[tuple[str, ...], int]:
        return (self.colours, self.face)

    @classmethod
    def parse(cls, text: str) -> Die:
        """Read ``red5``, ``R5`` or a split die ``black/yellow2``."""
        match = _DIE_RE.match(text.strip())
        if not match:
            raise DieError(
                f"cannot read die {text!r}: expected a colour and a face like 'red5', 'K3' or 'black/yellow2'"
            )
        first, second, face = match.groups()
        colours = (parse_colour(first),) + ((parse_colour(second),) if second else ())
        if len(set(colours)) != len(colours):
            raise DieError(f"cannot read die {text!r}: a split die has two different colours")
        return cls(colours, int(face))

    @property
    def colour(self) -> str:
        """``'red'``, or ``'black/yellow'`` for a split die."""
        return "/".join(self.colours)

    @property
    def is_split(self) -> bool:
        return len(self.colours) == 2

    def has_colour(self, colour: str) -> bool:
        """A split die counts as both of its colours at all times."""
        return colour in self.colours

    def shares_colour(self, other: Die) -> bool:
        """Same colour: at least one colour in common (a split die matches either of its colours)."""
        return any(c in other.colours for c in self.colours)

    def with_face(self, face: int) -> Die:
        return Die(self.colours, face)

    def __str__(self) -> str:
        return f"{self.colour}{self.face}"

    def __repr__(self) -> str:
        return f"Die.parse({str(self)!r})"


@dataclass(frozen=True, slots=True)
class DieKind:
    """A kind of physical die in a set: its colours, its faces and how many the set has."""

    colours: tuple[str, ...]
    count: int
    opposites: tuple[tuple[int, int], ...]
    """The three pairs of opposite faces, e.g. ``((1, 6), (2, 4), (3, 5))`` for FUSE."""
    assumed: str = ""
    """What of this kind is a guess rather than a fact (empty when all is known)."""

    @property
    def faces(self) -> tuple[int, ...]:
        return tuple(sorted(f for pair in self.opposites for f in pair))

    def opposite(self, face: int) -> int:
        for a, b in self.opposites:
            if face == a:
                return b
            if face == b:
                return a
        raise DieError(f"a {'/'.join(self.colours)} die has no face {face}")

    @property
    def name(self) -> str:
        return "/".join(self.colours)


@dataclass(frozen=True)
class DiceSet:
    """All the dice of one edition (or combination), as counts per kind."""

    name: str
    kinds: tuple[DieKind, ...]

    @property
    def size(self) -> int:
        return sum(k.count for k in self.kinds)

    @cached_property
    def faces(self) -> dict[tuple[str, ...], tuple[int, ...]]:
        """Each kind's faces by its colours."""
        return {kind.colours: kind.faces for kind in self.kinds}

    def kind_of(self, die: Die) -> DieKind:
        for kind in self.kinds:
            if kind.colours == die.colours:
                return kind
        raise DieError(f"the {self.name} dice set has no {die.colour} die")

    def all_dice(self) -> list[Die]:
        """One ``Die`` per physical die (face 1 up), in a fixed order: the contents of a full bag."""
        return [Die(kind.colours, kind.faces[0]) for kind in self.kinds for _ in range(kind.count)]

    def possible_dice(self) -> tuple[Die, ...]:
        """Every (colours, face) a die of this set can show."""
        return tuple(Die(kind.colours, face) for kind in self.kinds for face in kind.faces)

    def plus(self, other: DiceSet, name: str) -> DiceSet:
        """Both sets together (epic games add FUSE dice to the Countdown set)."""
        counts: dict[tuple[str, ...], DieKind] = {k.colours: k for k in self.kinds}
        for kind in other.kinds:
            mine = counts.get(kind.colours)
            counts[kind.colours] = (
                kind if mine is None else DieKind(kind.colours, mine.count + kind.count, mine.opposites, mine.assumed)
            )
        return DiceSet(name, tuple(counts.values()))

    def limited(self, counts: dict[str, int], name: str) -> DiceSet:
        """This set with some kinds' counts replaced (``{'red': 2}``)."""
        return DiceSet(
            name,
            tuple(
                DieKind(k.colours, counts.get(k.name, k.count), k.opposites, k.assumed) for k in self.kinds
            ),
        )


@cache
def load_dice_set(edition: str) -> DiceSet:
    """The dice set of ``'fuse'`` or ``'countdown'`` from its data file."""
    path = DATA_DIR / f"dice_{edition}.json"
    if not path.exists():
        raise DieError(f"no dice set for edition {edition!r}: expected fuse or countdown")
    data = json.loads(path.read_text())
    kinds = tuple(
        DieKind(
            canonical_colours([parse_colour(c) for c in entry["colours"]]),
            int(entry["count"]),
            tuple((int(a), int(b)) for a, b in entry["opposites"]),
            entry.get("assumed", ""),
        )
        for entry in data["dice"]
    )
    return DiceSet(data["edition"], kinds)
