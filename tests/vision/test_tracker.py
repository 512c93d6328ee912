"""The settled-state tracker on hand-made observations at 6 frames a second."""

from __future__ import annotations

from dataclasses import replace

import pytest

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


def test_a_die_put_down_then_missed_for_a_moment_is_dated_from_when_it_was_put_down() -> None:
    table = (CARD, OTHER)
    empty, red5, blue2 = [(table, ())], [(table, (die("red5", 1),))], [(table, (die("blue2", 1),))]

    def placed(frames: list) -> float:
        return next(c.elapsed for c in run(frames) if c.kind == "die+")

    assert placed(empty * 6 + red5 * 2 + empty * 3 + red5 * 6) == 1.0  # three frames missed: put down at 1.0 s
    assert placed(empty * 6 + blue2 * 2 + empty * 3 + red5 * 6) == 11 / FPS  # read as another die before
    assert placed(empty * 6 + red5 * 2 + empty * 6 + red5 * 6) == 14 / FPS  # missed a second: no die there then


def test_a_die_lifted_is_gone_when_last_seen_not_when_its_chip_s_print_was_read_as_a_die_of_its_colours() -> None:
    """yellow1 lifted at frame 18; the chip's print is then read faintly as yellow5 (frames 22-24): the die left when
    it was last seen. A face read as surely before it leaves is that die misread, still there."""
    table = (CARD, OTHER)
    lifted = [(table, (die("yellow1", 1),))] * 18 + [(table, ())] * 4
    for faint, last in ((0.2, 17), (0.8, 24)):
        frames = lifted + [(table, (replace(die("yellow5", 1), confidence=faint),))] * 3 + [(table, ())] * 12
        gone = [c for c in run(frames) if c.kind == "die-"]
        assert [(c.die, c.elapsed) for c in gone] == [("yellow1", last / FPS)]


def test_dice_named_after_a_look_alike_of_a_settled_card_lie_loose_on_it() -> None:
    """For a moment the layout cannot name the card under the dice and names them after the card it looks most
    like, another card than the one settled there: no card of that name lies anywhere, so they are no placement
    on its chips but dice lying on a card (where they lie is kept); a card settled unrecognised has its dice named
    after its look-alike."""
    unnamed = CardSeen(CARD.corners, "bomb", None, 0.6, SPOTS, likely="F-G10")
    on_it = (DieSeen("blue1", die("blue1", 1).box, 0.9, ("F-G10", 1)),
             DieSeen("red3", die("red3", 2, 150.0).box, 0.9, ("F-G10", 2)))
    changes = run([((CARD, OTHER), ())] * 8 + [((unnamed, OTHER), on_it)] * 5 + [((CARD, OTHER), ())] * 12)
    assert [k for k in kinds(changes) if k[0].startswith("die")] == []
    lying = [(c.die, c.where, c.on_card) for c in changes if c.kind == "loose+"]
    assert lying == [("blue1", (120.0, 130.0), True), ("red3", (150.0, 130.0), True)]
    settled = run([((unnamed, OTHER), ())] * 8 + [((unnamed, OTHER), on_it)] * 6)
    assert [k for k in kinds(settled) if k[0] == "die+"] == [("die+", "F-G10", 1, "blue1"),
                                                             ("die+", "F-G10", 2, "red3")]


def test_a_card_settled_unrecognised_keeps_the_look_alike_its_dice_are_named_after() -> None:
    """Dice put on it cover what told it from other cards, and the layout finds it most like another card now and
    names its dice so: they are the dice already there, on the chips of the card it was found most like (not dice
    put down, nor dice left on no card), and are seen taken from there."""
    before = CardSeen(CARD.corners, "bomb", None, 0.6, SPOTS, likely="F-G10")
    after = CardSeen(CARD.corners, "bomb", None, 0.6, SPOTS[1:], likely="F-G20")  # its chips numbered otherwise
    tracker, changes = Tracker(), []
    frames = [((before, OTHER), (DieSeen("blue1", die("blue1", 1).box, 0.9, ("F-G10", 1)),))] * 12
    frames += [((after, OTHER), (DieSeen("blue1", die("blue1", 1).box, 0.9, ("F-G20", 2)),))] * 12
    for i, (cards, dice) in enumerate(frames):
        changes += tracker.update(TableObservation(i, i / FPS, 1280, 720, cards, dice))
    assert [k for k in kinds(changes) if k[0].startswith("die")] == [("die+", "F-G10", 1, "blue1")]
    assert tracker.last is not None and tracker.last.chips == (("F-G10", 1, "blue1"),)
    for i in range(len(frames), len(frames) + 12):
        changes += tracker.update(TableObservation(i, i / FPS, 1280, 720, (after, OTHER), ()))
    assert kinds(changes)[-1] == ("die-", "F-G10", 1, "blue1")


