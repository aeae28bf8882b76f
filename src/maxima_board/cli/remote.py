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
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable

from maxima_board.service.remote_names import NAME
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
    secret = read_key(args.remote_key_file, "--remote-key-file") if args.remote_key_file else ""
    from maxima_board.club.topics import parse_broker

    parse_broker(args.remote)
    return RemoteOptions(args.remote, args.remote_game, args.side, secret)


def read_key(path: str, where: str) -> str:
    """The first line of the key file ``path``; ValueError (one line, naming ``where``)."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read(MAX_KEY + 1)
    except OSError as exc:
        raise ValueError(f"{where} {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise ValueError(f"{where} {path}: not UTF-8 text") from None
    secret = text.split("\n", 1)[0].strip()
    if not secret or len(text) > MAX_KEY:
        raise ValueError(f"{where} {path}: expected the key on its first line")
    return secret


def remote_of_config(remote: Any, db_path: str | None, log: Callable[[str], None]) -> "RemoteGame | None":
    """The remote games of the config's ``[remote]`` (a cli.config.RemoteConfig); None without a broker."""
    if remote.broker is None:
        return None
    options = None
    if remote.game:
        secret = read_key(remote.key_file, "[remote] key_file") if remote.key_file else ""
        options = RemoteOptions(remote.broker, remote.game, remote.side, secret)
    return RemoteGame(remote.broker, remote.auth(), db_path, log, options)


class RemoteGame:
    """The board's remote games through ``broker``: the link to the other
    board, and the layer that plays through it around each controller the
    board builds (again after a fault: the game and the order of the
    messages go on). ``options``: the game begun at the start (the command
    line's, the config's); else MENU begins one ("Remote game as White?")."""

    def __init__(self, broker: str, auth: Any, db_path: str | None, log: Callable[[str], None],
                 options: RemoteOptions | None = None):
        from maxima_board.club.boots import next_boot
        from maxima_board.club.topics import parse_broker

        parse_broker(broker)
        self.broker, self.auth, self.log = broker, auth, log
        # a board's start count orders its messages across restarts; a replay keeps nothing: the clock's seconds
        self.boot = next_boot(db_path) if db_path else int(time.time())
        self.sequence = itertools.count(1)
        self.link: Any = None
        self.current: tuple[str, str, str] | None = None
        if options is not None:
            self.connect(options.name, options.side, options.secret)

    def connect(self, name: str, side: str, secret: str) -> Any:
        """The link for the game ``name`` (the one before is closed, in the background)."""
        from maxima_board.club.remote_link import RemoteLink

        old, self.link = self.link, None
        if old is not None:
            threading.Thread(target=old.close, name="remote link closing", daemon=True).start()
        self.link = RemoteLink(self.broker, name, side, secret=secret, auth=self.auth)
        self.current = (name, side, secret)
        self.log(f"maxima-board: remote game through {self.broker}, playing {side}")
        return self.link

    def wrap(self, controller: Any, now_ms: int = 0) -> Any:
        """The remote layer around ``controller``, the current game begun."""
        from maxima_board.service.remote_layer import RemoteLayer

        layer = RemoteLayer(controller, connect=self.connect, boot=self.boot, sequence=self.sequence, now_ms=now_ms)
        if self.current is not None:
            name, side, secret = self.current
            layer.begin(name, side, now_ms, secret=secret, peer=self.link)
        return layer

    def close(self) -> None:
        if self.link is not None:
            self.link.close()


def remote_wrap(remote: "RemoteGame | None", outer: Callable[[Any], Any] | None = None) -> Callable[[Any], Any]:
    """The layers a board builds around each controller: the remote layer
    (the game of ``remote`` begun, or idle: MENU or the page may begin one),
    then ``outer`` (the computer opponent) around it."""
    from maxima_board.service.remote_layer import RemoteLayer

    def wrap(controller: Any) -> Any:
        layer = remote.wrap(controller) if remote is not None else RemoteLayer(controller)
        return outer(layer) if outer is not None else layer
    return wrap
