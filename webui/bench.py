"""``fuse-referee bench webui``: does a crowd of viewers slow the pipeline below its target rate?

Starts a real server (``fuse-referee run`` in a child process on 127.0.0.1, a fresh database) playing the
default game (the bundled sample, or the simulated game) in real time (``--speed`` plays its log faster),
measures the pipeline's frames/s and state updates/s with no viewers, then again with N MJPEG viewers
and N server-sent-event viewers reading at once (threads in this process), and stops everything by itself.
"""

from __future__ import annotations

import argparse
import http.client
import json
import tempfile
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from webui.process import Server


class Viewer(threading.Thread):
    """Reads a stream and counts messages (MJPEG frames or SSE ``state`` events)."""

    def __init__(self, host: str, port: int, path: str, marker: bytes) -> None:
        super().__init__(daemon=True)
        self.host, self.port, self.path, self.marker = host, port, path, marker
        self.count = 0
        self.bytes = 0
        self.error = ""
        self.stop = threading.Event()

    def run(self) -> None:
        # an event stream can be quiet for seconds between state changes, as a browser tolerates
        conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
        tail = b""
        try:
            conn.request("GET", self.path)
            reply = conn.getresponse()
            while not self.stop.is_set():
                chunk = reply.read1(65536)
                if not chunk:
                    break
                self.bytes += len(chunk)
                data = tail + chunk
                self.count += data.count(self.marker)
                tail = data[-len(self.marker) + 1:]
        except (OSError, http.client.HTTPException) as exc:
            if not self.stop.is_set():
                self.error = f"{type(exc).__name__}: {exc}"
        finally:
            conn.close()


def measure(server: Server, seconds: float) -> dict[str, float]:
    """Pipeline frames/s and state updates/s over ``seconds``, from the server's own counters."""
    first = server.get_json("api/stats")
    time.sleep(seconds)
    last = server.get_json("api/stats")
    span = last["time"] - first["time"]
    return {
        "fps": round((last["pipeline"]["frames"] - first["pipeline"]["frames"]) / span, 2),
        "state_updates_per_s": round((last["states_published"] - first["states_published"]) / span, 2),
        "step_ms_median": last["pipeline"]["step_ms_median"],
        "step_ms_p95": last["pipeline"]["step_ms_p95"],
        "seconds": round(span, 2),
        "video_viewers": last["viewers"]["video"],
        "event_viewers": last["viewers"]["events"],
    }


def run(seconds: float, viewers: int, fps: float, speed: float, source: str) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="fuse-referee-bench-") as tmp:
        args = ["--new", "--fps", str(fps), "--speed", str(speed), "--token", "bench"]
        if source != "auto":
            args += ["--source", source]
        with Server(args, Path(tmp) / "bench.sqlite") as server:
            time.sleep(1.0)  # warm up: the deal, the first frames
            alone = measure(server, seconds)
            address = urlparse(server.url)
            crowd = [Viewer(address.hostname or "127.0.0.1", address.port or 80, "/video.mjpg", b"--frame\r\n")
                     for _ in range(viewers)]
            crowd += [Viewer(address.hostname or "127.0.0.1", address.port or 80, "/api/stream", b"event: state")
                      for _ in range(viewers)]
            for viewer in crowd:
                viewer.start()
            time.sleep(1.0)
            counts = [(v.count, v.bytes) for v in crowd]
            started = time.monotonic()
            watched = measure(server, seconds)
            span = time.monotonic() - started
            received = [(v.count - c, v.bytes - b) for v, (c, b) in zip(crowd, counts)]
            for viewer in crowd:
                viewer.stop.set()
            for viewer in crowd:
                viewer.join(timeout=5)
            game = server.get_json("api/state")["game"]
        video, events = received[:viewers], received[viewers:]
    return {
        "target_fps": fps, "log_speed": speed, "viewers": viewers, "game": game["feed_label"],
        "without_viewers": alone, "with_viewers": watched,
        "per_video_viewer_fps": round(sum(c for c, _ in video) / max(1, len(video)) / span, 2),
        "video_mbytes_per_s": round(sum(b for _, b in video) / span / 1e6, 2),
        "per_event_viewer_updates_per_s": round(sum(c for c, _ in events) / max(1, len(events)) / span, 2),
        "viewer_errors": [v.error for v in crowd if v.error],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="fuse-referee bench webui", description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=8.0, help="length of each measurement (default 8)")
    parser.add_argument("--viewers", type=int, default=10, help="MJPEG viewers, and as many event viewers (default 10)")
    parser.add_argument("--fps", type=float, default=15.0, help="the pipeline's target rate (default 15)")
    parser.add_argument("--speed", type=float, default=1.0,
                        help="play the game's log this many times faster, (default 1: real time, as the table plays)")
    parser.add_argument("--source", default="auto", help="auto (sample, else simulated), simulated or sample")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if not 0 < args.seconds <= 120 or not 0 <= args.viewers <= 100:
        parser.error("--seconds must be in (0, 120] and --viewers in [0, 100]")
    result = run(args.seconds, args.viewers, args.fps, args.speed, args.source)
    if args.json:
        print(json.dumps(result))
        return 0
    alone, watched = result["without_viewers"], result["with_viewers"]
    print(f"webui pipeline, target {args.fps:g} frames/s; game: {result['game']}, log played x{args.speed:g}")
    print(f"  without viewers: {alone['fps']:6.2f} frames/s, {alone['state_updates_per_s']:5.2f} state updates/s, "
          f"step {alone['step_ms_median']} ms median, {alone['step_ms_p95']} ms p95")
    print(f"  with {watched['video_viewers']} video + {watched['event_viewers']} event viewers: {watched['fps']:6.2f} "
          f"frames/s, {watched['state_updates_per_s']:5.2f} state updates/s, step {watched['step_ms_median']} ms "
          f"median, {watched['step_ms_p95']} ms p95")
    print(f"  each video viewer got {result['per_video_viewer_fps']} frames/s ({result['video_mbytes_per_s']} MB/s in "
          f"all); each event viewer {result['per_event_viewer_updates_per_s']} updates/s")
    ok = watched["fps"] >= 0.95 * args.fps and not result["viewer_errors"]
    print(f"  {'OK' if ok else 'BELOW TARGET'}: {watched['fps']:.2f} of {args.fps:g} frames/s with viewers"
          + (f"; viewer errors: {result['viewer_errors'][:3]}" if result["viewer_errors"] else ""))
    return 0 if ok else 1
