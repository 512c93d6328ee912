"""Drawing a die as a rounded cube in perspective: top face and the visible sides, each a warped face
texture, with Lambert shading, a specular highlight, and the silhouette of its rounded edges."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from datasets import glyphs
from datasets.camera import Projector
from datasets.classes import die_kinds
from datasets.dieface import NORMALS, PIP_OPPOSITES, body_colour, body_faces, face_texture, face_up_vector, orientation
from datasets.frame import Frame
from datasets.geometry import polygon_area
from datasets.scene import DieLook, PlacedDie

_SIGNS = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)], np.float64)


@dataclass(frozen=True)
class DrawnDie:
    hull: np.ndarray
    """Silhouette polygon of the die (its rounded edges excluded), undistorted pixels."""
    radius: float
    """Edge rounding in pixels: the silhouette is ``hull`` grown by this much."""
    top: np.ndarray
    """Centre of the top face, undistorted pixels."""
    area: float
    depth: float


def parse_die(text: str) -> tuple[tuple[str, ...], int]:
    body, face = text[:-1], int(text[-1])
    return tuple(sorted(body.split("/"))), face


def _shrink(poly: np.ndarray, by: float) -> np.ndarray:
    c = poly.mean(axis=0)
    r = np.linalg.norm(poly - c, axis=1, keepdims=True)
    return c + (poly - c) * np.maximum(r - by, 0) / np.maximum(r, 1e-6)


def die_geometry(proj: Projector, x: float, y: float, z: float, yaw: float, size: float, look: DieLook) -> dict:
    c, s = np.cos(np.radians(yaw)), np.sin(np.radians(yaw))
    rz = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1.0]])
    centre = np.array([x, y, z + size / 2])
    r = look.rounding * size
    inner = centre + (_SIGNS * (size / 2 - r)) @ rz.T
    pts = proj.project(inner)
    hull = cv2.convexHull(pts.astype(np.float32)).reshape(-1, 2).astype(np.float64)
    ppm = proj.px_per_mm(centre)
    return {"rz": rz, "centre": centre, "r": r, "hull": hull, "r_px": r * ppm, "ppm": ppm}


def draw_die(
    frame: Frame,
    proj: Projector,
    die: PlacedDie,
    pose: tuple[float, float, float, float],
    look: DieLook,
    obj_id: int,
    light: np.ndarray,
    ambient: float,
) -> DrawnDie:
    x, y, z, yaw = pose
    size = look.size_mm
    colours, value = parse_die(die.die)
    g = die_geometry(proj, x, y, z, yaw, size, look)
    hull, r_px, centre = g["hull"], g["r_px"], g["centre"]
    top_px = proj.project(centre + [0, 0, size / 2])[0]
    area = (
        polygon_area(hull)
        + r_px * float(np.sum(np.linalg.norm(hull - np.roll(hull, 1, axis=0), axis=1)))
        + np.pi * r_px**2
    )
    depth = float(proj.to_camera(centre)[0, 2])
    drawn = DrawnDie(hull, r_px, top_px, area, depth)
    pad = int(np.ceil(r_px)) + 2
    x0, y0 = int(np.floor(hull[:, 0].min())) - pad, int(np.floor(hull[:, 1].min())) - pad
    x1, y1 = int(np.ceil(hull[:, 0].max())) + pad, int(np.ceil(hull[:, 1].max())) + pad
    if frame.clip(x0, y0, x1, y1) is None:
        return drawn
    w, h = x1 - x0, y1 - y0
    canvas = np.zeros((h, w, 3), np.uint8)
    alpha = np.zeros((h, w), np.uint8)
    local = hull - [x0, y0] - 0.5
    body = np.array(body_colour(look.family, colours[0], look.tint), np.float64)
    if len(colours) == 2:
        # a split die's rounded edges show either colour: use the darker for the thin silhouette band
        other = np.array(body_colour(look.family, colours[1], look.tint), np.float64)
        body = body if body.sum() < other.sum() else other
    top_shade = ambient + (1 - ambient) * max(0.0, light[2])

    def shade(n: np.ndarray) -> float:
        return float(np.clip((ambient + (1 - ambient) * max(0.0, float(n @ light))) / top_shade, 0.3, 1.2)) * die.tint

    edge = tuple(float(v) for v in np.clip(body * 0.8 * die.tint, 0, 255))
    # OpenCV's anti-aliased shapes come out about a pixel fatter than their outline: draw them thinner so
    # that the silhouette matches the label box (checked against a rendered mask in the tests)
    thick = int(round(2 * r_px - 1.5))
    inset = local if thick >= 1 else _shrink(local, 0.6)
    for img, colour in ((canvas, edge), (alpha, (255,))):
        glyphs.fill_poly(img, inset, colour)
        if thick >= 1:
            pts = np.round(local * 16).astype(np.int32).reshape(-1, 1, 2)
            cv2.polylines(img, [pts], True, colour, thick, cv2.LINE_AA, 4)
    # faces: top and the sides that face the camera
    opposites = PIP_OPPOSITES if look.faces == "pip" else die_kinds().get(colours, PIP_OPPOSITES)
    rot = g["rz"] @ orientation(opposites, value, die.turn)
    values = body_faces(opposites)
    # flat faces reach half-way into the rounded edges, so the edge band shows mostly at the outline
    e = size / 2 - 0.5 * g["r"]
    for index, normal_body in enumerate(NORMALS):
        n = rot @ normal_body
        if n[2] < -0.5:
            continue
        face_centre = centre + n * (size / 2)
        if float(n @ (proj.position - face_centre)) <= 0:
            continue
        up = rot @ face_up_vector(index)
        right = np.cross(up, n)
        quad = np.array(
            [
                face_centre + up * e - right * e,
                face_centre + up * e + right * e,
                face_centre - up * e + right * e,
                face_centre - up * e - right * e,
            ]
        )
        qpx = proj.project(quad) - [x0, y0] - 0.5
        side = float(np.max(np.linalg.norm(qpx - np.roll(qpx, 1, axis=0), axis=1)))
        levels = face_texture(colours, values[index], look.family, look.faces, look.ink, look.tint)
        tex = levels[0]
        for level in levels:
            if level.shape[0] >= side:
                tex = level
        f = shade(n)
        if abs(f - 1.0) > 0.01:
            tex = cv2.convertScaleAbs(tex, alpha=f)
        t = tex.shape[0]
        src = np.array([[0, 0], [t, 0], [t, t], [0, t]], np.float32) - 0.5
        m = cv2.getPerspectiveTransform(src, qpx.astype(np.float32))
        cv2.warpPerspective(tex, m, (w, h), dst=canvas, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_TRANSPARENT)
    if look.shine > 0.02:
        _highlight(canvas, alpha, proj, centre, size, light, look, x0, y0, r_px)
    frame.paste(x0, y0, canvas, alpha.astype(np.float32) * (1 / 255), obj_id)
    return drawn


def _highlight(
    canvas: np.ndarray,
    alpha: np.ndarray,
    proj: Projector,
    centre: np.ndarray,
    size: float,
    light: np.ndarray,
    look: DieLook,
    x0: int,
    y0: int,
    r_px: float,
) -> None:
    """Specular reflection of the light on the top face (mirror point of the light seen from the camera)."""
    top_z = centre[2] + size / 2
    cam = proj.position
    # point p on the top plane where the view ray reflects towards the light: V is L mirrored in the plane
    v = np.array([-light[0], -light[1], light[2]])
    t = (cam[2] - top_z) / max(v[2], 1e-3)
    p = cam - v * t
    off = p[:2] - centre[:2]
    lim = size * 0.45
    spread = 1.0 + float(np.linalg.norm(off)) / size
    p = np.array([centre[0] + np.clip(off[0], -lim, lim), centre[1] + np.clip(off[1], -lim, lim), top_z])
    q = proj.project(p)[0] - [x0, y0] - 0.5
    h, w = alpha.shape
    sigma = max(0.8, size * proj.px_per_mm(p) * 0.16 * spread)
    yy, xx = np.ogrid[0:h, 0:w]
    gain = look.shine * 0.8 / spread**2
    spot = np.exp(-(((xx - q[0]) ** 2 + (yy - q[1]) ** 2) / (2 * sigma * sigma))).astype(np.float32) * gain
    spot *= alpha.astype(np.float32) * (1 / 255)
    out = canvas.astype(np.float32)
    out += (255 - out) * spot[..., None]
    canvas[:] = out.astype(np.uint8)
