"""Every route with Flask's test client: pages and JSON render, streams yield, bad requests get a 4xx with one
clear line, and control actions without the token are refused."""

from __future__ import annotations

import csv
import io
import json
import wave

import pytest
from flask.testing import FlaskClient

CONTROL_ROUTES = [
    ("/api/report", {"action": "done"}),
    ("/api/clock/start", {}),
    ("/api/clock/pause", {}),
    ("/api/events/0/undo", {}),
    ("/api/events/0/confirm", {}),
    ("/api/events/0/correct", {"action": "done"}),
    ("/api/setup", {"edition": "fuse", "players": 2}),
    ("/api/enrol", {"edition": "fuse", "notation": "[#] = [#]", "points": 1}),
]


def step(client: FlaskClient, n: int = 1) -> None:
    for _ in range(n):
        client.application.extensions["fuse_referee"].pipeline.step()


@pytest.mark.parametrize("path", ["/", "/setup", "/enrol", "/overlay", "/history", "/history/bdt", "/history/1",
                                  "/overlay?width=1920&height=1080&scale=1.5&show=clock,alerts&align=left"])
def test_pages_render(client: FlaskClient, path: str) -> None:
    step(client)
    reply = client.get(path)
    assert reply.status_code == 200, reply.get_data(as_text=True)[:200]
    assert reply.mimetype == "text/html"


