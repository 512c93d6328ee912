"""Drawing distractors: hands and arms (hovering, so their soft shadows fall apart from them), the dice
bag, coins, pencils, phones, score pads and mugs. Shapes are built in table millimetres and projected."""

from __future__ import annotations

import math

import cv2
import numpy as np

from datasets import glyphs
from datasets.camera import Projector
from datasets.distract import CLOTH
from datasets.frame import Frame
from datasets.geometry import rot
from datasets.scene import Distractor


def _world(d: Distractor, pts: list[tuple[float, float]] | np.ndarray) -> np.ndarray:
    return np.array([rot(px, py, d.angle) for px, py in pts]) + [d.x, d.y]


def _project(proj: Projector, pts: np.ndarray, z: float | np.ndarray) -> np.ndarray:
    zz = np.broadcast_to(np.asarray(z, np.float64), (len(pts),))
    return proj.project(np.column_stack([pts, zz]))


def _box(frame: Frame, pts: np.ndarray, pad: float) -> tuple[int, int, int, int] | None:
    x0, y0 = int(np.floor(pts[:, 0].min() - pad)), int(np.floor(pts[:, 1].min() - pad))
    x1, y1 = int(np.ceil(pts[:, 0].max() + pad)), int(np.ceil(pts[:, 1].max() + pad))
    box = frame.clip(x0, y0, x1, y1)
    if box is None or (box[2] - box[0]) * (box[3] - box[1]) > 6_000_000:
        return None
    return box


def _shadow_of(
    frame: Frame, alpha: np.ndarray, x0: int, y0: int, shift: np.ndarray, sigma: float, strength: float
) -> None:
    """Darken the frame under ``alpha`` moved by ``shift`` pixels and blurred (a soft cast shadow)."""
    h, w = alpha.shape
    scale = min(1.0, 4.0 / max(sigma, 1e-3))
    sw, sh = max(2, int(w * scale)), max(2, int(h * scale))
    small = cv2.resize(alpha, (sw, sh), interpolation=cv2.INTER_AREA) if scale < 1 else alpha.copy()
    m = np.float32([[1, 0, shift[0] * scale], [0, 1, shift[1] * scale]])
    small = cv2.warpAffine(small, m, (sw, sh))
    small = cv2.GaussianBlur(small, (0, 0), max(0.5, sigma * scale))
    if scale < 1:
        small = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    frame.darken(x0, y0, small * strength)


def _finger(img: np.ndarray, base: np.ndarray, tip: np.ndarray, width: float) -> None:
    """A finger: tapering from ``base`` to a rounded ``tip``."""
    d = tip - base
    n = np.array([-d[1], d[0]]) / max(float(np.hypot(*d)), 1e-6)
    wb, wt = width / 2, width * 0.4
    glyphs.fill_poly(img, [base + n * wb, tip + n * wt, tip - n * wt, base - n * wb], (255,))
    glyphs.circle(img, (tip[0], tip[1]), wt, (255,))
    glyphs.circle(img, (base[0], base[1]), wb, (255,))


def _capsule(img: np.ndarray, p: np.ndarray, q: np.ndarray, width: float, colour: tuple) -> None:
    glyphs.line(img, (p[0], p[1]), (q[0], q[1]), colour, width)


