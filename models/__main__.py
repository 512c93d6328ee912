"""``python -m models train|eval ...``: the same commands as ``fuse-referee train|eval``."""

from __future__ import annotations

import argparse
import sys

from models.cli import register


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m models")
    register(parser.add_subparsers(dest="command", metavar="COMMAND", required=True))
    args = parser.parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
