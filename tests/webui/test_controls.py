"""Referee controls on a game entered by hand: reports, violations, undo, corrections, confirmations, the
clock, the hint, a new game from the setup page; every one is in the journal."""

from __future__ import annotations

from flask.testing import FlaskClient


def state(client: FlaskClient) -> dict:
    return client.get("/api/state").get_json()


def journal_kinds(client: FlaskClient, game: int = 1) -> list[str]:
    return [j["kind"] for j in client.get(f"/api/games/{game}").get_json()["journal"]]


def roll_and_place(client: FlaskClient, auth: dict) -> dict:
    """Roll three dice and place the first legal one; returns the state."""
    assert client.post("/api/report", json={"action": "roll red5 blue2 black6"}, headers=auth).status_code == 200
    place = next(a for a in state(client)["legal"] if a.startswith("place"))
    reply = client.post("/api/report", json={"action": place}, headers=auth).get_json()
    assert reply["event"]["accepted"] and not reply["violation"]
    return state(client)


def test_engine_deal_then_reports(manual: FlaskClient, auth: dict) -> None:
    s = state(manual)
    assert s["game"]["feed"] == "manual" and s["phase"] == "roll" and s["clock"]["started"] is False
    assert all(len(p["cards"]) == 2 for p in s["players"]) and len(s["row"]) == 5
    s = roll_and_place(manual, auth)
    assert sum(c["die"] is not None for p in s["players"] for card in p["cards"] for c in card["chips"]) == 1


def test_illegal_placement_is_a_violation_with_its_reason(manual: FlaskClient, auth: dict) -> None:
    roll_and_place(manual, auth)
    s = state(manual)
    card = s["players"][0]["cards"][0]["id"]
    reply = manual.post("/api/report", json={"action": f"place red5 {card}:9"}, headers=auth).get_json()
    assert reply["violation"] is True and reply["event"]["reason"]
    s = state(manual)
    assert s["violations"][-1]["action"] == f"place red5 {card}:9"
    assert s["violations"][-1]["text"].startswith(f"place red5 {card}:9: ")


def test_undo_correct_and_confirm_are_logged(manual: FlaskClient, auth: dict) -> None:
    s = roll_and_place(manual, auth)
    placed = s["events"][-1]
    assert manual.post(f"/api/events/{placed['index']}/undo", headers=auth).get_json()["event"]["undone"] is True
    s = state(manual)
    assert all(c["die"] is None for p in s["players"] for card in p["cards"] for c in card["chips"])
    roll = s["events"][-2]
    assert roll["action"] == "roll red5 blue2 black6"
    reply = manual.post(f"/api/events/{roll['index']}/correct", json={"action": "roll red6 blue2 black6"},
                        headers=auth).get_json()
    assert reply["event"]["source"] == "correction" and reply["event"]["accepted"]
    assert state(manual)["roll"] == ["red6", "blue2", "black6"]
    low = manual.post("/api/report", json={"action": state(manual)["legal"][0], "confidence": 0.4},
                      headers=auth).get_json()["event"]
    assert state(manual)["unsure"][-1]["index"] == low["index"]
    manual.post(f"/api/events/{low['index']}/confirm", headers=auth)
    assert state(manual)["unsure"] == []
    kinds = journal_kinds(manual)
    assert kinds.count("undo") == 1 and kinds.count("correct") == 1 and kinds.count("confirm") == 1


def test_clock_start_pause_resume(manual: FlaskClient, auth: dict) -> None:
    assert manual.post("/api/clock/start", headers=auth).get_json()["clock"]["running"] is True
    assert manual.post("/api/clock/start", headers=auth).status_code == 409
    paused = manual.post("/api/clock/pause", headers=auth).get_json()["clock"]
    assert paused["running"] is False and paused["started"] is True
    assert state(manual)["clock"]["remaining"] == paused["remaining"]
    assert manual.post("/api/clock/resume", headers=auth).get_json()["clock"]["running"] is True
    assert journal_kinds(manual).count("clock") == 3


def test_hint_for_the_current_roll(manual: FlaskClient, auth: dict) -> None:
    manual.post("/api/report", json={"action": "roll red5 blue2 black6"}, headers=auth)
    hint = manual.get("/api/hint").get_json()
    assert hint["roll"] == ["red5", "blue2", "black6"] and hint["reasons"]
    assert all(step["action"].startswith("place ") for step in hint["steps"])


