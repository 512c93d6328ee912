"""Control actions (POST, JSON or form): they need the token printed at start-up, in the ``X-Referee-Token``
header or a ``token`` field. Each answers JSON: the event or state it changed, or ``{"error": ...}``."""

from __future__ import annotations

import hmac

from flask import Blueprint, jsonify, request

from webui.errors import FeedError
from webui.live import ControlError
from webui.setup import setup_from
from webui.views import bad, payload, table

bp = Blueprint("controls", __name__)
TOKEN_HEADER = "X-Referee-Token"


@bp.before_request
def require_token() -> None:
    given = request.headers.get(TOKEN_HEADER) or request.form.get("token") or ""
    if not given and request.is_json:
        body = request.get_json(silent=True)
        given = str(body.get("token", "")) if isinstance(body, dict) else ""
    if not given:
        bad(f"control actions need the token printed at start-up (header {TOKEN_HEADER} or field 'token')", 401)
    if not hmac.compare_digest(given.encode(), table().token.encode()):
        bad("wrong token: use the one printed when the server started", 403)


def _event_json(event) -> dict:  # type: ignore[no-untyped-def]
    from dataclasses import asdict

    return asdict(event)


@bp.post("/api/report")
def report():
    """Report one action typed at the dashboard: ``{"action": "place red5 F-003:2"}``."""
    data = payload()
    action = str(data.get("action") or "").strip()
    if not action:
        bad("report needs an action, e.g. {\"action\": \"place red5 F-003:2\"}")
    game = table().current()
    if game.finished:
        bad(f"game {game.id} is over: start a new game from the setup page, or undo/correct its events", 409)
    try:
        confidence = float(data.get("confidence", 1.0))
    except (TypeError, ValueError):
        bad(f"confidence must be a number from 0 to 1, not {data.get('confidence')!r}")
    if not 0.0 <= confidence <= 1.0:
        bad(f"confidence must be a number from 0 to 1, not {confidence}")
    event = game.submit(action, str(data.get("source") or "manual"), confidence)
    return jsonify(event=_event_json(event), violation=not event.accepted, version=game.version)


@bp.post("/api/clock/<what>")
def clock(what: str):
    if what not in ("start", "pause", "resume"):
        bad(f"unknown clock action {what!r}: expected start, pause or resume", 404)
    try:
        return jsonify(clock=table().current().clock_action(what))
    except ControlError as exc:
        bad(str(exc), 409)


@bp.post("/api/events/<int:index>/<what>")
def event(index: int, what: str):
    """``undo``, ``confirm`` or ``correct`` (with ``{"action": ...}``) report ``index``."""
    game = table().current()
    if what == "undo":
        changed = game.undo(index)
    elif what == "confirm":
        changed = game.confirm(index)
    elif what == "correct":
        action = str(payload().get("action") or "").strip()
        if not action:
            bad("correct needs the right action, e.g. {\"action\": \"place red6 F-003:2\"}")
        changed = game.correct(index, action)
    else:
        bad(f"unknown event action {what!r}: expected undo, confirm or correct", 404)
    return jsonify(event=_event_json(changed), version=game.version)


@bp.post("/api/questions/<int:number>/<what>")
def question(number: int, what: str):
    """``answer`` (the question's own action happened, or ``{"action": ...}`` did) or ``dismiss`` question
    ``number`` of the feed (vision's questions)."""
    game = table().current()
    asked = game.feed.questions().get(number)
    if asked is None:
        bad(f"no open question {number}: answered already, or never asked", 404)
    if what == "dismiss":
        action = None
    elif what == "answer":
        action = str(payload().get("action") or asked.action).strip()
        if not action:
            bad(f"question {number} proposes no action: give the one that happened, e.g. {{\"action\": \"place red5 "
                f"F-003:2\"}}, or dismiss it")
    else:
        bad(f"unknown question action {what!r}: expected answer or dismiss", 404)
    try:
        event = game.answer(number, action)
    except FeedError as exc:
        bad(str(exc), 409)
    return jsonify(event=_event_json(event) if event else None, version=game.version)


@bp.post("/api/setup")
def setup():
    """Start a new game: edition, players, difficulty, fuse_cards, names, role_pN, deal, seed, feed."""
    from webui.feeds import ManualFeed, vision_feed
    from webui.simulated import simulated_feed
    from webui.table import make_feed

    data = payload()
    feed_kind = str(data.get("feed") or "manual")
    game_setup = setup_from(data, feed_kind)
    t = table()
    if feed_kind == "manual":
        feed = ManualFeed()
    elif feed_kind == "simulated":
        feed = simulated_feed(game_setup.config, game_setup.seed)
        game_setup = type(game_setup)(game_setup.config, game_setup.names, "log", (), game_setup.seed, feed_kind)
    elif feed_kind == "sample":
        try:
            game_setup, feed = make_feed("sample", {"names": game_setup.names})
        except FeedError as exc:
            bad(str(exc), 409)
    elif feed_kind == "camera":
        source = t.settings.get("SOURCE")
        if not source:
            bad("no camera: start the server with --source CAMERA|FILE|URL to use one", 409)
        try:
            feed = vision_feed(str(source), game_setup.config, **t.settings.get("VISION", {}))
        except FeedError as exc:
            bad(str(exc), 409)
    else:
        bad(f"unknown feed {feed_kind!r}: expected manual, simulated, sample or camera")
    game = t.new_game(game_setup, feed)
    return jsonify(game=game.game_json(), state_url="/api/state"), 201


@bp.post("/api/enrol")
def enrol():
    """Add a bomb card to the user's catalog: ``{"edition", "notation", "points"}`` (photo enrolment comes with
    the vision pipeline)."""
    from rules.catalog import EDITIONS, add_user_card

    data = payload()
    edition = str(data.get("edition") or "fuse")
    if edition not in EDITIONS:
        bad(f"unknown edition {edition!r}: expected {' or '.join(EDITIONS)}")
    notation = str(data.get("notation") or "").strip()
    if not notation:
        bad("enrol needs the card's notation, e.g. \"[#] = [#]\"")
    try:
        points = int(str(data.get("points", "")).strip())
    except ValueError:
        bad(f"points must be a whole number, not {data.get('points')!r}")
    card = add_user_card(edition, notation, points, str(data.get("card_id") or "") or None)
    return jsonify(card={"id": card.id, "points": card.points, "body": card.body, "edition": card.edition}), 201
