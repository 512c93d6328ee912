"""Synthetic tabletop renderer: labelled images of FUSE and FUSE: Countdown tables for training a detector.

``render(scene) -> (image, truth)`` draws a ``Scene`` (pure data, ``datasets.scene``); ``scene_for(seed,
index, style)`` draws random scenes; ``write_dataset`` writes an ultralytics-style dataset; ``render_game`` plays
a seeded game and renders it as video with its ground truth (``read_frames`` reads the per-frame truth back). Names are
imported lazily so that ``import datasets`` stays fast (numpy and OpenCV load on first use).
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_EXPORTS = {
    "render": "datasets.raster",
    "render_with_masks": "datasets.raster",
    "Scene": "datasets.scene",
    "Setting": "datasets.scene",
    "Camera": "datasets.scene",
    "Table": "datasets.scene",
    "Lighting": "datasets.scene",
    "DieLook": "datasets.scene",
    "CardLook": "datasets.scene",
    "CardFace": "datasets.scene",
    "PlacedCard": "datasets.scene",
    "PlacedDie": "datasets.scene",
    "OnChip": "datasets.scene",
    "Distractor": "datasets.scene",
    "Effects": "datasets.scene",
    "Style": "datasets.style",
    "get_style": "datasets.style",
    "sample_setting": "datasets.sampler",
    "sample_scene": "datasets.sampler",
    "scene_for": "datasets.sampler",
    "chip_positions": "datasets.layout",
    "Seat": "datasets.layout",
    "class_names": "datasets.classes",
    "write_dataset": "datasets.writer",
    "yolo_lines": "datasets.yolo",
    "DatasetError": "datasets.errors",
    "render_game": "datasets.game",
    "read_frames": "datasets.game",
    "RenderOptions": "datasets.game",
    "GameOptions": "datasets.script",
    "play": "datasets.script",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'datasets' has no attribute {name!r}")
