"""Table layout: card detections -> corners, identity and chip spots; dice -> the chip they rest on.

``TableLayout.observe(frame, detections, index, elapsed)`` builds the ``TableObservation`` of one frame. Finding
corners (~1.5 ms) and identifying (~20 ms) a card is done once: while a card's box stays put (IoU over
``STILL_IOU`` with the box it was identified in) its corners, identity and chip spots are reused, so a settled
table costs well under a millisecond per frame. An unknown card is retried every ``RETRY_FRAMES`` frames (a hand
over it may have left), ``RETRIES_PER_FRAME`` cards a frame at most, and every frame where a card was named before
in its place (see ``FORGET_FRAMES``). An unknown card never named in its place whose outline is no parallelogram
(a card over a neighbour of its colours) is also read with a corner completed, ``COMPLETED_PER_FRAME`` readings a
frame. An unknown card outlined longer than the named cards near it (two cards, one laid partly over the other,
boxed as one) is read again cut to their length at either end (``PAIR``). The readings of a card in its place
vote on which way up it lies (``Turns``). Dice the locator is less sure of count only on chips (``ON_CHIP``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np

from models.metrics import box_iou
from vision.cast import Cast
from vision.corners import FACE_H_MM, FACE_W_MM, cut_to, find_corners
from vision.detections import Detections
from vision.gallery import Gallery
from vision.identify import ACCEPT, COVERED, MIN_SEEN, Identity, face_grid, skewed
from vision.observation import CardSeen, ChipSpot, DieSeen, Point, TableObservation, chip_names
from vision.roles import RoleReader

STILL_IOU = 0.9
"""A card whose box overlaps its last box this much has not moved: its corners and identity are reused."""
SAME_IOU = 0.5
"""A card overlapping a named card's last box this much, in sight without a break, is that card: a card does not
change in place without being lifted (its box gone for a frame at least), while the dice and hands over it can
change its box and hide what names it."""
RETRY_FRAMES = 10
RETRIES_PER_FRAME = 1
"""Unknown card fronts lying still read again in one frame at most, the longest unread first: a table of cards
that cannot be named (a deck not enrolled) costs a reading or so a frame, not one per card every ``RETRY_FRAMES``
(live, where frames are skipped, several readings a frame)."""
COMPLETED_PER_FRAME = 1
"""Readings of unknown cards with a corner completed (``identify.SKEW``) in one frame at most, the cards read so
the fewest times first (a card just turned up), a corner each time: all four for every such card in every frame,
``fuse-referee bench pipeline`` fell from 40-42 to 26-27 frames/s; one a frame keeps 40 (what each gains in the
games: vision/README.md, twenty-fifth session)."""
FORGET_FRAMES = 60
"""A named card missing from the detections (a hand over it) is remembered this many frames. When a card shows
in the place of a card named before and comes back unknown, it keeps that name if the gallery's closest card to
it is still that one (with at least ``identify.MIN_SEEN`` of its cells explained): dice or a hand now cover the
chips that told it from its twins; or if dice lie on it (dice go on players' cards only, and a card put where
another lay carries none yet). A card of another look identified there replaces it at once. Measured with
``python -m vision.measure_cards datasets/sample`` (layout on every frame, truth boxes): dice on chips right
118 of 128, none wrong; 68 when missing cards are forgotten at once."""
KEEP_SEEN = 0.25
"""A card already named keeps its name with this share of its cells explained (naming a card afresh needs
``identify.MIN_SEEN``): confirming what was seen in that place needs less evidence than naming it anew, and a
completed card carries dice on every chip and often a hand."""
WHOLE = 0.95
"""A card put where a named card lay keeps that name while dice lie on it, which cover what tells it from its
twins; not when this share of its face is explained by cards that exclude that name (the row card taken in a
defuse, put where the defused card lay, carries printed chips that the locator may take for dice)."""
SMALL = 0.35
"""A card detection with no name known in its place and a box under this share of the median box of the named
cards and card backs in view is no card (the dice bag, a shadow): every card is the same size, and fully visible
ones measured at least 0.48 of the frame's median box on 12 rendered games (tilt, turns), the dark dice bag the
locator took for a card 0.30."""
CUT = 0.6
"""A box with no name known in its place that touches the frame's edge is no card under this share of the median
box of the ``NEAR`` named cards and backs nearest it (perspective makes the near cards larger): a card cut by the
edge, or the table's edge taken for one (a locator trained on tiles, where cards cut by the tile's edge are
labelled, sees such fragments). Too little of a card shows to name it or find its chips, and an unknown card is
a stand-in in the deal, which a false one throws out of step."""
NEAR = 3
PAIR = 1.15
"""An unknown card outlined this many times as long as the ``NEAR`` named cards nearest it is two cards outlined as
one, one laid partly over the other (the cards set aside at the deal lie side by side in a pile): the outline is
read again cut to their length at either end, and the first cut that names a card names the one on top. (By the
long side, not the box: a card lying askew has a larger box than its neighbours, not a longer side.) 1.3 until the
thirty-third session: fresh h3s202's top card covers all but a fifth of the one under it, an outline 1.27 times its
neighbours', never named. At 1.15 an outline grown for a frame or two by something beside it is cut too, so a card
named through a cut is read again (``observe``), not kept so while it lies still (one-minute v3s618's C-G30, named
so, then nameless under dice for the rest of the game, 37 -> 32 events until it was)."""
PAIR_LENGTHS = (1.0, 1.04, 0.96)
"""The lengths a ``PAIR`` outline is cut to, in turn, as shares of its neighbours' long side: a cut names its card
within about 3 % of the card's own length (unseen2 p4s505 at -4.67 s, the card on top 101 px long: cut to 100 or
103 px it is named, to 97 or 106 not), and perspective makes neighbours a little longer or shorter."""
EDGE_PX = 2
"""A box this near the frame's border touches its edge."""
ON_CHIP = 0.4
"""A die the locator is less sure of than the layout's ``conf`` (0.25), but at least this share of it (0.1), is
kept when it rests on a chip spot of a card in view, and dropped elsewhere: dice on cards are where the locator
is least sure (a blue die on a navy board, a green one on a green chip), and a die-shaped find just where a die
goes is rarely anything else. The detector must find that much (``detector_conf``)."""
PRINT_FIT = COVERED
"""A less sure die (under the layout's ``conf``) on a chip whose cells the card's print explains this well (mean
residual, ``identify``) is the print read as a die: a die put on the chip covers the print ..."""
PRINT_CLEAN = 0.02
PRINT_SURE = 0.7
"""... and so is a surer one, under ``PRINT_SURE``, that the print explains within ``PRINT_CLEAN``. A chip printed
with a die's colour or face looks like a die from above, and the locator trained on tiles finds such prints at
0.26-0.53 (10th-90th percentile). On every 6th frame of the 17 probe, tuning and fresh games (a throwaway script
over their cached observations and ``frames.json`` truth, not kept; 10,516 dice on chips
of named cards, less sure ones already dropped by ``PRINT_FIT``), 960 dice lay on chips where the truth has none:
528 of them the print explains within 0.02, and none of the 9,556 real dice, however sure the locator is (within
0.03: 570 and 16; 0.04: 571 and 38). Under 0.7 the print is looked at for 42 % of the dice on chips (all 528
found; under 0.5, 17 % and 508)."""
REACH = 1.3
LIFT = 1.0
"""A die rests on a chip when its box centre is within ``REACH`` chip radii of the chip's spot, ``LIFT`` more for
each level the chip lies up (``assign_dice``). ``python -m vision.measure_cards --levels GAMES --step 10`` over the
62 rendered games of every set and the sample (twenty-third session), before ``LIFT`` -> with it: one level up on
its chip 1 -> 238 of 740 dice (loose 325 -> 72; most others on the chip under theirs, whose die is hidden), two
up 0 -> 27 of 148 (loose 128 -> 18), three up 0 -> 2 of 70 (loose 32 -> 2); the bottom level 22,048 of 22,059
either way, and 3 loose dice put on a chip either way. A die standing on a card seen at a slant is measured from
where it stands (``assign_dice``): over the 80 looked-into games' cached observations (thirty-ninth session, a
throwaway script matching the detected dice to the truth's), of about 254,600 sightings of a die on a chip of a
named card, 3,962 -> 918 seen loose; of 86,486 sightings of a loose die, 3 -> 4 put on a chip. Its standing thus
not counted, ``LIFT`` 0.8 -> 1.0 (the same measurement over the probe3, probe4, probe5, probe7 and unseen games,
every 20th frame): one level up on its chip 81 -> 108 of 211 (none loose either way), two up 9 -> 0 of 43 (loose
11 -> 0: all on the chip under theirs, which the interpreter lifts them from), the bottom level 5,619 of 5,619
either way; all 92 games 5,215 -> 5,237 events, 59 -> 60 scores exact (1.2 and 1.5 no better on the looked-into
games, 1.5 with a false violation)."""
FRONT_TYPES = ("bomb", "spark", "fuse", "role")


