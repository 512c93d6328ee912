"""The dice-and-cards detector: load the shipped models once, then ``detect(frame) -> Detections``.

Two stages: the locator (``models/fuse-detector.onnx``, YOLO) finds dice and cards on the letterboxed frame;
the die reader (``vision.reader``) reads each die's colour and face from a crop of the full-resolution frame.
A one-stage model whose classes are already colour x face (the renderer's classes) is run without the reader.
Either way the result names dice as the renderer does (``red5``), and a die's confidence is the locator's
times the reader's colour and face probabilities (each also kept in ``Detections.data``).

The default backend runs ``models/fuse-detector.onnx`` with OpenVINO on the CPU in float32, compiled for the
frame's network size (its outputs ONNX Runtime's to 2e-4, in 15 % less time on the 2-core machine);
``backend="openvino-bf16"`` computes in bfloat16 where the CPU does so natively (AVX-512 BF16 or AMX: half the
time again, and its detections differ a little: ``models/README.md``); ``backend="onnx"`` runs it with ONNX
Runtime (the default where OpenVINO is not installed: three times faster than ultralytics' PyTorch path and four
times faster than OpenCV DNN on the 2-core machine); ``backend="torch"`` runs a ``.pt`` checkpoint through
ultralytics instead.
Bad frames raise a one-line ``DetectorError`` (not an image, empty, wrong dtype or channels) or give empty
``Detections`` (frames too small to hold a die); grey and BGRA frames are converted.
"""

from __future__ import annotations

import ast
import importlib.util
import os
import threading
from pathlib import Path

import cv2
import numpy as np

from vision.detections import Detections
from vision.errors import DetectorError
from vision.reader import DieReader

SHIPPED_MODEL = Path(__file__).resolve().parent.parent / "models" / "fuse-detector.onnx"
BACKENDS = ("openvino", "openvino-bf16", "onnx", "torch")
OPENVINO_PRECISION = {"openvino": "f32", "openvino-bf16": "bf16"}
BACKEND_ENV = "FUSE_REFEREE_BACKEND"
"""Names the backend of every detector not given one (the live pipeline, ``score``, ``vision.evaluate``)."""
MIN_SIDE = 16
"""Frames with a side shorter than this (pixels) give empty detections."""


def letterbox(image: np.ndarray, width: int, height: int) -> tuple[np.ndarray, float, tuple[float, float]]:
    """Resize ``image`` (H, W, 3) to fit ``width`` x ``height`` keeping its aspect, pad evenly with grey 114.
    Returns the padded image, the scale and the (x, y) padding in network pixels."""
    h, w = image.shape[:2]
    scale = min(width / w, height / h)
    new_w, new_h = max(1, round(w * scale)), max(1, round(h * scale))
    if (new_w, new_h) != (w, h):
        image = cv2.resize(image, (new_w, new_h), interpolation=cv2.INTER_LINEAR)
    left, top = (width - new_w) // 2, (height - new_h) // 2
    image = cv2.copyMakeBorder(
        image, top, height - new_h - top, left, width - new_w - left, cv2.BORDER_CONSTANT, value=(114, 114, 114)
    )
    return image, scale, (float(left), float(top))


def as_bgr(image: object) -> np.ndarray:
    """Check a frame and return it as (H, W, 3) uint8 BGR; grey (H, W) or (H, W, 1) and BGRA are converted."""
    if not isinstance(image, np.ndarray):
        raise DetectorError(f"expected a decoded image (numpy array), got {type(image).__name__}")
    if image.size == 0:
        raise DetectorError(f"empty image of shape {image.shape}")
    if image.dtype != np.uint8:
        raise DetectorError(f"expected an 8-bit image, got dtype {image.dtype}")
    if image.ndim == 2 or (image.ndim == 3 and image.shape[2] == 1):
        return cv2.cvtColor(image.reshape(image.shape[:2]), cv2.COLOR_GRAY2BGR)
    if image.ndim == 3 and image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    if image.ndim != 3 or image.shape[2] != 3:
        raise DetectorError(f"expected an H x W x 3 BGR image, got shape {image.shape}")
    return image


def read_image(path: str | Path) -> np.ndarray:
    """Decode an image file (BGR); a one-line ``DetectorError`` if it is missing or not a decodable image."""
    data = np.fromfile(str(path), np.uint8) if Path(path).is_file() else None
    if data is None:
        raise DetectorError(f"no image file at {str(path)!r}")
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None:
        raise DetectorError(f"cannot decode {str(path)!r} as an image (corrupt or not an image)")
    return image


