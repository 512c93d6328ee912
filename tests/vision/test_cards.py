"""Card corners against the sample game's truth, chip spots and dice on chips, bad input."""

from __future__ import annotations

import gzip
import json
import time
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from datasets.cardface import card_texture
from datasets.scene import CardFace
from rules.catalog import load_catalog
from tests.vision.cardviews import view
from vision.cards import COMPLETED_PER_FRAME, RETRIES_PER_FRAME, RETRY_FRAMES, TableLayout, assign_dice, chip_spots
from vision.corners import cut_to, find_corners
from vision.detections import Detections
from vision.gallery import Gallery
from vision.observation import CardSeen

SAMPLE = Path(__file__).resolve().parents[2] / "datasets" / "sample"
FRAMES = (100, 400, 800)
MAX_MEAN_CORNER_PX = 2.5
"""Mean corner error over whole cards of the sample frames (measured 1.35 px over 204 cards of 24 frames)."""


@pytest.fixture(scope="module")
def sample() -> list[tuple[np.ndarray, dict]]:
    truth = json.loads(gzip.open(SAMPLE / "frames.json.gz").read())["frames"]
    cap = cv2.VideoCapture(str(SAMPLE / "game.mp4"))
    out, i = [], 0
    while i <= max(FRAMES):
        ok, img = cap.read()
        if not ok:
            break
        if i in FRAMES:
            out.append((img, truth[i]["truth"]))
        i += 1
    return out


def detections_of(truth: dict) -> Detections:
    names, boxes = [], []
    for item in truth["cards"] + truth["dice"]:
        if item.get("label") and item.get("box"):
            names.append(item["label"])
            boxes.append(item["box"])
    classes = sorted(set(names))
    ids = [classes.index(n) for n in names]
    return Detections(np.array(boxes).reshape(-1, 4), np.ones(len(names)), ids, tuple(classes))


def test_corners_match_the_truth(sample) -> None:  # type: ignore[no-untyped-def]
    errors = []
    for img, truth in sample:
        for card in truth["cards"]:
            if card["visible"] < 0.99:
                continue
            found = find_corners(img, card["box"])
            assert found is not None, card["id"]
            want = np.array(card["corners"])
            errors.append(min(np.linalg.norm(np.roll(found, k, 0) - want, axis=1).mean() for k in range(4)))
    print(f"\nmean corner error {np.mean(errors):.2f} px over {len(errors)} cards")
    assert np.mean(errors) <= MAX_MEAN_CORNER_PX


