"""Detector classes: one per die colour(s) x top face, then one per card type.

Names are what ``rules.dice.Die`` prints (``red5``, ``black/yellow2``), so a detection's class name parses
straight back into a ``Die``; card classes are ``bomb``, ``fuse``, ``spark``, ``role`` and ``back``.
The list is built from the dice sets in ``rules/data`` (so correcting Countdown's split dice there
changes the classes) and is written to ``data.yaml`` with every dataset.
"""

from __future__ import annotations

from functools import cache

from rules.dice import COLOURS, FACES, Die, load_dice_set

CARD_CLASSES: tuple[str, ...] = ("bomb", "fuse", "spark", "role", "back")


@cache
def die_kinds() -> dict[tuple[str, ...], tuple[tuple[int, int], ...]]:
    """Colours of every die kind across both editions -> its opposite-face pairs."""
    kinds: dict[tuple[str, ...], tuple[tuple[int, int], ...]] = {}
    for edition in ("fuse", "countdown"):
        for kind in load_dice_set(edition).kinds:
            kinds.setdefault(kind.colours, kind.opposites)
    return kinds


@cache
def die_classes() -> tuple[str, ...]:
    """Single-colour dice (colour order of ``rules.dice.COLOURS``, faces 1-6), then split dice."""
    singles = [str(Die((c,), f)) for c in COLOURS for f in FACES]
    splits = [str(Die(colours, f)) for colours in die_kinds() if len(colours) == 2 for f in FACES]
    return tuple(singles + splits)


@cache
def class_names() -> tuple[str, ...]:
    return die_classes() + CARD_CLASSES


@cache
def class_index() -> dict[str, int]:
    return {name: i for i, name in enumerate(class_names())}
