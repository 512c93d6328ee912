"""The settled-state tracker: what lies on the table once it has stopped moving, from one ``TableObservation``
per frame, and the changes to it (``Change``) the interpreter turns into game actions.

A single frame is never believed on its own. Something new is committed after it has been seen for
``settle_s`` seconds (and ``min_frames`` frames), with the value most frames agreed on (a die's face or a card's
identity flickering for a frame does not win the vote; a die's face must lead the next by ``die_lead`` readings,
``loose_lead`` for a loose die, or by one when the die is hidden or taken before that; a die on a chip once the
latest frame reads it so too); something is committed gone only after it has been missing for ``vanish_s``
seconds in frames that could have seen it. A hand over the table hides many things at once: a frame in which
``burst`` or more committed things are missing is a disturbed frame, and absence seen in it counts for nothing
(for at most ``max_suspend_s``: a long-lasting change is real).
A chip's die is only judged while its card is seen with its chips known (``observation.chip_names``), and a die
covered by the next die of a stack keeps its chip (seen covered, it is there: missing while the hand that stacked
the next die hid it is no absence); a die of other colours read where a die lies, on a card that stacks a chip
there, is the next die of the stack, and a stack has no gaps (a die read higher than the dice under it lies on them).

Cards are followed by identity, or by position while unrecognised (their dice named after the card they look
most like, kept while dice lie on them; named at last, a ``card=`` where it lies); loose dice (the roll area) by
position, a die picked up and rolled again landing elsewhere is a new loose die, one landing where it lay a new
face there (``loose-`` and ``loose+``), and a loose die read again with another face while in sight is a ``turned``
pair.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from itertools import groupby
from math import hypot
from typing import Literal

from vision.observation import CardSeen, DieSeen, Point, TableObservation, chip_names, colours

ChangeKind = Literal["card+", "card-", "card>", "card=", "die+", "die-", "loose+", "loose-"]


@dataclass(frozen=True)
class TrackerSettings:
    settle_s: float = 0.5
    """Seconds something new must be seen before it is committed."""
    min_frames: int = 3
    """...and at least this many frames."""
    vanish_s: float = 1.0
    """Seconds something must be missing (in undisturbed frames) before it is committed gone."""
    agree: float = 0.6
    """Share of a new thing's frames that must agree on its value (die, card id) for it to be committed."""
    die_lead: int = 2
    """...and, for a die on a chip, the readings by which the winning face leads the next one (a face misread in
    two of five frames must not win)."""
    min_confidence: float = 0.1
    """Mean confidence of a die's readings below which they are no die (a die drawn on a card, a look-alike)."""
    loose_lead: int = 3
    """The same for a loose die: nothing hurries it (it lies there until it is taken), so it waits for more."""
    sure_top: float = 0.6
    """A die read at least this surely (the interpreter's ``sure_face``) as another die than the one committed on
    its chip is another die: on a stack's chip, with the colours of the one there, the next die of the stack put on
    top (black3 on black1, ``_on_top``); elsewhere, a die that replaced it, one put on the chip's print that was
    read as a die (``_reread``). Both also read less surely, but twice as surely as the die committed there, which
    the detector barely believed (on a stack, thirty-second session: unseen2 h3s502 61 -> 62 events, nothing else
    moved). Read less surely, the die there is misread. Every set (``python -m vision.evaluate
    DIR/* --cache runs/cache``, twenty-fourth session, vision/README.md): on top, unseen3 377 -> 379 events, unseen4
    222 -> 233; replaced, probe 346 -> 352, unseen5 307 -> 341, unseen4 233 -> 229; no false violation. Any other
    face lifted, whatever its confidence (a lower die's misread face then lands on the chip above): fresh -5,
    probe2 -4, tune -2; at 0.5, fresh +20 and unseen5 -26; at 0.7, probe -6, fresh -2."""
    under_share: float = 0.85
    """A die higher up hides a die whose chip is within this share of its size (it rests on it)."""
    burst: int = 3
    """Committed things missing in one frame that make it a disturbed frame (a hand over the table)."""
    max_suspend_s: float = 4.0
    """Longest run of disturbed frames that suspends judgement."""
    move_share: float = 0.5
    """A card has moved when its centre is this share of its short side away from where it was committed."""
    loose_match: float = 0.6
    """A loose die is the same die while within this share of its size of where it was."""
    regap_s: float = 1.5
    """A die committed on a chip after a break in its sightings shorter than ``vanish_s`` (a hand passing, a frame
    or two missed), read the same before the break, is dated from those earlier sightings, up to this far back:
    it was put down then."""
    glimpse_frames: int = 2
    """A loose die seen still and alike in this many frames, gone before it settled, is reported as a brief
    ``loose+`` (an unused die re-rolled and swept into the bag at once is seen only that long)."""
    clutter_count: int = 8
    """Loose dice of one colour read in one frame that no game's roll accounts for (a roll has at most six dice): the
    table itself reads as dice of that colour (a plaid cloth's crossings read faintly as blue1 all over, unseen4
    h3s802 and warm cd2s2203), and ..."""
    clutter_share: float = 0.99
    """... a loose die of that colour is committed only when read more surely than this share of the table's
    readings of it (those in such frames that no committed die accounts for): a real die of it, read surely, is."""


