"""Game commands: ``replay``, ``sim``, ``games``, ``export``, ``backup``."""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

from maxima_board.cli.commands import Subcommands
from maxima_board.rules import FenError, Position, variants

from maxima_board.devices.boards import PlacementError, games_for, place

from maxima_board.board.numbers import argument
from maxima_board.board.settings import BOARD_KINDS
from . import club_cmds
from maxima_board.service.record import export_text
from maxima_board.service.script import ScriptError, parse_script, replay
from maxima_board.board.settings import Settings
from maxima_board.cli.sim import run_sim
from maxima_board.storage.store import GameStore, default_db_path
from maxima_board.storage.storefile import NotOurs, StoreError, identify

MAX_GAME = 2**63 - 1   # SQLite's largest INTEGER: game numbers are its row ids


def register(sub: Subcommands) -> None:
    p = sub.add_parser("replay", help="run a board script headless and print JSON Lines (controller.md)")
    p.add_argument("script", metavar="SCRIPT", help="the script file, or - for standard input")
    p.add_argument("--fen", metavar="FEN", help="start from this position (default: the start position)")
    p.add_argument("--clock", metavar="CONTROL", default="none",
                   help="time control: 90+30, 60d10, 40/90,30+30 or none (default)")
    club_cmds.broadcast_options(p)
    p.add_argument("--realtime", action="store_true", help="with --broadcast: waits take real time")
    game_options(p)
    p.add_argument("--engine", metavar="SPEC", default="builtin",
                   help="engine of the script's 'opponent' lines (default: builtin)")
    p.set_defaults(func=_replay)

    p = sub.add_parser("sim", help="play on a simulated board typed in this terminal")
    p.add_argument("--db", metavar="PATH", help=f"games database (default: {default_db_path()})")
    p.add_argument("--clock", metavar="CONTROL", default="none",
                   help="time control of new games: 90+30, 60d10, 40/90,30+30 or none (default)")
    game_options(p, "the game of new games")
    p.add_argument("--opponent", choices=("white", "black", "none"), default="none",
                   help="the side the computer plays (MENU on the board changes it)")
    p.add_argument("--level", metavar="N", type=argument("--level", 1, 10), default=5,
                   help="the computer's level, 1-10 (default 5)")
    p.add_argument("--engine", metavar="SPEC", default="builtin",
                   help="builtin (default), random, greedy, minimax2 or the path of a UCI engine")
    p.set_defaults(func=_sim)

    p = sub.add_parser("games", help="list the stored games")
    p.add_argument("--db", metavar="PATH", help="games database")
    p.set_defaults(func=_games)

    p = sub.add_parser("export", help="print a stored game as a PGN-style record")
    p.add_argument("game", metavar="GAME", nargs="?", type=argument("GAME", 1, MAX_GAME),
                   help="game number (default: the newest game)")
    p.add_argument("--db", metavar="PATH", help="games database")
    p.set_defaults(func=_export)

    p = sub.add_parser("backup", help="copy the games database safely, also while the board runs")
    p.add_argument("dest", metavar="DEST",
                   help="the copy: a new file, an earlier backup (replaced), or a directory "
                        "(the copy is named games-<date>-<time>.db there)")
    p.add_argument("--db", metavar="PATH", help="games database")
    p.set_defaults(func=_backup)


def game_options(p: argparse.ArgumentParser, what: str = "the game") -> None:
    """``--variant`` and ``--board`` of a command that plays on a simulated board."""
    p.add_argument("--variant", metavar="NAME", default=None, type=variant_name,
                   help=f"{what} (default: maxima, or the board's first game; see 'maxima-board variants'); "
                        "without --board, squares are the game's own")
    p.add_argument("--board", choices=BOARD_KINDS, default=None,
                   help="the physical board simulated (default: one that holds the game): squares, LEDs and "
                        "MENU's game chooser are that board's (its own square names, the game placed on it as on a "
                        "real board)")


def variant_name(text: str) -> str:
    """``--variant NAME``: a game id of ``maxima-board variants``."""
    if text not in variants.names():
        raise argparse.ArgumentTypeError(f"--variant: unknown game {text!r} (see 'maxima-board variants')")
    return text


def board_and_game(board: str | None, variant: str | None) -> tuple[str, str]:
    """The board kind and the game of ``--board`` and ``--variant``: a board
    alone plays its first game (Maxima on the Maxima board); a game alone
    is played on the board that holds it. A game the board cannot hold is
    one line naming both."""
    if board is None:
        name = variant or "maxima"
        return ("maxima" if name in games_for("maxima") else "10x10"), name
    games = games_for(board)
    if variant is None:
        return board, games[0]
    if variant not in games:
        try:
            place(variant, board)
        except PlacementError as exc:
            raise PlacementError(f"--variant {variant} --board {board}: {exc}") from None
    return board, variant


