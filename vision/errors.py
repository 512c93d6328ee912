"""Errors raised by the vision package; messages are one line and quote the input."""

from __future__ import annotations


class VisionError(RuntimeError):
    """Base class of every error the vision package raises."""


class SourceError(VisionError):
    """A frame source cannot be opened or read."""


class DetectorError(VisionError):
    """The detector cannot load its model or cannot read a frame."""
