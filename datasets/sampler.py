"""Draw random scenes from a ``Style``: the setting (camera, table, light, looks), then what is on the table.

Every random choice comes from one ``numpy.random.Generator``; ``scene_for(seed, index, style)`` seeds it
from (seed, index) so that a dataset renders to the same bytes however the work is split across processes.
"""

from __future__ import annotations

import colorsys
import math
from dataclasses import replace
from functools import lru_cache

import numpy as np

from datasets.arrange import arrange
from datasets.camera import Projector
from datasets.cards import catalog_faces
from datasets.classes import die_classes
from datasets.distract import sample_distractors
from datasets.geometry import card_polygon, chip_positions, die_pose
from datasets.scene import (
    Camera,
    CardLook,
    DieLook,
    Effects,
    Lighting,
    OnChip,
    PlacedCard,
    PlacedDie,
    Scene,
    Setting,
    Table,
)
from datasets.style import Style
from rules.dice import Die
from rules.notation import parse_layout

TEXEL_MM = {
    "wood": (0.5, 1.1),
    "cloth": (0.4, 0.9),
    "plain": (1.0, 2.0),
    "patterned": (0.35, 0.9),
    "marble": (0.5, 1.4),
    "plaid": (0.4, 0.9),
}


def _u(rng: np.random.Generator, bounds: tuple[float, float]) -> float:
    return float(rng.uniform(bounds[0], bounds[1])) if bounds[1] > bounds[0] else float(bounds[0])


def _choice(rng: np.random.Generator, options: tuple[str, ...]) -> str:
    return options[int(rng.integers(len(options)))]


GOLD_HUES = (30.0, 70.0)
"""Hues (degrees) an ``any`` ink never takes: the held-out look's gold numerals stay unseen in training."""


def _ink(rng: np.random.Generator, name: str) -> str:
    """``any`` -> a random ink as ``#rrggbb``: a light or dark grey, or a colour outside ``GOLD_HUES``."""
    if name != "any":
        return name
    if rng.random() < 0.4:
        grey = rng.uniform(0.75, 1.0) if rng.random() < 0.5 else rng.uniform(0.05, 0.3)
        rgb = (grey, grey, grey)
    else:
        hue = rng.uniform(GOLD_HUES[1], GOLD_HUES[0] + 360) % 360
        rgb = colorsys.hsv_to_rgb(hue / 360, rng.uniform(0.45, 0.9), rng.uniform(0.35, 0.95))
    return "#" + "".join(f"{round(v * 255):02x}" for v in rgb)


def sample_setting(rng: np.random.Generator, style: Style) -> Setting:
    """Camera, table, light and the look of dice and cards (what stays fixed through one game)."""
    w, h = (int(v) for v in _choice(rng, style.sizes).split("x"))
    hfov = _u(rng, style.hfov)
    focal = w / 2 / math.tan(math.radians(hfov) / 2)
    look = DieLook(
        family=_choice(rng, style.die_looks),
        size_mm=_u(rng, style.die_mm),
        rounding=_u(rng, style.rounding),
        shine=_u(rng, style.shine),
        faces="pip" if rng.random() < style.pip_share else "numeral",
        ink=_ink(rng, _choice(rng, style.inks)),
        tint=(_u(rng, style.die_hue), _u(rng, style.die_saturation), _u(rng, style.die_value)),
    )
    die_px = _u(rng, style.die_px)
    k1 = round(_u(rng, style.distortion), 3) if rng.random() < style.distortion_share else 0.0
    camera = Camera(
        w,
        h,
        (0.0, 0.0),
        focal * look.size_mm / die_px,
        _u(rng, (style.tilt[0], style.tilt[1])),
        float(rng.uniform(0, 360)),
        float(rng.uniform(-style.roll, style.roll)),
        hfov,
        k1,
    )
    family = _choice(rng, style.tables)
    table = Table(
        family,
        int(rng.integers(6)),
        tuple(float(v) for v in np.clip(1 + rng.normal(0, 0.06, 3), 0.8, 1.2)),
        _u(rng, TEXEL_MM[family]),
        float(rng.uniform(0, 360)),
        (float(rng.uniform(0, 2000)), float(rng.uniform(0, 2000))),
    )
    light = Lighting(
        kelvin=_u(rng, style.kelvin),
        azimuth=float(rng.uniform(0, 360)),
        elevation=_u(rng, style.elevation),
        ambient=_u(rng, style.ambient),
        shadow=_u(rng, style.shadow),
        softness=_u(rng, style.softness),
        hotspot=(float(rng.uniform(0, 1)), float(rng.uniform(0, 1))),
        falloff=_u(rng, style.falloff),
        awb=_u(rng, style.awb),
    )
    edition = "countdown" if rng.random() < style.countdown_share else "fuse"
    return Setting(camera, table, light, look, CardLook(gloss=float(rng.uniform(0.3, 1.0))), edition)


