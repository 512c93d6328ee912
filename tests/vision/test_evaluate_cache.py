"""``python -m vision.evaluate --cache DIR``: each game's detections and observations are kept, and reused until
a model file's contents, the game's video, the detecting code or (for observations) the layout's code changes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from vision.evaluate import cache_key, cached_observations
from vision.observation import DieSeen, TableObservation


def _observations(detections: list[str]) -> list[TableObservation]:
    return [TableObservation(k, k / 6, 1280, 720, (), (DieSeen(d, (1.0, 2.0, 30.0, 31.0), 0.9),))
            for k, d in enumerate(detections)]


def test_detections_and_observations_are_made_once_then_read_back(tmp_path: Path) -> None:
    game = tmp_path / "games" / "p3s12"
    game.mkdir(parents=True)
    calls: list[str] = []

    def detect() -> list[str]:
        calls.append("detect")
        return ["red5", "red5", "blue2"]

    def observe(found: list[str]) -> list[TableObservation]:
        calls.append("observe")
        return _observations(found)

    first = cached_observations(game, tmp_path / "cache", detect, observe)
    again = cached_observations(game, tmp_path / "cache", detect, observe)
    assert first == again == _observations(["red5", "red5", "blue2"]) and calls == ["detect", "observe"]
    assert sorted(p.name for p in (tmp_path / "cache").iterdir()) == sorted(
        [cache_key(game), cache_key(game, stage="observations")])
    (tmp_path / "cache" / cache_key(game, stage="observations")).unlink()  # the layout's code changed
    assert cached_observations(game, tmp_path / "cache", detect, observe) == first
    assert calls == ["detect", "observe", "observe"]  # observed again from the detections kept
    assert cached_observations(game, None, detect, observe) == first and calls[-2:] == ["detect", "observe"]
    cached_observations(game, tmp_path / "cache", detect, observe, detecting="every frame")  # the gate's ablation
    assert calls[-2:] == ["detect", "observe"]  # every frame detected whole: other detections
    assert (tmp_path / "cache" / cache_key(game, stage="observations", detecting="every frame")).is_file()
    assert cache_key(game, detecting="windows") not in (cache_key(game), cache_key(game, detecting="every frame"))


def test_the_key_names_the_game_and_changes_with_a_model_s_contents_or_the_video(tmp_path: Path) -> None:
    game = tmp_path / "s11"
    game.mkdir()
    key = cache_key(game)
    assert key.startswith("s11-") and key == cache_key(game)
    assert cache_key(tmp_path / "s23") != key
    assert cache_key(game, stage="observations") != key
    model = tmp_path / "other.onnx"
    model.write_bytes(b"weights")
    with_model = cache_key(game, str(model))
    assert with_model != key
    stat = model.stat()
    os.utime(model, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10_000_000_000))  # checked out again: the same
    assert cache_key(game, str(model)) == with_model
    model.write_bytes(b"retrained")
    assert cache_key(game, str(model)) != with_model
    (game / "game.mp4").write_bytes(b"frames")  # the game rendered again
    assert cache_key(game) != key


def test_the_key_changes_with_the_runtime(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = tmp_path / "s11"
    game.mkdir()
    monkeypatch.setenv("FUSE_REFEREE_BACKEND", "onnx")
    onnx = cache_key(game)
    monkeypatch.setenv("FUSE_REFEREE_BACKEND", "openvino-bf16")
    assert cache_key(game) != onnx
