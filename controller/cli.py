"""The ``maxima-board`` command line. Each area registers its subcommands
from its own module under ``controller/commands``."""
from __future__ import annotations

import argparse
import sys

from .commands import board_cmds, club_cmds, engine_cmds, game_cmds


class UsageError(Exception):
    """Bad input to a command: printed as one line, exit code 2."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="maxima-board", description="An electronic board for Maxima.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for module in (engine_cmds, game_cmds, board_cmds, club_cmds):
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except (UsageError, ValueError, OSError) as exc:
        print(f"maxima-board {args.command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
