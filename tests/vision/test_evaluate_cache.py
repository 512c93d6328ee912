"""``python -m vision.evaluate --cache DIR``: each game's detector observations are kept, and reused until a
model file changes."""

from __future__ import annotations

import os
from pathlib import Path

from vision.evaluate import cache_key, cached_observations
from vision.observation import DieSeen, TableObservation


def _observations() -> list[TableObservation]:
    return [TableObservation(k, k / 6, 1280, 720, (), (DieSeen("red5", (1.0, 2.0, 30.0, 31.0), 0.9),))
            for k in range(3)]


def test_observations_are_made_once_then_read_back(tmp_path: Path) -> None:
    game = tmp_path / "games" / "p3s12"
    game.mkdir(parents=True)
    calls = []

    def make() -> list[TableObservation]:
        calls.append(1)
        return _observations()

    first = cached_observations(game, tmp_path / "cache", make)
    again = cached_observations(game, tmp_path / "cache", make)
    assert first == again == _observations() and len(calls) == 1
    assert [p.name for p in (tmp_path / "cache").iterdir()] == [cache_key(game)]
    assert cached_observations(game, None, make) == first and len(calls) == 2  # no cache: always made


def test_the_key_names_the_game_and_changes_with_a_model_file(tmp_path: Path) -> None:
    game = tmp_path / "s11"
    key = cache_key(game)
    assert key.startswith("s11-") and key == cache_key(game)
    assert cache_key(tmp_path / "s23") != key
    model = tmp_path / "other.onnx"
    model.write_bytes(b"weights")
    with_model = cache_key(game, str(model))
    assert with_model != key
    stat = model.stat()
    os.utime(model, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10_000_000_000))  # the model retrained
    assert cache_key(game, str(model)) != with_model