def face_homography(corners: np.ndarray) -> np.ndarray:
    """Homography from card millimetres (88 x 63, origin top-left as read) to frame pixels."""
    src = np.array([[0, 0], [FACE_W_MM, 0], [FACE_W_MM, FACE_H_MM], [0, FACE_H_MM]], np.float32)
    return cv2.getPerspectiveTransform(src, np.asarray(corners, np.float32).reshape(4, 2))


def chip_spots(notation: str, corners: np.ndarray) -> tuple[ChipSpot, ...]:
    """Where each chip's die rests in the frame, from the card's notation and its corners in reading order."""
    from datasets.layout import chip_positions

    if not notation:
        return ()
    seats = chip_positions(notation)
    h = face_homography(corners)
    pts = []
    for s in seats:
        x, y, half = s.u * FACE_W_MM, s.v * FACE_H_MM, s.size * FACE_W_MM / 2
        pts += [(x, y), (x - half, y), (x + half, y), (x, y - half), (x, y + half)]
    mapped = cv2.perspectiveTransform(np.array([pts], np.float32), h)[0].reshape(-1, 5, 2)
    spots = []
    for s, p in zip(seats, mapped):
        radius = (np.linalg.norm(p[2] - p[1]) + np.linalg.norm(p[4] - p[3])) / 4
        spots.append(ChipSpot(s.chip, (round(float(p[0, 0]), 2), round(float(p[0, 1]), 2)), round(float(radius), 2),
                              s.level))
    return tuple(spots)