def _die_weights(style: Style) -> tuple[tuple[str, ...], np.ndarray]:
    names = die_classes()
    weights = np.array([style.split_weight if "/" in n else 1.0 for n in names])
    return names, weights / weights.sum()


@lru_cache(maxsize=8)
def _legal_weights(split_weight: float, countdown_share: float) -> tuple[np.ndarray, np.ndarray]:
    """Class weights for dice drawn among those a chip accepts, and each catalog chip's acceptance row.

    Drawing only dice a chip accepts would favour classes that many chips accept (split dice satisfy two
    colours); these weights are solved so that, over the catalog's chips, each class still comes out at
    its target share.
    """
    names = die_classes()
    target = np.array([split_weight if "/" in n else 1.0 for n in names])
    target /= target.sum()
    dice = [Die.parse(n) for n in names]
    rows: dict[str, tuple[np.ndarray, float]] = {}
    for edition, share in (("fuse", 1 - countdown_share), ("countdown", countdown_share)):
        faces = catalog_faces(edition)
        cards = faces["bomb"] + faces["spark"]
        for face in cards:
            for chip in parse_layout(face.text).chips:
                key = str(chip)
                ok, f = rows.get(key, (np.array([chip.accepts(d) for d in dice], np.float64), 0.0))
                rows[key] = (ok, f + share / len(cards))
    accept = np.array([r[0] for r in rows.values()])
    freq = np.array([r[1] for r in rows.values()])
    freq /= freq.sum()
    v = target.copy()
    for _ in range(60):
        marginal = (freq[:, None] * accept * v[None, :] / np.maximum(accept @ v, 1e-12)[:, None]).sum(axis=0)
        v *= np.sqrt(target / np.maximum(marginal, 1e-12))
        v /= v.sum()
    return v, accept


_ACCEPTS: dict[str, np.ndarray] = {}


def _accepts(chip: object) -> np.ndarray:
    """Which die classes a chip accepts (cached by the chip's text)."""
    key = str(chip)
    if key not in _ACCEPTS:
        _ACCEPTS[key] = np.array([chip.accepts(Die.parse(n)) for n in die_classes()])  # type: ignore[attr-defined]
    return _ACCEPTS[key]


def _draw_die(rng: np.random.Generator, style: Style, chip: object = None) -> str:
    names, weights = _die_weights(style)
    if chip is not None and rng.random() < style.legal_share:
        legal, _ = _legal_weights(style.split_weight, style.countdown_share)
        ok = _accepts(chip)
        if ok.any():
            w = legal * ok
            return names[int(rng.choice(len(names), p=w / w.sum()))]
    return names[int(rng.choice(len(names), p=weights))]


def _fill_order(rng: np.random.Generator, layout: object, count: int) -> list[int]:
    """``count`` chip indexes (0-based) in an order a player could place them (supports first)."""
    supports = layout.supports  # type: ignore[attr-defined]
    n = len(layout.chips)  # type: ignore[attr-defined]
    placed: list[int] = []
    while len(placed) < count:
        ready = [i for i in range(n) if i not in placed and all(s in placed for s in supports.get(i, ()))]
        if not ready:
            break
        placed.append(ready[int(rng.integers(len(ready)))])
    return placed


def _visible(proj: Projector, poly: np.ndarray, z: float, margin: float) -> bool:
    world = np.column_stack([poly, np.full(len(poly), z)])
    if float(proj.to_camera(world)[:, 2].min()) < 60.0:
        return False
    pts = proj.project(world)
    cam = proj.camera
    return bool(
        pts[:, 0].max() > -margin
        and pts[:, 0].min() < cam.width + margin
        and pts[:, 1].max() > -margin
        and pts[:, 1].min() < cam.height + margin
    )


def _inside_card(x: float, y: float, cards: list[PlacedCard], margin: float) -> bool:
    for card in cards:
        dx, dy = x - card.x, y - card.y
        c, s = math.cos(math.radians(-card.angle)), math.sin(math.radians(-card.angle))
        lx, ly = c * dx - s * dy, s * dx + c * dy
        if abs(lx) < 44 + margin and abs(ly) < 31.5 + margin:
            return True
    return False


