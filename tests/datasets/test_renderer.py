"""Synthetic renderer: labels fit what is drawn, stacks hide dice, same seed same bytes, balanced classes."""

from __future__ import annotations

import colorsys
import re
import subprocess
import sys
from collections import Counter
from dataclasses import fields, replace
from pathlib import Path

import numpy as np
import pytest

from datasets import (
    CardFace,
    OnChip,
    PlacedCard,
    PlacedDie,
    Scene,
    chip_positions,
    class_names,
    get_style,
    render,
    render_with_masks,
    sample_setting,
    scene_for,
    write_dataset,
    yolo_lines,
)
from datasets.cards import catalog_faces
from datasets.classes import die_classes
from datasets.cli import main as cli_main
from datasets.dieface import INKS, NORMALS, body_colour, body_faces, ink_colour, orientation
from datasets.errors import StyleError
from datasets.sampler import GOLD_HUES
from rules.dice import Die, load_dice_set

IOU_MIN = 0.8
"""Every labelled, unoccluded object: box vs. the box of its drawn pixels (dice 12 px wide lose ~1 px a side)."""
IOU_MEAN_MIN = 0.92


def _iou(a: list[float], b: list[float]) -> float:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


@pytest.fixture(scope="module")
def rendered() -> list[tuple[Scene, np.ndarray, dict, dict]]:
    style = get_style("default", ["sizes=1280x720", "hand_share=0.5", "distortion_share=0.5"])
    out = []
    for index in range(8):
        scene = scene_for(3, index, style)
        image, truth, masks = render_with_masks(scene)
        out.append((scene, image, truth, masks))
    return out


def test_frame_and_truth_shapes(rendered: list) -> None:
    for scene, image, truth, _ in rendered:
        assert image.shape == (scene.camera.height, scene.camera.width, 3) and image.dtype == np.uint8
        assert truth["width"] == scene.camera.width and truth["height"] == scene.camera.height


def test_every_object_in_the_truth_is_inside_the_image_where_visible(rendered: list) -> None:
    for _, _, truth, _ in rendered:
        w, h = truth["width"], truth["height"]
        for entry in truth["cards"] + truth["dice"]:
            x0, y0, x1, y1 = entry["box"]
            assert 0 <= x0 < x1 <= w and 0 <= y0 < y1 <= h, entry
        for die in truth["dice"]:
            if die["label"]:
                assert 0 <= die["top"][0] < w and 0 <= die["top"][1] < h
        for line in yolo_lines(truth):
            cls, *xywh = line.split()
            assert 0 <= int(cls) < len(class_names())
            cx, cy, bw, bh = map(float, xywh)
            assert (
                0 <= cx - bw / 2 + 1e-6
                and cx + bw / 2 <= 1 + 1e-6
                and 0 <= cy - bh / 2 + 1e-6
                and cy + bh / 2 <= 1 + 1e-6
            )


def test_label_boxes_fit_the_drawn_objects(rendered: list) -> None:
    scores = []
    for _, _, truth, masks in rendered:
        for kind, entries in (("card", truth["cards"]), ("die", truth["dice"])):
            for entry in entries:
                if not entry["label"]:
                    continue
                mask = masks[f"{kind}:{entry['index']}"]
                ys, xs = np.nonzero(mask)
                drawn = [xs.min(), ys.min(), xs.max() + 1, ys.max() + 1]
                score = _iou(drawn, entry["box"])
                assert score >= IOU_MIN, (kind, entry["index"], entry["box"], drawn)
                scores.append(score)
    assert len(scores) > 40
    assert float(np.mean(scores)) >= IOU_MEAN_MIN


def test_card_corners_and_chip_centres_lie_on_the_card(rendered: list) -> None:
    import cv2

    for _, _, truth, _ in rendered:
        for card in truth["cards"]:
            quad = np.array(card["corners"], np.float32)
            for chip in card["chips"]:
                assert cv2.pointPolygonTest(quad, tuple(chip["center"]), False) >= 0


