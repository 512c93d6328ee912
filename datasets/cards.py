"""Cards to draw, taken from the rules catalog (``rules.catalog``) as ``CardFace`` values."""

from __future__ import annotations

from functools import cache

from datasets.scene import CardFace


@cache
def catalog_faces(edition: str) -> dict[str, tuple[CardFace, ...]]:
    """Kind -> the edition's cards. User-added cards are left out so a seed renders the same on every machine."""
    from rules.catalog import load_catalog

    catalog = load_catalog(edition, include_user=False)
    return {
        kind: tuple(CardFace.from_card(c) for c in catalog.of_kind(kind)) for kind in ("bomb", "spark", "fuse", "role")
    }
