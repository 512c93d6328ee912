"""The die reader: a small CNN that reads one die's colour(s) and top face from a full-resolution crop.

Stage two of the detector. The locator finds dice as boxes on a downscaled frame; the reader sees each die
at the frame's own resolution (a 12-pixel die keeps its 12 pixels, scaled up to the crop size), so small
dice are read from every pixel the camera has. Two heads: colour (the renderer's colours, split dice
included) and face (1-6); a die's class is the pair.

    python -m models.reader crops data/train data/reader-train.npz      # crops from a renderer dataset
    python -m models.reader train data/reader-train.npz --epochs 12 --out runs/reader
    python -m models.reader export runs/reader/reader.pt models/die-reader.onnx
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import time
from collections import deque
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from models.errors import ModelsError
from vision.reader import CROP, MARGIN, crop_die


def reader_colours() -> tuple[str, ...]:
    """The colour classes, in the renderer's die-class order (``red``, ..., ``black/yellow``, ..., ``white``)."""
    from datasets.classes import all_die_classes
    from vision.detections import split_die_name

    colours: list[str] = []
    for name in all_die_classes():
        colour = split_die_name(name)[0]
        if colour not in colours:
            colours.append(colour)
    return tuple(colours)


def make_crops(
    data: str | Path, out: str | Path, *, jitters: int = 2, seed: int = 0, min_visible: float = 0.6, step: int = 3
) -> dict:
    """Crops of every readable die (``label`` set, ``visible`` >= ``min_visible``) of a renderer dataset or of a
    rendered game (every ``step``-th frame of its video: the compression, motion blur and hands of a recording),
    each ``jitters`` times with its box shifted and scaled as a locator's would be; saved as an ``.npz``."""
    from datasets.errors import DatasetError
    from datasets.game import read_frames

    data = Path(data)
    try:
        views = _game_views(data, read_frames(data), step)
    except DatasetError:  # no frames.json: a renderer dataset, or nothing
        views = _dataset_views(data)
    colours = {c: i for i, c in enumerate(reader_colours())}
    rng = np.random.default_rng(seed)
    crops, colour_ids, faces, tops = [], [], [], []
    images = 0
    for image, dice in views:
        images += 1
        for die in dice:
            if not die.get("label") or die.get("visible", 1.0) < min_visible:
                continue
            box = np.array(die["box"], np.float32)
            w, h = box[2] - box[0], box[3] - box[1]
            for j in range(jitters):
                shift = rng.uniform(-0.1, 0.1, 2) * (w, h) if j else np.zeros(2)
                grow = rng.uniform(0.88, 1.15) if j else 1.0
                cx, cy = (box[0] + box[2]) / 2 + shift[0], (box[1] + box[3]) / 2 + shift[1]
                jittered = [cx - w * grow / 2, cy - h * grow / 2, cx + w * grow / 2, cy + h * grow / 2]
                crops.append(crop_die(image, jittered))
                colour_ids.append(colours[die["colour"]])
                faces.append(int(die["face"]) - 1)
                # where the top face's centre lies, as a fraction of the crop from its centre
                side = max(w, h) * grow * (1 + 2 * MARGIN)
                tops.append(((die["top"][0] - cx) / side, (die["top"][1] - cy) / side))
    if not crops:
        raise ModelsError(f"no readable dice in {str(data)!r}")
    np.savez_compressed(
        out,
        crops=np.stack(crops),
        colour=np.array(colour_ids, np.int64),
        face=np.array(faces, np.int64),
        top=np.array(tops, np.float32),
    )
    return {"crops": len(crops), "images": images, "out": str(out)}


def _dataset_views(data: Path) -> Iterator[tuple[np.ndarray, list[dict]]]:
    """``(image, dice truth)`` of each image of a renderer dataset (``truth/*.json``)."""
    truths = sorted((data / "truth").rglob("*.json"))
    if not truths:
        raise ModelsError(
            f"no renderer dataset or rendered game at {str(data)!r}: expected truth/*.json or frames.json"
        )
    for truth_path in truths:
        truth = json.loads(truth_path.read_text())
        image = cv2.imread(str(data / truth["image"])) if "image" in truth else None
        if image is None:
            raise ModelsError(f"cannot read the image of {str(truth_path)!r}")
        yield image, truth["dice"]


