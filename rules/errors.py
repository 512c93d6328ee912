"""Errors raised by the rules package; every message quotes the input that failed."""

from __future__ import annotations


class RulesError(ValueError):
    """Base class of every error the rules package raises."""


class DieError(RulesError):
    """A die's text form could not be read."""


class NotationError(RulesError):
    """A card's notation is malformed; ``column`` is 1-based and points at the fault."""

    def __init__(self, text: str, column: int, expected: str) -> None:
        self.text = text
        self.column = column
        self.expected = expected
        super().__init__(f"column {column}: {expected} in {text!r}")

    def pointer(self) -> str:
        """Two lines: the card and a caret under the faulty column."""
        return f"{self.text}\n{' ' * (self.column - 1)}^"


class IllegalPlacementError(RulesError):
    """A die may not go where it was put; the message is the one-line reason."""


class CatalogError(RulesError):
    """A catalog file or card entry is invalid."""


class IllegalActionError(RulesError):
    """A game action is not legal in the current state."""
