"""The card catalog: bomb, spark, fuse and role cards of each edition, read from text files in ``rules/data/catalog``.

One card per line, ``ID POINTS PROVENANCE BODY``; lines starting with ``#`` are comments. BODY is the card's
notation for bomb and spark cards, what a fuse card matches (colours and/or numbers, or one of the effects
``draw-spark``, ``lose-roles``, ``roll-six``) and ``key: ability`` for role cards. Provenance says where a card
comes from: ``transcribed`` (a real card, read off a photograph), ``uncertain`` (transcribed, part unclear),
``rulebook`` (stated in a rulebook), ``assumed`` (a guess at a real card), ``generated`` (a stand-in that follows
the real cards' mix until the real one is known) or ``user`` (added by a user).

Users add real cards to ``$FUSE_REFEREE_HOME/cards-<edition>.txt`` (default ``~/.fuse-referee``) with
``fuse-referee catalog add``; each one replaces a generated card of the same points, so decks keep their size.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from rules.dice import COLOURS, DiceSet, load_dice_set
from rules.errors import CatalogError, RulesError
from rules.legality import can_complete
from rules.notation import Layout, parse_layout

CATALOG_DIR = Path(__file__).parent / "data" / "catalog"
EDITIONS = ("fuse", "countdown")
KINDS = ("bomb", "spark", "fuse", "role")
PROVENANCES = ("transcribed", "uncertain", "rulebook", "assumed", "generated", "user")
FUSE_EFFECTS = ("draw-spark", "lose-roles", "roll-six")
DECK_SIZES = {("fuse", "bomb"): 54, ("fuse", "fuse"): 11, ("countdown", "bomb"): 52, ("countdown", "fuse"): 10,
              ("countdown", "spark"): 30, ("countdown", "role"): 7}
"""How many cards of each kind the published game has (rulebooks' component lists)."""

_LINE_RE = re.compile(r"^(?P<id>\S+)\s+(?P<points>\d+)\s+(?P<prov>[a-z]+)\s+(?P<body>.+?)\s*$")


@dataclass(frozen=True)
class Card:
    """One card of the catalog."""

    id: str
    edition: str
    kind: str
    """``bomb``, ``spark``, ``fuse`` or ``role``."""
    points: int
    body: str
    """Notation (bomb, spark), matched colours/numbers or effect (fuse), ``key: ability`` (role)."""
    provenance: str
    source: str = field(default="", compare=False)
    """``file:line`` the card was read from."""

    @cached_property
    def layout(self) -> Layout | None:
        return parse_layout(self.body) if self.kind in ("bomb", "spark") else None

    @cached_property
    def chip_count(self) -> int:
        return len(self.layout.chips) if self.layout is not None else 0

    @property
    def text(self) -> str:
        """The card's notation ('' for fuse and role cards)."""
        return self.body if self.kind in ("bomb", "spark") else ""

    @property
    def name(self) -> str:
        """A role's key (``cutter``), a fuse card's match or effect (``red``, ``6``, ``draw-spark``), else the id."""
        if self.kind == "role":
            return self.body.split(":", 1)[0].strip()
        return self.body if self.kind == "fuse" else self.id

    @property
    def ability(self) -> str:
        return self.body.split(":", 1)[1].strip() if self.kind == "role" else ""

    @property
    def fuse_effect(self) -> str:
        """``match`` for colour/number fuse cards, else the effect keyword."""
        return self.body if self.body in FUSE_EFFECTS else "match"

    @property
    def fuse_matches(self) -> tuple[str | int, ...]:
        """Colours and numbers a matching fuse card shows."""
        if self.kind != "fuse" or self.body in FUSE_EFFECTS:
            return ()
        return tuple(int(t) if t.isdigit() else t for t in self.body.split())

    @property
    def is_real(self) -> bool:
        return self.provenance != "generated"

    def __str__(self) -> str:
        return f"{self.id} {self.points} {self.provenance} {self.body}"


def parse_card_line(line: str, edition: str, kind: str, source: str = "") -> Card:
    """Read one catalog line; raises ``CatalogError`` quoting the line and saying what is wrong."""
    match = _LINE_RE.match(line.strip())
    if not match:
        raise CatalogError(f"{source}: cannot read {line.strip()!r}: expected 'ID POINTS PROVENANCE BODY'")
    card = Card(match["id"], edition, kind, int(match["points"]), match["body"], match["prov"], source)
    if card.provenance not in PROVENANCES:
        raise CatalogError(
            f"{source}: {card.id}: provenance {card.provenance!r} is not one of {', '.join(PROVENANCES)}"
        )
    _validate_body(card)
    return card


def _validate_body(card: Card) -> None:
    where = f"{card.source}: {card.id}"
    if card.kind in ("bomb", "spark"):
        try:
            card.layout  # noqa: B018 - parse now so a bad card fails at load time
        except RulesError as exc:
            raise CatalogError(f"{where}: {exc}") from None
        if card.kind == "bomb" and not 1 <= card.points <= 6:
            raise CatalogError(f"{where}: a bomb card is worth 1-6 points, not {card.points}")
    elif card.kind == "fuse" and card.body not in FUSE_EFFECTS:
        for token in card.body.split():
            if token not in COLOURS and token not in "123456":
                raise CatalogError(
                    f"{where}: fuse card shows {token!r}: "
                    f"expected colours, numbers 1-6 or one of {', '.join(FUSE_EFFECTS)}"
                )
    elif card.kind == "role" and ":" not in card.body:
        raise CatalogError(f"{where}: a role card is written 'key: ability'")


def read_cards(path: Path, edition: str, kind: str) -> list[Card]:
    cards = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if line.strip() and not line.lstrip().startswith("#"):
            cards.append(parse_card_line(line, edition, kind, f"{path.name}:{number}"))
    return cards


def user_home() -> Path:
    return Path(os.environ.get("FUSE_REFEREE_HOME", Path.home() / ".fuse-referee"))


def user_cards_path(edition: str) -> Path:
    return user_home() / f"cards-{edition}.txt"


@dataclass(frozen=True)
class Catalog:
    """All cards of one edition, with user-added real cards replacing generated ones of the same points."""

    edition: str
    cards: tuple[Card, ...]
    replaced: tuple[Card, ...] = ()
    """Generated cards left out because a real card took their place."""

    def of_kind(self, kind: str) -> tuple[Card, ...]:
        return tuple(c for c in self.cards if c.kind == kind)

    @property
    def bombs(self) -> tuple[Card, ...]:
        return self.of_kind("bomb")

    @property
    def sparks(self) -> tuple[Card, ...]:
        return self.of_kind("spark")

    @property
    def fuses(self) -> tuple[Card, ...]:
        return self.of_kind("fuse")

    @property
    def roles(self) -> tuple[Card, ...]:
        return self.of_kind("role")

    @cached_property
    def _by_id(self) -> dict[str, Card]:
        return {c.id: c for c in self.cards}

    def get(self, card_id: str) -> Card:
        try:
            return self._by_id[card_id]
        except KeyError:
            raise CatalogError(f"no card {card_id!r} in the {self.edition} catalog") from None

    def completeness(self) -> list[str]:
        """One line per kind: how many of the published cards are real and how many generated."""
        lines = []
        for (edition, kind), size in DECK_SIZES.items():
            if edition != self.edition:
                continue
            cards = self.of_kind(kind)
            real = sum(c.is_real for c in cards)
            known = sum(c.provenance in ("transcribed", "rulebook", "user") for c in cards)
            lines.append(
                f"{kind}: {len(cards)} of {size} cards; {known} known from real cards or the rulebook, "
                f"{real - known} assumed or partly unclear, {len(cards) - real} generated stand-ins"
            )
        return lines


def load_catalog(edition: str, user_file: Path | None = None, include_user: bool = True) -> Catalog:
    """The catalog of ``fuse`` or ``countdown``, plus the user's own cards (``user_file``, default per edition).

    Read once and kept until a catalog file changes (cards are immutable, so sharing them is safe).
    """
    if edition not in EDITIONS:
        raise CatalogError(f"unknown edition {edition!r}: expected {' or '.join(EDITIONS)}")
    user_path = user_file if user_file is not None else user_cards_path(edition)
    paths = sorted(CATALOG_DIR.glob(f"{edition}-*.txt")) + ([user_path] if include_user and user_path.exists() else [])
    stats = [(str(p), p.stat()) for p in paths]  # size too: an append within one timestamp tick must still count
    key = (edition, str(user_path), include_user, tuple((p, s.st_mtime_ns, s.st_size) for p, s in stats))
    if key not in _loaded:
        _loaded[key] = _read_catalog(edition, user_path, include_user)
    return _loaded[key]


_loaded: dict[tuple, Catalog] = {}


def _read_catalog(edition: str, user_path: Path, include_user: bool) -> Catalog:
    cards: list[Card] = []
    for path in sorted(CATALOG_DIR.glob(f"{edition}-*.txt")):
        kind = path.stem.split("-")[1].rstrip("s")
        cards += read_cards(path, edition, kind)
    replaced: list[Card] = []
    if include_user and user_path.exists():
        for user_card in read_cards(user_path, edition, "bomb"):
            stand_in = next(
                (c for c in reversed(cards) if c.provenance == "generated" and c.kind == "bomb"
                 and c.points == user_card.points),
                None,
            )
            if stand_in is not None:
                cards.remove(stand_in)
                replaced.append(stand_in)
            cards.append(user_card)
    return Catalog(edition, tuple(cards), tuple(replaced))


def check_catalog(catalog: Catalog, dice: DiceSet | None = None) -> list[str]:
    """Problems in the catalog: duplicate ids, cards that cannot be completed with the edition's dice."""
    dice = dice or load_dice_set(catalog.edition)
    problems = []
    seen: dict[str, Card] = {}
    for card in catalog.cards:
        if card.id in seen:
            problems.append(f"{card.source}: id {card.id} is used again (first at {seen[card.id].source})")
        seen[card.id] = card
        if card.layout is not None and not can_complete(card.layout, {}, dice):
            problems.append(f"{card.source}: {card.id} {card.body!r} cannot be completed with the {dice.name} dice")
    for (edition, kind), size in DECK_SIZES.items():
        count = len(catalog.of_kind(kind))
        if edition == catalog.edition and count != size:
            problems.append(f"{catalog.edition} has {count} {kind} cards; the published game has {size}")
    return problems


def add_user_card(edition: str, text: str, points: int, card_id: str | None = None) -> Card:
    """Validate a bomb card written as notation and its points, and append it to the user's card file."""
    catalog = load_catalog(edition)
    card_id = card_id or f"{edition[0].upper()}-U{sum(c.provenance == 'user' for c in catalog.cards) + 1:02d}"
    card = parse_card_line(f"{card_id} {points} user {text}", edition, "bomb", "new card")
    if any(c.id == card.id for c in catalog.cards):
        raise CatalogError(f"id {card.id} is already in the {edition} catalog")
    if not can_complete(card.layout, {}, load_dice_set(edition)):  # type: ignore[arg-type]
        raise CatalogError(f"{text!r} cannot be completed with the {edition} dice")
    path = user_cards_path(edition)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as handle:
        handle.write(f"{card}\n")
    return card
