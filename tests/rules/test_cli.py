"""The rules' commands of ``fuse-referee``: check (with the notation page's examples and exit codes), catalog,
setup, simulate and suggest, run through the real entry point."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from webui.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def place(*placements: str) -> list[str]:
    return [arg for p in placements for arg in ("--place", p)]


# ------------------------------------------------------------------ check

NOTATION_PAGE = [
    # card, placements, exit status, printed verdicts
    ("[#] - [#] = [#]", ["2=red6"], 1,
     ["illegal: chip 2 (#) = 6 leaves [#] - 6 = [#] unsolvable with faces 1-6"]),
    ("[#/C] = [#/C] = [#/C]", ["1=yellow5", "2=red5", "3=red2"], 0, ["ok", "ok", "ok"]),
    ("stack [yellow] [red] [blue] [green]", ["2=red1"], 1,
     ["illegal: chip 2 (red) goes on chip 1, still empty: stack dice go on in the order written"]),
    ("pyramid [green] [3] | [black]", ["2=blue3", "1=green6", "3=black1"], 0, ["ok", "ok", "ok"]),
    ("[C] != [C] != [C] != [C]", ["1=red1", "2=red4"], 1,
     ["ok", "illegal: chip 2 (C) = red4 breaks [C] != [C] with chip 1 = red1: must differ in colour"]),
]


@pytest.mark.parametrize(("card", "placements", "status", "lines"), NOTATION_PAGE)
def test_check_notation_page_examples(capsys: pytest.CaptureFixture[str], card: str, placements: list[str],
                                      status: int, lines: list[str]) -> None:
    code, out, err = run(capsys, "check", card, *place(*placements))
    assert (code, out.splitlines(), err) == (status, lines, "")


def test_check_stops_at_the_first_illegal_placement(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", "[C] != [C] != [C] != [C]", *place("1=red1", "2=red4", "3=blue2", "4=red1"))
    assert code == 1 and len(out.splitlines()) == 2


def test_check_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", "[#]-[#]=[#]", *place("1=R6", "2=blue6"), "--json")
    assert code == 1
    result = json.loads(out)
    assert result["card"] == "[#] - [#] = [#]" and result["legal"] is False
    assert result["placements"] == [
        {"chip": 1, "die": "red6", "legal": True, "reason": ""},
        {"chip": 2, "die": "blue6", "legal": False,
         "reason": "chip 2 (#) = 6 leaves 6 - 6 = [#] unsolvable with faces 1-6"},
    ]
    code, out, _ = run(capsys, "check", "[#] = [#]", *place("1=red3", "2=blue3"), "--json")
    assert code == 0 and json.loads(out)["legal"] is True


@pytest.mark.parametrize(
    ("edition", "placements", "status"),
    [("countdown", ["2=black/yellow2", "1=red1"], 0), ("countdown", ["2=black/yellow2", "1=yellow1"], 1),
     ("fuse", ["2=black/yellow2"], 1)],
)
def test_check_split_dice(capsys: pytest.CaptureFixture[str], edition: str, placements: list[str], status: int) -> None:
    code, _, _ = run(capsys, "check", "[C] != [C] != [C] != [C]", *place(*placements), "--edition", edition)
    assert code == status


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["check", "[C] != [C"], "error: column 10: expected ']' to close the chip opened at column 8 in '[C] != [C'"),
        (["check", "[#] - [#] = "], "error: column 13: expected a chip or a number to end the equation"),
        (["check", "[#] = [C]", "--place", "1=red1"], "error: column 5: expected chips that share what matters"),
        (["check", "[#]", "--place", "1=pink3"], "error: cannot read die 'pink3'"),
        (["check", "[#]", "--place", "1-red3"], "error: cannot read placement '1-red3'"),
    ],
)
def test_check_malformed_input_exits_2(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.splitlines()[0].startswith(message)


def test_check_points_at_the_column(capsys: pytest.CaptureFixture[str]) -> None:
    _, _, err = run(capsys, "check", "[C] != [C")
    assert err.splitlines()[1:] == ["[C] != [C", "         ^"]


# ------------------------------------------------------------------ catalog

def test_catalog_list(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "catalog", "list")
    assert code == 0
    lines = out.splitlines()
    assert sum(line.split()[1] == "bomb" for line in lines if not line.startswith("#")) == 54
    assert any(line.startswith("F-010") and line.endswith("[green/yellow] + [red/blue] = 7") for line in lines)
    assert lines[-2].startswith("# bomb: 54 of 54 cards") and lines[-1].startswith("# fuse: 11 of 11 cards")
    code, out, _ = run(capsys, "catalog", "list", "--edition", "countdown")
    assert code == 0 and any(line.startswith("R-1") and " role " in line for line in out.splitlines())


def test_catalog_show(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "catalog", "show", "F-024")
    assert code == 0
    assert out.splitlines()[:3] == [
        "F-024: bomb, 6 points, transcribed (fuse-bombs.txt:29)",
        "pyramid [black] [red] [black] | [blue] [green] | [yellow]",
        "  chip 1: [black] in a pyramid group",
    ]
    assert run(capsys, "catalog", "show", "F-999")[0] == 2
    assert run(capsys, "catalog", "show")[0] == 2


def test_catalog_check(capsys: pytest.CaptureFixture[str], user_home: Path) -> None:
    for edition, cards in (("fuse", 65), ("countdown", 99)):
        code, out, _ = run(capsys, "catalog", "check", "--edition", edition)
        assert code == 0 and f"{edition}: {cards} cards, 0 problem(s)" in out
    user_home.mkdir()
    (user_home / "cards-fuse.txt").write_text("F-001 1 user [#] = [#]\n")
    code, out, _ = run(capsys, "catalog", "check")
    assert code == 1 and "id F-001 is used again" in out


def test_catalog_add(capsys: pytest.CaptureFixture[str], user_home: Path) -> None:
    code, out, _ = run(capsys, "catalog", "add", "[#] - [#] = [#] + [#]", "--points", "3")
    assert code == 0 and out.startswith("added F-U01 3 user [#] - [#] = [#] + [#]")
    assert (user_home / "cards-fuse.txt").read_text() == "F-U01 3 user [#] - [#] = [#] + [#]\n"
    code, out, _ = run(capsys, "catalog", "show", "F-U01")
    assert code == 0 and out.splitlines()[0] == "F-U01: bomb, 3 points, user (cards-fuse.txt:1)"
    assert run(capsys, "catalog", "add", "[red] [red] [red] [red] [red] [red]", "--points", "3")[0] == 2
    assert run(capsys, "catalog", "add", "[#] = [#]")[0] == 2  # no --points
    code, _, err = run(capsys, "catalog", "add", "[#] = [#", "--points", "1")
    assert code == 2 and "column 9" in err
    assert (user_home / "cards-fuse.txt").read_text().count("\n") == 1


# ------------------------------------------------------------------ setup

@pytest.mark.parametrize(
    ("argv", "deck", "fuses", "remaining", "hand"),
    [
        (["--players", "3"], 21, 6, 21 - 5 + 6, 2),
        (["--players", "1", "--difficulty", "insane"], 25, 6, 25 - 5 + 6, 4),
        (["--edition", "countdown", "--players", "2", "--difficulty", "expert", "--fuse-cards", "4"], 25, 4,
         25 - 4 - 5 + 4, 2),
        (["--edition", "countdown", "--players", "4"], 31, 0, 31 - 8 - 5, 2),
        (["--edition", "countdown", "--players", "6", "--difficulty", "heroic"], 52, 10, 52 - 12 - 5 + 10, 2),
        (["--players", "3", "--variant", "reference-deck-sizes", "--difficulty", "expert"], 26, 6, 26 - 5 + 6, 2),
    ],
)
def test_setup_json(capsys: pytest.CaptureFixture[str], argv: list[str], deck: int, fuses: int, remaining: int,
                    hand: int) -> None:
    code, out, _ = run(capsys, "setup", "--json", "--seed", "7", *argv)
    assert code == 0
    result = json.loads(out)
    assert {"deck_size", "fuse_cards", "row", "players"} <= set(result)
    assert (result["deck_size"], result["fuse_cards"], result["deck_remaining"]) == (deck, fuses, remaining)
    assert len(result["row"]) == 5
    assert result["bag"] == (25 if result["players_count"] < 6 else 35)  # epic: 10 FUSE dice added for 6
    assert all(len(p["cards"]) == hand for p in result["players"])
    dealt = [c for p in result["players"] for c in p["cards"]] + result["row"]
    assert len(set(dealt)) == len(dealt)
    roles = [p["role"] for p in result["players"]]
    countdown = result["edition"] == "countdown" and result["players_count"] < 6
    assert all(roles) if countdown else not any(roles)
    assert result == json.loads(run(capsys, "setup", "--json", "--seed", "7", *argv)[1])  # the seed decides


def test_setup_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "setup", "--players", "2", "--seed", "3")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "fuse standard, 2 players: deck 20 bomb cards, 6 fuse cards"
    assert lines[1].startswith("row: ") and lines[2].startswith("p1: ") and lines[3].startswith("p2: ")


@pytest.mark.parametrize(
    "argv",
    [["--players", "6"], ["--edition", "countdown", "--players", "5"], ["--difficulty", "heroic"],
     ["--edition", "countdown", "--difficulty", "standard", "--fuse-cards", "3"],
     ["--setup", "single-deck", "--levels", "1=12", "2=9"]],
)
def test_setup_rejects(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    code, out, err = run(capsys, "setup", *argv)
    assert code == 2 and out == "" and err.startswith("error: ")


# ------------------------------------------------------------------ simulate and suggest

def test_simulate_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "--games", "3", "--json", "--edition", "countdown", "--players", "2")
    assert code == 0
    report = json.loads(out)
    assert {"games", "win_rate", "mean_score", "games_per_second"} <= set(report)
    assert report["games"] == 3 and 0 <= report["win_rate"] <= 1


def test_simulate_text_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "--games", "2", "--policy", "greedy")
    assert code == 0 and out.startswith("2 games, policy greedy: win rate ")
    assert run(capsys, "simulate", "--games", "0")[0] == 2


def test_suggest(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "suggest", "--roll", "red3", "green2", "black5", "--card", "1:F-002@1=blue1,2=yellow2",
                       "--card", "2:F-011", "--card", "3:[2] [2] [2]")
    assert code == 0
    assert out.splitlines()[0] == "p1: red3 on F-002 chip 3: completes it (+1 points)"
    assert "p3: green2 on card3 chip 1: keeps the card completable" in out.splitlines()


def test_suggest_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "suggest", "--roll", "red5", "--card", "1:F-003", "--json")
    assert code == 0
    hint = json.loads(out)
    assert hint["steps"] == [{"player": 1, "die": "red5", "card": "F-003", "chip": 1, "completes": False}]
    assert hint["unused"] == [] and hint["reasons"] == ["p1: red5 on F-003 chip 1: keeps the card completable"]


@pytest.mark.parametrize(
    "argv",
    [["--card", "1:F-003"], ["--roll", "red5"], ["--roll", "red5", "--card", "F-003"],
     ["--roll", "red5", "--card", "1:F-011@1=red4,2=red5"], ["--roll", "pink5", "--card", "1:F-003"]],
)
def test_suggest_rejects(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    code, out, err = run(capsys, "suggest", *argv)
    assert code == 2 and out == "" and err.startswith("error: ")


def test_no_command_prints_help(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys)
    assert code == 2 and "check" in out and "simulate" in out
