"""The referee: a game fed with what happened at the table, one reported action at a time.

Vision, a person at the dashboard, or a recorded log reports actions (``deal p1 F-003``, ``roll red5 blue2``,
``place red5 F-003:2`` ...). Legal ones move the game on; an illegal one becomes a violation that quotes the
rule it breaks and leaves the game as it was, as the rulebook's penalty clears the card anyway. A report of
something done before the last reports (seen late) goes in among them by its time. Every report, correction and
undo is kept, so the whole session can be saved as plain data and resumed after a restart.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace

from rules import actions as A
from rules.clock import Clock, ManualClock
from rules.config import GameConfig
from rules.errors import IllegalActionError, RulesError
from rules.game import Game, State


@dataclass(frozen=True)
class Event:
    """One report and what the referee made of it."""

    index: int
    elapsed: float
    """Seconds of play when it was reported."""
    action: str
    accepted: bool
    reason: str = ""
    """Why it was refused (the rule it breaks); empty when accepted."""
    source: str = "manual"
    """``vision``, ``manual``, ``log`` or ``correction``."""
    confidence: float = 1.0
    frame: int | None = None
    """The video frame it was seen in, when vision reported it."""
    undone: bool = False


@dataclass
class Referee:
    """A game in progress and everything reported about it.

    ``clock`` is the table's countdown (a wall clock live, a manual one in replays). The game itself runs on
    the times of the reports: each report is stamped once, and the game sees exactly that time, so a session
    rebuilt from its saved reports is the same game to the millisecond (a time bonus included).
    """

    config: GameConfig
    clock: Clock = field(default_factory=ManualClock)
    events: list[Event] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.game = Game(self.config)
        self._rebuild()  # a restored session: replay its reports

    # ------------------------------------------------------------------ reporting

    def submit(self, action: str | A.Action, source: str = "manual", confidence: float = 1.0,
               frame: int | None = None) -> Event:
        """Report one action; returns the event, accepted or refused with the reason."""
        event = Event(len(self.events), self.clock.elapsed(), str(action).strip(), True, "", source, confidence,
                      frame)
        return self._record(event)

    def insert(self, action: str, elapsed: float, source: str = "manual", confidence: float = 1.0,
               frame: int | None = None) -> tuple[Event, dict[int, int]]:
        """Report an action made at ``elapsed``, before reports already made (seen late, or inferred afterwards).
        It goes into the log by its time, and with it any report put last before it though made earlier (a defuse
        whose row card was seen turned up only after it), where the game judges every report moved as before;
        else it stays last, as ``submit`` puts it (its time kept). Returns the event and where the reports moved
        went (old index -> new)."""
        event = self._record(Event(len(self.events), elapsed, action.strip(), True, "", source, confidence, frame))
        at = next(e.index for e in self.events if e.elapsed > elapsed or e is event)
        before = self.events
        window = sorted(before[at:], key=lambda e: e.elapsed)  # (stable: a correction stays after what it undid)
        moved = {e.index: i for i, e in enumerate(window, at) if e.index != i}
        if not moved:
            return event, {}
        self.events = [replace(e, index=i) for i, e in enumerate([*before[:at], *window])]
        self._rebuild()
        if all(self.events[new].accepted == before[old].accepted for old, new in moved.items()):
            return self.events[moved[event.index]], moved
        self.events = before
        self._rebuild()
        return event, {}

    def redate(self, index: int, elapsed: float) -> dict[int, int] | None:
        """Report ``index`` made at ``elapsed`` after all (inferred when the game needed it, then seen to have
        happened before): it goes into the log by its new time if the game judges every report there as before.
        Returns where the reports moved went (old index -> new); None, with nothing changed, if the game would
        judge any report otherwise."""
        if not 0 <= index < len(self.events):
            raise RulesError(f"no event {index}: the log has {len(self.events)}")
        before = self.events
        others = before[:index] + before[index + 1:]
        at = next((k for k, e in enumerate(others) if e.elapsed > elapsed), len(others))
        order = [*others[:at], replace(before[index], elapsed=elapsed), *others[at:]]
        moved = {e.index: i for i, e in enumerate(order) if e.index != i}
        self.events = [replace(e, index=i) for i, e in enumerate(order)]
        self._rebuild()
        if all(self.events[moved.get(e.index, e.index)].accepted == e.accepted for e in before):
            return moved
        self.events = before
        self._rebuild()
        return None

    def _record(self, event: Event) -> Event:
        if not event.undone:
            self._game_time.seconds = max(self._game_time.seconds, event.elapsed)
            try:
                self.state.apply_action(A.parse_action(event.action))
                event = replace(event, accepted=True, reason="")
            except (IllegalActionError, RulesError) as exc:
                event = replace(event, accepted=False, reason=_rule_only(str(exc), event.action))
        self.events.append(event)
        return event

    def undo(self, index: int) -> Event:
        """Take back report ``index`` (kept in the log, marked undone) and rebuild the game without it."""
        if not 0 <= index < len(self.events):
            raise RulesError(f"no event {index}: the log has {len(self.events)}")
        self.events[index] = replace(self.events[index], undone=True)
        self._rebuild()
        return self.events[index]

    def correct(self, index: int, action: str) -> Event:
        """Replace report ``index`` with ``action`` (a misread die, an unknown card)."""
        A.parse_action(action)  # a malformed correction fails before anything changes
        self.undo(index)
        fix = Event(index + 1, self.events[index].elapsed, action.strip(), True, "", "correction")
        kept = self.events[: index + 1] + [fix] + self.events[index + 1 :]
        self.events = [replace(e, index=i) for i, e in enumerate(kept)]
        self._rebuild()
        return self.events[index + 1]

    def _rebuild(self) -> None:
        """A fresh game fed every report again, each at its recorded time."""
        self._game_time = ManualClock()
        self.state: State = self.game.new_initial_state(self._game_time)
        reports, self.events = self.events, []
        for event in reports:
            self._record(event)

    # ------------------------------------------------------------------ reading

    @property
    def violations(self) -> list[Event]:
        return [e for e in self.events if not e.accepted and not e.undone]

    def placing_events(self) -> dict[tuple[str, int], Event]:
        """The accepted report that put the die now on each ``(card, chip)`` (the latest one)."""
        found: dict[tuple[str, int], Event] = {}
        for event in self.events:
            if event.accepted and not event.undone and event.action.startswith("place "):
                action = A.parse_action(event.action)  # (an accepted report parsed when it was recorded)
                if isinstance(action, A.Place):
                    found[(action.card, action.chip)] = event
        return found

    def check_time(self) -> bool:
        """End the game if the countdown has run out."""
        self._game_time.seconds = max(self._game_time.seconds, self.clock.elapsed())
        return self.state.check_time()

    def remaining(self) -> float:
        stopped = self.state.won_at
        elapsed = stopped if stopped is not None else self.clock.elapsed()
        return max(0.0, self.config.limit_seconds - elapsed)

    def to_dict(self) -> dict:
        """Plain data that ``Referee.from_dict`` turns back into the same session."""
        config = asdict(self.config)
        config["variants"] = sorted(self.config.variants)
        return {"config": config, "events": [asdict(e) for e in self.events]}

    @classmethod
    def from_dict(cls, data: dict, clock: Clock | None = None) -> Referee:
        config = dict(data["config"])
        config["variants"] = frozenset(config.get("variants", ()))
        config["levels"] = tuple(tuple(level) for level in config.get("levels", ()))
        events = [Event(**event) for event in data["events"]]
        return cls(GameConfig(**config), clock if clock is not None else ManualClock(), events)


def _rule_only(message: str, action: str) -> str:
    """The engine's message starts with the action it refused; the event already holds that."""
    prefix = f"{action}: "
    return message[len(prefix):] if message.startswith(prefix) else message
