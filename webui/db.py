"""Per-request database connections for the pages and the API (the Flask tutorial's ``get_db``)."""

from __future__ import annotations

import sqlite3

from flask import Flask, current_app, g

from webui.store import connect


def get_db() -> sqlite3.Connection:
    if "db" not in g:
        g.db = connect(current_app.config["DATABASE"])
    return g.db


def close_db(exc: BaseException | None = None) -> None:
    db = g.pop("db", None)
    if db is not None:
        db.close()


def init_app(app: Flask) -> None:
    app.teardown_appcontext(close_db)
