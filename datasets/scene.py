"""Scene description: pure data, no pixels. ``render(scene)`` (``datasets.raster``) turns one into an image.

Units: millimetres on the table plane (x right, y away from the viewer, z up), degrees for angles.
A ``Setting`` (camera, table, lighting, die and card look) is what stays fixed across the frames of one
rendered game; ``Scene`` adds what is on the table in one frame and the per-frame camera effects.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from typing import Any

TABLE_FAMILIES = ("wood", "cloth", "plain", "patterned", "marble", "plaid")
CARD_W_MM, CARD_H_MM = 88.0, 63.0
"""A card's printed face, landscape (poker size, as fuse-physical.md measures it)."""


@dataclass(frozen=True)
class Camera:
    width: int
    height: int
    target: tuple[float, float]
    """Table point (mm) the optical axis goes through."""
    distance: float
    """Camera to target, mm."""
    tilt: float
    """Degrees from looking straight down (0) towards the horizon."""
    yaw: float
    """Degrees the camera is turned about the vertical."""
    roll: float
    hfov: float
    """Horizontal field of view, degrees."""
    k1: float = 0.0
    """Radial lens distortion (positive: barrel, as cheap webcams)."""

    @property
    def focal(self) -> float:
        """Focal length in pixels."""
        import math

        return self.width / 2 / math.tan(math.radians(self.hfov) / 2)


@dataclass(frozen=True)
class Table:
    family: str
    """``wood``, ``cloth``, ``plain``, ``patterned`` (default style) or ``marble``, ``plaid`` (held out)."""
    variant: int
    """Which procedurally made texture of the family (a small number: textures are cached per variant)."""
    tint: tuple[float, float, float]
    """BGR multiplier applied to the texture."""
    mm_per_texel: float
    angle: float
    offset: tuple[float, float]


@dataclass(frozen=True)
class Lighting:
    kelvin: float
    """Colour temperature of the light (imitates tungsten ~2700 K to daylight/overcast ~7000 K)."""
    azimuth: float
    elevation: float
    """Light direction, degrees above the table; low light makes long shadows."""
    ambient: float
    """Share of diffuse light (0..1); lower gives harder shading and darker shadows."""
    shadow: float
    """Darkness of shadows, 0..1."""
    softness: float
    """Shadow blur, mm."""
    hotspot: tuple[float, float]
    """Where on the image (0..1, 0..1) the lamp is brightest."""
    falloff: float
    """How much darker the image gets away from the hotspot (0 = even light)."""
    awb: float = 0.6
    """How much of the light's colour the camera's auto white balance removes (1 = all)."""


@dataclass(frozen=True)
class DieLook:
    family: str
    """``classic`` (matte/satin plastic) or ``gem`` (held out: lighter, glossy, gold ink)."""
    size_mm: float
    rounding: float
    """Edge radius as a fraction of the die side."""
    shine: float
    """Strength of the specular highlight, 0..1."""
    faces: str
    """``numeral`` (FUSE's seven-segment numerals) or ``pip`` (ordinary dice)."""
    ink: str
    """``white`` or ``dark`` numerals/pips; ``gold`` in the held-out look; or any colour as ``#rrggbb``."""
    tint: tuple[float, float, float] = (0.0, 1.0, 1.0)
    """The body colours' hue shift (degrees), saturation and value gains: one maker's plastic differs from
    another's."""


@dataclass(frozen=True)
class CardLook:
    gloss: float
    """How glossy the card stock is, 0..1: scales the cards' glare spots."""


@dataclass(frozen=True)
class Setting:
    """What stays the same over the frames of one game: camera, table, light and the look of dice and cards."""

    camera: Camera
    table: Table
    lighting: Lighting
    die_look: DieLook
    card_look: CardLook
    edition: str
    """``fuse`` or ``countdown``: which catalog the cards come from."""


@dataclass(frozen=True)
class CardFace:
    """What is printed on a card: enough to draw it without the catalog."""

    id: str
    edition: str
    kind: str
    """``bomb``, ``spark``, ``fuse`` or ``role``."""
    points: int
    text: str
    """Notation for bomb and spark cards; '' otherwise."""
    name: str
    """Fuse card's match or effect (``red``, ``6``, ``red 1``, ``draw-spark``), role's key; else the id."""
    ability: str = ""

    @classmethod
    def from_card(cls, card: Any) -> CardFace:
        """Adapt a ``rules.catalog.Card``."""
        return cls(card.id, card.edition, card.kind, card.points, card.text, card.name, getattr(card, "ability", ""))


