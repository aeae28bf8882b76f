"""Inviting a player without a board (issue 33): the page's "Invite a
player" form asks the board's loop (:class:`Invite`, a ``BoardFeed``
command) to begin a remote game whose other side is a phone
(:class:`~maxima_board.web.phone_peer.PhonePeer`); the invitation's token,
in the link ``/play/<token>``, is handed to the PIN holder who asked, and
to nobody else: it never enters the board's state, its screens or its
records (the game's name, which the layer keeps, is hidden by
``feed.secrets_of``).

One invitation at a time (:class:`Invitations`): a new one ends the one
before (its link is refused from then on). :class:`TokenGuard` makes
guessing links slow: a client that sends ``MAX_FAILURES`` wrong tokens in a
row is refused for a while, as for wrong PINs (``web/pin.py``).
"""
from __future__ import annotations

import hmac
import json
import logging
import os
import re
import secrets
from dataclasses import dataclass
from typing import Any, Callable

from maxima_board.service import remote_wire as w
from maxima_board.service.feed import NewGame
from maxima_board.service.remote_layer import RemoteLayer, event_of
from maxima_board.service.stack import find_layer

from .phone_peer import PhonePeer
from .pin import ClientLocks

log = logging.getLogger("maxima_board.web")

TOKEN = re.compile(r"^[A-Za-z0-9_-]{20,64}$")


def new_token() -> str:
    """A fresh invitation token: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


@dataclass(frozen=True)
class Invitation:
    token: str
    side: str            # the side the phone plays
    peer: PhonePeer


INVITATION_FILE = "phone-invitation"


def invitation_path(db_path: str | None) -> str | None:
    """Where the invitation of the board whose games are in ``db_path`` is kept (None: nowhere)."""
    if db_path is None or db_path == ":memory:" or db_path.startswith("file::memory:"):
        return None
    return os.path.join(os.path.dirname(os.path.abspath(db_path)), INVITATION_FILE)


class Invitations:
    """The board's invitation, if any. Set in the board's loop, read by the
    server's thread (one attribute, replaced whole). With ``path`` (beside
    the games database, mode 0600 like the web PIN) the invitation is kept
    there, so that the board started again plays on with the same link
    (:class:`ResumeInvitation`)."""

    def __init__(self, path: str | None = None) -> None:
        self.current: Invitation | None = None
        self.path = path

    def remember(self, token: str, name: str, side: str) -> None:
        """Keep the invitation (written whole or not at all); a failure is logged, the game goes on."""
        if self.path is None:
            return
        tmp = f"{self.path}.tmp-{os.getpid()}"
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump({"token": token, "name": name, "side": side}, f)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.path)
        except OSError as exc:
            log.warning("phone invitation not kept in %s: %s", self.path, exc.strerror or exc)

    def kept(self) -> tuple[str, str, str] | None:
        """The kept invitation (token, game name, the phone's side), if a sound one is there."""
        if self.path is None:
            return None
        try:
            with open(self.path, encoding="utf-8") as f:
                data = json.loads(f.read(4096))
            token, name, side = data["token"], data["name"], data["side"]
        except (OSError, ValueError, KeyError, TypeError):
            return None
        if not (isinstance(token, str) and TOKEN.match(token) and isinstance(name, str) and w.NAME.match(name)
                and side in w.SIDES):
            return None
        return token, name, side

    def find(self, token: str) -> Invitation | None:
        """The invitation of ``token`` (compared in constant time), or None."""
        current = self.current
        if current is None or not TOKEN.match(token):
            return None
        return current if hmac.compare_digest(current.token.encode(), token.encode()) else None

    def owns(self, peer: Any) -> bool:
        return self.current is not None and self.current.peer is peer


@dataclass(frozen=True)
class Invite:
    """The board's loop: begin a remote game whose ``side`` a phone plays,
    the board's game as it stands (``new`` None: before any move) or a new
    one (``new``, as the new-game form's). Returns the controller's events;
    ValueError (one line) when the board cannot."""

    side: str
    new: NewGame | None
    invitations: Invitations
    token: str
    on_change: Callable[[], None]

    def __call__(self, controller: Any, now_ms: int) -> list[dict]:
        layer = find_layer(controller, RemoteLayer)
        if layer is None:
            raise ValueError("this board cannot play remote games")
        if layer.active and not self.invitations.owns(layer.peer):
            raise ValueError("the board is playing a remote game with another board")
        core = layer.controller
        events: list[dict] = []
        if self.new is None:
            if core.moves:
                raise ValueError("the board's game has moves already: invite the player to a new game")
            if core.result != "*":
                raise ValueError("the board's game is over: invite the player to a new game")
        else:
            events += self.new(controller, now_ms)
        name = w.new_name()
        peer = PhonePeer(name, self.side, self.token, self.on_change)
        board_side = "black" if self.side == "white" else "white"
        events += layer.begin(name, board_side, now_ms, secret=self.token, peer=peer, both_flags=True)
        self.invitations.current = Invitation(self.token, self.side, peer)
        self.invitations.remember(self.token, name, self.side)
        return events + controller.on_tick(now_ms)     # the layer takes the game up at once


@dataclass(frozen=True)
class ResumeInvitation:
    """The board's loop, when the board started again: the kept invitation
    plays on if the board's game is still its game, unfinished (the
    phone's link works again; its page catches up from the board's first
    message). Nothing otherwise."""

    invitations: Invitations
    on_change: Callable[[], None]

    def __call__(self, controller: Any, now_ms: int) -> list[dict]:
        kept = self.invitations.kept()
        layer = find_layer(controller, RemoteLayer)
        if kept is None or layer is None or layer.active:
            return []
        token, name, side = kept
        core = layer.controller
        if core.game_id is None or core.result != "*" or core.store.game(core.game_id).event != event_of(name):
            return []
        peer = PhonePeer(name, side, token, self.on_change)
        board_side = "black" if side == "white" else "white"
        events = layer.begin(name, board_side, now_ms, secret=token, peer=peer, both_flags=True)
        self.invitations.current = Invitation(token, side, peer)
        return events + controller.on_tick(now_ms)


class TokenGuard(ClientLocks):
    """Wrong invitation tokens, per client, counted as wrong PINs are
    (:class:`~maxima_board.web.pin.ClientLocks`). With 128-bit tokens no
    board-wide wait is needed, and none can be used to lock the phone out."""

    def refusal(self, client: str) -> str | None:
        """Why ``client``'s requests are not looked at now, or None."""
        wait = self.wait(client)
        return f"too many wrong links: try again in {max(1.0, wait):.0f} s" if wait > 0 else None
