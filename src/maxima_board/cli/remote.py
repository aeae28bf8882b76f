"""A remote game from the command line: ``--remote HOST:PORT
--remote-game NAME --side white|black`` (and ``--remote-key-file``), with
the broadcast's log-in options (``--username``, ``--password-file``,
``--tls-ca``…), for ``sim``, ``replay`` and ``serve``.

The game's name is its secret: it signs every move (with the key file's
first line, if one is given), and only its public id
(``maxima_board.service.remote_wire.game_id``) appears in topics and records.
"""
from __future__ import annotations

import argparse
import itertools
import time
import re
from dataclasses import dataclass
from typing import Any, Callable

NAME = re.compile(r"^[A-Za-z0-9_.:+-]{6,64}$")
MAX_KEY = 1024


def add_remote_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--remote", metavar="HOST:PORT",
                   help="play the other side elsewhere, through this MQTT broker (see docs/remote.md)")
    p.add_argument("--remote-game", metavar="NAME", type=game_name,
                   help="the remote game's name, agreed by both players: its secret (6-64 letters, digits, "
                        "_ . : + -; MENU's 'Remote game as White?' makes one)")
    p.add_argument("--side", choices=("white", "black"), help="the side this board plays in the remote game")
    p.add_argument("--remote-key-file", metavar="PATH",
                   help="a file whose first line is an extra secret both boards were given")


def game_name(text: str) -> str:
    if not NAME.match(text):
        raise argparse.ArgumentTypeError(
            f"--remote-game: {text!r} is not a game name (6-64 letters, digits, _ . : + -)")
    return text


@dataclass(frozen=True)
class RemoteOptions:
    broker: str
    name: str
    side: str
    secret: str


def remote_of(args: argparse.Namespace) -> RemoteOptions | None:
    """The remote game the options ask for (None: none); ValueError, one
    line, when they do not fit together."""
    given = [o for o in ("remote", "remote_game", "side") if getattr(args, o, None)]
    if not given:
        if getattr(args, "remote_key_file", None):
            raise ValueError("--remote-key-file: needs --remote, --remote-game and --side")
        return None
    missing = [f"--{o.replace('_', '-')}" for o in ("remote", "remote_game", "side") if o not in given]
    if missing:
        raise ValueError(f"a remote game needs --remote HOST:PORT, --remote-game NAME and --side: "
                         f"{', '.join(missing)} missing")
    secret = ""
    if args.remote_key_file:
        try:
            with open(args.remote_key_file, encoding="utf-8") as f:
                text = f.read(MAX_KEY + 1)
        except OSError as exc:
            raise ValueError(f"--remote-key-file {args.remote_key_file}: {exc.strerror or exc}") from None
        except UnicodeDecodeError:
            raise ValueError(f"--remote-key-file {args.remote_key_file}: not UTF-8 text") from None
        secret = text.split("\n", 1)[0].strip()
        if not secret or len(text) > MAX_KEY:
            raise ValueError(f"--remote-key-file {args.remote_key_file}: expected the key on its first line")
    from maxima_board.club.topics import parse_broker

    parse_broker(args.remote)
    return RemoteOptions(args.remote, args.remote_game, args.side, secret)


class RemoteGame:
    """The link to the other board, made once, and the layer that plays
    through it around each controller the board builds (again after a
    fault: the order of the messages goes on)."""

    def __init__(self, options: RemoteOptions, auth: Any, db_path: str | None, log: Callable[[str], None]):
        from maxima_board.club.boots import next_boot
        from maxima_board.club.remote_link import RemoteLink

        self.options = options
        # a board's start count orders its messages across restarts; a replay keeps nothing: the clock's seconds
        self.boot = next_boot(db_path) if db_path else int(time.time())
        self.sequence = itertools.count(1)
        self.link = RemoteLink(options.broker, options.name, options.side, secret=options.secret, auth=auth)
        log(f"maxima-board: remote game through {options.broker}, playing {options.side}")

    def wrap(self, controller: Any, now_ms: int = 0) -> Any:
        """The remote layer around ``controller``, the game begun."""
        from maxima_board.service.remote_layer import RemoteLayer

        o = self.options
        layer = RemoteLayer(controller, boot=self.boot, sequence=self.sequence, now_ms=now_ms)
        layer.begin(o.name, o.side, now_ms, secret=o.secret, peer=self.link)
        return layer

    def close(self) -> None:
        self.link.close()


def remote_wrap(remote: "RemoteGame | None", inner: Callable[[Any], Any] | None = None) -> Callable[[Any], Any]:
    """The layers a board with a web page builds around each controller:
    ``inner`` (the computer opponent), then the remote layer: the game of
    ``remote`` begun, or idle (the page may invite a phone player)."""
    from maxima_board.service.remote_layer import RemoteLayer

    def wrap(controller: Any) -> Any:
        inside = inner(controller) if inner is not None else controller
        if remote is not None:
            return remote.wrap(inside)
        return RemoteLayer(inside)
    return wrap
