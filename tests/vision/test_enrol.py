"""Enrolment and recognition: 20 cards drawn with new art are enrolled as new cards, then recognised in views
with rotation, tilt and partial cover; a card never enrolled comes back unknown."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest

from tests.vision.cardviews import new_art, view

ENROLLED = 20
NEVER = 10
"""Cards of the same new art never enrolled: twins of enrolled ones (another digit, operator or chip colour)."""
MIN_RIGHT = {0.03: 19, 0.08: 17, 0.15: 8}
"""Of the 20 turned, tilted (to 35°) views with a die and a skin-coloured blob over this share of the face, at
least this many must be named right, none wrong. Measured 20, 19 and 10 of 20 (before the robust, corner-refining
matcher: 16, 6 and 3). At 15% the corner finder limits it: with the true corners all 60 of 60 such views are
named right, but a hand across the card's edge moves the found corners further than the refinement reaches
(``identify.NUDGE``); the layout retries unknown cards once the hand has left."""


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("home")
    mp = pytest.MonkeyPatch()
    mp.setenv("FUSE_REFEREE_HOME", str(path))
    yield path
    mp.undo()


@pytest.fixture(scope="module")
def faces(home: Path) -> list[tuple[object, np.ndarray]]:
    from datasets.scene import CardFace
    from rules.catalog import load_catalog

    bombs = [c for c in load_catalog("fuse", include_user=False).bombs if "stack" not in c.body][: ENROLLED + NEVER]
    return [(c, new_art(CardFace.from_card(c))) for c in bombs]


@pytest.fixture(scope="module")
def enrolled(faces: list[tuple[object, np.ndarray]]) -> list[str]:
    from vision.enrol import enrol_card

    ids = []
    rng = np.random.default_rng(3)
    for card, face in faces[:ENROLLED]:
        frame, corners, _ = view(face, rng, tilt=10)
        entry = enrol_card(frame, notation=card.body, points=card.points, corners=corners)  # type: ignore[attr-defined]
        ids.append(entry.card_id)
    return ids


def test_builtin_gallery_is_built_once_and_cached(home: Path) -> None:
    from vision import gallery

    gallery._memory.clear()
    start = time.perf_counter()
    entries = gallery.builtin_entries()
    built = time.perf_counter() - start
    gallery._memory.clear()
    start = time.perf_counter()
    assert len(gallery.builtin_entries()) == len(entries) > 150
    cached = time.perf_counter() - start
    print(f"\nbuilt-in gallery: {len(entries)} cards drawn in {built:.2f} s, read from cache in {cached:.2f} s")
    assert list((home / "vision").glob("gallery-*.npz"))


@pytest.mark.parametrize("cover", sorted(MIN_RIGHT))
def test_enrolled_new_art_is_recognised_under_rotation_tilt_and_cover(faces, enrolled, cover) -> None:  # type: ignore[no-untyped-def]
    from vision.corners import find_corners
    from vision.gallery import Gallery

    assert len(set(enrolled)) == ENROLLED and all(i.startswith("F-U") for i in enrolled)
    g = Gallery.load("fuse")
    rng = np.random.default_rng(7)
    right, wrong, times = 0, [], []
    for card_id, (_, face) in zip(enrolled, faces):
        frame, _, box = view(face, rng, cover=cover, tilt=35)
        corners = find_corners(frame, box)
        if corners is None:
            continue
        start = time.perf_counter()
        identity = g.matcher.match(frame, corners)
        times.append(time.perf_counter() - start)
        right += identity.card_id == card_id
        if identity.card_id not in (card_id, None):
            wrong.append((card_id, identity.card_id))
    print(f"\nrecognised {right}/{ENROLLED} enrolled new-art cards (turned, tilted to 35°, a die and {cover:.0%} of "
          f"the face under a hand), {len(wrong)} wrong; {1000 * np.mean(times):.1f} ms per card over {len(g)} "
          "known faces")
    assert not wrong
    assert right >= MIN_RIGHT[cover]


def test_a_card_never_enrolled_is_unknown(faces, enrolled) -> None:  # type: ignore[no-untyped-def]
    from vision.corners import find_corners
    from vision.gallery import Gallery

    g = Gallery.load("fuse")
    rng = np.random.default_rng(11)
    named = []
    for card, face in faces[ENROLLED:]:
        for cover in (0.0, 0.08):
            frame, _, box = view(face, rng, cover=cover, tilt=30)
            corners = find_corners(frame, box)
            if corners is None:
                continue
            identity = g.matcher.match(frame, corners)
            if identity.card_id is not None:
                named.append((card.body, g.notation(identity.card_id), cover))  # type: ignore[attr-defined]
    print(f"\n{len(named)} of {2 * NEVER} views of never-enrolled twins named: {named}")
    assert not named


def test_enrol_errors_are_one_line(home: Path) -> None:
    from vision.enrol import EnrolError, enrol_card

    frame = np.zeros((200, 300, 3), np.uint8)
    corners = np.array([[50, 50], [250, 50], [250, 190], [50, 190]], np.float32)
    for kwargs, message in [
        ({"card_id": "F-999"}, "no card 'F-999'"),
        ({"notation": "[#] - [#] = "}, "column"),
        ({"notation": "[#] = [#]"}, "needs its points"),
        ({}, "name the card"),
    ]:
        with pytest.raises(EnrolError, match=message) as info:
            enrol_card(frame, corners=corners, **kwargs)
        assert "\n" not in str(info.value)
    with pytest.raises(EnrolError, match="cannot read the photo"):
        enrol_card(np.zeros((0, 0, 3), np.uint8), "F-001", corners=corners)


def test_photo_upload_endpoint(home: Path, faces) -> None:  # type: ignore[no-untyped-def]
    import io

    import cv2
    from flask import Flask

    from vision.enrol import bp

    app = Flask(__name__)
    app.register_blueprint(bp, url_prefix="/enrol/photo")
    client = app.test_client()
    assert client.get("/enrol/photo/").status_code == 200
    out = client.post("/enrol/photo/", data={"card_id": "F-001"})
    assert out.status_code == 400 and "no photo" in out.get_json()["error"]
    out = client.post("/enrol/photo/", data={"photo": (io.BytesIO(b"junk"), "x.jpg"), "card_id": "F-001"})
    assert out.status_code == 400 and "cannot decode" in out.get_json()["error"]
    blank = cv2.imencode(".png", np.full((240, 320, 3), 90, np.uint8))[1].tobytes()
    pytest.importorskip("onnxruntime")
    out = client.post("/enrol/photo/", data={"photo": (io.BytesIO(blank), "blank.png"), "card_id": "F-001"})
    assert out.status_code == 400 and "no card found" in out.get_json()["error"]