@dataclass(frozen=True)
class Change:
    """One change to the settled table: ``frame`` is the frame in which it was committed, ``elapsed`` when the new
    state began (first seen, or last seen before it was gone)."""

    kind: ChangeKind
    frame: int
    elapsed: float
    card: str = ""
    """Card id; ``?N`` for an unrecognised card (never guessed)."""
    chip: int = 0
    die: str = ""
    confidence: float = 1.0
    where: Point = (0.0, 0.0)
    before: Point = (0.0, 0.0)
    """``card>``: where the card was."""
    type: str = ""
    """Card type (``bomb``, ``fuse`` ...) for card changes."""
    size: float = 0.0
    """``card+``/``card>``/``card=``: the card's short side in pixels (0 when unknown)."""
    likely: str = ""
    """``card+`` of an unrecognised card: the known card it looked most like (``CardSeen.likely``), a hint only."""
    resembles: tuple[str, ...] = ()
    """``card+`` of an unrecognised card: the known cards it looked most like in its sightings, closest first
    (``CardSeen.resembles`` ranked over the sightings, ``_ranked``), for a stand-in's pick."""
    brief: bool = False
    """``loose+`` only: seen for less than the settling time (a glimpse), already gone."""
    on_card: bool = False
    """``loose+`` only: it lies on a card, on no chip the layout knows (put down there, not rolled)."""
    turned: bool = False
    """``loose-``/``loose+`` pair of one die that lies where it lay, in sight all along, read with another face: the
    face committed was misread (or the die was turned). A die picked up and rolled again, landing where it lay,
    gives a plain ``loose-``/``loose+`` pair. ``die-``/``die+`` pair on one chip (``_reread``): read surely as
    another die where the committed one lay."""


@dataclass(frozen=True)
class SettledCard:
    card: str
    type: str
    centre: Point
    since: float


@dataclass(frozen=True)
class SettledTable:
    """The committed table after a frame: cards by id, dice by (card, chip), loose dice."""

    frame: int
    elapsed: float
    cards: tuple[SettledCard, ...]
    chips: tuple[tuple[str, int, str], ...]
    """(card, chip, die) of every committed die, hidden ones in stacks included."""
    loose: tuple[str, ...]
    disturbed: bool


@dataclass
class _Votes:
    """Recent readings of one thing: (elapsed, value, confidence); value None = seen missing."""

    history: deque = field(default_factory=lambda: deque(maxlen=240))

    def add(self, elapsed: float, value: object, confidence: float) -> None:
        self.history.append((elapsed, value, confidence))

    def run(self, since: float) -> list[tuple[float, object, float]]:
        return [v for v in self.history if v[0] >= since]


@dataclass
class _Card:
    key: str
    centre: Point
    size: float
    votes: _Votes = field(default_factory=_Votes)
    committed: bool = False
    card_id: str | None = None
    type: str = ""
    at: Point = (0.0, 0.0)
    """Committed centre."""
    first: tuple[int, float] = (0, 0.0)
    last_seen: float = 0.0
    chips: dict[int, tuple[Point, float, int]] = field(default_factory=dict)
    likely: str = ""
    """Unrecognised: the card it looked most like when committed (its dice are given that card's name)."""
    displaced: bool = False
    """Another card was shown whole where it lay (``CardSeen.instead_of``): unknown cards there are not it, until
    it is named again."""


@dataclass
class _Chip:
    votes: _Votes = field(default_factory=_Votes)
    die: str | None = None
    level: int = 0
    first: tuple[int, float] | None = None
    """When the current run of sightings began."""


@dataclass
class _Loose:
    ident: int
    centre: Point
    size: float
    votes: _Votes = field(default_factory=_Votes)
    committed: bool = False
    die: str = ""
    first: tuple[int, float] = (0, 0.0)
    last_seen: float = 0.0


