"""Where things are printed on a bomb or spark card, and where each chip's die rests.

Card coordinates: millimetres on the 88 x 63 mm landscape face, origin top-left, y down; public
results are normalised (``u = x / 88``, ``v = y / 63``). Geometry follows fuse-physical.md: chips in one
row across the middle (plain groups), stacks as one large blank chip plus a row of small chips over an
arrow, pyramids as three large blank chips plus a small diagram; walls and ziggurats (Countdown) likewise
as large blank chips beside a side-view or top-down diagram. Sizes are guesses made to look like photos.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from datasets.scene import CARD_H_MM, CARD_W_MM
from rules.notation import Chip, Group, Layout, parse_layout

CHIP_MM = 14.0
OP_MM = 7.0
BIG_MM = 17.5
BIG_GAP_MM = 1.0
SMALL_MM = 7.0
GROUP_GAP_MM = 8.0
USABLE_X = (4.0, 84.0)
USABLE_Y = (11.0, 54.0)
ROW_GAP_MM = 3.0


@dataclass(frozen=True)
class Seat:
    """Where the die of one chip rests (the printed chip, or a large blank chip of a configuration)."""

    chip: int
    """1-based chip number, as in the notation."""
    u: float
    v: float
    """Centre, as fractions of the card's width (88 mm) and height (63 mm); v grows downwards."""
    size: float
    """Side of the chip the die sits on, as a fraction of the card width."""
    level: int
    """0 on the card, 1 on one die, ... (stacks, pyramids, walls, ziggurats)."""
    group: int
    """0-based index of the chip's group on the card."""


@dataclass(frozen=True)
class Mark:
    """One printed element, in card millimetres (centre and size)."""

    kind: str
    """``chip`` (requirement), ``blank`` (large seat chip), ``op``, ``const``, ``arrow``, ``slot`` (diagram square)."""
    x: float
    y: float
    w: float
    h: float
    chip: Chip | None = None
    text: str = ""


@dataclass(frozen=True)
class CardGeometry:
    marks: tuple[Mark, ...]
    seats: tuple[Seat, ...]


@dataclass
class _Row:
    width: float
    height: float
    marks: list[Mark]
    seats: list[tuple[int, float, float, float, int, int]]
    """(chip, x, y, size, level, group) in row-local mm, centre at (0, 0)."""


def _plain_row(groups: list[tuple[int, Group]]) -> _Row:
    items: list[tuple[str, float, object]] = []
    for n, (gi, group) in enumerate(groups):
        if n:
            items.append(("gap", GROUP_GAP_MM - OP_MM / 2, None))
        for token in group.tokens:
            if isinstance(token, Chip):
                items.append(("chip", CHIP_MM, (token, gi)))
            elif isinstance(token, int):
                items.append(("const", 5.0 * len(str(token)) + 1, str(token)))
            elif isinstance(token, str) and token != "|":
                items.append(("op", OP_MM, token))
        # neighbouring chips with no operator still need air between them
    spaced: list[tuple[str, float, object]] = []
    for item in items:
        if spaced and spaced[-1][0] == "chip" and item[0] == "chip":
            spaced.append(("gap", 3.0, None))
        spaced.append(item)
    width = sum(w for _, w, _ in spaced)
    marks: list[Mark] = []
    seats = []
    x = -width / 2
    for kind, w, payload in spaced:
        cx = x + w / 2
        if kind == "chip":
            chip, gi = payload  # type: ignore[misc]
            marks.append(Mark("chip", cx, 0.0, CHIP_MM, CHIP_MM, chip))
            seats.append((chip.number, cx, 0.0, CHIP_MM, 0, gi))
        elif kind == "op":
            marks.append(Mark("op", cx, 0.0, OP_MM * 0.8, OP_MM * 0.8, text=str(payload)))
        elif kind == "const":
            marks.append(Mark("const", cx, 0.0, w, CHIP_MM * 0.55, text=str(payload)))
        x += w
    return _Row(width, CHIP_MM, marks, seats)


def _small_chips(chips_and_ops: list[object], x0: float, y: float, size: float) -> tuple[list[Mark], float]:
    """A row of small requirement chips (with small operators) from x0; returns marks and the end x."""
    marks = []
    x = x0
    for token in chips_and_ops:
        if isinstance(token, Chip):
            marks.append(Mark("chip", x + size / 2, y, size, size, token))
            x += size + 1.2
        elif isinstance(token, str) and token not in ("|",):
            marks.append(Mark("op", x + size * 0.3, y, size * 0.5, size * 0.5, text=token))
            x += size * 0.6 + 1.2
    return marks, x - 1.2


def _stack_row(gi: int, group: Group) -> _Row:
    chips = group.chips
    marks, end = _small_chips(list(group.tokens), BIG_MM + 4.0, -1.5, SMALL_MM)
    width = end
    marks.append(Mark("blank", BIG_MM / 2, 0.0, BIG_MM, BIG_MM))
    first = marks[0].x - SMALL_MM / 2
    marks.append(Mark("arrow", (first + end) / 2, SMALL_MM / 2 + 3.0, end - first, 2.2))
    seats = [(c.number, BIG_MM / 2, 0.0, BIG_MM, level, gi) for level, c in enumerate(chips)]
    return _recentre(_Row(width, BIG_MM, marks, seats))


def _bottom_blanks(count: int, columns: list[float], y: float = 0.0) -> list[Mark]:
    return [Mark("blank", x, y, BIG_MM, BIG_MM) for x in columns[:count]]


