"""Opponent commands: ``engine``, ``best``, ``match``, ``baseline``."""
from __future__ import annotations

import argparse
import os
import sys

from maxima_board.cli.commands import Subcommands
from maxima_board.rules import FenError, Position, variants

from maxima_board.opponent.players import PLAYERS

VARIANT_HELP = "the game (default: maxima; see 'maxima-board variants')"
SPEC_HELP = "builtin[:level=N], random, greedy, minimax2, or the path of a UCI engine"


def _int(name: str, low: int, high: int):
    def check(text: str) -> int:
        if not text.isdigit() or not low <= int(text) <= high:
            raise argparse.ArgumentTypeError(f"{name} must be a whole number from {low} to {high}, got {text!r}")
        return int(text)
    return check


def register(sub: Subcommands) -> None:
    p = sub.add_parser("engine", help="run the built-in UCI engine on standard input/output (for UCI GUIs)")
    p.add_argument("--check", action="store_true",
                   help="print the engine's path (exit 0), or why there is none (exit 2), and stop")
    p.set_defaults(func=_engine)

    p = sub.add_parser("best", help="print an engine's best move and evaluation for a position")
    p.add_argument("fen", metavar="FEN", help="a FEN, or the word 'start'")
    p.add_argument("--variant", metavar="NAME", default="maxima", help=VARIANT_HELP)
    limit = p.add_mutually_exclusive_group()
    limit.add_argument("--movetime", metavar="MS", type=_int("--movetime", 1, 3_600_000),
                       help="think this long (default: the level's work, or 1000 ms without --level)")
    limit.add_argument("--depth", metavar="N", type=_int("--depth", 1, 99), help="search this many plies")
    limit.add_argument("--nodes", metavar="N", type=_int("--nodes", 1, 2_000_000_000), help="search this many nodes")
    p.add_argument("--level", metavar="N", type=_int("--level", 1, 10),
                   help="engine level 1-10 (opponent/levels.py: a node budget each)")
    p.add_argument("--engine", metavar="SPEC", default="builtin", help=f"{SPEC_HELP} (default: builtin)")
    p.set_defaults(func=_best)

    p = sub.add_parser("match", help="play two engines against each other; print the score and Elo",
                       description="Plays GAMES games from random short openings, each opening with both "
                                   "colours. Engines: " + SPEC_HELP + ".")
    p.add_argument("a", metavar="A", help="first engine")
    p.add_argument("b", metavar="B", help="second engine")
    p.add_argument("--games", metavar="N", type=_int("--games", 2, 100_000), default=20,
                   help="games (rounded up to even; default 20)")
    p.add_argument("--variant", metavar="NAME", default="maxima", help=VARIANT_HELP)
    limit = p.add_mutually_exclusive_group()
    limit.add_argument("--movetime", metavar="MS", type=_int("--movetime", 1, 3_600_000),
                       help="time per move (default 100 ms)")
    limit.add_argument("--depth", metavar="N", type=_int("--depth", 1, 99), help="depth per move")
    limit.add_argument("--nodes", metavar="N", type=_int("--nodes", 1, 2_000_000_000),
                       help="nodes per move (the same on every machine)")
    p.add_argument("--max-plies", metavar="N", type=_int("--max-plies", 1, 100_000), default=300,
                   help="a game this long is a draw (default 300)")
    p.add_argument("--seed", metavar="N", type=_int("--seed", 0, 2**31 - 1), default=0,
                   help="seed of the openings and of the baseline players (default 0)")
    p.add_argument("--fen", metavar="FEN", default="start",
                   help="start every game from this position (e.g. an Optima start of other forces, "
                        "from maxima-board new-optima); the random openings follow it (default: the game's start)")
    p.add_argument("--records", metavar="PATH", help="write the games as PGN-style records to PATH")
    p.add_argument("--quiet", action="store_true", help="print only the summary line")
    p.set_defaults(func=_match)

    p = sub.add_parser("baseline", help="run a baseline player as a UCI engine on standard input/output")
    p.add_argument("player", metavar="PLAYER", choices=list(PLAYERS), help=" | ".join(PLAYERS))
    p.set_defaults(func=_baseline)


def _engine(args: argparse.Namespace) -> int:
    from maxima_board.opponent.specs import builtin_path

    path = builtin_path()   # SpecError (exit 2) says how to build it
    if args.check:
        print(path)
        return 0
    sys.stdout.flush()
    os.execv(str(path), [str(path)])   # the engine takes over this process: stdin/stdout are its own
    return 0


def _best(args: argparse.Namespace) -> int:
    from maxima_board.opponent.supervisor import Supervisor
    from maxima_board.opponent.uci import EngineError

    variant = variants.get(args.variant).name
    try:
        position = Position(args.fen, variant)
    except FenError as exc:
        raise FenError(f"bad FEN: {exc}") from None
    if position.outcome() is not None:
        raise ValueError(f"the game has ended ({position.outcome().result}, {position.outcome().reason})")
    limits = _limits(args, None if args.level else 1000)
    sup = Supervisor(args.engine, variant, args.level)
    try:
        result = sup.best(position.fen(), [], limits, position)
    except EngineError as exc:
        print(f"maxima-board best: {exc}", file=sys.stderr)
        return 1
    finally:
        sup.close()
    depth = f" depth {result.depth}" if result.depth is not None else ""
    print(f"{result.move or '(none)'} {result.score_text()}{depth}")
    return 0


def _limits(args: argparse.Namespace, default_ms: int | None):
    """--depth, --nodes or --movetime; else ``default_ms`` (None: a bare ``go``, the level's budget)."""
    from maxima_board.opponent.supervisor import Limits

    if args.depth:
        return Limits(depth=args.depth)
    if args.nodes:
        return Limits(nodes=args.nodes)
    ms = args.movetime or default_ms
    return Limits(movetime=ms) if ms else Limits()


def _match(args: argparse.Namespace) -> int:
    from maxima_board.opponent.match import run_match
    from maxima_board.opponent.specs import parse_spec

    a, b = parse_spec(args.a), parse_spec(args.b)
    variant = variants.get(args.variant).name
    try:
        Position(args.fen, variant)
    except ValueError as exc:
        raise ValueError(f"--fen: {exc}") from None
    limits = _limits(args, 100)
    records: list[str] | None = [] if args.records else None
    if args.records:
        open(args.records, "a", encoding="utf-8").close()   # an unwritable path fails before the games

    def show(n: int, game) -> None:
        if not args.quiet:
            colours = f"{a.label} (White) - {b.label}" if game.a_white else f"{b.label} (White) - {a.label}"
            print(f"game {n}: {colours}: {game.result} ({game.reason}, {len(game.moves)} plies)", flush=True)

    result = run_match(a, b, args.games, variant, limits, seed=args.seed, max_plies=args.max_plies,
                       on_game=show, records=records, start_fen=args.fen)
    print(result.summary())
    if records is not None:
        with open(args.records, "w", encoding="utf-8") as f:
            f.write("\n\n".join(r.rstrip("\n") for r in records) + "\n")
    return 0


def _baseline(args: argparse.Namespace) -> int:
    from maxima_board.opponent.baseline import serve

    return serve(args.player, sys.stdin, sys.stdout)
