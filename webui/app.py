"""``create_app``: the Flask app of the dashboard, overlay, session log and API.

Settings (``test_config`` or ``fuse-referee run``'s options): ``DATABASE`` (SQLite file, default
``<instance>/sessions.sqlite``; the instance folder is ``$FUSE_REFEREE_HOME`` or ``~/.fuse-referee``), ``TOKEN``
(control token; made at random when absent), ``FEED`` (``auto``, ``sample``, ``simulated``, ``manual``, a
log file or a vision source), ``GAME`` (edition, players, difficulty, fuse_cards, names, seed), ``NEW_GAME``
(abandon an unfinished game instead of resuming it), ``SEEK`` (start a recorded game that many seconds in),
``SPEED`` (play a recorded log faster; benchmarks), ``FPS`` (pipeline rate) and ``PIPELINE`` (run the pipeline
thread; tests step it by hand).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from flask import Flask, jsonify
from werkzeug.exceptions import HTTPException

from rules.errors import RulesError
from webui.errors import WebUIError

PHOTO_ENROLMENT = "/enrol/photo"


def _photo_enrolment() -> Any:
    """``vision.enrol.bp``, a Flask blueprint for enrolling cards from photos, if the vision package has one."""
    import importlib
    import importlib.util

    if importlib.util.find_spec("vision") is None or importlib.util.find_spec("vision.enrol") is None:
        return None
    return getattr(importlib.import_module("vision.enrol"), "bp", None)


def default_home() -> Path:
    return Path(os.environ.get("FUSE_REFEREE_HOME") or Path.home() / ".fuse-referee").expanduser().resolve()


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    test_config = dict(test_config or {})
    instance = Path(test_config.pop("INSTANCE_PATH", None) or default_home()).resolve()
    app = Flask(__name__, instance_path=str(instance), instance_relative_config=True)
    app.config.from_mapping(
        DATABASE=str(instance / "sessions.sqlite"), TOKEN=None, FEED="auto", GAME={}, NEW_GAME=False, SEEK=0.0,
        SPEED=1.0, FPS=15.0, PIPELINE=True, SOURCE=None,
    )
    app.config.from_mapping(test_config)
    app.json.sort_keys = False  # type: ignore[attr-defined]
    instance.mkdir(parents=True, exist_ok=True)

    from webui import db
    from webui.table import Table
    from webui.views import api, controls, dashboard, history, overlay

    db.init_app(app)
    table = Table(app.config)
    app.config["TOKEN"] = table.token
    app.extensions["fuse_referee"] = table
    for module in (dashboard, overlay, api, controls, history):
        app.register_blueprint(module.bp)
    photo = _photo_enrolment()
    if photo is not None:  # the vision pipeline's card enrolment, when it exists
        app.register_blueprint(photo, url_prefix=PHOTO_ENROLMENT)
    app.config["PHOTO_ENROLMENT"] = PHOTO_ENROLMENT if photo is not None else None

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):  # type: ignore[no-untyped-def]
        return jsonify(error=exc.description or exc.name), exc.code or 500

    @app.errorhandler(RulesError)
    @app.errorhandler(WebUIError)
    def bad_input(exc: Exception):  # type: ignore[no-untyped-def]
        return jsonify(error=str(exc).splitlines()[0] if str(exc) else type(exc).__name__), 400

    if app.config["PIPELINE"]:
        table.pipeline.start()
    return app


def get_table(app: Flask) -> Any:
    return app.extensions["fuse_referee"]
