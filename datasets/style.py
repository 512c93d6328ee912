"""Randomisation styles: named presets of every knob the scene sampler draws from, with per-knob overrides.

``default`` is the training style. ``heldout`` uses a table family, a light range and a die look that
``default`` never draws, so a detector can be evaluated on a style it has not seen. ``varied`` is ``default``
with dice of other plastics and inks, for training the die reader to read dice it has not seen. ``clean`` turns the
camera and sensor effects off (for looking at labels). Knobs are overridden as ``name=value`` strings
(``die_px=20,40``, ``tables=wood``, ``hand_share=0``).
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

from datasets.errors import StyleError
from datasets.scene import TABLE_FAMILIES

Range = tuple[float, float]


@dataclass(frozen=True)
class Style:
    name: str = "default"
    # camera
    sizes: tuple[str, ...] = ("1280x720", "1280x720", "1920x1080")
    """Frame sizes, drawn uniformly (repeat one to weight it)."""
    die_px: Range = (12.0, 60.0)
    """Size of a die at the image centre, pixels."""
    tilt: Range = (0.0, 45.0)
    hfov: Range = (50.0, 78.0)
    roll: float = 6.0
    distortion_share: float = 0.6
    distortion: Range = (0.0, 0.16)
    """Barrel distortion k1 (webcams); negative values give pincushion."""
    # table and light
    tables: tuple[str, ...] = ("wood", "cloth", "plain", "patterned")
    kelvin: Range = (2900.0, 6800.0)
    awb: Range = (0.4, 0.9)
    """How much of the light's colour the camera's auto white balance removes."""
    elevation: Range = (30.0, 85.0)
    ambient: Range = (0.35, 0.8)
    shadow: Range = (0.25, 0.65)
    softness: Range = (1.0, 7.0)
    falloff: Range = (0.0, 0.45)
    # sensor
    exposure: Range = (-0.6, 0.45)
    wb_error: float = 0.07
    contrast: Range = (0.85, 1.15)
    noise: Range = (0.5, 7.0)
    motion_share: float = 0.2
    motion: Range = (1.0, 8.0)
    focus_share: float = 0.3
    focus: Range = (0.4, 1.6)
    jpeg: Range = (60.0, 95.0)
    # dice
    die_looks: tuple[str, ...] = ("classic",)
    die_mm: Range = (15.0, 17.0)
    rounding: Range = (0.07, 0.2)
    shine: Range = (0.05, 0.55)
    pip_share: float = 0.25
    white_share: float = 0.0
    """Share of pip dice that are plain white ones (``white1``-``white6``), not FUSE dice."""
    inks: tuple[str, ...] = ("white", "white", "dark")
    """Numeral and pip inks: ``white``, ``dark``, ``gold`` or ``any`` (a random colour, never gold-like)."""
    die_hue: Range = (0.0, 0.0)
    """Shift of the dice's body hue, degrees (one tint per dice set)."""
    die_saturation: Range = (1.0, 1.0)
    die_value: Range = (1.0, 1.0)
    """Gains on the body colours' saturation and brightness."""
    split_weight: float = 0.5
    """How often each split-die class is drawn relative to each single-colour class."""
    legal_share: float = 0.7
    """Share of dice on chips that the chip accepts (the rest are random, so colour is not learnt from chips)."""
    fill: Range = (0.0, 1.0)
    loose_dice: Range = (0.0, 9.0)
    # cards and table layout
    countdown_share: float = 0.5
    players: Range = (1.0, 4.0)
    face_down_share: float = 0.08
    fuse_share: float = 0.15
    glare_share: float = 0.3
    cards_max: int = 26
    # distractors
    hand_share: float = 0.35
    bag_share: float = 0.3
    objects: Range = (0.0, 3.0)


