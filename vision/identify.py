"""Which card a face is: a small colour grid of the rectified face, compared with a gallery of known cards.

Why a grid and not keypoints: the face is already rectified by its corners, so a 128 x 96 Lab image compared
cell by cell is invariant to rotation and tilt, costs a few ms for the whole gallery, stores in 36 KB per card,
and sees the flat colour cues (point hexagon, chip colours) that ORB keypoints ignore; a card 120 px wide in a
720p frame gives too few keypoints to match reliably.

Partial cover (a hand, dice on the chips): the face is compared with each known card through a robust fit, per
candidate, of one gain (lightness and chroma alike) and an offset per channel (small ones for chroma: a white
balance shift, not a green board passing for a navy one), refitted on the ``KEEP`` share of cells the candidate
explains best. So a hand shifts no cell's normalisation; the cells a candidate still cannot explain (residual
over ``COVERED``) are taken as covered for that candidate, and its score caps them at ``CAP``, so cover costs
every candidate alike. (A light of a strong colour, a gain per channel that this fit cannot take out, is undone
before the layout reads cards: ``vision.cast``.)

Rotation and tilt: the four readings of the corners are tried; then the corners are refined against the best
card (an ECC homography on the cells it explains, ``refine``), since corners a few pixels off (a hand across an
edge, a die over a corner) blur every cell. Once lined up, a clean view of the right card leaves almost no
residual while a different print still does, so the decision is made on the lined-up face with a strict
``ACCEPT``. A card is named only when at least ``MIN_SEEN`` of its cells are explained, explained well
(``ACCEPT``), the next card of another look scores ``RATIO`` times worse (``CLEAN_RATIO`` when another look
explains hardly any of the cells it leaves unexplained) with at least ``EVIDENCE`` cells, net, that tell them
apart, at most ``CONTRA`` of its covered cells are ones another look explains well and at most ``STRAY`` lie in
patches too small for a die or a hand: otherwise unknown.

Measured with ``python -m vision.measure_cards datasets/sample`` (429 views of cards at least half visible):
named right 388, wrong 0, unknown 41 (before the matcher's robust fit: 257, 0, 172); the enrolment test's
figures are in tests/vision/test_enrol.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.corners import rectify

GRID_W, GRID_H = 128, 96
CELL = 8
CELLS = (GRID_W // CELL) * (GRID_H // CELL)
GRID_CORNERS = np.array([[0, 0], [GRID_W, 0], [GRID_W, GRID_H], [0, GRID_H]], np.float32)
DESCRIPTOR_VERSION = 1
"""Bump when the stored grid changes: cached galleries and enrolled cards are recomputed or refused (the
matcher's normalisation is computed from the stored grids, so changing it needs no bump)."""
BLUR = 1.0
"""Both the face and the known cards are blurred by this many grid pixels before comparing: a video frame's
face is softer than a drawn one, and corners off by a pixel or two then cost little (measured on the sample
game: top match right for 408 of 422 views, against 368 without)."""
SOFTER = (1.5, 2.0, 3.0)
"""Further blurs of the known cards (grid pixels), for faces softer than a drawn card (a defocused lens, a
compressed video): the face is compared at the blur that fits its best card best, so a soft view is not refused
for its blur while a sharp one keeps the fine detail that tells twins apart. Measured on five tuning games (seeds
5, 8, 11, 44, 88; ``python -m vision.measure_cards data/tune/GAME --step 80``, summed): named right 339 of 482
views with ``SOFTER = ()``, 365 with ``(2.0,)``, 379 with ``(1.5, 2.0)``; none wrong. (Blurring every comparison
by 1.5 named 370, but then unenrolled twins in the enrolment test passed for the cards they resemble.) The 3.0
level (twenty-third session) is for a lens further out of focus: probe2 cd2s903's cards, whose closest card was the
right one at residuals 0.0054-0.0071, over ``ACCEPT``. The five tuning and six probe2 games (``--step 80``): named
right 775 -> 798 of 1,103 views (cd2s903 7 -> 30 of 117, no other game moved), none wrong; 4.0 named no more."""
KEEP = 0.7
"""Share of cells (the best explained) a candidate's gain and offsets are fitted on."""
ITERATIONS = 3
SHORTLIST = 16
"""Candidates refitted after the first (all-cell) fit: the rest are too far to matter."""
GAIN = (0.5, 2.0)
CHROMA = 0.1
"""Largest chroma offset of the fit, in units of the card's lightness spread."""
CHANNELS = np.array([1.0, 0.49, 0.49], np.float32)
"""Weights of L, a, b in a residual (chroma counts half: 0.7 squared)."""
ACCEPT = 0.005
"""Largest mean residual, over the cells it explains, of an identified card once the face is lined up with it
(``refine``): measured 0.0002-0.0046 for enrolled cards under up to 8% cover, 0.0054 and over for unenrolled
twins of a familiar print."""
ROUGH_ACCEPT = 0.02
"""The same when the corners could not be refined (a misplaced corner blurs every cell: 0.001-0.008)."""
STEP = 0.005
"""A cell tells two cards apart when their residuals on it differ by this much (lined-up face; clean cells
leave under 0.005)."""
ROUGH_STEP = 0.01
EVIDENCE = 3
"""Cells needed, net, that tell the best card from every card that looks different."""
RATIO = 1.25
"""... and the next different-looking card's score must be this many times the best's (an unenrolled card of a
familiar print otherwise finds a near twin)..."""
CLEAN_RATIO = 1.15
CLEAN_CONTRA = 1
"""... or ``CLEAN_RATIO`` times when at most ``CLEAN_CONTRA`` of the cells the best card leaves unexplained are
ones another look explains well (``CONTRA``): a twin's digit or chip explains the cells that differ, while a
soft or noisy view of the right card leaves its unexplained cells unexplained by every card. In the games
(``python -m vision.evaluate``, eighteenth session): probe 291 -> 307 events, fresh 298 -> 304, unseen3 311 ->
315, the other sets as before, no false violation."""
CLEAR_EVIDENCE = 2
CLEAR_RATIO = 1.4
"""A clear view (every cell it explains within half of ``ACCEPT``) names its card on ``CLEAR_EVIDENCE`` cells when
the next different look scores ``CLEAR_RATIO`` times worse: two of a twin's cells that differ, seen cleanly,
with the whole face agreeing. On the 17 probe, tune and fresh games (``python -m vision.measure_cards GAME --step
60``, summed): named right 1,696 -> 1,722 of 2,342 views, none wrong either way; in
the games (``python -m vision.evaluate``, nineteenth session) dev 1,062 -> 1,081 events, unseen3 330 -> 331,
unseen 283 -> 285, the others as before, no false violation."""
SPOTLESS = 0.001
"""A spotless view (the cells it explains left at a mean residual under this once lined up, none of its covered
cells explained by another look) names its card on ``CLEAR_RATIO`` alone, no cell needing to tell: Countdown's
C-G47 and C-G50 differ only in their last chip's digit (blue4, blue2), which moves no cell by ``STEP``, so no view
of either was ever named, however clean. ``python -m vision.measure_cards data/probe11/cd2s1903 --step 40``: views
named right 89 -> 125 of 249, none wrong either way (a throwaway sweep over the 36 games' truth boxes: 145 more of
2,392 unknown views named, all right); in the games (``python -m vision.evaluate``,
fiftieth session) the 30 unseen4-5 and probe11-13 games 1,759 -> 1,767 events, a flag more, warm 326 -> 328."""
ALSO_SHARP = True
"""A lined-up face left unknown at the blur that fits it best (one of ``SOFTER``) is judged again, by every rule, at
``BLUR``: a softer comparison smooths the cells that tell twins apart (a digit on a chip, C-G27's 1 against C-G25's
5), and a face soft only in its blown-out chips (the held-out style's bright light) is still sharp in them.
``python -m vision.measure_cards data/warm/cd2s2203 --step 40``: views named right 103 -> 124 of 225, none wrong
either way; the layout's 177 -> 197 right, 50 -> 30 unknown (a throwaway sweep over the 36 games' truth boxes, every
40th frame: 152 unknown views named, all right). The 36 games (fifty-first session) 2,095 events either way."""
COVERED = 0.04
"""A cell a candidate explains worse than this is taken as covered for it (hand, die, glare)."""
CAP = 0.03
"""Cell residuals are capped here in the score, so covered cells cost every candidate alike."""
MIN_SEEN = 0.45
"""Share of cells that must be explained to name a card at all."""
BLOB = 3
STRAY = 2
REFINE = True
NUDGE = 16.0
"""Largest corner move (grid pixels, 1/8 of the width) of the refinement against the best card: a hand across
the card's edge moves the corner finder's corners by 4-10 px in a 180 px card (measured on the enrolment views:
covered 15%, 16/60 right with 6, 29/60 with 16, none wrong either way)."""
SKEW = 0.02
COMPLETED_SURE = 0.3
"""A card's outline whose opposite sides are no parallelogram (one corner off by more than ``SKEW`` of a side: the
card overlaps a neighbour of its colours, the pile of cards set aside at the deal, or its box cuts it) may be read
again with a corner completed from the other three (``match_completed``); a card named so at ``COMPLETED_SURE`` or
more is taken. ``python -m vision.measure_cards GAME --step 20`` on the 17 tune, probe2 and fresh games (7,265
views, truth boxes), done for every unknown card: named right 5,366 -> 5,562, wrong 0 -> 0 (at 0.2: 5,580 right,
one wrong at 0.23). The layout asks for one such reading a frame (``cards.COMPLETED_PER_FRAME``)."""
GOOD = 0.01
CONTRA = 3
"""Covered cells of the best card that another look explains within ``GOOD``: more than this and the 'cover' is
more likely a different print (an unenrolled twin) than a hand or a die."""


def skewed(corners: Sequence[Sequence[float]] | np.ndarray) -> bool:
    """Whether an outline is no parallelogram: a corner more than ``SKEW`` of a side from where the other three put
    it (the same distance for each corner)."""
    c = np.asarray(corners, np.float64).reshape(4, 2)
    sides = np.linalg.norm(c - np.roll(c, -1, 0), axis=1)
    return bool(np.linalg.norm(c[0] - c[1] + c[2] - c[3]) > SKEW * sides.mean())


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
    and white balance drop out; chroma counts half as much as lightness (enrolment picks which way up with it)."""
    g = grid.astype(np.float32)
    med = np.median(g.reshape(-1, 3), 0)
    spread = np.percentile(g.reshape(-1, 3), 90, 0) - np.percentile(g.reshape(-1, 3), 10, 0)
    spread[0] = max(spread[0], 12.0)
    spread[1:] = max(float(spread[0]), 12.0)  # chroma scaled like lightness: a grey card keeps grey chroma
    g = (g - med) / spread * np.array([1.0, 0.7, 0.7], np.float32)
    cells = g.reshape(GRID_H // CELL, CELL, GRID_W // CELL, CELL, 3).transpose(0, 2, 1, 3, 4)
    return np.ascontiguousarray(cells.reshape(CELLS, -1))


def stray_cells(unexplained: np.ndarray) -> int:
    """Unexplained cells in patches smaller than ``BLOB`` cells (8-connected): a die or a hand covers a patch
    of cells, a different print (an unenrolled twin: another digit, another operator) leaves a few cells here
    and there."""
    mask = unexplained.reshape(GRID_H // CELL, GRID_W // CELL).astype(np.uint8)
    if not mask.any():
        return 0
    _, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    sizes = stats[1:, cv2.CC_STAT_AREA]
    return int(sizes[sizes < BLOB].sum())


def normalised_cells(grid: np.ndarray, blur: float = BLUR) -> np.ndarray:
    """(CELLS, 3, CELL*CELL) float32 of a grid, blurred by ``blur``: lightness centred on its median, chroma on
    grey, all scaled by the lightness spread (the fit takes out what is left of light level and white balance)."""
    g = grid.astype(np.float32)
    if blur:
        g = cv2.GaussianBlur(g, (0, 0), blur)
    light = g[..., 0]
    spread = max(float(np.percentile(light, 90) - np.percentile(light, 10)), 12.0)
    g = (g - np.array([np.median(light), 128.0, 128.0], np.float32)) / spread
    cells = g.reshape(GRID_H // CELL, CELL, GRID_W // CELL, CELL, 3).transpose(0, 2, 4, 1, 3)
    return np.ascontiguousarray(cells.reshape(CELLS, 3, CELL * CELL))


@dataclass(frozen=True)
class Identity:
    card_id: str | None
    """None when the face matches no card well enough, or two cards about equally."""
    confidence: float
    corners: np.ndarray
    """The corners in reading order (TL, TR, BR, BL), whichever way up the card lies; refined against the card
    when it is named."""
    distance: float
    """Mean residual over the cells the best card explains (``ACCEPT`` bounds a named card's)."""
    second: float
    """Score (capped mean residual over all cells) of the closest card of another look (inf when none)."""
    seen: float
    """Share of the face's cells the best card explains (the rest taken as covered)."""
    best: str | None = None
    """The closest card even when it is not close enough to name (for measurements)."""
    evidence: float = 0.0
    """Cells that tell the best card from the closest card that looks different."""
    near: tuple[str, ...] = ()
    """The cards scoring within ``RATIO`` of the best (itself included): what the face may be."""
    explained: np.ndarray | None = None
    """(CELLS,) bool: the cells the best card explains (the rest taken as covered)."""


Reading = tuple[float, np.ndarray, np.ndarray, np.ndarray]
"""The best score, then the shortlist's (K, CELLS) residuals, (K,) scores and (K,) card indices, best first."""


class _Cells:
    """The known cards' normalised cells at one blur, with the sums the fit needs."""

    def __init__(self, grids: list[np.ndarray], blur: float) -> None:
        npx = CELL * CELL
        g = np.stack([normalised_cells(x, blur) for x in grids]) if grids else np.zeros((0, CELLS, 3, npx))
        g = g.astype(np.float32)  # (N, CELLS, 3, npx)
        self.gt = np.ascontiguousarray(g.reshape(len(g), CELLS * 3, npx).transpose(1, 0, 2))
        self.sg = g.sum(3)  # (N, CELLS, 3)
        # the sums also channel first (3, N, CELLS): the residuals' element-wise work runs along cells, not along
        # three channels at a time (numpy's inner loop on an axis of 3 costs about ten times as much)
        self.sg_c = np.ascontiguousarray(self.sg.transpose(2, 0, 1))
        self.sgg_c = np.ascontiguousarray((g**2).sum(3).transpose(2, 0, 1))


class Matcher:
    """Known cards' normalised cells, fitted to a face all at once."""

    def __init__(self, ids: list[str], grids: list[np.ndarray], looks: list[str] | None = None) -> None:
        self.ids = list(ids)
        self.looks = list(looks) if looks is not None else list(ids)
        """Cards with the same look (kind, notation, points) are interchangeable: one never blocks another."""
        self._levels = [_Cells(grids, blur) for blur in (BLUR, *SOFTER)]
        self._light = [cv2.GaussianBlur(x[..., 0].astype(np.float32), (0, 0), 1.0) for x in grids]
        self._look = np.unique(np.array(self.looks, dtype=object), return_inverse=True)[1] if ids else np.zeros(0)

    def __len__(self) -> int:
        return len(self.ids)

    def residuals(self, grid: np.ndarray, level: int = 0,
                  among: list[int] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(K, CELLS) mean squared residual per cell of the face against the ``SHORTLIST`` nearest known cards
        (or the cards ``among``) after each one's robust gain/offset fit, and their (K,) indices; ``level`` 0
        compares the known cards at the face's blur, ``level`` k at ``SOFTER[k - 1]``."""
        return self._fit(normalised_cells(grid), level, among)

    def _fit(self, q: np.ndarray, level: int = 0, among: list[int] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """``residuals`` of a face's ``normalised_cells``."""
        cells = self._levels[level]
        pick = np.arange(len(self.ids)) if among is None else np.asarray(among)
        gt, sg, sg_c, sgg_c = (cells.gt, cells.sg, cells.sg_c, cells.sgg_c) if among is None else (
            cells.gt[:, pick], cells.sg[pick], cells.sg_c[:, pick], cells.sgg_c[:, pick])
        n, npx = len(pick), CELL * CELL
        sq, sqq = q.sum(2), (q**2).sum(2)  # (CELLS, 3)
        by_cell = np.matmul(gt, q.reshape(CELLS * 3, npx, 1))[..., 0].reshape(CELLS, 3, n)
        sqg, sqg_c = by_cell.transpose(2, 0, 1), np.ascontiguousarray(by_cell.transpose(1, 2, 0))
        weight = np.ones((n, CELLS), np.float32)
        keep = int(round(KEEP * CELLS))
        for it in range(ITERATIONS):
            m = npx * weight.sum(1)[:, None]
            g_ = np.einsum("nc,nck->nk", weight, sg)
            q_ = weight @ sq
            qg = np.einsum("nc,nck->nk", weight, sqg)
            qq = weight @ sqq
            num = (CHANNELS * (qg - g_ * q_ / m)).sum(1)
            den = (CHANNELS * (qq - q_**2 / m)).sum(1)
            a = np.clip(num / np.maximum(den, 1e-6), *GAIN)[:, None]
            b = (g_ - a * q_) / m
            b[:, 1:] = np.clip(b[:, 1:], -CHROMA, CHROMA)
            # each channel's residual over the cells, weighted and summed in channel order
            r = sum(CHANNELS[k] * (sgg_c[k] - 2 * a * sqg_c[k] - 2 * b[:, k:k + 1] * sg_c[k] + a**2 * sqq[:, k]
                                   + 2 * a * b[:, k:k + 1] * sq[:, k] + npx * b[:, k:k + 1] ** 2) for k in range(3))
            r = np.maximum(r / (npx * CHANNELS.sum()), 0)
            if it == ITERATIONS - 1:
                break
            if it == 0 and n > SHORTLIST:
                near = np.argsort(np.minimum(r, CAP).mean(1))[:SHORTLIST]
                pick, r, sg, sqg = pick[near], r[near], sg[near], sqg[near]
                sg_c, sgg_c, sqg_c = sg_c[:, near], sgg_c[:, near], sqg_c[:, near]
            weight = (r <= np.partition(r, keep - 1, axis=1)[:, keep - 1 : keep]).astype(np.float32)
        return r, pick

    def residual_at(self, frame: np.ndarray, corners: np.ndarray, card_id: str, centre: tuple[float, float],
                    radius: float) -> float:
        """Mean residual, after ``card_id``'s fit to the face, of the face's cells within ``radius`` frame pixels of
        ``centre``: under ``COVERED`` the card's own print explains that spot (nothing lies on it); inf for a card
        not known."""
        if card_id not in self.ids:
            return float("inf")
        c = np.asarray(corners, np.float32).reshape(4, 2)
        r, _ = self.residuals(face_grid(frame, c), among=[self.ids.index(card_id)])
        to_grid = cv2.getPerspectiveTransform(c, GRID_CORNERS)
        ring = [(centre[0] + dx * radius, centre[1] + dy * radius)
                for dx, dy in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1))]
        pts = cv2.perspectiveTransform(np.array([ring], np.float32), to_grid)[0]
        reach = max(float(np.linalg.norm(pts[1:] - pts[0], axis=1).mean()), CELL / 2)
        ys, xs = np.mgrid[CELL / 2 : GRID_H : CELL, CELL / 2 : GRID_W : CELL]
        near = (np.hypot(xs - pts[0, 0], ys - pts[0, 1]) <= reach).ravel()
        return float(r[0][near].mean()) if near.any() else float("inf")

    def _read(self, q: np.ndarray, level: int = 0) -> Reading:
        """The reading of a face's ``normalised_cells`` against the known cards at blur ``level``."""
        r, pick = self._fit(q, level)
        score = np.minimum(r, CAP).mean(1)
        order = np.argsort(score)
        return float(score[order[0]]), r[order], score[order], pick[order]

    def _read_at_fitting_blur(self, q: np.ndarray, sharp: Reading | None = None) -> Reading:
        """The reading of a face's ``normalised_cells`` at the blur of the known cards (``BLUR`` or one of
        ``SOFTER``) that fits it best; ``sharp``: the reading at ``BLUR`` when it is already known."""
        reads = [sharp or self._read(q)] + [self._read(q, level) for level in range(1, len(self._levels))]
        return min(reads, key=lambda read: read[0])

    def refine(self, frame: np.ndarray, corners: np.ndarray, card: int, seen: np.ndarray) -> np.ndarray | None:
        """Corners nudged so the face lines up with known card ``card`` (ECC homography on the lightness of the
        cells it explains): a corner a few pixels off blurs the chips' cells. None when the fit fails or moves a
        corner more than ``NUDGE`` grid pixels."""
        face = cv2.GaussianBlur(face_grid(frame, corners)[..., 0].astype(np.float32), (0, 0), 1.0)
        mask = np.repeat(np.repeat(seen.reshape(GRID_H // CELL, GRID_W // CELL), CELL, 0), CELL, 1)
        warp = np.eye(3, dtype=np.float32)
        try:
            cv2.findTransformECC(self._light[card], face, warp, cv2.MOTION_HOMOGRAPHY,
                                 (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 30, 1e-4),
                                 mask.astype(np.uint8) * 255, 1)
        except cv2.error:
            return None
        box = GRID_CORNERS - 0.5
        moved = cv2.perspectiveTransform(box[None], warp)[0]
        if not np.isfinite(moved).all() or np.abs(moved - box).max() > NUDGE:
            return None
        # grid pixels -> frame pixels through the rectifying homography (the grid is the face at half size)
        to_grid = cv2.getPerspectiveTransform(np.asarray(corners, np.float32).reshape(4, 2), box * 2 + 0.5)
        back = cv2.perspectiveTransform(((moved + 0.5) * 2 - 0.5)[None], np.linalg.inv(to_grid))[0]
        return back.astype(np.float32)

    def match_completed(self, frame: np.ndarray, corners: np.ndarray, k: int) -> Identity | None:
        """The reading with corner ``k`` put where the other three make a parallelogram (for an outline that is
        none, ``skewed``), if it names a card at ``COMPLETED_SURE`` or more."""
        c = np.asarray(corners, np.float32).reshape(4, 2).copy()
        c[k] = c[k - 1] + c[(k + 1) % 4] - c[(k + 2) % 4]
        found = self.match(frame, c)
        return found if found.card_id is not None and found.confidence >= COMPLETED_SURE else None

    def match(self, frame: np.ndarray, corners: np.ndarray) -> Identity:
        """Best card over the four ways the corners may be read (long side first, either way up, or the other
        pair of sides when a steep tilt shortened the long side), the corners then refined against it."""
        c = np.asarray(corners, np.float32).reshape(4, 2)
        if not len(self.ids):
            return Identity(None, 0.0, c, np.inf, np.inf, 0.0)
        grids = [face_grid(frame, c), face_grid(frame, np.roll(c, -1, 0))]
        grids += [np.ascontiguousarray(g[::-1, ::-1]) for g in grids]  # turned by 180°: the same pixels
        cells = [normalised_cells(grid) for grid in grids]
        reads = [self._read(q) for q in cells]
        k_best = min(range(4), key=lambda k: reads[k][0])
        best = (*reads[k_best], np.roll(c, -k_best, 0))
        rough = self._read_at_fitting_blur(cells[k_best], reads[k_best])
        first = self._decide(*rough, best[4], ROUGH_ACCEPT, ROUGH_STEP)
        if not REFINE or first.seen < MIN_SEEN:
            return first
        nudged = self.refine(frame, best[4], int(best[3][0]), best[1][0] <= COVERED)
        if nudged is None:
            return first
        # the face lined up with the best card: a clean view of it now leaves almost no residual, while a
        # different print (an unenrolled twin, another board) still does, so the strict ACCEPT holds
        q = normalised_cells(face_grid(frame, nudged))
        sharp = self._read(q)
        fitting = self._read_at_fitting_blur(q, sharp)
        lined_up = self._decide(*fitting, nudged)
        if ALSO_SHARP and lined_up.card_id is None and fitting is not sharp:
            at_sharp = self._decide(*sharp, nudged)
            lined_up = at_sharp if at_sharp.card_id is not None else lined_up
        # corners lined up with a card not named could be pulled towards the wrong print: keep them as found
        return lined_up if lined_up.card_id is not None else replace(lined_up, corners=best[4])

    def _decide(self, score_i: float, r: np.ndarray, score: np.ndarray, pick: np.ndarray,
                turned: np.ndarray, accept: float = ACCEPT, step: float = STEP) -> Identity:
        """The rules, on one reading's residuals (shortlist sorted best first)."""
        seen = r[0] <= COVERED
        share = float(seen.mean())
        distance = float(r[0][seen].mean()) if seen.any() else np.inf
        other = self._look[pick] != self._look[pick[0]]
        evidence, second, contra = np.inf, np.inf, 0
        if other.any():
            worse = (r[other] - r[0])[:, seen]
            evidence = float(((worse > step).sum(1) - (worse < -step).sum(1)).min())
            second = float(score[other].min())
            contra = int(((r[other] <= GOOD).any(0) & ~seen).sum())
        ratio = CLEAN_RATIO if contra <= CLEAN_CONTRA else RATIO
        clear = distance <= accept / 2 and evidence >= CLEAR_EVIDENCE and second >= CLEAR_RATIO * score_i
        told = evidence >= EVIDENCE or clear
        spotless = distance <= SPOTLESS and contra == 0 and second >= CLEAR_RATIO * score_i
        known = (share >= MIN_SEEN and distance <= accept and (told or spotless)
                 and second >= ratio * score_i and contra <= CONTRA and stray_cells(~seen) <= STRAY)
        sure = evidence / (2 * EVIDENCE) if told else 0.5  # (spotless: as sure as a name on the fewest cells)
        confidence = float(np.clip(min(1 - distance / accept, sure), 0, 1)) if known else 0.0
        card = self.ids[int(pick[0])]
        near = tuple(self.ids[int(k)] for k, sc in zip(pick, score) if sc <= RATIO * score_i)
        return Identity(card if known else None, confidence, turned, distance, second, share, card, evidence, near,
                        seen)
