"""Finding a card's four corners inside its detection box, and rectifying the face to a canonical image.

The detector gives axis-aligned boxes only. Inside a slightly grown box the card is the one large region whose
colours are common inside the box and rare in the ring just outside it (table, with at most bits of neighbouring
cards). A colour-histogram back-projection of those two samples
separates card from table on any table colour; the card's outline is then fitted with four robust lines, so
rounded corners, a die over an edge or a finger on the card move a corner little.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.errors import VisionError

FACE_W_MM, FACE_H_MM = 88.0, 63.0
ASPECT = FACE_W_MM / FACE_H_MM
WORK_PX = 160
"""Long side of the box after downscaling for segmentation: big enough for ~1 px corners at 720p, cheap."""
MIN_BOX_PX = 12
MAX_ELONGATION = 3.0
"""Longest a found outline may be for its width (mean long side over mean short side): whole cards measured
1.26-2.42 in 2,867 views of 18 rendered games (88:63 seen at up to 40 degrees of tilt); a strip of patterned table
at the frame's edge boxed as a card, 3.5."""


def order_corners(quad: np.ndarray) -> np.ndarray:
    """Four points in clockwise image order starting from a long side: ``q[0]→q[1]`` is a long side (the card's
    top edge when it is read one way up; the 180° turn is left to identification)."""
    q = np.asarray(quad, np.float64).reshape(4, 2)
    centre = q.mean(0)
    q = q[np.argsort(np.arctan2(q[:, 1] - centre[1], q[:, 0] - centre[0]))]  # clockwise in image (y down)
    sides = np.linalg.norm(q - np.roll(q, -1, 0), axis=1)
    if sides[0] + sides[2] < sides[1] + sides[3]:
        q = np.roll(q, -1, 0)
    # of the two long-side starts, prefer the one whose top edge is higher in the image (a card read upright)
    if q[0, 1] + q[1, 1] > q[2, 1] + q[3, 1]:
        q = np.roll(q, 2, 0)
    return q.astype(np.float32)


