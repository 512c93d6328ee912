"""Rebuild a trainable locator checkpoint from an exported ONNX model, so training can go on from it.

The export folds each convolution's batch norm into the convolution (weight and bias). To train again the
network needs its batch norms back; this module puts them back so that the network computes exactly what the
ONNX model computes: each folded convolution keeps its weight, and its batch norm gets the mean and variance of
that convolution's output over a few calibration images as running statistics, with scale and shift chosen so
that normalising by them gives the folded output again. In training mode a batch's own statistics then stand
close to those, so the first steps start from the shipped model rather than from a broken one.

    python -m models.recover models/fuse-detector.onnx runs/recovered.pt --images data/varied/images/train
"""

from __future__ import annotations

import argparse
import ast
import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from models.errors import ModelsError


def onnx_weights(path: str | Path) -> tuple[dict[str, np.ndarray], dict[str, str]]:
    """The initialisers of an ONNX file as float32 arrays by their PyTorch names, and its metadata."""
    import onnx
    from onnx import numpy_helper

    if not Path(path).is_file():
        raise ModelsError(f"no ONNX model at {str(path)!r}")
    model = onnx.load(str(path))
    weights = {
        init.name.removesuffix("_f16"): numpy_helper.to_array(init).astype(np.float32)
        for init in model.graph.initializer
    }
    return weights, {p.key: p.value for p in model.metadata_props}


def narrow_class_branches(weights: dict[str, np.ndarray], shapes: dict[str, tuple[int, ...]]) -> None:
    """Fit wider class branches of the detection head to the network being built, in place.

    The head's class branches are ``max(64, classes)`` wide, so a model first built for the renderer's 65 classes
    and then trained for 6 carries 65-wide branches, where ultralytics now builds 64. The branch's channels that
    its last layer weighs least are dropped, the same channels in every layer of the branch.
    """
    for key, shape in shapes.items():
        if key not in weights or weights[key].shape == shape or ".cv3." not in key:
            continue
        branch = key[: key.index(".cv3.") + len(".cv3.") + 2]  # e.g. model.23.cv3.0.
        last = weights[branch + "2.weight"]  # (classes, width, 1, 1)
        width = shapes[branch + "2.weight"][1]
        keep = np.sort(np.argsort(-np.abs(last).sum((0, 2, 3)))[:width])
        for name in [k for k in weights if k.startswith(branch)]:
            for axis, size in enumerate(weights[name].shape[:2]):
                if size == last.shape[1]:
                    weights[name] = np.take(weights[name], keep, axis=axis)


def calibration_batch(images: str | Path, *, count: int, size: int, seed: int = 0) -> np.ndarray:
    """``count`` images from the folder ``images``, each scaled to fit ``size`` and padded grey, RGB in 0..1."""
    if count < 1:
        raise ModelsError(f"calibration needs at least one image, not {count}")
    folder = Path(images)
    files = (
        sorted(p for p in folder.iterdir() if p.suffix.lower() in (".jpg", ".jpeg", ".png")) if folder.is_dir() else []
    )
    if not files:
        raise ModelsError(f"no images to calibrate with in {str(images)!r}")
    picked = np.random.default_rng(seed).choice(len(files), min(count, len(files)), replace=False)
    batch = np.full((len(picked), size, size, 3), 114, np.uint8)
    for i, k in enumerate(picked):
        image = cv2.imread(str(files[k]))
        if image is None:
            raise ModelsError(f"cannot read calibration image {str(files[k])!r}")
        scale = size / max(image.shape[:2])
        image = cv2.resize(image, (round(image.shape[1] * scale), round(image.shape[0] * scale)))
        batch[i, : image.shape[0], : image.shape[1]] = image[..., ::-1]
    return batch.transpose(0, 3, 1, 2).astype(np.float32) / 255.0


def unfold(onnx_path: str | Path, images: str | Path, *, count: int = 32, size: int = 640) -> Any:
    """An ultralytics ``YOLO`` with the ONNX model's weights and batch norms put back (see the module's text)."""
    weights, meta = onnx_weights(onnx_path)  # bad input is reported before the heavy imports
    if "names" not in meta:
        raise ModelsError(f"{str(onnx_path)!r} has no class names in its metadata: not an ultralytics export")
    names = {int(k): str(v) for k, v in ast.literal_eval(meta["names"]).items()}
    calibration = calibration_batch(images, count=count, size=size)
    import torch

    from models.offline import ultralytics_offline

    ultralytics = ultralytics_offline()
    from ultralytics.nn.modules.conv import Conv

    yolo = ultralytics.YOLO("yolo11n.yaml", task="detect")
    yolo.model = type(yolo.model)("yolo11n.yaml", nc=len(names), verbose=False)
    yolo.model.names = names
    net = yolo.model.eval()
    folded = {name: m for name, m in net.named_modules() if isinstance(m, Conv)}
    state = net.state_dict()
    shapes = {key: tuple(t.shape) for key, t in state.items()}
    shapes |= {f"{n}.conv.bias": (m.conv.out_channels,) for n, m in folded.items()}
    narrow_class_branches(weights, shapes)
    loaded = {}
    for key, tensor in state.items():
        module, _, leaf = key.rpartition(".")
        parent = module.rpartition(".")[0]
        if parent in folded:
            continue  # a folded convolution: set below
        if key not in weights:
            if leaf in ("num_batches_tracked", "anchors", "strides"):
                continue
            raise ModelsError(f"the ONNX model has no weight {key!r}: not a YOLO11n export")
        loaded[key] = torch.from_numpy(weights[key]).reshape(tensor.shape)
    net.load_state_dict(loaded, strict=False)
    stats: dict[str, list[torch.Tensor]] = {name: [] for name in folded}
    biases = {name: torch.from_numpy(weights[f"{name}.conv.bias"]) for name in folded}

    def folded_forward(name: str, m: Conv) -> Any:
        bias = biases[name]

        def forward(x: torch.Tensor) -> torch.Tensor:
            y = m.conv(x)
            stats[name].append(torch.stack([y.mean((0, 2, 3)), (y * y).mean((0, 2, 3))]))
            return m.act(y + bias.view(1, -1, 1, 1))

        return forward

    with torch.no_grad():
        for name, m in folded.items():
            m.conv.weight.copy_(torch.from_numpy(weights[f"{name}.conv.weight"]))
            m.forward = folded_forward(name, m)
        for chunk in torch.from_numpy(calibration).split(8):
            net(chunk)
        for name, m in folded.items():
            del m.forward  # back to conv -> batch norm -> activation
            mean, square = torch.stack(stats[name]).mean(0)
            var = (square - mean * mean).clamp_min(1e-6)
            m.bn.running_mean.copy_(mean)
            m.bn.running_var.copy_(var)
            m.bn.weight.copy_((var + m.bn.eps).sqrt())
            m.bn.bias.copy_(mean + biases[name])
    return yolo


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m models.recover", description=__doc__.splitlines()[0])
    parser.add_argument("onnx", help="an exported locator, e.g. models/fuse-detector.onnx")
    parser.add_argument("out", help="the checkpoint to write (.pt), for fuse-referee train --init")
    parser.add_argument("--images", required=True, help="a folder of frames for the batch-norm statistics")
    parser.add_argument("--count", type=int, default=32, help="calibration images (32)")
    args = parser.parse_args(argv)
    try:
        yolo = unfold(args.onnx, args.images, count=args.count)
    except ModelsError as error:
        print(f"error: {error}")
        return 2
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    yolo.save(args.out)
    print(json.dumps({"out": args.out}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
