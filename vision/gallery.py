"""Known card faces: the built-in gallery drawn by the renderer from the catalog, plus cards users enrolled.

The built-in gallery lets rendered games be recognised with no enrolment. Drawing every catalog card takes a
few seconds, so it is built lazily, kept in memory and cached in ``$FUSE_REFEREE_HOME/vision/`` under a key
made of the catalog's text and the descriptor version: editing the catalog rebuilds it. Enrolled cards live in
``$FUSE_REFEREE_HOME/vision/enrolled.json``, one entry per photo: id, edition, kind, notation, points and the
face grid (base64 uint8 Lab, 36 KB).
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.errors import VisionError
from vision.identify import DESCRIPTOR_VERSION, GRID_H, GRID_W, Matcher, grid_image

EDITIONS = ("fuse", "countdown")


class GalleryError(VisionError):
    """The card store cannot be read or written."""


@dataclass(frozen=True)
class Entry:
    card_id: str
    edition: str
    kind: str
    notation: str
    """Bomb and spark cards' notation ('' for fuse and role cards)."""
    points: int
    grid: np.ndarray
    """(GRID_H, GRID_W, 3) uint8 Lab of the upright face."""
    source: str = "catalog"
    """``catalog`` (drawn by the renderer) or ``photo`` (enrolled)."""


def home() -> Path:
    """The vision folder of the user's home (``$FUSE_REFEREE_HOME``, as rules.catalog reads it)."""
    from rules.catalog import user_home

    return user_home() / "vision"


def _catalog_cards() -> list[object]:
    from rules.catalog import load_catalog

    return [c for e in EDITIONS for c in load_catalog(e, include_user=False).cards]


def gallery_key(cards: list[object] | None = None) -> str:
    """Hash of the catalog's content and the descriptor version (names the cache file)."""
    cards = _catalog_cards() if cards is None else cards
    text = "\n".join(f"{c.edition} {c.kind} {c.id} {c.points} {c.body}" for c in cards)  # type: ignore[attr-defined]
    return hashlib.sha1(f"v{DESCRIPTOR_VERSION}\n{text}".encode()).hexdigest()[:16]


def draw_entries(cards: list[object]) -> list[Entry]:
    """Draw each card with the renderer and keep its grid."""
    from datasets.cardface import card_texture
    from datasets.scene import CardFace

    entries = []
    for card in cards:
        face = CardFace.from_card(card)
        notation = card.body if card.kind in ("bomb", "spark") else ""  # type: ignore[attr-defined]
        grid = grid_image(card_texture(face)[0])
        entries.append(Entry(face.id, face.edition, face.kind, notation, face.points, grid))
    return entries


_memory: dict[str, list[Entry]] = {}


def builtin_entries(cache: bool = True) -> list[Entry]:
    """The catalog's cards as the renderer draws them: from memory, the disk cache or drawn now."""
    cards = _catalog_cards()
    key = gallery_key(cards)
    if key in _memory:
        return _memory[key]
    path = home() / f"gallery-{key}.npz"
    entries: list[Entry] | None = None
    if cache and path.exists():
        try:
            with np.load(path, allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
                grids = data["grids"]
            entries = [Entry(m["id"], m["edition"], m["kind"], m["notation"], m["points"], g)
                       for m, g in zip(meta, grids)]
        except (OSError, ValueError, KeyError):
            entries = None  # a damaged cache is rebuilt
    if entries is None:
        entries = draw_entries(cards)
        if cache:
            meta = [{"id": e.card_id, "edition": e.edition, "kind": e.kind, "notation": e.notation,
                     "points": e.points} for e in entries]
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                with tempfile.NamedTemporaryFile(dir=path.parent, suffix=".npz", delete=False) as handle:
                    np.savez_compressed(handle, meta=json.dumps(meta), grids=np.stack([e.grid for e in entries]))
                os.replace(handle.name, path)
            except OSError:
                pass  # a read-only home only costs the rebuild next time
    _memory[key] = entries
    return entries


def enrolled_path() -> Path:
    return home() / "enrolled.json"


def load_enrolled(path: Path | None = None) -> list[Entry]:
    path = path or enrolled_path()
    if not path.exists():
        return []
    try:
        data = json.loads(path.read_text())
        if data.get("version") != DESCRIPTOR_VERSION:
            raise GalleryError(
                f"{path} holds descriptors of version {data.get('version')!r}, not {DESCRIPTOR_VERSION}: "
                "enrol the cards again"
            )
        return [
            Entry(e["id"], e["edition"], e["kind"], e["notation"], int(e["points"]),
                  np.frombuffer(base64.b64decode(e["grid"]), np.uint8).reshape(GRID_H, GRID_W, 3), "photo")
            for e in data["cards"]
        ]
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise GalleryError(f"cannot read enrolled cards from {path}: {error}") from None


def save_enrolled(entry: Entry, path: Path | None = None) -> Path:
    """Append one enrolled face (several photos of one card are several entries)."""
    path = path or enrolled_path()
    cards = [
        {"id": e.card_id, "edition": e.edition, "kind": e.kind, "notation": e.notation, "points": e.points,
         "grid": base64.b64encode(np.ascontiguousarray(e.grid, np.uint8).tobytes()).decode()}
        for e in [*load_enrolled(path), entry]
    ]
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps({"version": DESCRIPTOR_VERSION, "cards": cards}))
        os.replace(tmp, path)
    except OSError as error:
        raise GalleryError(f"cannot write enrolled cards to {path}: {error}") from None
    return path


class Gallery:
    """Every known face (built-in and enrolled) and a matcher over them."""

    def __init__(self, entries: list[Entry]) -> None:
        self.entries = list(entries)
        self.by_id = {}
        for e in self.entries:
            self.by_id.setdefault(e.card_id, e)
        self.matcher = Matcher(
            [e.card_id for e in self.entries],
            [e.grid for e in self.entries],
            [f"{e.kind} {e.points} {e.notation or e.card_id}" for e in self.entries],
        )

    @classmethod
    def load(cls, edition: str | None = None, builtin: bool = True, enrolled: bool = True) -> Gallery:
        """The built-in gallery (drawn or cached) plus the cards enrolled in ``$FUSE_REFEREE_HOME``; only one
        edition's cards when ``edition`` is given (a game is played with one: fewer look-alikes)."""
        entries = (builtin_entries() if builtin else []) + (load_enrolled() if enrolled else [])
        return cls([e for e in entries if edition is None or e.edition == edition])

    def notation(self, card_id: str) -> str:
        entry = self.by_id.get(card_id)
        return entry.notation if entry else ""

    def __len__(self) -> int:
        return len(self.entries)