def rotations(corners: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The two readings of a card's corners: as given and turned by 180°."""
    c = np.asarray(corners, np.float32).reshape(4, 2)
    return c, np.roll(c, 2, 0)


def cut_to(corners: np.ndarray, length: float, from_end: bool) -> np.ndarray | None:
    """The outline ``corners`` (``order_corners``'s order) cut along its long sides to ``length`` pixels, kept at
    the end where they start (``q[0]``, ``q[3]``) or, ``from_end``, where they end: one card of two laid partly
    over each other, outlined as one. None unless ``length`` is shorter than both long sides."""
    q = np.asarray(corners, np.float32).reshape(4, 2).copy()
    tops, bottoms = (q[0], q[1]), (q[3], q[2])
    if from_end:
        tops, bottoms = tops[::-1], bottoms[::-1]
    cut = []
    for start, end in (tops, bottoms):
        side = float(np.linalg.norm(end - start))
        if side <= length:
            return None
        cut.append(start + (end - start) * (length / side))
    if from_end:
        q[0], q[3] = cut
    else:
        q[1], q[2] = cut
    return q


def rectify(frame: np.ndarray, corners: np.ndarray, width: int, height: int | None = None) -> np.ndarray:
    """The face warped to ``width`` x ``height`` (default the 88:63 aspect), corners TL, TR, BR, BL."""
    height = height or int(round(width / ASPECT))
    dst = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32) - 0.5
    m = cv2.getPerspectiveTransform(np.asarray(corners, np.float32).reshape(4, 2) - 0.5 + 0.5, dst)
    return cv2.warpPerspective(frame, m, (width, height), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


def _posterior(
    crop: np.ndarray, inner: tuple[int, int, int, int], box: tuple[int, int, int, int]
) -> np.ndarray | None:
    """Per-pixel probability of being card, from colour histograms of the box centre (card) and the ring
    outside the box (table)."""
    h, w = crop.shape[:2]
    hsv = cv2.cvtColor(crop, cv2.COLOR_BGR2HSV)
    # hue matters only where there is colour; fold dark and grey pixels into value-only bins
    ring = np.ones((h, w), np.uint8)
    x0, y0, x1, y1 = box
    ring[y0:y1, x0:x1] = 0
    centre = np.zeros((h, w), np.uint8)
    ix0, iy0, ix1, iy1 = inner
    centre[iy0:iy1, ix0:ix1] = 1
    # bins: 18 hues x 8 saturations x 8 values, counted with numpy (cv2.calcBackProject misreads 3-D float hists)
    idx = (hsv[..., 0].astype(np.int32) // 10) * 64 + (hsv[..., 1] // 32).astype(np.int32) * 8 + hsv[..., 2] // 32
    fg = np.bincount(idx[centre > 0], minlength=18 * 64).astype(np.float32)
    bg = np.bincount(idx[ring > 0], minlength=18 * 64).astype(np.float32)
    fg = cv2.GaussianBlur(fg.reshape(18, 64), (1, 3), 0).ravel()
    bg = cv2.GaussianBlur(bg.reshape(18, 64), (1, 3), 0).ravel()
    fg, bg = fg / max(1e-6, float(fg.sum())), bg / max(1e-6, float(bg.sum()))
    if float(np.sqrt(fg * bg).sum()) > 0.9:
        return None  # the box looks like its surroundings (a blank frame, a box on bare table): no card
    ratio = fg / (fg + bg + 1e-4)
    post = (ratio[idx] * 255).astype(np.float32)
    return cv2.GaussianBlur(post, (5, 5), 0)


def _fit_lines(contour: np.ndarray, rect: np.ndarray) -> np.ndarray | None:
    """Corners from four lines fitted to the contour points near each side of ``rect`` (a first guess)."""
    quad = rect.astype(np.float64)
    pts = contour.reshape(-1, 2).astype(np.float64)
    for _ in range(2):
        lines = []
        for k in range(4):
            p, q = quad[k], quad[(k + 1) % 4]
            d = q - p
            length = float(np.hypot(*d))
            if length < 3:
                return None
            d /= length
            n = np.array([-d[1], d[0]])
            along = (pts - p) @ d
            off = np.abs((pts - p) @ n)
            near = (along > 0.12 * length) & (along < 0.88 * length) & (off < max(2.5, 0.08 * length))
            if near.sum() < 5:
                lines.append((p, d))
                continue
            vx, vy, x0, y0 = cv2.fitLine(pts[near].astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
            lines.append((np.array([x0, y0]), np.array([vx, vy])))
        new = []
        for k in range(4):
            (p1, d1), (p2, d2) = lines[k - 1], lines[k]
            a = np.array([d1, -d2]).T
            if abs(np.linalg.det(a)) < 1e-6:
                return None
            t = np.linalg.solve(a, p2 - p1)
            new.append(p1 + t[0] * d1)
        quad = np.array(new)
    return quad


def find_corners(frame: np.ndarray, box: tuple[float, float, float, float] | np.ndarray) -> np.ndarray | None:
    """The card's four corners (float32 (4, 2), frame pixels, clockwise with a long side first: see
    ``order_corners``) inside detection ``box`` = x1, y1, x2, y2; None when no card-shaped region is found."""
    if frame is None or frame.ndim != 3 or frame.shape[2] != 3:
        raise VisionError(f"find_corners needs an H x W x 3 BGR frame, got {getattr(frame, 'shape', type(frame))}")
    fh, fw = frame.shape[:2]
    x1, y1, x2, y2 = (float(v) for v in np.asarray(box, np.float64).reshape(4))
    bw, bh = x2 - x1, y2 - y1
    if not (bw >= MIN_BOX_PX and bh >= MIN_BOX_PX):
        return None
    grow = max(4.0, 0.1 * max(bw, bh))
    cx0, cy0 = int(max(0, np.floor(x1 - grow))), int(max(0, np.floor(y1 - grow)))
    cx1, cy1 = int(min(fw, np.ceil(x2 + grow))), int(min(fh, np.ceil(y2 + grow)))
    scale = min(1.0, WORK_PX / max(cx1 - cx0, cy1 - cy0))
    crop = frame[cy0:cy1, cx0:cx1]
    if scale < 1.0:
        crop = cv2.resize(crop, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    h, w = crop.shape[:2]

    def to_crop(x: float, y: float) -> tuple[int, int]:
        return int(round((x - cx0) * scale)), int(round((y - cy0) * scale))

    bx0, by0 = to_crop(x1, y1)
    bx1, by1 = to_crop(x2, y2)
    bx0, by0, bx1, by1 = max(0, bx0), max(0, by0), min(w, bx1), min(h, by1)
    mx, my = (bx0 + bx1) / 2, (by0 + by1) / 2
    rx, ry = 0.42 * (bx1 - bx0), 0.42 * (by1 - by0)
    inner = (int(mx - rx), int(my - ry), int(np.ceil(mx + rx)), int(np.ceil(my + ry)))
    if bx0 <= 0 and by0 <= 0 and bx1 >= w and by1 >= h:
        return None  # no table around the box to learn from (the box fills the frame)
    post = _posterior(crop, inner, (bx0, by0, bx1, by1))
    if post is None:
        return None
    mask = (post > 127).astype(np.uint8)
    keep = np.zeros_like(mask)
    keep[max(0, by0 - 1) : by1 + 1, max(0, bx0 - 1) : bx1 + 1] = 1  # the card lies inside its box
    mask &= keep
    k = max(3, int(round(0.04 * max(bx1 - bx0, by1 - by0))) | 1)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3)))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        return None
    contour = max(contours, key=cv2.contourArea)
    area = cv2.contourArea(contour)
    if area < 0.3 * (bx1 - bx0) * (by1 - by0) * 0.5:
        return None
    hull = cv2.convexHull(contour)
    rect = cv2.boxPoints(cv2.minAreaRect(hull))
    quad = _fit_lines(hull_points(hull), order_corners(rect))
    if quad is None:
        quad = rect
    quad = quad / scale + np.array([cx0, cy0])
    # a quad far outside its box is a failed fit, not a card
    slack = 0.15 * max(bw, bh)
    if (quad[:, 0] < x1 - slack).any() or (quad[:, 0] > x2 + slack).any():
        return None
    if (quad[:, 1] < y1 - slack).any() or (quad[:, 1] > y2 + slack).any():
        return None
    quad = order_corners(quad)
    sides = np.linalg.norm(quad - np.roll(quad, -1, 0), axis=1)
    if sides[0] + sides[2] > MAX_ELONGATION * (sides[1] + sides[3]):
        return None  # far too long for its width: no card
    return quad


def hull_points(hull: np.ndarray, step: float = 1.0) -> np.ndarray:
    """Points every ``step`` pixels along a closed polygon (a hull has few vertices; line fits need many)."""
    poly = hull.reshape(-1, 2).astype(np.float64)
    out = []
    for p, q in zip(poly, np.roll(poly, -1, 0)):
        n = max(1, int(np.hypot(*(q - p)) / step))
        t = np.arange(n)[:, None] / n
        out.append(p + t * (q - p))
    return np.concatenate(out) if out else poly
