"""Club commands: ``serve`` (the board's web page beside the simulated
board) and ``dashboard`` (every table of a club, live)."""
from __future__ import annotations

import argparse
import signal
import sys
import time
from contextlib import contextmanager

from maxima_board.cli.commands import Subcommands
from maxima_board.cli.abandon import abandon_of, abandon_option
from maxima_board.cli.play import add_play_options, auth_of, auth_options, broker_of, play_of
from maxima_board.board.numbers import argument
from maxima_board.storage.store import default_db_path


def register(sub: Subcommands) -> None:
    p = sub.add_parser("serve", help="the board's web page, beside a simulated board typed in this terminal")
    p.add_argument("--port", type=_port, default=8080, help="TCP port (default 8080; 0: any free port)")
    p.add_argument("--bind", default="0.0.0.0", metavar="ADDR",
                   help="address to listen on (default 0.0.0.0; the page answers the local network only)")
    p.add_argument("--db", metavar="PATH", help=f"games database (default: {default_db_path()})")
    host_option(p)
    add_play_options(p, "new games")
    abandon_option(p)
    p.set_defaults(func=_serve)

    p = sub.add_parser("dashboard", help="every table of a club live, from an MQTT broker")
    p.add_argument("--broker", required=True, metavar="HOST:PORT", help="the MQTT broker")
    p.add_argument("--club", default="club", metavar="NAME", help="the club's name in the topics (default: club)")
    p.add_argument("--port", type=_port, default=8081, help="TCP port (default 8081; 0: any free port)")
    p.add_argument("--bind", default="0.0.0.0", metavar="ADDR", help="address to listen on (default 0.0.0.0)")
    p.add_argument("--max-tables", type=argument("--max-tables", 1, 100_000), default=256, metavar="N",
                   help="keep at most N tables (default 256); messages of further tables are dropped")
    auth_options(p)
    host_option(p)
    p.set_defaults(func=_dashboard)


def host_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", action="append", default=[], metavar="NAME", dest="hosts",
                   help="another name the page is reached by (beside this computer's name, localhost and "
                        "its addresses; other names are refused); repeatable")


def _port(text: str) -> int:
    if not text.isdigit() or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"PORT must be a number 0 to 65535, got {text!r}")
    return int(text)


@contextmanager
def interrupt_on_sigterm():
    def stop(*_):
        raise KeyboardInterrupt
    try:
        previous = signal.signal(signal.SIGTERM, stop)
    except ValueError:      # not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _serve(args: argparse.Namespace) -> int:
    from maxima_board.cli.club import start_club
    from maxima_board.cli.sim import run_sim

    from maxima_board.cli.remote import RemoteGame, remote_of, remote_wrap

    play = play_of(args, db=args.db, resumes=True)
    db = args.db or default_db_path()
    options = remote_of(args)
    services = start_club(db, web_bind=args.bind, web_port=args.port, web_hosts=tuple(args.hosts),
                          **broker_of(args))
    remote = None
    try:
        if options is not None:
            remote = RemoteGame(options.broker, auth_of(args), db,
                                lambda text: print(text, file=sys.stderr, flush=True), options)
        print(f"maxima-board serve: http://{args.bind}:{services.server.port}/  web PIN {services.pin}",
              file=sys.stderr, flush=True)
        with interrupt_on_sigterm():
            run_sim(play.settings, sys.stdin, sys.stdout, feed=services.feed, board=play.board,
                    follow=play.follow, abandon=abandon_of(args), wrap=remote_wrap(remote),
                    on_start=lambda sim: services.attach(sim.controller))
    except KeyboardInterrupt:
        pass
    finally:
        if remote is not None:
            remote.close()
        services.close()
    return 0


def _dashboard(args: argparse.Namespace) -> int:
    from maxima_board.club.dashboard import ClubTables, dashboard_server

    tables = ClubTables(args.broker, args.club, auth=auth_of(args), max_tables=args.max_tables)
    try:
        server = dashboard_server(tables, args.bind, args.port, hosts=args.hosts).start()
    except OSError:
        tables.close()
        raise
    print(f"maxima-board dashboard: http://{args.bind}:{server.port}/ (club {tables.club}, broker {args.broker})",
          file=sys.stderr, flush=True)
    try:
        with interrupt_on_sigterm():
            while True:
                time.sleep(3600)
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
        tables.close()
    return 0