class Tracker:
    """Feed ``update(observation)`` frame by frame; each call returns the changes it committed, oldest first."""

    def __init__(self, settings: TrackerSettings | None = None) -> None:
        self.settings = settings or TrackerSettings()
        self.cards: dict[str, _Card] = {}
        self.chips: dict[tuple[str, int], _Chip] = {}
        self.loose: list[_Loose] = []
        self._unknown = 0
        self._loose_ids = 0
        self._disturbed_since: float | None = None
        self._clutter: dict[str, deque[float]] = {}
        self._cloth: dict[str, float] = {}
        """How surely the table reads as loose dice of a colour (``_learn_clutter``)."""
        self.last: SettledTable | None = None

    # ------------------------------------------------------------------ per frame

    def update(self, obs: TableObservation) -> list[Change]:
        changes: list[Change] = []
        seen_cards = self._match_cards(obs)
        hinted = self._hinted(seen_cards)
        on_chips, loose_seen = self._split_dice(obs, hinted)
        loose_match = self._match_loose(loose_seen)
        self._learn_clutter(loose_seen, loose_match)
        judged = _named(seen_cards) | {track.likely for track in hinted.values()}
        disturbed = self._disturbed(obs, seen_cards, judged, on_chips, loose_match)
        self._vote_cards(obs, seen_cards, disturbed)
        self._vote_chips(obs, judged | self._named_in_place(seen_cards, obs), on_chips, disturbed)
        self._vote_loose(obs, loose_match, loose_seen, disturbed)
        changes += self._commit_cards(obs)
        changes += self._commit_chips(obs)
        changes += self._commit_loose(obs)
        changes.sort(key=lambda c: (c.elapsed, _ORDER[c.kind]))
        self.last = self.settled(obs.frame, obs.elapsed, disturbed)
        return changes

    def settled(self, frame: int, elapsed: float, disturbed: bool = False) -> SettledTable:
        cards = tuple(SettledCard(c.card_id or c.key, c.type, c.at, c.first[1])
                      for c in self.cards.values() if c.committed)
        chips = tuple(sorted((k[0], k[1], c.die) for k, c in self.chips.items() if c.die))
        loose = tuple(sorted(d.die for d in self.loose if d.committed))
        return SettledTable(frame, elapsed, cards, chips, loose, disturbed)

    # ------------------------------------------------------------------ matching

    def _match_cards(self, obs: TableObservation) -> dict[str, CardSeen]:
        """Each seen card (backs aside: piles) given to one track, by identity first, then by position."""
        seen: dict[str, CardSeen] = {}
        faces = [c for c in obs.cards if c.type != "back"]
        by_id = {c.card_id or c.key: c for c in self.cards.values()}
        rest = []
        for card in faces:
            track = by_id.get(card.card_id) if card.card_id else None
            if track is not None and track.key not in seen:
                seen[track.key] = card
                track.displaced = False
            else:
                rest.append(card)
        for card in rest:
            centre, size = _centre(card), _short_side(card)
            if card.instead_of in by_id:  # another card shown whole where it lay: it is gone, not hidden
                by_id[card.instead_of].displaced = True
            free = [t for t in self.cards.values() if t.key not in seen and not (card.card_id and t.card_id)
                    and not t.displaced]
            near = min(free, key=lambda t: _reach(t, centre), default=None)
            if near is not None and _reach(near, centre) < self.settings.move_share * size:
                seen[near.key] = card
                continue
            key = card.card_id or self._new_unknown()
            if key in self.cards:  # a recognised card seen twice in one frame: keep the first
                continue
            self.cards[key] = _Card(key, centre, size, first=(obs.frame, obs.elapsed))
            seen[key] = card
        return seen

    def _new_unknown(self) -> str:
        self._unknown += 1
        return f"?{self._unknown}"

    def _hinted(self, seen: dict[str, CardSeen]) -> dict[str, _Card]:
        """Unrecognised cards the layout finds most like another card this frame than the one their track settled on
        (kept while dice lie on it: ``_named_since``), by the name given them this frame: their dice are the track's,
        on its chips."""
        return {card.likely: track for key, card in seen.items() if card.likely
                and _looks_otherwise(track := self.cards[key], card) and self._track(card.likely) is None}

    def _split_dice(self, obs: TableObservation, hinted: dict[str, _Card]) -> tuple[dict[tuple[str, int], DieSeen],
                                                                                     list[DieSeen]]:
        on: dict[tuple[str, int], DieSeen] = {}
        loose, placed = [], []
        for die in obs.dice:
            if die.on is None:
                loose.append(die)
                continue
            if die.on[0] in hinted and (chip := _chip_at(hinted[die.on[0]], die)) is not None:
                die = replace(die, on=(hinted[die.on[0]].likely, chip))
            track = self._track(die.on[0])
            # named after a card no track holds (a look-alike of the card settled under it, named so for a moment),
            # or after the look of a track whose card lies elsewhere (two unknown cards alike): loose on that card
            if track is None or (not track.card_id and _chip_at(track, die) is None):
                loose.append(replace(die, on=None, level=0))
                continue
            placed.append(die)
        read_on = {die.on for die in placed}
        placed = [self._dropped(die, read_on) for die in placed]
        seen = {die.on for die in placed}
        for die in placed:
            key, die = self._on_top((die.on[0], die.on[1]), die, seen)  # type: ignore[index]
            if key not in on or die.confidence > on[key].confidence:
                on[key] = die
        return on, loose

    def _dropped(self, die: DieSeen, seen: set) -> DieSeen:
        """A die read on a stacked chip above one holding no die (or this die), none seen there, lies on that one: a
        stack has no gaps (the layout takes a die's level from how high its box stands, which a tilted view can
        overstate)."""
        track = self._track(die.on[0])  # type: ignore[index]
        spots = track.chips if track else {}
        while (below := _stacked(spots, die.on[1], -1)) is not None and (die.on[0], below) not in seen \
                and self._die_on((die.on[0], below)) in (None, die.die):  # type: ignore[index]
            die = replace(die, on=(die.on[0], below), level=spots[below][2])  # type: ignore[index]
        return die

    def _on_top(self, key: tuple[str, int], die: DieSeen, seen: set) -> tuple[tuple[str, int], DieSeen]:
        """A die read on a chip that holds a committed die of other colours (or of its colours with another face, read
        surely, ``sure_top``, or twice as surely as the die there, or read as the die committed on top of it), where
        the card stacks a chip on that one (right on it, or in a pyramid half a chip aside, the die lying that way):
        it is the die on top. The die under it is hidden, so the layout, seeing one die there, gave it the bottom
        chip. Not while a die is seen on the chip stacked on it: then it is the die under that one, seen (and
        misread) beside it."""
        track = self._track(key[0])
        spots = track.chips if track else {}
        sure = self.settings.sure_top
        while (chip := self.chips.get(key)) is not None and chip.die and chip.die != die.die:
            where = _box_centre(die.box)
            above = _stacked(spots, key[1], 1, where)
            if above is None or (key[0], above) in seen or not _towards(where, spots[key[1]][0], spots[above][0]):
                break
            faint = die.confidence < min(sure, 2 * _read_as(chip.votes, chip.die))
            if colours(chip.die) == colours(die.die) and faint and self._die_on((key[0], above)) != die.die:
                break  # of its colours, read faintly: that die misread (unless the die stacked on it is read so)
            key, die = (key[0], above), replace(die, on=(key[0], above), level=spots[above][2])
        return key, die

    def _match_loose(self, dice: list[DieSeen]) -> dict[int, int]:
        """Loose die index -> track index, nearest first, within ``loose_match`` of a die's size."""
        pairs = sorted(
            (_dist(t.centre, _box_centre(d.box)), i, j)
            for i, d in enumerate(dice) for j, t in enumerate(self.loose)
        )
        used_d: set[int] = set()
        used_t: set[int] = set()
        match = {}
        for dist, i, j in pairs:
            if i in used_d or j in used_t:
                continue
            if dist > self.settings.loose_match * max(self.loose[j].size, _box_size(dice[i].box)):
                break
            match[i] = j
            used_d.add(i)
            used_t.add(j)
        return match

    def _learn_clutter(self, dice: list[DieSeen], match: dict[int, int]) -> None:
        """How surely the table itself reads as loose dice of a colour (``clutter_count``, ``clutter_share``): over
        the readings of frames with that many of it, but for those of committed dice."""
        for colour, count in Counter(colours(die.die) for die in dice).items():
            if count >= self.settings.clutter_count:
                table = self._clutter.setdefault(colour, deque(maxlen=5000))
                table.extend(die.confidence for i, die in enumerate(dice) if colours(die.die) == colour
                             and not (i in match and self.loose[match[i]].committed))
                self._cloth[colour] = sorted(table)[int(self.settings.clutter_share * (len(table) - 1))]

    def _loose_vote(self, values: list[tuple[float, object, float]], lead_needed: int) -> tuple[object, float] | None:
        """``_die_vote`` for a loose die, None where the table reads as such dice at least as surely (the cloth)."""
        vote = self._die_vote(values, lead_needed)
        if vote is None or vote[1] > self._cloth.get(colours(str(vote[0])), -1.0):
            return vote
        return None

    def _disturbed(self, obs: TableObservation, cards: dict[str, CardSeen], judged: set[str], on: dict,
                   loose: dict[int, int]) -> bool:
        missing = sum(1 for c in self.cards.values() if c.committed and c.key not in cards)
        missing += sum(1 for (card, chip), c in self.chips.items()
                       if c.die and card in judged and (card, chip) not in on
                       and not self._hidden(card, chip, c.level, on))
        matched = set(loose.values())
        missing += sum(1 for j, t in enumerate(self.loose) if t.committed and j not in matched)
        if missing < self.settings.burst:
            self._disturbed_since = None
            return False
        if self._disturbed_since is None:
            self._disturbed_since = obs.elapsed
        return obs.elapsed - self._disturbed_since <= self.settings.max_suspend_s

    def _named_in_place(self, seen: dict[str, CardSeen], obs: TableObservation) -> set[str]:
        """Named cards seen where they lie but not recognised in this frame (a card is harder to name once the dice
        that covered part of it are gone), no die seen anywhere on them: their chips are seen empty, where the chips
        were when the card was named."""
        dice = [_box_centre(d.box) for d in obs.dice]
        return {track.card_id for key, track in self.cards.items()
                if track.card_id and track.committed and key in seen and not seen[key].card_id and track.chips
                and not any(_inside(d, seen[key].corners) for d in dice)}

    def _hidden(self, card: str, chip: int, level: int, on: dict[tuple[str, int], DieSeen]) -> bool:
        """A die under another: a die seen higher up on the same spot of the card, or close enough to rest on it
        (within ``under_share`` of its size: a die on top of four is off each one's centre), or, without chip
        spots, any die seen higher on the card."""
        track = self._track(card)
        spots = track.chips if track else {}
        mine = spots.get(chip)
        for (c, k), die in on.items():
            if c != card or die.level <= level:
                continue
            other = spots.get(k)
            if mine is None or other is None:
                return True
            reach = max(mine[1], other[1], self.settings.under_share * _box_size(die.box))
            if _dist(mine[0], other[0]) <= reach:
                return True
        return False

    # ------------------------------------------------------------------ voting

    def _vote_cards(self, obs: TableObservation, seen: dict[str, CardSeen], disturbed: bool) -> None:
        for key, track in self.cards.items():
            card = seen.get(key)
            if card is None:
                if not disturbed:
                    track.votes.add(obs.elapsed, None, 1.0)
                continue
            track.centre, track.size, track.last_seen = _centre(card), _short_side(card), obs.elapsed
            if (not track.card_id or card.card_id == track.card_id) and not _looks_otherwise(track, card):
                # (not another card's chips it looks like: those of the card it was named or found most like)
                track.chips = {s.chip: (s.centre, s.radius, s.level) for s in card.chips} or track.chips
            track.votes.add(obs.elapsed, (card.card_id, card.type, track.centre, card.likely, card.resembles),
                            card.confidence)

    def _vote_chips(self, obs: TableObservation, judged: set[str], on: dict, disturbed: bool) -> None:
        for key, die in on.items():
            chip = self.chips.setdefault(key, _Chip())
            if chip.first is None or (chip.votes.history and chip.votes.history[-1][1] is None):
                chip.first = (obs.frame, obs.elapsed)
            chip.level = die.level
            chip.votes.add(obs.elapsed, die.die, die.confidence)
        for key, chip in self.chips.items():
            if key in on:
                continue
            if key[0] not in judged:
                continue  # cannot be seen now (the card out of sight, or in sight but not recognised): no vote
            if self._hidden(key[0], key[1], chip.level, on):
                if chip.die:  # covered by a die seen on top of it: it is there (it cannot leave from under it), and
                    chip.votes.add(obs.elapsed, chip.die, 1.0)  # missing while a hand stacked that die is no absence
                continue
            if not disturbed:
                chip.votes.add(obs.elapsed, None, 1.0)

    def _vote_loose(self, obs: TableObservation, match: dict[int, int], dice: list[DieSeen], disturbed: bool) -> None:
        matched = set(match.values())
        for j, track in enumerate(self.loose):
            if j not in matched and not disturbed:
                track.votes.add(obs.elapsed, None, 1.0)
        for i, die in enumerate(dice):
            j = match.get(i)
            if j is None:
                self._loose_ids += 1
                self.loose.append(_Loose(self._loose_ids, _box_centre(die.box), _box_size(die.box),
                                         first=(obs.frame, obs.elapsed)))
                j = len(self.loose) - 1
            track = self.loose[j]
            track.centre, track.last_seen = _box_centre(die.box), obs.elapsed
            track.votes.add(obs.elapsed, die.die, die.confidence)

    # ------------------------------------------------------------------ committing

    def _present(self, votes: _Votes, now: float) -> list[tuple[float, object, float]] | None:
        """The sightings of the last ``settle_s`` when they are all sightings, enough of them; else None."""
        s = self.settings
        recent = votes.run(now - s.settle_s)
        if not votes.history or votes.history[0][0] > now - s.settle_s + 1e-6:
            return None  # not watched long enough yet
        if len(recent) < s.min_frames or any(v[1] is None for v in recent):
            return None
        return recent

    def _absent(self, votes: _Votes, now: float) -> bool:
        s = self.settings
        recent = votes.run(now - s.vanish_s)
        if not votes.history or votes.history[-1][1] is not None:
            return False
        if len(recent) < s.min_frames or any(v[1] is not None for v in recent):
            return False
        # the whole vanish window must be covered: the latest sighting is at least vanish_s old
        seen = [v[0] for v in votes.history if v[1] is not None]
        return not seen or now - seen[-1] >= s.vanish_s

    def _mode(self, values: list[tuple[float, object, float]]) -> tuple[object, float, float]:
        """Most frequent value, its share and mean confidence."""
        counts = Counter(v[1] for v in values)
        value, n = counts.most_common(1)[0]
        conf = sum(v[2] for v in values if v[1] == value) / n
        return value, n / len(values), conf

    def _die_vote(self, values: list[tuple[float, object, float]], lead_needed: int = 0) -> tuple[object, float] | None:
        """A die's face as the readings agree on it (value, mean confidence), or None while they do not yet: the
        winner needs ``agree`` of the readings and a lead of ``lead_needed`` (``die_lead``) readings over the next
        face."""
        die, share, conf = self._mode(values)
        counts = Counter(v[1] for v in values).most_common(2)
        lead = counts[0][1] - (counts[1][1] if len(counts) > 1 else 0)
        if share < self.settings.agree or lead < (lead_needed or self.settings.die_lead) \
                or conf < self.settings.min_confidence:
            return None
        return die, conf

    def _commit_cards(self, obs: TableObservation) -> list[Change]:
        out: list[Change] = []
        s = self.settings
        for key, track in list(self.cards.items()):
            if not track.committed:
                recent = self._present(track.votes, obs.elapsed)
                if recent is not None:
                    ident, share, conf = self._mode([(t, v[0], c) for t, v, c in recent])  # type: ignore[index]
                    if share < s.agree:
                        continue
                    types = Counter(v[1][1] for v in recent)  # type: ignore[index]
                    likely = Counter(v[1][3] for v in recent if v[1][3]).most_common(1)  # type: ignore[index]
                    track.committed, track.card_id, track.type = True, ident, types.most_common(1)[0][0]
                    track.at, track.likely = track.centre, "" if ident or not likely else likely[0][0]
                    name = track.card_id or track.key
                    out.append(Change("card+", obs.frame, track.first[1], name, confidence=conf,
                                      where=track.at, type=track.type, size=track.size, likely=track.likely,
                                      resembles=() if ident else _ranked(v[1][4] for v in recent)))  # type: ignore[index]
                elif self._absent(track.votes, obs.elapsed):
                    del self.cards[key]  # a glimpse, never settled
                continue
            if self._absent(track.votes, obs.elapsed):
                name = track.card_id or track.key
                for (card, chip), c in sorted(self.chips.items()):
                    if card not in (name, track.likely or name):
                        continue
                    if not c.die and c.first is not None:  # a die it took just before it went, not yet agreed on
                        vote = self._cut_short([v for v in c.votes.run(c.first[1]) if v[1] is not None])
                        if vote is not None:
                            c.die = str(vote[0])
                            out.append(Change("die+", obs.frame, c.first[1], card, chip, c.die, vote[1],
                                              self._spot(card, chip)))
                    if c.die:
                        out.append(Change("die-", obs.frame, track.last_seen, card, chip, c.die, where=track.at))
                    c.die, c.first = None, None
                out.append(Change("card-", obs.frame, track.last_seen, name, where=track.at, type=track.type))
                del self.cards[key]
                continue
            out += self._named_since(track, obs)
            out += self._moved(track, obs)
        return out

    def _named_since(self, track: _Card, obs: TableObservation) -> list[Change]:
        """A card committed unrecognised (covered, in glare) that the layout has named, or found most like one card,
        in ``agree`` of its sightings since ``settle_s``: it is that card now (a ``card=`` change: a stand-in reported
        for it is corrected), or its hint is (its dice are named so already, by the layout), unless it carries dice
        under its hint or another track holds that name."""
        recent = None if track.card_id else self._present(track.votes, obs.elapsed)
        if recent is None:
            return []
        for field_index in (0, 3):  # the card's id, else the card it looks most like
            name, share, _ = self._mode([(t, v[field_index], c) for t, v, c in recent])  # type: ignore[index]
            if name and share >= self.settings.agree:
                if field_index == 0:
                    was, track.card_id, track.likely = track.likely, str(name), ""
                    self._dice_follow(was, str(name))
                    return [Change("card=", obs.frame, obs.elapsed, track.card_id, where=track.at, type=track.type,
                                   size=track.size)]
                if not self._carries_dice(track.likely) and self._track(str(name)) is None:
                    # (dice put on it cover what told it apart: it is no more like that card than before; nor is it
                    # a card another track holds)
                    track.likely = str(name)
                return []
        return []

    def _die_on(self, key: tuple[str, int]) -> str | None:
        """The die committed on chip ``key``, if any."""
        chip = self.chips.get(key)
        return chip.die if chip is not None else None

    def _carries_dice(self, name: str) -> bool:
        return any(card == name and chip.die for (card, _), chip in self.chips.items())

    def _dice_follow(self, was: str, name: str) -> None:
        """The dice of a card settled unrecognised, named after the card it looked most like, follow it when it is
        recognised: the layout names them after it from now on (they are dice already there, not dice put down), and
        left under the old name they would lie on no card for the rest of the game."""
        if not was or self._track(was) is not None:
            return  # (no look-alike, or another card looks most like it too: whose dice those are is not known)
        for key in [key for key in self.chips if key[0] == was]:
            moved = self.chips.pop(key)
            if moved.die and not self._die_on((name, key[1])):
                self.chips[(name, key[1])] = moved

    def _moved(self, track: _Card, obs: TableObservation) -> list[Change]:
        """A committed card now lying elsewhere, at rest there for ``settle_s``."""
        s = self.settings
        if _dist(track.centre, track.at) <= s.move_share * track.size:
            return []
        rest = []  # the latest sightings at the current spot, newest first
        for t, v, _ in reversed(track.votes.history):
            if v is None:
                continue
            if _dist(v[2], track.centre) >= 0.1 * track.size:  # type: ignore[index]
                break
            rest.append(t)
        if len(rest) < s.min_frames or obs.elapsed - rest[-1] < s.settle_s:
            return []
        before, track.at = track.at, track.centre
        return [Change("card>", obs.frame, rest[-1], track.card_id or track.key, where=track.at, before=before,
                       type=track.type, size=track.size)]

    def _commit_chips(self, obs: TableObservation) -> list[Change]:
        out: list[Change] = []
        for (card, chip), track in self.chips.items():
            if track.die is None:
                if track.first is None:
                    continue
                card_track = self._track(card)
                if card_track is None or not card_track.committed:
                    continue  # the card itself not settled: a glimpse under another name, its dice with it
                first = track.first[1]
                run = track.votes.run(first)  # the whole run of sightings votes on the die
                if self._present(track.votes, obs.elapsed) is not None:
                    vote = self._die_vote(run)
                    if vote is not None and run[-1][1] != vote[0]:
                        continue  # read otherwise now: the first readings were the hand that put it down
                elif run and run[-1][1] is None:  # the run was cut short (a hand, the card taken away)
                    vote = self._cut_short([v for v in run if v[1] is not None])
                    track.first = None  # judged once
                else:
                    continue
                if vote is None:
                    continue
                die, conf = vote
                track.die = str(die)
                first = self._put_down(track.votes, first, track.die)
                out.append(Change("die+", obs.frame, first, card, chip, track.die, conf, self._spot(card, chip)))
            elif self._absent(track.votes, obs.elapsed):
                gone = _last_seen(track.votes, track.die, obs.elapsed, self.settings.settle_s)
                out.append(Change("die-", obs.frame, gone, card, chip, track.die, _read_as(track.votes, track.die),
                                  self._spot(card, chip)))
                track.die, track.first = None, None
            else:
                out += self._reread(card, chip, track, obs)
        return out

    def _reread(self, card: str, chip: int, track: _Chip, obs: TableObservation) -> list[Change]:
        """A committed die read surely (``sure_top``) as another die where it lies, for the settling time and by
        ``die_lead`` readings: another die lies there now (one put on the chip's print, which was read as a die):
        the old one left, the new one arrived."""
        s = self.settings
        if not track.votes.history or track.votes.history[-1][1] in (track.die, None):
            return []  # read as committed (or missed) in this frame: nothing new (every frame, every chip)
        history = list(track.votes.history)
        last_old, run = _read_otherwise(history, track.die)
        if len(run) < s.min_frames or obs.elapsed - run[0][0] < s.settle_s - 1e-6:
            return []
        vote = self._die_vote(run)
        if vote is None or vote[1] < min(s.sure_top, 2 * _read_as(track.votes, track.die)):
            return []  # a die committed on faint readings gives way to one read twice as surely
        old, track.die = track.die, str(vote[0])
        spot, since = self._spot(card, chip), next(v[0] for v in run if v[1] == vote[0])
        return [Change("die-", obs.frame, history[last_old][0] if last_old >= 0 else since, card, chip, old,
                       _read_as(track.votes, old), spot, turned=True),
                Change("die+", obs.frame, since, card, chip, track.die, vote[1], spot, turned=True)]

    def _put_down(self, votes: _Votes, first: float, die: str) -> float:
        """When the die committed from sightings since ``first`` was put down: the start of the runs before it that
        read it the same, each break shorter than ``vanish_s`` (no die leaves that fast), within ``regap_s``."""
        s, earliest = self.settings, first
        before = (v for v in votes.history if v[0] < first)
        runs = [list(run) for missing, run in groupby(before, key=lambda v: v[1] is None) if not missing]
        for run in reversed(runs):
            if earliest - run[-1][0] >= s.vanish_s or first - run[0][0] > s.regap_s \
                    or self._mode(run)[0] != die:
                break
            earliest = run[0][0]
        return earliest

    def _track(self, name: str) -> _Card | None:
        """The card track whose dice are named ``name`` (its card id, or while unrecognised the card it looks most
        like): a track opened for a card not yet recognised keeps its ``?N`` key after it is, so the key alone
        does not find it."""
        track = self.cards.get(name)
        if track is not None and (track.card_id or track.key) == name:
            return track
        return next((t for t in self.cards.values()
                     if (t.card_id or t.key) == name or (not t.card_id and t.likely == name)), None)

    def _spot(self, card: str, chip: int) -> Point:
        track = self._track(card)
        spot = track.chips.get(chip) if track else None
        return spot[0] if spot else (0.0, 0.0)

    def _commit_loose(self, obs: TableObservation) -> list[Change]:
        out: list[Change] = []
        keep = []
        for track in self.loose:
            if not track.committed:
                recent = self._present(track.votes, obs.elapsed)
                if recent is not None:
                    run = track.votes.run(track.first[1])
                    vote = self._loose_vote(run, self.settings.loose_lead)
                    if vote is not None and vote[0] is None:  # mostly missed: seen since its last miss
                        last_miss = max(k for k, v in enumerate(run) if v[1] is None)
                        track.first = (obs.frame, run[last_miss + 1][0] if last_miss + 1 < len(run) else obs.elapsed)
                    elif vote is not None:
                        die, conf = vote
                        track.committed, track.die = True, str(die)
                        on_card = any(_inside(track.centre, c.corners) for c in obs.cards if c.type != "back")
                        out.append(Change("loose+", obs.frame, track.first[1], die=track.die,
                                          confidence=conf, where=track.centre, on_card=on_card))
                if not self._absent(track.votes, obs.elapsed):
                    keep.append(track)
                elif not track.committed:
                    out += self._glimpse(track, obs)
                continue
            if self._absent(track.votes, obs.elapsed):
                out.append(Change("loose-", obs.frame, track.last_seen, die=track.die, where=track.centre))
                continue
            out += self._turned(track, obs)
            keep.append(track)
        self.loose = keep
        return out

    def _turned(self, track: _Loose, obs: TableObservation) -> list[Change]:
        """A committed loose die read with another face where it lies, for ``vanish_s`` and by ``loose_lead``
        readings: the old die left, the new one arrived (``turned`` if it stayed in sight: a misread corrected;
        else picked up and rolled again, landing within reach of its old place)."""
        s = self.settings
        history = list(track.votes.history)
        last_old, run = _read_otherwise(history, track.die)
        if len(run) < s.min_frames or not run or obs.elapsed - run[0][0] < max(s.settle_s, s.vanish_s) - 1e-6:
            return []  # a misread face for a frame or two is no new die: the old face must be gone a while
        vote = self._loose_vote(run, self.settings.loose_lead)
        if vote is None:
            return []
        die, conf = vote
        seen_old = max((k for k, v in enumerate(history) if v[1] == track.die), default=-1)
        gone = history[seen_old][0] if seen_old >= 0 else history[0][0]
        lifted = any(v[1] is None for v in history[seen_old + 1:])  # missing in between: picked up, rolled
        since = next(v[0] for v in run if v[1] == die)
        old, track.die, track.first = track.die, str(die), (obs.frame, since)
        return [Change("loose-", obs.frame, gone, die=old, where=track.centre, turned=not lifted),
                Change("loose+", obs.frame, since, die=track.die, confidence=conf, where=track.centre,
                       turned=not lifted)]

    def _glimpse(self, track: _Loose, obs: TableObservation) -> list[Change]:
        seen = [v for v in track.votes.history if v[1] is not None]
        vote = self._loose_vote(seen, 1) if len(seen) >= self.settings.glimpse_frames else None
        if vote is None:
            return []
        return [Change("loose+", obs.frame, seen[0][0], die=str(vote[0]), confidence=vote[1], where=track.centre,
                       brief=True)]

    def _cut_short(self, seen: list[tuple[float, object, float]]) -> tuple[object, float] | None:
        """A die that lay on its chip for the settling time, then was hidden or taken before its readings agreed
        by the usual lead (the die completing a card, defused at once): the face most of them read, if any."""
        s = self.settings
        if len(seen) < s.min_frames or seen[-1][0] - seen[0][0] < s.settle_s - 1e-6:
            return None
        return self._die_vote(seen, 1)