def test_the_dice_of_a_card_settled_unrecognised_follow_it_when_it_is_recognised() -> None:
    """Recognised at last, its dice are named after it: they are the dice already there, none left on no card."""
    unnamed = CardSeen(CARD.corners, "bomb", None, 0.6, SPOTS, likely="F-G10")
    tracker, changes = Tracker(), []
    frames = [((unnamed, OTHER), (DieSeen("blue1", die("blue1", 1).box, 0.9, ("F-G10", 1)),))] * 12
    frames += [((CARD, OTHER), (die("blue1", 1),))] * 12
    for i, (cards, dice) in enumerate(frames):
        changes += tracker.update(TableObservation(i, i / FPS, 1280, 720, cards, dice))
    assert [k for k in kinds(changes) if k[0].startswith("die")] == [("die+", "F-G10", 1, "blue1")]
    assert tracker.last is not None and tracker.last.chips == (("F-001", 1, "blue1"),)


def test_a_card_settled_unrecognised_and_recognised_later_is_reported_named_where_it_lies() -> None:
    """Named at last (a hand off its corner), with no die on it to carry the name: the tracker says so (``card=``,
    where it lies), so that a stand-in reported for it can be corrected. A card named from the start gets none."""
    unnamed = replace(CARD, card_id=None, confidence=0.6)
    named = [c for c in run([((unnamed, OTHER), ())] * 12 + [((CARD, OTHER), ())] * 12) if c.kind == "card="]
    assert [(c.card, c.where) for c in named] == [("F-001", (150.0, 130.0))]
    assert not any(c.kind == "card=" for c in run([((CARD, OTHER), ())] * 24))


def test_dice_on_a_card_not_yet_settled_wait_for_it() -> None:
    """A card just turned up under another card's name, dice read on its chips at once: they wait until the card
    itself is settled."""
    glimpse = CardSeen(CARD.corners, "bomb", "F-G10", 0.6, SPOTS)
    on_it = (DieSeen("blue1", die("blue1", 1).box, 0.9, ("F-G10", 1)),)
    changes = run([((CARD, OTHER), ())] * 8 + [((glimpse, OTHER), on_it)] * 3 + [((CARD, OTHER), ())] * 12)
    assert [k for k in kinds(changes) if k[0].startswith("die")] == []


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


def test_a_card_that_loses_its_name_keeps_its_dice() -> None:
    """A hand passes and the card comes back unrecognised in its place (its chips still covered by dice): its dice
    lie on no chip of a known card then, which is no sign that they left."""
    nameless = CardSeen(CARD.corners, "bomb", None, 0.4)
    dice = (die("red5", 1), die("blue2", 2, 150.0))
    loose = tuple(DieSeen(d.die, d.box, d.confidence) for d in dice)
    changes = run([((CARD, OTHER), dice)] * 8 + [((nameless, OTHER), loose)] * 24 + [((CARD, OTHER), dice)] * 8)
    assert [k for k in kinds(changes) if k[0] == "die-"] == []
    gone = run([((CARD, OTHER), dice)] * 8 + [((CARD, OTHER), dice[1:])] * 12)  # a named card shows an empty chip
    assert [k for k in kinds(gone) if k[0] == "die-"] == [("die-", "F-001", 1, "red5")]


def test_a_named_card_unrecognised_in_its_place_once_its_dice_are_gone_shows_them_gone() -> None:
    """The dice taken off, the card is no longer recognised (they covered part of it when it was named; the layout
    now takes it for a look-alike with other chips): where it lies, no die on it, its chips are empty."""
    dice = (die("red5", 1), die("blue2", 2, 150.0))
    look_alike = CardSeen(CARD.corners, "bomb", None, 0.4, (ChipSpot(1, (180.0, 150.0), 10.0),), likely="F-009")
    changes = run([((CARD, OTHER), dice)] * 8 + [((look_alike, OTHER), ())] * 12)
    assert sorted(k for k in kinds(changes) if k[0] == "die-") == [("die-", "F-001", 1, "red5"),
                                                                   ("die-", "F-001", 2, "blue2")]


