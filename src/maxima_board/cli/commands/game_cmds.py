"""Game commands: ``replay``, ``sim``, ``games``, ``export``, ``backup``."""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

from maxima_board.cli.commands import Subcommands
from maxima_board.rules import FenError, Position, variants

from maxima_board.board.numbers import argument
from . import club_cmds
from maxima_board.service.review import export_annotated as export_text
from maxima_board.service.script import ScriptError, ScriptRun, parse_script
from maxima_board.cli.abandon import abandon_of, abandon_option
from maxima_board.cli.play import add_play_options, auth_of, broker_of, play_of
from maxima_board.cli.remote import RemoteGame, remote_of
from maxima_board.cli.sim import run_sim
from maxima_board.storage.store import GameStore, default_db_path
from maxima_board.storage.storefile import NotOurs, StoreError, identify

MAX_GAME = 2**63 - 1   # SQLite's largest INTEGER: game numbers are its row ids


def register(sub: Subcommands) -> None:
    p = sub.add_parser("replay", help="run a board script headless and print JSON Lines (controller.md); "
                                      "exit 1 when it ends with the board standing wrong")
    p.add_argument("script", metavar="SCRIPT", help="the script file, or - for standard input")
    p.add_argument("--fen", metavar="FEN", help="start from this position (default: the start position)")
    add_play_options(p)
    p.add_argument("--realtime", action="store_true", help="with --broadcast: waits take real time")
    p.add_argument("--engine", metavar="SPEC", default="builtin",
                   help="engine of the script's 'opponent' lines (default: builtin)")
    p.set_defaults(func=_replay)

    p = sub.add_parser("sim", help="play on a simulated board typed in this terminal")
    p.add_argument("--db", metavar="PATH", help=f"games database (default: {default_db_path()})")
    add_play_options(p, "new games")
    abandon_option(p)
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


def _replay(args: argparse.Namespace) -> int:
    """The script's events as JSON Lines; 1 when it ends with the board
    standing wrong (a refused move: its ``error`` line, and one line on stderr)."""
    play = play_of(args)
    variant = play.settings.variant
    fen = None
    if args.fen is not None:
        fen = "start" if args.fen == "start" else args.fen
        try:
            Position(fen, variant)
        except FenError as exc:
            raise FenError(f"--fen: bad FEN: {exc}") from None
    try:
        if args.script == "-":
            steps = parse_script(sys.stdin.read().splitlines(), variant)
        else:
            with open(args.script, encoding="utf-8") as f:
                steps = parse_script(f.read().splitlines(), variant)
    except UnicodeDecodeError as exc:
        raise ScriptError(f"{args.script}: not a text file ({exc.reason})") from None
    except OSError as exc:
        raise OSError(f"cannot read {args.script}: {exc.strerror or exc}") from None
    options = remote_of(args)
    if options is not None:
        from maxima_board.cli.remote_replay import remote_replay

        if args.broadcast:
            raise ValueError("replay: --remote and --broadcast together are not supported; use sim or serve")
        remote = RemoteGame(options.broker, auth_of(args), None, _say, options)
        try:
            run = remote_replay(steps, play.settings, fen, sys.stdout, remote, engine=args.engine,
                                board=play.board)
        finally:
            remote.close()
    elif args.broadcast:
        from maxima_board.cli.broadcast_replay import broadcast_replay

        run = broadcast_replay(steps, play.settings, fen, sys.stdout, realtime=args.realtime,
                               engine=args.engine, board=play.board, **broker_of(args))
    else:
        store = GameStore(":memory:")
        out = sys.stdout
        run = ScriptRun(steps, play.settings, fen, store, engine=args.engine, board=play.board)
        try:
            for events in run:
                for event in events:
                    out.write(json.dumps(event) + "\n")
        finally:
            out.flush()
            store.close()
    if run.wrong is not None:
        print(f"maxima-board replay: the script ends with the board standing wrong: {run.wrong}",
              file=sys.stderr, flush=True)
        return 1
    return 0


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _store(path: str | None) -> GameStore:
    """The database opened for reading: nothing is created, changed or moved."""
    label = f"--db {path}" if path else None
    return GameStore(path or default_db_path(), readonly=True, label=label)


def _sim(args: argparse.Namespace) -> int:
    from maxima_board.cli.club import start_club
    from maxima_board.service.opponent_layer import OpponentLayer

    def wrap(controller):
        return OpponentLayer(controller, args.opponent, args.level, args.engine)

    play = play_of(args, db=args.db, resumes=True)
    label = f"--db {args.db}" if args.db else None
    abandon = abandon_of(args)
    options = remote_of(args)
    if options is not None and args.opponent != "none":
        raise ValueError(f"--opponent {args.opponent} and --remote: the other side is played elsewhere, "
                         f"not by the computer")
    if options is None and not args.broadcast:
        return run_sim(play.settings, label=label, wrap=wrap, board=play.board, follow=play.follow,
                       abandon=abandon)
    services = start_club(args.db or default_db_path(), **broker_of(args)) if args.broadcast else None
    remote = None
    try:
        if options is not None:
            remote = RemoteGame(options.broker, auth_of(args), args.db or default_db_path(), _say, options)
            wrap = remote.wrap
        with club_cmds.interrupt_on_sigterm():
            return run_sim(play.settings, label=label, wrap=wrap, board=play.board, follow=play.follow,
                           abandon=abandon, feed=services.feed if services else None, linger=False)
    except KeyboardInterrupt:
        return 0
    finally:
        if remote is not None:
            remote.close()
        if services is not None:
            services.close()


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
