"""``render(scene) -> (image, truth)``: rasterise a scene description into a BGR frame and its ground truth.

Draw order is the physical one: table, cards (each with its thin shadow), flat objects, the dice's
shadows, dice far to near (so a die on top of a stack is drawn after the one under it), hovering hands
with their shadows; then light, lens, blur, noise and the camera's tone curve. Each drawn pixel records
which object it shows, which gives every object's visible share for the labels.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from datasets.camera import Projector
from datasets.draw_cards import DrawnCard, card_shadow, draw_card
from datasets.draw_dice import DrawnDie, die_geometry, draw_die
from datasets.frame import Frame, soft_polygon_shade
from datasets.geometry import card_top, die_pose
from datasets.post import apply_light, camera_effects
from datasets.props import draw_prop
from datasets.scene import Scene
from datasets.table import draw_table
from datasets.truth import build_truth

NEAR_MM = 40.0
"""Objects nearer the camera than this (or behind it) are not drawn."""


def in_front(proj: Projector, point: np.ndarray) -> bool:
    return float(proj.to_camera(point)[0, 2]) > NEAR_MM


def light_vector(scene: Scene) -> np.ndarray:
    light = scene.setting.lighting
    az, el = math.radians(light.azimuth), math.radians(light.elevation)
    return np.array([math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), math.sin(el)])


def _dice_shadows(frame: Frame, proj: Projector, scene: Scene, poses: list, light: np.ndarray) -> None:
    size = scene.setting.die_look.size_mm
    lighting = scene.setting.lighting
    cast, contact = [], []
    ppm = []
    for die, (x, y, z, yaw) in zip(scene.dice, poses):
        if not in_front(proj, np.array([x, y, z + size / 2])):
            continue
        ground = card_top(scene.cards[die.on.card]) if die.on is not None else 0.0
        g = die_geometry(proj, x, y, z, yaw, size, scene.setting.die_look)
        corners = (
            g["centre"]
            + (np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]) * size / 2) @ g["rz"].T
        )
        drop = corners[:, 2:3] - ground
        flat = corners[:, :2] - light[:2] / max(light[2], 0.15) * drop
        pts = proj.project(np.column_stack([flat, np.full(8, ground)]))
        cast.append(cv2.convexHull(pts.astype(np.float32)).reshape(-1, 2).astype(np.float64))
        if die.on is None or die.on.level == 0:
            base = corners[[0, 2, 6, 4], :2]
            mid = base.mean(axis=0)
            contact.append(proj.project(np.column_stack([mid + (base - mid) * 1.12, np.full(4, ground)])))
        ppm.append(g["ppm"])
    if not cast:
        return
    scale = float(np.median(ppm))
    soft_polygon_shade(frame, cast, max(0.5, lighting.softness * scale * 0.5), lighting.shadow * 0.85)
    soft_polygon_shade(frame, contact, max(0.5, size * scale * 0.08), 0.35)


def _draw(
    scene: Scene, keep_masks: bool
) -> tuple[Frame, Projector, list[DrawnCard | None], list[DrawnDie | None], list, np.ndarray]:
    cam = scene.camera
    proj = Projector(cam)
    light = light_vector(scene)
    lighting = scene.setting.lighting
    frame = Frame(draw_table(scene.setting.table, proj), keep_masks)
    n_cards, n_dice = len(scene.cards), len(scene.dice)
    gloss = scene.setting.card_look.gloss
    # all cards' thin shadows in one soft pass (a card's shadow on a card drawn before it is not drawn)
    visible_cards = [c for c in scene.cards if in_front(proj, np.array([c.x, c.y, c.z]))]
    if visible_cards:
        ppm = float(np.median([proj.px_per_mm(np.array([c.x, c.y, c.z])) for c in visible_cards]))
        polys = [card_shadow(proj, c, light) for c in visible_cards]
        soft_polygon_shade(frame, polys, max(0.6, ppm * 0.9), lighting.shadow * 0.7)
    cards = [
        draw_card(frame, proj, c, 1 + i, light, lighting.shadow, NEAR_MM, gloss) for i, c in enumerate(scene.cards)
    ]
    base = 1 + n_cards + n_dice
    for k, d in enumerate(scene.distractors):
        if d.kind != "hand":
            draw_prop(frame, proj, d, base + k, light, lighting.shadow)
    poses = [die_pose(scene, d) for d in scene.dice]
    _dice_shadows(frame, proj, scene, poses, light)
    size = scene.setting.die_look.size_mm
    depth = [float(proj.to_camera(np.array([p[0], p[1], p[2] + size / 2]))[0, 2]) for p in poses]
    dice: list[DrawnDie | None] = [None] * n_dice
    for j in sorted(range(n_dice), key=lambda j: -depth[j]):
        if depth[j] < NEAR_MM:
            continue
        dice[j] = draw_die(
            frame, proj, scene.dice[j], poses[j], scene.setting.die_look, 1 + n_cards + j, light, lighting.ambient
        )
    for k, d in enumerate(scene.distractors):
        if d.kind == "hand":
            draw_prop(frame, proj, d, base + k, light, lighting.shadow)
    frame.img = apply_light(frame.img, lighting)
    # visible shares are counted before the lens: distortion barely changes a small object's share
    # (on every other row and column: a quarter of the work, ample for shares of objects a few pixels wide)
    counts = np.bincount(frame.ids[::2, ::2].ravel(), minlength=1 + n_cards + n_dice) * 4
    maps = proj.remap_maps()
    if maps is not None:
        frame.img = cv2.remap(frame.img, maps[0], maps[1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
        if frame.masks is not None:
            for key, mask in frame.masks.items():
                frame.masks[key] = cv2.remap(mask.astype(np.uint8), maps[0], maps[1], cv2.INTER_NEAREST) > 0
    frame.img = camera_effects(frame.img, scene.effects)
    return frame, proj, cards, dice, poses, counts


def render(scene: Scene) -> tuple[np.ndarray, dict]:
    """The frame (H, W, 3 uint8 BGR) and its ground truth (JSON-ready dict; see datasets/README.md)."""
    frame, proj, cards, dice, poses, counts = _draw(scene, keep_masks=False)
    return frame.img, build_truth(scene, proj, counts, cards, dice, poses)


def render_with_masks(scene: Scene) -> tuple[np.ndarray, dict, dict[str, np.ndarray]]:
    """As ``render``, plus each object's drawn silhouette (whole, ignoring occlusion) as a boolean mask,
    keyed ``card:<i>`` / ``die:<j>`` by scene index. Slower: for tests and inspection."""
    frame, proj, cards, dice, poses, counts = _draw(scene, keep_masks=True)
    truth = build_truth(scene, proj, counts, cards, dice, poses)
    n_cards = len(scene.cards)
    masks = {}
    for key, mask in (frame.masks or {}).items():
        if 1 <= key <= n_cards:
            masks[f"card:{key - 1}"] = mask
        elif key <= n_cards + len(scene.dice):
            masks[f"die:{key - 1 - n_cards}"] = mask
    return frame.img, truth, masks
