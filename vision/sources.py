"""Frame sources: a webcam by index, a video file, a folder of images, an RTSP or HTTP (MJPEG) stream.

Live sources (cameras and streams) read on a background thread and keep only the newest frame, so a slow
consumer never builds up lag; when the device or stream goes away they keep trying to reopen it and carry on
when it comes back. Recorded sources (files, folders) give every frame in order with its recorded time, or,
with ``realtime=True``, the frame due at the current wall time (dropping the ones the consumer was too slow for).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.errors import SourceError

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp")
VIDEO_SUFFIXES = (".mp4", ".avi", ".mkv", ".mov", ".webm", ".m4v", ".mjpg", ".mjpeg")


@dataclass(frozen=True)
class Frame:
    """One decoded frame: ``image`` is H×W×3 uint8 BGR; ``time`` is seconds since the source started."""

    index: int
    time: float
    image: np.ndarray


class Source:
    """Common interface: ``read()`` the next/newest frame or None, iterate, ``close()``."""

    description = "source"
    live = False

    def read(self, timeout: float = 1.0) -> Frame | None:
        raise NotImplementedError

    def close(self) -> None:
        pass

    def __iter__(self) -> Iterator[Frame]:
        while True:
            frame = self.read()
            if frame is None:
                if self.finished:
                    return
                continue
            yield frame

    @property
    def finished(self) -> bool:
        return False

    def __enter__(self) -> Source:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class ImageFolder(Source):
    """The images of a folder in name order; a file that does not decode is skipped and listed in ``skipped``."""

    def __init__(self, folder: Path, fps: float = 15.0) -> None:
        self.paths = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self.paths:
            raise SourceError(f"folder {str(folder)!r} has no images ({' '.join(IMAGE_SUFFIXES)})")
        self.description = f"folder {folder}"
        self.fps = fps
        self.position = 0
        self.skipped: list[str] = []

    def read(self, timeout: float = 1.0) -> Frame | None:
        while self.position < len(self.paths):
            path = self.paths[self.position]
            index = self.position
            self.position += 1
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is None:
                self.skipped.append(f"{path.name}: not a readable image")
                continue
            return Frame(index, index / self.fps, image)
        return None

    @property
    def finished(self) -> bool:
        return self.position >= len(self.paths)


class VideoFile(Source):
    """A recorded video, frame by frame with the file's timing; ``realtime`` skips to the frame due now."""

    def __init__(self, path: Path, realtime: bool = False) -> None:
        if not path.exists():
            raise SourceError(f"cannot open video {str(path)!r}: no such file")
        self.capture = cv2.VideoCapture(str(path))
        if not self.capture.isOpened():
            raise SourceError(f"cannot open video {str(path)!r}: not a video OpenCV can decode")
        self.description = f"video {path.name}"
        self.fps = self.capture.get(cv2.CAP_PROP_FPS) or 15.0
        self.realtime = realtime
        self.index = -1
        self.started = time.monotonic()
        self.done = False

    def read(self, timeout: float = 1.0) -> Frame | None:
        if self.done:
            return None
        if self.realtime:  # drop frames the consumer had no time for
            due = int((time.monotonic() - self.started) * self.fps)
            while self.index + 1 < due and self.capture.grab():
                self.index += 1
        ok, image = self.capture.read()
        if not ok or image is None:
            self.done = True
            return None
        self.index += 1
        return Frame(self.index, self.index / self.fps, image)

    @property
    def finished(self) -> bool:
        return self.done

    def close(self) -> None:
        self.capture.release()


class LiveCapture(Source):
    """A camera or network stream read on a thread that keeps only the newest frame and reconnects."""

    live = True

    def __init__(self, target: int | str, description: str, retry_seconds: float = 1.0,
                 open_timeout: float = 5.0) -> None:
        self.target = target
        self.description = description
        self.retry_seconds = retry_seconds
        self.status = "connecting"
        self.reconnects = 0
        self.started = time.monotonic()
        self._latest: Frame | None = None
        self._fresh = threading.Condition()
        self._stop = threading.Event()
        self._count = 0
        capture = self._open()
        if capture is None:
            raise SourceError(f"cannot open {description}: no device or stream answers")
        self._thread = threading.Thread(target=self._run, args=(capture,), name=f"capture {description}", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + open_timeout
        with self._fresh:
            while self._latest is None and time.monotonic() < deadline and self.status != "closed":
                self._fresh.wait(0.05)

    def _open(self) -> cv2.VideoCapture | None:
        # OpenCV logs warnings of its own for a device that is not there, on every retry; the one-line error (or
        # the source's status while it reconnects) says so
        level = cv2.utils.logging.getLogLevel()
        cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
        try:
            capture = cv2.VideoCapture(self.target)
        finally:
            cv2.utils.logging.setLogLevel(level)
        if capture.isOpened():
            return capture
        capture.release()
        return None

    def _run(self, capture: cv2.VideoCapture | None) -> None:
        while not self._stop.is_set():
            if capture is None:
                self.status = "reconnecting"
                if self._stop.wait(self.retry_seconds):
                    break
                capture = self._open()
                if capture is not None:
                    self.reconnects += 1
                continue
            ok, image = capture.read()
            if not ok or image is None:  # the camera went away or the stream stopped
                capture.release()
                capture = None
                continue
            self.status = "live"
            frame = Frame(self._count, time.monotonic() - self.started, image)
            self._count += 1
            with self._fresh:
                self._latest = frame
                self._fresh.notify_all()
        if capture is not None:
            capture.release()
        self.status = "closed"

    def read(self, timeout: float = 1.0) -> Frame | None:
        """The newest frame not yet returned, waiting up to ``timeout`` seconds for one."""
        deadline = time.monotonic() + timeout
        with self._fresh:
            while True:
                frame = self._latest
                if frame is not None:
                    self._latest = None
                    return frame
                left = deadline - time.monotonic()
                if left <= 0 or self._stop.is_set():
                    return None
                self._fresh.wait(left)

    @property
    def finished(self) -> bool:
        return self._stop.is_set()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)


def open_source(spec: str | int, realtime: bool = False) -> Source:
    """A source from what a user types: ``0`` (webcam), a video file, a folder, or an rtsp/http(s) URL."""
    text = str(spec).strip()
    if text.isdigit():
        return LiveCapture(int(text), f"camera {text}")
    if text.startswith(("rtsp://", "rtsps://", "http://", "https://")):
        return LiveCapture(text, f"stream {text}")
    path = Path(text).expanduser()
    if path.is_dir():
        return ImageFolder(path)
    if path.suffix.lower() in VIDEO_SUFFIXES or path.exists():
        return VideoFile(path, realtime)
    raise SourceError(
        f"cannot open source {text!r}: expected a camera number, a video file, a folder of images or an rtsp/http URL"
    )
