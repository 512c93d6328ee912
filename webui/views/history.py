"""The session log: every game, one game's setup, events and corrections, the rulebook's BDT log, CSV export."""

from __future__ import annotations

import csv
import io

from flask import Blueprint, Response, render_template

from webui.db import get_db
from webui.store import game_detail, list_games
from webui.views import bad

bp = Blueprint("history", __name__)
CSV_FIELDS = ("game", "date", "edition", "players", "difficulty", "result", "score", "reason", "names")


@bp.get("/history")
def index():
    return render_template("history.html", games=list_games(get_db()))


@bp.get("/history/<int:game_id>")
def game(game_id: int):
    detail = game_detail(get_db(), game_id)
    if detail is None:
        bad(f"no game {game_id} in the session log", 404)
    return render_template("game.html", game=detail)


@bp.get("/history/bdt")
def bdt():
    """The rulebook's game log: Players, Difficulty, Win/Lose?, Date, Score (finished games)."""
    games = [g for g in list_games(get_db()) if g["status"] == "finished"]
    return render_template("bdt.html", games=games)


@bp.get("/history.csv")
def export():
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_FIELDS)
    for g in list_games(get_db(), limit=100_000):
        writer.writerow([g["id"], g["date"], g["edition"], g["players"], g["difficulty"], g["result"],
                         "" if g["score"] is None else g["score"], g["reason"] or "", " ".join(g["names"])])
    return Response(out.getvalue(), mimetype="text/csv",
                    headers={"Content-Disposition": "attachment; filename=fuse-referee-bdt-log.csv"})