def game_colours(edition: str) -> frozenset[str]:
    """The die colours (``red``, ``black/yellow``) of an edition's dice set, as the reader names them."""
    from rules.dice import Die, load_dice_set

    return frozenset(str(Die(kind.colours, 1))[:-1] for kind in load_dice_set(edition).kinds)


def parse_size(text: str | int | tuple[int, int] | None) -> tuple[int, int] | None:
    """``"960x544"``, ``"960"``, 960 or (960, 544) -> (width, height); sides are rounded up to multiples of 32.
    Anything else (``"9x"``, ``"abc"``, a side under 1) is a ``DetectorError``."""
    if text is None:
        return None
    try:
        if isinstance(text, tuple):
            w, h = (int(v) for v in text)
        elif isinstance(text, int) or "x" not in str(text).lower():
            w = h = int(text)
        else:
            w, h = (int(v) for v in str(text).lower().split("x"))
    except ValueError:
        raise DetectorError(f"bad network input size {text!r}: expected WxH or W in pixels, as 960x544") from None
    if w < 1 or h < 1:
        raise DetectorError(f"bad network input size {text!r}: sides must be at least 1 pixel")
    return -(-w // 32) * 32, -(-h // 32) * 32


STRIDE = 32
"""The network's coarsest stride: a window's sides are whole multiples of it."""
Box = tuple[float, float, float, float]


def _stride_floor(value: float) -> int:
    return max(0, int(value // STRIDE) * STRIDE)


def _stride_ceil(value: float, limit: int) -> int:
    return min(limit, -int(-value // STRIDE) * STRIDE)


def default_backend(model: Path) -> str:
    """``torch`` for a checkpoint; for an ONNX file ``$FUSE_REFEREE_BACKEND`` if set, else OpenVINO where it is
    installed, else ONNX Runtime."""
    if model.suffix == ".pt":
        return "torch"
    return os.environ.get(BACKEND_ENV) or ("openvino" if importlib.util.find_spec("openvino") else "onnx")


def resolve(model: str | Path | None = None, backend: str | None = None) -> tuple[Path, str]:
    """The model file and backend a ``Detector`` would load, checked without loading them (a one-line
    ``DetectorError`` for a missing file or an unknown backend): a live feed checks them at start-up."""
    path = Path(model) if model else SHIPPED_MODEL
    if not path.is_file():
        raise DetectorError(f"no model file at {str(path)!r}")
    backend = backend or default_backend(path)
    if backend not in BACKENDS:
        raise DetectorError(f"unknown backend {backend!r}: expected {', '.join(BACKENDS)}")
    return path, backend


class Detector:
    """Loads a model once; ``detect(image)`` runs it on one BGR frame.

    ``model``: an ``.onnx`` or ``.pt`` file (default: the shipped ONNX); ``backend``: one of ``BACKENDS`` (default:
    ``default_backend``); ``imgsz``: network input (width, height) for the torch backend or a dynamic ONNX model
    (a fixed ONNX model uses its own); ``conf``, ``iou``: score threshold and NMS overlap; ``threads``: the
    runtime's threads (default: every core); ``reader``: the die reader's ONNX file
    (default: the shipped one), used when the model's classes are the locator's (``die`` and the card types);
    ``colours``: the die colours that exist in the game (``game_colours(edition)``), or None for all.
    ``windowed``: the model takes inputs of any size, so ``detect_window`` can run it on part of a frame.
    """

    def __init__(
        self,
        model: str | Path | None = None,
        *,
        backend: str | None = None,
        imgsz: str | int | tuple[int, int] | None = None,
        conf: float = 0.25,
        iou: float = 0.5,
        max_det: int = 300,
        threads: int | None = None,
        reader: str | Path | None = None,
        colours: frozenset[str] | None = None,
    ) -> None:
        self.path, self.backend = resolve(model, backend)
        self.conf, self.iou, self.max_det, self.colours = conf, iou, max_det, colours
        size = parse_size(imgsz)
        if self.backend == "torch":
            self._load_torch(size)
        elif self.backend in OPENVINO_PRECISION:
            self._load_openvino(threads, size, OPENVINO_PRECISION[self.backend])
        else:
            self._load_onnx(threads, size)
        self.reader: DieReader | None = None
        self.located_names = self.names
        if "die" in self.names:
            from datasets.classes import class_names

            self.reader = DieReader(reader, threads=threads)
            self.names = class_names()
            self._index = {name: i for i, name in enumerate(self.names)}

    def _load_onnx(self, threads: int | None, size: tuple[int, int] | None) -> None:
        try:
            import onnxruntime as ort
        except ImportError as error:
            raise DetectorError("the onnx backend needs onnxruntime (pip install onnxruntime)") from error
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads or os.cpu_count() or 1
        # no spin-waiting after a run: the locator and the reader take turns on the same cores
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        try:
            self.session = ort.InferenceSession(str(self.path), options, providers=["CPUExecutionProvider"])
        except Exception as error:  # onnxruntime raises its own exception types
            raise DetectorError(f"cannot load {str(self.path)!r} with onnxruntime: {error}") from error
        self.input = self.session.get_inputs()[0]
        self._read_export(self.session.get_modelmeta().custom_metadata_map, *self.input.shape[2:], size)
        self._run = lambda blob: self.session.run(None, {self.input.name: blob})[0]

    def _load_openvino(self, threads: int | None, size: tuple[int, int] | None, precision: str) -> None:
        try:
            import openvino as ov
        except ImportError as error:
            raise DetectorError("the openvino backend needs openvino (pip install openvino)") from error

        core = ov.Core()
        try:
            model = core.read_model(str(self.path))
        except Exception as error:  # openvino raises its own exception types
            raise DetectorError(f"cannot load {str(self.path)!r} with openvino: {error}") from error
        info = model.get_rt_info()
        meta = {k: v.astype(str) for k, v in info["framework"].items()} if "framework" in info else {}
        self._read_export(meta, *(d.get_length() if d.is_static else None for d in model.inputs[0].partial_shape[2:]),
                          size)
        cores = os.cpu_count() or 1
        threads = threads or cores
        streams = max(1, cores // threads)  # frames run side by side (the pipeline's workers), each on its threads
        config = {"INFERENCE_NUM_THREADS": threads * streams, "NUM_STREAMS": streams,
                  "INFERENCE_PRECISION_HINT": precision}
        # the whole frame's size compiled as such: a model compiled for any size runs it far slower; that one is
        # compiled only when a window first needs it
        whole = model.clone()
        whole.reshape([1, 3, self.size[1], self.size[0]])
        self._compiled = {self.size: core.compile_model(whole, "CPU", config)}
        self._any_size = lambda: core.compile_model(model, "CPU", config)
        self._compiling = threading.Lock()
        self._requests = threading.local()  # an infer request serves one thread at a time
        self._run = self._openvino_infer

    def _read_export(self, meta: dict[str, str], height: object, width: object,
                     size: tuple[int, int] | None) -> None:
        """Class names and network size from an export's metadata and its input's height and width (ints when
        the export takes one size only)."""
        names = ast.literal_eval(meta["names"]) if "names" in meta else {}
        self.names = tuple(names[i] for i in range(len(names)))
        self.windowed = not (isinstance(height, int) and isinstance(width, int))
        if not self.windowed:
            size = (width, height)  # type: ignore[assignment]
        elif size is None and "imgsz" in meta:  # the export's own size, [height, width]
            height, width = ast.literal_eval(meta["imgsz"])
            size = (int(width), int(height))  # type: ignore[call-overload]
        self.size = size or (640, 640)

    def _openvino_infer(self, blob: np.ndarray) -> np.ndarray:
        size = (blob.shape[3], blob.shape[2])
        key = size if size in self._compiled else None  # None: the model of any size (a window)
        requests = self._requests.__dict__  # this thread's infer requests, by compiled model
        if key not in requests:
            with self._compiling:
                if key not in self._compiled:
                    self._compiled[key] = self._any_size()
            requests[key] = self._compiled[key].create_infer_request()
        return requests[key].infer({0: blob})[0]

    def _load_torch(self, size: tuple[int, int] | None) -> None:
        try:
            from models.offline import ultralytics_offline

            self.model = ultralytics_offline().YOLO(str(self.path), task="detect")
        except ImportError as error:
            raise DetectorError("the torch backend needs ultralytics (pip install ultralytics)") from error
        names = self.model.names
        self.names = tuple(names[i] for i in range(len(names)))
        self.size = size or (960, 544)
        self.windowed = False

    def detect(self, image: np.ndarray) -> Detections:
        """Detections in ``image`` (H, W, 3 uint8 BGR; grey and BGRA accepted), in its pixels."""
        image = as_bgr(image)
        height, width = image.shape[:2]
        if min(height, width) < MIN_SIDE:
            return Detections.empty(self.names)
        if self.backend == "torch":
            result = self.model.predict(
                image,
                imgsz=(self.size[1], self.size[0]),
                conf=self.conf,
                iou=self.iou,
                max_det=self.max_det,
                agnostic_nms=True,
                verbose=False,
            )[0]
            return self.read_dice(image, Detections.from_ultralytics(result))
        blob, scale, pad = self.preprocess(image)
        return self.read_dice(image, self.postprocess(self.infer(blob), scale, pad, (width, height)))

    def detect_window(self, image: np.ndarray, box: tuple[float, float, float, float]) -> tuple[Detections, Box]:
        """The detections of the part ``box`` (x1, y1, x2, y2 frame pixels) of ``image``, as ``detect`` finds them
        (the same scale) but with the network run on that part alone, widened to whole strides, and the part of
        the frame it saw. Needs a model of any input size (``windowed``); a box that is not in the frame runs
        the whole frame."""
        if not self.windowed:
            raise DetectorError(f"{self.path.name} takes {self.size[0]}x{self.size[1]} inputs only: no windows")
        image = as_bgr(image)
        height, width = image.shape[:2]
        if min(height, width) < MIN_SIDE:
            return Detections.empty(self.names), (0.0, 0.0, float(width), float(height))
        padded, scale, (left, top) = letterbox(image, *self.size)
        x1, y1 = (_stride_floor(v * scale + pad) for v, pad in zip(box[:2], (left, top)))
        x2, y2 = (_stride_ceil(v * scale + pad, side) for v, pad, side in zip(box[2:], (left, top), self.size))
        if x2 <= x1 or y2 <= y1:
            x1, y1, (x2, y2) = 0, 0, self.size
        blob = cv2.dnn.blobFromImage(padded[y1:y2, x1:x2], 1 / 255.0, swapRB=True)
        located = self.postprocess(self.infer(blob), scale, (left - x1, top - y1), (width, height))
        seen = (max(0.0, (x1 - left) / scale), max(0.0, (y1 - top) / scale),
                min(float(width), (x2 - left) / scale), min(float(height), (y2 - top) / scale))
        return self.read_dice(image, located), seen

    def preprocess(self, image: np.ndarray) -> tuple[np.ndarray, float, tuple[float, float]]:
        """ONNX stage 1: letterbox a BGR frame to the network size -> (1, 3, H, W) float32 RGB blob, scale, pad."""
        padded, scale, pad = letterbox(image, *self.size)
        return cv2.dnn.blobFromImage(padded, 1 / 255.0, swapRB=True), scale, pad

    def infer(self, blob: np.ndarray) -> np.ndarray:
        """ONNX stage 2: the network's raw output (1, 4 + classes, anchors)."""
        return self._run(blob)

    def postprocess(
        self, output: np.ndarray, scale: float, pad: tuple[float, float], size: tuple[int, int]
    ) -> Detections:
        """ONNX stage 3: threshold, NMS and map back to the frame of ``size`` = (width, height)."""
        return Detections.from_onnx(
            output,
            self.located_names,
            conf=self.conf,
            iou=self.iou,
            max_det=self.max_det,
            scale=scale,
            pad=pad,
            size=size,
        )

    def read_dice(self, image: np.ndarray, located: Detections) -> Detections:
        """Stage two: name each located die by its colour and face read from ``image``; a one-stage model's
        detections pass unchanged."""
        if self.reader is None:
            return located
        is_die = np.array([name == "die" for name in located.class_name], bool)
        names, colour_p, face_p = self.reader.read(image, located.xyxy[is_die], self.colours)
        class_id = np.empty(len(located), np.int64)
        class_id[~is_die] = [self._index[name] for name, die in zip(located.class_name, is_die) if not die]
        class_id[is_die] = [self._index[name] for name in names]
        read_colour, read_face = np.ones(len(located), np.float32), np.ones(len(located), np.float32)
        read_colour[is_die], read_face[is_die] = colour_p, face_p
        return Detections(
            located.xyxy,
            located.confidence * read_colour * read_face,
            class_id,
            self.names,
            data={"located": located.confidence, "colour_p": read_colour, "face_p": read_face},
        )

    def detect_file(self, path: str | Path) -> Detections:
        return self.detect(read_image(path))