PRESETS: dict[str, Style] = {
    "default": Style(),
    "heldout": Style(
        name="heldout",
        tables=("marble", "plaid"),
        kelvin=(7000.0, 9500.0),
        awb=(0.2, 0.5),
        die_looks=("gem",),
        inks=("gold",),
        rounding=(0.2, 0.28),
        shine=(0.6, 0.9),
    ),
    "varied": Style(
        # training variety for the die reader: other makers' plastics and inks (never the held-out gem
        # look or gold ink; the tints stop short of the gem palette's lighter bodies)
        name="varied",
        inks=("white", "dark", "any", "any"),
        die_hue=(-10.0, 10.0),
        die_saturation=(0.75, 1.1),
        die_value=(0.8, 1.2),
        white_share=0.3,
    ),
    "clean": Style(
        name="clean",
        distortion_share=0.0,
        noise=(0.0, 0.0),
        motion_share=0.0,
        focus_share=0.0,
        jpeg=(95.0, 95.0),
        hand_share=0.0,
        bag_share=0.0,
        objects=(0.0, 0.0),
        exposure=(0.0, 0.0),
        wb_error=0.0,
        roll=0.0,
    ),
}


def _convert(name: str, current: object, text: str) -> object:
    parts = [p.strip() for p in text.split(",") if p.strip()]
    try:
        if isinstance(current, tuple) and current and isinstance(current[0], str):
            return tuple(parts)
        if isinstance(current, tuple):
            values = tuple(float(p) for p in parts)
            if len(values) == 1:
                values = (values[0], values[0])
            if len(values) != 2 or values[0] > values[1]:
                raise ValueError
            return values
        if isinstance(current, bool):
            return text.lower() in ("1", "true", "yes")
        if isinstance(current, int):
            return int(text)
        if isinstance(current, float):
            return float(text)
        return text
    except ValueError:
        raise StyleError(f"cannot set {name}={text!r}: expected {_describe(current)}") from None


def _describe(value: object) -> str:
    if isinstance(value, tuple) and value and isinstance(value[0], str):
        return "comma-separated names"
    if isinstance(value, tuple):
        return "a range 'low,high' (or one number)"
    return type(value).__name__


def knobs() -> dict[str, str]:
    """Knob name -> a short description of its value."""
    return {f.name: _describe(getattr(PRESETS["default"], f.name)) for f in fields(Style) if f.name != "name"}


def get_style(name: str = "default", overrides: list[str] | tuple[str, ...] = ()) -> Style:
    """A preset with ``name=value`` overrides applied."""
    if name not in PRESETS:
        raise StyleError(f"unknown style {name!r}: expected one of {', '.join(PRESETS)}")
    style = PRESETS[name]
    changes: dict[str, object] = {}
    valid = {f.name for f in fields(Style)} - {"name"}
    for item in overrides:
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or key not in valid:
            raise StyleError(
                f"cannot read override {item!r}: expected knob=value with a knob among {', '.join(sorted(valid))}"
            )
        changes[key] = _convert(key, getattr(style, key), value)
    style = replace(style, **changes)  # type: ignore[arg-type]
    _check(style)
    return style


def _check(style: Style) -> None:
    for family in style.tables:
        if family not in TABLE_FAMILIES:
            raise StyleError(f"unknown table family {family!r}: expected some of {', '.join(TABLE_FAMILIES)}")
    for size in style.sizes:
        w, _, h = size.partition("x")
        if not (w.isdigit() and h.isdigit()):
            raise StyleError(f"cannot read frame size {size!r}: expected WIDTHxHEIGHT such as 1280x720")
    for look in style.die_looks:
        if look not in ("classic", "gem"):
            raise StyleError(f"unknown die look {look!r}: expected classic or gem")
    for ink in style.inks:
        if ink not in ("white", "dark", "gold", "any"):
            raise StyleError(f"unknown ink {ink!r}: expected white, dark, gold or any")
    if not style.tables or not style.sizes or not style.die_looks or not style.inks:
        raise StyleError("tables, sizes, die_looks and inks each need at least one value")


def describe(style: Style) -> str:
    """One ``knob=value`` per line, as ``--set`` accepts them."""
    lines = [f"# style {style.name}"]
    for f in fields(Style):
        if f.name == "name":
            continue
        value = getattr(style, f.name)
        text = ",".join(str(v) for v in value) if isinstance(value, tuple) else str(value)
        lines.append(f"{f.name}={text}")
    return "\n".join(lines)
