"""The drawn video: the schematic table, the outlines' colours, the sound cue, the session store."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from webui.feeds import Frame, Mark
from webui.render import STATUS, Renderer, active_alerts, annotate, draw_die
from webui.store import Store, game_detail, list_games


def snap(violations: list[dict] | None = None) -> dict:
    card = {"id": "F-003", "points": 2, "body": "[red] [#]", "kind": "bomb", "complete": False,
            "chips": [{"chip": 1, "need": "[red]", "die": "red5", "status": "unsure"},
                      {"chip": 2, "need": "[#]", "die": None, "status": ""}]}
    return {"game": {"id": 1, "simulated": True, "feed_label": "demo"}, "version": 1, "row": [card], "roll": ["blue2"],
            "players": [{"name": "p1", "role": None, "cards": [card]}], "leader": "p1", "score": {"total": 3},
            "bag": 20, "waiting_for": "dice", "violations": violations or [], "alert_seconds": 10}


def test_schematic_draws_cards_dice_and_alerts() -> None:
    violation = {"index": 4, "elapsed": 5.0, "action": "place blue2 F-003:2", "reason": "chip 2 says no"}
    renderer = Renderer()
    calm = renderer.render(snap([violation]), None, 30.0, "09:30", 1)
    alarmed = renderer.render(snap([violation]), None, 6.0, "09:54", 2)
    assert calm.shape == (720, 1280, 3) and not np.array_equal(calm, alarmed)
    red = np.all(alarmed == STATUS["illegal"], axis=2).sum()
    assert red > np.all(calm == STATUS["illegal"], axis=2).sum() + 500  # the red outline and banner
    assert np.all(calm == STATUS["unsure"], axis=2).sum() > 50  # the low-confidence die is amber


def test_active_alerts_window() -> None:
    s = snap([{"index": 1, "elapsed": 5.0, "action": "x", "reason": "y"}])
    assert active_alerts(s, 5.0) and active_alerts(s, 14.9) and not active_alerts(s, 15.1)


def test_frame_marks_take_their_status_colours() -> None:
    frame = Frame(np.zeros((100, 200, 3), np.uint8), 0, [Mark((10, 10, 50, 50), "red5", "legal", "F-003", 1),
                                                         Mark((60, 10, 100, 50), "blue2", "legal", "F-003", 2)])
    out = annotate(frame, [{"action": "place blue2 F-003:2", "elapsed": 0}])
    assert tuple(out[30, 10]) == STATUS["legal"] and tuple(out[30, 60]) == STATUS["illegal"]


def test_split_die() -> None:
    image = np.zeros((60, 60, 3), np.uint8)
    draw_die(image, "black/yellow2", 5, 5, 40)
    assert len({tuple(p) for p in image.reshape(-1, 3)}) > 3


def test_store_round_trip(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.sqlite")
    setup = {"config": {"edition": "fuse", "players": 2, "difficulty": "expert"}, "names": ["Ann"], "feed": "manual"}
    game = store.create(setup, {"kind": "manual"}, {"config": {}, "events": []}, {}, {})
    store.save(game, [(1.0, "report", {"action": "done"})], {"config": {}, "events": [{"action": "done"}]}, {}, {}, {})
    assert store.unfinished()["id"] == game
    store.finish(game, True, {"total": 42}, "cleared", 300.0)
    assert store.unfinished() is None
    summary = list_games(store.conn)[0]
    assert (summary["result"], summary["score"], summary["date"][:2]) == ("win", 42, "20")
    detail = game_detail(store.conn, game)
    assert [j["kind"] for j in detail["journal"]] == ["setup", "report", "end"]
    store.close()
