"""Card enrolment: a user shows a card (a photo, or a frame with the card's box or corners) and names it by its
catalog id, or by notation and points for a card the catalog lacks; its face grid joins the enrolled store.

The photo's card is found by the detector (the best card box) unless a box or corners are given. Which way up
the photo shows the card is settled against the renderer's drawing of the card (chips and point hexagon),
so chip spots map the right way round later. ``bp`` is the dashboard's photo-enrolment page (/enrol/photo).
"""

from __future__ import annotations

import numpy as np
from flask import Blueprint, jsonify, request

from vision.corners import find_corners, rotations
from vision.errors import VisionError
from vision.gallery import Entry, draw_entries, save_enrolled
from vision.identify import descriptor, face_grid


class EnrolError(VisionError):
    """A card cannot be enrolled: no card in the photo, unknown id, malformed notation."""


def locate_card(image: np.ndarray) -> np.ndarray:
    """The box (x1, y1, x2, y2) of the most confident card the detector finds in ``image``."""
    from vision.detector import Detector

    cards = Detector().detect(image).cards
    cards = cards[np.array([n != "back" for n in cards.class_name], bool)] if len(cards) else cards
    if not len(cards):
        raise EnrolError("no card found in the photo: show the card face up, whole, on a plain table")
    return cards.xyxy[int(np.argmax(cards.confidence))]


def _resolve(card_id: str | None, notation: str | None, points: int | None, edition: str) -> object:
    """The catalog card named by ``card_id``, or a new user card from ``notation`` and ``points``."""
    from rules.catalog import add_user_card, load_catalog
    from rules.errors import RulesError

    try:
        if notation:
            from rules.notation import parse_layout

            parse_layout(notation)  # NotationError (a RulesError) quotes the column
            if points is None:
                raise EnrolError(f"a new card {notation!r} needs its points (1-6)")
            return add_user_card(edition, notation, int(points), card_id or None)
        if not card_id:
            raise EnrolError("name the card: its catalog id (e.g. F-011) or its notation and points")
        return load_catalog(edition).get(card_id)
    except RulesError as error:
        raise EnrolError(str(error).splitlines()[0]) from None


def enrol_card(
    image: np.ndarray,
    card_id: str | None = None,
    *,
    notation: str | None = None,
    points: int | None = None,
    edition: str = "fuse",
    box: np.ndarray | None = None,
    corners: np.ndarray | None = None,
) -> Entry:
    """Enrol the card shown in ``image`` (BGR) and return its stored entry."""
    from vision.detector import as_bgr

    try:
        image = as_bgr(image)
    except VisionError as error:
        raise EnrolError(f"cannot read the photo: {error}") from None
    if corners is None:
        box = locate_card(image) if box is None else np.asarray(box, np.float32)
        corners = find_corners(image, box)
        if corners is None:
            raise EnrolError(f"no card outline found in box {[round(float(v)) for v in box]}")
    card = _resolve(card_id, notation, points, edition)
    drawn = draw_entries([card])[0].grid
    # which way up: the reading whose grid is nearer the renderer's drawing of the card
    target = descriptor(drawn)
    grids = [face_grid(image, c) for c in rotations(corners)]
    grid = min(grids, key=lambda g: float(((descriptor(g) - target) ** 2).mean()))
    entry = Entry(card.id, card.edition, card.kind, drawn_notation(card), card.points, grid, "photo")  # type: ignore[attr-defined]
    save_enrolled(entry)
    return entry


def drawn_notation(card: object) -> str:
    return card.body if card.kind in ("bomb", "spark") else ""  # type: ignore[attr-defined]


bp = Blueprint("photo_enrolment", __name__)

_FORM = """<!doctype html><title>fuse-referee: enrol a card from a photo</title>
<h1>Enrol a card from a photo</h1>
<form method=post enctype=multipart/form-data>
<p><input type=file name=photo accept="image/*"></p>
<p>Catalog id <input name=card_id placeholder=F-011> or notation <input name=notation size=32
 placeholder="[#] = [#] = [#]"> and points <input name=points type=number min=1 max=6 size=3></p>
<p>Edition <select name=edition><option>fuse</option><option>countdown</option></select>
<button>Enrol</button></p></form>"""


@bp.get("/")
def form() -> str:
    return _FORM


@bp.post("/")
def upload():  # type: ignore[no-untyped-def]
    """Multipart ``photo`` + ``card_id`` or ``notation`` and ``points`` (+ ``edition``) -> the enrolled card."""
    import cv2

    photo = request.files.get("photo")
    if photo is None:
        return jsonify(error="no photo uploaded (form field 'photo')"), 400
    image = cv2.imdecode(np.frombuffer(photo.read(), np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        return jsonify(error=f"cannot decode the photo {photo.filename!r}: not an image"), 400
    points_text = (request.form.get("points") or "").strip()
    try:
        points = int(points_text) if points_text else None
    except ValueError:
        return jsonify(error=f"points must be a whole number, not {points_text!r}"), 400
    try:
        entry = enrol_card(
            image,
            (request.form.get("card_id") or "").strip() or None,
            notation=(request.form.get("notation") or "").strip() or None,
            points=points,
            edition=(request.form.get("edition") or "fuse").strip(),
        )
    except VisionError as error:
        return jsonify(error=str(error).splitlines()[0]), 400
    return jsonify(card={"id": entry.card_id, "edition": entry.edition, "kind": entry.kind,
                         "notation": entry.notation, "points": entry.points}), 201