def draw_hand(frame: Frame, proj: Projector, d: Distractor, obj_id: int, light: np.ndarray, shadow: float) -> None:
    s = d.size
    pose = d.variant % 3
    z = d.height
    palm_c = np.array([0.0, 0.0])
    # in the hand's own frame: +x points from the arm towards the fingertips
    fingers = []
    lengths = {0: (0.8, 0.95, 0.9, 0.7), 1: (0.35, 0.38, 0.36, 0.3), 2: (0.95, 0.35, 0.33, 0.3)}[pose]
    for k, length in enumerate(lengths):
        off = (k - 1.5) * s * 0.23
        spread = math.radians((k - 1.5) * (9 if pose == 0 else 3))
        base = np.array([s * 0.45, off])
        tip = base + s * length * np.array([math.cos(spread), math.sin(spread)])
        fingers.append((base, tip, s * (0.2 if k < 3 else 0.17)))
    thumb_base = np.array([s * 0.1, s * 0.42])
    thumb_tip = thumb_base + s * 0.5 * np.array([math.cos(0.9), math.sin(0.9)])
    # the arm reaches back until it leaves the frame, rising a little towards the shoulder
    reach = s * 2.0
    cam = proj.camera
    while reach < 3000:
        p = _project(proj, _world(d, [(-reach, 0.0)]), z + min(60.0, reach * 0.1))[0]
        margin = s * proj.px_per_mm(np.array([d.x, d.y, z]))
        if not (-margin < p[0] < cam.width + margin and -margin < p[1] < cam.height + margin):
            break
        reach += 40.0
    arm_end = np.array([-reach - s, 0.0])
    pts_local = [palm_c, arm_end, thumb_tip] + [f[1] for f in fingers]
    world = _world(d, [tuple(p) for p in pts_local])
    heights = np.array([z, z + min(60.0, reach * 0.1), z] + [z] * len(fingers))
    img_pts = _project(proj, world, heights)
    ppm = proj.px_per_mm(np.array([d.x, d.y, z]))
    box = _box(frame, img_pts, s * ppm * 0.6)
    if box is None:
        return
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    skin = np.array(d.colour, np.float64)
    sleeve = np.array(CLOTH[(d.variant // 3) % len(CLOTH)], np.float64)
    # drawn at a reduced size (hands are soft, out of focus) and enlarged: big hands cost no more than small
    k = min(1.0, 260.0 / max(w, h))
    sw, sh = max(2, int(round(w * k))), max(2, int(round(h * k)))
    skin_m = np.zeros((sh, sw), np.uint8)
    sleeve_m = np.zeros((sh, sw), np.uint8)
    pk = ppm * k

    def to_img(p_local: np.ndarray, height: float) -> np.ndarray:
        return (_project(proj, _world(d, [tuple(p_local)]), height)[0] - [x0, y0]) * k - 0.5

    palm = [
        to_img(palm_c + s * 0.5 * np.array([math.cos(a) * 0.95, math.sin(a) * 0.88]), z)
        for a in np.linspace(0, 2 * np.pi, 24)
    ]
    wrist, elbow = to_img(np.array([-s * 0.6, 0.0]), z + 2.0), to_img(np.array([-s * 2.2, 0.0]), z + 8.0)
    shoulder = (img_pts[1] - [x0, y0]) * k - 0.5
    glyphs.fill_poly(skin_m, np.array(palm), (255,))
    _capsule(skin_m, to_img(palm_c, z), wrist, s * 0.62 * pk, (255,))
    _capsule(skin_m, wrist, elbow, s * 0.68 * pk, (255,))
    for base, tip, width in fingers:
        _finger(skin_m, to_img(base, z), to_img(tip, z), width * pk)
    _finger(skin_m, to_img(thumb_base, z), to_img(thumb_tip, z), s * 0.21 * pk)
    _capsule(sleeve_m, elbow * 0.75 + wrist * 0.25, shoulder, s * 1.05 * pk, (255,))
    skin_m[sleeve_m > 0] = 0
    # rounded shading: darker towards each shape's outline (limbs are cylinders), lit from one side
    canvas = np.zeros((sh, sw, 3), np.float32)
    for mask, colour, radius in ((skin_m, skin, s * 0.1 * pk), (sleeve_m, sleeve, s * 0.3 * pk)):
        if not mask.any():
            continue
        dist = cv2.distanceTransform(mask, cv2.DIST_L2, 3)
        rounded = np.sqrt(np.minimum(dist * (1.0 / max(radius, 1.0)), 1.0))
        canvas += ((mask > 0) * (0.62 + 0.38 * rounded))[..., None] * colour.astype(np.float32)[None, None, :]
    alpha = ((skin_m | sleeve_m) > 0).astype(np.float32)
    yy, xx = np.ogrid[0:sh, 0:sw]
    lx, ly = light[0], -light[1]
    ramp = 0.88 + 0.18 * np.clip(((xx - sw / 2) * lx + (yy - sh / 2) * ly) / max(sw, sh) + 0.5, 0, 1)
    shaded = np.clip(canvas * ramp[..., None].astype(np.float32), 0, 255).astype(np.uint8)
    # hands are nearer the lens than the table: slightly out of focus
    alpha = cv2.GaussianBlur(alpha, (0, 0), max(0.4, pk * 0.5))
    shaded = cv2.GaussianBlur(shaded, (0, 0), max(0.4, pk * 0.35))
    if k < 1.0:
        alpha = cv2.resize(alpha, (w, h), interpolation=cv2.INTER_LINEAR)
        shaded = cv2.resize(shaded, (w, h), interpolation=cv2.INTER_LINEAR)
    cast = _project(proj, np.array([[d.x, d.y]]) - light[:2] / max(light[2], 0.25) * z, 0.0)[0]
    at_hand = _project(proj, np.array([[d.x, d.y]]), z)[0]
    _shadow_of(frame, alpha, x0, y0, cast - at_hand, ppm * (3 + z * 0.15), shadow * 0.9)
    frame.paste(x0, y0, shaded, alpha, obj_id)


def _flat(
    frame: Frame,
    proj: Projector,
    d: Distractor,
    outline: np.ndarray,
    z: float,
    obj_id: int,
    light: np.ndarray,
    shadow: float,
    paint,
) -> None:  # noqa: ANN001
    """Draw a flat object given its outline (table mm, object frame); ``paint(canvas, to_px)`` adds detail."""
    world = _world(d, outline)
    pts = _project(proj, world, z)
    ppm = proj.px_per_mm(np.array([d.x, d.y, z]))
    box = _box(frame, pts, ppm * 6 + 4)
    if box is None:
        return
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    alpha = np.zeros((h, w), np.float32)
    canvas = np.zeros((h, w, 3), np.uint8)
    local = pts - [x0, y0] - 0.5
    glyphs.fill_poly(alpha, local, (1.0,))
    glyphs.fill_poly(canvas, local, d.colour)

    def to_px(p: np.ndarray, height: float = z) -> np.ndarray:
        return _project(proj, _world(d, np.atleast_2d(p)), height) - [x0, y0] - 0.5

    paint(canvas, to_px, ppm)
    centre = np.array([[d.x, d.y]])
    cast = _project(proj, centre - light[:2] / max(light[2], 0.25) * max(z, 1.0), 0.0)[0]
    _shadow_of(frame, alpha, x0, y0, cast - _project(proj, centre, z)[0], ppm * 2.0, shadow * 0.8)
    frame.paste(x0, y0, canvas, alpha, obj_id)


def _ellipse(rx: float, ry: float, n: int = 32, wobble: np.ndarray | None = None) -> np.ndarray:
    a = np.linspace(0, 2 * np.pi, n, endpoint=False)
    k = 1.0 if wobble is None else wobble
    return np.column_stack([rx * np.cos(a) * k, ry * np.sin(a) * k])


def draw_prop(frame: Frame, proj: Projector, d: Distractor, obj_id: int, light: np.ndarray, shadow: float) -> None:
    rng = np.random.default_rng(d.variant)
    s = d.size
    if d.kind == "hand":
        draw_hand(frame, proj, d, obj_id, light, shadow)
    elif d.kind == "bag":
        draw_bag(frame, proj, d, obj_id, light, shadow, rng)
    elif d.kind == "coin":

        def coin(canvas: np.ndarray, to_px, ppm: float) -> None:  # noqa: ANN001
            ring = to_px(_ellipse(s * 0.42, s * 0.42, 24))
            cv2.polylines(
                canvas,
                [np.round(ring * 16).astype(np.int32)],
                True,
                tuple(int(c * 0.7) for c in d.colour),
                max(1, int(ppm)),
                cv2.LINE_AA,
                4,
            )
            glyphs.circle(
                canvas,
                tuple(to_px(np.array([-s * 0.12, s * 0.12]))[0]),
                s * 0.12 * ppm,
                tuple(min(255, c + 60) for c in d.colour),
            )

        _flat(frame, proj, d, _ellipse(s / 2, s / 2, 28), 1.8, obj_id, light, shadow, coin)
    elif d.kind == "pencil":
        half, r = s / 2, 3.6

        def pencil(canvas: np.ndarray, to_px, ppm: float) -> None:  # noqa: ANN001
            dark = tuple(int(c * 0.7) for c in d.colour)
            glyphs.fill_poly(
                canvas, to_px(np.array([[-half, -r], [half - 18, -r], [half - 18, -r / 3], [-half, -r / 3]])), dark
            )
            glyphs.fill_poly(canvas, to_px(np.array([[half - 18, -r], [half, 0], [half - 18, r]])), (150, 190, 220))
            glyphs.fill_poly(canvas, to_px(np.array([[half - 5, -1], [half, 0], [half - 5, 1]])), (50, 50, 50))
            glyphs.fill_poly(
                canvas, to_px(np.array([[-half, -r], [-half + 8, -r], [-half + 8, r], [-half, r]])), (150, 140, 230)
            )

        _flat(
            frame,
            proj,
            d,
            np.array([[-half, -r], [half - 18, -r], [half, 0], [half - 18, r], [-half, r]]),
            3.6,
            obj_id,
            light,
            shadow,
            pencil,
        )
    elif d.kind == "phone":
        hl, hw = s / 2, s * 0.24

        def phone(canvas: np.ndarray, to_px, ppm: float) -> None:  # noqa: ANN001
            glyphs.fill_poly(
                canvas,
                to_px(np.array([[-hl + 4, -hw + 3], [hl - 4, -hw + 3], [hl - 4, hw - 3], [-hl + 4, hw - 3]])),
                (25, 22, 22),
            )
            glyphs.fill_poly(
                canvas,
                to_px(np.array([[-hl * 0.3, -hw + 3], [hl * 0.1, -hw + 3], [-hl * 0.2, hw - 3], [-hl * 0.6, hw - 3]])),
                (70, 68, 66),
            )

        _flat(frame, proj, d, np.array([[-hl, -hw], [hl, -hw], [hl, hw], [-hl, hw]]), 8.0, obj_id, light, shadow, phone)
    elif d.kind == "pad":
        hl, hw = s / 2, s * 0.36
        d2 = Distractor(d.kind, d.x, d.y, d.angle, d.size, (238, 240, 242), d.height, d.variant)

        def pad(canvas: np.ndarray, to_px, ppm: float) -> None:  # noqa: ANN001
            for k in range(1, 10):
                yv = -hw + k * 2 * hw / 10
                p, q = to_px(np.array([[-hl + 4, yv], [hl - 4, yv]]))
                glyphs.line(canvas, p, q, (220, 190, 170), max(1.0, ppm * 0.4))
            for _ in range(5):
                xs = np.linspace(-hl + 10, rng.uniform(-hl + 20, hl - 10), 8)
                ys = rng.uniform(-hw + 6, hw - 6) + rng.normal(0, 1.2, 8)
                line = to_px(np.column_stack([xs, ys]))
                cv2.polylines(
                    canvas,
                    [np.round(line * 16).astype(np.int32)],
                    False,
                    (110, 50, 30),
                    max(1, int(ppm * 0.7)),
                    cv2.LINE_AA,
                    4,
                )

        _flat(frame, proj, d2, np.array([[-hl, -hw], [hl, -hw], [hl, hw], [-hl, hw]]), 0.8, obj_id, light, shadow, pad)
    elif d.kind == "mug":
        r, height = s / 2, s * 1.15
        ring = _world(d, _ellipse(r, r, 32))
        pts = np.vstack([_project(proj, ring, 0.0), _project(proj, ring, height)])
        hull = cv2.convexHull(pts.astype(np.float32)).reshape(-1, 2).astype(np.float64)

        def mug(canvas: np.ndarray, to_px, ppm: float) -> None:  # noqa: ANN001
            rim = to_px(_ellipse(r, r, 32), height)
            glyphs.fill_poly(canvas, rim, tuple(min(255, int(c * 1.2 + 20)) for c in d.colour))
            glyphs.fill_poly(canvas, to_px(_ellipse(r * 0.85, r * 0.85, 32), height - 8), (30, 45, 70))

        # the mug's outline is its projected cylinder: draw it via a one-off distractor outline in pixels
        local = proj.to_plane(hull, 0.0)
        inv = np.array([rot(px - d.x, py - d.y, -d.angle) for px, py in local])
        _flat(frame, proj, d, inv, 0.0, obj_id, light, shadow, mug)


def draw_bag(
    frame: Frame,
    proj: Projector,
    d: Distractor,
    obj_id: int,
    light: np.ndarray,
    shadow: float,
    rng: np.random.Generator,
) -> None:
    """The cloth dice bag lying on its side: a soft pouch, gathered at the neck, with a drawstring."""
    s = d.size
    n = 48
    a = np.linspace(0, 2 * np.pi, n, endpoint=False)
    wob = 1 + 0.06 * np.sin(a * 3 + rng.uniform(0, 6)) + 0.04 * np.sin(a * 5 + rng.uniform(0, 6))
    body = np.column_stack([s * 0.42 * np.cos(a) * wob - s * 0.08, s * 0.36 * np.sin(a) * wob])
    neck = np.column_stack([s * 0.12 * np.cos(a) + s * 0.38, s * 0.1 * np.sin(a)])
    ruffle = np.column_stack(
        [s * 0.09 * np.cos(a) * (1 + 0.25 * np.sin(a * 7)) + s * 0.5, s * 0.16 * np.sin(a) * (1 + 0.25 * np.sin(a * 7))]
    )
    height = 30.0
    parts = [_project(proj, _world(d, poly), height) for poly in (body, neck, ruffle)]
    ppm = proj.px_per_mm(np.array([d.x, d.y, height]))
    box = _box(frame, np.vstack(parts), ppm * 10 + 4)
    if box is None:
        return
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    mask = np.zeros((h, w), np.uint8)
    for poly in parts:
        glyphs.fill_poly(mask, poly - [x0, y0] - 0.5, (255,))
    # soft, rounded cloth: shading from the distance to the outline, folds as darker creases, fabric grain
    dist = cv2.distanceTransform(mask, cv2.DIST_L2, 3)
    rounded = np.sqrt(np.minimum(dist / max(s * ppm * 0.18, 1.0), 1.0))
    crease = np.zeros((h, w), np.float32)
    for _ in range(5):
        t = np.linspace(-0.35, 0.3, 12) * s
        bend = rng.uniform(-0.25, 0.25) * s
        yy = rng.uniform(-0.25, 0.25) * s + bend * np.sin(np.linspace(0, np.pi, 12))
        pts = _project(proj, _world(d, np.column_stack([t, yy])), height) - [x0, y0] - 0.5
        cv2.polylines(crease, [np.round(pts * 16).astype(np.int32)], False, 1.0, max(1, int(ppm * 2)), cv2.LINE_AA, 4)
    crease = cv2.GaussianBlur(crease, (0, 0), max(0.8, ppm * 1.5))
    grain = _noise_patch(h, w, d.variant) * 0.06
    shade = (0.55 + 0.45 * rounded) * (1 - 0.35 * crease) * (1 + grain)
    canvas = np.clip(shade[..., None] * np.array(d.colour, np.float32)[None, None, :] + 6, 0, 255).astype(np.uint8)
    cord = (
        _project(
            proj,
            _world(d, np.column_stack([s * 0.5 + s * 0.2 * np.cos(a[::3]) + s * 0.15, s * 0.22 * np.sin(a[::3])])),
            height * 0.3,
        )
        - [x0, y0]
        - 0.5
    )
    cv2.polylines(
        canvas, [np.round(cord * 16).astype(np.int32)], True, (175, 175, 185), max(1, int(ppm * 1.6)), cv2.LINE_AA, 4
    )
    cv2.polylines(mask, [np.round(cord * 16).astype(np.int32)], True, 255, max(1, int(ppm * 1.6)), cv2.LINE_AA, 4)
    alpha = mask.astype(np.float32) * (1 / 255)
    centre = np.array([[d.x, d.y]])
    cast = _project(proj, centre - light[:2] / max(light[2], 0.25) * height * 0.6, 0.0)[0]
    _shadow_of(frame, alpha, x0, y0, cast - _project(proj, centre, height)[0], ppm * 4.0, shadow * 0.8)
    frame.paste(x0, y0, canvas, alpha, obj_id)


def _noise_patch(h: int, w: int, seed: int) -> np.ndarray:
    small = np.random.default_rng(seed).standard_normal((max(2, h // 2), max(2, w // 2))).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