def _squash(corners: Sequence[Point]) -> float:
    """How much shorter a small circle on the card looks down the frame than across it (1: seen from overhead)."""
    c = np.asarray(corners, np.float32)
    across, down = (c[1] - c[0]) / FACE_W_MM, (c[3] - c[0]) / FACE_H_MM
    return float(np.hypot(across[1], down[1]) / max(np.hypot(across[0], down[0]), 1e-6))


def assign_dice(cards: tuple[CardSeen, ...], dice: Detections) -> tuple[DieSeen, ...]:
    """Each die on the chip spot nearest its box centre (within ``REACH`` radii), else loose. A die on an upper chip
    (a stack's, a wall's or a pyramid's) is nearer the camera, so it is drawn further from its spot, ``LIFT`` radii
    more for each level: a place with upper chips reaches further, a die drawn that far lies at least that high,
    and a die within reach of several places lies on the lowest chip it can (a die on the chip under it, hidden
    now, is what the interpreter knows: ``Interpreter._on_top_of_held`` lifts a die seen on a chip the game holds
    onto the chip above). Several dice on one place take its levels bottom first, the nearest its spot first.
    Seen at a slant (the card drawn shorter down the frame than across: ``_squash``), a die shows its near side
    under its top: its box is taller than its footprint, and its centre stands up the frame from its chip by half
    the difference, which is not counted as distance (the camera looks over the table from the players' side, so
    a die is not drawn down the frame from its chip; seen from overhead, its box is as tall as wide)."""
    boxes = dice.xyxy
    centres, sizes = (boxes[:, :2] + boxes[:, 2:]) / 2, boxes[:, 2:] - boxes[:, :2]
    # spots grouped by place: a stack's chips share one place, at levels 0, 1, ...
    places: list[tuple[str, tuple[float, float], float, list[ChipSpot], float]] = []  # ..., its card's ``_squash``
    for card, name in zip(cards, chip_names(cards)):
        if name is None:
            continue
        card_squash = _squash(card.corners)
        for spot in card.chips:
            for card_id, centre, _, group, _ in places:
                if card_id == name and np.hypot(centre[0] - spot.centre[0], centre[1] - spot.centre[1]) < 1:
                    group.append(spot)
                    break
            else:
                places.append((name, spot.centre, spot.radius, [spot], card_squash))
    for _, _, _, group, _ in places:
        group.sort(key=lambda s: s.level)

    # each die's distance from each place, in the place's chip radii, from where it would stand on that place
    spot_xy = np.array([p[1] for p in places], np.float32).reshape(-1, 2)
    radii = np.array([p[2] for p in places], np.float32)
    squash = np.array([p[4] for p in places], np.float32)
    stand = np.maximum(0, sizes[:, 1:2] - sizes[:, 0:1] * squash[None, :]) / 2
    off = centres[:, None, :] - spot_xy[None, :, :]
    down = np.where(off[..., 1] < 0, np.minimum(0, off[..., 1] + stand), off[..., 1])  # up the frame: less its standing
    away = np.hypot(off[..., 0], down) / radii

    def lowest(k: int, place: int, index: int = 0) -> int:
        """The first of the place's chips from ``index`` on that die ``k`` may lie on (``len(group)``: none)."""
        group, far = places[place][3], away[k, place]
        if far > REACH + LIFT * group[-1].level:
            return len(group)  # beyond the reach of its top chip
        while index < len(group) and group[index].level < (far - REACH) / LIFT:  # drawn too far to lie that low
            index += 1
        return index

    on_place: dict[int, list[int]] = {}
    for k in range(len(centres)):
        options = [(places[p][3][i].level, away[k, p], p) for p in range(len(places))
                   if (i := lowest(k, p)) < len(places[p][3])]
        if options:
            on_place.setdefault(min(options)[2], []).append(k)
    where: dict[int, tuple[str, int, int]] = {}
    for p, members in on_place.items():
        card_id, _, _, group, _ = places[p]
        index = 0
        for k in sorted(members, key=lambda k: away[k, p]):
            index = lowest(k, p, index)
            if index == len(group):
                break
            where[k] = (card_id, group[index].chip, group[index].level)
            index += 1
    seen = []
    for k, name in enumerate(dice.class_name):
        card_id, chip, level = where.get(k, (None, 0, 0))
        seen.append(DieSeen(
            name, tuple(round(float(v), 1) for v in boxes[k]), round(float(dice.confidence[k]), 3),  # type: ignore[arg-type]
            (card_id, chip) if card_id else None, level,
        ))
    return tuple(seen)


