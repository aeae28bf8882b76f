"""Game commands: ``replay``, ``sim``, ``games``, ``export``."""
from __future__ import annotations

import argparse
import json
import os
import sys

from engine import START_FEN, FenError, Position

from . import club_cmds
from ..record import export_text
from ..script import ScriptError, parse_script, replay
from ..settings import Settings
from ..sim import run_sim
from ..store import GameStore, default_db_path


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("replay", help="run a board script headless and print JSON Lines (controller.md)")
    p.add_argument("script", metavar="SCRIPT", help="the script file, or - for standard input")
    p.add_argument("--fen", metavar="FEN", help="start from this position (default: the start position)")
    club_cmds.broadcast_options(p)
    p.add_argument("--realtime", action="store_true", help="with --broadcast: waits take real time")
    p.set_defaults(func=_replay)

    p = sub.add_parser("sim", help="play on a simulated board typed in this terminal")
    p.add_argument("--db", metavar="PATH", help=f"games database (default: {default_db_path()})")
    p.set_defaults(func=_sim)

    p = sub.add_parser("games", help="list the stored games")
    p.add_argument("--db", metavar="PATH", help="games database")
    p.set_defaults(func=_games)

    p = sub.add_parser("export", help="print a stored game as a PGN-style record")
    p.add_argument("game", metavar="GAME", nargs="?", type=_game_number,
                   help="game number (default: the newest game)")
    p.add_argument("--db", metavar="PATH", help="games database")
    p.set_defaults(func=_export)


def _game_number(text: str) -> int:
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"GAME must be a game number, got {text!r}")
    return int(text)


def _replay(args: argparse.Namespace) -> int:
    fen = None
    if args.fen is not None:
        fen = START_FEN if args.fen == "start" else args.fen
        try:
            Position(fen)
        except FenError as exc:
            raise FenError(f"--fen: bad FEN: {exc}") from None
    try:
        if args.script == "-":
            steps = parse_script(sys.stdin.read().splitlines())
        else:
            with open(args.script, encoding="utf-8") as f:
                steps = parse_script(f.read().splitlines())
    except UnicodeDecodeError as exc:
        raise ScriptError(f"{args.script}: not a text file ({exc.reason})") from None
    except OSError as exc:
        raise OSError(f"cannot read {args.script}: {exc.strerror or exc}") from None
    if args.broadcast:
        from broadcast.replay import broadcast_replay

        return broadcast_replay(steps, Settings(), fen, sys.stdout, broker=args.broadcast, club=args.club,
                                table=args.table, realtime=args.realtime)
    store = GameStore(":memory:")
    out = sys.stdout
    try:
        for event in replay(steps, Settings(), fen, store):
            out.write(json.dumps(event) + "\n")
    finally:
        out.flush()
        store.close()
    return 0


def _store(path: str | None) -> GameStore:
    path = path or default_db_path()
    if not os.path.exists(path):
        raise ValueError(f"no games stored: {path} does not exist")
    store = GameStore(path)
    if store.message:
        print(f"maxima-board: {store.message}", file=sys.stderr)
    return store


def _sim(args: argparse.Namespace) -> int:
    return run_sim(Settings(db_path=args.db))


def _games(args: argparse.Namespace) -> int:
    store = _store(args.db)
    try:
        for game in store.games():
            status = "playing" if not game.finished else (game.reason or "ended")
            print(f"{game.id:>4}  {game.date}  {game.white} - {game.black}  {game.result:<7} "
                  f"{game.plies:>4} plies  {status}")
    finally:
        store.close()
    return 0


def _export(args: argparse.Namespace) -> int:
    store = _store(args.db)
    try:
        sys.stdout.write(export_text(store, args.game))
    finally:
        store.close()
    return 0
