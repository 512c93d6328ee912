"""What one frame shows of the table, after detection and card layout: the value the settled-state tracker
consumes. Plain frozen values in frame pixels; ``to_dict``/``from_dict`` round-trip through JSON."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

Point = tuple[float, float]
Box = tuple[float, float, float, float]


def colours(die: str) -> str:
    """A die's colours without its face: ``red`` of ``red5``, ``black/yellow`` of ``black/yellow2``."""
    return die.rstrip("0123456789")


@dataclass(frozen=True)
class ChipSpot:
    """Where the die of one chip of a recognised card rests, in frame pixels."""

    chip: int
    """1-based chip number, as in the card's notation."""
    centre: Point
    radius: float
    level: int = 0


@dataclass(frozen=True)
class CardSeen:
    """One card in one frame."""

    corners: tuple[Point, Point, Point, Point]
    """Corners of the printed face: top-left, top-right, bottom-right, bottom-left (as the card is read)."""
    type: str
    """``bomb``, ``fuse``, ``spark``, ``role`` or ``back``."""
    card_id: str | None
    """The catalog (or enrolled) card's id; None when it is not recognised: unknown, never guessed."""
    confidence: float
    chips: tuple[ChipSpot, ...] = ()
    likely: str | None = None
    """Unrecognised: the known card it looks most like (a twin of the right one, often the right one itself). A
    hint for the card reported meanwhile, never a claim: ``card_id`` stays None."""
    resembles: tuple[str, ...] = ()
    """Unrecognised, its face seen enough (``identify.MIN_SEEN``) but no card told from the rest: the known cards it
    looks most like, closest first (``identify.Identity.near``). Only a stand-in's pick, never a claim."""
    instead_of: str | None = None
    """Unrecognised, where the card ``instead_of`` was named before and shown whole as other cards than it: another
    card put in its place (the row card taken in a defuse), not that card under a hand."""


def chip_names(cards: tuple[CardSeen, ...]) -> list[str | None]:
    """The card name each card's dice are given on its chips: its id, or while it is unrecognised the card it
    looks most like (look-alike cards are twins whose chips lie alike), unless that card is recognised elsewhere
    in the frame or two unrecognised cards look most like it; None: its dice lie on no chip."""
    named = {c.card_id for c in cards if c.card_id}
    hints = [c.likely for c in cards if c.card_id is None and c.likely]
    return [c.card_id or (c.likely if c.likely and c.likely not in named and hints.count(c.likely) == 1 else None)
            for c in cards]


@dataclass(frozen=True)
class DieSeen:
    """One die in one frame."""

    die: str
    """``red5``, ``black/yellow2``: colour(s) and top face as ``rules.dice.Die`` prints them."""
    box: Box
    confidence: float
    on: tuple[str, int] | None = None
    """(card, chip) when it rests on a chip of a card (named as ``chip_names`` names it); None when loose."""
    level: int = 0
    """0 on the card, 1 on top of another die (a stack)."""


@dataclass(frozen=True)
class TableObservation:
    frame: int
    elapsed: float
    """Seconds since the recording or stream started."""
    width: int
    height: int
    cards: tuple[CardSeen, ...] = ()
    dice: tuple[DieSeen, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableObservation:
        cards = tuple(
            CardSeen(
                corners=tuple(tuple(p) for p in c["corners"]),  # type: ignore[arg-type]
                type=c["type"],
                card_id=c["card_id"],
                confidence=c["confidence"],
                chips=tuple(ChipSpot(s["chip"], tuple(s["centre"]), s["radius"], s["level"]) for s in c["chips"]),  # type: ignore[arg-type]
                likely=c.get("likely"),
                resembles=tuple(c.get("resembles", ())),
                instead_of=c.get("instead_of"),
            )
            for c in data["cards"]
        )
        dice = tuple(
            DieSeen(d["die"], tuple(d["box"]), d["confidence"], tuple(d["on"]) if d["on"] else None, d["level"])  # type: ignore[arg-type]
            for d in data["dice"]
        )
        return cls(data["frame"], data["elapsed"], data["width"], data["height"], cards, dice)
