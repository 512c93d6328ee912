"""``TableObservation`` round-trips through JSON."""

from __future__ import annotations

import json

from vision.observation import CardSeen, ChipSpot, DieSeen, TableObservation, colours


def test_an_observation_round_trips_through_json() -> None:
    corners = ((100.0, 100.0), (200.0, 100.0), (200.0, 160.0), (100.0, 160.0))
    obs = TableObservation(
        7, 1.25, 1280, 720,
        (CardSeen(corners, "bomb", "F-001", 0.9, (ChipSpot(1, (120.0, 130.0), 10.0),)),
         CardSeen(corners, "bomb", None, 0.4, likely="F-G10")),
        (DieSeen("black/yellow2", (112.0, 122.0, 128.0, 138.0), 0.8, ("F-001", 1)),
         DieSeen("red5", (500.0, 400.0, 516.0, 416.0), 0.7)))
    assert TableObservation.from_dict(json.loads(json.dumps(obs.to_dict()))) == obs


def test_colours_are_a_die_name_without_its_face() -> None:
    assert [colours(d) for d in ("red5", "black/yellow2")] == ["red", "black/yellow"]
