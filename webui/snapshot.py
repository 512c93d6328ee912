"""The game as plain JSON for the dashboard, the overlay and the API (``/api/state``)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from rules.errors import RulesError
from rules.game import CHANCE, TEAM, TERMINAL, State
from rules.referee import Event, Referee
from rules.table import CardInPlay

UNSURE_BELOW = 0.6
"""A report read with less confidence than this is shown amber until the referee confirms it."""
ALERT_SECONDS = 10.0
"""How long (seconds of play) a violation stays an alert on the dashboard and the overlay."""
EVENTS_SHOWN = 150
LEGAL_SHOWN = 40



def event_json(event: Event, confirmed: set[int]) -> dict[str, Any]:
    data = asdict(event)
    data["unsure"] = event.accepted and not event.undone and event.confidence < UNSURE_BELOW and \
        event.index not in confirmed
    data["confirmed"] = event.index in confirmed
    data["inferred"] = event.source == "vision" and event.confidence == 0  # nothing showed it (``vision.resync``)
    data["text"] = f"{event.action}: {event.reason}" if not event.accepted else event.action
    return data


def _card(card: CardInPlay, placing: dict[tuple[str, int], Event], confirmed: set[int]) -> dict[str, Any]:
    chips = []
    layout = card.card.layout
    for chip in layout.chips if layout is not None else ():
        die = card.placed.get(chip.number)
        status = ""
        if die is not None:
            event = placing.get((card.id, chip.number))
            unsure = event is not None and event.confidence < UNSURE_BELOW and event.index not in confirmed
            status = "unsure" if unsure else "legal"
        chips.append({"chip": chip.number, "need": chip.body, "die": str(die) if die else None, "status": status})
    return {"id": card.id, "points": card.card.points, "body": card.card.body, "kind": card.card.kind,
            "complete": card.complete, "chips": chips}


def _row_card(state: State, card_id: str) -> dict[str, Any]:
    card = state.game.card(card_id)
    return {"id": card.id, "points": card.points, "body": card.body, "kind": card.kind}


def _actor(state: State, names: list[str]) -> str:
    player = state.current_player()
    return {CHANCE: "the table", TEAM: "the team", TERMINAL: "nobody"}.get(player) or names[player]


def describe(referee: Referee, names: list[str], confirmed: set[int]) -> dict[str, Any]:
    """Everything but the clock (which changes every instant; see ``clock_json``)."""
    state = referee.state
    placing = referee.placing_events()
    events = [event_json(e, confirmed) for e in referee.events[-EVENTS_SHOWN:]]
    try:
        legal = [str(a) for a in state.legal_actions()[:LEGAL_SHOWN]]
    except RulesError:  # chance nodes with too many outcomes to list (rolls)
        legal = []
    return {
        "phase": state.phase,
        "turn": state.turn + 1,
        "leader": names[state.leader],
        "actor": _actor(state, names),
        "waiting_for": state.waiting_for(),
        "score": state.score(),
        "outcome": None if state.outcome is None else {"won": state.outcome.won, "reason": state.outcome.reason},
        "bag": sum(state.bag.values()),
        "row": [_row_card(state, c) for c in state.row],
        "roll": [str(d) for d in state.roll],
        "players": [
            {"name": names[p], "role": area.role.name if area.role else None, "role_active": area.role_active,
             "cards": [_card(c, placing, confirmed) for c in area.cards]}
            for p, area in enumerate(state.players)
        ],
        "defused": list(state.defused),
        "events": events,
        "event_count": len(referee.events),
        "violations": [event_json(e, confirmed) for e in referee.violations],
        "unsure": [event_json(e, confirmed) for e in referee.events
                   if e.accepted and not e.undone and e.confidence < UNSURE_BELOW and e.index not in confirmed],
        "legal": legal,
        "alert_seconds": ALERT_SECONDS,
    }


def clock_json(referee: Referee, running: bool, started: bool) -> dict[str, Any]:
    from rules.clock import format_remaining

    remaining = referee.remaining()
    return {"elapsed": round(referee.clock.elapsed(), 3), "remaining": round(remaining, 3),
            "limit": referee.config.limit_seconds, "running": running and referee.state.outcome is None,
            "started": started, "text": format_remaining(remaining)}