def test_another_card_shown_whole_where_a_named_card_lay_is_not_that_card() -> None:
    """The defused card is taken away and the row card put in its place, which the layout cannot name but shows
    whole as another card (``instead_of``) in its first frame there, unknown after: the named card leaves and
    the card put there is a new one. An unknown card in that place without that sign is the named card under a
    hand."""
    put = CardSeen(CARD.corners, "bomb", None, 0.4, likely="F-009", instead_of="F-001")
    after = CardSeen(CARD.corners, "bomb", None, 0.4, likely="F-009")
    changes = run([((CARD, OTHER), ())] * 8 + [((OTHER,), ())] * 2 + [((put, OTHER), ())] + [((after, OTHER), ())] * 12)
    assert sorted((c.kind, c.card) for c in changes[2:]) == [("card+", "?1"), ("card-", "F-001")]
    hand = run([((CARD, OTHER), ())] * 8 + [((OTHER,), ())] * 2 + [((after, OTHER), ())] * 13)
    assert [c.kind for c in hand[2:]] == []


def test_a_card_recognised_only_after_it_settled_still_shows_its_empty_chips() -> None:
    """A card dealt under a hand is first followed as an unknown card; once recognised, a die taken off its chip
    leaves (the die names the card by id, the track was opened under an unknown name)."""
    nameless = CardSeen(CARD.corners, "bomb", None, 0.4)
    changes = run([((nameless, OTHER), ())] * 8 + [((CARD, OTHER), ())] * 8
                  + [((CARD, OTHER), (die("red5", 1),))] * 8 + [((CARD, OTHER), ())] * 12)
    assert [k for k in kinds(changes) if k[0].startswith("die")] == [
        ("die+", "F-001", 1, "red5"), ("die-", "F-001", 1, "red5")]


def test_a_card_named_after_it_settled_is_followed_under_that_name() -> None:
    """Committed unrecognised, then named (or found most like one card) in every sighting: the dice on it are
    placed where its chips lie, and the card leaves under its name."""

    nameless = CardSeen(CARD.corners, "bomb", None, 0.4)
    for named, leaves in ((CARD, "F-001"), (replace(CARD, card_id=None, likely="F-001"), "?1")):
        changes = run([((nameless, OTHER), ())] * 8 + [((named, OTHER), ())] * 8
                      + [((named, OTHER), (die("red5", 1),))] * 8 + [((OTHER,), ())] * 12)
        added = next(c for c in changes if c.kind == "die+")
        assert (added.card, added.where) == ("F-001", (120.0, 130.0))
        assert [c.card for c in changes if c.kind == "card-"] == [leaves]


def test_dice_on_an_unrecognised_card_are_followed_under_the_card_it_looks_like() -> None:
    twin = CardSeen(OTHER.corners, "bomb", None, 0.4, (ChipSpot(1, (320.0, 130.0), 10.0),), likely="F-002")
    on = DieSeen("red5", (312.0, 122.0, 328.0, 138.0), 0.9, ("F-002", 1))
    changes = run([((CARD, twin), ())] * 6 + [((CARD, twin), (on,))] * 8 + [((CARD, twin), ())] * 12
                  + [((CARD, twin), (on,))] * 8 + [((CARD,), ())] * 12)
    assert [k for k in kinds(changes) if k[0].startswith("die") or k[0] == "card-"] == [
        ("die+", "F-002", 1, "red5"), ("die-", "F-002", 1, "red5"), ("die+", "F-002", 1, "red5"),
        ("die-", "F-002", 1, "red5"), ("card-", "?1", 0, "")]