def _game_views(folder: Path, meta: dict, step: int) -> Iterator[tuple[np.ndarray, list[dict]]]:
    """``(frame, dice truth)`` of every ``step``-th frame of a rendered game's video (``meta``: its
    ``datasets.game.read_frames``)."""
    if not meta.get("video"):
        raise ModelsError(f"{str(folder)!r} has frames but no video to cut crops from (render it as video)")
    capture = cv2.VideoCapture(str(folder / meta["video"]))
    if not capture.isOpened():
        raise ModelsError(f"cannot open the video of {str(folder)!r}")
    try:
        for entry in meta["frames"]:
            ok, frame = capture.read()
            if not ok:
                raise ModelsError(f"{str(folder)!r}: the video ends before frame {entry['index']}")
            if entry["index"] % step == 0:
                yield frame, entry["truth"]["dice"]
    finally:
        capture.release()


def score_reader(model: str | Path, crops: str | Path | list[str | Path]) -> dict:
    """Colour, face and both-right accuracy of an exported reader on one or more ``.npz`` files of crops (read as
    cut)."""
    from vision.errors import DetectorError
    from vision.reader import DieReader

    try:
        reader = DieReader(model)
    except DetectorError as error:
        raise ModelsError(str(error)) from None
    part = load_crop_sets(crops)
    read = [reader.read_crops(part["crops"][start : start + 512]) for start in range(0, len(part["crops"]), 512)]
    names = list(reader_colours())
    colour = np.array([names.index(reader.colours[i]) for i in np.concatenate([c for c, _ in read]).argmax(1)])
    face = np.concatenate([f for _, f in read]).argmax(1)
    colour_ok, face_ok = colour == part["colour"], face == part["face"]
    return {
        "crops": len(colour),
        "colour_acc": round(float(colour_ok.mean()), 4),
        "face_acc": round(float(face_ok.mean()), 4),
        "both_acc": round(float((colour_ok & face_ok).mean()), 4),
    }


def load_crops(path: str | Path) -> dict[str, np.ndarray]:
    """An ``.npz`` written by ``make_crops``, or a one-line ``ModelsError`` saying why it is none."""
    try:
        with np.load(path) as part:
            return {key: part[key] for key in ("crops", "colour", "face", "top")}
    except (OSError, ValueError, KeyError) as error:
        raise ModelsError(f"cannot read crops from {str(path)!r}: {error}") from None


def load_crop_sets(crops: str | Path | list[str | Path]) -> dict[str, np.ndarray]:
    """One or more crop files (``load_crops``) as one set."""
    parts = [load_crops(f) for f in ([crops] if isinstance(crops, (str, Path)) else crops)]
    if not parts:
        raise ModelsError("no crop files given")
    return {key: np.concatenate([p[key] for p in parts]) for key in parts[0]}


_WIDE = (32, 64, 128, 256)
ARCHITECTURES: dict[str, tuple[int, int, int, int]] = {
    "small": (24, 48, 64, 128),
    "wide": _WIDE,
    "wide-contrast": _WIDE,
}
"""The reader's sizes by name: channels at 32, 16 and 8 pixels, then the width of the shared layer. ``small``
(0.2 M parameters, about 18 M multiply-adds a die) was shipped first; ``wide`` (0.8 M, about 39 M), shipped
since, has twice the channels where the numeral's strokes are told apart; ``wide-contrast`` is ``wide`` with
the contrast input below. A checkpoint records its own."""

CONTRAST_INPUT = frozenset({"wide-contrast"})
"""Sizes that see each crop's local contrast (``local_contrast``) beside the crop itself."""

CONTRAST_WINDOW = 9
"""Side, in crop pixels, of the window ``local_contrast`` measures over: a numeral's stroke and the face around it."""