_ORDER = {"die-": 0, "card-": 1, "loose-": 2, "card>": 3, "card=": 3, "card+": 4, "loose+": 5, "die+": 6}
"""Same-moment changes: what left before what arrived."""


def _ranked(lists: Iterable[tuple[str, ...]]) -> tuple[str, ...]:
    """Names ranked over several closest-first lists, each scoring 1 / its place in each (first 1, second 1/2 ...)."""
    points: dict[str, float] = {}
    for names in lists:
        for place, name in enumerate(names, 1):
            points[name] = points.get(name, 0.0) + 1 / place
    return tuple(sorted(points, key=lambda name: -points[name]))


def _read_otherwise(history: list[tuple[float, object, float]], die: object) -> tuple[int, list]:
    """Where ``die`` was last read (or missed) in ``history`` (-1: never), and the sightings since, all of another."""
    last = max((k for k, v in enumerate(history) if v[1] in (die, None)), default=-1)
    return last, history[last + 1:]


def _last_seen(votes: _Votes, die: str, now: float, break_s: float) -> float:
    """When the die committed on a chip was last seen: its last sighting, but for sightings of another face, read
    less than half as surely, after a break of ``break_s`` (the chip's print, read as a die of its colours once the
    die was lifted: probe13 h2s2101's yellow1 lifted at 77.2 s, its yellow/5 print read at 0.13-0.24 until 78.8 s)."""
    history = list(votes.history)
    seen = [k for k, v in enumerate(history) if v[1] is not None]
    if not seen:
        return now
    own = max((k for k in seen if history[k][1] == die), default=seen[-1])
    later = [k for k in seen if k > own]
    faint = 0.5 * _read_as(votes, die)
    if later and history[later[0]][0] - history[own][0] >= break_s and all(history[k][2] < faint for k in later):
        return history[own][0]
    return history[seen[-1]][0]


