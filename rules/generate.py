"""Generated stand-in cards: fill each deck to its published size until the real cards are known.

Each point value has templates taken from the shapes of the real cards (fuse-physical.md) and, for
Countdown, from its rulebook's icon reference (walls, ziggurats, split dice, first/last chips, "not" colours).
Generation is seeded, so ``fuse-referee catalog generate`` always writes the same files.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

from rules.catalog import CATALOG_DIR, DECK_SIZES, load_catalog
from rules.dice import COLOURS, load_dice_set
from rules.legality import can_complete
from rules.notation import parse_layout

Template = Callable[[random.Random], str]


def _c(rng: random.Random) -> str:
    return rng.choice(COLOURS)


def _n(rng: random.Random) -> int:
    return rng.randint(1, 6)


def _two(rng: random.Random, pool: tuple) -> str:
    a, b = rng.sample(pool, 2)
    return f"{a}/{b}"


def _chain(chip: str, op: str, length: int) -> str:
    return f" {op} ".join([chip] * length)


NUMS = (1, 2, 3, 4, 5, 6)

FUSE_TEMPLATES: dict[int, list[Template]] = {
    1: [
        lambda r: _chain("[C]", "!=", r.choice((3, 4))),
        lambda r: " ".join(f"[{_two(r, COLOURS)}]" for _ in range(3)),
        lambda r: "[C] = [C]; [#] = [#]",
        lambda r: r.choice(("[#] = [#/C] = [C]", "[C] = [#/C] = [#]")),
        lambda r: r.choice(("[#] > [#] < [#]", "[#] < [#] > [#]")),
        lambda r: f"[{_c(r)}] [{_c(r)}] [{_n(r)}]",
        lambda r: _chain("[#]", "!=", 4),
    ],
    2: [
        lambda r: "[#/C] = [#/C] = [#/C]",
        lambda r: f"[{r.randint(4, 6)}] > [?] > [?]",
        lambda r: f"[?] < [?] < [{r.randint(4, 6)}]",
        lambda r: "[#] + [#] = [#] + [#]",
        lambda r: " ".join(f"[{c}/{n}]" for c, n in zip(r.sample(COLOURS, 3), r.sample(NUMS, 3))),
        lambda r: f"[{_c(r)}{_n(r)}] [{_two(r, COLOURS)}] [?]",
    ],
    3: [
        lambda r: f"[{_two(r, COLOURS)}] + [{_two(r, COLOURS)}] = 7",
        lambda r: "[#] = [#] = [#]",
        lambda r: f"[{_n(r)}] [{_c(r)}] [{_c(r)}{_n(r)}]",
        lambda r: f"[{_two(r, COLOURS)}] [{_two(r, COLOURS)}] [{_c(r)}{_n(r)}]",
        lambda r: "[#] - [#] = [#]",
        lambda r: f"[{_c(r)}/{_n(r)}] + [{_c(r)}/{_n(r)}] = 7",
    ],
    4: [
        lambda r: r.choice(("stack [#] > [#] > [#] > [#]", "stack [#] < [#] < [#] < [#]")),
        lambda r: "stack " + " ".join(f"[{c}]" for c in r.sample(COLOURS, 4)),
        lambda r: "[C] = [C] = [C] = [C]",
        lambda r: " ".join([f"[{_n(r)}]"] * 3),
        lambda r: f"[#] = [#] = [{_c(r)}#]",
        lambda r: "[#C] = [#C]",
        lambda r: f"stack [{_n(r)}] [?] [{_c(r)}{_n(r)}] [?] [{_c(r)}/{_n(r)}]",
    ],
    6: [
        lambda r: "pyramid " + " ".join(f"[{_c(r)}]" for _ in range(3)) + " | "
        + " ".join(f"[{_c(r)}]" for _ in range(2)) + f" | [{_c(r)}]",
    ],
}

COUNTDOWN_TEMPLATES: dict[int, list[Template]] = {
    1: [
        lambda r: _chain("[C]", "!=", 3),
        lambda r: f"[{_c(r)}] [{_two(r, NUMS)}] [?]",
        lambda r: f"[!{_c(r)}] [!{_c(r)}] [{_n(r)}]",
        lambda r: "[#] < [#] < [#]",
    ],
    2: [
        lambda r: "[#C] = [#C]; [?]",
        lambda r: f"[first {_c(r)}] [{_c(r)}/{_n(r)}] [last ?]",
        lambda r: "[" + "/".join(f"{c}{_n(r)}" for c in r.sample(COLOURS, 2)) + f"] [split] [{_c(r)}]",
        lambda r: "[#] + [#] = " + str(r.randint(5, 9)),
    ],
    3: [
        lambda r: "[#] - [#] = [#]",
        lambda r: f"[C] != [C] != [C] != [C]; [{_n(r)}]",
        lambda r: "stack [#] < [#] [#] < [#]",
        lambda r: f"[first {_n(r)}] [#] = [#] [last {_c(r)}]",
        lambda r: "[split] = [C] = [C]",
    ],
    4: [
        lambda r: "wall " + " ".join(f"[{c}]" for c in r.sample(COLOURS, 3)) + f" | [{_c(r)}] _ [{_c(r)}]",
        lambda r: "stack " + " ".join(f"[{_n(r)}/{_n(r)}]" for _ in range(4)),
        lambda r: f"[#] + [#] + [#] = {r.randint(8, 12)}",
        lambda r: "[#/C] = [#/C] = [#/C] = [#/C]",
    ],
    5: [
        lambda r: f"ziggurat [{_c(r)}] [{_n(r)}] [{_n(r)}] [{_c(r)}] | [{_c(r)}]",
        lambda r: f"wall [#] [#] | [{_c(r)}] [{_c(r)}]",
        lambda r: "[#] + [#] = [#] + [#]; [split]",
    ],
    6: [
        lambda r: "wall " + " ".join(f"[{c}]" for c in r.sample(COLOURS, 3)) + " | "
        + " ".join(f"[{n}]" for n in r.sample(NUMS, 3)),
        lambda r: "pyramid [C] [C] [C] | [#] [#] | [split]",
        lambda r: f"ziggurat [#] [#] [#] [#] | [{_c(r)}{_n(r)}]",
    ],
}

SPARK_TEMPLATES: list[Template] = [
    lambda r: f"[{_c(r)}] [{_n(r)}]",
    lambda r: f"[{_two(r, COLOURS)}] [{_two(r, NUMS)}]",
    lambda r: "[#] = [#]",
    lambda r: "[C] = [C]",
    lambda r: "[C] != [C] != [C]",
    lambda r: f"[{_c(r)}] [?] [{_n(r)}]",
    lambda r: f"[#] > [{r.randint(2, 5)}]",
    lambda r: f"[split] [{_c(r)}]",
    lambda r: f"[#] + [#] = {r.randint(4, 10)}",
]

# how many generated cards of each point value fill a deck, after the real ones are counted
FUSE_POINT_MIX = {1: 12, 2: 9, 3: 12, 4: 16, 6: 5}
COUNTDOWN_POINT_MIX = {1: 8, 2: 10, 3: 10, 4: 10, 5: 8, 6: 6}


def _generate(
    templates: dict[int, list[Template]], mix: dict[int, int], existing: list[tuple[int, str]], edition: str, seed: int
) -> list[tuple[int, str]]:
    """Cards (points, notation) that bring ``existing`` up to ``mix``, unique and completable."""
    rng = random.Random(seed)
    dice = load_dice_set(edition)
    texts = {text for _, text in existing}
    made: list[tuple[int, str]] = []
    for points, wanted in mix.items():
        have = sum(p == points for p, _ in existing)
        tries = 0
        while have < wanted:
            tries += 1
            if tries > 5000:
                raise RuntimeError(f"cannot generate enough distinct {points}-point {edition} cards")
            text = str(parse_layout(rng.choice(templates[points])(rng)))
            if text in texts or not can_complete(parse_layout(text), {}, dice):
                continue
            texts.add(text)
            made.append((points, text))
            have += 1
    return made


def generated_files(seed: int = 2026) -> dict[str, str]:
    """File name -> contents of every generated catalog file."""
    fuse = load_catalog("fuse", include_user=False)
    real_fuse = [(c.points, c.body) for c in fuse.bombs if c.provenance != "generated"]
    header = (
        "# Generated stand-ins (not real cards): they follow the mix of points and icons of the real cards and\n"
        "# are replaced, one per real card of the same points, as real cards are added. Written by\n"
        "# `fuse-referee catalog generate`; do not edit by hand.\n"
    )
    files = {}
    fuse_cards = _generate(FUSE_TEMPLATES, FUSE_POINT_MIX, real_fuse, "fuse", seed)
    files["fuse-bombs-generated.txt"] = header + "".join(
        f"F-G{i:02d} {p} generated {t}\n" for i, (p, t) in enumerate(fuse_cards, 1)
    )
    countdown_cards = _generate(COUNTDOWN_TEMPLATES, COUNTDOWN_POINT_MIX, [], "countdown", seed)
    files["countdown-bombs-generated.txt"] = (
        "# No FUSE: Countdown bomb card is transcribed yet: all 52 are generated from the rulebook's icon reference.\n"
        + header
        + "".join(f"C-G{i:02d} {p} generated {t}\n" for i, (p, t) in enumerate(countdown_cards, 1))
    )
    rng = random.Random(seed + 1)
    sparks: list[str] = []
    while len(sparks) < DECK_SIZES[("countdown", "spark")]:
        text = str(parse_layout(rng.choice(SPARK_TEMPLATES)(rng)))
        if text not in sparks or len(sparks) >= 20:  # repeats allowed once the 20 distinct ones exist
            sparks.append(text)
    files["countdown-sparks-generated.txt"] = (
        "# No spark card is transcribed yet: all 30 are generated "
        "(two or three chips; the rulebook says defusing one returns its dice).\n"
        + header
        + "".join(f"S-G{i:02d} 0 generated {t}\n" for i, t in enumerate(sparks, 1))
    )
    return files


def write_generated(directory: Path = CATALOG_DIR, seed: int = 2026) -> list[Path]:
    paths = []
    for name, text in generated_files(seed).items():
        path = directory / name
        path.write_text(text)
        paths.append(path)
    return paths
