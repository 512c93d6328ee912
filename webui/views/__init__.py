"""One blueprint per feature: ``dashboard`` (pages), ``overlay`` (OBS), ``api`` (JSON, SSE, MJPEG; no token),
``controls`` (POST actions; token), ``history`` (session log, BDT log, CSV)."""

from __future__ import annotations

from typing import Any, NoReturn

from flask import abort, current_app, request

from webui.table import Table


def table() -> Table:
    return current_app.extensions["fuse_referee"]


def bad(message: str, code: int = 400) -> NoReturn:
    """Stop the request with ``{"error": message}``."""
    abort(code, description=message)


def payload() -> dict[str, Any]:
    """The request's fields: a JSON object or a form."""
    if request.is_json:
        data = request.get_json(silent=True)
        if not isinstance(data, dict):
            bad("the request body is not a JSON object")
        return data
    return request.form.to_dict()
