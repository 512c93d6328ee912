"""The session log in SQLite: every game (setup, the referee's events, the clock, the feed's place, the final
score) and a journal of every report, correction, undo, confirmation and clock change.

Each change is one transaction that writes the journal entry and the game's whole saved state together, so a
crash or restart loses nothing: ``unfinished()`` finds the game in progress and ``webui.live`` resumes it
with its clock. The live game holds one connection (guarded by a lock); pages open their own per request.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS game (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    created TEXT NOT NULL,
    edition TEXT NOT NULL,
    players INTEGER NOT NULL,
    difficulty TEXT NOT NULL,
    setup TEXT NOT NULL,
    feed TEXT NOT NULL,
    referee TEXT NOT NULL,
    clock TEXT NOT NULL,
    meta TEXT NOT NULL DEFAULT '{}',
    status TEXT NOT NULL DEFAULT 'playing',
    finished TEXT,
    won INTEGER,
    score INTEGER,
    score_parts TEXT,
    reason TEXT
);
CREATE TABLE IF NOT EXISTS journal (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id INTEGER NOT NULL REFERENCES game (id),
    at TEXT NOT NULL,
    elapsed REAL NOT NULL,
    kind TEXT NOT NULL,
    detail TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS journal_game ON journal (game_id, id);
"""
JOURNAL_KINDS = ("setup", "report", "undo", "correct", "confirm", "clock", "end", "resume", "reopen", "abandon")


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def connect(path: str | Path) -> sqlite3.Connection:
    """A connection with rows by name, write-ahead logging and the schema in place."""
    if str(path) != ":memory:":
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(str(path), check_same_thread=False, timeout=10)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.executescript(SCHEMA)
    return conn


class Store:
    """Writes of the live game (one connection, one lock)."""

    def __init__(self, path: str | Path) -> None:
        self.path = path
        self.conn = connect(path)
        self.lock = threading.Lock()

    def close(self) -> None:
        with self.lock:
            self.conn.close()

    def create(self, setup: dict[str, Any], feed: dict[str, Any], referee: dict[str, Any], clock: dict[str, Any],
               meta: dict[str, Any]) -> int:
        config = setup["config"]
        with self.lock, self.conn:
            cur = self.conn.execute(
                "INSERT INTO game (created, edition, players, difficulty, setup, feed, referee, clock, meta)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (now_iso(), config["edition"], config["players"], config["difficulty"], json.dumps(setup),
                 json.dumps(feed), json.dumps(referee), json.dumps(clock), json.dumps(meta)),
            )
            game_id = int(cur.lastrowid or 0)
            self._journal(game_id, [(0.0, "setup", setup)])
        return game_id

    def save(self, game_id: int, entries: Iterable[tuple[float, str, dict[str, Any]]], referee: dict[str, Any],
             clock: dict[str, Any], feed: dict[str, Any], meta: dict[str, Any]) -> None:
        """Journal entries ``(elapsed, kind, detail)`` and the game's state, in one transaction."""
        with self.lock, self.conn:
            self.conn.execute("UPDATE game SET referee = ?, clock = ?, feed = ?, meta = ? WHERE id = ?",
                              (json.dumps(referee), json.dumps(clock), json.dumps(feed), json.dumps(meta), game_id))
            self._journal(game_id, entries)

    def finish(self, game_id: int, won: bool, score: dict[str, int], reason: str, elapsed: float) -> None:
        with self.lock, self.conn:
            self.conn.execute(
                "UPDATE game SET status = 'finished', finished = ?, won = ?, score = ?, score_parts = ?, reason = ?"
                " WHERE id = ?", (now_iso(), int(won), score["total"], json.dumps(score), reason, game_id))
            self._journal(game_id, [(elapsed, "end", {"won": won, "score": score, "reason": reason})])

    def reopen(self, game_id: int, elapsed: float) -> None:
        """A correction took back the game's end: it is in progress again."""
        with self.lock, self.conn:
            self.conn.execute("UPDATE game SET status = 'playing', finished = NULL, won = NULL, score = NULL,"
                              " score_parts = NULL, reason = NULL WHERE id = ?", (game_id,))
            self._journal(game_id, [(elapsed, "reopen", {})])

    def abandon(self, game_id: int, elapsed: float) -> None:
        with self.lock, self.conn:
            self.conn.execute("UPDATE game SET status = 'abandoned', finished = ? WHERE id = ?", (now_iso(), game_id))
            self._journal(game_id, [(elapsed, "abandon", {})])

    def journal(self, game_id: int, elapsed: float, kind: str, detail: dict[str, Any]) -> None:
        with self.lock, self.conn:
            self._journal(game_id, [(elapsed, kind, detail)])

    def _journal(self, game_id: int, entries: Iterable[tuple[float, str, dict[str, Any]]]) -> None:
        at = now_iso()
        self.conn.executemany(
            "INSERT INTO journal (game_id, at, elapsed, kind, detail) VALUES (?, ?, ?, ?, ?)",
            [(game_id, at, round(elapsed, 3), kind, json.dumps(detail)) for elapsed, kind, detail in entries],
        )

    def unfinished(self) -> sqlite3.Row | None:
        """The latest game still in progress."""
        with self.lock:
            return self.conn.execute("SELECT * FROM game WHERE status = 'playing' ORDER BY id DESC LIMIT 1").fetchone()

    def latest(self) -> sqlite3.Row | None:
        with self.lock:
            return self.conn.execute("SELECT * FROM game ORDER BY id DESC LIMIT 1").fetchone()


# ---------------------------------------------------------------------- reading (pages, API, CSV)


def list_games(conn: sqlite3.Connection, limit: int = 500) -> list[dict[str, Any]]:
    rows = conn.execute("SELECT id, created, edition, players, difficulty, status, finished, won, score, reason, setup"
                        " FROM game ORDER BY id DESC LIMIT ?", (limit,)).fetchall()
    return [_summary(row) for row in rows]


def _summary(row: sqlite3.Row) -> dict[str, Any]:
    setup = json.loads(row["setup"])
    return {
        "id": row["id"], "created": row["created"], "date": row["created"][:10], "edition": row["edition"],
        "players": row["players"], "names": setup.get("names", []), "difficulty": row["difficulty"],
        "status": row["status"], "finished": row["finished"],
        "won": None if row["won"] is None else bool(row["won"]), "score": row["score"], "reason": row["reason"],
        "result": {None: "in progress" if row["status"] == "playing" else row["status"], True: "win",
                   False: "lose"}[None if row["won"] is None else bool(row["won"])],
        "feed": setup.get("feed", ""),
    }


def game_detail(conn: sqlite3.Connection, game_id: int) -> dict[str, Any] | None:
    row = conn.execute("SELECT * FROM game WHERE id = ?", (game_id,)).fetchone()
    if row is None:
        return None
    journal = conn.execute("SELECT at, elapsed, kind, detail FROM journal WHERE game_id = ? ORDER BY id",
                           (game_id,)).fetchall()
    referee = json.loads(row["referee"])
    return {
        **_summary(row),
        "setup": json.loads(row["setup"]),
        "score_parts": json.loads(row["score_parts"]) if row["score_parts"] else None,
        "clock": json.loads(row["clock"]),
        "events": referee["events"],
        "journal": [{"at": j["at"], "elapsed": j["elapsed"], "kind": j["kind"], "detail": json.loads(j["detail"])}
                    for j in journal],
    }