def test_dashboard_says_it_is_a_simulated_table(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    assert "SIMULATED TABLE" in page and "/video.mjpg" in page


def test_overlay_page_is_transparent_and_needs_no_token(client: FlaskClient) -> None:
    page = client.get("/overlay").get_data(as_text=True)
    css = client.get("/static/overlay.css").get_data(as_text=True)
    assert "token" not in page.lower()
    assert "background: transparent" in css


def test_state_json(client: FlaskClient) -> None:
    step(client)
    state = client.get("/api/state").get_json()
    assert state["game"]["simulated"] is True
    assert state["clock"]["limit"] == 600 and state["clock"]["running"] is True
    assert len(state["players"]) == state["game"]["players"] == 3
    assert len(state["row"]) == 5 and state["bag"] == 25
    assert {"events", "violations", "score", "legal", "phase"} <= state.keys()


def test_stream_yields_the_state_first(client: FlaskClient) -> None:
    reply = client.get("/api/stream?limit=1")
    assert reply.mimetype == "text/event-stream"
    body = reply.get_data(as_text=True)
    message = next(b for b in body.split("\n\n") if b.startswith("event: state"))
    data = json.loads(message.split("data: ", 1)[1])
    assert data["game"]["id"] == 1


def test_stream_sends_updates(client: FlaskClient) -> None:
    reply = client.get("/api/stream?limit=2", buffered=False)
    chunks = iter(reply.response)
    assert next(chunks).startswith(b"retry:")
    assert next(chunks).startswith(b"event: state")
    step(client)  # the deal arrives: a new state message
    update = next(chunks)
    assert b'"event_count": ' in update or b'"event_count":' in update
    reply.close()


def test_mjpeg_returns_multipart_frames(client: FlaskClient) -> None:
    step(client)
    reply = client.get("/video.mjpg?limit=1")
    assert reply.mimetype == "multipart/x-mixed-replace"
    body = reply.get_data()
    assert body.startswith(b"--frame\r\nContent-Type: image/jpeg\r\n")
    jpeg = body.split(b"\r\n\r\n", 1)[1]
    assert jpeg[:2] == b"\xff\xd8" and jpeg.rstrip()[-2:] == b"\xff\xd9"


def test_mjpeg_streams_one_frame_per_pipeline_step(client: FlaskClient) -> None:
    step(client)
    reply = client.get("/video.mjpg?limit=3", buffered=False)
    parts = iter(reply.response)
    first = next(parts)
    step(client)
    second = next(parts)
    assert first.startswith(b"--frame") and second.startswith(b"--frame") and first != second
    reply.close()


def test_single_frame(client: FlaskClient) -> None:
    reply = client.get("/frame.jpg")
    assert reply.status_code == 200 and reply.mimetype == "image/jpeg" and reply.data[:2] == b"\xff\xd8"


def test_history_json_csv_and_game(client: FlaskClient) -> None:
    step(client)
    games = client.get("/api/history").get_json()["games"]
    assert games[0]["id"] == 1 and games[0]["result"] == "in progress"
    detail = client.get("/api/games/1").get_json()
    assert detail["setup"]["config"]["edition"] == "fuse" and detail["events"]
    assert any(j["kind"] == "setup" for j in detail["journal"])
    rows = list(csv.reader(io.StringIO(client.get("/history.csv").get_data(as_text=True))))
    assert rows[0][:7] == ["game", "date", "edition", "players", "difficulty", "result", "score"]
    assert rows[1][0] == "1"


def test_stats_and_sound(client: FlaskClient) -> None:
    step(client, 2)
    stats = client.get("/api/stats").get_json()
    assert stats["pipeline"]["frames"] == 2 and stats["pipeline"]["target_fps"] == 15.0
    wav = client.get("/sound/violation.wav")
    assert wav.mimetype == "audio/wav"
    with wave.open(io.BytesIO(wav.data)) as sound:
        assert sound.getnchannels() == 1 and 0.2 < sound.getnframes() / sound.getframerate() < 1.0


def test_hint_needs_a_roll(client: FlaskClient) -> None:
    reply = client.get("/api/hint")
    assert reply.status_code == 409 and "no roll" in reply.get_json()["error"]


@pytest.mark.parametrize(("path", "code", "words"), [
    ("/api/games/999", 404, "no game 999"),
    ("/history/999", 404, "no game 999"),
    ("/overlay?scale=huge", 400, "'huge'"),
    ("/overlay?scale=99", 400, "between"),
    ("/overlay?show=clock,weather", 400, "'weather'"),
    ("/overlay?align=top", 400, "'top'"),
    ("/api/stream?limit=many", 400, "'many'"),
    ("/video.mjpg?limit=-1", 400, "'-1'"),
    ("/no/such/page", 404, "not found"),
])
def test_bad_requests_get_a_clear_4xx(client: FlaskClient, path: str, code: int, words: str) -> None:
    reply = client.get(path)
    assert reply.status_code == code
    error = reply.get_json()["error"]
    assert words.lower() in error.lower() and "\n" not in error


@pytest.mark.parametrize(("path", "body"), CONTROL_ROUTES)
def test_control_without_token_is_refused(client: FlaskClient, path: str, body: dict) -> None:
    reply = client.post(path, json=body)
    assert reply.status_code == 401 and "token" in reply.get_json()["error"]
    reply = client.post(path, json=body, headers={"X-Referee-Token": "guess"})
    assert reply.status_code == 403 and "wrong token" in reply.get_json()["error"]
    assert client.get("/api/games/1").get_json()["journal"][-1]["kind"] == "setup"  # nothing happened


def test_token_in_form_or_json_field(manual: FlaskClient) -> None:
    assert manual.post("/api/clock/start", data={"token": "test-token"}).status_code == 200
    assert manual.post("/api/clock/pause", json={"token": "test-token"}).status_code == 200


def test_get_on_a_control_route_is_not_allowed(client: FlaskClient) -> None:
    assert client.get("/api/report").status_code == 405


@pytest.mark.parametrize(("path", "body", "code", "words"), [
    ("/api/report", {}, 400, "needs an action"),
    ("/api/report", {"action": "juggle red5"}, 400, "'juggle red5'"),
    ("/api/report", {"action": "place purple9 F-003:2"}, 400, "purple9"),
    ("/api/report", {"action": "done", "confidence": "high"}, 400, "'high'"),
    ("/api/report", {"action": "done", "confidence": 7}, 400, "0 to 1"),
    ("/api/clock/explode", {}, 404, "'explode'"),
    ("/api/clock/pause", {}, 409, "not started"),
    ("/api/events/99/undo", {}, 400, "no event 99"),
    ("/api/events/99/confirm", {}, 400, "no event 99"),
    ("/api/events/0/correct", {}, 400, "needs the right action"),
    ("/api/events/0/correct", {"action": "deal p9"}, 400, "'deal p9'"),
    ("/api/events/0/burn", {}, 404, "'burn'"),
    ("/api/setup", {"players": 7}, 400, "not 7"),
    ("/api/setup", {"players": "three"}, 400, "'three'"),
    ("/api/setup", {"difficulty": "nightmare"}, 400, "'nightmare'"),
    ("/api/setup", {"edition": "monopoly"}, 400, "'monopoly'"),
    ("/api/setup", {"edition": "countdown", "players": 2, "role_p1": "R-99"}, 400, "'R-99'"),
    ("/api/setup", {"feed": "television"}, 400, "'television'"),
    ("/api/setup", {"feed": "camera"}, 409, "--source"),
    ("/api/setup", {"players": 2, "names": "Ann,Bo,Cy"}, 400, "3 names"),
    ("/api/enrol", {"notation": "[#] = = [#]", "points": 1}, 400, "[#] = = [#]"),
    ("/api/enrol", {"notation": "[#] = [#]", "points": "lots"}, 400, "'lots'"),
    ("/api/enrol", {"edition": "chess", "notation": "[#]", "points": 1}, 400, "'chess'"),
])
def test_bad_control_requests(manual: FlaskClient, auth: dict, path: str, body: dict, code: int, words: str) -> None:
    reply = manual.post(path, json=body, headers=auth)
    assert reply.status_code == code, reply.get_json()
    error = reply.get_json()["error"]
    assert words.lower() in error.lower() and "\n" not in error


def test_non_json_object_body(manual: FlaskClient, auth: dict) -> None:
    reply = manual.post("/api/report", data="[1, 2]", content_type="application/json", headers=auth)
    assert reply.status_code == 400 and "JSON object" in reply.get_json()["error"]
