"""The ``maxima-board`` command line. Each area registers its subcommands
from its own module under ``controller/commands``."""
from __future__ import annotations

import argparse
import sys

from .commands import opponent_cmds

from .commands import board_cmds, club_cmds, engine_cmds, game_cmds, review_cmds


class UsageError(Exception):
    """Bad input to a command: printed as one line, exit code 2."""


class _Parser(argparse.ArgumentParser):
    """Argument errors as one line (no usage block), exit code 2; the
    subcommands' parsers are of this class too."""

    def error(self, message: str):
        head, _, rest = message.partition(": ")   # "argument DEPTH: DEPTH must be ...", "argument --x: --x: ..."
        name = head[len("argument "):]
        if head.startswith("argument ") and (rest.startswith(name + " ") or rest.startswith(name + ":")):
            message = rest
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    from maxima_board.rules import variants

    parser = _Parser(prog="maxima-board",
                     description="An electronic board for the Ultima family: Maxima, Ultima, George Deckle's "
                                 f"games and Michael Howe's Optima ('maxima-board variants' lists all "
                                 f"{len(variants.names())}).")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for module in (engine_cmds, game_cmds, review_cmds, board_cmds, club_cmds, opponent_cmds):
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
        print(f"maxima-board {args.command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