def _read_as(votes: _Votes, die: str) -> float:
    """Mean confidence of the recent readings of ``die``: a die gone that was only ever faintly seen (the
    detector near its threshold) may be one the detector lost rather than one taken away."""
    confs = [c for _, v, c in votes.history if v == die]
    return round(sum(confs) / len(confs), 3) if confs else 1.0


def _named(cards: dict[str, CardSeen]) -> set[str]:
    """The names (``chip_names``) of the cards seen now whose chips are known: only on those can a chip be seen
    empty. Names, not track keys: dice name their chip's card so, and a track opened while its card was
    unrecognised keeps its ``?N`` key."""
    return {name for name in chip_names(tuple(cards.values())) if name}


def _looks_otherwise(track: _Card, card: CardSeen) -> bool:
    """An unrecognised card that the layout finds most like another card (or none) this frame than the one its
    track settled on."""
    return not track.card_id and not card.card_id and bool(track.likely) and card.likely != track.likely


STACK_REACH = 1.3
"""A chip one level up rests on a chip whose spot lies within this many chip radii of its own: right above it in a
stack, half a chip spacing aside (about 1.1 radii) in a pyramid or a wall. 1.2 and 1.5 gave the same 60 games."""


def _stacked(spots: dict[int, tuple[Point, float, int]], chip: int, step: int, near: Point | None = None) -> int | None:
    """The chip stacked on ``chip`` (``step`` 1) or the one it is stacked on (-1), if any: right above or below it
    (a stack), or half a chip aside (a pyramid's or a wall's chip rests on two), the nearest ``near`` (a die's
    place) of those."""
    mine = spots.get(chip)
    if mine is None:
        return None
    options = [(_dist(centre, near or mine[0]), k) for k, (centre, radius, level) in spots.items()
               if level == mine[2] + step and _dist(centre, mine[0]) <= STACK_REACH * max(radius, mine[1])]
    return min(options)[1] if options else None


