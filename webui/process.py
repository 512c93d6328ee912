"""``fuse-referee run`` in a child process, for the benchmark, the screenshots and the tests: start it, read the
address and token it prints, talk to it over HTTP, kill it (gently or with SIGKILL, as a crash would)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any


class ServerError(RuntimeError):
    pass


class Server:
    """A running server: ``url`` (ends with ``/``), ``token``, ``get_json(path)``, ``post(path, body)``."""

    def __init__(self, args: list[str], db: str | Path, timeout: float = 30.0, env: dict[str, str] | None = None):
        command = [sys.executable, "-m", "webui.commands", "run", "--db", str(db), "--port", "0", *args]
        child_env = {**os.environ, **(env or {}), "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                     env=child_env, cwd=Path(__file__).resolve().parent.parent)
        self.lines: list[str] = []
        self.url = self.token = ""
        deadline = time.monotonic() + timeout
        while not (self.url and self.token):
            line = self.proc.stdout.readline() if self.proc.stdout else ""
            if not line:
                raise ServerError("the server stopped before printing its address:\n" + "".join(self.lines))
            self.lines.append(line)
            if line.startswith("dashboard:"):
                self.url = line.split()[1]
            if line.startswith("controls:"):
                self.token = line.split("token=")[1].split()[0]
            if time.monotonic() > deadline:
                self.kill()
                raise ServerError("the server did not print its address in time")
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self) -> None:
        for line in self.proc.stdout or ():
            self.lines.append(line)

    def get(self, path: str, timeout: float = 10.0) -> bytes:
        with urllib.request.urlopen(self.url + path.lstrip("/"), timeout=timeout) as reply:
            return reply.read()

    def get_json(self, path: str) -> Any:
        return json.loads(self.get(path))

    def post(self, path: str, body: dict[str, Any] | None = None) -> Any:
        request = urllib.request.Request(self.url + path.lstrip("/"), json.dumps(body or {}).encode(), method="POST",
                                         headers={"Content-Type": "application/json", "X-Referee-Token": self.token})
        with urllib.request.urlopen(request, timeout=10) as reply:
            return json.loads(reply.read())

    def wait_for(self, predicate: Any, timeout: float = 15.0, interval: float = 0.1) -> Any:
        """Poll ``predicate(state)`` on ``/api/state`` until it returns something truthy."""
        deadline = time.monotonic() + timeout
        while True:
            state = self.get_json("api/state")
            value = predicate(state)
            if value:
                return value
            if time.monotonic() > deadline:
                raise ServerError("timed out waiting for the server's state")
            time.sleep(interval)

    def kill(self, hard: bool = False) -> int:
        """Stop the server: SIGTERM (it saves and closes) or SIGKILL (a crash)."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL if hard else signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        return int(self.proc.returncode or 0)

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *exc: object) -> None:
        self.kill()


def first_violation_at(source: str = "auto") -> float:
    """Seconds of play at which the default game's first illegal report comes (for ``--seek``)."""
    from rules.clock import ManualClock
    from rules.referee import Referee
    from webui.table import make_feed

    setup, feed = make_feed(source, {})
    referee = Referee(setup.config, ManualClock())
    for report in feed.poll(float("inf")):
        referee.clock.seconds = report.elapsed  # type: ignore[attr-defined]
        if not referee.submit(report.action, report.source, report.confidence).accepted:
            return report.elapsed
    raise ServerError(f"the {source} game has no illegal report")
