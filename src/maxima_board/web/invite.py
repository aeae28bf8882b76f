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
import re
import secrets
from dataclasses import dataclass
from typing import Any, Callable

from maxima_board.service import remote_wire as w
from maxima_board.service.feed import NewGame
from maxima_board.service.remote_layer import RemoteLayer
from maxima_board.service.stack import find_layer

from .phone_peer import PhonePeer
from .pin import ClientLocks

TOKEN = re.compile(r"^[A-Za-z0-9_-]{20,64}$")


def new_token() -> str:
    """A fresh invitation token: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


@dataclass(frozen=True)
class Invitation:
    token: str
    side: str            # the side the phone plays
    peer: PhonePeer


class Invitations:
    """The board's invitation, if any. Set in the board's loop, read by the
    server's thread (one attribute, replaced whole)."""

    def __init__(self) -> None:
        self.current: Invitation | None = None

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
        return events + controller.on_tick(now_ms)     # the layer takes the game up at once


class TokenGuard(ClientLocks):
    """Wrong invitation tokens, per client, counted as wrong PINs are
    (:class:`~maxima_board.web.pin.ClientLocks`). With 128-bit tokens no
    board-wide wait is needed, and none can be used to lock the phone out."""

    def refusal(self, client: str) -> str | None:
        """Why ``client``'s requests are not looked at now, or None."""
        wait = self.wait(client)
        return f"too many wrong links: try again in {max(1.0, wait):.0f} s" if wait > 0 else None
