"""The pipeline loop: at the target rate (15 frames/s by default) take the feed's reports into the referee, draw
the frame, encode it to JPEG once and hand the bytes to every viewer through the hub."""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

import cv2

from webui.hub import Hub
from webui.live import LiveGame
from webui.render import Renderer

TARGET_FPS = 15.0
JPEG_QUALITY = 75


class Pipeline:
    def __init__(self, get_game: Callable[[], LiveGame], hub: Hub, fps: float = TARGET_FPS) -> None:
        self.get_game = get_game
        self.hub = hub
        self.fps = fps
        self.renderer = Renderer()
        self.frames = 0
        self.step_seconds: deque[float] = deque(maxlen=300)
        self.times: deque[float] = deque(maxlen=300)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.error = ""

    def step(self) -> bytes:
        """One frame: reports in, frame drawn and published; returns the JPEG bytes."""
        start = time.perf_counter()
        game = self.get_game()
        frame = game.tick()
        snap = game.snapshot()
        clock = snap["clock"]
        img = self.renderer.render(snap, frame, clock["elapsed"], clock["text"], self.frames)
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
        data = buf.tobytes() if ok else b""
        self.hub.frames.publish(data)
        self.frames += 1
        end = time.perf_counter()
        self.step_seconds.append(end - start)
        self.times.append(end)
        return data

    def run(self) -> None:
        period = 1.0 / self.fps
        due = time.perf_counter()
        while not self._stop.is_set():
            try:
                self.step()
            except Exception as exc:  # noqa: BLE001 - keep the stream alive; the error shows in /api/stats
                self.error = f"{type(exc).__name__}: {exc}"
            due += period
            delay = due - time.perf_counter()
            if delay > 0:
                self._stop.wait(delay)
            else:
                due = time.perf_counter()  # fell behind: do not rush to catch up

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self.run, name="fuse-referee-pipeline", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def stats(self) -> dict[str, Any]:
        """Frames/s over the last few seconds, and the time one step takes."""
        times = list(self.times)
        recent = [t for t in times if t >= time.perf_counter() - 5.0]
        fps = (len(recent) - 1) / (recent[-1] - recent[0]) if len(recent) > 2 else 0.0
        steps = sorted(self.step_seconds)
        return {
            "target_fps": self.fps, "fps": round(fps, 2), "frames": self.frames, "running": self.running,
            "step_ms_median": round(1000 * steps[len(steps) // 2], 2) if steps else None,
            "step_ms_p95": round(1000 * steps[int(len(steps) * 0.95)], 2) if steps else None,
            "error": self.error,
        }
