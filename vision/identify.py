"""Which card a face is: a small colour grid of the rectified face, compared with a gallery of known cards.

Why a grid and not keypoints: the face is already rectified by its corners, so a 64 x 48 Lab image compared cell
by cell is invariant to rotation and tilt, costs ~1 ms for the whole gallery, stores in 9 KB per card, and sees
the flat colour cues (point hexagon, chip colours) that ORB keypoints ignore; a card 120 px wide in a 720p frame
gives too few keypoints to match reliably (see tests/vision/test_identify.py for the measured figures).

Partial cover (a hand, dice): a cell that no gallery card explains is taken as covered and left out for every
candidate alike, so covering a card lowers the evidence without favouring any card. A card is named only when
its distance is under ``ACCEPT`` and the next other card is at least ``MARGIN`` further: otherwise unknown.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.corners import rectify

GRID_W, GRID_H = 128, 96
CELL = 8
CELLS = (GRID_W // CELL) * (GRID_H // CELL)
DESCRIPTOR_VERSION = 1
"""Bump when the descriptor changes: cached galleries and enrolled cards are recomputed or refused."""
ACCEPT = 0.02
"""Largest mean cell distance (squared, in units of the face's own contrast) of an identified card; a clean
view of a known card measures 0.002-0.007 on the sample game."""
STEP = 0.01
"""A cell tells two cards apart when their distances to it differ by this much (clean cells: 0.002-0.006)."""
EVIDENCE = 3
RATIO = 1.25
"""... and the next different-looking card must be this many times further (an unenrolled card of a familiar
print otherwise finds a near twin: 0.0118 against 0.0128 in tests/vision/test_enrol.py)."""
"""Cells needed, net, that tell the best card from every card that looks different."""
COVERED = 0.04
"""A cell whose best distance over the gallery exceeds this is taken as covered (hand, die, glare); a clean
view's cells measure under 0.02 in 99 cases of 100."""
CAP = 0.06
"""Cell distances are capped here, so one odd cell (a reflection) cannot outweigh the rest."""
MIN_SEEN = 0.45
"""Share of cells that must be uncovered to name a card at all."""


def grid_image(face_bgr: np.ndarray) -> np.ndarray:
    """An upright face image (any size, BGR or BGRA) -> the uint8 Lab grid (GRID_H, GRID_W, 3) that is stored."""
    img = face_bgr[..., :3]
    big = cv2.resize(img, (GRID_W * 2, GRID_H * 2), interpolation=cv2.INTER_AREA)
    small = cv2.resize(cv2.GaussianBlur(big, (0, 0), 1.0), (GRID_W, GRID_H), interpolation=cv2.INTER_AREA)
    return cv2.cvtColor(small, cv2.COLOR_BGR2LAB)


def face_grid(frame: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """The grid of the face whose corners (TL, TR, BR, BL as read) are given, from frame pixels."""
    return grid_image(rectify(frame, corners, GRID_W * 2, GRID_H * 2))


def descriptor(grid: np.ndarray) -> np.ndarray:
    """(CELLS, CELL*CELL*3) float32: each channel centred on its median and scaled by its spread, so light level
    and white balance drop out; chroma counts half as much as lightness."""
    g = grid.astype(np.float32)
    med = np.median(g.reshape(-1, 3), 0)
    spread = np.percentile(g.reshape(-1, 3), 90, 0) - np.percentile(g.reshape(-1, 3), 10, 0)
    spread[0] = max(spread[0], 12.0)
    spread[1:] = max(float(spread[0]), 12.0)  # chroma scaled like lightness: a grey card keeps grey chroma
    g = (g - med) / spread * np.array([1.0, 0.7, 0.7], np.float32)
    cells = g.reshape(GRID_H // CELL, CELL, GRID_W // CELL, CELL, 3).transpose(0, 2, 1, 3, 4)
    return np.ascontiguousarray(cells.reshape(CELLS, -1))


@dataclass(frozen=True)
class Identity:
    card_id: str | None
    """None when the face matches no card well enough, or two cards about equally."""
    confidence: float
    corners: np.ndarray
    """The corners in reading order (TL, TR, BR, BL), whichever way up the card lies."""
    distance: float
    second: float
    """Distance of the best other card (inf with a one-card gallery)."""
    seen: float
    """Share of the face's cells taken as uncovered."""
    best: str | None = None
    """The closest card even when it is not close enough to name (for measurements)."""
    evidence: float = 0.0
    """Cells that tell the best card from the closest card that looks different."""


class Matcher:
    """Descriptors of known cards, matched all at once."""

    def __init__(self, ids: list[str], grids: list[np.ndarray], looks: list[str] | None = None) -> None:
        self.ids = list(ids)
        self.looks = list(looks) if looks is not None else list(ids)
        """Cards with the same look (kind, notation, points) are interchangeable: one never blocks another."""
        self._desc = np.stack([descriptor(g) for g in grids]) if grids else np.zeros((0, CELLS, CELL * CELL * 3))
        self._desc = self._desc.astype(np.float32)
        self._sq = (self._desc**2).sum(-1)
        self._dim = float(self._desc.shape[-1])

    def __len__(self) -> int:
        return len(self.ids)

    def distances(self, grid: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(N, CELLS) mean squared distance per cell to every known card, and the (CELLS,) uncovered mask."""
        q = descriptor(grid)
        d = (self._sq - 2 * np.einsum("ncd,cd->nc", self._desc, q) + (q**2).sum(-1)) / self._dim
        d = np.maximum(d, 0)
        seen = d.min(0) <= COVERED if len(d) else np.zeros(CELLS, bool)
        return d, seen

    def match(self, frame: np.ndarray, corners: np.ndarray) -> Identity:
        """Best card over the four ways the corners may be read (long side first, either way up, or the other
        pair of sides when a steep tilt shortened the long side)."""
        c = np.asarray(corners, np.float32).reshape(4, 2)
        best: tuple[float, np.ndarray, np.ndarray, int, np.ndarray] | None = None
        for k in range(4):
            turned = np.roll(c, -k, 0)
            dist, seen = self.distances(face_grid(frame, turned))
            if seen.mean() < MIN_SEEN or not len(dist):
                continue
            score = np.minimum(dist[:, seen], CAP).mean(1)
            i = int(np.argmin(score))
            if best is None or score[i] < best[0]:
                best = (float(score[i]), dist[:, seen], score, i, turned)
        if best is None:
            return Identity(None, 0.0, c, np.inf, np.inf, 0.0)
        distance, dist, score, i, turned = best
        card, share = self.ids[i], dist.shape[1] / CELLS
        # evidence against each other look: cells it clearly explains worse, less cells it explains better
        evidence, second = np.inf, np.inf
        for j in np.argsort(score)[:12]:
            if self.looks[j] == self.looks[i]:
                continue
            worse = dist[j] - dist[i]
            evidence = min(evidence, float((worse > STEP).sum() - (worse < -STEP).sum()))
            second = min(second, float(score[j]))
        known = distance <= ACCEPT and evidence >= EVIDENCE and second >= RATIO * distance
        confidence = float(np.clip(min(1 - distance / ACCEPT, evidence / (2 * EVIDENCE)), 0, 1)) if known else 0.0
        return Identity(card if known else None, confidence, turned, distance, second, share, card, evidence)