@dataclass
class _Known:
    box: np.ndarray
    card: CardSeen
    frame: int
    """Frame it was identified in."""
    last: int = -1
    """Last frame it was detected in."""
    name: CardSeen | None = None
    """The card last named in this place (kept while it shows unknown: a hand or dice over it)."""
    turns: Turns | None = None
    """Which way up the card named in this place lies."""
    completed: int = 0
    """Readings with a corner completed made in this place (``_complete_one``): the fewest go first."""
    on_top: bool = False
    """Named as the card on top of two outlined as one (``PAIR``): the box is not the card's own, so its name is not
    lent to a card seen unnamed in its place (a card slid over a row card into its place is named mid-slide, where it
    never lay, and the row card it hid shows there next)."""


def quarter_turn(corners: Sequence[Point] | np.ndarray, reference: np.ndarray) -> int:
    """k such that ``corners`` are ``reference`` read from its k-th corner on (0: read the same way up), wherever
    on the table each lies."""
    c = np.asarray(corners, np.float32)
    c, ref = c - c.mean(0), reference - reference.mean(0)
    return min(range(4), key=lambda k: float(np.abs(np.roll(c, -k, 0) - ref).sum()))


class Turns:
    """Which way up a card named in one place lies, by a vote of its readings there (the latest breaks a tie): a
    card does not turn in place without being lifted, while one reading can take it upside down (dice over the
    print that tells its ends apart; on a card whose chips lie alike both ways up, its chips are then numbered
    backwards)."""

    def __init__(self, card: CardSeen) -> None:
        self.card_id = card.card_id
        self.reference = np.asarray(card.corners, np.float32)
        self.votes = [0]

    def vote(self, corners: Sequence[Point]) -> None:
        self.votes.append(quarter_turn(corners, self.reference))

    def majority(self) -> int:
        return max(set(self.votes), key=lambda k: (self.votes.count(k), len(self.votes) - self.votes[::-1].index(k)))


