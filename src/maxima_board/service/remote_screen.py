"""What a remote game shows and offers: the OLED's words (the move to make,
the questions, the waits) and MENU's items (begin a game, answer a
question, show the game's name). A part of
:class:`maxima_board.service.remote_layer.RemoteLayer`, split off by
concern; it works on the layer's state."""
from __future__ import annotations

from typing import Callable

from maxima_board.board.composer import Offer, Rank
from maxima_board.board.screens import piece_move

from . import remote_wire as w
from .remote_talk import WHAT, RemoteTalk

NOTE_MS = 4000


class RemoteScreen(RemoteTalk):
    """The OLED and MENU of :class:`~maxima_board.service.remote_layer.RemoteLayer`."""

    name: str | None
    _connect: Callable | None
    _note: tuple[str, int, str] | None

    def _words_of(self, entry: w.Entry) -> str:
        position = self.controller.position
        move = self._position_move(entry)
        if move is None:
            return entry.move
        return piece_move(position, move, names=self.controller.printed_names(position))

    def _offer(self) -> Offer | None:
        text, short = self._words()
        if text is None:
            return None
        if self._note is not None:
            return Offer(Rank.NOTE, text=text, short=short)
        return Offer(Rank.OPPONENT, text=text, short=short)

    def _words(self) -> tuple[str | None, str]:
        if self._note is not None:
            return self._note[0], self._note[2]
        if not self.active:
            return None, ""
        if self._their_ask is not None:
            what = WHAT[self._their_ask.what]
            return f"The other player asks: {what}. MENU to answer.", f"Asked: {what}?"
        if self._my_ask is not None:
            what = WHAT[self._my_ask.what]
            return f"Waiting for the answer: {what}.", f"Asked: {what}"
        entry = self._to_make()
        if entry is not None:
            words = self._words_of(entry)
            if self.controller.position.turn == self.me:
                return f"Make your {words} again.", f"Again: {words}"
            return f"Remote: {words}. Make it on the board.", f"Remote: {words}"
        c = self.controller
        if c.mode == "play" and c.result == "*" and c.position.turn != self.me and len(c.moves) == len(self.line):
            return "Waiting for the other player's move.", "Remote to move"
        return None, ""

    def _in_menu(self) -> bool:
        """MENU offers the remote game's questions during one, or when one can begin from it."""
        return self.active or self._their_ask is not None or self._connect is not None

    def _first_label(self) -> str:
        if self._their_ask is not None:
            return f"Accept {WHAT[self._their_ask.what]}?"
        if self.active:
            return "Remote game?"
        return "Remote game as White?" if self._connect is not None else "Remote game?"

    def _first_item(self, now: int) -> list[dict]:
        if self._their_ask is not None:
            return self._accept(now)
        if not self.active:
            return self.begin_new("white", now)
        who = "connected" if self._seen is not None else "not heard from yet"
        self._say(f"Remote game {self.public[:6]}, playing {self.side}; the other board: {who}.",
                  f"Remote: {self.side}")
        return []

    def _second_label(self) -> str:
        if self._their_ask is not None:
            return f"Decline {WHAT[self._their_ask.what]}?"
        if self.active:
            return "Show remote game's name?"
        return "Remote game as Black?" if self._connect is not None else "Remote game's name?"

    def _second_item(self, now: int) -> list[dict]:
        if self._their_ask is not None:
            return self._decline()
        if not self.active:
            return self.begin_new("black", now)
        self._note = (f"Remote game: {self.name}", now + 3 * NOTE_MS, self.name or "")
        return []

    @property
    def can_connect(self) -> bool:
        """Whether the board has a broker for remote games with other boards."""
        return self._connect is not None

    def begin_new(self, side: str, now: int, *, quiet: bool = False) -> list[dict]:
        """A new remote game with another board (MENU, the web page), this
        board playing ``side``; its name (the secret the other player needs)
        shown on this board's display only. ``quiet``: a failure is raised
        (ValueError, OSError), not shown."""
        name = w.new_name()
        try:
            events = self.begin(name, side, now)
        except (ValueError, OSError) as exc:
            if quiet:
                raise
            self._say(f"Remote game not started: {exc}", "Remote: not started")
            return []
        self._note = (f"Remote game: {name}. Tell the other player.", now + 6 * NOTE_MS, name)
        return events
