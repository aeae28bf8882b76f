"""Engine commands: ``moves``, ``perft``, ``analyze``, ``variants``, ``new-optima``.

Every command that reads a position takes ``--variant NAME`` (default
``maxima``); ``maxima-board variants`` lists the names."""
from __future__ import annotations

import argparse
import json
import sys

from maxima_board.cli.commands import Subcommands
from maxima_board.rules import FenError, Position, variants
from maxima_board.rules.analysis import analyze

from maxima_board.board.numbers import argument

MAX_PERFT_DEPTH = 8   # the start position has about 40**DEPTH leaves
VARIANT_HELP = "the game (default: maxima; see 'maxima-board variants')"


def register(sub: Subcommands) -> None:
    p = sub.add_parser("moves", help="list the legal moves of a position, one per line")
    p.add_argument("fen", metavar="FEN", help="a FEN, or the word 'start'")
    p.add_argument("--variant", metavar="NAME", default=None, help=VARIANT_HELP)
    p.set_defaults(func=_moves)

    p = sub.add_parser("perft", help="count the leaves of the legal-move tree")
    p.add_argument("fen", metavar="FEN", help="a FEN, or the word 'start'")
    p.add_argument("depth", metavar="DEPTH", type=argument("DEPTH", 0, MAX_PERFT_DEPTH),
                   help=f"0 to {MAX_PERFT_DEPTH}; each level takes about 40 times longer (Ctrl-C stops)")
    p.add_argument("--divide", action="store_true", help="also count per root move")
    p.add_argument("--variant", metavar="NAME", default=None, help=VARIANT_HELP)
    p.set_defaults(func=_perft)

    p = sub.add_parser("analyze", help="read FENs from standard input, print one JSON object each",
                       description="One JSON object per FEN line; a line that is not a valid FEN gives "
                                   "{\"fen\", \"error\"} and the run goes on. Exit code 1 when any line failed.")
    p.add_argument("--variant", metavar="NAME", default="maxima", help=VARIANT_HELP)
    p.set_defaults(func=_analyze)

    p = sub.add_parser("variants", help="list the games, one line each: name, title, summary")
    p.set_defaults(func=_variants)

    p = sub.add_parser("new-optima", help="print the start FEN of an Optima game (equal, unequal or random forces)",
                       description="Equal forces (eq) use the default sets E10/E9 unless --seed draws a set; u1/u2 "
                                   "share a pool (a default one, or drawn with --seed); random places drawn pieces "
                                   "at once (optima.md O4).")
    p.add_argument("--board", choices=("10x10", "9x9"), default="10x10", help="the board (default 10x10)")
    p.add_argument("--forces", choices=("eq", "u1", "u2", "random"), default="eq", help="the forces (default eq)")
    p.add_argument("--seed", metavar="N", type=argument("--seed", 0, 2**63 - 1),
                   help="draw the set, pool or random pieces reproducibly from N")
    p.add_argument("--royals", metavar="1|2", type=argument("--royals", 1, 2),
                   help="royal pieces a side gets (1 or 2 on 10x10; 1 on 9x9)")
    p.set_defaults(func=_new_optima)


def _variant(name: str):
    """The Variant called ``name``; ValueError (exit 2) naming the known ones."""
    return variants.get(name)


def _position(fen: str, variant: str | None) -> Position:
    """``fen`` as a position of ``variant`` (None: not given, Maxima); a bad
    FEN without ``--variant`` names the games that read it, or says how to
    pick another game."""
    v = _variant(variant or "maxima")
    try:
        return Position(fen, variant=v)
    except FenError as exc:
        hint = "" if variant is not None else f" ({_variant_hint(fen)})"
        raise FenError(f"bad FEN: {exc}{hint}") from None


def _variant_hint(fen: str) -> str:
    """For a FEN Maxima does not read: which games do, or how to name one."""
    readers = []
    for name in variants.names()[1:]:
        try:
            Position(fen, variant=name)
        except ValueError:
            continue
        readers.append(name)
    if readers:
        return f"read as Maxima; it is a FEN of {', '.join(readers[:3])}{'…' if len(readers) > 3 else ''}: " \
               f"add --variant {readers[0]}"
    return "read as Maxima; for another game add --variant NAME, see 'maxima-board variants'"


def _moves(args: argparse.Namespace) -> int:
    for move in _position(args.fen, args.variant).legal_moves:
        print(move)
    return 0


def _perft(args: argparse.Namespace) -> int:
    position = _position(args.fen, args.variant)
    if args.divide:
        counts = position.divide(args.depth) if args.depth > 0 else {}
        for move, n in counts.items():
            print(f"{move} {n}")
        print(f"total {sum(counts.values()) if args.depth > 0 else 1}")
    else:
        print(position.perft(args.depth))
    return 0


def _analyze(args: argparse.Namespace) -> int:
    failed = False
    v = _variant(args.variant)
    for line in sys.stdin:
        fen = line.strip()
        if not fen:
            continue
        try:
            report = analyze(fen, v)
        except FenError as exc:
            report = {"fen": fen, "error": str(exc)}
            failed = True
        print(json.dumps(report), flush=True)
    return 1 if failed else 0


def _variants(args: argparse.Namespace) -> int:
    listed = [variants.get(name) for name in variants.names()]
    width = max(len(v.name) for v in listed)
    title_width = max(len(v.title) for v in listed)
    for v in listed:
        print(f"{v.name:<{width}}  {v.title:<{title_width}}  {v.summary}")
    return 0


def _new_optima(args: argparse.Namespace) -> int:
    from maxima_board.rules.optima.forces import start_fen
    variant = "optima" if args.board == "10x10" else "optima-9x9"
    print(start_fen(variant, args.forces, seed=args.seed, royals=args.royals))
    return 0