@dataclass(frozen=True)
class PlacedCard:
    face: CardFace
    x: float
    y: float
    """Centre of the card on the table, mm."""
    angle: float
    """Counter-clockwise rotation seen from above, degrees (0: upright, text readable from -y)."""
    face_up: bool = True
    z: float = 0.0
    """Height of the card's surface (cards in a pile), mm."""
    glare: float = 0.0
    """Strength of a specular glare spot, 0..1."""
    glare_at: tuple[float, float] = (0.5, 0.5)


@dataclass(frozen=True)
class OnChip:
    """A die resting on a card: on chip ``chip`` (1-based, as in the notation) of ``scene.cards[card]``."""

    card: int
    chip: int
    level: int = 0
    """0 on the card; 1, 2 ... on top of other dice (stacks, pyramids, walls, ziggurats)."""


@dataclass(frozen=True)
class PlacedDie:
    die: str
    """As ``rules.dice.Die`` writes it: ``red5``, ``black/yellow2``."""
    x: float
    y: float
    """Loose die: centre on the table, mm. Die on a chip: offset from the chip's seat, mm."""
    yaw: float
    turn: int = 0
    """Which of the four ways to show this top face (0..3): decides the side faces."""
    on: OnChip | None = None
    tint: float = 1.0
    """Per-die brightness (dice of one colour differ slightly)."""


@dataclass(frozen=True)
class Distractor:
    kind: str
    """``hand``, ``bag``, ``coin``, ``pencil``, ``phone``, ``pad``, ``mug``."""
    x: float
    y: float
    angle: float
    size: float
    """Characteristic size, mm (hand: palm width; bag: diameter; pencil: length)."""
    colour: tuple[int, int, int]
    """BGR."""
    height: float = 0.0
    """Height above the table, mm (hands hover: their shadows fall apart from them)."""
    variant: int = 0


@dataclass(frozen=True)
class Effects:
    """Per-frame camera and sensor effects."""

    seed: int
    """Seeds noise offsets; a scene renders to the same bytes every time."""
    exposure: float
    """EV shift (auto-exposure error)."""
    wb: tuple[float, float, float]
    """BGR white-balance error gains."""
    noise: float
    """Sensor noise sigma, grey levels."""
    motion: float
    """Motion blur length, pixels."""
    motion_angle: float
    focus: float
    """Defocus blur sigma, pixels."""
    jpeg_quality: int
    contrast: float = 1.0


@dataclass(frozen=True)
class Scene:
    setting: Setting
    cards: tuple[PlacedCard, ...]
    dice: tuple[PlacedDie, ...]
    distractors: tuple[Distractor, ...] = ()
    effects: Effects = field(default_factory=lambda: Effects(0, 0.0, (1.0, 1.0, 1.0), 0.0, 0.0, 0.0, 0.0, 95))

    @property
    def camera(self) -> Camera:
        return self.setting.camera

    def with_contents(
        self, cards: tuple[PlacedCard, ...], dice: tuple[PlacedDie, ...], distractors: tuple[Distractor, ...] = ()
    ) -> Scene:
        """The same setting and effects with other things on the table (the next frame of a game)."""
        return replace(self, cards=cards, dice=dice, distractors=distractors)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def scene_from_dict(data: dict[str, Any]) -> Scene:
    """Inverse of ``Scene.to_dict()`` (e.g. a scene saved as JSON)."""

    def tup(value: Any) -> Any:
        return tuple(tup(v) for v in value) if isinstance(value, list) else value

    s = data["setting"]
    setting = Setting(
        Camera(**{k: tup(v) for k, v in s["camera"].items()}),
        Table(**{k: tup(v) for k, v in s["table"].items()}),
        Lighting(**{k: tup(v) for k, v in s["lighting"].items()}),
        DieLook(**{k: tup(v) for k, v in s["die_look"].items()}),
        CardLook(**s["card_look"]),
        s["edition"],
    )
    cards = tuple(
        PlacedCard(CardFace(**c["face"]), **{k: tup(v) for k, v in c.items() if k != "face"}) for c in data["cards"]
    )
    dice = tuple(
        PlacedDie(**{k: v for k, v in d.items() if k != "on"}, on=OnChip(**d["on"]) if d["on"] else None)
        for d in data["dice"]
    )
    distractors = tuple(Distractor(**{k: tup(v) for k, v in d.items()}) for d in data["distractors"])
    effects = Effects(**{k: tup(v) for k, v in data["effects"].items()})
    return Scene(setting, cards, dice, distractors, effects)