def test_dice_named_after_the_look_of_another_unknown_card_lie_loose_on_their_own() -> None:
    """Two unknown cards that both look most like F-002: the first settles with that look, then only the second is
    seen so (warm h3s2202's ?19 and ?31). A die read on the second's chip under that name is not on the first card's
    chip, where it never lay: it lies loose on the second card."""
    first = CardSeen(OTHER.corners, "bomb", None, 0.4, (ChipSpot(1, (320.0, 130.0), 10.0),), likely="F-002")
    corners = tuple((x, y + 300.0) for x, y in OTHER.corners)
    second = CardSeen(corners, "bomb", None, 0.4, (ChipSpot(1, (320.0, 430.0), 10.0),), likely="F-002")  # type: ignore[arg-type]
    on_second = DieSeen("black3", (312.0, 422.0, 328.0, 438.0), 0.9, ("F-002", 1))
    changes = run([((CARD, first), ())] * 8 + [((CARD, replace(first, likely=None, chips=()), second), ())] * 8
                  + [((CARD, replace(first, likely=None, chips=()), second), (on_second,))] * 8)
    assert [k for k in kinds(changes) if k[0].startswith("die")] == []
    assert [(c.kind, c.die, c.where) for c in changes if c.kind == "loose+"] == [("loose+", "black3", (320.0, 430.0))]


def test_a_card_is_committed_with_its_identity_and_unknown_cards_stay_unknown() -> None:
    unknown = CardSeen(OTHER.corners, "bomb", None, 0.4, likely="F-002")
    changes = run([((CARD, unknown), ())] * 6)
    assert sorted((c.kind, c.card, c.likely) for c in changes) == [("card+", "?1", "F-002"), ("card+", "F-001", "")]


def test_an_unknown_card_whose_box_a_hand_drags_away_is_the_same_card_where_it_lay() -> None:
    """A hand over an unknown card drags its box 20 px aside for a frame, then 20 px further (its short side is 60
    px: a card moves up to 30 px a frame), and it shows again where it lay, 40 px from where it was last seen: the
    same card, not one taken away and another put down (cd2s1903's spark S-G20, drawn twice)."""
    unknown = CardSeen(OTHER.corners, "bomb", None, 0.4)

    def shifted(dx: float) -> CardSeen:
        return replace(unknown, corners=tuple((x + dx, y) for x, y in unknown.corners))

    frames = [((unknown,), ())] * 8 + [((shifted(-20.0),), ()), ((shifted(-40.0),), ())] + [((unknown,), ())] * 40
    assert kinds(run(frames)) == [("card+", "?1", 0, "")]


def loose(name: str, x: float = 600.0, y: float = 400.0) -> DieSeen:
    return DieSeen(name, (x - 8, y - 8, x + 8, y + 8), 0.9)


def test_a_loose_die_lying_on_a_card_says_so() -> None:
    unknown = CardSeen(OTHER.corners, "bomb", None, 0.4)
    on = DieSeen("red5", (342.0, 122.0, 358.0, 138.0), 0.9)  # on no chip of the unrecognised card
    added = [c for c in run([((CARD, unknown), (on, loose("blue2")))] * 8) if c.kind == "loose+"]
    assert sorted((c.die, c.on_card) for c in added) == [("blue2", False), ("red5", True)]


def test_a_loose_die_rolled_again_where_it_lay_is_a_new_die() -> None:
    # picked up (three frames), rolled and landing within reach of its old place: the old face left, a new one came
    table = (CARD, OTHER)
    frames = [(table, (loose("red1"),))] * 8 + [(table, ())] * 3 + [(table, (loose("red2", y=405.0),))] * 8
    changes = [c for c in run(frames) if c.kind.startswith("loose")]
    assert [(c.kind, c.die, c.turned) for c in changes] == [
        ("loose+", "red1", False), ("loose-", "red1", False), ("loose+", "red2", False)]
    assert changes[1].elapsed == 7 / FPS and changes[2].elapsed == 11 / FPS
    # in sight all along, read with another face: the first reading was wrong (``turned``)
    reread = [c for c in run([(table, (loose(r),)) for r in ["red1"] * 8 + ["red2"] * 10]) if c.kind != "card+"]
    assert [(c.kind, c.die, c.turned) for c in reread] == [
        ("loose+", "red1", False), ("loose-", "red1", True), ("loose+", "red2", True)]
    misread = ["red1"] * 8 + ["red2"] * 2 + ["red1"] * 8  # a face misread for two frames is no new die
    assert [c.kind for c in run([(table, (loose(r),)) for r in misread])] == ["card+", "card+", "loose+"]


