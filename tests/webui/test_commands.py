"""``fuse-referee run`` and ``fuse-referee bench webui``: options, errors, and a cheap import."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from webui import bench
from webui.cli import main


def test_importing_the_package_and_commands_is_cheap() -> None:
    code = "import sys, webui, webui.commands; print(sorted({'flask', 'cv2', 'numpy', 'rules'} & set(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_run_is_registered() -> None:
    with pytest.raises(SystemExit) as done:
        main(["run", "--help"])
    assert done.value.code == 0


@pytest.mark.parametrize(("args", "words"), [
    (["--port", "70000"], "--port must be 0-65535"),
    (["--fps", "0"], "--fps must be 1-120"),
    (["--source", "manual", "--players", "12"], "not 12"),
    (["--source", "manual", "--difficulty", "nightmare"], "'nightmare'"),
    (["--source", "manual", "--windows"], "--model and --windows need a camera"),
    (["--model", "other.onnx"], "not 'the default'"),
])
def test_run_bad_options(tmp_path, capsys: pytest.CaptureFixture[str], args: list[str], words: str) -> None:
    assert main(["run", "--db", str(tmp_path / "s.sqlite"), "--new", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and words in err and err.count("\n") == 1


def test_bench_runs_and_reports_rates(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--seconds", "1", "--viewers", "2", "--json"]) in (0, 1)
    result = json.loads(capsys.readouterr().out)
    assert result["viewers"] == 2 and result["target_fps"] == 15
    assert result["without_viewers"]["fps"] > 10 and result["with_viewers"]["fps"] > 10
    assert result["with_viewers"]["video_viewers"] == 2 and result["with_viewers"]["event_viewers"] == 2
    assert result["per_video_viewer_fps"] > 5 and not result["viewer_errors"]


def test_bench_bad_input_is_a_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    from webui.cli import main

    assert main(["bench", "pipeline", "--frames", "2", "--model", "no-such-model.onnx"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == "fuse-referee bench pipeline: no model file at 'no-such-model.onnx'"