def test_layout_names_cards_and_puts_dice_on_chips(sample, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("FUSE_REFEREE_HOME", str(tmp_path))
    layout = TableLayout(edition="fuse")
    img, truth = sample[1]
    det = detections_of(truth)
    start = time.perf_counter()
    first = layout.observe(img, det, 0, 0.0)
    cold = time.perf_counter() - start
    start = time.perf_counter()
    again = layout.observe(img, det, 1, 0.1)
    warm = time.perf_counter() - start
    print(f"\nlayout: {1000 * cold:.0f} ms for a new table of {len(first.cards)} cards, {1000 * warm:.2f} ms settled")
    assert again == type(again)(1, 0.1, first.width, first.height, first.cards, first.dice)
    named = {c.card_id for c in first.cards if c.card_id}
    fronts = {c["id"] for c in truth["cards"] if c["visible"] > 0.99 and c["type"] != "back"}
    # measured 6 of 6 (4 of 6 before the matcher's robust fit and corner refinement)
    assert len(named & fronts) >= len(fronts) - 1 and named <= {c["id"] for c in truth["cards"]}
    for card in first.cards:
        if card.card_id:
            assert card.chips and all(s.radius > 3 for s in card.chips)
    on = [(d["on"]["card_id"], d["on"]["chip"]) for d in truth["dice"] if d.get("label") and d.get("on")]
    got = [d.on for d in first.dice if d.on]
    assert set(got) <= set(on)


def with_a_die(cards: list[dict], die_at: tuple[float, float] | None, boxes: np.ndarray | None = None) -> Detections:
    """Detections of the truth's ``cards`` (at ``boxes`` if given) and, at ``die_at``, one red5 die."""
    names = tuple(sorted({c["label"] for c in cards} | {"red5"}))
    xyxy = np.array([c["box"] for c in cards], np.float32) if boxes is None else boxes
    labels = [c["label"] for c in cards]
    if die_at is not None:
        xyxy = np.vstack([xyxy, [[die_at[0] - 9, die_at[1] - 9, die_at[0] + 9, die_at[1] + 9]]])
        labels.append("red5")
    return Detections(xyxy, np.ones(len(labels)), [names.index(n) for n in labels], names)


def hand_over(img: np.ndarray, card: CardSeen) -> np.ndarray:
    """``img`` with a hand over the whole face of ``card``, its edges still showing."""
    covered = img.copy()
    corners = np.array(card.corners, np.int32)
    cv2.fillConvexPoly(covered, corners, (60, 110, 170))
    cv2.polylines(covered, [corners], True, (250, 250, 250), 2)
    return covered


def test_a_card_keeps_its_name_when_it_comes_back_covered(sample, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A hand takes a named card out of the detections; it comes back with its chips covered (dice, the hand):
    it keeps its name, as the gallery's closest card to it is still that one."""
    monkeypatch.setenv("FUSE_REFEREE_HOME", str(tmp_path))
    img, truth = sample[1]
    det = detections_of(truth)
    layout = TableLayout(edition="fuse")
    first = layout.observe(img, det, 0)
    card = next(c for c in first.cards if c.card_id and len(c.chips) >= 2)
    k = next(i for i, b in enumerate(det.xyxy) if np.allclose(np.mean(card.corners, 0), (b[:2] + b[2:]) / 2, atol=3))
    gone = Detections(np.delete(det.xyxy, k, 0), np.delete(det.confidence, k), np.delete(det.class_id, k), det.names)
    assert card not in layout.observe(img, gone, 1).cards
    covered = img.copy()
    for spot in card.chips:  # a block larger than a die on every chip (a die and the fingers that put it)
        x, y, r = int(spot.centre[0]), int(spot.centre[1]), int(spot.radius * 1.7)
        covered[y - r : y + r, x - r : x + r] = (40, 40, 200)
    alone = layout.gallery.matcher.match(covered, np.array(card.corners, np.float32))
    assert alone.card_id is None and alone.best == card.card_id  # too covered to name afresh
    again = layout.observe(covered, det, 2)
    assert card.card_id in {c.card_id for c in again.cards}


def test_an_unrecognisable_card_keeps_its_name_while_dice_lie_on_it(sample, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """After a hand took a named card out of sight it comes back too covered to match even its own face: with a
    die on it, it is the same card (dice go on players' cards, which are not swapped in place); without, unknown."""
    monkeypatch.setenv("FUSE_REFEREE_HOME", str(tmp_path))
    img, truth = sample[1]
    cards = [c for c in truth["cards"] if c.get("label") and c.get("box")]
    boxes = np.array([c["box"] for c in cards], np.float32)

    def detections(die_at: tuple[float, float] | None) -> Detections:
        return with_a_die(cards, die_at)

    kept = {}
    for with_die in (False, True):
        layout = TableLayout(edition="fuse")
        first = layout.observe(img, detections(None), 0)
        card = next(c for c in first.cards if c.card_id and len(c.chips) >= 2)
        k = next(i for i, b in enumerate(boxes) if np.allclose(np.mean(card.corners, 0), (b[:2] + b[2:]) / 2, atol=3))
        gone = detections(None)
        layout.observe(img, Detections(np.delete(gone.xyxy, k, 0), np.delete(gone.confidence, k),
                                       np.delete(gone.class_id, k), gone.names), 1)
        covered = hand_over(img, card)
        spot = card.chips[0].centre
        again = layout.observe(covered, detections(spot if with_die else None), 2)
        kept[with_die] = card.card_id in {c.card_id for c in again.cards}
    assert kept == {False: False, True: True}


def test_a_card_box_far_smaller_than_the_cards_in_view_is_no_card(sample, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A dark thing (the dice bag) boxed as a card, a third the size of the cards around it, is dropped; a card
    box of the usual size where no card is named is kept (as unknown)."""
    monkeypatch.setenv("FUSE_REFEREE_HOME", str(tmp_path))
    img, truth = sample[1]
    det = detections_of(truth)
    frame = img.copy()
    cards = det.cards.xyxy
    w, h = np.median(cards[:, 2] - cards[:, 0]), np.median(cards[:, 3] - cards[:, 1])
    spots = []
    for scale in (0.5, 1.0):  # a box half as wide and high: a quarter of the area
        x0, y0 = 20 + 300 * scale, 20
        box = np.array([x0, y0, x0 + w * scale, y0 + h * scale], np.float32)
        cv2.rectangle(frame, (int(box[0]), int(box[1])), (int(box[2]), int(box[3])), (60, 30, 20), -1)
        spots.append(box)
    bomb = det.names.index("bomb")
    fake = Detections(np.vstack([det.xyxy, spots]), np.ones(len(det) + 2), [*det.class_id, bomb, bomb], det.names)
    seen = TableLayout(edition="fuse").observe(frame, fake, 0)
    centres = [np.mean(c.corners, 0) for c in seen.cards]
    found = [any(np.all((c >= s[:2] - 2) & (c <= s[2:] + 2)) for c in centres) for s in spots]
    assert found == [False, True]


def test_a_card_box_at_the_frame_edge_needs_more_of_a_card_than_one_inside(sample, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """On a table whose cards are named, a card-shaped box half the area of the cards near it is no card where it
    touches the frame's edge (a card cut by the edge, or the edge taken for one) and an unknown card inside."""
    monkeypatch.setenv("FUSE_REFEREE_HOME", str(tmp_path))
    img, truth = sample[1]
    det = detections_of(truth)
    layout = TableLayout(edition="fuse")
    assert sum(c.card_id is not None for c in layout.observe(img, det, 0).cards) >= 5
    frame, height = img.copy(), img.shape[0]
    cards = det.cards.xyxy
    w, h = np.median(cards[:, 2] - cards[:, 0]) * 0.7, np.median(cards[:, 3] - cards[:, 1]) * 0.7
    spots = [np.array([x0, y1 - h, x0 + w, y1], np.float32) for x0, y1 in ((100, height), (300, height - 60))]
    for box in spots:
        cv2.rectangle(frame, (int(box[0]), int(box[1])), (int(box[2]), int(box[3]) - 1), (60, 30, 20), -1)
    bomb = det.names.index("bomb")
    fake = Detections(np.vstack([det.xyxy, spots]), np.ones(len(det) + 2), [*det.class_id, bomb, bomb], det.names)
    centres = [np.mean(c.corners, 0) for c in layout.observe(frame, fake, 1).cards]
    found = [any(np.all((c >= s[:2] - 2) & (c <= s[2:] + 2)) for c in centres) for s in spots]
    assert found == [False, True]


def test_unknown_cards_lying_still_are_read_again_in_turn_a_few_a_frame(sample, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A table of cards the gallery cannot name (Countdown's deck over a FUSE table): each card is read when it
    turns up, then again after ``RETRY_FRAMES`` frames, but no more than ``RETRIES_PER_FRAME`` in one frame, the
    longest unread first, so each is read again in turn (the readings with a corner completed, one a frame, are
    counted apart)."""
    monkeypatch.setenv("FUSE_REFEREE_HOME", str(tmp_path))
    img, truth = sample[1]
    det = detections_of(truth)
    gallery = Gallery.load("countdown", enrolled=False)
    reads: list[list[tuple[int, int]]] = []
    completed, completing = [0] * (RETRY_FRAMES + 20), []  # readings with a corner completed, per frame
    match, match_completed = gallery.matcher.match, gallery.matcher.match_completed

    def counted(frame: np.ndarray, corners: np.ndarray):  # type: ignore[no-untyped-def]
        if not completing:
            reads[-1].append(tuple(np.round(np.mean(corners, 0)).astype(int)))
        return match(frame, corners)

    def completed_counted(frame: np.ndarray, corners: np.ndarray, k: int):  # type: ignore[no-untyped-def]
        completed[len(reads) - 1] += 1
        completing.append(k)
        try:
            return match_completed(frame, corners, k)
        finally:
            completing.pop()

    monkeypatch.setattr(gallery.matcher, "match", counted)
    monkeypatch.setattr(gallery.matcher, "match_completed", completed_counted)
    layout = TableLayout(gallery, edition="fuse")
    on_top = layout._on_top

    def cuts_uncounted(frame: np.ndarray, corners: np.ndarray, long_side: float):  # type: ignore[no-untyped-def]
        completing.append(-1)  # the outline cut (``PAIR``): more of the same reading, not another
        try:
            return on_top(frame, corners, long_side)
        finally:
            completing.pop()

    monkeypatch.setattr(layout, "_on_top", cuts_uncounted)
    for index in range(RETRY_FRAMES + 20):  # time to read each card again (the sample has fewer than 20)
        reads.append([])
        seen = layout.observe(img, det, index, index / 6)
    unknown = [c for c in seen.cards if c.card_id is None and c.type != "back"]
    assert len(unknown) >= 4
    assert len(reads[0]) == sum(c.type != "back" for c in seen.cards) and not any(reads[1:RETRY_FRAMES])
    again = reads[RETRY_FRAMES:]
    assert max(map(len, again)) == RETRIES_PER_FRAME
    in_turn = [card for frame in again[: -(-len(unknown) // RETRIES_PER_FRAME)] for card in frame]
    assert len(set(in_turn)) == len(in_turn) == len(unknown) and set(in_turn) <= set(reads[0])  # each once
    assert 0 < max(completed) <= COMPLETED_PER_FRAME


def test_chip_spots_follow_the_corners() -> None:
    corners = np.array([[0, 0], [880, 0], [880, 630], [0, 630]], np.float32)
    spots = chip_spots("[#] = [#] = [#]", corners)
    assert [s.chip for s in spots] == [1, 2, 3]
    assert spots[0].centre[0] < spots[1].centre[0] < spots[2].centre[0]
    assert abs(spots[1].centre[0] - 440) < 1 and 60 < spots[0].radius < 80
    turned = chip_spots("[#] = [#] = [#]", np.roll(corners, 2, 0))
    assert turned[0].centre[0] > turned[2].centre[0]


def test_dice_on_an_unrecognised_card_take_the_chips_of_the_card_it_looks_like() -> None:
    corners = np.array([[0, 0], [880, 0], [880, 630], [0, 630]], np.float32)
    spots = chip_spots("[#] = [#] = [#]", corners)
    pts = tuple((float(x), float(y)) for x, y in corners)
    unknown = CardSeen(pts, "bomb", None, 0.5, spots, likely="F-004")  # type: ignore[arg-type]
    x, y = spots[1].centre
    dice = Detections(np.array([[x - 30, y - 30, x + 30, y + 30]]), np.ones(1), [0], ("red5",))
    assert [d.on for d in assign_dice((unknown,), dice)] == [("F-004", 2)]
    # ... unless the card it looks like lies named elsewhere: then its dice lie on no chip
    elsewhere = CardSeen(tuple((px + 2000, py) for px, py in pts), "bomb", "F-004", 0.9)
    assert [d.on for d in assign_dice((unknown, elsewhere), dice)] == [None]


def test_a_die_on_an_upper_chip_is_drawn_further_from_its_spot_and_still_lies_on_it() -> None:
    """A die on a pyramid's upper chip, or high on a stack, is nearer the camera, so it is drawn away from its
    chip's spot on the card, the further the higher it lies (over two radii for the first level up): it is on that
    chip, not loose; and a stack's die drawn that far is not its bottom die (hidden under it). A die within reach
    of a lower and an upper chip lies on the lower."""
    corners = np.array([[0, 0], [880, 0], [880, 630], [0, 630]], np.float32)
    pts = tuple((float(x), float(y)) for x, y in corners)

    def seen(notation: str, card_id: str, chip: int, lift: float) -> list[tuple]:
        spots = chip_spots(notation, corners)
        spot = next(s for s in spots if s.chip == chip)
        x, y = spot.centre[0], spot.centre[1] - lift * spot.radius
        dice = Detections(np.array([[x - 30, y - 30, x + 30, y + 30]]), np.ones(1), [0], ("red5",))
        return [(d.on, d.level) for d in assign_dice((CardSeen(pts, "bomb", card_id, 0.9, spots),), dice)]

    pyramid = "pyramid [C] [C] [C] | [#] [#] | [split]"
    assert seen(pyramid, "C-G51", 4, 1.7) == [(("C-G51", 4), 1)]
    assert seen(pyramid, "C-G51", 2, 0.3) == [(("C-G51", 2), 0)]  # under chip 6, within both reaches: the lower
    stack = "stack [#] > [#] > [#] > [#]"
    assert seen(stack, "F-015", 1, 0.5) == [(("F-015", 1), 0)]
    assert seen(stack, "F-015", 3, 2.6) == [(("F-015", 3), 2)]
    assert seen("[#] = [#] = [#]", "F-011", 1, 1.5) == [(None, 0)]  # a card with no upper chip reaches no further


def test_a_die_on_a_card_seen_at_a_slant_stands_up_the_frame_from_its_chip_and_lies_on_it() -> None:
    """Seen at a slant (a card drawn shorter down the frame than across), a die shows its near side under its top:
    its box is taller than its footprint and its centre lies up the frame from its chip, by half the side's height,
    beyond the reach of a die seen from overhead. It lies on that chip; a die as far down the frame does not."""
    corners = np.array([[0, 0], [880, 0], [880, 315], [0, 315]], np.float32)  # half as tall as from overhead
    pts = tuple((float(x), float(y)) for x, y in corners)
    spots = chip_spots("[#] = [#] = [#]", corners)
    card = CardSeen(pts, "bomb", "F-011", 0.9, spots)  # type: ignore[arg-type]
    x, y, r = spots[1].centre[0], spots[1].centre[1], spots[1].radius
    width, side = 2.8 * r, 3.0 * r  # footprint 2.8 r across, 1.4 r down the frame; the side 3 r tall

    def on(dy: float) -> list:
        top, bottom = y + dy - (1.4 * r + side) / 2, y + dy + (1.4 * r + side) / 2
        dice = Detections(np.array([[x - width / 2, top, x + width / 2, bottom]]), np.ones(1), [0], ("red5",))
        return [d.on for d in assign_dice((card,), dice)]

    assert on(-side / 2) == [("F-011", 2)]
    assert on(side / 2) == [None]


def test_a_role_card_too_grainy_to_name_resembles_the_role_its_words_read_closest(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Countdown's role cards alike but for their words: one seen small and grainy is not named, and the roles it
    resembles (a stand-in's hint) are ranked by its words read larger; the colour grid puts another role first for
    five of these six."""
    monkeypatch.setenv("FUSE_REFEREE_HOME", str(tmp_path))
    layout, unnamed = TableLayout(edition="countdown"), []
    for card in (c for c in load_catalog("countdown").cards if c.kind == "role"):
        face = np.ascontiguousarray(card_texture(CardFace.from_card(card))[0][..., :3])
        frame, _, box = view(face, np.random.default_rng(4), tilt=10, width=70)
        grain = np.random.default_rng(4).normal(0, 12, frame.shape).astype(np.int8)
        frame = cv2.add(cv2.GaussianBlur(frame, (0, 0), 1.0), grain, dtype=cv2.CV_8U)
        seen = layout.card(frame, np.asarray(box, np.float32), "role", 1.0)
        assert seen.card_id in (None, card.id)
        if seen.card_id is None:
            unnamed.append((card.id, seen.resembles[0], seen.likely))
    assert len(unnamed) >= 2 and all(role == first and likely is None for role, first, likely in unnamed), unnamed


def test_bad_frames_give_empty_results(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from vision.errors import VisionError

    monkeypatch.setenv("FUSE_REFEREE_HOME", str(tmp_path))
    black = np.zeros((720, 1280, 3), np.uint8)
    assert find_corners(black, (100, 100, 300, 240)) is None
    assert find_corners(black, (0, 0, 1280, 720)) is None
    assert find_corners(np.zeros((8, 8, 3), np.uint8), (1, 1, 6, 6)) is None
    with pytest.raises(VisionError, match="H x W x 3"):
        find_corners(np.zeros((10, 10), np.uint8), (1, 1, 6, 6))
    det = Detections([[100, 100, 300, 240]], [0.9], [0], ("bomb",))
    obs = TableLayout(edition="fuse").observe(black, det)
    assert obs.cards == () and obs.dice == ()


@pytest.mark.parametrize("at_once", [False, True], ids=["bare at first", "with a die at once"])
@pytest.mark.parametrize("moved_to", [(620.0, 420.0), None], ids=["slid elsewhere", "taken away"])
def test_a_card_put_where_a_named_card_lay_does_not_take_its_name(  # type: ignore[no-untyped-def]
        sample, tmp_path, monkeypatch, moved_to, at_once) -> None:
    """A named card slides away (dealt along the row) or is taken off the table, and another card is put where it
    lay (the row card taken in a defuse), one the layout cannot name (a twin of it is known too) but that clearly
    looks like another card: it stays unknown, frame after frame, instead of taking the name left there; also
    once a die lies on it and a hand took it out of sight for a frame, and when what looks like a die (a printed
    chip) lies on it from the first frame it shows there. Where the card was taken away, not named elsewhere, the
    card put there says which card it is not (``instead_of``)."""
    monkeypatch.setenv("FUSE_REFEREE_HOME", str(tmp_path))
    img, truth = sample[1]
    det = detections_of(truth)
    named = {c.card_id for c in TableLayout(edition="fuse").observe(img, det, 0).cards if c.card_id}
    boxes = {c["id"]: np.array(c["box"], np.float32) for c in truth["cards"] if c["id"] in named}
    first, other = list(boxes)[:2]
    gallery = Gallery.load("fuse", enrolled=False)
    twin = replace(gallery.by_id[other], card_id="F-TWIN", notation=gallery.by_id[other].notation + " [#]")
    gallery = Gallery([*gallery.entries, twin])
    background = np.median(img.reshape(-1, 3), 0).astype(np.uint8)

    def scene(cards: list[tuple[str, tuple[float, float]]]) -> tuple[np.ndarray, Detections]:
        """A table with the given cards (id, top-left corner) cut from the sample frame with a margin."""
        frame, xyxy = np.full_like(img, background), []
        for card, (x, y) in cards:
            x1, y1, x2, y2 = (boxes[card] + [-6, -6, 6, 6]).astype(int)
            frame[int(y) : int(y) + y2 - y1, int(x) : int(x) + x2 - x1] = img[y1:y2, x1:x2]
            xyxy.append([x + 6, y + 6, x + x2 - x1 - 6, y + y2 - y1 - 6])
        bomb = det.names.index("bomb")
        return frame, Detections(np.array(xyxy, np.float32).reshape(-1, 4), np.ones(len(xyxy)), [bomb] * len(xyxy),
                                 det.names)

    here = (200.0, 150.0)
    layout = TableLayout(gallery, "fuse")
    shown = layout.observe(*scene([(first, here)]), 0)
    assert [c.card_id for c in shown.cards] == [first]
    away = [(first, moved_to)] if moved_to else []
    layout.observe(*scene(away), 1)
    frame, found = scene([(other, here), *away])
    alone = gallery.matcher.match(frame, np.array(layout.card(frame, found.xyxy[0], "bomb", 1.0).corners))
    assert alone.card_id is None and alone.best in (other, "F-TWIN")  # told from no twin, like nothing else
    centre = (found.xyxy[0, :2] + found.xyxy[0, 2:]) / 2
    die = next(i for i, name in enumerate(det.names) if name not in ("bomb", "fuse", "spark", "role", "back"))
    with_die = Detections(np.vstack([found.xyxy, [[*(centre - 9), *(centre + 9)]]]), np.ones(len(found) + 1),
                          [*found.class_id, die], det.names)
    steps = ((2, with_die), (3, with_die)) if at_once else ((2, found), (3, found), (4, found), (6, with_die))
    for index, seen in steps:
        if index == 6:
            layout.observe(*scene(away), 5)  # a hand over it
        cards = layout.observe(frame, seen, index).cards
        put_there = min(cards, key=lambda c: float(np.linalg.norm(np.mean(c.corners, 0) - centre)))
        assert put_there.card_id is None and put_there.likely in (other, "F-TWIN"), index
        if index == 2:  # shown whole as another card where the card taken away lay: the tracker's sign it left
            assert put_there.instead_of == (None if moved_to else first)


def test_an_outline_far_longer_than_a_card_is_no_card() -> None:
    """A card box on a strip of table pattern (at the frame's edge) outlines a band 3.5 times as long as it is
    wide: no card. An outline of a card's proportions in the same place is one."""
    found = {}
    for name, (w, h) in {"band": (180, 48), "card": (130, 92)}.items():
        frame = np.full((720, 1280, 3), (90, 50, 30), np.uint8)
        x, y = 200, 720 - h - 10
        cv2.rectangle(frame, (x, y), (x + w, y + h), (170, 110, 60), -1)
        found[name] = find_corners(frame, (x - 2, y - 2, x + w + 2, y + h + 2))
    assert found["band"] is None and found["card"] is not None


def test_an_outline_cut_to_a_length_keeps_the_end_asked_for() -> None:
    outline = np.array([[0, 0], [200, 0], [200, 80], [0, 80]], np.float32)
    assert np.allclose(cut_to(outline, 120, from_end=False), [[0, 0], [120, 0], [120, 80], [0, 80]])
    assert np.allclose(cut_to(outline, 120, from_end=True), [[80, 0], [200, 0], [200, 80], [80, 80]])
    assert cut_to(outline, 200, from_end=False) is None  # no shorter than it is


def test_a_card_read_upside_down_once_keeps_the_way_up_it_was_read_in_its_place(sample, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A card does not turn in place without being lifted: read one way up twice, then once (dice over the print
    that tells its ends apart) the other way up, its chips keep the numbers they had."""
    monkeypatch.setenv("FUSE_REFEREE_HOME", str(tmp_path))
    img, truth = sample[1]
    det = detections_of(truth)
    layout = TableLayout(edition="fuse")
    first = layout.observe(img, det, 0)
    card = next(c for c in first.cards if c.card_id and len({s.centre for s in c.chips}) >= 2)  # not a stack
    k = next(i for i, b in enumerate(det.xyxy) if np.allclose(np.mean(card.corners, 0), (b[:2] + b[2:]) / 2, atol=3))
    gone = Detections(np.delete(det.xyxy, k, 0), np.delete(det.confidence, k), np.delete(det.class_id, k), det.names)
    corners = np.array(card.corners, np.float32)
    half_turn = cv2.warpPerspective(img, cv2.getPerspectiveTransform(corners, np.roll(corners, 2, 0)),
                                    img.shape[1::-1])
    inside = cv2.fillConvexPoly(np.zeros(img.shape[:2], np.uint8), corners.astype(np.int32), 1).astype(bool)
    turned = np.where(inside[..., None], half_turn, img)  # the same card, the other way up, in the same place
    alone = layout.gallery.matcher.match(turned, corners)
    assert alone.card_id == card.card_id and alone.corners[0] == pytest.approx(corners[2], abs=3)

    def chips_in(frame: np.ndarray, index: int) -> np.ndarray:
        seen = next(c for c in layout.observe(frame, det, index).cards if c.card_id == card.card_id)
        return np.array([s.centre for s in sorted(seen.chips, key=lambda s: s.chip)])

    want = np.array([s.centre for s in sorted(card.chips, key=lambda s: s.chip)])
    layout.observe(img, gone, 1)  # a hand over it: read afresh when it shows again
    assert chips_in(img, 2) == pytest.approx(want, abs=3)
    layout.observe(img, gone, 3)
    assert chips_in(turned, 4) == pytest.approx(want, abs=3)


def test_a_die_the_locator_is_unsure_of_counts_only_on_a_chip_and_read_surely(sample, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Under the layout's confidence (0.25), a die the locator finds on a chip spot of a named card is kept if its
    confidence with its reading stays over ``ON_CHIP`` of that; the same find loose on the table, read unsurely, or
    on a chip a sure die holds, is dropped. Sure dice count anywhere."""
    monkeypatch.setenv("FUSE_REFEREE_HOME", str(tmp_path))
    img, truth = sample[1]
    det = detections_of(truth)
    loose = [[40.0, 660.0, 60.0, 680.0], [80.0, 660.0, 100.0, 680.0]]  # bare table, far from every card
    green6 = det.xyxy[det.class_name.index("green6")]
    second = green6 + [0, 4, 0, 4]  # a second, less sure box on the sure green6, lower (a stack's bottom die)
    names = det.class_name + ["red5", "red5", "green6"]
    located = np.ones(len(names))
    confidence = np.ones(len(names))
    unsure = {"red5": 0.14, "blue1": 0.05}  # the reading's certainty times the locator's 0.15
    for k, name in enumerate(det.class_name):
        if name in unsure:
            located[k], confidence[k] = 0.15, unsure[name]
    located[-3], confidence[-3] = 0.15, 0.14  # the first loose die unsure, the second sure
    located[-1], confidence[-1] = 0.15, 0.14
    found = Detections(np.vstack([det.xyxy, loose, second]), confidence, [det.names.index(n) for n in names],
                       det.names, data={"located": located})
    dice = [(d.die, d.on, d.box[0:2]) for d in TableLayout(edition="fuse").observe(img, found).dice]
    assert ("red5", ("F-G06", 1)) in [d[:2] for d in dice] and "blue1" not in [d[0] for d in dice]
    assert [d for d in dice if d[1] is None] == [("red5", None, (80.0, 660.0))]
    assert [d[:2] for d in dice if d[0] == "green6"] == [("green6", ("F-G06", 2))]
    assert [d[2] for d in dice if d[0] == "green6"] == [pytest.approx(tuple(green6[:2]), abs=0.1)]


@pytest.mark.parametrize(("how_sure", "kept"), [(0.15, False), (0.6, False), (0.9, True)])
def test_a_die_the_locator_is_unsure_of_on_a_bare_chip_is_the_print(  # type: ignore[no-untyped-def]
        sample, tmp_path, monkeypatch, how_sure, kept) -> None:
    """A find on a chip where nothing lies (the chip's print, a die drawn on the card, taken for a die) that the
    locator is less sure of than ``PRINT_SURE`` is dropped, whether under the layout's ``conf`` or over it: the
    card's own print explains that spot. The die really on a chip, found as unsurely, is kept; a find the locator
    is sure of is a die."""
    monkeypatch.setenv("FUSE_REFEREE_HOME", str(tmp_path))
    img, truth = sample[1]
    det = detections_of(truth)
    layout = TableLayout(edition="fuse")
    seen = layout.observe(img, det)
    held = {d.on for d in seen.dice}
    bare = [(card.card_id, spot) for card in seen.cards if card.card_id for spot in card.chips
            if (card.card_id, spot.chip) not in held]
    assert bare
    prints = [[s.centre[0] - s.radius, s.centre[1] - s.radius, s.centre[0] + s.radius, s.centre[1] + s.radius]
              for _, s in bare]
    names = (*det.names, "red3") if "red3" not in det.names else det.names
    located = np.ones(len(det) + len(prints))
    confidence = np.ones(len(located))
    located[len(det):], confidence[len(det):] = how_sure, how_sure - 0.01  # the prints, and the real red5
    red5 = det.class_name.index("red5")
    located[red5], confidence[red5] = how_sure, how_sure - 0.01
    found = Detections(np.vstack([det.xyxy, prints]), confidence,
                       [*det.class_id, *[names.index("red3")] * len(prints)], names, data={"located": located})
    dice = [(d.die, d.on) for d in TableLayout(edition="fuse").observe(img, found).dice]
    assert ("red5", ("F-G06", 1)) in dice
    assert ("red3" in [d[0] for d in dice]) == kept, (bare, dice)


@pytest.mark.parametrize(("nearer", "apart"), [(1.0, 0.55), (0.92, 0.55), (1.0, 0.2)],
                         ids=["neighbours as long", "neighbours 8 % shorter", "a fifth of a card apart"])
def test_the_card_laid_partly_over_another_is_named_through_one_box_round_both(  # type: ignore[no-untyped-def]
        sample, tmp_path, monkeypatch, nearer: float, apart: float) -> None:
    """Two cards laid side by side in a pile, the second half over the first (the cards set aside at the deal),
    boxed as one: the card on top is named (the outline, two cards long, names nothing), its corners its own; also
    when the named cards near it look 8 % shorter (perspective): a cut names its card only near the card's length;
    and when the top card covers all but a fifth of the one under it (an outline 1.2 cards long: h3s202's pile)."""
    monkeypatch.setenv("FUSE_REFEREE_HOME", str(tmp_path))
    img, truth = sample[1]
    det = detections_of(truth)
    crops = {c["id"]: np.array(c["box"], int) for c in truth["cards"]}
    under, top, others = "F-016", "F-011", ("F-009", "F-008", "F-015")  # cards of a size in the sample frame
    background = np.median(img.reshape(-1, 3), 0).astype(np.uint8)
    frame, xyxy = np.full_like(img, background), []

    def paste(card: str, x: int, y: int, scale: float = 1.0) -> np.ndarray:
        x1, y1, x2, y2 = crops[card]
        face = cv2.resize(img[y1:y2, x1:x2], None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        frame[y : y + face.shape[0], x : x + face.shape[1]] = face
        return np.array([x, y, x + face.shape[1], y + face.shape[0]], np.float32)

    for k, card in enumerate(others):
        xyxy.append(paste(card, 80 + 260 * k, 60, nearer))
    first = paste(under, 300, 400)
    second = paste(top, 300 + int(apart * (first[2] - first[0])), 400)
    xyxy.append(np.concatenate([np.minimum(first[:2], second[:2]), np.maximum(first[2:], second[2:])]))
    bomb = det.names.index("bomb")
    found = Detections(np.array(xyxy), np.ones(len(xyxy)), [bomb] * len(xyxy), det.names)
    assert TableLayout(edition="fuse").card(frame, found.xyxy[-1], "bomb", 1.0).card_id is None  # names nothing

    layout = TableLayout(edition="fuse")
    layout.observe(frame, found[: len(others)], 0)  # the cards around it named before the pile is laid
    pile = layout.observe(frame, found, 1).cards[-1]
    assert pile.card_id == top
    assert np.all((np.mean(pile.corners, 0) >= second[:2]) & (np.mean(pile.corners, 0) <= second[2:]))
    # the top card taken off, a hand over the one under it, boxed on its own: the box round both was not the top
    # card's own, so its name is not lent to the card seen unnamed in that place
    frame[:, int(second[0]) :] = np.where(np.arange(frame.shape[0])[:, None, None] >= 350, background,
                                          frame[:, int(second[0]) :])
    paste(under, 300, 400)
    cv2.rectangle(frame, (int(first[0]) + 40, 380), (int(first[2]) + 10, int(first[3]) + 20), (120, 150, 200), -1)
    alone = Detections(np.vstack([found.xyxy[: len(others)], [first]]), np.ones(len(others) + 1),
                       [bomb] * (len(others) + 1), det.names)
    assert top not in {c.card_id for c in layout.observe(frame, alone, 2).cards}


def test_a_card_named_through_a_cut_of_its_outline_is_read_again_and_then_keeps_its_name(  # type: ignore[no-untyped-def]
        sample, tmp_path, monkeypatch) -> None:
    """A card whose outline reaches over something beside it for a moment (two cards outlined as one) is named
    through a cut, and such a name stays off its place. Lying still in the same box, alone again, it is read again
    (not kept as read through the cut), so it is named in its place: a hand over it later does not unname it
    (minute v3s618's C-G30, unnamed for the rest of the game)."""
    monkeypatch.setenv("FUSE_REFEREE_HOME", str(tmp_path))
    img, truth = sample[1]
    det = detections_of(truth)
    crops = {c["id"]: np.array(c["box"], int) for c in truth["cards"]}
    beside, card, others = "F-016", "F-011", ("F-009", "F-008", "F-015")
    background = np.median(img.reshape(-1, 3), 0).astype(np.uint8)
    frame = np.full_like(img, background)

    def paste(name: str, x: int, y: int) -> np.ndarray:
        x1, y1, x2, y2 = crops[name]
        frame[y : y + y2 - y1, x : x + x2 - x1] = img[y1:y2, x1:x2]
        return np.array([x, y, x + x2 - x1, y + y2 - y1], np.float32)

    xyxy = [paste(name, 80 + 260 * k, 60) for k, name in enumerate(others)]
    under = paste(beside, 300, 400)
    top = paste(card, 300 + int(0.2 * (under[2] - under[0])), 400)
    both = np.concatenate([np.minimum(under[:2], top[:2]), np.maximum(under[2:], top[2:])])
    bomb = det.names.index("bomb")

    def seen(boxes: list[np.ndarray]) -> Detections:
        return Detections(np.array(boxes), np.ones(len(boxes)), [bomb] * len(boxes), det.names)

    layout = TableLayout(edition="fuse")
    layout.observe(frame, seen(xyxy), 0)
    assert layout.observe(frame, seen([*xyxy, both]), 1).cards[-1].card_id == card  # through a cut
    frame[:, : int(top[0])] = np.where(np.arange(frame.shape[0])[:, None, None] >= 350, background,
                                       frame[:, : int(top[0])])  # the card beside it gone: the card alone
    paste(card, int(top[0]), 400)
    for index in range(2, RETRY_FRAMES + 3):
        layout.observe(frame, seen([*xyxy, both]), index)
    x1, y1, x2, y2 = top.astype(int)
    cv2.rectangle(frame, (x1 + 10, y1 + 15), (x2 - 10, y2 - 10), (120, 150, 200), -1)  # a hand over its chips
    moved = top + np.float32([-6, -4, 6, 4])  # boxed round the card alone now
    assert layout.observe(frame, seen([*xyxy, moved]), RETRY_FRAMES + 3).cards[-1].card_id == card


def test_a_card_keeping_its_name_under_a_hand_keeps_the_largest_of_its_boxes(  # type: ignore[no-untyped-def]
        sample, tmp_path, monkeypatch) -> None:
    """A card named through a box a hand cut a little is then seen whole, covered, a die on it: it keeps its name
    and its place becomes the whole box, so a hand cutting the box on the other side does not unname it
    (cd3s1006's C-G47). Boxes cut smaller and smaller as a hand comes do not shrink the place: seen whole again,
    the card is still the one named there (h2s1001's F-011)."""
    monkeypatch.setenv("FUSE_REFEREE_HOME", str(tmp_path))
    img, truth = sample[1]
    cards = [c for c in truth["cards"] if c.get("label") and c.get("box")]
    k = next(i for i, c in enumerate(cards) if c["id"] == "F-016")
    whole = np.array(cards[k]["box"], np.float32)
    width = float(whole[2] - whole[0])

    def seen(box: np.ndarray, die_at: tuple[float, float] | None = None) -> Detections:
        boxes = np.array([c["box"] for c in cards], np.float32)
        boxes[k] = box
        return with_a_die(cards, die_at, boxes)

    def named(observation) -> bool:  # type: ignore[no-untyped-def]
        return "F-016" in {c.card_id for c in observation.cards}

    layout = TableLayout(edition="fuse")
    first = layout.observe(img, seen(whole + np.float32([0.11 * width, 0, 0, 0])), 0)  # its left edge cut
    card = next(c for c in first.cards if c.card_id == "F-016")
    covered = hand_over(img, card)
    die = card.chips[0].centre

    def cut(share: float) -> np.ndarray:  # the right side cut off, ``share`` of the card's width left
        return whole - np.float32([0, 0, (1 - share) * width, 0])

    assert named(layout.observe(covered, seen(whole, die), 1))
    assert named(layout.observe(covered, seen(cut(0.55), die), 2))  # overlapping the first box by less than half
    layout.observe(covered, seen(cut(0.3), die), 3)  # the box walked smaller as the hand came
    assert named(layout.observe(covered, seen(whole, die), 4))
