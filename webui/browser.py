"""Headless Chromium driven over the DevTools protocol on a pipe (``--remote-debugging-pipe``): standard library
only, no WebDriver. Used by the browser tests and by ``python -m webui.screenshots``.

Chromium's ``--dump-dom``/``--screenshot`` modes wait for the page to finish loading, which a page holding an
MJPEG stream and an event stream never does, so the pages are driven in real time instead: open a page, wait
for a condition in its DOM, read text, take a PNG screenshot (with a transparent default background when
asked).
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import shutil
import subprocess
import tempfile
import time
from typing import Any

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-default-apps", "--disable-extensions", "--mute-audio", "--hide-scrollbars")
CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "chrome")


class BrowserError(RuntimeError):
    pass


def find_chromium() -> str | None:
    """The path of a Chromium binary (``$CHROMIUM`` first), or None."""
    wanted = os.environ.get("CHROMIUM")
    if wanted:
        return shutil.which(wanted) or (wanted if os.path.isfile(wanted) else None)
    return next((p for p in map(shutil.which, CANDIDATES) if p), None)


class Chromium:
    """One headless browser with a fresh profile; ``with Chromium() as b: page = b.open(url)``."""

    def __init__(self, width: int = 1600, height: int = 1000, transparent: bool = False,
                 binary: str | None = None) -> None:
        binary = binary or find_chromium()
        if binary is None:
            raise BrowserError("chromium is not installed (apt-get install chromium)")
        self.profile = tempfile.mkdtemp(prefix="fuse-referee-chromium-")
        to_child, self._to_browser = os.pipe()
        self._from_browser, from_child = os.pipe()

        def plumb() -> None:  # in the child: the protocol reads fd 3 and writes fd 4
            a = fcntl.fcntl(to_child, fcntl.F_DUPFD, 10)
            b = fcntl.fcntl(from_child, fcntl.F_DUPFD, 10)
            os.dup2(a, 3)
            os.dup2(b, 4)

        flags = [*FLAGS, f"--user-data-dir={self.profile}", "--remote-debugging-pipe",
                 f"--window-size={width},{height}"]
        self.proc = subprocess.Popen([binary, *flags, "about:blank"], preexec_fn=plumb, close_fds=False,
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_child)
        os.close(from_child)
        self._buffer = b""
        self._next_id = 0
        self.width, self.height, self.transparent = width, height, transparent

    def send(self, method: str, params: dict[str, Any] | None = None, session: str | None = None,
             timeout: float = 20.0) -> dict[str, Any]:
        """Send one command and wait for its answer (events in between are dropped)."""
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            while b"\0" not in self._buffer:
                if time.monotonic() > deadline or self.proc.poll() is not None:
                    raise BrowserError(f"no answer from chromium to {method}")
                chunk = os.read(self._from_browser, 1 << 16)
                if not chunk:
                    raise BrowserError(f"chromium closed the pipe during {method}")
                self._buffer += chunk
            raw, _, self._buffer = self._buffer.partition(b"\0")
            reply = json.loads(raw)
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise BrowserError(f"{method}: {reply['error'].get('message')}")
                return reply.get("result", {})

    def open(self, url: str) -> Page:
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        page = Page(self, session)
        page.call("Page.enable")
        page.call("Emulation.setDeviceMetricsOverride",
                  {"width": self.width, "height": self.height, "deviceScaleFactor": 1, "mobile": False})
        page.call("Page.navigate", {"url": url})
        if self.transparent:  # (the --default-background-color flag loses the page when driven over the pipe)
            page.call("Emulation.setDefaultBackgroundColorOverride", {"color": {"r": 0, "g": 0, "b": 0, "a": 0}})
        return page

    def close(self) -> None:
        try:
            if self.proc.poll() is None:
                self.send("Browser.close", timeout=5)
        except (BrowserError, OSError):
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=5)
        for fd in (self._to_browser, self._from_browser):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self) -> Chromium:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Page:
    def __init__(self, browser: Chromium, session: str) -> None:
        self.browser, self.session = browser, session

    def call(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        return self.browser.send(method, params, self.session)

    def eval(self, expression: str) -> Any:
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        if "exceptionDetails" in result:
            raise BrowserError(f"{expression!r}: {result['exceptionDetails'].get('text')}")
        return result["result"].get("value")

    def wait_for(self, expression: str, timeout: float = 15.0, interval: float = 0.1) -> Any:
        """Poll a JavaScript expression until it is truthy; returns its value."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                value = self.eval(expression)
            except BrowserError:
                value = None
            if value:
                return value
            if time.monotonic() > deadline:
                raise BrowserError(f"timed out after {timeout:g} s waiting for {expression!r}")
            time.sleep(interval)

    def text(self, selector: str) -> str:
        return self.eval(f"(document.querySelector({json.dumps(selector)}) || {{}}).textContent || ''")

    def screenshot(self, path: str | None = None) -> bytes:
        """A PNG of the viewport (with alpha when the browser is transparent)."""
        data = base64.b64decode(self.call("Page.captureScreenshot", {"format": "png"})["data"])
        if path:
            with open(path, "wb") as handle:
                handle.write(data)
        return data
