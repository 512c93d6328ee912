"""Reports vision inferred (nothing on the table showed them: ``vision.resync``, at confidence 0) are labelled so,
on the dashboard's state and on a game's page in the session log."""

from __future__ import annotations

from pathlib import Path

from tests.webui.conftest import TOKEN, make_app


def test_an_inferred_report_is_labelled_inferred(tmp_path: Path) -> None:
    app = make_app(tmp_path, FEED="manual", GAME={"seed": 11})
    client = app.test_client()
    client.post("/api/clock/start", headers={"X-Referee-Token": TOKEN})
    game = app.extensions["fuse_referee"].current()
    game.submit("roll red5 blue2 black6", "vision", 0.0, 30)
    place = next(a for a in client.get("/api/state").get_json()["legal"] if a.startswith("place"))
    game.submit(place, "vision", 0.9, 40)
    events = client.get("/api/state").get_json()["events"]
    assert [(e["action"], e["inferred"], e["unsure"]) for e in events[-2:]] == [
        ("roll red5 blue2 black6", True, True), (place, False, False)]
    page = client.get(f"/history/{game.id}").get_data(as_text=True)
    assert page.count("vision (inferred)") == 1 and "vision (0.90)" in page
    app.extensions["fuse_referee"].close()
