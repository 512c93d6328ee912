"""Detector classes: one per die colour(s) x top face, then one per card type.

Names are what ``rules.dice.Die`` prints (``red5``, ``black/yellow2``), so a detection's class name parses
straight back into a ``Die``; card classes are ``bomb``, ``fuse``, ``spark``, ``role`` and ``back``; last come
ordinary white pip dice (``white1``-``white6``), which are no game's dice.
The list is built from the dice sets in ``rules/data`` (so correcting Countdown's split dice there
changes the classes) and is written to ``data.yaml`` with every dataset.
"""

from __future__ import annotations

from functools import cache

from rules.dice import COLOURS, FACES, Die, load_dice_set

CARD_CLASSES: tuple[str, ...] = ("bomb", "fuse", "spark", "role", "back")
PLAIN_DICE: tuple[str, ...] = tuple(f"white{face}" for face in FACES)
"""Ordinary white pip dice, which neither edition has: drawn among pip dice (style knob ``white_share``) so the
detector reads them too. Their classes come after the card classes, so datasets made before keep their numbers."""


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
    return die_classes() + CARD_CLASSES + PLAIN_DICE


@cache
def all_die_classes() -> tuple[str, ...]:
    """The game dice's classes, then the plain white dice."""
    return die_classes() + PLAIN_DICE


@cache
def class_index() -> dict[str, int]:
    return {name: i for i, name in enumerate(class_names())}
