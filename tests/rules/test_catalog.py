"""The card catalog: deck sizes of the published games, every card valid and completable, user cards added
with ``add_user_card`` (into ``$FUSE_REFEREE_HOME``) replacing generated stand-ins of the same points."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rules.catalog import (
    FUSE_EFFECTS,
    add_user_card,
    check_catalog,
    load_catalog,
    parse_card_line,
    user_cards_path,
)
from rules.dice import load_dice_set
from rules.errors import CatalogError, RulesError
from rules.legality import can_complete

ROLES = ("cutter", "operations-engineer", "logistics-specialist", "technologist", "equipment-technician",
         "disposal-expert", "explosives-instructor")

# the rulebooks' component lists
PUBLISHED = [
    ("fuse", "bomb", 54),
    ("fuse", "fuse", 11),
    ("fuse", "spark", 0),
    ("fuse", "role", 0),
    ("countdown", "bomb", 52),
    ("countdown", "fuse", 10),
    ("countdown", "spark", 30),
    ("countdown", "role", 7),
]


@pytest.mark.parametrize(("edition", "kind", "count"), PUBLISHED)
def test_published_deck_sizes(edition: str, kind: str, count: int) -> None:
    assert len(load_catalog(edition).of_kind(kind)) == count


@pytest.mark.parametrize("edition", ["fuse", "countdown"])
def test_shipped_catalog_has_no_problems(edition: str) -> None:
    catalog = load_catalog(edition)
    assert check_catalog(catalog) == []
    dice = load_dice_set(edition)
    for card in catalog.bombs + catalog.sparks:
        assert card.layout is not None and can_complete(card.layout, {}, dice), card.id
    assert len({c.id for c in catalog.cards}) == len(catalog.cards)


def test_fuse_bomb_points() -> None:
    """FUSE has no 5-point cards, and five hard 6-point cards (2 double stacks, 3 large pyramids)."""
    bombs = load_catalog("fuse").bombs
    assert {b.points for b in bombs} == {1, 2, 3, 4, 6}
    kinds = sorted(b.layout.kinds for b in bombs if b.points == 6 and b.layout is not None)
    assert kinds == [("pyramid",)] * 3 + [("stack", "stack")] * 2


def test_role_cards() -> None:
    roles = load_catalog("countdown").roles
    assert tuple(r.name for r in roles) == ROLES
    cutter = roles[0]
    assert cutter.ability.startswith("Before drawing dice, name a colour")
    assert cutter.text == "" and cutter.layout is None


def test_fuse_cards() -> None:
    countdown = load_catalog("countdown").fuses
    effects = sorted(c.fuse_effect for c in countdown if c.fuse_effect != "match")
    assert effects == sorted(FUSE_EFFECTS)
    matching = [c for c in countdown if c.fuse_effect == "match"]
    assert all(c.fuse_matches for c in matching)
    fuse = load_catalog("fuse").fuses
    assert all(c.fuse_effect == "match" and len(c.fuse_matches) == 1 for c in fuse)
    assert {m for c in fuse for m in c.fuse_matches} == {"red", "blue", "green", "yellow", "black", 1, 2, 3, 4, 5, 6}


def test_card_lookup() -> None:
    catalog = load_catalog("fuse")
    card = catalog.get("F-010")
    assert (card.kind, card.points, card.body, card.provenance) == ("bomb", 3, "[green/yellow] + [red/blue] = 7",
                                                                     "transcribed")
    assert card.is_real and card.chip_count == 2
    assert card.source.startswith("fuse-bombs.txt:")
    with pytest.raises(CatalogError, match="no card 'F-999'"):
        catalog.get("F-999")
    with pytest.raises(CatalogError):
        load_catalog("chess")


@pytest.mark.parametrize(
    ("line", "kind", "words"),
    [
        ("F-1 3", "bomb", "expected 'ID POINTS PROVENANCE BODY'"),
        ("F-1 three user [#]", "bomb", "expected 'ID POINTS PROVENANCE BODY'"),
        ("F-1 3 guessed [#] = [#]", "bomb", "provenance 'guessed'"),
        ("F-1 3 user [#] = [C]", "bomb", "column 5"),
        ("F-1 7 user [#] = [#]", "bomb", "1-6 points, not 7"),
        ("F-1 0 user [#] = [#]", "bomb", "1-6 points, not 0"),
        ("FF-1 0 assumed purple", "fuse", "'purple'"),
        ("R-9 0 rulebook juggler", "role", "'key: ability'"),
    ],
)
def test_bad_catalog_lines(line: str, kind: str, words: str) -> None:
    with pytest.raises(CatalogError) as info:
        parse_card_line(line, "fuse", kind, "test.txt:1")
    assert words in str(info.value)
    assert isinstance(info.value, RulesError)


def test_add_user_card_replaces_a_generated_card(user_home: Path) -> None:
    before = load_catalog("fuse")
    card = add_user_card("fuse", "[#] - [#] = [#] + [#]", 3)
    assert (card.id, card.points, card.provenance, card.body) == ("F-U01", 3, "user", "[#] - [#] = [#] + [#]")
    assert user_cards_path("fuse") == user_home / "cards-fuse.txt"
    assert (user_home / "cards-fuse.txt").read_text() == "F-U01 3 user [#] - [#] = [#] + [#]\n"
    after = load_catalog("fuse")
    assert len(after.bombs) == len(before.bombs) == 54
    assert after.get("F-U01").body == "[#] - [#] = [#] + [#]"
    (stand_in,) = after.replaced
    assert stand_in.provenance == "generated" and stand_in.points == 3
    assert stand_in.id not in {c.id for c in after.cards}
    assert check_catalog(after) == []
    assert load_catalog("fuse", include_user=False).bombs == before.bombs


def test_user_cards_get_their_own_ids() -> None:
    ids = [add_user_card("countdown", text, 2).id for text in ("[#] = [#]", "[#] != [#]", "[C] = [#/C]")]
    assert ids == ["C-U01", "C-U02", "C-U03"]
    chosen = add_user_card("countdown", "[C] != [C]", 1, card_id="C-MINE")
    assert chosen.id == "C-MINE"
    catalog = load_catalog("countdown")
    assert [c.id for c in catalog.cards if c.provenance == "user"] == ["C-U01", "C-U02", "C-U03", "C-MINE"]
    assert len(catalog.bombs) == 52


@pytest.mark.parametrize(
    ("text", "points", "card_id", "words"),
    [
        ("[red] [red] [red] [red] [red] [red]", 3, None, "cannot be completed with the fuse dice"),
        ("[split]", 1, None, "cannot be completed"),
        ("[#] - [#] =", 3, None, "column 12"),
        ("[#] = [#]", 9, None, "1-6 points"),
        ("[#] = [#]", 1, "F-001", "already in the fuse catalog"),
    ],
)
def test_add_user_card_rejects(user_home: Path, text: str, points: int, card_id: str | None, words: str) -> None:
    with pytest.raises(CatalogError) as info:
        add_user_card("fuse", text, points, card_id)
    assert words in str(info.value)
    assert not (user_home / "cards-fuse.txt").exists()


def test_an_edited_user_file_is_read_again(user_home: Path) -> None:
    """The catalog is cached per file; a change must show even when the file's timestamp did not move
    (file systems keep coarse timestamps)."""
    path = user_home / "cards-fuse.txt"
    path.parent.mkdir(parents=True)
    path.write_text("F-U01 1 user [#] = [#]\n")
    stamp = os.stat(path).st_mtime_ns
    assert load_catalog("fuse").get("F-U01").body == "[#] = [#]"
    path.write_text("F-U01 1 user [#] = [#]\nF-U02 1 user [C] = [C]\n")
    os.utime(path, ns=(stamp, stamp))
    assert load_catalog("fuse").get("F-U02").body == "[C] = [C]"


def test_broken_user_file_is_reported(user_home: Path) -> None:
    path = user_home / "cards-fuse.txt"
    path.parent.mkdir(parents=True)
    path.write_text("# my cards\nF-U01 2 user [#] = [C]\n")
    with pytest.raises(CatalogError, match=r"cards-fuse.txt:2: F-U01: column 5"):
        load_catalog("fuse")


def test_check_catalog_finds_problems(user_home: Path) -> None:
    path = user_home / "cards-fuse.txt"
    path.parent.mkdir(parents=True)
    path.write_text("F-001 1 user [#] = [#]\nF-U02 5 user [red] [red] [red] [red] [red] [red]\n")
    problems = check_catalog(load_catalog("fuse"))
    assert any("id F-001 is used again" in p for p in problems)
    assert any("F-U02" in p and "cannot be completed with the fuse dice" in p for p in problems)
    assert any("fuse has 55 bomb cards; the published game has 54" in p for p in problems)  # no 5-point stand-in


def test_generated_stand_ins_are_what_the_generator_writes() -> None:
    """The shipped generated cards come from ``catalog generate`` (seeded), so regenerating changes nothing."""
    from rules.catalog import CATALOG_DIR
    from rules.generate import generated_files

    for name, text in generated_files().items():
        assert (CATALOG_DIR / name).read_text() == text, name