def test_a_table_that_reads_as_dice_of_one_colour_all_over_is_no_dice() -> None:
    """A plaid cloth's crossings read faintly as blue1 at ten places, two of them flickering (unseen4 h3s802): no
    loose die. The roll that lands later is: red5, and blue6 read as surely as dice are."""
    table = (CARD, OTHER)

    def cloth(frame: int) -> tuple[DieSeen, ...]:
        return tuple(replace(loose("blue1", 100.0 + 90 * k, 600.0), confidence=0.08 + 0.01 * k)
                     for k in range(12) if k < 10 or frame % 3)

    roll = (loose("red5", 600.0, 300.0), loose("blue6", 640.0, 300.0))
    frames = [(table, cloth(i)) for i in range(60)] + [(table, cloth(i) + roll) for i in range(60, 80)]
    added = [(c.kind, c.die) for c in run(frames) if c.kind.startswith("loose")]
    assert sorted(added) == [("loose+", "blue6"), ("loose+", "red5")]


def test_a_face_misread_in_two_of_the_first_readings_does_not_win() -> None:
    table = (CARD, OTHER)
    reads = ["black1", "black6", "black1", "black6", "black1", "black6", "black6", "black6", "black6", "black6"]
    changes = [c for c in run([(table, (loose(r),)) for r in reads]) if c.kind == "loose+"]
    assert [(c.die, c.elapsed) for c in changes] == [("black6", 0.0)]


def test_a_die_read_otherwise_once_the_hand_that_put_it_down_left_is_what_lies_there() -> None:
    table = (CARD, OTHER)
    reads = ["green3"] * 3 + ["blue4"] * 9  # the fingers over the chip read as a die, then the die itself
    changes = [c for c in run([(table, ())] * 6 + [(table, (die(r, 1),)) for r in reads]) if c.kind == "die+"]
    assert [c.die for c in changes] == ["blue4"]


def test_a_die_hidden_by_the_hand_that_stacks_the_next_one_keeps_its_chip() -> None:
    # the hand over the stack hides the bottom die for a second (the card stays in sight), then the die it put
    # on top is seen: the bottom die never left (it cannot leave from under another)
    table = (CARD, OTHER)
    bottom, top = die("red5", 2, 150.0), die("blue1", 3, 150.0, level=1)
    changes = run([(table, (bottom,))] * 6 + [(table, ())] * 5 + [(table, (top,))] * 18)
    assert kinds([c for c in changes if c.kind.startswith("die")]) == [
        ("die+", "F-001", 2, "red5"), ("die+", "F-001", 3, "blue1")]
    gone = run([(table, (bottom,))] * 6 + [(table, ())] * 12)  # taken away, nothing on top: gone
    assert kinds([c for c in gone if c.kind == "die-"]) == [("die-", "F-001", 2, "red5")]


@pytest.mark.parametrize(("top", "confidence", "on_top"), [
    ("blue1", 0.9, True),  # of other colours: the next one of the stack
    ("red6", 0.9, True),  # of its colours, its face read surely as another: red6 put on the red5
    ("red6", 0.4, False),  # of its colours, read faintly: the red5's face misread
])
def test_a_die_seen_where_a_die_lies_on_a_stack_is_the_next_one_unless_it_is_that_die_misread(
        top: str, confidence: float, on_top: bool) -> None:
    # with the bottom die hidden under it, the layout sees one die at the stack's place and gives it the bottom chip
    table = (CARD, OTHER)
    bottom, seen = die("red5", 2, 150.0), DieSeen(top, die(top, 2, 150.0).box, confidence, ("F-001", 2))
    changes = run([(table, (bottom,))] * 6 + [(table, (seen,))] * 18)
    assert kinds([c for c in changes if c.kind.startswith("die")]) == [("die+", "F-001", 2, "red5")] + (
        [("die+", "F-001", 3, top)] if on_top else [])