def _stack_scene() -> Scene:
    setting = sample_setting(
        np.random.default_rng(1), get_style("clean", ["tilt=30,30", "die_px=40,40", "sizes=1280x720"])
    )
    face = next(f for f in catalog_faces("fuse")["bomb"] if f.text.startswith("stack [yellow]"))
    cam = replace(setting.camera, target=(0.0, 0.0), yaw=0.0)
    setting = replace(setting, camera=cam)
    card = PlacedCard(face, 0.0, 0.0, 0.0)
    dice = tuple(
        PlacedDie(f"{colour}{n + 1}", 0.0, 0.0, 0.0, 0, OnChip(0, n + 1, n))
        for n, colour in enumerate(("yellow", "red", "blue"))
    )
    return Scene(setting, (card,), dice)


def test_only_the_top_die_of_a_stack_is_labelled_and_hidden_dice_are_in_the_truth() -> None:
    image, truth = render(_stack_scene())
    dice = {d["index"]: d for d in truth["dice"]}
    assert [dice[i]["covered"] for i in range(3)] == [True, True, False]
    assert [dice[i]["label"] for i in range(3)] == [None, None, "blue3"]
    assert [dice[i]["on"]["level"] for i in range(3)] == [0, 1, 2]
    chips = {c["chip"]: c for c in truth["cards"][0]["chips"]}
    assert [chips[n]["die"] for n in (1, 2, 3, 4)] == [0, 1, 2, None]
    # the stack's chips share one seat: the large blank chip
    assert len({tuple(c["center"]) for c in chips.values()}) == 1
    # stacked dice rise in the picture of an oblique camera
    assert dice[2]["top"][1] < dice[0]["top"][1]


def test_chip_positions_follow_the_card_layout() -> None:
    plain = chip_positions("[C] != [C] != [C] != [C]")
    assert [s.chip for s in plain] == [1, 2, 3, 4] and all(s.level == 0 for s in plain)
    assert all(0 < s.u < 1 and 0 < s.v < 1 for s in plain)
    assert [s.u for s in plain] == sorted(s.u for s in plain)
    pyramid = chip_positions("pyramid [black] [red] [black] | [blue] [green] | [yellow]")
    assert [s.level for s in pyramid] == [0, 0, 0, 1, 1, 2]
    assert pyramid[3].u == pytest.approx((pyramid[0].u + pyramid[1].u) / 2)
    double = chip_positions("stack [1/2] [3/4] [5/6]; stack [red/yellow] [black/blue] [red/green]")
    assert len({(s.u, s.v) for s in double}) == 2 and [s.level for s in double] == [0, 1, 2, 0, 1, 2]


@pytest.mark.parametrize("top", [1, 2, 3, 4, 5, 6])
def test_dice_show_the_fuse_opposite_faces(top: int) -> None:
    kind = load_dice_set("fuse").kinds[0]
    faces = body_faces(kind.opposites)
    for turn in range(4):
        rot = orientation(kind.opposites, top, turn)
        world = {tuple(np.round(rot @ n).astype(int)): faces[i] for i, n in enumerate(NORMALS)}
        assert world[(0, 0, 1)] == top and world[(0, 0, -1)] == kind.opposite(top)
        sides = {world[(1, 0, 0)], world[(-1, 0, 0)], world[(0, 1, 0)], world[(0, -1, 0)]}
        assert sides == set(range(1, 7)) - {top, kind.opposite(top)}


def test_die_classes_are_balanced_within_tolerance() -> None:
    style = get_style("default")
    counts: Counter[str] = Counter()
    for index in range(1200):
        counts.update(d.die for d in scene_for(9, index, style).dice)
    names = list(die_classes())  # the game's dice (the default style draws no plain white ones)
    weights = np.array([style.split_weight if "/" in n else 1.0 for n in names])
    expected = weights / weights.sum() * sum(counts.values())
    ratio = np.array([counts[n] for n in names]) / expected
    # per class: 0.65..1.35 of its target over ~10,000 dice (sampling noise alone is about +-10%)
    assert ratio.min() > 0.65 and ratio.max() < 1.35, dict(zip(names, ratio.round(2)))
    # per colour and per face (pooled, so tighter): within 10%
    for group in [c for c in ("red", "blue", "green", "yellow", "black")] + [str(f) for f in range(1, 7)]:
        members = [i for i, n in enumerate(names) if "/" not in n and (n[:-1] == group or n[-1] == group)]
        assert abs(ratio[members].mean() - 1) < 0.1, group
    assert all(Die.parse(n) for n in names)


