"""Errors of the synthetic renderer: one base class, messages on one line that say what to change."""

from __future__ import annotations


class DatasetError(ValueError):
    """Base class for errors raised by ``datasets``."""


class StyleError(DatasetError):
    """An unknown style preset, knob or knob value."""


class SceneError(DatasetError):
    """A scene that cannot be rendered (a die on a chip the card does not have, an unknown card kind)."""
