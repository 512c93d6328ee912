"""The rules' commands of ``fuse-referee``: check, catalog, setup, simulate, suggest.

Each handler takes the parsed arguments and returns the exit status: 0 fine, 1 an illegal placement or a
catalog problem, 2 bad input (a malformed card, die or option), with a one-line error on stderr.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable

from rules.actions import Roll
from rules.catalog import EDITIONS, add_user_card, check_catalog, load_catalog, parse_card_line
from rules.config import COUNTDOWN_LEVELS, FUSE_LEVELS, SETUP_MODES, VARIANTS, GameConfig
from rules.dice import Die, load_dice_set
from rules.errors import NotationError, RulesError
from rules.game import CHANCE, Game, State
from rules.hints import suggest
from rules.legality import judge
from rules.notation import parse_layout
from rules.simulate import POLICIES, simulate
from rules.table import CardInPlay

Handler = Callable[[argparse.Namespace], int]


def fail(message: str, detail: str = "") -> int:
    print(f"error: {message}", file=sys.stderr)
    if detail:
        print(detail, file=sys.stderr)
    return 2


def guarded(handler: Handler) -> Handler:
    """Turn a rules error into a one-line message and exit status 2."""

    def run(args: argparse.Namespace) -> int:
        try:
            return handler(args)
        except NotationError as exc:
            return fail(str(exc), exc.pointer())
        except RulesError as exc:
            return fail(str(exc))

    return run


def _parse_placement(text: str) -> tuple[int, Die]:
    chip, sep, die = text.partition("=")
    if not sep or not chip.strip().isdigit():
        raise RulesError(f"cannot read placement {text!r}: expected CHIP=DIE such as 2=red6")
    return int(chip), Die.parse(die)


def cmd_check(args: argparse.Namespace) -> int:
    layout = parse_layout(args.card)
    placements = [_parse_placement(p) for p in args.place or []]
    dice = load_dice_set(args.edition)
    placed: dict[int, Die] = {}
    results = []
    status = 0
    for chip, die in placements:
        verdict = judge(layout, placed, chip, die, dice)
        results.append({"chip": chip, "die": str(die), "legal": verdict.legal, "reason": verdict.reason})
        if not args.json:
            print(verdict)
        if not verdict:
            status = 1
            break
        placed[chip] = die
    if args.json:
        print(json.dumps({"card": str(layout), "legal": status == 0, "placements": results}))
    return status


def cmd_catalog(args: argparse.Namespace) -> int:
    catalog = load_catalog(args.edition)
    if args.action == "list":
        for card in catalog.cards:
            print(f"{card.id:7} {card.kind:5} {card.points} {card.provenance:11} {card.body}")
        print("\n".join(f"# {line}" for line in catalog.completeness()))
    elif args.action == "show":
        if not args.id:
            return fail("catalog show needs a card id, e.g. fuse-referee catalog show F-010")
        card = catalog.get(args.id)
        print(f"{card.id}: {card.kind}, {card.points} points, {card.provenance} ({card.source})")
        print(card.body)
        if card.layout is not None:
            for chip in card.layout.chips:
                group = card.layout.group_of(chip.number - 1)
                print(f"  chip {chip.number}: [{chip.body}] in a {group.kind} group")
    elif args.action == "check":
        problems = check_catalog(catalog)
        for problem in problems:
            print(problem)
        print(f"{args.edition}: {len(catalog.cards)} cards, {len(problems)} problem(s)")
        print("\n".join(f"# {line}" for line in catalog.completeness()))
        return 1 if problems else 0
    elif args.action == "add":
        if not args.id or args.points is None:
            return fail('catalog add needs the notation and --points, e.g. catalog add "[#] = [#]" --points 3')
        card = add_user_card(args.edition, args.id, args.points, args.card_id)
        print(f"added {card} (replaces a generated {card.points}-point card)")
    elif args.action == "generate":
        from rules.generate import write_generated

        for path in write_generated():
            print(f"wrote {path}")
    return 0


def _config(args: argparse.Namespace) -> GameConfig:
    levels = tuple((int(p), int(n)) for p, n in (item.split("=") for item in args.levels or []))
    return GameConfig(
        args.edition, args.players, args.difficulty, args.fuse_cards, args.setup, levels, frozenset(args.variant or ())
    )


def deal_setup(config: GameConfig, seed: int) -> State:
    """A dealt table: chance actions sampled from the seed until the first roll."""
    rng = random.Random(seed)
    state = Game(config).new_initial_state()
    while state.current_player() == CHANCE and state.phase != "roll":
        state.apply_action(state.sample_chance(rng))
    return state


def cmd_setup(args: argparse.Namespace) -> int:
    config = _config(args)
    state = deal_setup(config, args.seed)
    result = {
        "edition": config.edition,
        "players_count": config.players,
        "difficulty": config.difficulty,
        "deck_size": config.deck_size,
        "fuse_cards": config.fuse_card_count,
        "row": state.row,
        "deck_remaining": sum(s.count for s in state.sources.values()) + state.fuse_source.count,
        "players": [
            {"player": p + 1, "cards": [c.id for c in area.cards], "role": area.role.name if area.role else None}
            for p, area in enumerate(state.players)
        ],
        "bag": sum(state.bag.values()),
        "log": [a for _, a in state.log()],
    }
    if args.json:
        print(json.dumps(result))
        return 0
    game = state.game
    print(f"{config.edition} {config.difficulty}, {config.players} players: deck {config.deck_size} bomb cards, "
          f"{config.fuse_card_count} fuse cards")
    print("row: " + ", ".join(f"{c} {game.card(c).body}" for c in state.row))
    for entry in result["players"]:  # type: ignore[attr-defined]
        role = f" ({entry['role']})" if entry["role"] else ""
        cards = "; ".join(f"{c} ({game.card(c).points}) {game.card(c).body}" for c in entry["cards"])
        print(f"p{entry['player']}{role}: {cards}")
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    if args.games < 1:
        return fail(f"--games must be at least 1, not {args.games}")
    report = simulate(_config(args), args.games, args.seed, args.policy, args.seconds_per_turn).as_dict()
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"{report['games']} games, policy {args.policy}: win rate {report['win_rate']:.1%}, "
          f"mean score {report['mean_score']}")
    print(f"score min {report['min_score']}, 10/50/90% {list(report['score_quantiles'].values())}, "
          f"max {report['max_score']}; ends {report['end_reasons']}")
    print(f"{report['games_per_second']} games per second")
    return 0


def _parse_table_card(text: str, edition: str, number: int) -> tuple[int, CardInPlay]:
    """``P:CARD[@CHIP=DIE,...]`` where CARD is a catalog id or notation; ``number`` names a notation card."""
    player, sep, rest = text.partition(":")
    if not sep or not player.isdigit() or int(player) < 1:
        raise RulesError(f"cannot read card {text!r}: expected PLAYER:CARD[@CHIP=DIE,...] such as 1:F-003@1=red4")
    body, _, dice = rest.partition("@")
    body = body.strip()
    catalog = load_catalog(edition)
    card = catalog.get(body) if not body.startswith(("[", "stack", "pyramid", "wall", "ziggurat")) else None
    if card is None:
        card = parse_card_line(f"card{number} 1 user {body}", edition, "bomb", "--card")
    in_play = CardInPlay(card)
    dice_set = load_dice_set(edition)
    for item in filter(None, (d.strip() for d in dice.split(","))):
        chip, die = _parse_placement(item)
        verdict = judge(card.layout, in_play.placed, chip, die, dice_set)  # type: ignore[arg-type]
        if not verdict:
            raise RulesError(f"card {text!r} holds an illegal die: {verdict.reason}")
        in_play.put(chip, die)
    return int(player) - 1, in_play


def cmd_suggest(args: argparse.Namespace) -> int:
    if not args.roll:
        return fail("suggest needs --roll, e.g. --roll red5 blue2 black6")
    roll = Roll(tuple(Die.parse(d) for d in args.roll)).dice
    cards = [_parse_table_card(c, args.edition, n) for n, c in enumerate(args.card or [], 1)]
    if not cards:
        return fail("suggest needs the table: --card PLAYER:CARD[@CHIP=DIE,...] for each card in play")
    players = max(args.players or 0, max(p for p, _ in cards) + 1)
    table: list[list[CardInPlay]] = [[] for _ in range(players)]
    for p, card in cards:
        table[p].append(card)
    per_player = {1: 3, 2: 2}.get(players, 1)
    hint = suggest(table, roll, load_dice_set(args.edition), per_player, args.edition)
    if args.json:
        print(json.dumps({
            "steps": [{"player": s.player + 1, "die": str(s.die), "card": s.card, "chip": s.chip,
                       "completes": s.completes} for s in hint.steps],
            "unused": [str(d) for d in hint.unused], "value": round(hint.value, 2), "reasons": list(hint.reasons),
        }))
    else:
        print(hint)
    return 0


def _game_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--edition", choices=EDITIONS, default="fuse")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--difficulty", default="standard", help=f"FUSE: {', '.join(FUSE_LEVELS)}; "
                        f"Countdown: {', '.join(COUNTDOWN_LEVELS)}")
    parser.add_argument("--fuse-cards", type=int, help="Countdown at Expert and above: 1-10 fuse cards")
    parser.add_argument("--setup", choices=SETUP_MODES, default="standard", help="FUSE's advanced setups")
    parser.add_argument("--levels", nargs="*", metavar="POINTS=COUNT", help="advanced setups: cards per level")
    parser.add_argument("--variant", action="append", choices=sorted(VARIANTS), help="a named house rule")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")


def register(subparsers: argparse._SubParsersAction) -> None:
    check = subparsers.add_parser("check", help="judge placements on a card written in notation")
    check.add_argument("card", help='the card, e.g. "[#] - [#] = [#]"')
    check.add_argument("--place", action="append", metavar="CHIP=DIE", help="a placement, e.g. 2=red6 (repeatable)")
    check.add_argument("--edition", choices=EDITIONS, default="fuse")
    check.add_argument("--json", action="store_true")
    check.set_defaults(func=guarded(cmd_check))

    catalog = subparsers.add_parser("catalog", help="list, show, check or add catalog cards")
    catalog.add_argument("action", nargs="?", default="list", choices=["list", "show", "check", "add", "generate"])
    catalog.add_argument("id", nargs="?", help="card id (show) or notation (add)")
    catalog.add_argument("--edition", choices=EDITIONS, default="fuse")
    catalog.add_argument("--points", type=int, help="add: the card's points")
    catalog.add_argument("--card-id", help="add: an id of your choice")
    catalog.set_defaults(func=guarded(cmd_catalog))

    setup = subparsers.add_parser("setup", help="deal a game's setup")
    _game_options(setup)
    setup.set_defaults(func=guarded(cmd_setup))

    sim = subparsers.add_parser("simulate", help="play whole games with the engine")
    _game_options(sim)
    sim.add_argument("--games", type=int, default=100)
    sim.add_argument("--policy", choices=sorted(POLICIES), default="random")
    sim.add_argument("--seconds-per-turn", type=float, default=15.0, help="simulated time each roll costs")
    sim.set_defaults(func=guarded(cmd_simulate))

    hint = subparsers.add_parser("suggest", help="the hint solver: best distribution of a roll")
    hint.add_argument("--roll", nargs="+", metavar="DIE")
    hint.add_argument("--card", action="append", metavar="P:CARD[@CHIP=DIE,...]",
                      help="a card in play: player, catalog id or notation, dice on it (repeatable)")
    hint.add_argument("--players", type=int, help="players at the table (default: as many as the cards name)")
    hint.add_argument("--edition", choices=EDITIONS, default="fuse")
    hint.add_argument("--json", action="store_true")
    hint.set_defaults(func=guarded(cmd_suggest))