def _towards(where: Point, chip: Point, above: Point) -> bool:
    """Whether a die seen at ``where`` lies on the side of ``chip``'s spot facing ``above``'s, the chip resting on it:
    always in a stack (one spot over the other); in a pyramid or a wall, whose upper chip lies half a chip aside, a
    die on the far side is the die of ``chip`` itself."""
    step = (above[0] - chip[0], above[1] - chip[1])
    return step[0] ** 2 + step[1] ** 2 < 1 or (where[0] - chip[0]) * step[0] + (where[1] - chip[1]) * step[1] >= 0


def _chip_at(track: _Card, die: DieSeen) -> int | None:
    """The chip of ``track``'s card (the spots of the card it is named or found most like) under ``die``, at its
    level where spots lie stacked."""
    where = _box_centre(die.box)
    near = [(_dist(centre, where), level != die.level, chip) for chip, (centre, radius, level) in track.chips.items()
            if _dist(centre, where) <= radius]
    return min(near)[2] if near else None


def _centre(card: CardSeen) -> Point:
    xs = [p[0] for p in card.corners]
    ys = [p[1] for p in card.corners]
    return (sum(xs) / 4, sum(ys) / 4)


def _reach(track: _Card, centre: Point) -> float:
    """How far a card seen at ``centre`` is from ``track``: from where it was seen last, or where it was committed
    (a hand over a card drags its box away for a moment, and the card shows again where it lay: cd2s1903's spark
    S-G20, which took a second track and was drawn twice)."""
    near = _dist(track.centre, centre)
    return min(near, _dist(track.at, centre)) if track.committed else near


def _short_side(card: CardSeen) -> float:
    c = card.corners
    sides = [_dist(c[i], c[(i + 1) % 4]) for i in range(4)]
    return max(1.0, min(sides))


def _inside(point: Point, corners: tuple[Point, ...]) -> bool:
    """Whether ``point`` lies within the quadrilateral ``corners`` (in order, either way round)."""
    sides = [(b[0] - a[0]) * (point[1] - a[1]) - (b[1] - a[1]) * (point[0] - a[0])
             for a, b in zip(corners, corners[1:] + corners[:1])]
    return all(v >= 0 for v in sides) or all(v <= 0 for v in sides)


def _box_centre(box: tuple[float, float, float, float]) -> Point:
    return ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)


def _box_size(box: tuple[float, float, float, float]) -> float:
    return max(1.0, min(box[2] - box[0], box[3] - box[1]))


def _dist(a: Point, b: Point) -> float:
    return hypot(a[0] - b[0], a[1] - b[1])
