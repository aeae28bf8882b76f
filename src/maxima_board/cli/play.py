"""The options that say what a simulated board plays and where it is
broadcast, defined once for ``sim``, ``replay`` and ``serve`` and applied
one way (:func:`play_of`, :func:`broker_of`):

    --variant NAME      the game: an id of ``maxima-board variants`` or a
                        game's name ("Optima 9x9", "Swapper"), any case
    --board KIND        the physical board simulated (maxima, 10x10)
    --clock CONTROL     the time control (90+30, 60d10, 40/90,30+30, none)
    --teach             teaching: a lifted piece lights its legal targets and
                        what each move would capture (LED ``captures``)
    --broadcast HOST:PORT, --table, --club, --username, --password-file,
    --tls-ca, --tls-cert, --tls-key
                        the club's MQTT broker the board publishes to

A board alone plays its first game; a game alone is played on the board
that holds it, its squares the game's own; neither: a command that resumes
stored games (``sim``, ``serve``) simulates the Maxima board, and a stored
game that board cannot hold is simulated on the board that holds it.
"""
from __future__ import annotations

import argparse
from dataclasses import dataclass

from maxima_board.board.clock import TimeControlError, parse_time_control
from maxima_board.board.settings import BOARD_KINDS, Settings
from maxima_board.devices.boards import PlacementError, games_for, place
from maxima_board.rules.game_names import game_id, suggestion



def add_play_options(p: argparse.ArgumentParser, what: str = "the game") -> None:
    """``--variant``, ``--board``, ``--clock``, ``--teach`` and the broker's options."""
    p.add_argument("--variant", metavar="NAME", default=None, type=variant_name,
                   help=f"{what}: a name of 'maxima-board variants' (an id, or a title such as \"Optima 9x9\", "
                        "any case; default: maxima, or the board's first game); without --board, squares are "
                        "the game's own")
    p.add_argument("--board", choices=BOARD_KINDS, default=None,
                   help="the physical board simulated (default: one that holds the game): squares, LEDs, MENU's "
                        "game chooser and the web page's New game form are that board's (its own square names, "
                        "the game placed on it as on a real board)")
    p.add_argument("--clock", metavar="CONTROL", default="none", type=_control,
                   help=f"time control of {what}: 90+30, 60d10, 40/90,30+30 or none (default)")
    p.add_argument("--teach", action="store_true",
                   help="teaching: a lifted piece lights its legal targets and every enemy piece a move of it "
                        "would capture or freeze (LED 'captures'); a refused move says why")
    broadcast_options(p)
    from .remote import add_remote_options

    add_remote_options(p)


def variant_name(text: str) -> str:
    """``--variant NAME``: the id of the game ``NAME`` names (an id or a
    title, any case); an unknown name is one line with the nearest name."""
    found = game_id(text)
    if found is None:
        raise argparse.ArgumentTypeError(f"--variant: unknown game {text!r}{suggestion(text)} "
                                         f"(see 'maxima-board variants')")
    return found


def _control(text: str) -> str:
    try:
        parse_time_control(text)
    except TimeControlError as exc:
        raise argparse.ArgumentTypeError(f"--clock: {exc}") from None
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


@dataclass(frozen=True)
class Play:
    """What the options chose: the settings of new games (game, board kind,
    clock, database), the physical board simulated (None: the game's own
    squares) and whether a resumed game its board cannot hold moves the
    simulation to the board that holds it (``follow``)."""

    settings: Settings
    board: str | None
    follow: bool


def play_of(args: argparse.Namespace, *, db: str | None = None, resumes: bool = False) -> Play:
    """The :class:`Play` of the options of :func:`add_play_options`;
    ``resumes``: the command resumes stored games (its default board is
    the Maxima board, followed to the board of the game resumed)."""
    board = args.board
    if board is None and args.variant is None and resumes:
        board = "maxima"
    kind, variant = board_and_game(board, args.variant)
    settings = Settings(db_path=db, time_control=args.clock, variant=variant, board_kind=kind,
                        teach=getattr(args, "teach", False))
    return Play(settings, board, follow=resumes and args.board is None)


def broker_of(args: argparse.Namespace) -> dict:
    """The broadcast's keywords of ``maxima_board.cli.club.start_club``
    (``broker`` None: no broadcast)."""
    return {"broker": args.broadcast, "club": args.club, "table": args.table, "auth": auth_of(args)}


def broadcast_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--broadcast", metavar="HOST:PORT", help="publish the game to this MQTT broker")
    p.add_argument("--table", metavar="N", default="1", help="the table's name in the topics (default 1)")
    p.add_argument("--club", metavar="NAME", default="club", help="the club's name in the topics (default: club)")
    auth_options(p)


def auth_options(p: argparse.ArgumentParser) -> None:
    """The broker log-in (maxima_board.club.connection.BrokerAuth)."""
    p.add_argument("--username", metavar="NAME", help="log in to the broker as NAME")
    p.add_argument("--password-file", metavar="PATH", help="the file whose first line is the password")
    p.add_argument("--tls-ca", metavar="PATH", help="use TLS; the CA file that signed the broker's certificate")
    p.add_argument("--tls-cert", metavar="PATH", help="with --tls-ca: a client certificate")
    p.add_argument("--tls-key", metavar="PATH", help="with --tls-cert: its key (default: in the certificate file)")


def auth_of(args: argparse.Namespace):
    """The BrokerAuth of the options; ValueError says what does not fit."""
    from maxima_board.club.connection import BrokerAuth

    return BrokerAuth(args.username, args.password_file, args.tls_ca, args.tls_cert, args.tls_key).check()
