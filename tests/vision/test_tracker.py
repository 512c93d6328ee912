"""The settled-state tracker on hand-made observations at 6 frames a second."""

from __future__ import annotations

from vision.observation import CardSeen, ChipSpot, DieSeen, TableObservation
from vision.tracker import Change, Tracker

FPS = 6.0
SPOTS = (ChipSpot(1, (120.0, 130.0), 10.0), ChipSpot(2, (150.0, 130.0), 10.0), ChipSpot(3, (150.0, 130.0), 10.0, 1))
CARD = CardSeen(((100.0, 100.0), (200.0, 100.0), (200.0, 160.0), (100.0, 160.0)), "bomb", "F-001", 0.9, SPOTS)
OTHER = CardSeen(((300.0, 100.0), (400.0, 100.0), (400.0, 160.0), (300.0, 160.0)), "bomb", "F-002", 0.9)


def die(name: str, chip: int | None, x: float = 120.0, level: int = 0) -> DieSeen:
    return DieSeen(name, (x - 8, 122.0, x + 8, 138.0), 0.9, ("F-001", chip) if chip else None, level)


def run(frames: list[tuple[tuple[CardSeen, ...], tuple[DieSeen, ...]]]) -> list[Change]:
    tracker, out = Tracker(), []
    for i, (cards, dice) in enumerate(frames):
        out += tracker.update(TableObservation(i, i / FPS, 1280, 720, cards, dice))
    return out


def kinds(changes: list[Change]) -> list[tuple[str, str, int, str]]:
    return [(c.kind, c.card, c.chip, c.die) for c in changes]


def test_a_die_is_committed_only_after_it_has_been_seen_still_for_a_while() -> None:
    table = (CARD, OTHER)
    brief = [(table, ())] * 6 + [(table, (die("red5", 1),))] * 2 + [(table, ())] * 12
    assert [k for k in kinds(run(brief)) if k[0].startswith("die")] == []
    placed = run([(table, ())] * 6 + [(table, (die("red5", 1),))] * 6)
    added = [c for c in placed if c.kind == "die+"]
    assert kinds(added) == [("die+", "F-001", 1, "red5")]
    assert added[0].elapsed == 1.0  # when it first lay there, not when it was committed


def test_a_flickering_face_never_becomes_an_event() -> None:
    table = (CARD, OTHER)
    reads = ["red5", "red5", "red6", "red5", "red5", "red5", "red5", "red3", "red5", "red5"]
    changes = run([(table, ())] * 6 + [(table, (die(r, 1),)) for r in reads])
    assert [k for k in kinds(changes) if k[0].startswith("die")] == [("die+", "F-001", 1, "red5")]


def test_a_hand_over_the_table_suspends_judgement() -> None:
    table = (CARD, OTHER)
    dice = (die("red5", 1), die("blue2", 2, 150.0))
    loose = DieSeen("green4", (600.0, 400.0, 616.0, 416.0), 0.9)
    settled = [(table, (*dice, loose))] * 8
    hand = [((CARD,), ())] * 12  # two seconds: OTHER, both dice and the loose die hidden at once
    changes = run(settled + hand + settled)
    assert [k[0] for k in kinds(changes)].count("die-") == 0
    assert not any(c.kind in ("card-", "loose-") for c in changes)
    gone = run(settled + [(table, (dice[1], loose))] * 12)  # one die really taken away
    assert [k for k in kinds(gone) if k[0] == "die-"] == [("die-", "F-001", 1, "red5")]


def test_a_die_under_the_next_one_of_a_stack_keeps_its_chip() -> None:
    table = (CARD, OTHER)
    bottom, top = die("red5", 2, 150.0), die("blue1", 3, 150.0, level=1)
    changes = run([(table, (bottom,))] * 6 + [(table, (top,))] * 18)
    assert kinds([c for c in changes if c.kind.startswith("die")]) == [
        ("die+", "F-001", 2, "red5"), ("die+", "F-001", 3, "blue1")]


def test_a_card_is_committed_with_its_identity_and_unknown_cards_stay_unknown() -> None:
    unknown = CardSeen(OTHER.corners, "bomb", None, 0.4)
    changes = run([((CARD, unknown), ())] * 6)
    assert sorted((c.kind, c.card) for c in changes) == [("card+", "?1"), ("card+", "F-001")]
