"""Pinhole camera above the table, plus radial lens distortion applied to the finished frame.

World: millimetres, table plane z = 0, x right, y away from the viewer, z up. Image: pixels, y down.
Distortion is a final remap of the whole frame; ``distort`` moves points (labels) the same way.
"""

from __future__ import annotations

import math
from functools import cached_property

import numpy as np

from datasets.scene import Camera


def _rot_z(deg: float) -> np.ndarray:
    c, s = math.cos(math.radians(deg)), math.sin(math.radians(deg))
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


class Projector:
    """Projects world points into the (undistorted) image of ``camera``."""

    def __init__(self, camera: Camera) -> None:
        self.camera = camera
        t = math.radians(camera.tilt)
        # camera axes in world coordinates: x right, y down the image, z forward (optical axis)
        cx = np.array([1.0, 0.0, 0.0])
        cy = np.array([0.0, -math.cos(t), -math.sin(t)])
        cz = np.array([0.0, math.sin(t), -math.cos(t)])
        yaw = _rot_z(camera.yaw)
        cx, cy, cz = yaw @ cx, yaw @ cy, yaw @ cz
        r = math.radians(camera.roll)
        cx, cy = math.cos(r) * cx + math.sin(r) * cy, -math.sin(r) * cx + math.cos(r) * cy
        self.axes = np.stack([cx, cy, cz])  # world -> camera rotation (rows)
        target = np.array([camera.target[0], camera.target[1], 0.0])
        self.position = target - camera.distance * cz
        self.f = camera.focal
        self.c = np.array([camera.width / 2, camera.height / 2])

    def to_camera(self, pts: np.ndarray) -> np.ndarray:
        return (np.asarray(pts, np.float64).reshape(-1, 3) - self.position) @ self.axes.T

    def project(self, pts: np.ndarray) -> np.ndarray:
        """(N, 3) world points -> (N, 2) undistorted pixel coordinates."""
        cam = self.to_camera(pts)
        z = np.maximum(cam[:, 2], 1e-6)
        return cam[:, :2] * (self.f / z)[:, None] + self.c

    def px_per_mm(self, point: np.ndarray) -> float:
        """Image scale (pixels per millimetre) of a small object at ``point``."""
        return float(self.f / max(self.to_camera(point)[0, 2], 1e-6))

    def plane_homography(self, z: float = 0.0) -> np.ndarray:
        """3x3 homography from table-plane (x, y) at height z to undistorted pixels."""
        k = np.array([[self.f, 0, self.c[0]], [0, self.f, self.c[1]], [0, 0, 1.0]])
        r = self.axes
        t = -r @ self.position
        m = np.column_stack([r[:, 0], r[:, 1], r[:, 2] * z + t])
        return k @ m

    def to_plane(self, px: np.ndarray, z: float = 0.0) -> np.ndarray:
        """(N, 2) undistorted pixels -> (N, 2) table points at height z."""
        h = np.linalg.inv(self.plane_homography(z))
        pts = np.column_stack([np.asarray(px, np.float64).reshape(-1, 2), np.ones(len(px))]) @ h.T
        return pts[:, :2] / pts[:, 2:3]

    # ------------------------------------------------------------ lens distortion
    @cached_property
    def _norm(self) -> float:
        return float(math.hypot(*self.c))

    @property
    def _s(self) -> float:
        # scale so that every output pixel samples inside the drawn frame: barrel keeps the corners fixed
        return 1.0 / (1.0 + self.camera.k1) if self.camera.k1 > 0 else 1.0

    def distort(self, px: np.ndarray) -> np.ndarray:
        """Undistorted pixel positions -> where they appear in the distorted (final) frame."""
        pts = np.asarray(px, np.float64).reshape(-1, 2)
        k = self.camera.k1
        if k == 0.0:
            return pts.copy()
        d = (pts - self.c) / self._norm
        ru = np.hypot(d[:, 0], d[:, 1])
        rd = ru / self._s
        for _ in range(12):
            rd = ru / (self._s * (1.0 + k * rd * rd))
        scale = np.where(ru > 1e-9, rd / np.maximum(ru, 1e-9), 1.0 / self._s)
        return self.c + d * scale[:, None] * self._norm

    def remap_maps(self) -> tuple[np.ndarray, np.ndarray] | None:
        """cv2.remap maps (float32, one per axis) for the distortion, or None without distortion."""
        k = self.camera.k1
        if k == 0.0:
            return None
        w, h = self.camera.width, self.camera.height
        # pixel i's centre is at i + 0.5 in the continuous coordinates that ``distort`` uses
        dx = ((np.arange(w, dtype=np.float32) + 0.5 - np.float32(self.c[0])) / np.float32(self._norm))[None, :]
        dy = ((np.arange(h, dtype=np.float32) + 0.5 - np.float32(self.c[1])) / np.float32(self._norm))[:, None]
        factor = np.float32(self._s) * (np.float32(1.0) + np.float32(k) * (dx * dx + dy * dy))
        mx = np.float32(self.c[0] - 0.5) + dx * np.float32(self._norm) * factor
        my = np.float32(self.c[1] - 0.5) + dy * np.float32(self._norm) * factor
        return mx, my