def _diagram(rows: tuple[tuple[Chip | None, ...], ...], kind: str, x0: float) -> tuple[list[Mark], float, float]:
    """Small squares, one per chip, as the card's diagram draws them; returns marks, width, height."""
    d = SMALL_MM * 0.85
    pitch = d + 0.6
    marks = []
    if kind == "ziggurat" and len(rows[0]) == 4:
        pos = [(-0.5, 0.5), (0.5, 0.5), (-0.5, -0.5), (0.5, -0.5)]
        for chip, (px, py) in zip(rows[0], pos):
            marks.append(Mark("slot", x0 + pitch + px * pitch, py * pitch, d, d, chip))
        for chip in rows[1]:
            marks.append(Mark("slot", x0 + pitch, 0.0, d * 1.05, d * 1.05, chip, text="top"))
        return marks, 2 * pitch, 2 * pitch
    levels = len(rows)
    base = len(rows[0])
    for level, row in enumerate(rows):
        shift = 0.0 if kind in ("wall", "ziggurat") else level * 0.5
        if kind == "ziggurat" and level:
            shift = (base - len(row)) / 2
        for j, chip in enumerate(row):
            if chip is None:
                continue
            x = x0 + (shift + j + 0.5) * pitch
            y = ((levels - 1) / 2 - level) * pitch
            marks.append(Mark("slot", x, y, d, d, chip))
    return marks, base * pitch, levels * pitch


def _config_row(gi: int, group: Group) -> _Row:
    rows = group.rows
    base = [c for c in rows[0] if c is not None]
    pitch = BIG_MM + BIG_GAP_MM
    seats: list[tuple[int, float, float, float, int, int]] = []
    marks: list[Mark] = []
    if group.kind == "ziggurat" and len(base) == 4:
        cols = [(-0.5, 0.5), (0.5, 0.5), (-0.5, -0.5), (0.5, -0.5)]
        for chip, (px, py) in zip(base, cols):
            x, y = pitch + px * pitch, py * pitch
            marks.append(Mark("blank", x, y, BIG_MM, BIG_MM))
            seats.append((chip.number, x, y, BIG_MM, 0, gi))
        for chip in rows[1]:
            if chip is not None:
                seats.append((chip.number, pitch, 0.0, BIG_MM, 1, gi))
        width, height = 2 * pitch, 2 * pitch
    else:
        xs = [(j + 0.5) * pitch for j in range(len(rows[0]))]
        for level, row in enumerate(rows):
            for j, chip in enumerate(row):
                if chip is None:
                    continue
                if group.kind == "pyramid":
                    x = (j + 0.5 + level * 0.5) * pitch
                elif group.kind == "ziggurat" and level:
                    x = (len(rows[0]) / 2) * pitch
                else:
                    x = xs[j]
                seats.append((chip.number, x, 0.0, BIG_MM, level, gi))
        marks += _bottom_blanks(len(rows[0]), xs)
        width, height = len(rows[0]) * pitch, BIG_MM
    diagram, dw, dh = _diagram(rows, group.kind, width + 3.0)
    marks += diagram
    return _recentre(_Row(width + 3.0 + dw, max(height, dh), marks, seats))


def _recentre(row: _Row) -> _Row:
    dx = -row.width / 2
    marks = [Mark(m.kind, m.x + dx, m.y, m.w, m.h, m.chip, m.text) for m in row.marks]
    seats = [(c, x + dx, y, s, lv, g) for c, x, y, s, lv, g in row.seats]
    return _Row(row.width, row.height, marks, seats)


@lru_cache(maxsize=512)
def card_geometry(text: str) -> CardGeometry:
    """Printed marks and die seats of a card written in notation (cached by text)."""
    layout: Layout = parse_layout(text)
    groups = list(enumerate(layout.groups))
    plain = [(i, g) for i, g in groups if g.kind == "plain"]
    rows: list[_Row] = [
        _config_row(i, g) if g.kind != "stack" else _stack_row(i, g) for i, g in groups if g.kind != "plain"
    ]
    if plain:
        rows.insert(0 if groups[0][1].kind == "plain" else len(rows), _plain_row(plain))
    avail_w = USABLE_X[1] - USABLE_X[0]
    avail_h = USABLE_Y[1] - USABLE_Y[0]
    scales = [min(1.0, avail_w / r.width) for r in rows]
    total_h = sum(r.height * s for r, s in zip(rows, scales)) + ROW_GAP_MM * (len(rows) - 1)
    if total_h > avail_h:
        shrink = (avail_h - ROW_GAP_MM * (len(rows) - 1)) / (total_h - ROW_GAP_MM * (len(rows) - 1))
        scales = [s * shrink for s in scales]
        total_h = avail_h
    y = (USABLE_Y[0] + USABLE_Y[1]) / 2 - total_h / 2
    cx = CARD_W_MM / 2
    marks: list[Mark] = []
    seats: list[Seat] = []
    for row, s in zip(rows, scales):
        cy = y + row.height * s / 2
        for m in row.marks:
            marks.append(Mark(m.kind, cx + m.x * s, cy + m.y * s, m.w * s, m.h * s, m.chip, m.text))
        for chip, x, yy, size, level, group in row.seats:
            seats.append(
                Seat(chip, (cx + x * s) / CARD_W_MM, (cy + yy * s) / CARD_H_MM, size * s / CARD_W_MM, level, group)
            )
        y += row.height * s + ROW_GAP_MM
    seats.sort(key=lambda st: st.chip)
    return CardGeometry(tuple(marks), tuple(seats))


def chip_positions(layout: Layout | str) -> tuple[Seat, ...]:
    """Each chip's die seat in normalised card coordinates, in chip-number order.

    A plain chip's seat is the printed chip; chips of a stack share its large blank chip (levels 0, 1, ...);
    pyramid, wall and ziggurat chips sit on or above the large blank chips.
    """
    return card_geometry(str(layout)).seats
