"""``maxima-board review``: the engine over a stored game (service/review.py)."""
from __future__ import annotations

import argparse
import os
import signal
import time
import sys

from maxima_board.cli.commands import Subcommands
from maxima_board.board.numbers import argument
from maxima_board.opponent.levels import LEVEL_COUNT
from maxima_board.opponent.review import DEFAULT_LEVEL, Search
from maxima_board.service.review import move_line, review_pending, review_stored, reviewed, watch
from maxima_board.storage.store import GameStore, default_db_path

MAX_GAME = 2**63 - 1
MAX_NODES = 100_000_000


def register(sub: Subcommands) -> None:
    p = sub.add_parser("review", help="let the engine review a stored game: each move's evaluation, "
                                      "inaccuracies, mistakes and blunders, the better move",
                       description="Runs the engine over every position of a stored game and stores each "
                                   "evaluation and best move beside the game (a review stopped half-way "
                                   "resumes); prints a line per move. 'maxima-board export' and the web "
                                   "page (/games/N) show the review.")
    p.add_argument("game", metavar="GAME", nargs="?", type=argument("GAME", 1, MAX_GAME),
                   help="game number (see 'maxima-board games')")
    p.add_argument("--db", metavar="PATH", help=f"games database (default: {default_db_path()})")
    limit = p.add_mutually_exclusive_group()
    limit.add_argument("--level", metavar="N", type=argument("--level", 1, LEVEL_COUNT),
                       help=f"search as the computer's level N does (default {DEFAULT_LEVEL})")
    limit.add_argument("--nodes", metavar="N", type=argument("--nodes", 1, MAX_NODES),
                       help="search N nodes a position (level 10's search, no noise)")
    p.add_argument("--engine", metavar="SPEC", default="builtin", help="the engine (default: builtin)")
    p.add_argument("--pending", action="store_true",
                   help="instead of GAME: every finished game not yet fully reviewed, oldest first")
    p.add_argument("--watch", metavar="SECONDS", type=argument("--watch", 1, 3600),
                   help="with --pending: keep looking for newly finished games this often")
    p.add_argument("--parent", metavar="PID", type=argument("--parent", 1, 2**22), help=argparse.SUPPRESS)
    p.set_defaults(func=_review)


def _review(args: argparse.Namespace) -> int:
    if (args.game is None) == (not args.pending):
        raise ValueError("give a GAME number or --pending")
    if args.watch is not None and not args.pending:
        raise ValueError("--watch needs --pending")
    search = Search(level=args.level, nodes=args.nodes)
    path = args.db or default_db_path()
    label = f"--db {args.db}" if args.db else f"game database {path}"
    while args.watch is not None and not os.path.isfile(path) and _parent_alive(args.parent):
        time.sleep(float(args.watch))         # the board makes its database as it starts
    if not os.path.isfile(path):
        raise ValueError(f"{label}: no such file (no games stored)")
    store = GameStore(path, create_parent=False, label=label)
    try:
        if args.pending:
            signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
            if args.watch is None:
                review_pending(store, search, args.engine, sys.stderr)
            else:
                watch(store, search, args.engine, float(args.watch), args.parent, sys.stderr)
            return 0
        game = store.game(args.game)
        review_stored(store, game.id, search, args.engine)
        view = reviewed(store, store.game(game.id))
        print(f"game {game.id}: {game.white} - {game.black} {game.result}, reviewed ({search.text})")
        print(f"{'start':<24} {view.start_eval or '?':>7}")
        for step in view.steps:
            print(move_line(step))
    finally:
        store.close()
    return 0


def _parent_alive(parent: int | None) -> bool:
    return parent is None or os.getppid() == parent
