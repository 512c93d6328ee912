"""Viewing, no token needed: the state as JSON, server-sent events, the MJPEG video, history JSON, stats."""

from __future__ import annotations

import json
import time

from flask import Blueprint, Response, jsonify, request, stream_with_context

from webui import sound
from webui.db import get_db
from webui.store import game_detail, list_games
from webui.views import bad, table

bp = Blueprint("api", __name__)
BOUNDARY = "frame"


def _count(name: str) -> int:
    raw = request.args.get(name, "0")
    if not raw.isdigit():
        bad(f"{name} must be a whole number of messages, not {raw!r}")
    return int(raw)


@bp.get("/api/state")
def state():
    return jsonify(table().current().snapshot())


@bp.get("/api/stream")
def stream():
    """Server-sent events: ``state`` messages (the whole state, the current one first); ``?limit=N`` ends
    after N messages."""
    limit = _count("limit")
    channel = table().hub.states
    if not channel.data:
        channel.publish(json.dumps(table().current().snapshot()).encode())

    def events():
        yield b"retry: 2000\n\n"
        for data in channel.follow(limit):
            yield b": keepalive\n\n" if data is None else b"event: state\ndata: " + data + b"\n\n"

    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    return Response(stream_with_context(events()), mimetype="text/event-stream", headers=headers)


@bp.get("/video.mjpg")
def video():
    """The annotated video as MJPEG (``multipart/x-mixed-replace``); ``?limit=N`` ends after N frames."""
    limit = _count("limit")
    channel = table().hub.frames
    if not channel.data and not table().pipeline.running:
        table().pipeline.step()

    def frames():
        for data in channel.follow(limit, keepalive=5.0):
            if data is None:
                continue
            yield (b"--" + BOUNDARY.encode() + b"\r\nContent-Type: image/jpeg\r\nContent-Length: "
                   + str(len(data)).encode() + b"\r\n\r\n" + data + b"\r\n")

    return Response(frames(), mimetype=f"multipart/x-mixed-replace; boundary={BOUNDARY}",
                    headers={"Cache-Control": "no-cache"})


@bp.get("/frame.jpg")
def frame():
    """The latest video frame as one JPEG."""
    channel = table().hub.frames
    data = channel.data if channel.data or table().pipeline.running else table().pipeline.step()
    if not data:
        bad("no frame yet: the pipeline is starting", 503)
    return Response(data, mimetype="image/jpeg", headers={"Cache-Control": "no-cache"})


@bp.get("/api/hint")
def hint():
    from webui.live import ControlError

    try:
        return jsonify(table().current().hint())
    except ControlError as exc:
        bad(str(exc), 409)


@bp.get("/api/history")
def history():
    return jsonify(games=list_games(get_db()))


@bp.get("/api/games/<int:game_id>")
def game(game_id: int):
    detail = game_detail(get_db(), game_id)
    if detail is None:
        bad(f"no game {game_id} in the session log", 404)
    return jsonify(detail)


@bp.get("/api/stats")
def stats():
    t = table()
    game = t.current()
    return jsonify(pipeline=t.pipeline.stats(), viewers={"video": t.hub.frames.viewers, "events": t.hub.states.viewers},
                   state_updates=game.state_updates, states_published=t.hub.states.published,
                   frames_published=t.hub.frames.published, game=game.id, time=time.time())


@bp.get("/sound/violation.wav")
def violation_sound():
    return Response(sound.violation_wav(), mimetype="audio/wav", headers={"Cache-Control": "max-age=86400"})
