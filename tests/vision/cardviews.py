"""Test helpers: card faces drawn with new art (not the renderer's), and synthetic views of a face on a table
with rotation, tilt and partial cover, with exact corners."""

from __future__ import annotations

import cv2
import numpy as np

from datasets import cardface
from datasets.scene import CardFace


def new_art(face: CardFace) -> np.ndarray:
    """The card as another printing might look: a green board with other traces and brighter bands, the same
    chips and point hexagon (the renderer's board is navy, seeded by the card id)."""
    img = cardface._board((40, 70, 20), (70, 120, 40), "new-art-" + face.id, (60, 140, 90))
    cardface._points_hexagon(img, face.points)
    cardface._requirements(img, face.text)
    return img


def view(face: np.ndarray, rng: np.random.Generator, *, cover: float = 0.0, tilt: float = 30.0,
         size: tuple[int, int] = (640, 480), width: float = 180.0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``face`` on a noisy table, turned at random, foreshortened up to ``tilt`` degrees along a random axis, and
    covered over about ``cover`` of its area by a skin-coloured blob (a hand) and a die. Returns the frame, the
    corners as read (TL, TR, BR, BL) and the card's box."""
    w, h = size
    table = np.empty((h, w, 3), np.uint8)
    table[:] = rng.integers(60, 200, 3)
    table = cv2.add(table, rng.normal(0, 6, table.shape).astype(np.int8), dtype=cv2.CV_8U)
    angle = rng.uniform(0, 2 * np.pi)
    fh, fw = face.shape[:2]
    local = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float64) * [width / 2, width / 2 * fh / fw]
    rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    pts = local @ rot.T
    # tilt: shrink along a random axis, more on the far side (perspective)
    axis = rng.uniform(0, 2 * np.pi)
    a = np.array([np.cos(axis), np.sin(axis)])
    t = np.radians(rng.uniform(0, tilt))
    along = pts @ a
    far = along / np.abs(along).max()
    pts = pts - np.outer(along * (1 - np.cos(t)), a)
    pts = pts * (1 - 0.15 * np.sin(t) * far)[:, None]
    corners = (pts + [w / 2 + rng.uniform(-60, 60), h / 2 + rng.uniform(-40, 40)]).astype(np.float32)
    src = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32) - 0.5
    m = cv2.getPerspectiveTransform(src, corners - 0.5)
    warped = cv2.warpPerspective(face, m, (w, h), flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.full((fh, fw), 255, np.uint8), m, (w, h))
    frame = np.where(mask[..., None] > 127, warped, table)
    if cover > 0:
        area = cv2.contourArea(corners)
        centre = corners.mean(0) + (corners[rng.integers(0, 4)] - corners.mean(0)) * 0.6
        r = np.sqrt(area * cover / np.pi)
        cv2.ellipse(frame, (int(centre[0]), int(centre[1])), (int(r * 1.3), int(r * 0.8)),
                    float(rng.uniform(0, 180)), 0, 360, (120, 150, 200), -1)
        die = corners.mean(0) + rng.uniform(-0.2, 0.2, 2) * width
        s = width * 0.09
        cv2.rectangle(frame, (int(die[0] - s), int(die[1] - s)), (int(die[0] + s), int(die[1] + s)), (40, 40, 200), -1)
    frame = cv2.GaussianBlur(frame, (0, 0), 0.6)
    box = np.array([*corners.min(0), *corners.max(0)], np.float32)
    return frame, corners, box
