"""Where cards lie on a game table: the central row and decks, and each player's cards (world millimetres).

Imitates the rulebooks' setup: five face-up bomb cards in a row with the face-down deck at one end
(and the spark deck in Countdown), and around the table each player's bomb cards, facing them, with a
role card and spark cards in Countdown. Dice go only on players' cards; a fresh roll lies near the row.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from datasets.cards import catalog_faces
from datasets.geometry import rot as _rot
from datasets.scene import CARD_H_MM, CARD_W_MM, CardFace, PlacedCard
from datasets.style import Style


@dataclass
class Arrangement:
    cards: list[PlacedCard] = field(default_factory=list)
    fillable: list[int] = field(default_factory=list)
    """Indexes of players' face-up bomb and spark cards (dice may be on them)."""
    spots: list[tuple[float, float]] = field(default_factory=list)
    """Places worth looking at: each player's cards, the central row."""
    roll: tuple[float, float] = (0.0, 0.0)
    """Where the leader rolled the dice."""


def _pick(rng: np.random.Generator, faces: tuple[CardFace, ...]) -> CardFace:
    return faces[int(rng.integers(len(faces)))]


def _pile(
    rng: np.random.Generator,
    face: CardFace,
    x: float,
    y: float,
    angle: float,
    count: int,
    face_up: bool = False,
    faces: tuple[CardFace, ...] = (),
) -> list[PlacedCard]:
    """A pile of cards (only the top few are drawn: the rest are hidden under them)."""
    out = []
    for k in range(min(count, 3)):
        f = _pick(rng, faces) if faces else face
        out.append(
            PlacedCard(
                f,
                x + rng.normal(0, 1.2),
                y + rng.normal(0, 1.2),
                angle + rng.normal(0, 2.0),
                face_up,
                z=0.35 * (count - min(count, 3) + k),
            )
        )
    return out


def arrange(rng: np.random.Generator, style: Style, edition: str) -> Arrangement:
    faces = catalog_faces(edition)
    bombs, fuses, sparks, roles = faces["bomb"], faces["fuse"], faces["spark"], faces["role"]
    out = Arrangement()
    row_angle = rng.uniform(-8, 8)
    gap = rng.uniform(4, 28)
    pitch = CARD_W_MM + gap

    def add(card: PlacedCard, fillable: bool = False) -> None:
        if fillable:
            out.fillable.append(len(out.cards))
        out.cards.append(card)

    def glare() -> tuple[float, tuple[float, float]]:
        if rng.random() < style.glare_share:
            return float(rng.uniform(0.2, 0.8)), (float(rng.uniform(0.1, 0.9)), float(rng.uniform(0.1, 0.9)))
        return 0.0, (0.5, 0.5)

    # the central row of five face-up cards, the deck(s) at its end
    for k in range(5):
        x, y = _rot((k - 2) * pitch + rng.normal(0, 3), rng.normal(0, 3), row_angle)
        face = _pick(rng, fuses) if rng.random() < style.fuse_share else _pick(rng, bombs)
        g, at = glare()
        add(
            PlacedCard(
                face, x, y, row_angle + rng.normal(0, 3), rng.random() > style.face_down_share, glare=g, glare_at=at
            )
        )
    end = 1 if rng.random() < 0.5 else -1
    dx, dy = _rot(end * 3 * pitch + rng.normal(0, 5), rng.normal(0, 5), row_angle)
    for card in _pile(rng, _pick(rng, bombs), dx, dy, row_angle + rng.normal(0, 4), int(rng.integers(2, 20))):
        add(card)
    if edition == "countdown" and sparks:
        sx, sy = _rot(end * 3 * pitch, -(CARD_H_MM + gap), row_angle)
        for card in _pile(rng, _pick(rng, sparks), sx, sy, row_angle + rng.normal(0, 4), int(rng.integers(2, 25))):
            add(card)
    if rng.random() < 0.35 and fuses:
        fx, fy = _rot(-end * 3 * pitch + rng.normal(0, 5), rng.normal(0, 5), row_angle)
        for card in _pile(rng, fuses[0], fx, fy, row_angle + rng.normal(0, 6), int(rng.integers(1, 4)), True, fuses):
            add(card)
    out.spots.append((0.0, 0.0))

    # players around the table: near side first
    players = int(rng.integers(int(style.players[0]), int(style.players[1]) + 1))
    reach = rng.uniform(190, 330)
    seats = [
        (0.0, -reach, 0.0),
        (0.0, reach, 180.0),
        (-(2.5 * pitch + reach * 0.8), 0.0, -90.0),
        (2.5 * pitch + reach * 0.8, 0.0, 90.0),
    ]
    for p in range(players):
        sx, sy, facing = seats[p]
        sx, sy = _rot(sx, sy, row_angle)
        facing += row_angle
        hand: list[tuple[str, CardFace, bool]] = [
            ("bomb", _pick(rng, bombs), True) for _ in range(4 if players == 1 else 2)
        ]
        if edition == "countdown":
            if roles:
                hand.insert(0, ("role", _pick(rng, roles), rng.random() > 0.1))
            for _ in range(int(rng.integers(0, 4))):
                hand.append(("spark", _pick(rng, sparks), True))
        if rng.random() < 0.15:
            hand.append(("fuse", _pick(rng, fuses), True))
        p_gap = rng.uniform(6, 30)
        width = len(hand) * (CARD_W_MM + p_gap)
        for k, (kind, face, up) in enumerate(hand):
            lx = -width / 2 + (k + 0.5) * (CARD_W_MM + p_gap) + rng.normal(0, 4)
            ly = rng.normal(0, 5) - (20 if kind == "role" else 0)
            ox, oy = _rot(lx, ly, facing)
            g, at = glare()
            add(
                PlacedCard(face, sx + ox, sy + oy, facing + rng.normal(0, 6), up, glare=g, glare_at=at),
                fillable=up and kind in ("bomb", "spark"),
            )
        if edition == "countdown" and roles and rng.random() < 0.3:
            # unused role cards left lying about as a reference
            for k in range(int(rng.integers(1, 4))):
                rx, ry = _rot(-width / 2 - CARD_W_MM * 0.8, -CARD_H_MM * 0.6 + k * 12, facing)
                add(PlacedCard(_pick(rng, roles), sx + rx + rng.normal(0, 2), sy + ry, facing + rng.normal(0, 8), True))
        if rng.random() < 0.5:  # defused cards, face down beside the player
            px, py = _rot(width / 2 + CARD_W_MM * 0.7, -CARD_H_MM * 0.3, facing)
            for card in _pile(
                rng, _pick(rng, bombs), sx + px, sy + py, facing + rng.normal(0, 10), int(rng.integers(1, 8))
            ):
                add(card)
        out.spots.append((sx, sy))
    leader = out.spots[1 + int(rng.integers(players))]
    t = rng.uniform(0.3, 0.7)
    out.roll = (leader[0] * t + rng.normal(0, 40), leader[1] * t + rng.normal(0, 40))
    return out