def _replay(args: argparse.Namespace) -> int:
    kind, args.variant = board_and_game(args.board, args.variant)
    settings = Settings(time_control=args.clock, variant=args.variant,   # a bad CONTROL: one line naming it
                        board_kind=kind)
    fen = None
    if args.fen is not None:
        fen = "start" if args.fen == "start" else args.fen
        try:
            Position(fen, args.variant)
        except FenError as exc:
            raise FenError(f"--fen: bad FEN: {exc}") from None
    try:
        if args.script == "-":
            steps = parse_script(sys.stdin.read().splitlines(), args.variant)
        else:
            with open(args.script, encoding="utf-8") as f:
                steps = parse_script(f.read().splitlines(), args.variant)
    except UnicodeDecodeError as exc:
        raise ScriptError(f"{args.script}: not a text file ({exc.reason})") from None
    except OSError as exc:
        raise OSError(f"cannot read {args.script}: {exc.strerror or exc}") from None
    if args.broadcast:
        from maxima_board.cli.broadcast_replay import broadcast_replay

        return broadcast_replay(steps, Settings(), fen, sys.stdout, broker=args.broadcast, club=args.club,
                                table=args.table, realtime=args.realtime, auth=club_cmds.auth_of(args))
    store = GameStore(":memory:")
    out = sys.stdout
    try:
        for event in replay(steps, settings, fen, store, engine=args.engine, board=args.board):
            out.write(json.dumps(event) + "\n")
    finally:
        out.flush()
        store.close()
    return 0


def _store(path: str | None) -> GameStore:
    """The database opened for reading: nothing is created, changed or moved."""
    label = f"--db {path}" if path else None
    return GameStore(path or default_db_path(), readonly=True, label=label)


def _sim(args: argparse.Namespace) -> int:
    from maxima_board.service.opponent_layer import OpponentLayer

    def wrap(controller):
        return OpponentLayer(controller, args.opponent, args.level, args.engine)

    board = args.board if args.board is not None or args.variant is not None else "maxima"
    kind, variant = board_and_game(board, args.variant)
    return run_sim(Settings(db_path=args.db, time_control=args.clock, variant=variant, board_kind=kind),
                   label=f"--db {args.db}" if args.db else None, wrap=wrap, board=board,
                   follow=args.board is None)


def _games(args: argparse.Namespace) -> int:
    store = _store(args.db)
    try:
        for game in store.games():
            status = "playing" if not game.finished else (game.reason or "ended")
            print(f"{game.id:>4}  {game.date}  {game.white} - {game.black}  {game.result:<7} "
                  f"{game.plies:>4} plies  {status}  {_title(game.variant)}")
    finally:
        store.close()
    return 0


def _title(name: str) -> str:
    try:
        return variants.get(name).title
    except ValueError:   # a game this version does not know
        return name


def _export(args: argparse.Namespace) -> int:
    store = _store(args.db)
    try:
        sys.stdout.write(export_text(store, args.game))
    finally:
        store.close()
    return 0


def _backup(args: argparse.Namespace) -> int:
    """A consistent copy of a live database through SQLite's online backup:
    copying ``games.db`` with cp while the board runs may miss the moves
    still in its write-ahead log, or catch the file half written."""
    dest = _backup_target(args.dest)
    store = _store(args.db)
    try:
        if os.path.exists(dest) and os.path.samefile(dest, store.path):
            raise StoreError(f"backup {args.dest}: that is the games database itself")
        count = store.backup(dest)
    finally:
        store.close()
    print(f"backup: {count} game{'s' if count != 1 else ''} from {store.path} copied to {dest}")
    return 0


def _backup_target(text: str) -> str:
    """Where the copy goes; StoreError for a place that is not ours to write."""
    if os.path.isdir(text):
        return os.path.join(text, time.strftime("games-%Y%m%d-%H%M%S.db"))
    found = identify(text, f"backup {text}")      # NotOurs: a file that is not a maxima-board database
    if found.kind == "no-parent":
        raise StoreError(f"backup {text}: directory {os.path.dirname(os.path.abspath(text))} does not exist")
    if found.kind == "empty":
        raise NotOurs(f"backup {text}: an empty file that is not a maxima-board database; nothing was replaced")
    return text
