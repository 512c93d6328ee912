"""The referee: a game fed with what happened at the table, one reported action at a time.

Vision, a person at the dashboard, or a recorded log reports actions (``deal p1 F-003``, ``roll red5 blue2``,
``place red5 F-003:2`` ...). Legal ones move the game on; an illegal one becomes a violation that quotes the
rule it breaks and leaves the game as it was, as the rulebook's penalty clears the card anyway. Every report,
correction and undo is kept, so the whole session can be saved as plain data and resumed after a restart.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

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
    """A game in progress and everything reported about it."""

    config: GameConfig
    clock: Clock = field(default_factory=ManualClock)
    events: list[Event] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.game = Game(self.config)
        self.state: State = self.game.new_initial_state(self.clock)
        replayed, self.events = self.events, []
        for event in replayed:  # a restored session: rebuild the state from its reports
            self._record(event)

    # ------------------------------------------------------------------ reporting

    def submit(self, action: str | A.Action, source: str = "manual", confidence: float = 1.0,
               frame: int | None = None) -> Event:
        """Report one action; returns the event, accepted or refused with the reason."""
        text = str(action).strip()
        event = Event(len(self.events), round(self.clock.elapsed(), 3), text, True, "", source, confidence, frame)
        return self._record(event)

    def _record(self, event: Event) -> Event:
        if not event.undone:
            try:
                action = A.parse_action(event.action)
                self._apply_at(action, event.elapsed)
                event = Event(**{**asdict(event), "accepted": True, "reason": ""})
            except (IllegalActionError, RulesError) as exc:
                event = Event(**{**asdict(event), "accepted": False, "reason": _rule_only(str(exc), event.action)})
        self.events.append(event)
        return event

    def _apply_at(self, action: A.Action, elapsed: float) -> None:
        if isinstance(self.clock, ManualClock):
            self.clock.seconds = max(self.clock.seconds, elapsed)
        self.state.apply_action(action)

    def undo(self, index: int) -> Event:
        """Take back report ``index`` (kept in the log, marked undone) and rebuild the game without it."""
        if not 0 <= index < len(self.events):
            raise RulesError(f"no event {index}: the log has {len(self.events)}")
        self.events[index] = Event(**{**asdict(self.events[index]), "undone": True})
        self._rebuild()
        return self.events[index]

    def correct(self, index: int, action: str) -> Event:
        """Replace report ``index`` with ``action`` (a misread die, an unknown card)."""
        self.undo(index)
        A.parse_action(action)  # a malformed correction fails before anything is logged
        event = Event(len(self.events), self.events[index].elapsed, action.strip(), True, "", "correction")
        kept = self.events
        self.events = kept[: index + 1] + [event] + kept[index + 1 :]
        self.events = [Event(**{**asdict(e), "index": i}) for i, e in enumerate(self.events)]
        self._rebuild()
        return self.events[index + 1]

    def _rebuild(self) -> None:
        """Replay the accepted, not undone reports on a fresh game, each at its recorded time."""
        live = self.clock
        replay_clock = ManualClock()
        self.clock = replay_clock
        self.state = self.game.new_initial_state(replay_clock)
        reports, self.events = self.events, []
        for event in reports:
            replay_clock.seconds = event.elapsed
            self._record(event)
        self.clock = live
        self.state.clock = live

    # ------------------------------------------------------------------ reading

    @property
    def violations(self) -> list[Event]:
        return [e for e in self.events if not e.accepted and not e.undone]

    def check_time(self) -> bool:
        """End the game if the countdown has run out."""
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
        referee = cls(GameConfig(**config), ManualClock())
        for event in data["events"]:
            referee.clock.seconds = event["elapsed"]  # type: ignore[attr-defined]
            referee._record(Event(**event))
        if clock is not None:
            referee.clock = clock
            referee.state.clock = clock
        return referee


def _rule_only(message: str, action: str) -> str:
    """The engine's message starts with the action it refused; the event already holds that."""
    prefix = f"{action}: "
    return message[len(prefix):] if message.startswith(prefix) else message