def _area(box: np.ndarray) -> float:
    return float((box[2] - box[0]) * (box[3] - box[1]))


def _at_edge(box: np.ndarray, width: int, height: int) -> bool:
    return bool(min(box[0], box[1], width - box[2], height - box[3]) <= EDGE_PX)


def _near(box: np.ndarray, centres: list[np.ndarray], values: list[float]) -> float:
    """The median of ``values`` at the ``NEAR`` of ``centres`` nearest ``box``'s centre (0 without any)."""
    if not centres:
        return 0.0
    distance = np.hypot(*(np.array(centres) - (box[:2] + box[2:]) / 2).T)
    return float(np.median(np.asarray(values)[np.argsort(distance)[:NEAR]]))


def _long_side(corners: Sequence[Point] | np.ndarray) -> float:
    q = np.asarray(corners, np.float32).reshape(4, 2)
    return float(np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[2] - q[3])) / 2


def _carries_dice(box: np.ndarray, dice: np.ndarray) -> bool:
    """Whether the centre of any of the (N, 4) die boxes lies in ``box``."""
    centres = (dice[:, :2] + dice[:, 2:]) / 2
    return bool(((centres >= box[:2]) & (centres <= box[2:])).all(1).any())


def _another(identity: Identity | None, name: CardSeen | None) -> bool:
    """Whether a face is shown whole (``WHOLE`` of its cells explained) by cards other than ``name``."""
    return identity is not None and name is not None and identity.seen >= WHOLE and name.card_id not in identity.near


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    return float(box_iou(a, b)[0, 0])


def detector_conf(conf: float) -> float:
    """The detector's threshold for a layout needing ``conf``: low enough for the dice it keeps on chips."""
    return ON_CHIP * conf


def located(detections: Detections) -> np.ndarray:
    """How sure the locator is of each detection (a two-stage detector's confidence also has the reader's)."""
    return detections.data.get("located", detections.confidence)


