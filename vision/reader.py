"""Stage two of the detector: read each located die's colour(s) and top face from the full-resolution frame.

``DieReader().read(frame, boxes)`` cuts a 32 x 32 crop around every box (``models.reader.crop_die``, the same
cut as in training) and runs the reader network on all of them in one batch with ONNX Runtime.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import cv2
import numpy as np

from vision.errors import DetectorError

CROP = 32
"""Side of the square crop the reader sees, in pixels."""
MARGIN = 0.12
"""Context around a die's box, as a fraction of its longer side on each edge."""
SHIPPED_READER = Path(__file__).resolve().parent.parent / "models" / "die-reader.onnx"


def crop_die(image: np.ndarray, box: np.ndarray | list[float], size: int = CROP) -> np.ndarray:
    """The square crop around ``box`` (x1, y1, x2, y2 in ``image`` pixels) with ``MARGIN``, ``size`` x ``size``.
    Training (``models.reader``) cuts its crops with this too, so training and serving see dice alike."""
    x1, y1, x2, y2 = (float(v) for v in box)
    side = max(x2 - x1, y2 - y1) * (1 + 2 * MARGIN)
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    scale = size / max(side, 1.0)
    # one affine warp: crops, scales and pads (replicating the edge) in one pass
    matrix = np.array([[scale, 0, size / 2 - cx * scale], [0, scale, size / 2 - cy * scale]], np.float32)
    return cv2.warpAffine(
        image,
        matrix,
        (size, size),
        flags=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )


class DieReader:
    """Loads ``models/die-reader.onnx`` (or ``model``) once; ``read`` gives each box's colour and face."""

    def __init__(self, model: str | Path | None = None, *, threads: int | None = None) -> None:
        try:
            import onnxruntime as ort
        except ImportError as error:
            raise DetectorError("the die reader needs onnxruntime (pip install onnxruntime)") from error
        self.path = Path(model) if model else SHIPPED_READER
        if not self.path.is_file():
            raise DetectorError(f"no die-reader model at {str(self.path)!r}")
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads or os.cpu_count() or 1
        # no spin-waiting after a run: the locator and the reader take turns on the same cores
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        try:
            self.session = ort.InferenceSession(str(self.path), options, providers=["CPUExecutionProvider"])
        except Exception as error:  # onnxruntime raises its own exception types
            raise DetectorError(f"cannot load {str(self.path)!r} with onnxruntime: {error}") from error
        meta = self.session.get_modelmeta().custom_metadata_map
        if "colours" not in meta:
            raise DetectorError(f"{str(self.path)!r} is not a die reader (no colour names in its metadata)")
        self.colours: tuple[str, ...] = tuple(json.loads(meta["colours"]))
        self.crop = int(self.session.get_inputs()[0].shape[2])

    def read(
        self, image: np.ndarray, boxes: np.ndarray, colours: frozenset[str] | None = None
    ) -> tuple[list[str], np.ndarray, np.ndarray]:
        """For (N, 4) boxes in ``image`` (BGR): the die names (``red5``, ``black/yellow2``), and the colour and
        face probabilities of those readings, each (N,). ``colours`` limits the readings to the dice that exist
        in the game (FUSE has no split dice), the probabilities renormalised over them."""
        if len(boxes) == 0:
            return [], np.zeros(0, np.float32), np.zeros(0, np.float32)
        colour_p, face_p = self.read_crops(np.stack([crop_die(image, box, self.crop) for box in boxes]))
        if colours is not None:
            colour_p = colour_p * np.array([c in colours for c in self.colours], np.float32)
            colour_p /= np.maximum(colour_p.sum(1, keepdims=True), 1e-9)
        colour, face = colour_p.argmax(1), face_p.argmax(1)
        names = [f"{self.colours[c]}{f + 1}" for c, f in zip(colour, face)]
        rows = np.arange(len(boxes))
        return names, colour_p[rows, colour].astype(np.float32), face_p[rows, face].astype(np.float32)

    def read_crops(self, crops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Colour (N, colours) and face (N, 6) probabilities of (N, S, S, 3) uint8 BGR crops cut by ``crop_die``."""
        blob = crops.transpose(0, 3, 1, 2).astype(np.float32) / np.float32(255.0)
        colour_p, face_p = self.session.run(None, {"crops": blob})
        return colour_p, face_p
