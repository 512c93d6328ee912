"""A small progress bar on stderr (no tqdm): redraws in place on a terminal, prints every tenth otherwise."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    def __init__(self, total: int, label: str = "", stream: TextIO | None = None, enabled: bool = True) -> None:
        self.total, self.label, self.done = total, label, 0
        self.stream = stream or sys.stderr
        self.enabled = enabled and total > 0
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.start = time.perf_counter()
        self._last = 0.0
        self._last_tenth = -1

    def update(self, n: int = 1) -> None:
        self.done += n
        if not self.enabled:
            return
        now = time.perf_counter()
        tenth = self.done * 10 // self.total
        if self.tty and (now - self._last > 0.1 or self.done >= self.total):
            self._last = now
            self.stream.write("\r" + self.line())
            self.stream.flush()
        elif not self.tty and tenth != self._last_tenth:
            self._last_tenth = tenth
            self.stream.write(self.line() + "\n")

    def rate(self) -> float:
        return self.done / max(time.perf_counter() - self.start, 1e-9)

    def line(self, width: int = 30) -> str:
        filled = width * self.done // max(self.total, 1)
        rate = self.rate()
        left = (self.total - self.done) / rate if rate > 0 else 0.0
        eta = f"{int(left // 60)}:{int(left % 60):02d}"
        return f"{self.label} [{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} {rate:5.1f}/s eta {eta}"

    def close(self) -> None:
        if self.enabled and self.tty:
            self.stream.write("\n")
            self.stream.flush()
