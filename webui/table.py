"""The referee's table: the session store, the game in progress (resumed or new), the pipeline and the hub.

At start-up the unfinished game in the database is resumed with its clock, log and feed position; otherwise a
new game starts from the configured feed: the bundled sample (``datasets/sample``), the simulated fallback
game when the sample is missing, a game entered by hand, a recorded log file, or the vision pipeline.

A source named that is not the unfinished game's (``fuse-referee run --source 0`` after the sample was left
running) is not silently replaced by the old game: an unfinished demo (the sample, a simulated game) is kept
as abandoned and the named source starts; a game of a real table is refused, one line saying how to go on
(``--new``, or no ``--source``), so that no game is given up unasked.
"""

from __future__ import annotations

import json
import secrets
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rules.config import GameConfig
from webui.errors import FeedError
from webui.feeds import Feed, LogFeed, ManualFeed, read_log_file, sample_feed, sample_folder, vision_feed
from webui.hub import Hub
from webui.live import LiveGame
from webui.pipeline import Pipeline
from webui.setup import GameSetup, config_from
from webui.simulated import DEFAULT_SEED, simulated_feed
from webui.store import Store

FEEDS = ("auto", "sample", "simulated", "manual")


def _matches(config: GameConfig, wanted: Mapping[str, Any]) -> bool:
    return all(getattr(config, k) == v for k, v in wanted.items() if k in ("edition", "players", "difficulty")
               and v is not None)


def make_feed(source: str, game: Mapping[str, Any], speed: float = 1.0,
              vision: Mapping[str, Any] | None = None) -> tuple[GameSetup, Feed]:
    """The setup and feed of a new game from ``source``: a name in ``FEEDS``, a log file, or a vision source
    (``vision``: its pipeline's ``model`` and ``windows``)."""
    wanted = {k: v for k, v in game.items() if v is not None}
    names = tuple(wanted.get("names") or ())
    folder = sample_folder()
    if source == "sample" or (source == "auto" and folder is not None
                              and _matches(config_from(_config_of(folder)), wanted)):
        if folder is None:
            raise FeedError("no bundled sample: datasets/sample/truth.json is missing (the renderer makes it)")
        config_data, feed = sample_feed(folder, speed=speed)
        config = config_from(config_data)
        return GameSetup(config, names, "log", (), int(config_data.get("seed", 0)), "sample"), feed
    config = config_from(wanted)
    seed = int(wanted.get("seed", DEFAULT_SEED))
    if source in ("auto", "simulated"):
        return GameSetup(config, names, "log", (), seed, "simulated"), simulated_feed(config, seed, speed=speed)
    if source == "manual":
        return GameSetup(config, names, wanted.get("deal", "engine"), (), seed, "manual"), ManualFeed()
    path = Path(source)
    if path.suffix == ".json" and path.is_file():
        config_data, reports = read_log_file(path)
        config = config_from(config_data, config) if config_data else config
        feed = LogFeed(reports, "log", f"recorded game {path.name}", False, None, {"path": str(path.resolve())},
                       speed=speed)
        return GameSetup(config, names, "log", (), seed, "log"), feed
    recorded = _truth_beside(path)
    if recorded is not None:  # a rendered recording: its own game, but what was asked for
        config = config_from({**_config_of(recorded), **wanted})
    feed = vision_feed(source, config, **(vision or {}))
    return GameSetup(config, names, "table", (), seed, "vision"), feed


def _same_feed(source: str, saved: Mapping[str, Any]) -> bool:
    """Whether ``source`` (``--source``; ``auto``: none given) names the feed a saved game used (``Feed.state``)."""
    kind = saved.get("kind")
    if source in FEEDS:
        return source in ("auto", kind)
    if kind == "log":
        return Path(source).resolve() == Path(saved["path"]).resolve()
    known = str(saved.get("source"))
    return kind == "vision" and (source == known or Path(source).exists() and Path(known).exists()
                                 and Path(source).resolve() == Path(known).resolve())


def _described(saved: Mapping[str, Any]) -> str:
    """A saved game's feed in words."""
    kind = saved.get("kind")
    return {"sample": "the bundled sample", "simulated": "a simulated game", "manual": "entered by hand",
            "log": f"recorded game {Path(str(saved.get('path'))).name}"}.get(
                str(kind), f"from {saved.get('source')!r}")


def _truth_beside(path: Path) -> Path | None:
    """The folder of a rendered recording (``truth.json`` beside its video, or in the folder of its frames), as
    ``fuse-referee score`` reads it; None for a camera, a stream or a recording of a real table."""
    folder = path if path.is_dir() else path.parent
    return folder if path.exists() and (folder / "truth.json").is_file() else None


def _config_of(folder: Path) -> dict[str, Any]:
    return read_log_file(folder / "truth.json")[0]


class Table:
    """Everything the app serves, made once per app."""

    def __init__(self, settings: Mapping[str, Any]) -> None:
        self.settings = dict(settings)
        self.token: str = settings.get("TOKEN") or secrets.token_urlsafe(12)
        self.store = Store(settings["DATABASE"])
        self.hub = Hub()
        self.lock = threading.Lock()
        self.resumed = False
        self.set_aside = ""
        """What became of an unfinished demo game that another source replaced (start-up message), if any."""
        row = self.store.unfinished()
        source = str(settings.get("FEED") or "auto")
        saved = json.loads(row["feed"]) if row is not None else {}
        if row is not None and not settings.get("NEW_GAME") and not _same_feed(source, saved):
            if saved.get("kind") not in ("sample", "simulated"):
                raise FeedError(f"game {row['id']} ({_described(saved)}) is unfinished: --new starts a new game from "
                                f"{source!r} and keeps game {row['id']} as abandoned; without --source it is resumed")
            self.set_aside = f"game {row['id']} ({_described(saved)}, unfinished) kept as abandoned"
        if row is not None and (settings.get("NEW_GAME") or self.set_aside):
            self.store.abandon(int(row["id"]), 0.0)
            row = None
        if row is not None:
            try:
                self.game = LiveGame.resume(self.store, self.hub, row)
            except FeedError as exc:
                raise FeedError(f"cannot resume game {row['id']}: {exc} (or start a new game with --new)") from None
            self.resumed = True
        else:
            setup, feed = make_feed(settings.get("FEED") or "auto", settings.get("GAME") or {},
                                    float(settings.get("SPEED") or 1.0), settings.get("VISION"))
            self.game = LiveGame.create(self.store, self.hub, setup, feed, float(settings.get("SEEK") or 0.0))
        self.pipeline = Pipeline(self.current, self.hub, float(settings.get("FPS") or 15.0))

    def current(self) -> LiveGame:
        return self.game

    def new_game(self, setup: GameSetup, feed: Feed) -> LiveGame:
        """Start ``setup`` on ``feed``; a game still in progress is kept in the log as abandoned."""
        with self.lock:
            old = self.game
            with old.lock:
                if not old.finished:
                    self.store.abandon(old.id, old.clock.elapsed())
                old.close()
            self.game = LiveGame.create(self.store, self.hub, setup, feed)
            return self.game

    def close(self) -> None:
        self.pipeline.stop()
        self.hub.close()
        self.game.close()
        self.store.close()
