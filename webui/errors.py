"""The web UI's errors: one base class, each message a single line that quotes the input it refuses."""

from __future__ import annotations


class WebUIError(Exception):
    """Base class of the dashboard's errors."""


class FeedError(WebUIError):
    """A source of reports cannot be opened (no vision pipeline, an unreadable log or sample)."""


class SetupError(WebUIError):
    """A game setup that cannot be played (bad players, difficulty, role...)."""


