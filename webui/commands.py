"""``fuse-referee run``: the pipeline and the dashboard in one process.

Kept cheap to import (the ``fuse-referee`` command imports it for every subcommand): Flask, OpenCV and the
rules engine load when ``run`` runs.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

SOURCE_HELP = ("where reports come from: a camera index, video file or URL (the vision pipeline), a recorded game "
               "log (.json), 'manual' (typed on the dashboard), 'simulated' or 'sample'; default: the bundled sample "
               "game, or a simulated game while the sample is missing")


def register(subparsers: argparse._SubParsersAction) -> None:
    run = subparsers.add_parser("run", help="start the referee: pipeline, dashboard, overlay and API",
                                description="Start the pipeline and the dashboard; prints the address to open.")
    run.add_argument("--source", help=SOURCE_HELP)
    run.add_argument("--edition", choices=("fuse", "countdown"))
    run.add_argument("--players", type=int, help="number of players")
    run.add_argument("--difficulty", help="training, standard, expert, elite, insane (FUSE) or heroic (Countdown)")
    run.add_argument("--fuse-cards", type=int, help="Countdown at Expert and above: 1-10 fuse cards")
    run.add_argument("--names", help="player names, comma separated")
    run.add_argument("--seed", type=int, help="seed of the engine's deal or of the simulated game")
    run.add_argument("--deal", choices=("engine", "table"), default="engine",
                     help="manual games: the engine deals, or the table reports the deal")
    run.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1: this computer only)")
    run.add_argument("--port", type=int, default=5000, help="port (default 5000; 0 picks a free one)")
    run.add_argument("--db", help="session database (default ~/.fuse-referee/sessions.sqlite)")
    run.add_argument("--token", help="control token (default: a new random one, printed at start-up)")
    run.add_argument("--new", action="store_true",
                     help="start a new game even if one is unfinished (that one is kept as abandoned)")
    run.add_argument("--seek", type=float, default=0.0, help="start a recorded game this many seconds in")
    run.add_argument("--fps", type=float, default=15.0, help="pipeline frames per second (default 15)")
    run.add_argument("--model", help="a camera, video, folder or stream source: detector weights (default: the "
                     "shipped model)")
    run.add_argument("--windows", action="store_true",
                     help="a camera, video, folder or stream source: detect only where a frame moved (faster)")
    run.add_argument("--speed", type=float, default=1.0, help=argparse.SUPPRESS)
    run.add_argument("--verbose", action="store_true", help="log every request")
    run.set_defaults(func=cmd_run)


def settings_from(args: argparse.Namespace) -> dict[str, Any]:
    game = {"edition": args.edition, "players": args.players, "difficulty": args.difficulty,
            "fuse_cards": args.fuse_cards, "seed": args.seed, "deal": args.deal,
            "names": [n.strip() for n in args.names.split(",") if n.strip()] if args.names else None}
    feed = args.source or "auto"
    settings: dict[str, Any] = {"FEED": feed, "GAME": game, "NEW_GAME": args.new, "SEEK": args.seek,
                                "SPEED": args.speed, "FPS": args.fps, "TOKEN": args.token,
                                "SOURCE": None if feed in ("auto", "manual", "simulated", "sample") else args.source,
                                "VISION": {"model": args.model, "windows": args.windows}}
    if args.db:
        settings["DATABASE"] = args.db
    return settings


def cmd_run(args: argparse.Namespace) -> int:
    if not 0 <= args.port <= 65535:
        print(f"error: --port must be 0-65535, not {args.port}", file=sys.stderr)
        return 2
    if not 1 <= args.fps <= 120:
        print(f"error: --fps must be 1-120, not {args.fps:g}", file=sys.stderr)
        return 2
    from webui.table import FEEDS

    if (args.model or args.windows) and (args.source in (None, *FEEDS) or args.source.endswith(".json")):
        print(f"error: --model and --windows need a camera, video, folder or stream --source, not "
              f"{args.source or 'the default'!r}", file=sys.stderr)
        return 2
    import logging
    import signal

    from werkzeug.serving import make_server

    from rules.errors import RulesError
    from webui.app import create_app
    from webui.errors import WebUIError

    try:
        app = create_app(settings_from(args))
    except (WebUIError, RulesError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    table = app.extensions["fuse_referee"]
    if not args.verbose:
        logging.getLogger("werkzeug").setLevel(logging.WARNING)
    try:
        server = make_server(args.host, args.port, app, threaded=True)
    except OSError as exc:
        table.close()
        print(f"error: cannot listen on {args.host}:{args.port}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    game = table.current()
    info = game.game_json()
    host = args.host if args.host not in ("0.0.0.0", "::") else "127.0.0.1"
    base = f"http://{host}:{server.server_port}"
    state = "resumed" if table.resumed else "new"
    print(f"fuse-referee: game {info['id']} ({state}): {info['edition']} {info['difficulty']}, "
          f"{info['players']} players; reports from {info['feed_label']}")
    if table.set_aside:
        print(f"fuse-referee: {table.set_aside}")
    print(f"dashboard: {base}/")
    print(f"controls:  {base}/?token={table.token}   (token {table.token}, header X-Referee-Token)")
    print(f"overlay:   {base}/overlay")
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print(f"warning: listening on {args.host}: anyone on the network can watch; control still needs the token")
    sys.stdout.flush()
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass
    finally:
        table.close()
        server.server_close()
    return 0


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m webui.commands")
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
