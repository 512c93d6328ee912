"""The video the dashboard shows: the camera's frame with an outline round each recognised die and card, or,
with no camera, a schematic top-down table drawn from the game state. Green is legal, red illegal (a refused
placement, for ``ALERT_SECONDS``), amber unsure (a low-confidence read not yet confirmed).

Per frame the work is small: the schematic is drawn once per state change and per alert, then each frame is a
copy with the clock written on it; the pipeline encodes it to JPEG once for all viewers.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from webui.feeds import Frame

WIDTH, HEIGHT = 1280, 720
FONT = cv2.FONT_HERSHEY_SIMPLEX
BGR = {"red": (50, 50, 215), "blue": (200, 110, 30), "green": (70, 165, 60), "yellow": (40, 205, 235),
       "black": (35, 35, 35)}
STATUS = {"legal": (80, 205, 80), "illegal": (40, 40, 245), "unsure": (0, 175, 255)}
TABLE, NAVY, CHIP, WHITE, MUTED = (38, 62, 34), (92, 42, 16), (236, 236, 236), (245, 245, 245), (170, 190, 170)


def _text(img: np.ndarray, text: str, org: tuple[int, int], scale: float = 0.5, colour=WHITE, thick: int = 1,
          max_width: int = 0) -> None:
    if max_width:
        while text and cv2.getTextSize(text, FONT, scale, thick)[0][0] > max_width:
            text = text[:-2] + "~" if len(text) > 2 else ""
    cv2.putText(img, text, org, FONT, scale, colour, thick, cv2.LINE_AA)


def draw_die(img: np.ndarray, die: str, x: int, y: int, size: int, outline: tuple[int, int, int] | None = None) -> None:
    """A die as a coloured square (two halves for a split die) with its face number."""
    colours, face = die[:-1].split("/"), die[-1]
    if len(colours) == 2:
        pts = np.array([[x, y], [x + size, y], [x, y + size]], np.int32)
        cv2.rectangle(img, (x, y), (x + size, y + size), BGR.get(colours[1], MUTED), -1)
        cv2.fillPoly(img, [pts], BGR.get(colours[0], MUTED))
    else:
        cv2.rectangle(img, (x, y), (x + size, y + size), BGR.get(colours[0], MUTED), -1)
    ink = (20, 20, 20) if colours[0] == "yellow" else WHITE
    scale = size / 42
    (tw, th), _ = cv2.getTextSize(face, FONT, scale, 2)
    _text(img, face, (x + (size - tw) // 2, y + (size + th) // 2), scale, ink, 2)
    if outline is not None:
        cv2.rectangle(img, (x - 3, y - 3), (x + size + 3, y + size + 3), outline, 3)


def draw_card(img: np.ndarray, card: dict[str, Any], x: int, y: int, w: int, h: int,
              alerts: dict[tuple[str, int], str]) -> None:
    """A card as a navy rectangle: id and points, its notation, and its chips in a row with their dice."""
    statuses = [c["status"] for c in card.get("chips", []) if c["die"]]
    illegal = any(key[0] == card["id"] for key in alerts)
    outline = STATUS["illegal"] if illegal else STATUS["unsure"] if "unsure" in statuses else \
        STATUS["legal"] if statuses else (120, 90, 60)
    cv2.rectangle(img, (x, y), (x + w, y + h), NAVY, -1)
    cv2.rectangle(img, (x, y), (x + w, y + h), outline, 3 if statuses or illegal else 1)
    _text(img, card["id"], (x + 6, y + 16), 0.45, WHITE, 1)
    cv2.circle(img, (x + w - 14, y + 13), 10, (40, 160, 220), -1)
    _text(img, str(card["points"]), (x + w - 19, y + 18), 0.45, (20, 20, 20), 1)
    _text(img, card.get("body", ""), (x + 6, y + 34), 0.36, (230, 210, 170), 1, w - 12)
    chips = card.get("chips", [])
    if not chips:
        return
    size = int(min(46, (w - 12) / len(chips) - 6, h - 52))
    for i, chip in enumerate(chips):
        cx, cy = x + 8 + i * (size + 6), y + 44
        cv2.rectangle(img, (cx, cy), (cx + size, cy + size), CHIP, -1)
        ghost = alerts.get((card["id"], chip["chip"]))
        if chip["die"]:
            draw_die(img, chip["die"], cx + 2, cy + 2, size - 4, STATUS[chip["status"] or "legal"])
        elif ghost:
            draw_die(img, ghost, cx + 2, cy + 2, size - 4, STATUS["illegal"])
            cv2.line(img, (cx, cy), (cx + size, cy + size), STATUS["illegal"], 2)
        else:
            _text(img, str(chip["chip"]), (cx + size // 2 - 4, cy + size // 2 + 5), 0.4, (120, 120, 120), 1)


def active_alerts(snap: dict[str, Any], elapsed: float) -> list[dict[str, Any]]:
    """Violations reported in the last ``alert_seconds`` of play."""
    window = snap.get("alert_seconds", 10.0)
    return [v for v in snap.get("violations", []) if 0 <= elapsed - v["elapsed"] < window]


def _ghosts(alerts: list[dict[str, Any]]) -> dict[tuple[str, int], str]:
    """``(card, chip) -> die`` of refused placements still on alert."""
    found = {}
    for v in alerts:
        words = v["action"].split()
        if len(words) == 3 and words[0] == "place" and ":" in words[2]:
            card, _, chip = words[2].rpartition(":")
            if chip.isdigit():
                found[(card, int(chip))] = words[1]
    return found


def schematic(snap: dict[str, Any], alerts: list[dict[str, Any]]) -> np.ndarray:
    """The whole table, top down, from the game state."""
    img = np.full((HEIGHT, WIDTH, 3), TABLE, np.uint8)
    ghosts = _ghosts(alerts)
    label = snap["game"]["feed_label"]
    banner = "SIMULATED TABLE" if snap["game"]["simulated"] else "TABLE"
    _text(img, f"{banner} - schematic view - {label}", (16, 30), 0.6, (200, 230, 200), 1, 820)
    _text(img, "row", (16, 66), 0.5, MUTED)
    for i, card in enumerate(snap["row"][:8]):
        draw_card(img, card, 16 + i * 206, 74, 196, 96, ghosts)
    _text(img, "roll", (1060, 66), 0.5, MUTED)
    for i, die in enumerate(snap["roll"][:8]):
        draw_die(img, die, 1064 + (i % 4) * 52, 78 + (i // 4) * 52, 42)
    players = snap["players"]
    col_w = (WIDTH - 16) // max(1, len(players))
    top = 190
    for p, player in enumerate(players):
        x0 = 8 + p * col_w
        cv2.rectangle(img, (x0 + 2, top), (x0 + col_w - 4, HEIGHT - 8), (52, 80, 46), 1)
        role = f" ({player['role']})" if player["role"] else ""
        lead = " - leader" if player["name"] == snap["leader"] else ""
        _text(img, f"{player['name']}{role}{lead}", (x0 + 10, top + 22), 0.55, WHITE, 1, col_w - 20)
        cards = player["cards"]
        per_row = max(1, (col_w - 12) // 300)
        w = min(320, (col_w - 12) // per_row - 10)
        rows = max(1, -(-len(cards) // per_row))
        h = min(124, (HEIGHT - top - 90) // rows - 8)
        for k, card in enumerate(cards):
            draw_card(img, card, x0 + 8 + (k % per_row) * (w + 10), top + 34 + (k // per_row) * (h + 8), w, h, ghosts)
    return img


def hud(img: np.ndarray, snap: dict[str, Any], clock_text: str, alerts: list[dict[str, Any]], frame_no: int) -> None:
    """Clock, score and bag at the top right; the newest alert along the bottom."""
    x = img.shape[1] - 420
    cv2.rectangle(img, (x, 0), (img.shape[1], 46), (25, 25, 25), -1)
    _text(img, clock_text, (x + 10, 36), 1.1, WHITE, 2)
    _text(img, f"score {snap['score']['total']}  bag {snap['bag']}", (x + 150, 30), 0.6, (200, 230, 200), 1)
    _text(img, f"#{frame_no}", (img.shape[1] - 70, 44), 0.35, MUTED, 1)
    if alerts:
        v = alerts[-1]
        y = img.shape[0] - 40
        cv2.rectangle(img, (0, y), (img.shape[1], img.shape[0]), (30, 30, 150), -1)
        _text(img, f"ILLEGAL: {v['action']} - {v['reason']}", (12, y + 27), 0.6, WHITE, 1, img.shape[1] - 24)


def annotate(frame: Frame, alerts: list[dict[str, Any]]) -> np.ndarray:
    """The camera frame with each mark outlined in its status colour (red where a refused die lies)."""
    img = frame.image.copy()
    if frame.annotated:
        return img
    ghosts = _ghosts(alerts)
    for mark in frame.marks:
        status = "illegal" if mark.card and (mark.card, mark.chip) in ghosts else mark.status
        x0, y0, x1, y1 = (int(round(v)) for v in mark.box)
        cv2.rectangle(img, (x0, y0), (x1, y1), STATUS.get(status, STATUS["unsure"]), 2)
        _text(img, mark.label, (x0, max(12, y0 - 4)), 0.4, STATUS.get(status, WHITE), 1)
    return img


class Renderer:
    """Draws each frame; keeps the schematic of the last state and alerts."""

    def __init__(self) -> None:
        self._key: tuple[Any, ...] | None = None
        self._base: np.ndarray | None = None

    def render(self, snap: dict[str, Any], frame: Frame | None, elapsed: float, clock_text: str,
               frame_no: int) -> np.ndarray:
        alerts = active_alerts(snap, elapsed)
        if frame is not None:
            img = annotate(frame, alerts)
        else:
            key = (snap["game"]["id"], snap["version"], tuple(v["index"] for v in alerts))
            if key != self._key or self._base is None:
                self._base, self._key = schematic(snap, alerts), key
            img = self._base.copy()
        hud(img, snap, clock_text, alerts, frame_no)
        return img