@pytest.mark.parametrize(("x", "on_top"), [(136.0, True), (125.0, False)], ids=["towards chip 3", "away from it"])
def test_a_die_seen_on_a_pyramid_chip_towards_the_chip_resting_on_it_is_the_die_on_top(x: float, on_top: bool) -> None:
    """A pyramid: chip 3 rests on chips 1 and 2, its spot halfway between theirs (11 px aside, 1.1 radii). With red5
    on chip 1, a blue1 seen there, on chip 3's side of chip 1's spot, is the die put on chip 3, hiding the red5
    (unseen5 cd2s1003's C-G51, probe2 cd3s906's); seen on the far side it is no die on chip 3."""
    spots = (ChipSpot(1, (130.0, 130.0), 10.0), ChipSpot(2, (152.0, 130.0), 10.0), ChipSpot(3, (141.0, 130.0), 10.0, 1))
    pyramid = replace(CARD, chips=spots)
    bottom = die("red5", 1, 130.0)
    seen = DieSeen("blue1", die("blue1", 1, x).box, 0.9, ("F-001", 1))
    changes = run([((pyramid, OTHER), (bottom,))] * 6 + [((pyramid, OTHER), (seen,))] * 18)
    added = [k for k in kinds(changes) if k[0] == "die+"]
    assert added[0] == ("die+", "F-001", 1, "red5")
    assert (("die+", "F-001", 3, "blue1") in added) == on_top, added


def test_a_loose_die_mostly_missed_is_no_die_named_none_but_the_die_seen_since_its_last_miss() -> None:
    """A loose black3 glimpsed now and then (read in 3 of 14 frames), then seen in every frame: the run of misses is
    no die (the tracker once committed it as a loose die named "None", then took it back), and the black3 lies there
    from when it was seen without a break (unseen5 p4s1005 at 82 s)."""
    loose = DieSeen("black3", (492.0, 392.0, 508.0, 408.0), 0.6, None)
    pattern = "100100000010001111111111"
    changes = run([((CARD, OTHER), (loose,) if seen == "1" else ()) for seen in pattern])
    assert [(c.kind, c.die, c.elapsed) for c in changes if c.kind.startswith("loose")] == [
        ("loose+", "black3", 14 / FPS)]


def test_a_stack_has_no_gaps() -> None:
    """The layout takes a die's level from how high its box stands: a die read on the stacked chip with none under
    it lies on the chip under it, and so does a second reading of the die there, read higher."""
    table = (CARD, OTHER)
    changes = run([(table, ())] * 6 + [(table, (die("blue1", 3, 150.0, level=1),))] * 12)
    assert kinds([c for c in changes if c.kind.startswith("die")]) == [("die+", "F-001", 2, "blue1")]
    twice = (die("blue1", 2, 150.0), die("blue1", 3, 150.0, level=1))
    changes = run([(table, twice[:1])] * 6 + [(table, twice[1:])] * 6 + [(table, twice[:1])] * 6)
    assert kinds([c for c in changes if c.kind.startswith("die")]) == [("die+", "F-001", 2, "blue1")]


def test_a_die_seen_beside_the_die_stacked_on_it_is_that_die_misread_not_the_next_one() -> None:
    """Seen apart from the die on top of it, the die under it is read as another die: it is not a second die put on
    top, and the die on top is the stack's next one."""
    table = (CARD, OTHER)
    bottom = die("red5", 2, 150.0)
    misread = replace(die("black2", 2, 150.0), confidence=0.55)  # (under ``sure_top``: no die replacing it)
    top = replace(die("blue1", 3, 150.0, level=1), confidence=0.5)
    changes = run([(table, (bottom,))] * 6 + [(table, (misread, top))] * 12)
    assert kinds([c for c in changes if c.kind.startswith("die")]) == [
        ("die+", "F-001", 2, "red5"), ("die+", "F-001", 3, "blue1")]


def test_a_die_of_its_colours_read_twice_as_surely_as_the_faint_die_under_it_is_the_next_one_of_the_stack() -> None:
    """A black3 put on a black1 the detector barely believed: on a chip with another stacked on it, it is the next
    die of the stack, not a die that replaced the one there, and it stays there while read so at the bottom."""
    table = (CARD, OTHER)
    bottom = replace(die("black1", 2, 150.0), confidence=0.15)  # lying there ten seconds
    seen = replace(die("black3", 2, 150.0), confidence=0.45)
    changes = run([(table, (bottom,))] * 60 + [(table, ())] * 3 + [(table, (seen,))] * 24)
    assert kinds([c for c in changes if c.kind.startswith("die")]) == [
        ("die+", "F-001", 2, "black1"), ("die+", "F-001", 3, "black3")]


