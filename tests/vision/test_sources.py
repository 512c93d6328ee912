"""Frame sources: files, folders, bad input, and a real MJPEG stream that stops and comes back."""

from __future__ import annotations

import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.errors import SourceError
from vision.sources import ImageFolder, LiveCapture, VideoFile, open_source


def _image(value: int) -> np.ndarray:
    image = np.zeros((72, 128, 3), np.uint8)
    cv2.putText(image, str(value), (10, 60), cv2.FONT_HERSHEY_SIMPLEX, 2, (255, 255, 255), 3)
    image[:, :, 1] = value
    return image


def test_video_file_gives_every_frame_with_its_time(tmp_path: Path) -> None:
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (128, 72))
    for i in range(12):
        writer.write(_image(i * 10))
    writer.release()
    with open_source(str(path)) as source:
        frames = list(source)
    assert [f.index for f in frames] == list(range(12))
    assert frames[5].time == pytest.approx(0.5)
    assert abs(int(frames[3].image[..., 1].mean()) - 30) <= 3


def test_folder_skips_a_corrupt_image_and_says_so(tmp_path: Path) -> None:
    for i in range(3):
        cv2.imwrite(str(tmp_path / f"{i:03d}.png"), _image(i))
    (tmp_path / "001b.jpg").write_bytes(b"\xff\xd8 not really a jpeg")
    source = open_source(str(tmp_path))
    assert isinstance(source, ImageFolder)
    frames = list(source)
    assert len(frames) == 3
    assert source.skipped == ["001b.jpg: not a readable image"]


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("missing.mp4", "cannot open video 'missing.mp4': no such file"),
        ("notes.txt", "cannot open source 'notes.txt'"),
    ],
)
def test_bad_sources_get_one_line_errors(spec: str, message: str, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SourceError, match=message) as caught:
        open_source(spec)
    assert "\n" not in str(caught.value)


def test_empty_folder_and_undecodable_video(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="has no images"):
        open_source(str(tmp_path))
    bad = tmp_path / "broken.mp4"
    bad.write_bytes(b"\x00" * 100)
    with pytest.raises(SourceError, match="not a video OpenCV can decode"):
        VideoFile(bad)


class _Mjpeg(BaseHTTPRequestHandler):
    """A real HTTP MJPEG camera: multipart JPEG frames until the server is shut down."""

    running = threading.Event()

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        self.send_response(200)
        self.send_header("Content-Type", "multipart/x-mixed-replace; boundary=frame")
        self.end_headers()
        count = 0
        try:
            while self.running.is_set():
                jpeg = cv2.imencode(".jpg", _image(count % 200))[1].tobytes()
                self.wfile.write(b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: "
                                 + str(len(jpeg)).encode() + b"\r\n\r\n" + jpeg + b"\r\n")
                count += 1
                time.sleep(0.03)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def log_message(self, *args: object) -> None:
        pass


def _serve(port: int) -> ThreadingHTTPServer:
    server = ThreadingHTTPServer(("127.0.0.1", port), _Mjpeg)
    server.daemon_threads = True
    _Mjpeg.running.set()
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def _stop(server: ThreadingHTTPServer) -> None:
    _Mjpeg.running.clear()
    server.shutdown()
    server.server_close()


def test_stream_keeps_newest_frame_and_survives_the_camera_going_away() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = _serve(port)
    source = open_source(f"http://127.0.0.1:{port}/stream.mjpg")
    try:
        assert isinstance(source, LiveCapture)
        first = source.read(timeout=5)
        assert first is not None and first.image.shape == (72, 128, 3)
        time.sleep(0.5)  # a slow consumer: frames pile up at the server, but only the newest is kept
        later = source.read(timeout=5)
        assert later is not None and later.index > first.index + 3
        _stop(server)
        deadline = time.monotonic() + 10
        while source.status == "live" and time.monotonic() < deadline:
            source.read(timeout=0.2)
        assert source.status == "reconnecting"
        server = _serve(port)  # the camera comes back
        deadline = time.monotonic() + 15
        frame = None
        while frame is None and time.monotonic() < deadline:
            frame = source.read(timeout=1)
        assert frame is not None and source.status == "live" and source.reconnects >= 1
    finally:
        source.close()
        _stop(server)


def test_camera_that_does_not_exist(capfd: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SourceError, match="cannot open camera 7"):
        LiveCapture(7, "camera 7")
    assert "WARN" not in capfd.readouterr().err  # the one line only, not OpenCV's own warnings
