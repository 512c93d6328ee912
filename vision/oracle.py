"""ORACLE PERCEPTION (an ablation, not the referee's vision): ``TableObservation``s built from a rendered game's
``frames.json`` truth instead of from pixels, so the tracker and interpreter can be tested apart from the
detector. What the renderer labels is what a perfect detector would see: cards and dice hidden by hands, or
under a stack's next die, are left out exactly as the truth marks them.

``flicker`` (0..1) misreads that share of dice for one frame (another face), to exercise the tracker's vote.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from vision.errors import VisionError
from vision.observation import CardSeen, ChipSpot, DieSeen, TableObservation


def frame_observation(entry: dict[str, Any], width: int, height: int, rng: random.Random | None = None,
                      flicker: float = 0.0) -> TableObservation:
    """One ``frames.json`` entry as the observation a perfect detector and card reader would give."""
    truth = entry["truth"]
    cards = []
    for card in truth["cards"]:
        if card.get("label") is None:
            continue
        face_up = card["type"] != "back"
        chips = tuple(ChipSpot(s["chip"], tuple(s["center"]), 10.0, s["level"]) for s in card.get("chips", ()))
        cards.append(CardSeen(tuple(tuple(p) for p in card["corners"]), card["type"],  # type: ignore[arg-type]
                              card["id"] if face_up else None, 1.0, chips if face_up else ()))
    dice = []
    for die in truth["dice"]:
        if die.get("label") is None:
            continue
        name = die["die"]
        if rng is not None and flicker and rng.random() < flicker:
            face = int(name[-1])
            name = name[:-1] + str(face % 6 + 1)
        on = die.get("on")
        dice.append(DieSeen(name, tuple(die["box"]), 1.0,  # type: ignore[arg-type]
                            (on["card_id"], on["chip"]) if on else None, on["level"] if on else 0))
    return TableObservation(entry["index"], entry["elapsed"], width, height, tuple(cards), tuple(dice))


def oracle_observations(folder: Path | str, flicker: float = 0.0, seed: int = 0) -> Iterator[TableObservation]:
    """Every frame of a rendered game folder, from its truth (see the module docstring)."""
    from datasets.errors import DatasetError
    from datasets.game import read_frames

    try:
        data = read_frames(folder)
    except DatasetError as exc:
        raise VisionError(str(exc)) from None
    rng = random.Random(seed) if flicker else None
    for entry in data["frames"]:
        yield frame_observation(entry, data["width"], data["height"], rng, flicker)
