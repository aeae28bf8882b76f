"""``--abandon`` and the question a terminal is asked when the board asked
for cannot hold the stored unfinished game: the game is ended as abandoned
(it stays stored, result "*", termination "abandoned"; ``maxima-board
export`` prints it), and a new game starts."""
from __future__ import annotations

import argparse
import sys
from typing import Callable, TextIO


def abandon_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--abandon", action="store_true",
                   help="when the board asked for cannot hold the stored unfinished game, end that game as "
                        "abandoned (it stays stored) and start a new one; on a terminal the board asks")


def abandon_of(args: argparse.Namespace, stdin: TextIO | None = None,
               stdout: TextIO | None = None) -> Callable[[str], bool] | None:
    """How the session decides to abandon: yes with ``--abandon``; on a
    terminal (standard input and output), the person's answer; else never."""
    if args.abandon:
        return lambda question: True
    source, out = stdin or sys.stdin, stdout or sys.stdout
    if not (_tty(source) and _tty(out)):
        return None
    return lambda question: ask(question, source, out)


def ask(question: str, source: TextIO, out: TextIO) -> bool:
    """``question`` with ``[y/N]``; True for an answer of y or yes (any case)."""
    out.write(f"{question} [y/N] ")
    out.flush()
    return source.readline().strip().lower() in ("y", "yes")


def _tty(stream: object) -> bool:
    try:
        return bool(stream.isatty())   # type: ignore[attr-defined]
    except (AttributeError, ValueError):
        return False