def sample_scene(rng: np.random.Generator, style: Style, setting: Setting | None = None) -> Scene:
    """A random table seen by a random camera; pass ``setting`` to keep camera (as aimed), table and light."""
    aim = setting is None
    setting = setting or sample_setting(rng, style)
    table = arrange(rng, style, setting.edition)
    cam = setting.camera
    if aim:
        # aim the camera at a player's cards, the central row, or somewhere near them
        spot = table.spots[int(rng.integers(len(table.spots)))] if rng.random() < 0.85 else table.roll
        reach = cam.distance * math.tan(math.radians(cam.hfov) / 2) * 0.5
        target = (spot[0] + float(rng.normal(0, reach)), spot[1] + float(rng.normal(0, reach)))
        cam = Camera(cam.width, cam.height, target, cam.distance, cam.tilt, cam.yaw, cam.roll, cam.hfov, cam.k1)
        setting = Setting(cam, setting.table, setting.lighting, setting.die_look, setting.card_look, setting.edition)
    target = cam.target
    proj = Projector(cam)
    size = setting.die_look.size_mm

    keep = [i for i, c in enumerate(table.cards) if _visible(proj, card_polygon(c), c.z, 4)]
    keep.sort(key=lambda i: math.hypot(table.cards[i].x - target[0], table.cards[i].y - target[1]))
    keep = sorted(keep[: style.cards_max])
    cards = [table.cards[i] for i in keep]
    fillable = [keep.index(i) for i in table.fillable if i in keep]

    dice: list[PlacedDie] = []
    for ci in fillable:
        card = cards[ci]
        seats = chip_positions(card.face.text)
        layout = parse_layout(card.face.text)
        count = int(round(_u(rng, style.fill) * len(seats)))
        for index in _fill_order(rng, layout, count):
            chip = layout.chips[index]
            seat = next(s for s in seats if s.chip == chip.number)
            jitter = 0.8 if seat.level == 0 else 0.6
            dx, dy = (float(v) for v in np.clip(rng.normal(0, jitter, 2), -2, 2))
            dice.append(
                PlacedDie(
                    _draw_die(rng, style, chip),
                    dx,
                    dy,
                    float(rng.normal(0, 5)),
                    int(rng.integers(4)),
                    OnChip(ci, chip.number, seat.level),
                    float(rng.uniform(0.9, 1.08)),
                )
            )

    # a fresh roll: loose dice near the roll spot or the camera's target, not on cards, not touching
    n_loose = int(round(_u(rng, style.loose_dice)))
    centre = table.roll if rng.random() < 0.5 else target
    spread = rng.uniform(25, 90)
    on_cards = Scene(setting, tuple(cards), ())
    taken = [die_pose(on_cards, d)[:2] for d in dice]
    for _ in range(n_loose):
        for _ in range(25):
            x, y = centre[0] + rng.normal(0, spread), centre[1] + rng.normal(0, spread)
            if _inside_card(x, y, cards, size * 0.8) or any(math.hypot(x - a, y - b) < size * 1.5 for a, b in taken):
                continue
            taken.append((x, y))
            if not _visible(proj, np.array([[x, y]]), size / 2, 2 * size * proj.px_per_mm(np.array([x, y, 0.0]))):
                break  # out of view: not worth drawing
            dice.append(
                PlacedDie(
                    _draw_die(rng, style),
                    float(x),
                    float(y),
                    float(rng.uniform(0, 90)),
                    int(rng.integers(4)),
                    None,
                    float(rng.uniform(0.9, 1.08)),
                )
            )
            break

    if setting.die_look.faces == "pip" and style.white_share > 0:
        dice = [replace(d, die=f"white{d.die[-1]}") if rng.random() < style.white_share else d for d in dice]
    scene = Scene(setting, tuple(cards), tuple(dice))
    distractors = sample_distractors(rng, style, scene, proj)
    effects = sample_effects(rng, style)
    return Scene(setting, tuple(cards), tuple(dice), distractors, effects)


def sample_effects(rng: np.random.Generator, style: Style) -> Effects:
    wb = (
        tuple(float(v) for v in np.clip(1 + rng.normal(0, style.wb_error, 3), 0.75, 1.25))
        if style.wb_error
        else (1.0, 1.0, 1.0)
    )
    return Effects(
        seed=int(rng.integers(2**31)),
        exposure=_u(rng, style.exposure),
        wb=wb,  # type: ignore[arg-type]
        noise=_u(rng, style.noise),
        motion=_u(rng, style.motion) if rng.random() < style.motion_share else 0.0,
        motion_angle=float(rng.uniform(0, 180)),
        focus=_u(rng, style.focus) if rng.random() < style.focus_share else 0.0,
        jpeg_quality=int(round(_u(rng, style.jpeg))),
        contrast=_u(rng, style.contrast),
    )


def scene_for(seed: int, index: int, style: Style) -> Scene:
    """The scene of image ``index`` of a dataset made with ``seed`` (independent of process and order)."""
    return sample_scene(np.random.default_rng([seed, index]), style)
