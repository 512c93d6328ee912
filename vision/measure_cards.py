"""Measure card recognition and dice-on-chip assignment on a rendered game with truth:
``python -m vision.measure_cards datasets/sample [--step 20] [--min-visible 0.5]``.

Every ``step``-th frame of ``game.mp4``, against ``frames.json.gz``:

- cards: each face-up card at least ``min-visible`` visible, corners found in its truth box by
  ``vision.corners.find_corners`` and identified by the built-in gallery's matcher (no cache: every view is
  identified afresh) in the frame as the layout reads it (the light's colour it learnt undone, ``vision.cast``).
  ``right``/``wrong``/``unknown`` count the names given; ``top right`` counts views whose closest card (named or
  not) is the right one.
- dice on chips, given the truth die boxes: ``truth cards`` puts them on chip spots of the truth corners and ids
  (``assign_dice`` alone); ``seen cards`` on the cards as recognised above (the layout's real input). A die
  resting on a chip counts ``right`` (card, chip and level), ``wrong`` (another chip) or ``missed`` (loose);
  a loose die put on a chip counts ``false``; ``on named cards`` counts right ones among dice whose card was
  named (the chip spots' accuracy apart from recognition); ``layout`` runs ``TableLayout.observe`` on every
  frame with the truth boxes (identity kept while a card stays put, as in play) and scores its dice on the
  measured frames.

``--levels GAME...``: only the dice on chips, from ``frames.json`` (no video), truth dice boxes on truth cards'
chip spots (``assign_dice``), every ``step``-th frame of each game, counted by the level of the chip the die rests
on: on its chip, on another, loose; and loose dice put on a chip.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from datasets.game import read_frames
from vision.cards import FRONT_TYPES, TableLayout, assign_dice, chip_spots
from vision.corners import find_corners
from vision.detections import Detections
from vision.gallery import Gallery
from vision.observation import CardSeen


def dice_detections(truth: dict) -> Detections:
    dice = [d for d in truth["dice"] if d.get("label") and d.get("box")]
    names = sorted({d["label"] for d in dice})
    return Detections(np.array([d["box"] for d in dice], np.float32).reshape(-1, 4), np.ones(len(dice)),
                      [names.index(d["label"]) for d in dice], tuple(names)), dice  # type: ignore[return-value]


def truth_detections(truth: dict) -> Detections:
    """Every labelled card and die of a frame, as a detector would give them."""
    items = [x for x in truth["cards"] + truth["dice"] if x.get("label") and x.get("box")]
    names = sorted({x["label"] for x in items})
    return Detections(np.array([x["box"] for x in items], np.float32).reshape(-1, 4), np.ones(len(items)),
                      [names.index(x["label"]) for x in items], tuple(names))


def score_dice(cards: tuple[CardSeen, ...], truth: dict, tally: Counter) -> None:
    det, dice = dice_detections(truth)
    score_dice_seen(dice, assign_dice(cards, det), {c.card_id for c in cards if c.card_id}, tally)


def score_dice_seen(dice: list[dict], seen: tuple, named: set, tally: Counter) -> None:
    for want, got in zip(dice, seen):
        on = want.get("on")
        if on and on["card_id"] in named:
            tally["on named"] += 1
            tally["right on named"] += got.on == (on["card_id"], on["chip"]) and got.level == on["level"]
        if on:
            if got.on is None:
                tally["missed"] += 1
            elif got.on == (on["card_id"], on["chip"]) and got.level == on["level"]:
                tally["right"] += 1
            else:
                tally["wrong"] += 1
        elif got.on is not None:
            tally["false"] += 1


def chip_levels(games: list[Path], step: int) -> Counter:
    """``--levels`` (module docstring): the tally of truth dice on truth cards' chips, by level."""
    galleries: dict[str, Gallery] = {}
    tally: Counter = Counter()
    for game in games:
        for entry in read_frames(game)["frames"][::step]:
            truth = entry["truth"]
            gallery = galleries.setdefault(truth["edition"], Gallery.load(truth["edition"], enrolled=False))
            cards = tuple(CardSeen(tuple(map(tuple, c["corners"])), c["type"], c["id"], 1.0,
                                   chip_spots(gallery.notation(c["id"]), np.array(c["corners"], np.float32)))
                          for c in truth["cards"] if c["type"] in FRONT_TYPES and c["face_up"])
            det, dice = dice_detections(truth)
            for want, got in zip(dice, assign_dice(cards, det)):
                on = want.get("on")
                if on is None:
                    tally["loose put on a chip"] += got.on is not None
                    continue
                right = got.on == (on["card_id"], on["chip"]) and got.level == on["level"]
                tally[on["level"], "right" if right else "loose" if got.on is None else "other chip"] += 1
    return tally


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.measure_cards", description=__doc__.splitlines()[0])
    parser.add_argument("game", type=Path, nargs="+", help="a rendered game (several with --levels)")
    parser.add_argument("--step", type=int, default=20)
    parser.add_argument("--min-visible", type=float, default=0.5)
    parser.add_argument("--frames", type=int, default=0, help="stop after this many frames (0: all)")
    parser.add_argument("-v", "--verbose", action="store_true", help="list wrong names")
    parser.add_argument("--levels", action="store_true", help="only dice on chips by level, no video (see above)")
    args = parser.parse_args(argv)
    try:
        if args.levels:
            tally = chip_levels(args.game, args.step)
            for level in sorted({k[0] for k in tally if isinstance(k, tuple)}):
                print(f"level {level}: " + ", ".join(f"{what} {tally[level, what]}"
                                                     for what in ("right", "other chip", "loose")))
            print(f"loose dice put on a chip: {tally['loose put on a chip']}")
            return 0
    except (OSError, ValueError, KeyError) as error:
        print(f"vision.measure_cards: {error}", file=sys.stderr)
        return 2
    if len(args.game) != 1:
        parser.error("one game at a time (several only with --levels)")
    args.game = args.game[0]
    try:
        data = read_frames(args.game)
    except (OSError, ValueError) as error:
        print(f"vision.measure_cards: {error}", file=sys.stderr)
        return 2
    frames = data["frames"]
    edition = frames[0]["truth"].get("edition")
    gallery = Gallery.load(edition, enrolled=False)
    layout = TableLayout(gallery, edition)
    cap = cv2.VideoCapture(str(args.game / data.get("video", "game.mp4")))
    cards_tally: Counter = Counter()
    by_cover: dict[str, Counter] = {}
    dice_truth: Counter = Counter()
    dice_seen: Counter = Counter()
    dice_layout: Counter = Counter()
    layout_names: Counter = Counter()
    running = TableLayout(gallery, edition)
    times: list[float] = []
    index = 0
    while True:
        ok, frame = cap.read()
        if not ok or (args.frames and index >= args.frames * args.step):
            break
        truth = frames[index]["truth"]
        observed = running.observe(frame, truth_detections(truth), index)
        if index % args.step:
            index += 1
            continue
        for card in observed.cards:
            if card.card_id is None:
                continue
            centre = np.mean(card.corners, 0)
            near = min((c for c in truth["cards"] if c["type"] in FRONT_TYPES and c["face_up"]),
                       key=lambda c: float(np.linalg.norm(np.mean(c["corners"], 0) - centre)), default=None)
            layout_names["right" if near is not None and near["id"] == card.card_id else "wrong"] += 1
        layout_names["unknown"] += sum(c.card_id is None and c.type in FRONT_TYPES for c in observed.cards)
        _, dice = dice_detections(truth)
        score_dice_seen(dice, observed.dice, {c.card_id for c in observed.cards if c.card_id}, dice_layout)
        index += 1
        truth_cards, seen_cards = [], []
        looks = running.cast.undo(frame)  # the cards as the layout reads them: the light's colour it learnt undone
        for card in truth["cards"]:
            if card["type"] not in FRONT_TYPES or not card["face_up"]:
                continue
            notation = gallery.notation(card["id"])
            truth_cards.append(CardSeen(tuple(map(tuple, card["corners"])), card["type"], card["id"], 1.0,
                                        chip_spots(notation, np.array(card["corners"]))))
            if not card.get("box"):
                continue
            if card["visible"] < args.min_visible:
                seen = layout.card(frame, np.array(card["box"], np.float32), card["type"], 1.0)
                if seen is not None:  # the layout tries every card it is given
                    seen_cards.append(seen)
                continue
            corners = find_corners(looks, card["box"])
            if corners is None:
                cards_tally["no corners"] += 1
                continue
            start = time.perf_counter()
            identity = gallery.matcher.match(looks, corners)
            times.append(time.perf_counter() - start)
            band = "whole" if card["visible"] >= 0.99 else "part"
            tally = by_cover.setdefault(band, Counter())
            for t in (cards_tally, tally):
                t["views"] += 1
                t["top right"] += identity.best == card["id"]
                if identity.card_id is None:
                    t["unknown"] += 1
                elif identity.card_id == card["id"]:
                    t["right"] += 1
                else:
                    t["wrong"] += 1
            if identity.card_id not in (None, card["id"]) and args.verbose:
                print(f"  frame {index - 1}: {card['id']} named {identity.card_id} (visible {card['visible']:.2f}, "
                      f"d {identity.distance:.4f} second {identity.second:.4f} seen {identity.seen:.2f})")
            seen = layout.card(frame, np.array(card["box"], np.float32), card["type"], 1.0)
            if seen is not None:
                seen_cards.append(seen)
        score_dice(tuple(truth_cards), truth, dice_truth)
        score_dice(tuple(seen_cards), truth, dice_seen)

    def line(t: Counter) -> str:
        return (f"{t['views']} views: right {t['right']}, wrong {t['wrong']}, unknown {t['unknown']}, "
                f"top right {t['top right']}")

    print(f"cards (visible >= {args.min_visible}, every {args.step}th frame): {line(cards_tally)}"
          + (f", no corners {cards_tally['no corners']}" if cards_tally["no corners"] else ""))
    for band, t in sorted(by_cover.items(), reverse=True):
        print(f"  {band:>5}: {line(t)}")
    if times:
        print(f"  identify: {1000 * np.mean(times):.1f} ms mean, {1000 * np.percentile(times, 95):.1f} ms p95 "
              f"over {len(gallery)} known faces")
    t = layout_names
    print(f"layout (every frame, truth boxes, identity kept while a card stays put): on the measured frames "
          f"{t['right']} cards named right, {t['wrong']} wrong, {t['unknown']} unknown")
    for name, t in (("truth cards", dice_truth), ("seen cards", dice_seen), ("layout", dice_layout)):
        on = t["right"] + t["wrong"] + t["missed"]
        print(f"dice on chips ({name}): {on} on chips: right {t['right']}, wrong {t['wrong']}, missed {t['missed']}; "
              f"loose dice put on a chip {t['false']}" + (f"; per-chip accuracy {t['right'] / on:.3f}" if on else "")
              + (f"; on named cards {t['right on named']}/{t['on named']} right" if name != "truth cards" else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
