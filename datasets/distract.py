"""Distractors on and over the table: hands and arms reaching in, the dice bag, coins, pencils, phones,
score pads and mugs. They hide parts of cards and dice, cast shadows, and are never labelled."""

from __future__ import annotations

import math

import numpy as np

from datasets.camera import Projector
from datasets.geometry import die_pose
from datasets.scene import Distractor, Scene
from datasets.style import Style

SKIN = ((170, 190, 235), (140, 168, 222), (110, 145, 200), (85, 120, 175), (60, 90, 140), (45, 65, 105))
CLOTH = ((40, 40, 40), (120, 60, 30), (50, 50, 150), (180, 180, 180), (60, 110, 60), (30, 30, 90), (200, 150, 90))
BAG = ((25, 25, 25), (60, 30, 25), (30, 30, 80), (40, 55, 70), (50, 50, 55))
OBJECTS = ("coin", "pencil", "phone", "pad", "mug")


def _frame_point(rng: np.random.Generator, proj: Projector, margin: float = 0.0) -> np.ndarray:
    w, h = proj.camera.width, proj.camera.height
    px = np.array([[rng.uniform(-margin, 1 + margin) * w, rng.uniform(-margin, 1 + margin) * h]])
    return proj.to_plane(px)[0]


def sample_distractors(rng: np.random.Generator, style: Style, scene: Scene, proj: Projector) -> tuple[Distractor, ...]:
    out: list[Distractor] = []
    w, h = proj.camera.width, proj.camera.height
    if rng.random() < style.hand_share:
        targets = [np.array(die_pose(scene, d)[:2]) for d in scene.dice] + [np.array([c.x, c.y]) for c in scene.cards]
        for _ in range(1 + int(rng.random() < 0.3)):
            if targets and rng.random() < 0.8:
                goal = targets[int(rng.integers(len(targets)))] + rng.normal(0, 25, 2)
            else:
                goal = _frame_point(rng, proj, -0.1)
            # the arm comes in from a frame edge (mostly the near, bottom edge)
            edge = rng.choice(4, p=[0.45, 0.22, 0.22, 0.11])
            t = rng.uniform(0.1, 0.9)
            edge_px = [(t * w, h * 1.3), (-0.3 * w, t * h), (1.3 * w, t * h), (t * w, -0.3 * h)][int(edge)]
            origin = proj.to_plane(np.array([edge_px]))[0]
            angle = math.degrees(math.atan2(goal[1] - origin[1], goal[0] - origin[0]))
            out.append(
                Distractor(
                    "hand",
                    float(goal[0]),
                    float(goal[1]),
                    angle,
                    float(rng.uniform(75, 95)),
                    SKIN[int(rng.integers(len(SKIN)))],
                    float(rng.uniform(18, 90)),
                    int(rng.integers(0, 3 * len(CLOTH))),
                )
            )
    if rng.random() < style.bag_share:
        p = _frame_point(rng, proj, 0.1)
        out.insert(
            0,
            Distractor(
                "bag",
                float(p[0]),
                float(p[1]),
                float(rng.uniform(0, 360)),
                float(rng.uniform(110, 170)),
                BAG[int(rng.integers(len(BAG)))],
                0.0,
                int(rng.integers(0, 1000)),
            ),
        )
    for _ in range(int(round(rng.uniform(style.objects[0], style.objects[1])))):
        kind = OBJECTS[int(rng.integers(len(OBJECTS)))]
        p = _frame_point(rng, proj, 0.05)
        size = {"coin": (18, 27), "pencil": (130, 190), "phone": (135, 165), "pad": (100, 150), "mug": (75, 95)}[kind]
        colour = (
            CLOTH[int(rng.integers(len(CLOTH)))]
            if kind != "coin"
            else ((60, 150, 190), (170, 170, 170))[int(rng.integers(2))]
        )
        out.insert(
            0,
            Distractor(
                kind,
                float(p[0]),
                float(p[1]),
                float(rng.uniform(0, 360)),
                float(rng.uniform(*size)),
                colour,
                0.0,
                int(rng.integers(0, 1000)),
            ),
        )
    return tuple(out)
