"""``fuse-referee bench pipeline`` on a few frames of the sample: both passes run and say how many frames were
still (kept their detections), unless every frame is detected."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("onnxruntime", reason="the detector runs on onnxruntime")


def test_the_benchmark_reports_rates_and_still_frames(capsys: pytest.CaptureFixture[str]) -> None:
    from vision.bench_pipeline import main

    assert main(["--frames", "12", "--fps", "30"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"as fast as it goes: [\d.]+ frames/s; .*; \d+ of 11 judged frames still", out)
    assert re.search(r"live at 30 fps: judged \d+ of 12 frames", out)
    assert main(["--frames", "12", "--fps", "30", "--every-frame"]) == 0
    assert "still" not in capsys.readouterr().out.split("\n", 1)[1]
