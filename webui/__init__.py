"""The dashboard, streaming overlay and session log of fuse-referee: a Flask app started by ``fuse-referee run``.

Importing this package is cheap (the ``fuse-referee`` command imports it for every subcommand); Flask, OpenCV
and the rules engine load only when ``create_app`` (in ``webui.app``) is first used.
"""

from __future__ import annotations

from typing import Any

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from webui.app import create_app

        return create_app
    raise AttributeError(f"module 'webui' has no attribute {name!r}")
