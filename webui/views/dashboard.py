"""The pages people look at: the dashboard (``/``), the setup page and card enrolment."""

from __future__ import annotations

from flask import Blueprint, current_app, render_template

from rules.config import COUNTDOWN_LEVELS, FUSE_LEVELS
from webui.views import table

bp = Blueprint("dashboard", __name__)


@bp.get("/")
def index():
    game = table().current()
    return render_template("dashboard.html", game=game.game_json(), clock=game.clock_json())


@bp.get("/setup")
def setup():
    from rules.catalog import load_catalog

    roles = [{"id": c.id, "name": c.name} for c in load_catalog("countdown").cards if c.kind == "role"]
    return render_template("setup.html", levels={"fuse": FUSE_LEVELS, "countdown": COUNTDOWN_LEVELS}, roles=roles,
                           camera=bool(table().settings.get("SOURCE")), game=table().current().game_json())


@bp.get("/enrol")
def enrol():
    return render_template("enrol.html", photo=current_app.config.get("PHOTO_ENROLMENT"))
