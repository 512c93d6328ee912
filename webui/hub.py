"""Fan-out to viewers: the pipeline publishes each JPEG frame and each state message once, and every MJPEG or
SSE viewer picks up the latest bytes when it is ready. A slow viewer skips frames; nobody waits for viewers."""

from __future__ import annotations

import threading
from collections.abc import Iterator


class Channel:
    """The latest message of one kind with a sequence number, and a condition to wait for the next."""

    def __init__(self) -> None:
        self.cond = threading.Condition()
        self.seq = 0
        self.data = b""
        self.published = 0
        self.viewers = 0
        self.closed = False

    def publish(self, data: bytes) -> None:
        with self.cond:
            self.seq += 1
            self.published += 1
            self.data = data
            self.cond.notify_all()

    def wait(self, after: int, timeout: float) -> tuple[int, bytes] | None:
        """The message after sequence ``after``, or None on timeout or close."""
        with self.cond:
            if not self.cond.wait_for(lambda: self.seq > after or self.closed, timeout):
                return None
            return None if self.closed else (self.seq, self.data)

    def close(self) -> None:
        with self.cond:
            self.closed = True
            self.cond.notify_all()

    def follow(self, limit: int = 0, keepalive: float = 15.0) -> Iterator[bytes | None]:
        """Messages as they come (the current one first), ``None`` when ``keepalive`` seconds pass quietly."""
        with self.cond:
            self.viewers += 1
        try:
            seq, sent = (self.seq - 1 if self.seq else 0), 0
            while not self.closed and (not limit or sent < limit):
                got = self.wait(seq, keepalive)
                if got is None:
                    if self.closed:
                        return
                    yield None
                    continue
                seq, data = got
                sent += 1
                yield data
        finally:
            with self.cond:
                self.viewers -= 1


class Hub:
    """The two channels: ``frames`` (JPEG bytes) and ``states`` (JSON bytes)."""

    def __init__(self) -> None:
        self.frames = Channel()
        self.states = Channel()

    def close(self) -> None:
        self.frames.close()
        self.states.close()