def test_a_die_read_surely_as_another_where_one_lies_replaces_it() -> None:
    # a chip printed with a die, read as red5 since the card turned up; a red2 put on the print is read surely:
    # the print left, the die arrived (one pair, marked ``turned``: nothing was seen lifted); read faintly, no change
    table = (CARD, OTHER)
    printed, put = die("red5", 1), die("red2", 1)
    changes = [c for c in run([(table, (printed,))] * 6 + [(table, (put,))] * 12) if c.kind.startswith("die")]
    assert kinds(changes) == [("die+", "F-001", 1, "red5"), ("die-", "F-001", 1, "red5"), ("die+", "F-001", 1, "red2")]
    assert [c.turned for c in changes] == [False, True, True] and changes[2].elapsed == 1.0
    faint = DieSeen("red2", put.box, 0.4, ("F-001", 1))
    changes = run([(table, (printed,))] * 6 + [(table, (faint,))] * 12)
    assert kinds([c for c in changes if c.kind.startswith("die")]) == [("die+", "F-001", 1, "red5")]
    # a print the detector barely believed (0.15) gives way to a die read twice as surely
    barely = DieSeen("red5", put.box, 0.15, ("F-001", 1))
    changes = run([(table, (barely,))] * 6 + [(table, (faint,))] * 12)
    assert kinds([c for c in changes if c.kind.startswith("die")])[-1] == ("die+", "F-001", 1, "red2")


def test_readings_the_detector_barely_believes_are_no_die() -> None:
    # a die drawn on a card's art, read at a few per cent, would otherwise settle on its chip like a die
    table = (CARD, OTHER)
    drawn = DieSeen("red5", (112.0, 122.0, 128.0, 138.0), 0.03, ("F-001", 1))
    assert [c for c in run([(table, (drawn,))] * 18) if c.kind.startswith("die")] == []


def test_a_die_gone_says_how_surely_it_was_seen() -> None:
    table = (CARD, OTHER)
    faint = DieSeen("red5", (112.0, 122.0, 128.0, 138.0), 0.3, ("F-001", 1))
    gone = [c for c in run([(table, (faint,))] * 6 + [(table, ())] * 12) if c.kind == "die-"]
    assert [(c.die, c.confidence) for c in gone] == [("red5", 0.3)]


def test_a_die_placed_just_before_its_card_is_taken_away_is_still_seen() -> None:
    # the die completing a card, read as two faces in turn for under a second, then the card is defused (gone)
    table, seen = (CARD, OTHER), (die("red5", 1),)
    reads = ["blue2", "blue3", "blue2", "blue3", "blue2"]
    frames = [(table, seen)] * 6 + [(table, (*seen, die(r, 2, 150.0))) for r in reads] + [((OTHER,), ())] * 12
    changes = [c for c in run(frames) if c.card == "F-001"]
    assert kinds(changes) == [("card+", "F-001", 0, ""), ("die+", "F-001", 1, "red5"), ("die+", "F-001", 2, "blue2"),
                              ("die-", "F-001", 1, "red5"), ("die-", "F-001", 2, "blue2"), ("card-", "F-001", 0, "")]


def test_the_dice_under_one_resting_on_four_keep_their_chips() -> None:
    # a pyramid: the top die rests on four, off each one's centre by more than a chip's radius
    corners = ((-7.5, -7.5), (7.5, -7.5), (-7.5, 7.5), (7.5, 7.5))
    spots = tuple(ChipSpot(k, (120.0 + dx, 130.0 + dy), 5.0) for k, (dx, dy) in enumerate(corners, 1))
    card = CardSeen(CARD.corners, "bomb", "F-001", 0.9, (*spots, ChipSpot(5, (120.0, 130.0), 5.0, 1)))
    four = tuple(DieSeen(f"red{k}", (112.0 + dx, 122.0 + dy, 128.0 + dx, 138.0 + dy), 0.9, ("F-001", k), 0)
                 for k, (dx, dy) in enumerate(corners, 1))
    top = DieSeen("blue4", (112.0, 122.0, 128.0, 138.0), 0.9, ("F-001", 5), 1)
    changes = run([((card, OTHER), four)] * 6 + [((card, OTHER), ())] * 2 + [((card, OTHER), (top,))] * 40)
    assert [c.kind for c in changes if c.kind.startswith("die")] == ["die+"] * 5
