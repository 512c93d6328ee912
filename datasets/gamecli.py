"""``fuse-referee synth game``: one whole game rendered as video (or frames) with its ground truth.

Kept cheap to import (no numpy/cv2 here), like ``datasets.cli``.
"""

from __future__ import annotations

import argparse
import sys

EXAMPLE = "fuse-referee synth game --seed 7 --out data/games/7 --fps 6 --limit-seconds 150 --illegal 2"


def register_game(sub: argparse._SubParsersAction) -> None:
    game = sub.add_parser(
        "game",
        help="play a seeded game and render it as video with truth.json",
        description="Play a seeded game with the rules engine (scripted illegal placements included) and render "
        "it as one camera would see it: DIR/game.mp4 (or DIR/frames/), DIR/frames.json (per-frame truth), "
        f"DIR/truth.json (log, events, violations, score, won). Example: {EXAMPLE}",
    )
    game.add_argument("--seed", type=int, default=0, help="game seed: same seed and options, same bytes (default 0)")
    game.add_argument("--out", help="output directory (default data/games/SEED)")
    game.add_argument("--edition", choices=("fuse", "countdown"), default="fuse")
    game.add_argument("--players", type=int, default=2, help="1-5 (FUSE) or 1-4 (Countdown); default 2")
    game.add_argument("--difficulty", default="standard",
                      help="training, standard, expert, elite, insane (FUSE) or heroic (Countdown)")
    game.add_argument("--fuse-cards", type=int, help="Countdown at Expert and above: 1-10 fuse cards")
    game.add_argument("--policy", choices=("greedy", "hint", "random"), default="greedy",
                      help="how the simulated team plays (rules.simulate; default greedy)")
    game.add_argument("--illegal", type=int, help="scripted illegal placements (default: 1 or 2, drawn from the seed)")
    game.add_argument("--limit-seconds", type=int, default=600, help="the countdown, seconds (default 600)")
    game.add_argument("--hold", type=float, default=3.0,
                      help="seconds an illegal die stays on its chip before it is taken back (default 3)")
    game.add_argument("--pace", type=float, default=1.0, help="slow (>1) or speed up (<1) every motion (default 1)")
    game.add_argument("--fps", type=float, default=8.0, help="frames per game second (default 8)")
    game.add_argument("--size", default="1280x720", help="frame size WIDTHxHEIGHT (default 1280x720)")
    game.add_argument("--format", choices=("video", "frames"), default="video",
                      help="video: DIR/game.mp4 (mp4v); frames: DIR/frames/000000.jpg ... (default video)")
    game.add_argument("--style", default="default", help="randomisation preset: default, varied, heldout, clean")
    game.add_argument("--set", dest="overrides", action="append", default=[], metavar="KNOB=VALUE",
                      help="override one knob of the style (as synth images; repeatable)")
    game.add_argument("--scene-seed", type=int,
                      help="seed of camera, table, light and looks (default: --seed): the same game, another look")
    game.add_argument("--tail", type=float, default=2.5, help="seconds shown after the game ends (default 2.5)")
    game.add_argument("--noise-cap", type=float, default=1.5,
                      help="most sensor noise (sigma) of a frame, whatever the style draws (default 1.5)")
    game.add_argument("--compress", action="store_true",
                      help="write frames.json.gz instead of frames.json (about 50 times smaller)")
    game.add_argument("--workers", type=int, default=0, help="processes (default: one per CPU core)")
    game.add_argument("--quiet", action="store_true", help="no progress bar")
    game.set_defaults(func=run_game)


def run_game(args: argparse.Namespace) -> int:
    import time

    from datasets.errors import DatasetError

    width, _, height = args.size.partition("x")
    if not (width.isdigit() and height.isdigit() and int(width) >= 32 and int(height) >= 32):
        print(f"error: cannot read --size {args.size!r}: expected WIDTHxHEIGHT such as 1280x720", file=sys.stderr)
        return 2
    if args.illegal is not None and args.illegal < 0:
        print(f"error: --illegal must be 0 or more, not {args.illegal}", file=sys.stderr)
        return 2
    if args.limit_seconds < 10 or args.pace <= 0 or args.hold < 1.5:
        print("error: --limit-seconds must be at least 10, --pace above 0 and --hold at least 1.5", file=sys.stderr)
        return 2
    from datasets.game import RenderOptions, render_game
    from datasets.script import GameOptions

    options = GameOptions(args.seed, args.edition, args.players, args.difficulty, args.fuse_cards, args.policy,
                          args.illegal, args.limit_seconds, args.hold, args.pace)
    render = RenderOptions(args.fps, int(width), int(height), args.format, args.style, tuple(args.overrides),
                           args.scene_seed, args.tail, args.workers,
                           args.noise_cap, args.compress)
    out = args.out or f"data/games/{args.seed}"
    t0 = time.perf_counter()
    try:
        truth = render_game(out, options, render, progress=not args.quiet)
    except DatasetError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    took = time.perf_counter() - t0
    frames = truth["render"]["frames"]
    print(f"wrote {out}: {frames} frames ({truth['end']:.0f} s of play at {args.fps:g} fps) in {took:.1f} s; "
          f"{'won' if truth['won'] else 'lost'} ({truth['outcome']}), score {truth['score']['total']}, "
          f"{len(truth['violations'])} scripted violation(s), {len(truth['log'])} actions")
    return 0
