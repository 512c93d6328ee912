"""``python -m webui.screenshots``: the README's pictures of the dashboard and the OBS overlay, taken in headless
Chromium from a real server playing the default game (the bundled sample, with its rendered video), a moment after
its first violation."""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import cv2
import numpy as np

from webui.browser import BrowserError, Chromium, find_chromium
from webui.process import Server, first_violation_at

OUT = Path(__file__).parent / "screenshots"
MAX_BYTES = 400_000


def _save(png: bytes, path: Path, width: int) -> int:
    """Write ``png`` scaled to ``width`` pixels (alpha kept), as small as PNG allows; returns its size."""
    image = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_UNCHANGED)
    if image.shape[1] > width:
        image = cv2.resize(image, (width, round(image.shape[0] * width / image.shape[1])), interpolation=cv2.INTER_AREA)
    ok, data = cv2.imencode(".png", image, [cv2.IMWRITE_PNG_COMPRESSION, 9])
    if len(data) > MAX_BYTES:  # a rendered camera frame compresses badly: 6 bits per channel look the same
        image = (image & 0xFC) | (image >> 6)
        ok, data = cv2.imencode(".png", image, [cv2.IMWRITE_PNG_COMPRESSION, 9])
    path.write_bytes(data.tobytes())
    return len(data)


def take(out: Path = OUT) -> list[tuple[Path, int]]:
    out.mkdir(parents=True, exist_ok=True)
    seek = max(0.0, first_violation_at() - 1.0)
    written = []
    args = ["--new", "--seek", f"{seek:.2f}"]
    with tempfile.TemporaryDirectory() as tmp, Server(args, Path(tmp) / "s.sqlite") as srv:
        with Chromium(1600, 1000) as browser:
            page = browser.open(srv.url)
            page.wait_for("!!document.querySelector('#alerts .alert')", 20)
            page.wait_for("document.getElementById('video').naturalWidth > 0", 10)
            page.eval("new Promise(r => setTimeout(r, 400))")
            path = out / "dashboard.png"
            written.append((path, _save(page.screenshot(), path, 1280)))
        with Chromium(1280, 400, transparent=True) as browser:
            page = browser.open(srv.url + "overlay?alert_seconds=600")
            page.wait_for("!!document.querySelector('#alerts li')", 20)
            path = out / "overlay.png"
            written.append((path, _save(page.screenshot(), path, 1280)))
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m webui.screenshots", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help=f"folder (default {OUT})")
    args = parser.parse_args(argv)
    if find_chromium() is None:
        print("error: chromium is not installed (apt-get install chromium)", file=sys.stderr)
        return 2
    try:
        for path, size in take(args.out):
            print(f"wrote {path} ({size // 1000} KB)" + ("  (over 400 KB!)" if size > MAX_BYTES else ""))
    except BrowserError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
