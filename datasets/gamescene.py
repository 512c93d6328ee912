"""One ``Scene`` per frame of a rendered game: the game's fixed ``Setting`` and what its tracks hold at the frame's
time (cards, piles, dice on chips and loose, hands, the dice bag), with small per-frame camera effects.

``Timeline`` is plain picklable data, handed once to each rendering process.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from datasets.distract import SKIN
from datasets.scene import CardFace, Distractor, Effects, OnChip, PlacedCard, PlacedDie, Scene, Setting
from datasets.tablemap import TableMap
from datasets.tracks import CardPose, DiePose, HandPose, Tracks

BAG_MM = 115.0


@dataclass(frozen=True)
class Timeline:
    setting: Setting
    effects: Effects
    """The camera's effects; each frame varies the noise pattern and exposure a little."""
    tracks: Tracks
    faces: dict[str, CardFace]
    """Every card that appears, by id."""
    backs: dict[str, CardFace]
    """The face-down piles' stand-in faces (ids ``deck``, ``score``, ``sparks``: only their backs show)."""
    tmap: TableMap
    tints: tuple[float, ...]
    hands: tuple[tuple[float, int, int], ...]
    bag_colour: tuple[int, int, int]
    fps: float
    first: int
    """Frame ``i`` shows game second ``(first + i) / fps``."""
    count: int

    def elapsed(self, index: int) -> float:
        return round((self.first + index) / self.fps, 4)


def pile_faces(edition: str) -> dict[str, CardFace]:
    """Stand-in faces for the face-down piles (the truth names them ``deck``, ``score`` and ``sparks``)."""
    return {name: CardFace(name, edition, kind, 0, "", name)
            for name, kind in (("deck", "bomb"), ("score", "bomb"), ("sparks", "spark"))}


def _pile(face: CardFace, pose: CardPose, count: int, face_up: bool = False) -> list[PlacedCard]:
    """The top (at most three) cards of a pile of ``count``."""
    shown = min(count, 3)
    out = []
    for k in range(shown):
        wobble = ((k * 7919) % 5 - 2) * 0.6
        out.append(PlacedCard(face, pose.x + wobble, pose.y - wobble * 0.5, pose.angle + wobble, face_up,
                              z=0.35 * (count - shown + k)))
    return out


def _piles(tl: Timeline, t: float) -> list[PlacedCard]:
    tracks, tmap = tl.tracks, tl.tmap
    cards: list[PlacedCard] = []
    for name, pose in (("deck", tmap.deck), ("score", tmap.score), ("sparks", tmap.spark_deck)):
        count = tracks[f"pile:{name}"].at(t)[0] or 0
        if count:
            cards += _pile(tl.backs[name], pose, count)
    for name, pose in (("fuse", tmap.fuse_pile), ("spark-discard", tmap.spark_discard)):
        ids = tracks[f"pile:{name}"].at(t)[0] or ()
        for k, card in enumerate(ids[-3:]):
            z = 0.35 * (len(ids) - min(3, len(ids)) + k)
            cards.append(PlacedCard(tl.faces[card], pose.x + k * 0.8, pose.y - k * 0.6, pose.angle - 2 * k, True, z=z))
    return cards


def scene_at(tl: Timeline, index: int) -> Scene:
    """The scene of frame ``index``."""
    t = tl.elapsed(index)
    cards = _piles(tl, t)
    moving = []
    for name, pose, glide in tl.tracks.at(t, "card:"):
        placed = PlacedCard(tl.faces[name[5:]], pose.x, pose.y, pose.angle, pose.face_up, z=pose.z)
        (moving if glide else cards).append(placed)
    cards += sorted(moving, key=lambda c: c.z)
    where = {c.face.id: i for i, c in enumerate(cards) if c.face_up}
    dice = []
    for name, pose, _ in tl.tracks.at(t, "die:"):
        die_id = int(name[4:])
        assert isinstance(pose, DiePose)
        on = None
        if pose.card:
            if pose.card not in where:
                continue
            on = OnChip(where[pose.card], pose.chip, pose.level)
        dice.append(PlacedDie(pose.die, pose.x, pose.y, pose.yaw, pose.turn, on, tl.tints[die_id]))
    dice.sort(key=lambda d: (d.on.level if d.on else 0))
    props: list[Distractor] = []
    bag = tl.tracks["bag"].at(t)[0]
    if bag is not None:
        props.append(Distractor("bag", bag.x, bag.y, bag.angle, BAG_MM, tl.bag_colour, 0.0, 5))
    for name, hand, _ in tl.tracks.at(t, "hand:"):
        assert isinstance(hand, HandPose)
        size, skin, sleeve = tl.hands[int(name[5:])]
        props.append(Distractor("hand", hand.x, hand.y, hand.angle, size, SKIN[skin], hand.height,
                                sleeve * 3 + hand.pose))
    return Scene(tl.setting, tuple(cards), tuple(dice), tuple(props), frame_effects(tl, index))


def frame_effects(tl: Timeline, index: int) -> Effects:
    """The camera's effects with this frame's own sensor noise (exposure, white balance and blur stay: a flicker
    would change every pixel of every frame and triple the video's size)."""
    return replace(tl.effects, seed=int(tl.effects.seed + index) % 2**31)