class TableLayout:
    """Turns each frame's detections into a ``TableObservation``, remembering cards that have not moved.
    Detections under ``conf`` are dropped, but for dice on chips (``ON_CHIP``)."""

    def __init__(self, gallery: Gallery | None = None, edition: str | None = None, conf: float = 0.25) -> None:
        self.conf = conf
        self._gallery = gallery
        self._edition = edition
        self.roles = RoleReader(edition)
        self.cast = Cast()
        """The light's colour, learned from the cards named: cards are read with it undone."""
        self._known: list[_Known] = []
        self._previous = -1
        """The index of the last frame observed: a live source skips frames, so "seen last frame" means this."""

    @property
    def gallery(self) -> Gallery:
        if self._gallery is None:
            self._gallery = Gallery.load(self._edition)
        return self._gallery

    def card(self, frame: np.ndarray, box: np.ndarray, kind: str, confidence: float, index: int = 0) -> CardSeen | None:
        """One card detection -> corners, identity (front types only) and chip spots; None if no card outline
        is found in the box."""
        found = self._identify(self.cast.undo(frame), box, kind, confidence)
        return found[0] if found else None

    def _identify(self, frame: np.ndarray, box: np.ndarray, kind: str, confidence: float,
                  named: Sequence[CardSeen] = ()) -> tuple[CardSeen, Identity | None, bool] | None:
        """The card, the gallery's reading and whether it names the card on top of two outlined as one (``PAIR``,
        judged against the ``named`` cards in view)."""
        corners = find_corners(frame, box)
        if corners is None:
            return None
        identity, on_top = None, None
        if kind in FRONT_TYPES and len(self.gallery):
            identity = self.gallery.matcher.match(frame, corners)
            if identity.card_id is None and named:
                near = _near(box, [np.mean(c.corners, axis=0) for c in named], [_long_side(c.corners) for c in named])
                if _long_side(corners) >= PAIR * near:
                    on_top = self._on_top(frame, corners, near)
            identity = on_top or identity
            corners = identity.corners
            if identity.card_id is not None and identity.explained is not None:
                self.cast.learn(face_grid(frame, corners), self.gallery.by_id[identity.card_id].grid,
                                identity.explained)
        return self._seen(frame, kind, confidence, corners, identity), identity, on_top is not None

    def _on_top(self, frame: np.ndarray, corners: np.ndarray, long_side: float) -> Identity | None:
        """The card on top of two outlined as one (``PAIR``), named through the outline cut to a card's length."""
        for scale in PAIR_LENGTHS:
            for from_end in (False, True):
                cut = cut_to(corners, scale * long_side, from_end)
                if cut is not None and (found := self.gallery.matcher.match(frame, cut)).card_id is not None:
                    return found
        return None

    def _seen(self, frame: np.ndarray, kind: str, confidence: float, corners: np.ndarray,
              identity: Identity | None) -> CardSeen:
        """A card with these corners as the gallery's reading ``identity`` names it (or hints at it)."""
        card_id, conf, chips, likely, resembles = None, float(confidence), (), None, ()
        if identity is not None:
            role = self.roles.read(frame, corners) if kind == "role" and identity.card_id is None else None
            # a role's words, read larger, rank the roles better than the colour grid does (it names few of them)
            ranked = role.ranked if role is not None else ()
            if identity.card_id is not None:
                card_id = identity.card_id
                conf = float(confidence) * identity.confidence
                chips = chip_spots(self.gallery.notation(card_id), corners)
            elif role is not None and role.card_id is not None:
                card_id, conf = role.card_id, float(confidence) * role.score
            elif not ranked and identity.seen >= MIN_SEEN and identity.distance <= ACCEPT and identity.best is not None:
                # explained well, only not told from its look-alikes: the closest is a hint, never a name
                likely = identity.best
                chips = chip_spots(self.gallery.notation(likely), corners)
            if card_id is None:
                resembles = ranked or (identity.near if identity.seen >= MIN_SEEN else ())
        pts = tuple((round(float(x), 2), round(float(y), 2)) for x, y in corners)
        return CardSeen(pts, kind, card_id, round(conf, 3), chips, likely, resembles)  # type: ignore[arg-type]

    def _complete_one(self, frame: np.ndarray, cards: list[CardSeen], known: list[_Known], index: int) -> None:
        """Unknown cards never named in their place whose outline is no parallelogram, read with a corner completed
        (``COMPLETED_PER_FRAME`` readings, the cards read so the fewest times first, each card's corners in turn);
        a card named so is named in its place from now on."""
        if not len(self.gallery):
            return
        cut = [i for i, (card, place) in enumerate(zip(cards, known))
               if card.card_id is None and place.name is None and card.type in FRONT_TYPES and skewed(card.corners)]
        for i in sorted(cut, key=lambda i: known[i].completed)[:COMPLETED_PER_FRAME]:
            corner = known[i].completed % 4
            known[i] = replace(known[i], completed=known[i].completed + 1)
            identity = self.gallery.matcher.match_completed(frame, np.asarray(cards[i].corners, np.float32), corner)
            if identity is not None:
                seen = self._seen(frame, cards[i].type, cards[i].confidence, identity.corners, identity)
                cards[i] = seen
                known[i] = _Known(known[i].box, seen, index, index, seen, Turns(seen), known[i].completed)

    def _turned(self, card: CardSeen, turns: Turns) -> CardSeen:
        """``card`` read the way up its place's vote says, its chip spots numbered that way."""
        shift = turns.majority() - quarter_turn(card.corners, turns.reference)
        if shift % 4 == 0 or not card.chips:
            return card
        corners = np.roll(np.asarray(card.corners, np.float32), shift, 0)
        notation = self.gallery.notation(card.card_id or card.likely)  # type: ignore[arg-type]
        pts = tuple((round(float(x), 2), round(float(y), 2)) for x, y in corners)
        return replace(card, corners=pts, chips=chip_spots(notation, corners))  # type: ignore[arg-type]

    def _same_place(self, box: np.ndarray, kind: str, used: set[int]) -> int | None:
        """The remembered card this detection is (its box overlapping by ``SAME_IOU``, of its type), a named one
        first: a hand over a card changes its box for a moment and gets an unnamed entry of its own, while the
        card named there is remembered (``FORGET_FRAMES``) and is the one that shows again when the hand goes."""
        free = [k for k, known in enumerate(self._known) if k not in used and known.card.type == kind]
        if not free:
            return None
        overlaps = box_iou(np.stack([self._known[k].box for k in free]), box)[:, 0]
        same = [(self._known[k].name is not None, float(overlap), k) for k, overlap in zip(free, overlaps)
                if overlap >= SAME_IOU]
        return max(same)[2] if same else None

    def observe(
        self, frame: np.ndarray, detections: Detections, index: int = 0, elapsed: float = 0.0
    ) -> TableObservation:
        h, w = frame.shape[:2]
        frame = self.cast.undo(frame)  # cards are compared with their print under white light
        cards_in = detections.cards[located(detections.cards) >= self.conf]
        cards: list[CardSeen] = []
        known: list[_Known] = []
        used: set[int] = set()
        named = [k for k in self._known if k.card.card_id]
        boxes = [k.box for k in named]
        boxes += [box for box, kind in zip(cards_in.xyxy, cards_in.class_name) if kind == "back"]
        centres, sizes = [(b[:2] + b[2:]) / 2 for b in boxes], [_area(box) for box in boxes]
        small = SMALL * float(np.median(sizes)) if sizes else 0.0
        placed: list[tuple[np.ndarray, str, float, _Known | None, bool]] = []  # ..., remembered card, lying still
        for box, kind, conf in zip(cards_in.xyxy, cards_in.class_name, cards_in.confidence):
            k = self._same_place(box, kind, used)
            old = self._known[k] if k is not None else None
            least = CUT * _near(box, centres, sizes) if _at_edge(box, w, h) else small
            if (old is None or old.name is None) and _area(box) < least:
                continue
            if k is not None:
                used.add(k)
            # detected last frame and where it was identified: its reading may be reused
            still = old is not None and old.last >= self._previous and _iou(old.box, box) >= STILL_IOU
            placed.append((box, kind, float(conf), old, still))
        # unknown cards lying still are read again in turn, the longest unread first, a few a frame
        due = sorted((old.frame, i) for i, (_, kind, _, old, still) in enumerate(placed)
                     if still and old is not None and kind in FRONT_TYPES and old.name is None
                     and old.card.card_id is None and index - old.frame >= RETRY_FRAMES)
        deferred = {i for _, i in due[RETRIES_PER_FRAME:]}
        for i, (box, kind, conf, old, still) in enumerate(placed):
            name = old.name if old is not None and not old.on_top else None  # (not the box's own: ``_Known``)
            if still and old is not None:
                retry = 1 if name is not None else RETRY_FRAMES
                # (a card named through a cut of its outline is read again: named so, its name stays off the place)
                if (old.card.card_id is not None and not old.on_top) or index - old.frame < retry or i in deferred:
                    cards.append(old.card)
                    known.append(replace(old, last=index, name=name))
                    continue
            found = self._identify(frame, box, kind, conf, [k.card for k in named])
            if found is None:
                continue
            seen, identity, on_top = found
            turns = old.turns if old is not None and name is not None and old.turns is not None \
                and old.turns.card_id == name.card_id else None
            if turns is not None and turns.card_id in (seen.card_id, seen.likely):
                turns.vote(seen.corners)
                seen = self._turned(seen, turns)
            # shown under its name in this place up to the last frame (a card shown unknown there may be another)
            in_sight = (old is not None and old.last >= self._previous
                        and name is not None and old.card.card_id == name.card_id)
            another = seen.card_id is None and _another(identity, name)
            if (seen.card_id is None and name is not None and identity is not None
                    and (in_sight or (identity.best == name.card_id and identity.seen >= KEEP_SEEN)
                         or (_carries_dice(box, detections.dice.xyxy) and not another))):
                # in the same place as a card named before and still closest to it: it keeps its name though
                # dice or a hand now cover the chips that told it from its twins
                if turns is not None:
                    name = self._turned(name, turns)
                cards.append(name)
                # (in the larger of its boxes: one kept from where a hand cut it, cd3s1006's C-G47, is not the place
                # the card shows in whole when the hand goes, nor is one cut as a hand comes, h2s1001's F-011)
                whole = box.copy() if _area(box) > _area(old.box) else old.box  # type: ignore[union-attr]
                known.append(replace(old, box=whole, card=name, last=index, name=name,  # type: ignore[arg-type]
                                     turns=turns))
                continue
            if seen.card_id is not None and (turns is None or turns.card_id != seen.card_id):
                turns = Turns(seen)
            if another:
                seen = replace(seen, instead_of=name.card_id)  # type: ignore[union-attr]
            cards.append(seen)
            # an unknown card explained well by cards that do not include the one named in its place is another
            # card, put there as the named one left (the row card taken in a defuse): it takes no name from there.
            # (Only here, after the card in sight or carrying dice kept its name: dropping the name before that
            # cost p4s205 30 events and s11 9, a card under dice often looking like another.)
            if name is not None and seen.likely and identity is not None and name.card_id not in identity.near:
                name = None
            known.append(_Known(box.copy(), seen, index, index, seen if seen.card_id is not None else name, turns,
                                old.completed if old is not None else 0, on_top))
        self._complete_one(frame, cards, known, index)
        # a card named in this frame is nowhere else: a card slid on (dealt to the row) leaves no name behind
        # for the next card put in its old place to take
        shown = {card.card_id for card in cards if card.card_id}
        known = [replace(k, name=None) if k.card.card_id is None and k.name and k.name.card_id in shown else k
                 for k in known]
        # cards not detected this frame are remembered a while (a hand over them)
        known += [k for i, k in enumerate(self._known)
                  if i not in used and k.name is not None and index - k.last <= FORGET_FRAMES
                  and k.name.card_id not in shown]
        self._known = known
        self._previous = index
        dice = self._dice(frame, cards, detections.dice)
        return TableObservation(index, round(float(elapsed), 3), w, h, tuple(cards), dice)

    def _dice(self, frame: np.ndarray, cards: list[CardSeen], found: Detections) -> tuple[DieSeen, ...]:
        """The sure dice on their chips or loose; then the less sure ones read surely (``ON_CHIP``) that rest on
        a chip no sure die holds, overlapping none (a second box on a sure die). A die on a chip the locator is
        less sure of than ``PRINT_SURE`` is dropped where the chip's print shows (``PRINT_FIT``)."""
        how_sure = located(found)
        sure = how_sure >= self.conf
        maybe = ~sure & (found.confidence >= detector_conf(self.conf))
        maybe &= ~(box_iou(found.xyxy, found.xyxy[sure]) > 0).any(1)
        spots: dict[tuple[str, int], tuple[CardSeen, ChipSpot]] = {}
        for card, name in zip(cards, chip_names(tuple(cards))):
            for spot in card.chips if name else ():
                spots.setdefault((name, spot.chip), (card, spot))  # type: ignore[arg-type]

        def printed(die: DieSeen, located_at: float) -> bool:
            if not die.on or located_at >= PRINT_SURE:
                return False
            fit = PRINT_FIT if located_at < self.conf else PRINT_CLEAN
            return self._residual(frame, die.on, *spots[die.on]) <= fit  # type: ignore[arg-type]

        dice = tuple(die for die, located_at in zip(assign_dice(tuple(cards), found[sure]), how_sure[sure])
                     if not printed(die, located_at))
        if not maybe.any():
            return dice
        taken = {die.on for die in dice}
        return dice + tuple(die for die in assign_dice(tuple(cards), found[maybe])
                            if die.on and die.on not in taken and not printed(die, 0.0))

    def _residual(self, frame: np.ndarray, on: tuple[str, int], card: CardSeen, spot: ChipSpot) -> float:
        """How well the card's own print explains chip ``on`` (``spot`` of ``card``): low where nothing lies on it
        (a die found there is the print, a die drawn on the chip), high under a die put down."""
        return self.gallery.matcher.residual_at(frame, np.asarray(card.corners), on[0], spot.centre, spot.radius)


def observe(frame: np.ndarray, detections: Detections, gallery: Gallery | None = None, index: int = 0,
            elapsed: float = 0.0) -> TableObservation:
    """One frame's observation with no memory of earlier frames (stills, photos)."""
    return TableLayout(gallery).observe(frame, detections, index, elapsed)
