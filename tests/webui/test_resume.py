"""A crash or restart loses nothing: the game in progress comes back with its clock, its log and its feed's
place, in-process (a new app on the same database) and with a real server killed with SIGKILL."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.webui.conftest import TOKEN, make_app
from webui.commands import main
from webui.process import Server


def test_new_app_on_the_same_database_resumes_the_game(tmp_path: Path) -> None:
    auth = {"X-Referee-Token": TOKEN}
    first = make_app(tmp_path, FEED="manual", GAME={"seed": 11})
    client = first.test_client()
    client.post("/api/clock/start", headers=auth)
    client.post("/api/report", json={"action": "roll red5 blue2 black6"}, headers=auth)
    place = next(a for a in client.get("/api/state").get_json()["legal"] if a.startswith("place"))
    client.post("/api/report", json={"action": place}, headers=auth)
    client.post("/api/report", json={"action": "place red5 F-999:1"}, headers=auth)  # a violation
    client.post("/api/events/13/undo", headers=auth)
    before = client.get("/api/state").get_json()
    clock_before = first.extensions["fuse_referee"].current().clock.to_dict()
    first.extensions["fuse_referee"].close()
    del first, client

    time.sleep(0.3)
    second = make_app(tmp_path, FEED="auto")  # no source named: the unfinished game is resumed
    table = second.extensions["fuse_referee"]
    after = second.test_client().get("/api/state").get_json()
    assert table.resumed and after["game"]["id"] == before["game"]["id"] and after["game"]["feed"] == "manual"
    assert [e["action"] for e in after["events"]] == [e["action"] for e in before["events"]]
    assert [e["undone"] for e in after["events"]] == [e["undone"] for e in before["events"]]
    assert after["violations"] == before["violations"] and after["players"] == before["players"]
    assert table.current().clock.to_dict() == clock_before
    assert after["clock"]["elapsed"] >= before["clock"]["elapsed"] + 0.3
    kinds = [j["kind"] for j in second.test_client().get("/api/games/1").get_json()["journal"]]
    assert kinds[-1] == "resume"
    table.close()


def test_new_game_flag_abandons_the_unfinished_one(tmp_path: Path) -> None:
    make_app(tmp_path, FEED="manual").extensions["fuse_referee"].close()
    app = make_app(tmp_path, FEED="manual", NEW_GAME=True)
    games = app.test_client().get("/api/history").get_json()["games"]
    assert [(g["id"], g["status"]) for g in games] == [(2, "playing"), (1, "abandoned")]
    app.extensions["fuse_referee"].close()


def test_killed_server_resumes_the_same_game_clock_and_log(tmp_path: Path) -> None:
    db = tmp_path / "sessions.sqlite"
    with Server(["--source", "simulated", "--seek", "30", "--token", TOKEN], db) as server:
        server.wait_for(lambda s: s["event_count"] > 20)
        server.post("/api/events/0/confirm")  # a referee action, journalled
        before = server.get_json("api/state")
        assert before["clock"]["running"] and before["violations"]
        server.kill(hard=True)  # SIGKILL: no chance to save anything more
    killed_at = time.time()
    time.sleep(1.0)
    with Server([], db) as server:  # started again as a user would after a crash (no source: whatever was running)
        assert "(resumed)" in server.lines[0]
        after = server.get_json("api/state")
        assert after["game"]["id"] == before["game"]["id"] and after["game"]["feed"] == "simulated"
        assert after["clock"]["running"] is True
        assert after["clock"]["elapsed"] >= before["clock"]["elapsed"] + (time.time() - killed_at) - 0.5
        assert after["clock"]["remaining"] < before["clock"]["remaining"] - 0.9
        old = [(e["index"], e["action"], e["accepted"]) for e in before["events"]]
        new = [(e["index"], e["action"], e["accepted"]) for e in after["events"]]
        assert new[: len(old)] == old
        assert after["violations"][: len(before["violations"])] == before["violations"]
        journal = [j["kind"] for j in server.get_json(f"api/games/{after['game']['id']}")["journal"]]
        assert "confirm" in journal and journal.count("resume") == 1


def test_the_same_source_named_again_resumes_the_game(tmp_path: Path) -> None:
    make_app(tmp_path, FEED="manual").extensions["fuse_referee"].close()
    table = make_app(tmp_path, FEED="manual").extensions["fuse_referee"]
    assert table.resumed and table.current().id == 1
    table.close()


def test_another_source_named_replaces_an_unfinished_demo_and_says_so(tmp_path: Path) -> None:
    """The first thing a new user does is run the sample; then they name their camera. The sample (or a simulated
    game) left unfinished is kept as abandoned and the named source starts, and the start-up says so."""
    make_app(tmp_path, FEED="simulated").extensions["fuse_referee"].close()
    app = make_app(tmp_path, FEED="manual")
    table = app.extensions["fuse_referee"]
    games = app.test_client().get("/api/history").get_json()["games"]
    assert [(g["id"], g["status"]) for g in games] == [(2, "playing"), (1, "abandoned")]
    assert not table.resumed and table.set_aside == "game 1 (a simulated game, unfinished) kept as abandoned"
    table.close()


def test_another_source_named_while_a_real_game_is_unfinished_is_one_line_and_loses_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "sessions.sqlite"
    make_app(tmp_path, FEED="manual", DATABASE=str(db)).extensions["fuse_referee"].close()
    capsys.readouterr()
    assert main(["run", "--db", str(db), "--source", "simulated", "--port", "0"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and err == ("error: game 1 (entered by hand) is unfinished: --new starts a new game from "
                                       "'simulated' and keeps game 1 as abandoned; without --source it is resumed")
    table = make_app(tmp_path, FEED="auto", DATABASE=str(db)).extensions["fuse_referee"]
    assert table.resumed and table.current().id == 1  # nothing was given up
    table.close()
