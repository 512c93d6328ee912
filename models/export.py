"""Export a trained checkpoint to the shipped ONNX model: weights stored as float16, any input size.

The float model takes any input of whole strides (multiples of 32): the detector runs it on the whole
letterboxed frame (``--imgsz``, kept in the model's metadata) or on the part of it that changed
(``vision.regions``). Its output on the full input is the fixed-size export's, to the bit.

ONNX Runtime runs the graph in float32: every float16 weight goes through a ``Cast`` that the runtime folds
into a float32 constant when the session starts, so the file is half the size and the speed is unchanged.

    python -m models.export runs/detect/fuse640/weights/best.pt --imgsz 960x544 --out models/fuse-detector.onnx

``--int8 DIR`` writes an 8-bit model instead, for slow CPUs: weights int8 per channel, activations uint8 with
ranges measured on ``CALIBRATION_IMAGES`` frames of DIR, letterboxed as the detector does; the box decoding
(the head's distribution-to-box layer and what follows) stays float. Its speed and accuracy beside the float
model are in ``models/README.md``.
"""

from __future__ import annotations

import argparse
import shutil
import sys
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


CALIBRATION_IMAGES = 48


def quantize(model: Path, out: Path, images: list[Path], imgsz: tuple[int, int]) -> None:
    """Float32 ONNX ``model`` -> int8 ONNX at ``out`` (QDQ, ONNX Runtime's static quantization), calibrated on
    ``images``; the head's box decoding stays float (it works in input pixels, where an 8-bit step spans several)."""
    import cv2
    import onnx
    from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static
    from onnxruntime.quantization.shape_inference import quant_pre_process

    from vision.detector import letterbox

    class Frames(CalibrationDataReader):
        def __init__(self) -> None:
            self.paths = iter(images)

        def get_next(self) -> dict | None:
            for path in self.paths:
                image = cv2.imread(str(path))
                if image is not None:
                    padded = letterbox(image, *imgsz)[0]
                    return {"images": cv2.dnn.blobFromImage(padded, 1 / 255.0, swapRB=True)}
            return None

    prepared = out.with_suffix(".prepared.onnx")
    quant_pre_process(str(model), str(prepared), skip_symbolic_shape=True)
    head = [n.name for n in onnx.load(str(prepared)).graph.node
            if n.name.startswith("/model.23/") and ("dfl" in n.name or "/cv" not in n.name)]
    try:
        quantize_static(str(prepared), str(out), Frames(), quant_format=QuantFormat.QDQ, per_channel=True,
                        activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8, nodes_to_exclude=head)
    finally:
        prepared.unlink(missing_ok=True)


def calibration_images(folder: str | Path) -> list[Path]:
    """Up to ``CALIBRATION_IMAGES`` images of ``folder`` (searched recursively), spread evenly over its sorted list."""
    found = sorted(p for p in Path(folder).rglob("*") if p.suffix.lower() in (".jpg", ".jpeg", ".png"))
    if not found:
        raise ModelsError(f"no .jpg or .png images under {str(folder)!r} to calibrate the int8 model on")
    step = max(1, len(found) // CALIBRATION_IMAGES)
    return found[::step][:CALIBRATION_IMAGES]


def export(weights: str | Path, *, imgsz: tuple[int, int] = (960, 544), out: str | Path, half: bool = True,
           int8: str | Path | None = None) -> Path:
    """``weights`` (.pt) -> ONNX at ``out`` with input (1, 3, H, W) (the float model any H, W of whole strides,
    ``imgsz`` its default; the int8 one ``imgsz`` only), ultralytics' metadata (names, imgsz); ``int8``: a
    folder of frames to calibrate an 8-bit model on (``half`` is then moot)."""
    from models.offline import ultralytics_offline

    if not Path(weights).is_file():
        raise ModelsError(f"no checkpoint at {str(weights)!r}")
    images = calibration_images(int8) if int8 is not None else []
    ultralytics = ultralytics_offline()
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "model.pt"
        shutil.copy(weights, copy)
        model = ultralytics.YOLO(str(copy), task="detect")
        onnx_file = Path(model.export(format="onnx", imgsz=(imgsz[1], imgsz[0]), opset=17, simplify=False,
                                      dynamic=not images))
        if images:
            quantize(onnx_file, onnx_file.with_name("int8.onnx"), images, imgsz)
            onnx_file = onnx_file.with_name("int8.onnx")
        elif half:
            half_storage(onnx_file)
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(onnx_file, out)
    return Path(out)


def main(argv: list[str] | None = None) -> int:
    from vision.detector import parse_size
    from vision.errors import VisionError

    parser = argparse.ArgumentParser(prog="python -m models.export")
    parser.add_argument("weights", help="checkpoint (.pt)")
    parser.add_argument("--imgsz", default="960x544", help="network input WxH (default 960x544)")
    parser.add_argument("--out", default=str(Path(__file__).parent / "fuse-detector.onnx"))
    parser.add_argument("--float32", action="store_true", help="keep float32 weights (twice the size)")
    parser.add_argument("--int8", metavar="DIR", help="write an 8-bit model calibrated on images under DIR")
    args = parser.parse_args(argv)
    try:
        size = parse_size(args.imgsz)
        assert size is not None
        path = export(args.weights, imgsz=size, out=args.out, half=not args.float32, int8=args.int8)
    except (ModelsError, VisionError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(f"wrote {path} ({path.stat().st_size / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