def test_new_game_from_the_setup_page(manual: FlaskClient, auth: dict) -> None:
    form = {"edition": "countdown", "players": "2", "difficulty": "expert", "fuse_cards": "4", "names": "Ann, Bo",
            "role_p1": "R-1", "deal": "engine", "seed": "5", "feed": "manual", "token": "test-token"}
    reply = manual.post("/api/setup", data=form)
    assert reply.status_code == 201, reply.get_json()
    game = reply.get_json()["game"]
    assert game["id"] == 2 and game["edition"] == "countdown" and game["names"] == ["Ann", "Bo"]
    manual.application.extensions["fuse_referee"].pipeline.step()  # draws the roles too
    s = state(manual)
    assert s["players"][0]["role"] is not None and s["game"]["fuse_cards"] == 4
    history = manual.get("/api/history").get_json()["games"]
    assert [g["status"] for g in history] == ["playing", "abandoned"]


def test_table_deal_waits_for_the_cards(manual: FlaskClient, auth: dict) -> None:
    manual.post("/api/setup", json={"players": 2, "deal": "table"}, headers=auth)
    s = state(manual)
    assert s["phase"] == "deal" and all(not p["cards"] for p in s["players"])
    reply = manual.post("/api/report", json={"action": "deal p1 F-003"}, headers=auth).get_json()
    assert reply["event"]["accepted"]


def test_simulated_game_from_the_setup_page(manual: FlaskClient, auth: dict) -> None:
    reply = manual.post("/api/setup", json={"feed": "simulated", "players": 2, "seed": 4}, headers=auth)
    assert reply.status_code == 201
    manual.application.extensions["fuse_referee"].pipeline.step()
    s = state(manual)
    assert s["game"]["simulated"] and s["clock"]["running"] and len(s["players"]) == 2


def test_enrol_a_card(manual: FlaskClient, auth: dict) -> None:
    reply = manual.post("/api/enrol", json={"edition": "fuse", "notation": "[#] = [#] = [#] = [#]", "points": 3},
                        headers=auth)
    assert reply.status_code == 201 and reply.get_json()["card"]["id"].startswith("F-U")


def test_a_finished_game_takes_no_more_reports(manual: FlaskClient, auth: dict) -> None:
    game = manual.application.extensions["fuse_referee"].current()
    game.clock.start()
    game.clock.started_at -= 601
    manual.application.extensions["fuse_referee"].pipeline.step()
    s = state(manual)
    assert s["outcome"] == {"won": False, "reason": "time"} and s["game"]["status"] == "finished"
    assert s["clock"]["remaining"] == 0 and s["clock"]["running"] is False
    reply = manual.post("/api/report", json={"action": "done"}, headers=auth)
    assert reply.status_code == 409 and "over" in reply.get_json()["error"]
    bdt = manual.get("/history/bdt").get_data(as_text=True)
    assert "lose" in bdt and "Win/Lose?" in bdt
    assert journal_kinds(manual)[-1] == "end"


def test_a_correction_keeps_confirmations_on_their_reports(manual: FlaskClient, auth: dict) -> None:
    manual.post("/api/report", json={"action": "roll red5 blue2 black6"}, headers=auth)
    low = manual.post("/api/report", json={"action": state(manual)["legal"][0], "confidence": 0.3},
                      headers=auth).get_json()["event"]
    manual.post(f"/api/events/{low['index']}/confirm", headers=auth)
    roll = low["index"] - 1
    manual.post(f"/api/events/{roll}/correct", json={"action": "roll red5 blue2 black6"}, headers=auth)
    events = manual.get("/api/state").get_json()["events"]
    moved = next(e for e in events if e["action"] == low["action"] and not e["undone"])
    assert moved["index"] == low["index"] + 1 and moved["confirmed"] is True


