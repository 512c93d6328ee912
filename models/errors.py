"""Errors raised by the models package (training and evaluation); messages are one line and quote the input."""

from __future__ import annotations


class ModelsError(RuntimeError):
    """Base class of every error the models package raises."""


class TrainingError(ModelsError):
    """A training run cannot start or resume."""


class EvaluationError(ModelsError):
    """A dataset cannot be evaluated."""
