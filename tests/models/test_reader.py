"""The die reader's crops: cut from a renderer dataset or a rendered game's video, and scored."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from models.errors import ModelsError
from models.reader import load_crop_sets, load_crops, make_crops, reader_colours, score_reader

SAMPLE = Path(__file__).resolve().parents[2] / "datasets" / "sample"


def test_crops_from_a_rendered_game_carry_its_truth_and_the_shipped_reader_reads_them(tmp_path: Path) -> None:
    pytest.importorskip("onnxruntime", reason="the reader runs on onnxruntime")
    out = tmp_path / "sample.npz"
    made = make_crops(SAMPLE, out, jitters=1, step=40)
    crops = np.load(out)
    assert made["crops"] == len(crops["crops"]) > 20 and made["images"] >= 10
    assert crops["crops"].shape[1:] == (32, 32, 3)
    assert set(crops["colour"]) <= set(range(len(reader_colours()))) and set(crops["face"]) <= set(range(6))
    scores = score_reader(SAMPLE.parents[1] / "models" / "die-reader.onnx", out)
    assert scores["crops"] == made["crops"] and scores["both_acc"] >= 0.9  # the sample's dice are clear
    twice = score_reader(SAMPLE.parents[1] / "models" / "die-reader.onnx", [out, out])
    assert twice == {**scores, "crops": 2 * made["crops"]}


def test_a_folder_that_is_neither_a_dataset_nor_a_game_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ModelsError, match="no renderer dataset or rendered game"):
        make_crops(tmp_path, tmp_path / "out.npz")


def test_a_file_that_is_no_crops_file_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.npz"
    bad.write_text("not an npz")
    with pytest.raises(ModelsError, match="cannot read crops from .*bad.npz"):
        load_crops(bad)
    with pytest.raises(ModelsError, match="no die-reader model at 'no-such.onnx'"):
        score_reader("no-such.onnx", bad)
    with pytest.raises(ModelsError, match="no crop files given"):
        load_crop_sets([])


def test_a_widened_reader_computes_what_the_smaller_one_did() -> None:
    torch = pytest.importorskip("torch", reason="widening needs torch")
    from models.reader import _network, widen

    colours = len(reader_colours())
    torch.manual_seed(1)
    small = _network("small")(colours).eval()
    for module in small.modules():  # batch norms with statistics of their own, as a trained reader has
        if isinstance(module, torch.nn.BatchNorm2d):
            module.running_mean.uniform_(-0.5, 0.5)
            module.running_var.uniform_(0.5, 2.0)
    wide = _network("wide")(colours).eval()
    wide.load_state_dict(widen(small.state_dict(), "wide"))
    assert sum(p.numel() for p in wide.parameters()) > 3 * sum(p.numel() for p in small.parameters())
    crops = torch.rand(8, 3, 32, 32)
    with torch.no_grad():
        for before, after in zip(small(crops), wide(crops)):
            assert torch.allclose(before, after, atol=0.05 * float(before.abs().max()) + 1e-3)
            assert (before.argmax(1) == after.argmax(1)).float().mean() >= 0.75


def test_an_unknown_reader_size_is_a_clear_error() -> None:
    pytest.importorskip("torch", reason="the reader is built with torch")
    from models.reader import _network, widen

    with pytest.raises(ModelsError, match="unknown reader architecture 'huge'"):
        _network("huge")
    with pytest.raises(ModelsError, match="cannot widen"):
        widen(_network("wide")(len(reader_colours())).state_dict(), "small")


def test_a_run_from_a_checkpoint_keeps_its_size_and_one_from_scratch_trains_the_shipped_size(tmp_path: Path) -> None:
    pytest.importorskip("torch", reason="training needs torch")
    from models.reader import DEFAULT_ARCH, train_reader

    crops = tmp_path / "sample.npz"
    make_crops(SAMPLE, crops, jitters=1, step=80)
    shipped = SAMPLE.parents[1] / "models" / "checkpoints" / "die-reader.pt"
    resumed = train_reader(crops, epochs=1, batch=8, init=shipped, out=tmp_path / "resumed")
    fresh = train_reader(crops, epochs=1, batch=8, out=tmp_path / "fresh")
    assert resumed["arch"] == "wide" and fresh["arch"] == DEFAULT_ARCH
    with pytest.raises(ModelsError, match="cannot widen to 'small'"):
        train_reader(crops, epochs=1, batch=8, init=shipped, arch="small", out=tmp_path / "narrowed")


def test_a_reader_given_the_contrast_input_starts_as_it_was_and_exports_for_serving(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch", reason="the reader is built with torch")
    pytest.importorskip("onnxruntime", reason="the exported reader runs on onnxruntime")
    from models.reader import _network, adapt, export_reader, load_checkpoint, local_contrast, train_reader
    from vision.reader import DieReader

    shipped_path = SAMPLE.parents[1] / "models" / "checkpoints" / "die-reader.pt"
    shipped = load_checkpoint(shipped_path)
    colours = len(reader_colours())
    plain = _network("wide")(colours).eval()
    plain.load_state_dict(shipped["state"])
    seeing = _network("wide-contrast")(colours).eval()
    seeing.load_state_dict(adapt(shipped["state"], "wide", "wide-contrast"))
    crops = torch.rand(8, 3, 32, 32)
    with torch.no_grad():
        assert all(torch.equal(a, b) for a, b in zip(plain(crops), seeing(crops)))
    faint = torch.full((1, 3, 32, 32), 0.5)
    faint[..., 10:22, 14:18] += 0.05  # a stroke a tenth as strong as a white one on a dark body ...
    strong = torch.full((1, 3, 32, 32), 0.2)
    strong[..., 10:22, 14:18] += 0.5
    ratio = local_contrast(faint)[..., 16, 15] / local_contrast(strong)[..., 16, 15]
    assert float(ratio.min()) > 0.5  # ... stands out nearly as far once its contrast is measured locally
    with pytest.raises(ModelsError, match="cannot turn a 'wide-contrast' reader into 'wide'"):
        adapt(seeing.state_dict(), "wide-contrast", "wide")

    crop_file = tmp_path / "sample.npz"
    make_crops(SAMPLE, crop_file, jitters=1, step=80)
    run = train_reader(
        crop_file,
        epochs=1,
        batch=8,
        arch="wide-contrast",
        init=shipped_path,
        device="cpu",
        out=tmp_path / "run",
    )
    assert run["arch"] == "wide-contrast" and load_checkpoint(tmp_path / "run" / "reader.pt")["arch"] == run["arch"]
    reader = DieReader(export_reader(tmp_path / "run" / "reader.pt", tmp_path / "reader.onnx"))
    colour_p, face_p = reader.read_crops(np.load(crop_file)["crops"][:4])
    assert colour_p.shape == (4, colours) and np.allclose(face_p.sum(1), 1, atol=1e-5)


def test_a_missing_or_foreign_checkpoint_is_a_clear_error(tmp_path: Path) -> None:
    pytest.importorskip("torch", reason="checkpoints are read with torch")
    from models.reader import export_reader, train_reader

    with pytest.raises(ModelsError, match="no reader checkpoint at 'nosuch.pt'"):
        train_reader(tmp_path / "crops.npz", epochs=1, init="nosuch.pt", out=tmp_path / "run")
    foreign = tmp_path / "foreign.pt"
    foreign.write_text("not a checkpoint")
    with pytest.raises(ModelsError, match="cannot read a reader checkpoint from .*foreign.pt"):
        export_reader(foreign, tmp_path / "out.onnx")


def test_a_run_augmented_by_workers_is_the_run_augmented_in_process(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch", reason="training needs torch")
    from models.reader import load_checkpoint, train_reader

    crops = tmp_path / "sample.npz"
    make_crops(SAMPLE, crops, jitters=1, step=80)
    shipped = SAMPLE.parents[1] / "models" / "checkpoints" / "die-reader.pt"
    runs = [
        train_reader(crops, epochs=2, batch=8, init=shipped, workers=workers, device="cpu", out=tmp_path / str(workers))
        for workers in (0, 2)
    ]
    assert runs[0]["log"][-1]["loss"] == pytest.approx(runs[1]["log"][-1]["loss"], rel=1e-5)
    states = [load_checkpoint(tmp_path / str(workers) / "reader.pt")["state"] for workers in (0, 2)]
    assert all(torch.allclose(states[0][k].float(), states[1][k].float(), atol=1e-5) for k in states[0])


def test_a_time_budget_ends_a_run_with_its_learning_rate_annealed(tmp_path: Path) -> None:
    pytest.importorskip("torch", reason="training needs torch")
    from models.reader import one_cycle, train_reader

    assert one_cycle(0, 1e-3) == pytest.approx(1e-3 / 25) and one_cycle(0.3, 1e-3) == pytest.approx(1e-3)
    assert one_cycle(1, 1e-3) == pytest.approx(1e-3 / 25 / 1e4) and one_cycle(0.65, 1e-3) < 1e-3
    crops = tmp_path / "sample.npz"
    make_crops(SAMPLE, crops, jitters=1, step=80)
    run = train_reader(crops, epochs=10_000, batch=8, minutes=0.02, device="cpu", out=tmp_path / "run")
    assert 1 <= len(run["log"]) < 10_000 and (tmp_path / "run" / "reader.pt").exists()


def test_a_bad_device_worker_count_budget_or_share_is_a_clear_error(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch", reason="training needs torch")
    from models.reader import train_reader

    with pytest.raises(ModelsError, match="unknown torch device 'abacus'"):
        train_reader(tmp_path / "crops.npz", device="abacus", out=tmp_path / "run")
    if not torch.cuda.is_available():
        with pytest.raises(ModelsError, match="no GPU for device 'cuda' on this machine"):
            train_reader(tmp_path / "crops.npz", device="cuda", out=tmp_path / "run")
    with pytest.raises(ModelsError, match=r"workers must be 0 or more and minutes more than 0 \(got -1 and None\)"):
        train_reader(tmp_path / "crops.npz", workers=-1, device="cpu", out=tmp_path / "run")
    with pytest.raises(ModelsError, match=r"\(got 0 and 0\)"):
        train_reader(tmp_path / "crops.npz", minutes=0, device="cpu", out=tmp_path / "run")
    for shares in ({"soft_chroma": 5.0}, {"glare": -0.1}, {"scramble": 0.6, "recolour": 0.6}):
        with pytest.raises(ModelsError, match="augmentation shares must be 0..1"):
            train_reader(tmp_path / "crops.npz", device="cpu", out=tmp_path / "run", **shares)


def test_recoloured_crops_train_the_face_alone_and_glared_or_softened_ones_keep_their_colour() -> None:
    from models.reader import augment

    rng = np.random.default_rng(0)
    crops = np.zeros((64, 32, 32, 3), np.uint8)
    crops[:] = (40, 40, 200)  # a red die ...
    crops[:, 10:22, 14:18] = 240  # ... with a white stroke
    tops = np.zeros((64, 2), np.float32)
    plain, _, known = augment(crops, tops, rng)
    assert known.all()
    turned, _, known = augment(crops, tops, rng, recolour=1.0)
    assert not known.any()  # their colour is no longer the label's
    hue = turned[:, :, 2:8, 2:8].mean((2, 3))  # the body's colour, channel by channel
    assert (np.abs(hue - plain[:, :, 2:8, 2:8].mean((2, 3))).max(1) > 0.15).mean() > 0.7
    stroke = turned[:, :, 12:20, 15:17].mean((2, 3))  # the stroke still stands out from the body
    assert (np.abs(stroke - hue).max(1) > 0.15).mean() > 0.9
    glared, _, known = augment(crops, tops, rng, glare=1.0)
    assert known.all() and glared[:, :, 8:24, 8:24].mean() > plain[:, :, 8:24, 8:24].mean() + 0.05
    softened, _, known = augment(crops, tops, rng, soft_chroma=1.0)
    assert known.all()

    def chroma_step(out: np.ndarray) -> float:  # the largest step of Cr across the stroke, median over the crops
        bgr = (out.transpose(0, 2, 3, 1)[:, 16:17, 8:24] * 255).clip(0, 255).astype(np.uint8)
        cr = np.stack([cv2.cvtColor(b, cv2.COLOR_BGR2YCrCb)[0, :, 1] for b in bgr]).astype(float)
        return float(np.median(np.abs(np.diff(cr, axis=1)).max(1)))

    assert chroma_step(softened) < 0.7 * chroma_step(plain)