def test_the_feed_s_questions_are_shown_answered_and_dismissed(manual_app, auth: dict) -> None:  # type: ignore[no-untyped-def]
    """Vision's questions (a feed's ``questions``) are in the state; ``answer`` reports the proposed action (in the
    feed's own game too), ``dismiss`` drops a question; an unknown one is a clear error."""
    from vision.interpret import Confirm
    from webui.errors import FeedError
    from webui.feeds import ManualFeed

    class AskingFeed(ManualFeed):
        def __init__(self, asked: dict[int, Confirm]) -> None:
            super().__init__()
            self.asked, self.answers = asked, []

        def questions(self) -> dict[int, Confirm]:
            return dict(self.asked)

        def answer(self, number: int, action: str | None) -> None:
            if self.asked.pop(number, None) is None:
                raise FeedError(f"no open question {number}")
            self.answers.append((number, action))

        def told(self, action: str) -> None:
            self.answers.append((0, action))

    client = manual_app.test_client()
    game = manual_app.extensions["fuse_referee"].current()
    client.post("/api/report", json={"action": "roll red5 blue2 black6"}, headers=auth)
    place = next(a for a in state(client)["legal"] if a.startswith("place"))
    feed = AskingFeed({1: Confirm(70, 12.0, f"saw {place!r}: is that what happened?", place),
                       2: Confirm(84, 14.0, "card F-001 turned up: which card is it?")})
    game.feed = feed
    client.post("/api/report", json={"action": "unused blue5"}, headers=auth)  # typed: the feed is told
    assert feed.answers == [(0, "unused blue5")]
    feed.answers.clear()
    assert [q["number"] for q in state(client)["questions"]] == [1, 2]
    reply = client.post("/api/questions/1/answer", headers=auth).get_json()
    assert reply["event"]["action"] == place and reply["event"]["accepted"]
    assert feed.answers == [(1, place)] and state(client)["events"][-1]["action"] == place
    no_action = client.post("/api/questions/2/answer", headers=auth)
    assert no_action.status_code == 400 and "proposes no action" in no_action.get_json()["error"]
    assert client.post("/api/questions/2/dismiss", headers=auth).get_json()["event"] is None
    assert state(client)["questions"] == [] and feed.answers[-1] == (2, None)
    gone = client.post("/api/questions/1/dismiss", headers=auth)
    assert gone.status_code == 404 and "no open question 1" in gone.get_json()["error"]
    assert journal_kinds(client).count("answer") == 2


def _reporting_feed():  # noqa: ANN202
    """A manual feed that hands the game the reports put in its ``due`` list, as a vision feed would."""
    from webui.feeds import ManualFeed, Report

    class ReportingFeed(ManualFeed):
        def __init__(self) -> None:
            super().__init__()
            self.due: list[Report] = []

        def poll(self, elapsed: float) -> list[Report]:
            due, self.due = self.due, []
            return due

    return ReportingFeed()


def test_a_feed_s_correction_of_its_own_report_corrects_it_here_too(manual_app, auth: dict) -> None:  # type: ignore[no-untyped-def]
    """Vision corrects a report it made (a roll misread): the dashboard's game corrects that report as well, rather
    than taking the correction for a new report at the end of its log (a second roll, refused)."""
    from webui.feeds import Report

    client = manual_app.test_client()
    game = manual_app.extensions["fuse_referee"].current()
    game.feed = feed = _reporting_feed()
    feed.due = [Report(0.0, "roll red5 blue2 black6", "vision")]
    game.tick()
    feed.due = [Report(0.0, "roll red5 blue2 black5", "vision", replaces="roll red5 blue2 black6")]
    game.tick()
    assert [(e.action, e.undone, e.source, e.accepted) for e in game.referee.events[-2:]] == [
        ("roll red5 blue2 black6", True, "vision", True), ("roll red5 blue2 black5", False, "correction", True)]
    assert game.referee.violations == [] and journal_kinds(client).count("correct") == 1


def test_a_feed_taking_back_its_own_report_takes_it_back_here_too(manual_app, auth: dict) -> None:  # type: ignore[no-untyped-def]
    """Vision takes back a report it made (a ``done`` inferred too soon: a die of the roll settled on a chip after
    it): the dashboard's game takes it back as well, so the two games go on alike."""
    from webui.feeds import Report

    client = manual_app.test_client()
    game = manual_app.extensions["fuse_referee"].current()
    game.feed = feed = _reporting_feed()
    feed.due = [Report(0.0, "roll red5 blue2 black6", "vision")]
    game.tick()
    feed.due = [Report(0.0, "roll red5 blue2 black6", "vision", taken_back=True)]
    game.tick()
    assert [(e.action, e.undone) for e in game.referee.events[-1:]] == [("roll red5 blue2 black6", True)]
    assert journal_kinds(client).count("undo") == 1
    feed.due = [Report(0.0, "roll red1 blue2 black6", "vision", taken_back=True)]  # (never reported here)
    game.tick()
    assert journal_kinds(client).count("undo") == 1