def local_contrast(x: Any) -> Any:
    """(N, 3, S, S) crops in 0..1 -> each channel's difference from its mean over a ``CONTRAST_WINDOW`` window,
    divided by the spread there (plus 0.02, so that flat faces and noise are not blown up): a gold numeral on a gem
    body about as light as it gives strokes as strong as a white numeral on a red die does."""
    import torch.nn.functional as F

    mean = F.avg_pool2d(x, CONTRAST_WINDOW, 1, CONTRAST_WINDOW // 2, count_include_pad=False)
    spread = F.avg_pool2d((x - mean) ** 2, CONTRAST_WINDOW, 1, CONTRAST_WINDOW // 2, count_include_pad=False)
    return (x - mean) / (spread.sqrt() + 0.02)


DEFAULT_ARCH = "wide"
"""The size a run from scratch trains (the shipped reader's); a run from ``--init`` keeps its checkpoint's."""


def _network(arch: str) -> Any:
    import torch
    from torch import nn

    if arch not in ARCHITECTURES:
        raise ModelsError(f"unknown reader architecture {arch!r}: expected one of {', '.join(ARCHITECTURES)}")
    c1, c2, c3, hidden = ARCHITECTURES[arch]
    contrast = arch in CONTRAST_INPUT

    def block(cin: int, cout: int) -> list[nn.Module]:
        return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]

    class DieReaderNet(nn.Module):
        """32x32 BGR crop in 0..1 -> (colour logits, face logits, top-face centre)."""

        def __init__(self, colours: int) -> None:
            super().__init__()
            self.features = nn.Sequential(
                *block(6 if contrast else 3, c1),
                *block(c1, c1),
                nn.MaxPool2d(2),
                *block(c1, c2),
                *block(c2, c2),
                nn.MaxPool2d(2),
                *block(c2, c3),
                *block(c3, c3),
                nn.MaxPool2d(2),
                nn.Flatten(),
                nn.Linear(c3 * 16, hidden),
                nn.ReLU(inplace=True),
                nn.Dropout(0.2),
            )
            self.colour = nn.Linear(hidden, colours)
            self.face = nn.Linear(hidden, 6)  # faces 1-6
            # training only: where the top face is (which of the faces in view is the one that counts)
            self.top = nn.Linear(hidden, 2)

        def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
            features = self.features(torch.cat([x, local_contrast(x)], 1) if contrast else x)
            return self.colour(features), self.face(features), self.top(features)

    return DieReaderNet


def augment(
    batch: np.ndarray,
    tops: np.ndarray,
    rng: np.random.Generator,
    scramble: float = 0.0,
    recolour: float = 0.0,
    glare: float = 0.0,
    soft_chroma: float = 0.0,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Label-preserving changes to uint8 BGR crops (N, S, S, 3) -> float32 (N, 3, S, S) in 0..1: a small turn
    (a camera's roll; turning further would break the cue that the top face lies towards the top of the frame,
    and the dice's own turns are in the renders), light colour and level, blur, noise; never mirrored (a
    mirrored 2 is a 5). The top-face centres (N, 2) turn with their crops.

    A ``scramble`` share of the crops get their colour channels shuffled (a red die with white numerals becomes
    a blue one, a yellow ink a cyan one): their colour is no longer the label's, so the third output marks them
    for the face and top-face losses only; the face head learns to read numerals of inks and bodies it never saw.
    A ``recolour`` share go further, marked the same way: their colours turned by a random rotation of colour
    space (``_turn_colours``), which moves the contrast between numeral and body between lightness and hue, so
    the face head also reads an ink about as light as its body (gold on green) that no render has. A ``glare``
    share get a specular spot near their top face (glossy plastic under a lamp), colour kept. A ``soft_chroma``
    share get their chroma blurred, lightness kept (video stores chroma at half resolution: a numeral told from
    its body by hue alone fades first), colour kept.
    """
    out = np.empty((len(batch), 3, CROP, CROP), np.float32)
    turned = np.empty_like(tops)
    draw = rng.random(len(batch))
    scrambled = draw < scramble + recolour
    for i, crop in enumerate(batch):
        if draw[i] < scramble:
            crop = crop[..., rng.permutation(3)]
        elif scrambled[i]:
            crop = _turn_colours(crop, rng)
        if glare and rng.random() < glare:
            crop = _glare(crop, tops[i], rng)
        if soft_chroma and rng.random() < soft_chroma:
            crop = _soften_chroma(crop, rng)
        angle = rng.uniform(-12, 12)
        matrix = cv2.getRotationMatrix2D((CROP / 2 - 0.5, CROP / 2 - 0.5), angle, rng.uniform(0.92, 1.08))
        turned[i] = matrix[:, :2] @ tops[i]
        img = cv2.warpAffine(crop, matrix, (CROP, CROP), borderMode=cv2.BORDER_REFLECT).astype(np.float32)
        if rng.random() < 0.3:
            img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.4, 1.2))
        gains = rng.uniform(0.8, 1.22, 3) * rng.uniform(0.6, 1.4)  # white balance, then exposure
        img = img * gains + rng.normal(0, rng.uniform(0, 8), img.shape)
        img = 255 * (np.clip(img, 0, 255) / 255) ** rng.uniform(0.75, 1.35)
        out[i] = img.transpose(2, 0, 1) / 255.0
    return out, turned, ~scrambled


def _turn_colours(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``crop`` with its colours turned by a random rotation of colour space (30-180 degrees about a random axis)
    about a point between their mean and mid-grey (about the mean, the body keeps its colour and the ink
    changes; about grey, both do), their spread scaled a little."""
    axis = rng.normal(size=3)
    axis /= np.linalg.norm(axis)
    rotation, _ = cv2.Rodrigues(axis * np.radians(rng.uniform(30, 180)))
    pixels = crop.reshape(-1, 3).astype(np.float32)
    mean = pixels.mean(0)
    pivot = mean + (128 - mean) * rng.uniform(0, 1)
    turned = (pixels - pivot) @ rotation.T.astype(np.float32) * rng.uniform(0.8, 1.3) + pivot
    return np.clip(turned, 0, 255).astype(np.uint8).reshape(crop.shape)


def _glare(crop: np.ndarray, top: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``crop`` with a soft specular spot near its top face's centre (``top``: as a fraction of the crop from its
    centre), brightening towards white."""
    centre = CROP / 2 - 0.5 + (top + rng.normal(0, 0.12, 2)) * CROP
    sigma = rng.uniform(0.06, 0.2) * CROP
    yy, xx = np.mgrid[0:CROP, 0:CROP].astype(np.float32)
    spot = np.exp(-((xx - centre[0]) ** 2 + (yy - centre[1]) ** 2) / (2 * sigma**2)) * rng.uniform(0.3, 0.85)
    img = crop.astype(np.float32)
    img += (255 - img) * spot[..., None]
    return img.astype(np.uint8)


def _soften_chroma(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``crop`` with its chroma (YCrCb) blurred by 0.6-2 crop pixels and its lightness kept."""
    ycc = cv2.cvtColor(crop, cv2.COLOR_BGR2YCrCb)
    ycc[..., 1:] = cv2.GaussianBlur(ycc[..., 1:], (0, 0), rng.uniform(0.6, 2.0))
    return cv2.cvtColor(ycc, cv2.COLOR_YCrCb2BGR)


def load_checkpoint(path: str | Path) -> dict:
    """A ``reader.pt`` as saved by ``train_reader``, with its ``arch`` (checkpoints from before the sizes were
    recorded are ``small``); a missing or foreign file is a one-line ``ModelsError``."""
    import torch

    try:
        checkpoint = torch.load(path, map_location="cpu")
    except FileNotFoundError:
        raise ModelsError(f"no reader checkpoint at {str(path)!r}") from None
    except Exception as error:  # torch raises pickle, zip and runtime errors for a file that is not one
        reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise ModelsError(f"cannot read a reader checkpoint from {str(path)!r}: {reason}") from None
    if not isinstance(checkpoint, dict) or "state" not in checkpoint:
        raise ModelsError(f"{str(path)!r} is not a reader checkpoint (no 'state')")
    return {"arch": "small", **checkpoint}


def _load_init(net: Any, checkpoint: dict, colours: tuple[str, ...]) -> None:
    """Load an earlier run's weights; if its colour classes differ (a colour added), the colour head keeps the
    rows of the colours both know and starts the new ones afresh."""
    state = dict(checkpoint["state"])
    before = tuple(checkpoint.get("colours", colours))
    if before != colours:
        weight, bias = net.colour.weight.detach().clone(), net.colour.bias.detach().clone()
        for i, name in enumerate(colours):
            if name in before:
                j = before.index(name)
                weight[i], bias[i] = state["colour.weight"][j], state["colour.bias"][j]
        state["colour.weight"], state["colour.bias"] = weight, bias
    net.load_state_dict(state)


def widen(state: dict, arch: str, seed: int = 0) -> dict:
    """A smaller reader's weights (``state``) spread over the wider ``arch`` so that it computes the same
    function (Net2WiderNet): each new channel or unit copies one of the old ones, and the layer after it
    shares that one's outgoing weights among its copies. A little noise on the copies lets them part in
    training, so a wider reader starts from what the smaller one learnt rather than from nothing."""
    import torch

    gen = torch.Generator().manual_seed(seed)
    new = dict(state)
    convs = [k[: -len(".weight")] for k, v in state.items() if k.startswith("features.") and v.ndim == 4]
    widths = [w for c in ARCHITECTURES[arch][:3] for w in (c, c)]
    if len(convs) != len(widths):
        raise ModelsError(f"cannot widen a reader of {len(convs)} convolutions to {arch!r}")
    fc = next(k[: -len(".weight")] for k, v in state.items() if k.startswith("features.") and v.ndim == 2)
    layers = [*zip(convs, widths), (fc, ARCHITECTURES[arch][3])]
    spread = None  # the previous layer's map (new channel -> old channel) and its copy counts
    for name, width in layers:
        weight = state[f"{name}.weight"]
        if spread is not None:  # share each old input's weights among its copies
            source, counts = spread
            if weight.ndim == 2:  # after the flatten: each channel is 16 positions
                weight = weight.view(weight.shape[0], -1, 16)[:, source] / counts[:, None]
                weight = weight.reshape(weight.shape[0], -1)
            else:
                weight = weight[:, source] / counts.view(1, -1, 1, 1)
        old = weight.shape[0]
        if width < old:
            raise ModelsError(f"cannot widen to {arch!r}: {name} already has {old} outputs")
        source = torch.cat([torch.arange(old), torch.randint(0, old, (width - old,), generator=gen)])
        counts = torch.bincount(source, minlength=old)[source].float()
        copies = weight[source].clone()
        copies[old:] += 0.01 * copies[old:].std() * torch.randn(copies[old:].shape, generator=gen)
        new[f"{name}.weight"] = copies
        bn = name.rsplit(".", 1)[0] + "." + str(int(name.rsplit(".", 1)[1]) + 1)
        for key in (f"{name}.bias", *(f"{bn}.{p}" for p in ("weight", "bias", "running_mean", "running_var"))):
            if key in state and state[key].ndim == 1 and len(state[key]) == old:
                new[key] = state[key][source].clone()
        spread = (source, counts)
    source, counts = spread
    for head in ("colour", "face", "top"):
        new[f"{head}.weight"] = state[f"{head}.weight"][:, source] / counts
    return new


def adapt(state: dict, before: str, arch: str, seed: int = 0) -> dict:
    """A ``before``-sized reader's weights as ``arch``'s, computing the same function: widened (``widen``) if
    ``arch`` is wider, and, if ``arch`` also sees local contrast, its first layer given zero weights for it, so
    that training starts from what the reader had learnt and adds the contrast as it finds it useful."""
    import torch

    if before in CONTRAST_INPUT and arch not in CONTRAST_INPUT:
        raise ModelsError(f"cannot turn a {before!r} reader into {arch!r}: it would lose its contrast input")
    if ARCHITECTURES[before] != ARCHITECTURES[arch]:
        state = widen(state, arch, seed)
    if arch in CONTRAST_INPUT and before not in CONTRAST_INPUT:
        first = state["features.0.weight"]
        state = {**state, "features.0.weight": torch.cat([first, torch.zeros_like(first)], 1)}
    return state


def one_cycle(progress: float, max_lr: float) -> float:
    """The learning rate at ``progress`` (0..1) through a run: up from ``max_lr / 25`` to ``max_lr`` over the
    first 30 %, then down to ``max_lr / 250000`` on cosines (torch's ``OneCycleLR`` shape). Given by progress,
    not step, so that a run with a time budget anneals fully whenever the budget ends it."""
    start, end = max_lr / 25, max_lr / 25 / 1e4
    if progress < 0.3:
        low, high, t = start, max_lr, progress / 0.3
    else:
        low, high, t = max_lr, end, min(1.0, (progress - 0.3) / 0.7)
    return high + (low - high) * (1 + math.cos(math.pi * t)) / 2


class _AugmentedBatches:
    """A run's batches, epoch after epoch: each epoch shuffles the training crops with its own generator and
    each batch is augmented with its own (seeded by run, epoch and batch), so that a run gives the same batches
    whether they are augmented in this process or spread over workers."""

    def __init__(
        self, x: np.ndarray, top: np.ndarray, train: np.ndarray, batch: int, seed: int, epochs: int, **shares: float
    ) -> None:
        self.x, self.top, self.train, self.batch, self.seed, self.shares = x, top, train, batch, seed, shares
        self.per_epoch, self.epochs = len(train) // batch, epochs
        self._order: tuple[int, np.ndarray] | None = None

    def __len__(self) -> int:
        return self.epochs * self.per_epoch

    def __getitem__(self, i: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        epoch, step = divmod(i, self.per_epoch)
        if self._order is None or self._order[0] != epoch:
            self._order = (epoch, np.random.default_rng((self.seed, epoch)).permutation(self.train))
        idx = self._order[1][step * self.batch : (step + 1) * self.batch]
        rng = np.random.default_rng((self.seed, epoch, step))
        return (*augment(self.x[idx], self.top[idx], rng, **self.shares), idx)


def _augmented(batches: _AugmentedBatches, workers: int) -> Iterator[tuple[np.ndarray, ...]]:
    """``batches`` in order, augmented in this process or, with ``workers``, in that many spawned processes (not
    forked: a fork of a process whose OpenCV or OpenMP threads have run can hang in the child), a few batches
    ahead of the one taken; the processes end when the batches are no longer wanted."""
    if not workers:
        yield from (batches[i] for i in range(len(batches)))
        return
    with multiprocessing.get_context("spawn").Pool(workers, _hold, (batches,)) as pool:
        ahead: deque[Any] = deque()
        for i in range(len(batches)):
            ahead.append(pool.apply_async(_held_batch, (i,)))
            if len(ahead) > 2 * workers:
                yield ahead.popleft().get()
        while ahead:
            yield ahead.popleft().get()


_HELD: list[_AugmentedBatches] = []
"""A worker's batches, handed over once when it starts (not with every batch asked for)."""


def _hold(batches: _AugmentedBatches) -> None:
    cv2.setNumThreads(1)  # each worker augments one batch; OpenCV's own threads would only contend
    _HELD[:] = [batches]


def _held_batch(i: int) -> tuple[np.ndarray, ...]:
    return _HELD[0][i]


def _training_device(name: str | None) -> str:
    """``name`` checked, or the GPU if there is one, else the CPU; a device torch does not know or has not got
    is a one-line ``ModelsError``."""
    import torch

    if name is None:
        return "cuda" if torch.cuda.is_available() else "cpu"
    try:
        kind = torch.device(name).type
    except RuntimeError:
        raise ModelsError(f"unknown torch device {name!r}: expected cpu, cuda or cuda:N") from None
    if kind == "cuda" and not torch.cuda.is_available():
        raise ModelsError(f"no GPU for device {name!r} on this machine: train with --device cpu")
    return name


def train_reader(
    crops: str | Path | list[str | Path],
    *,
    epochs: int = 12,
    batch: int = 128,
    seed: int = 0,
    out: str | Path,
    threads: int | None = None,
    val_share: float = 0.05,
    init: str | Path | None = None,
    max_lr: float = 3e-3,
    scramble: float = 0.0,
    recolour: float = 0.0,
    glare: float = 0.0,
    soft_chroma: float = 0.0,
    arch: str | None = None,
    device: str | None = None,
    workers: int = 0,
    minutes: float | None = None,
) -> dict:
    """Train on one or more ``.npz`` files of crops; writes ``OUT/reader.pt`` (best on the held-back share) and
    ``OUT/log.json``. ``device`` is a torch device (default: the GPU if there is one); ``workers`` processes
    augment the batches (0: this one); ``minutes`` ends the run on time, the learning rate annealed by then."""
    import torch

    if threads:
        torch.set_num_threads(threads)
    device = _training_device(device)
    if workers < 0 or (minutes is not None and minutes <= 0):
        raise ModelsError(f"workers must be 0 or more and minutes more than 0 (got {workers} and {minutes})")
    shares = {"scramble": scramble, "recolour": recolour, "glare": glare, "soft_chroma": soft_chroma}
    if not all(0 <= share <= 1 for share in shares.values()) or scramble + recolour > 1:
        raise ModelsError(f"augmentation shares must be 0..1, scramble + recolour at most 1 (got {shares})")
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    checkpoint = load_checkpoint(init) if init is not None else None  # a bad --init fails before the crops load
    files = [crops] if isinstance(crops, (str, Path)) else list(crops)
    sets = load_crop_sets(files)
    x, colour, face, top = (sets[key] for key in ("crops", "colour", "face", "top"))
    order = rng.permutation(len(x))
    n_val = max(1, int(len(x) * val_share))
    val, train = order[:n_val], order[n_val:]
    colours = reader_colours()
    arch = arch or (checkpoint["arch"] if checkpoint else DEFAULT_ARCH)
    net = _network(arch)(len(colours))
    if checkpoint is not None:  # continue an earlier run with a fresh schedule (adapted if it was another size)
        if checkpoint["arch"] != arch:
            checkpoint = {**checkpoint, "state": adapt(checkpoint["state"], checkpoint["arch"], arch, seed)}
        _load_init(net, checkpoint, colours)
    net.to(device)
    optimiser = torch.optim.AdamW(net.parameters(), lr=one_cycle(0, max_lr), weight_decay=1e-4)
    per_epoch = len(train) // batch
    steps = max(1, epochs * per_epoch)
    loss_fn = torch.nn.CrossEntropyLoss(label_smoothing=0.05)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    val_x = torch.from_numpy(x[val].transpose(0, 3, 1, 2).astype(np.float32) / 255.0).to(device)
    colour_all, face_all = torch.from_numpy(colour).to(device), torch.from_numpy(face).to(device)
    log: list[dict] = []
    best = -1.0
    began, done, progress = time.time(), 0, 0.0
    batches = _augmented(_AugmentedBatches(x, top, train, batch, seed, epochs, **shares), workers)
    for epoch in range(epochs):
        net.train()
        start, total, trained = time.time(), 0.0, 0
        for step in range(per_epoch):
            progress = max(done / steps, (time.time() - began) / (60 * minutes) if minutes else 0.0)
            if progress >= 1:
                break
            for group in optimiser.param_groups:
                group["lr"] = one_cycle(progress, max_lr)
            inputs, tops, known, idx = (torch.from_numpy(a).to(device) for a in next(batches))
            colour_logits, face_logits, top_guess = net(inputs)
            colour_loss = loss_fn(colour_logits[known], colour_all[idx][known]) if bool(known.any()) else 0
            loss = (
                colour_loss
                + loss_fn(face_logits, face_all[idx])
                + 4 * torch.nn.functional.smooth_l1_loss(top_guess, tops, beta=0.05)
            )
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            done, trained = done + 1, trained + 1
            total += float(loss.detach())
            if step % 200 == 199:
                print(f"epoch {epoch + 1} step {step + 1}/{per_epoch} {time.time() - start:.0f} s", flush=True)
        if not trained:  # the budget ran out between epochs
            break
        net.eval()
        with torch.no_grad():
            guesses = [net(chunk) for chunk in val_x.split(4096)]
        colour_acc = float((torch.cat([g[0] for g in guesses]).argmax(1) == colour_all[val]).float().mean())
        face_acc = float((torch.cat([g[1] for g in guesses]).argmax(1) == face_all[val]).float().mean())
        entry = {
            "epoch": epoch + 1,
            "loss": total / trained,
            "colour_acc": colour_acc,
            "face_acc": face_acc,
            "seconds": round(time.time() - start, 1),
        }
        log.append(entry)
        print(json.dumps(entry), flush=True)
        if colour_acc * face_acc > best:
            best = colour_acc * face_acc
            state = {k: v.cpu() for k, v in net.state_dict().items()}
            torch.save({"state": state, "colours": colours, "crop": CROP, "arch": arch}, out / "reader.pt")
        if progress >= 1:
            break
    batches.close()  # (ends the workers of a run cut short)
    record = {
        "crops": [str(f) for f in files],
        "init": str(init) if init else None,
        "arch": arch,
        "max_lr": max_lr,
        **shares,
        "train": len(train),
        "val": len(val),
        "epochs": epochs,
        "minutes": minutes,
        "batch": batch,
        "seed": seed,
        "device": str(device),
        "log": log,
    }
    (out / "log.json").write_text(json.dumps(record, indent=2) + "\n")
    return record


def export_reader(weights: str | Path, out: str | Path) -> Path:
    """``reader.pt`` -> ONNX with a dynamic batch: input ``crops`` (N, 3, 32, 32), outputs colour and face
    probabilities; the colour names ride in the metadata."""
    import onnx
    import torch

    checkpoint = load_checkpoint(weights)
    net = _network(checkpoint["arch"])(len(checkpoint["colours"]))
    net.load_state_dict(checkpoint["state"])
    net.eval()

    class WithSoftmax(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.net = net

        def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            colour, face, _ = self.net(x)
            return colour.softmax(1), face.softmax(1)

    dummy = torch.zeros(1, 3, CROP, CROP)
    torch.onnx.export(
        WithSoftmax().eval(),
        dummy,
        str(out),
        input_names=["crops"],
        output_names=["colour", "face"],
        dynamic_axes={"crops": {0: "n"}, "colour": {0: "n"}, "face": {0: "n"}},
        opset_version=17,
        dynamo=False,
    )
    model = onnx.load(str(out))
    entry = model.metadata_props.add()
    entry.key, entry.value = "colours", json.dumps(list(checkpoint["colours"]))
    onnx.save(model, str(out))
    return Path(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m models.reader", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="verb", required=True)
    crops = sub.add_parser("crops", help="cut die crops out of a renderer dataset or a rendered game")
    crops.add_argument("data", help="a renderer dataset (truth/*.json) or a rendered game (frames.json, game.mp4)")
    crops.add_argument("out")
    crops.add_argument("--jitters", type=int, default=2)
    crops.add_argument("--seed", type=int, default=0)
    crops.add_argument("--step", type=int, default=3, help="a game's every STEP-th frame (default 3)")
    score = sub.add_parser("score", help="colour and face accuracy of an exported reader on crops")
    score.add_argument("model")
    score.add_argument("crops", nargs="+", help="one or more .npz files of crops, scored as one set")
    fit = sub.add_parser("train", help="train the reader on crops")
    fit.add_argument("crops", nargs="+", help="one or more .npz files of crops")
    fit.add_argument("--epochs", type=int, default=12)
    fit.add_argument("--batch", type=int, default=128)
    fit.add_argument("--seed", type=int, default=0)
    fit.add_argument("--threads", type=int, default=None)
    fit.add_argument("--out", default="runs/reader")
    fit.add_argument("--init", default=None, help="continue from this reader.pt")
    fit.add_argument("--max-lr", type=float, default=3e-3)
    fit.add_argument("--scramble", type=float, default=0.0, help="share of crops with shuffled colour channels")
    fit.add_argument("--recolour", type=float, default=0.0, help="share of crops with colour space turned")
    fit.add_argument("--glare", type=float, default=0.0, help="share of crops with a specular spot")
    fit.add_argument("--soft-chroma", type=float, default=0.0, help="share of crops with their chroma blurred")
    fit.add_argument("--device", default=None, help="torch device (default: cuda if there is one, else cpu)")
    fit.add_argument("--workers", type=int, default=0, help="processes that augment batches (default 0: this one)")
    fit.add_argument("--minutes", type=float, default=None, help="end the run after this long, annealed by then")
    fit.add_argument(
        "--arch",
        choices=tuple(ARCHITECTURES),
        help=f"size (default: --init's, else {DEFAULT_ARCH}; --init is widened or given the contrast input)",
    )
    export = sub.add_parser("export", help="export reader.pt to ONNX")
    export.add_argument("weights")
    export.add_argument("out")
    args = parser.parse_args(argv)
    try:
        if args.verb == "crops":
            print(json.dumps(make_crops(args.data, args.out, jitters=args.jitters, seed=args.seed, step=args.step)))
        elif args.verb == "score":
            print(json.dumps(score_reader(args.model, args.crops)))
        elif args.verb == "train":
            train_reader(
                args.crops,
                epochs=args.epochs,
                batch=args.batch,
                seed=args.seed,
                out=args.out,
                threads=args.threads,
                init=args.init,
                max_lr=args.max_lr,
                scramble=args.scramble,
                recolour=args.recolour,
                glare=args.glare,
                soft_chroma=args.soft_chroma,
                arch=args.arch,
                device=args.device,
                workers=args.workers,
                minutes=args.minutes,
            )
        else:
            print(export_reader(args.weights, args.out))
    except ModelsError as error:
        print(f"error: {error}")
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
