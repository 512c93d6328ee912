"""Game actions, each a small frozen value with a text form that round-trips: ``parse_action(str(a)) == a``.

Players are numbered from 1 in text (``p1``) and from 0 in code. Cards in play are named by catalog id (each
card is in a game at most once), chips as ``CARD:CHIP``. Chance actions (deals, reveals, rolls) are what the
table or the simulator's random draw decided; the rest are the players' choices.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.dice import Die
from rules.errors import DieError, RulesError


def _player(word: str) -> int:
    if not (word.startswith("p") and word[1:].isdigit() and int(word[1:]) >= 1):
        raise RulesError(f"expected a player such as p1, not {word!r}")
    return int(word[1:]) - 1


def _chip_ref(word: str) -> tuple[str, int]:
    card, _, chip = word.rpartition(":")
    if not card or not chip.isdigit():
        raise RulesError(f"expected CARD:CHIP such as F-003:2, not {word!r}")
    return card, int(chip)


@dataclass(frozen=True)
class Deal:
    """Chance: a bomb card dealt face up to a player at setup."""

    player: int
    card: str
    chance = True

    def __str__(self) -> str:
        return f"deal p{self.player + 1} {self.card}"


@dataclass(frozen=True)
class DealRole:
    """Chance: a role card dealt to a player (Countdown)."""

    player: int
    card: str
    chance = True

    def __str__(self) -> str:
        return f"role p{self.player + 1} {self.card}"


@dataclass(frozen=True)
class Reveal:
    """Chance: the next card of the deck turned up (to the row, or a fuse card that activates)."""

    card: str
    chance = True

    def __str__(self) -> str:
        return f"reveal {self.card}"


@dataclass(frozen=True)
class Roll:
    """Chance: the dice the leader drew and rolled (or the dice re-rolled by an ability)."""

    dice: tuple[Die, ...]
    chance = True

    def __str__(self) -> str:
        return "roll " + " ".join(map(str, self.dice)) if self.dice else "roll"


@dataclass(frozen=True)
class RollUnused:
    """Chance (FUSE): an unused die rolled again; its colour and new face."""

    die: Die
    chance = True

    def __str__(self) -> str:
        return f"unused {self.die}"


@dataclass(frozen=True)
class DrawSpark:
    """Chance (Countdown): a spark card drawn by a player."""

    player: int
    card: str
    chance = True

    def __str__(self) -> str:
        return f"spark p{self.player + 1} {self.card}"


@dataclass(frozen=True)
class ExtraRoll:
    """Chance: a player's extra die for the "roll a 6" fuse card."""

    player: int
    face: int
    chance = True

    def __str__(self) -> str:
        return f"six-roll p{self.player + 1} {self.face}"


@dataclass(frozen=True)
class Name:
    """Leader (Cutter, Operations Engineer): the colour or number named before drawing."""

    value: str
    chance = False

    def __str__(self) -> str:
        return f"name {self.value}"


@dataclass(frozen=True)
class Change:
    """Leader's ability: rolled die ``index`` (0-based) now counts as ``die``."""

    index: int
    die: Die
    chance = False

    def __str__(self) -> str:
        return f"change {self.index} {self.die}"


@dataclass(frozen=True)
class Flip:
    """Disposal Expert: rolled die ``index`` turned to its opposite face."""

    index: int
    chance = False

    def __str__(self) -> str:
        return f"flip {self.index}"


@dataclass(frozen=True)
class Reroll:
    """Explosives Instructor: roll these rolled dice again (a ``Roll`` of them follows)."""

    indices: tuple[int, ...]
    chance = False

    def __str__(self) -> str:
        return "reroll " + " ".join(map(str, self.indices))


@dataclass(frozen=True)
class Ready:
    """Leader: done with the role ability; distribution starts."""

    chance = False

    def __str__(self) -> str:
        return "ready"


@dataclass(frozen=True)
class Place:
    """A player puts a rolled die on a chip of one of their cards."""

    die: Die
    card: str
    chip: int
    chance = False

    def __str__(self) -> str:
        return f"place {self.die} {self.card}:{self.chip}"


@dataclass(frozen=True)
class Discard:
    """Logistics Specialist: a rolled die back to the bag without penalty."""

    die: Die
    chance = False

    def __str__(self) -> str:
        return f"discard {self.die}"


@dataclass(frozen=True)
class Done:
    """The team has finished distributing this roll; dice not taken are unused."""

    chance = False

    def __str__(self) -> str:
        return "done"


@dataclass(frozen=True)
class Defuse:
    """A completed card is defused; ``take`` is the card taken from the row (empty if none is left)."""

    card: str
    take: str = ""
    fuse: bool = False
    """Advanced stacks setup: reveal and activate a fuse card first."""
    chance = False

    def __str__(self) -> str:
        return f"defuse {self.card}" + (f" take {self.take}" if self.take else "") + (" fuse" if self.fuse else "")


@dataclass(frozen=True)
class Return:
    """A player returns a die from a chip to the bag (fuse card or unused-die penalty)."""

    card: str
    chip: int
    chance = False

    def __str__(self) -> str:
        return f"return {self.card}:{self.chip}"


@dataclass(frozen=True)
class Clear:
    """Referee penalty: a card found with a wrong placement loses all its dice to the bag."""

    card: str
    chance = False

    def __str__(self) -> str:
        return f"clear {self.card}"


Action = (
    Deal | DealRole | Reveal | Roll | RollUnused | DrawSpark | ExtraRoll | Name | Change | Flip | Reroll | Ready
    | Place | Discard | Done | Defuse | Return | Clear
)


def parse_action(text: str) -> Action:
    """Read an action's text form; raises ``RulesError`` quoting the text."""
    words = text.split()
    if not words:
        raise RulesError("empty action")
    verb, args = words[0], words[1:]
    try:
        return _parse(verb, args)
    except (RulesError, DieError, ValueError, IndexError) as exc:
        raise RulesError(f"cannot read action {text!r}: {exc}") from None


def _parse(verb: str, args: list[str]) -> Action:
    simple = {"ready": Ready, "done": Done}
    if verb in simple:
        return simple[verb]()
    if verb == "deal":
        return Deal(_player(args[0]), args[1])
    if verb == "role":
        return DealRole(_player(args[0]), args[1])
    if verb == "reveal":
        return Reveal(args[0])
    if verb == "roll":
        return Roll(tuple(Die.parse(a) for a in args))
    if verb == "unused":
        return RollUnused(Die.parse(args[0]))
    if verb == "spark":
        return DrawSpark(_player(args[0]), args[1])
    if verb == "six-roll":
        return ExtraRoll(_player(args[0]), int(args[1]))
    if verb == "name":
        return Name(args[0])
    if verb == "change":
        return Change(int(args[0]), Die.parse(args[1]))
    if verb == "flip":
        return Flip(int(args[0]))
    if verb == "reroll":
        return Reroll(tuple(int(a) for a in args))
    if verb == "place":
        card, chip = _chip_ref(args[1])
        return Place(Die.parse(args[0]), card, chip)
    if verb == "discard":
        return Discard(Die.parse(args[0]))
    if verb == "defuse":
        take = args[2] if len(args) > 2 and args[1] == "take" else ""
        return Defuse(args[0], take, args[-1] == "fuse")
    if verb == "return":
        return Return(*_chip_ref(args[0]))
    if verb == "clear":
        return Clear(args[0])
    raise RulesError(f"unknown action {verb!r}")
