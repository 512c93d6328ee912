"""The game in progress: the referee, its wall clock and its feed, saved after every change and broadcast.

Every method takes the lock, so the pipeline thread and the request threads see one consistent game. Each
change is written to SQLite (journal entry and whole state in one transaction) before it is broadcast, and
the game's end (win, loss, time) is recorded when the referee declares it.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import asdict
from typing import Any

from rules import actions as A
from rules.clock import GameClock
from rules.errors import RulesError
from rules.hints import suggest
from rules.referee import Event, Referee
from webui import snapshot
from webui.errors import WebUIError
from webui.feeds import Feed, Frame, reopen
from webui.hub import Hub
from webui.setup import GameSetup, engine_deal
from webui.store import Store

Entry = tuple[float, str, dict[str, Any]]


class ControlError(WebUIError):
    """A control action that cannot be done now (quoted in the 4xx reply)."""


class LiveGame:
    def __init__(self, store: Store, hub: Hub, game_id: int, setup: GameSetup, referee: Referee, clock: GameClock,
                 feed: Feed, meta: dict[str, Any], finished: bool = False) -> None:
        self.store, self.hub, self.id, self.setup = store, hub, game_id, setup
        self.referee, self.clock, self.feed, self.meta = referee, clock, feed, meta
        self.names = setup.player_names()
        self.finished = finished
        self.lock = threading.RLock()
        self.version = 0
        self._described: tuple[int, dict[str, Any]] | None = None
        self._asked: tuple[int, ...] = ()
        """The feed's open questions when the state was last published."""
        self.state_updates = 0

    # ------------------------------------------------------------------ making and resuming

    @classmethod
    def create(cls, store: Store, hub: Hub, setup: GameSetup, feed: Feed, seek: float = 0.0,
               now: Callable[[], float] = time.time) -> LiveGame:
        """A new game; a recorded feed with ``seek`` starts that many seconds into its log, clock running."""
        clock = GameClock(now)
        referee = Referee(setup.config, clock)
        entries: list[Entry] = []
        if seek > 0:
            reports = feed.poll(seek)
            events = [asdict(Event(i, r.elapsed, r.action, True, "", r.source, r.confidence, r.frame))
                      for i, r in enumerate(reports)]
            clock.started_at = now() - seek
            referee = Referee.from_dict({"config": referee.to_dict()["config"], "events": events}, clock)
            entries = [(e.elapsed, "report", asdict(e)) for e in referee.events]
            entries.append((seek, "clock", {"action": "start", "seek": seek, **clock.to_dict()}))
        meta = {"confirmed": []}
        game_id = store.create({**setup.to_dict(), "feed": feed.kind}, feed.state(), referee.to_dict(),
                               clock.to_dict(), meta)
        game = cls(store, hub, game_id, setup, referee, clock, feed, meta)
        if setup.deal == "engine":
            for action in engine_deal(setup):
                entries.append(game._report(action, "setup", 1.0, None))
        game._commit(entries)
        return game

    @classmethod
    def resume(cls, store: Store, hub: Hub, row: Any, now: Callable[[], float] = time.time) -> LiveGame:
        """The saved game ``row`` (a ``game`` table row) with its clock, log and feed position."""
        setup = GameSetup.from_dict(json.loads(row["setup"]))
        clock = GameClock.from_dict(json.loads(row["clock"]), now)
        referee = Referee.from_dict(json.loads(row["referee"]), clock)
        feed = reopen(json.loads(row["feed"]), setup.config)
        game = cls(store, hub, int(row["id"]), setup, referee, clock, feed, json.loads(row["meta"]),
                   row["status"] == "finished")
        store.journal(game.id, clock.elapsed(), "resume", {"clock": clock.to_dict(), "events": len(referee.events)})
        game._commit([])
        return game

    # ------------------------------------------------------------------ reports and corrections

    def submit(self, action: str, source: str = "manual", confidence: float = 1.0, frame: int | None = None) -> Event:
        """One report; a malformed action is refused with ``RulesError`` before anything is logged."""
        A.parse_action(action)
        with self.lock:
            entry = self._report(action, source, confidence, frame)
            if source == "manual":
                self.feed.told(action)
            self._commit([entry])
            return self.referee.events[entry[2]["index"]]

    def _report(self, action: str, source: str, confidence: float, frame: int | None) -> Entry:
        event = self.referee.submit(action, source, confidence, frame)
        return (event.elapsed, "report", asdict(event))

    def _latest(self, action: str) -> int | None:
        """The index of the latest report of ``action`` not taken back: the one a feed's correction or take-back of
        its own report of it means."""
        return next((e.index for e in reversed(self.referee.events) if not e.undone and e.action == action), None)

    def _replace(self, was: str, action: str) -> Entry:
        """The feed corrected its own report ``was``: corrected here too."""
        index = self._latest(was)
        if index is None:  # (a report this game never had): made as it is
            return self._report(action, "correction", 1.0, None)
        return self._correct(index, action)[1]

    def _take_back(self, action: str) -> Entry | None:
        """The feed took back its own report ``action``: taken back here too (None if this game never had it)."""
        index = self._latest(action)
        if index is None:
            return None
        self.referee.undo(index)
        return (self.clock.elapsed(), "undo", {"index": index, "action": action})

    def _correct(self, index: int, action: str) -> tuple[Event, Entry]:
        was = self.referee.events[index].action
        event = self.referee.correct(index, action)
        # the correction is inserted after report ``index``: later reports move down one
        self.meta["confirmed"] = sorted(i + (i > index) for i in self.meta.get("confirmed", []))
        return event, (self.clock.elapsed(), "correct", {"index": index, "was": was, "now": asdict(event)})

    def undo(self, index: int) -> Event:
        with self.lock:
            event = self.referee.undo(index)
            self.feed.amended(event, None)
            self._commit([(self.clock.elapsed(), "undo", {"index": index, "action": event.action})])
            return event

    def correct(self, index: int, action: str) -> Event:
        with self.lock:
            if not 0 <= index < len(self.referee.events):
                raise RulesError(f"no event {index}: the log has {len(self.referee.events)}")
            A.parse_action(action)
            event, entry = self._correct(index, action)
            self.feed.amended(self.referee.events[index], action)
            self._commit([entry])
            return event

    def confirm(self, index: int) -> Event:
        """The referee agrees with what vision read: the report is no longer shown as unsure."""
        with self.lock:
            if not 0 <= index < len(self.referee.events):
                raise RulesError(f"no event {index}: the log has {len(self.referee.events)}")
            confirmed = set(self.meta.get("confirmed", []))
            confirmed.add(index)
            self.meta["confirmed"] = sorted(confirmed)
            event = self.referee.events[index]
            self._commit([(self.clock.elapsed(), "confirm", {"index": index, "action": event.action})])
            return event

    def answer(self, number: int, action: str | None) -> Event | None:
        """The person answers the feed's question ``number``: ``action`` happened (reported, in the feed's own game
        too), or None: dismissed. A malformed action is refused with ``RulesError`` before anything changes."""
        if action:
            A.parse_action(action)
        with self.lock:
            self.feed.answer(number, action)
            entries: list[Entry] = [(self.clock.elapsed(), "answer", {"question": number, "action": action or ""})]
            if action:
                entries.append(self._report(action, "manual", 1.0, None))
            self._commit(entries)
            return self.referee.events[-1] if action else None

    def clock_action(self, what: str) -> dict[str, Any]:
        """``start``, ``pause`` or ``resume`` the countdown."""
        with self.lock:
            if self.referee.state.outcome is not None:
                raise ControlError(f"cannot {what} the clock: the game is over ({self.referee.state.outcome.reason})")
            if what == "start" and self.clock.started_at is not None:
                raise ControlError("the clock has already started: use pause or resume")
            if what in ("pause", "resume") and self.clock.started_at is None:
                raise ControlError(f"cannot {what} the clock: it has not started")
            getattr(self.clock, what)()
            self._commit([(self.clock.elapsed(), "clock", {"action": what, **self.clock.to_dict()})])
            return self.clock_json()

    # ------------------------------------------------------------------ the pipeline's step

    def tick(self) -> Frame | None:
        """Take the feed's due reports, start the clock of a recorded game, end the game when time is up;
        returns the feed's frame for now (None when it has none)."""
        with self.lock:
            elapsed = self.clock.elapsed()
            entries = [self._take_back(r.action) if r.taken_back
                       else self._report(r.action, r.source, r.confidence, r.frame) if r.replaces is None
                       else self._replace(r.replaces, r.action) for r in self.feed.poll(elapsed)]
            entries = [entry for entry in entries if entry is not None]
            if self.feed.autostart and self.clock.started_at is None and self.feed.ready_to_start() \
                    and self.referee.state.outcome is None:
                self.clock.start()
                entries.append((0.0, "clock", {"action": "start", "by": self.feed.kind, **self.clock.to_dict()}))
            asked = tuple(self.feed.questions())
            if entries or asked != self._asked or (
                    self.referee.state.outcome is None and self.clock.running and self.referee.check_time()):
                self._asked = asked
                self._commit(entries)
            return self.feed.frame(self.clock.elapsed())

    def _commit(self, entries: list[Entry]) -> None:
        """Save, note the game's end (or its undoing by a correction) and broadcast the new state."""
        state = self.referee.state
        if state.outcome is None and self.clock.running:
            self.referee.check_time()
        self.store.save(self.id, entries, self.referee.to_dict(), self.clock.to_dict(), self.feed.state(), self.meta)
        if state.outcome is not None and not self.finished:
            self.finished = True
            self.clock.pause()
            self.store.save(self.id, [], self.referee.to_dict(), self.clock.to_dict(), self.feed.state(), self.meta)
            self.store.finish(self.id, state.outcome.won, state.score(), state.outcome.reason, self.clock.elapsed())
        elif state.outcome is None and self.finished:
            self.finished = False
            self.store.reopen(self.id, self.clock.elapsed())
        self.version += 1
        self.hub.states.publish(json.dumps(self.snapshot()).encode())
        self.state_updates += 1

    # ------------------------------------------------------------------ reading

    def clock_json(self) -> dict[str, Any]:
        return snapshot.clock_json(self.referee, self.clock.running, self.clock.started_at is not None)

    def snapshot(self) -> dict[str, Any]:
        with self.lock:
            if self._described is None or self._described[0] != self.version:
                confirmed = set(self.meta.get("confirmed", []))
                self._described = (self.version, snapshot.describe(self.referee, self.names, confirmed))
            return {"game": self.game_json(), "version": self.version, "clock": self.clock_json(),
                    **self._described[1],
                    "questions": [{"number": n, **asdict(q)} for n, q in self.feed.questions().items()]}

    def game_json(self) -> dict[str, Any]:
        config = self.setup.config
        return {"id": self.id, "edition": config.edition, "players": config.players, "difficulty": config.difficulty,
                "fuse_cards": config.fuse_card_count, "names": self.names, "deal": self.setup.deal,
                "feed": self.feed.kind, "feed_label": self.feed.label, "simulated": self.feed.simulated,
                "status": "finished" if self.finished else "playing"}

    def hint(self) -> dict[str, Any]:
        """The hint solver's distribution of the current roll."""
        with self.lock:  # copy the table, then search without holding up the pipeline
            state = self.referee.state
            if state.phase != "distribute" or not state.roll:
                raise ControlError(f"no roll to advise on: the game waits for {state.waiting_for()}")
            cards = [[card.copy() for card in area.cards] for area in state.players]
            roll, dice = list(state.roll), state.game.dice
        result = suggest(cards, roll, dice, self.setup.config.dice_per_player, self.setup.config.edition, self.names)
        return {"roll": [str(d) for d in roll],
                "steps": [{"player": self.names[s.player], "die": str(s.die), "card": s.card, "chip": s.chip,
                           "completes": s.completes, "action": f"place {s.die} {s.card}:{s.chip}"}
                          for s in result.steps],
                "unused": [str(d) for d in result.unused], "reasons": list(result.reasons), "text": str(result)}

    def close(self) -> None:
        self.feed.close()
