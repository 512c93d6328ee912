"""The light's colour learned from the cards named and undone: bombs read under warm light."""

from __future__ import annotations

import numpy as np
import pytest

from datasets.cardface import card_texture
from datasets.scene import CardFace
from rules.catalog import load_catalog
from tests.vision.cardviews import view
from vision.cards import TableLayout
from vision.cast import MIN_SAMPLES, Cast, channel_gains
from vision.gallery import Gallery
from vision.identify import CELLS, grid_image

WARM = np.array([0.33, 1.0, 0.93], np.float32)
"""BGR gains of probe13 s2104's light, as its named cards showed it (3,100 K, white balance half done)."""


def drawn(card_id: str) -> np.ndarray:
    card = next(c for c in load_catalog("fuse", include_user=False).cards if c.id == card_id)
    return card_texture(CardFace.from_card(card))[0][..., :3]


def lit(img: np.ndarray, gains: np.ndarray) -> np.ndarray:
    """``img`` under a light of these BGR gains (in linear light)."""
    x = img.astype(np.float32) / 255.0
    linear = np.where(x <= 0.04045, x / 12.92, ((x + 0.055) / 1.055) ** 2.4) * gains
    x = np.clip(linear, 0, 1)
    return np.round(np.where(x <= 0.0031308, 12.92 * x, 1.055 * x ** (1 / 2.4) - 0.055) * 255).astype(np.uint8)


def test_a_cards_face_under_a_coloured_light_gives_the_lights_gains() -> None:
    face = drawn("F-018")
    gains = channel_gains(grid_image(lit(face, WARM)), grid_image(face), np.ones(CELLS, bool))
    assert gains == pytest.approx(WARM, abs=0.03)
    assert channel_gains(grid_image(face), grid_image(face), np.zeros(CELLS, bool)) is None


def test_near_white_light_is_left_as_it_is() -> None:
    face, cast = drawn("F-018"), Cast()
    for _ in range(MIN_SAMPLES + 2):
        cast.learn(grid_image(lit(face, np.array([0.95, 1.0, 1.05], np.float32))), grid_image(face),
                   np.ones(CELLS, bool))
    frame = lit(face, WARM)
    assert cast.gains is None and cast.undo(frame) is frame


def test_bombs_under_warm_light_are_named_once_the_cards_named_show_the_light(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("FUSE_REFEREE_HOME", str(tmp_path))
    layout = TableLayout(Gallery.load("fuse", enrolled=False), "fuse")
    rng = np.random.default_rng(4)

    def read(card_id: str) -> str | None:
        frame, _, box = view(drawn(card_id), rng, tilt=20, width=140)
        seen = layout.card(lit(frame, WARM), box, "bomb", 1.0)
        assert seen is not None
        return seen.card_id

    assert read("F-G13") is None  # its chips' colours match no print of its own under this light
    assert [read(c) for c in ("F-018", "F-007", "F-018")] == ["F-018", "F-007", "F-018"]
    assert layout.cast.gains == pytest.approx(WARM, abs=0.05)
    assert [read(c) for c in ("F-G13", "F-G12", "F-G15")] == ["F-G13", "F-G12", "F-G15"]
