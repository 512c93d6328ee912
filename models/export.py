"""Export a trained checkpoint to the shipped ONNX model: fixed input size, weights stored as float16.

ONNX Runtime runs the graph in float32: every float16 weight goes through a ``Cast`` that the runtime folds
into a float32 constant when the session starts, so the file is half the size and the speed is unchanged.

    python -m models.export runs/detect/fuse640/weights/best.pt --imgsz 960x544 --out models/fuse-detector.onnx
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
from pathlib import Path

from models.errors import ModelsError


def half_storage(path: Path) -> None:
    """Rewrite the ONNX file at ``path`` with float16 initialisers, each cast back to float32 in the graph."""
    import numpy as np
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    model = onnx.load(str(path))
    graph = model.graph
    casts = []
    for init in graph.initializer:
        if init.data_type != TensorProto.FLOAT or np.prod(init.dims) < 16:
            continue
        array = numpy_helper.to_array(init).astype(np.float16)
        name = init.name
        init.CopyFrom(numpy_helper.from_array(array, name + "_f16"))
        casts.append(helper.make_node("Cast", [name + "_f16"], [name], to=TensorProto.FLOAT, name=name + "_cast"))
    for node in reversed(casts):
        graph.node.insert(0, node)
    onnx.checker.check_model(model)
    onnx.save(model, str(path))


def export(weights: str | Path, *, imgsz: tuple[int, int] = (960, 544), out: str | Path, half: bool = True) -> Path:
    """``weights`` (.pt) -> ONNX at ``out`` with input (1, 3, height, width), ultralytics' metadata (names)."""
    from models.offline import ultralytics_offline

    if not Path(weights).is_file():
        raise ModelsError(f"no checkpoint at {str(weights)!r}")
    ultralytics = ultralytics_offline()
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "model.pt"
        shutil.copy(weights, copy)
        model = ultralytics.YOLO(str(copy), task="detect")
        onnx_file = Path(model.export(format="onnx", imgsz=(imgsz[1], imgsz[0]), opset=17, simplify=False))
        if half:
            half_storage(onnx_file)
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(onnx_file, out)
    return Path(out)


def main(argv: list[str] | None = None) -> int:
    from vision.detector import parse_size

    parser = argparse.ArgumentParser(prog="python -m models.export")
    parser.add_argument("weights", help="checkpoint (.pt)")
    parser.add_argument("--imgsz", default="960x544", help="network input WxH (default 960x544)")
    parser.add_argument("--out", default=str(Path(__file__).parent / "fuse-detector.onnx"))
    parser.add_argument("--float32", action="store_true", help="keep float32 weights (twice the size)")
    args = parser.parse_args(argv)
    size = parse_size(args.imgsz)
    assert size is not None
    path = export(args.weights, imgsz=size, out=args.out, half=not args.float32)
    print(f"wrote {path} ({path.stat().st_size / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