CARD_MIN_SHARE = {"bomb": 0.35, "back": 0.1, "fuse": 0.05, "spark": 0.05, "role": 0.04}
"""Card types follow the table (mostly bomb cards) but each has at least this share of the cards on top."""


def test_card_types_are_all_present_in_stated_shares() -> None:
    style = get_style("default")
    counts: Counter[str] = Counter()
    for index in range(300):
        cards = scene_for(4, index, style).cards
        # a card with another card lying on it (in a pile) cannot be seen: count the top ones
        top = [
            c for k, c in enumerate(cards) if not any(abs(c.x - o.x) < 8 and abs(c.y - o.y) < 8 for o in cards[k + 1 :])
        ]
        counts.update(c.face.kind if c.face_up else "back" for c in top)
    total = sum(counts.values())
    for kind, share in CARD_MIN_SHARE.items():
        assert counts[kind] / total >= share, counts


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_same_seed_gives_the_same_bytes_on_one_or_two_processes(tmp_path: Path) -> None:
    style = get_style("default", ["sizes=1280x720"])
    write_dataset(tmp_path / "a", 4, 11, style, workers=1, progress=False)
    write_dataset(tmp_path / "b", 4, 11, style, workers=2, progress=False)
    write_dataset(tmp_path / "c", 4, 12, style, workers=1, progress=False)
    a, b, c = _files(tmp_path / "a"), _files(tmp_path / "b"), _files(tmp_path / "c")
    assert a == b
    images = [k for k in a if k.startswith("images/")]
    assert len(images) == 4 and all(a[k] != c.get(k) for k in images)


def test_cli_writes_an_ultralytics_dataset(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "ds"
    code = cli_main(
        [
            "synth",
            "images",
            "--n",
            "10",
            "--out",
            str(out),
            "--seed",
            "2",
            "--workers",
            "1",
            "--quiet",
            "--set",
            "sizes=1280x720",
            "--set",
            "hand_share=0",
        ]
    )
    assert code == 0
    assert (
        len(list((out / "images" / "train").glob("*.jpg"))) == 9
        and len(list((out / "images" / "val").glob("*.jpg"))) == 1
    )
    assert len(list((out / "labels" / "train").glob("*.txt"))) == 9 and len(list((out / "truth").glob("*.json"))) == 10
    yaml = (out / "data.yaml").read_text()
    assert "train: images/train" in yaml and f"nc: {len(class_names())}" in yaml and '"black/yellow1"' in yaml
    assert "wrote 10 images" in capsys.readouterr().out


def test_cli_reports_bad_options_in_one_line(capsys: pytest.CaptureFixture) -> None:
    assert cli_main(["synth", "images", "--out", "x", "--style", "nope"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: unknown style 'nope'") and "\n" not in err
    with pytest.raises(StyleError, match="die_px"):
        get_style("default", ["die_px=big"])


def test_heldout_style_uses_tables_light_and_dice_the_default_never_draws() -> None:
    default, heldout = get_style("default"), get_style("heldout")
    assert not set(default.tables) & set(heldout.tables)
    assert not set(default.die_looks) & set(heldout.die_looks)
    assert heldout.kelvin[0] > default.kelvin[1]


def test_the_heldout_ablation_sets_every_knob_the_heldout_style_changes_back_in_some_group() -> None:
    # datasets/ablate-heldout.sh: one render of the held-out style per group of knobs, that group as in training
    script = (Path(__file__).resolve().parents[2] / "datasets" / "ablate-heldout.sh").read_text()
    groups = dict(re.findall(r'^\s+\[(\w+)\]="([^"]*)"$', script, re.MULTILINE))
    default, heldout = get_style("default"), get_style("heldout")
    knobs = [f.name for f in fields(heldout) if f.name != "name"]
    differing = {k for k in knobs if getattr(heldout, k) != getattr(default, k)}
    named = [knob for group in groups.values() for knob in group.split()]
    assert groups["heldout"] == "" and len(named) == len(set(named))
    assert set(named) == differing


def test_varied_style_tints_bodies_and_draws_inks_but_never_the_heldout_look() -> None:
    varied, heldout = get_style("varied"), get_style("heldout")
    assert not set(varied.die_looks) & set(heldout.die_looks)
    assert not set(varied.inks) & set(heldout.inks)
    rng = np.random.default_rng(0)
    looks = [sample_setting(rng, varied).die_look for _ in range(300)]
    assert len({look.tint for look in looks}) == len(looks)
    inks = [look.ink for look in looks if look.ink.startswith("#")]
    assert len(inks) > 100
    for ink in inks:  # an ``any`` ink is never gold-like
        r, g, b = (int(ink[i : i + 2], 16) / 255 for i in (1, 3, 5))
        h, s, _ = colorsys.rgb_to_hsv(r, g, b)
        assert s < 0.01 or not GOLD_HUES[0] <= h * 360 <= GOLD_HUES[1], ink
    # the default style draws exactly what it drew before these knobs existed
    assert all(sample_setting(rng, get_style()).die_look.tint == (0.0, 1.0, 1.0) for _ in range(20))


def test_plain_white_pip_dice_are_drawn_and_labelled_after_the_card_classes() -> None:
    style = get_style("varied", ["pip_share=1", "white_share=1", "sizes=1280x720", "die_px=40,50", "hand_share=0"])
    image, truth = render(scene_for(11, 0, style))
    labelled = [d for d in truth["dice"] if d["label"]]
    assert labelled and all(d["colour"] == "white" and d["label"] == f"white{d['face']}" for d in labelled)
    assert class_names()[60:65] == ("bomb", "fuse", "spark", "role", "back")  # older datasets keep their numbers
    assert all(class_names().index(d["label"]) >= 65 for d in labelled)
    x1, y1, x2, y2 = (int(v) for v in labelled[0]["box"])
    assert image[y1:y2, x1:x2].mean() > 120  # a light die on the table


def test_an_ink_too_close_to_the_body_is_printed_legibly() -> None:
    yellow = body_colour("classic", "yellow")
    assert ink_colour("#f0e000", ("yellow",), "classic", yellow) != (0, 224, 240)
    assert ink_colour("#202020", ("black",), "classic", body_colour("classic", "black")) == INKS["white"]
    assert ink_colour("#3050e0", ("yellow",), "classic", yellow) == (224, 80, 48)
    assert body_colour("classic", "red", (0.0, 1.0, 1.2))[2] > body_colour("classic", "red")[2]


def test_importing_the_cli_is_cheap() -> None:
    code = "import sys, datasets, datasets.cli; print('cv2' in sys.modules or 'numpy' in sys.modules)"
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert result.stdout.strip() == "False"


def test_card_faces_come_from_the_catalog() -> None:
    faces = catalog_faces("countdown")
    assert {"bomb", "spark", "fuse", "role"} <= set(faces) and all(isinstance(f, CardFace) for f in faces["bomb"])


def test_every_catalog_card_has_its_chips_on_the_card() -> None:
    from rules.notation import parse_layout

    for edition in ("fuse", "countdown"):
        for kind in ("bomb", "spark"):
            for face in catalog_faces(edition)[kind]:
                seats = chip_positions(face.text)
                assert [s.chip for s in seats] == [c.number for c in parse_layout(face.text).chips]
                assert all(0.05 < s.u < 0.95 and 0.1 < s.v < 0.9 for s in seats), face


@pytest.mark.parametrize("k1", [0.0, 0.05, 0.16])
def test_labels_move_with_the_lens_distortion(k1: float) -> None:
    from datasets.camera import Projector
    from datasets.scene import Camera

    proj = Projector(Camera(1280, 720, (0.0, 0.0), 600.0, 20.0, 0.0, 0.0, 70.0, k1))
    maps = proj.remap_maps()
    points = np.random.default_rng(0).uniform([0, 0], [1279, 719], (200, 2))
    moved = proj.distort(points)
    if maps is None:
        assert np.allclose(moved, points)
        return
    # the frame pixel a point lands on samples the drawn frame at that point (maps use pixel centres)
    inside = (moved[:, 0] >= 0) & (moved[:, 0] < 1279) & (moved[:, 1] >= 0) & (moved[:, 1] < 719)
    ix, iy = np.floor(moved[inside]).astype(int).T
    # maps give, for each frame pixel, the drawn-frame position its centre samples (pixel-index coordinates)
    sampled = np.column_stack([maps[0][iy, ix], maps[1][iy, ix]]) + 0.5
    assert np.abs(sampled - points[inside]).max() < 1.0
