"""The phone's side of a remote game (issue 33): a player without a board,
playing through the board's page.

A :class:`PhonePeer` is the ``Peer`` (``maxima_board.service.remote_talk``)
the board's ``RemoteLayer`` plays through: the layer publishes its signed
State to it, and takes the phone's signed States from :meth:`received`. The
peer is the phone's "board": it keeps the game both sides agree on (the
board's moves as they arrive, the phone's own at once), and writes the
phone's State (``remote_wire``) after every change: its moves (``ms`` None:
the board keeps both clocks and calls both flags), its question (a
take-back, a draw, a resignation) and its answer to the board's.

Every method runs in the board's loop: the layer calls :meth:`publish` and
:meth:`received`, and the page's requests come as ``BoardFeed.submit``
commands (:meth:`play`, :meth:`ask`, :meth:`answer`, :meth:`withdraw`).
Other threads read only :attr:`view`, a frozen :class:`PhoneView` replaced
whole after each change. The phone's moves are checked here (turn, the
rules) before the layer sees them, and again by the layer.
"""
from __future__ import annotations

import itertools
import logging
from dataclasses import dataclass, replace
from typing import Callable

import msgspec

from maxima_board.rules import WHITE, MoveError, Position
from maxima_board.rules.words import move_label, move_words
from maxima_board.service import remote_wire as w
from maxima_board.service.remote_talk import WHAT

log = logging.getLogger("maxima_board.remote")


@dataclass(frozen=True)
class Choice:
    """A legal move of the phone's side: canonical, its squares (``to``
    None: no destination, a suicide) and in words."""

    move: str
    origin: str
    to: str | None
    words: str


@dataclass(frozen=True)
class PhoneView:
    """The phone's game as other threads may read it (one version)."""

    version: int
    side: str
    game: str                        # the game's public id (``remote_wire.game_id``)
    ready: bool = False              # the board's first State has come
    variant: str = ""
    fen: str = ""
    turn: str = "white"
    labels: tuple[str, ...] = ()     # the moves with their piece letter (``Pd3-d4``)
    last: tuple[str, str | None] | None = None
    made: int = 0                    # plies the board has made on its squares
    asked: str | None = None         # the phone's question waiting for the answer
    asks: str | None = None          # the board's question waiting for the phone's answer
    asks_to: int = 0                 # a take-back the board asks: back to this many plies
    result: str | None = None
    reason: str = ""
    note: str = ""
    choices: tuple[Choice, ...] = ()  # the phone's legal moves, when it is its turn

    @property
    def plies(self) -> int:
        return len(self.labels)

    @property
    def to_move(self) -> bool:
        """Whether the phone may move now."""
        return self.ready and self.result is None and self.turn == self.side and self.asked is None


class PhonePeer:
    """The phone's side of the remote game ``name`` (module docstring),
    keyed with ``secret`` (the invitation's token); ``on_change()`` is
    called (in the loop) after every change of :attr:`view`."""

    def __init__(self, name: str, side: str, secret: str, on_change: Callable[[], None] = lambda: None):
        if side not in w.SIDES:
            raise ValueError(f"side: expected white or black, not {side!r}")
        self.side = side
        self.board_side = "black" if side == "white" else "white"
        self.game = w.game_id(name)
        self._key = w.game_key(name, secret)
        self._on_change = on_change
        self._wake: Callable[[], None] | None = None
        self._outbox: list[bytes] = []
        self._seq = itertools.count(1)
        self._board: w.State | None = None      # the board's latest State
        self._pos: Position | None = None
        self._line: list[w.Entry] = []
        self._labels: list[str] = []
        self._ask: w.Ask | None = None           # the phone's
        self._their_ask: w.Ask | None = None     # the board's
        self._answer: w.Answer | None = None
        self._answered: set[int] = set()
        self._ask_ids = itertools.count(1)
        self._end: tuple[str, str] | None = None
        self._note = ""
        self._sent: w.State | None = None
        self._version = 0
        self.view = PhoneView(0, side, self.game)

    # ================================================================ the Peer interface (the layer)
    def publish(self, payload: bytes) -> None:
        try:
            state = w.decode(payload, self._key, self.board_side)
        except w.WireError as exc:
            log.warning("phone game: the board's message refused: %s", exc)
            return
        if self._board is not None and state.order <= self._board.order:
            return
        self._take(state)
        self._send()
        self._changed()

    def received(self) -> list[bytes]:
        out, self._outbox = self._outbox, []
        return out

    def set_waker(self, wake: Callable[[], None]) -> None:
        self._wake = wake

    # ================================================================ what the board said
    def _take(self, s: w.State) -> None:
        if self._board is None or (s.variant, s.start) != (self._board.variant, self._board.start):
            self._restart(s)
        self._board = s
        self._take_answer(s.answer)
        for i, entry in enumerate(s.moves):
            ply = s.base + i
            if ply < len(self._line):
                if self._line[ply].move != entry.move:
                    log.warning("phone game: the board's move %d %s, the phone has %s", ply + 1, entry.move,
                                self._line[ply].move)
                    break
                continue
            if ply > len(self._line) or not self._push(entry, None):   # the board's line: its moves, and
                break                                                      # the phone's when it catches up
        self._take_ask(s.ask)
        if s.end is not None and self._end is None and s.end.at == len(self._line):
            self._end = (s.end.result, s.end.reason)

    def _restart(self, s: w.State) -> None:
        try:
            self._pos = Position(s.start, s.variant)
        except (ValueError, KeyError) as exc:
            log.warning("phone game: the board's game cannot be read: %s", exc)
            self._pos = None
        self._line, self._labels = [], []
        self._ask = self._their_ask = self._answer = None
        self._end = None

    def _push(self, entry: w.Entry, side: str | None) -> bool:
        """The line goes on by ``entry``, a legal move of ``side`` (None: of the side to move)."""
        pos = self._pos
        if pos is None or (side is not None and (pos.turn == WHITE) != (side == "white")):
            return False
        try:
            move = pos.parse_move(entry.move)
        except (MoveError, ValueError):
            log.warning("phone game: the board's move %s is not legal here", entry.move)
            return False
        label = move_label(pos, move)
        pos.push(move)
        self._line.append(w.Entry(str(move), entry.ms))
        self._labels.append(label)
        return True

    def _truncate(self, plies: int) -> None:
        while len(self._line) > plies and self._pos is not None:
            self._pos.pop()
            self._line.pop()
            self._labels.pop()

    def _take_answer(self, answer: w.Answer | None) -> None:
        ask = self._ask
        if answer is None or ask is None or answer.id != ask.id:
            return
        self._ask = None
        if not answer.yes:
            self._note = f"The board's player declined the {WHAT[ask.what]}."
            return
        if ask.what == "takeback":
            self._truncate(ask.to)
            self._note = "The board's player accepted the take-back."
        elif ask.what == "draw":
            self._end = (self._draw(), "agreement")
        else:
            self._end = (self._win(self.board_side), "resignation")

    def _take_ask(self, ask: w.Ask | None) -> None:
        if ask is None:
            self._their_ask = None      # none, or withdrawn
            return
        if ask.id in self._answered or (self._their_ask is not None and self._their_ask.id == ask.id):
            return
        if ask.at != len(self._line) or self.result is not None:
            self._reply(ask, False)      # the game has moved on since
            return
        if ask.what == "resign":
            self._reply(ask, True)
            self._end = (self._win(self.side), "resignation")
            self._note = "The board's player resigned."
            return
        self._their_ask = ask

    def _reply(self, ask: w.Ask, yes: bool) -> None:
        self._answered.add(ask.id)
        self._answer = w.Answer(ask.id, yes)

    # ================================================================ what the phone does (the loop)
    def play(self, text: str) -> None:
        """The phone's move ``text`` (canonical); ValueError says why not."""
        pos = self._pos
        if pos is None or self._board is None:
            raise ValueError("the board has not begun the game yet")
        if self.result is not None:
            raise ValueError("the game is over")
        if (pos.turn == WHITE) != (self.side == "white"):
            raise ValueError(f"not your turn: {self.board_side.title()} (the board) to move")
        if self._ask is not None:
            raise ValueError(f"wait for the answer to your {WHAT[self._ask.what]} (or withdraw it)")
        try:
            move = pos.parse_move(text)
        except (MoveError, ValueError):
            raise ValueError(f"{text[:40]} is not a legal move here") from None
        if self._their_ask is not None:     # a move answers the board's question: no
            self._reply(self._their_ask, False)
            self._their_ask = None
        self._push(w.Entry(str(move), None), self.side)
        self._note = ""
        self._send()
        self._changed()

    def ask(self, what: str) -> None:
        """Ask the board's player ``what`` ("takeback", "draw", "resign");
        ValueError says why not."""
        if what not in WHAT:
            raise ValueError("ask: takeback, draw or resign")
        if self._pos is None or self._board is None:
            raise ValueError("the board has not begun the game yet")
        if self.result is not None:
            raise ValueError("the game is over")
        if self._ask is not None:
            raise ValueError(f"wait for the answer to your {WHAT[self._ask.what]}")
        to = 0
        if what == "takeback":
            mine = [ply for ply in range(len(self._line)) if self._mover(ply) == self.side]
            if not mine:
                raise ValueError("you have no move to take back")
            to = mine[-1]
        self._ask = w.Ask(next(self._ask_ids), what, len(self._line), to)
        self._note = ""
        self._send()
        self._changed()

    def withdraw(self) -> None:
        """The phone's question is withdrawn; ValueError when there is none."""
        if self._ask is None:
            raise ValueError("you asked nothing")
        self._ask = None
        self._send()
        self._changed()

    def answer(self, yes: bool) -> None:
        """The phone's answer to the board's question; ValueError when there is none."""
        ask = self._their_ask
        if ask is None:
            raise ValueError("the board's player asks nothing now")
        self._their_ask = None
        if ask.at != len(self._line) or self.result is not None:
            self._reply(ask, False)
            self._send()
            self._changed()
            raise ValueError("the game has moved on since the question")
        self._reply(ask, yes)
        if yes and ask.what == "takeback":
            self._truncate(ask.to)
        elif yes:
            self._end = (self._draw(), "agreement")
        self._note = ""
        self._send()
        self._changed()

    # ================================================================ the phone's State and view
    @property
    def result(self) -> str | None:
        if self._end is not None:
            return self._end[0]
        outcome = self._pos.outcome() if self._pos is not None else None
        return outcome.result if outcome is not None else None

    def _mover(self, ply: int) -> str:
        pos = self._pos
        assert pos is not None
        white_first = (pos.turn == WHITE) == (len(self._line) % 2 == 0)
        return "white" if (ply % 2 == 0) == white_first else "black"

    def _win(self, side: str) -> str:
        return "1-0" if side == "white" else "0-1"

    def _draw(self) -> str:
        return self._pos.variant.draw_result if self._pos is not None else "1/2-1/2"

    def _send(self) -> None:
        b = self._board
        if b is None:
            return
        n = len(self._line)
        base = min(b.n, n)
        state = w.State(self.side, 0, 0, b.variant, b.start, b.control, n, n, base, self._line[base:n],
                        self._ask, self._answer, None)
        if state == self._sent:
            return
        self._sent = state
        # every message supersedes the one before: only the newest waits
        self._outbox = [w.encode(msgspec.structs.replace(state, seq=next(self._seq)), self._key)]
        if self._wake is not None:
            self._wake()

    def _changed(self) -> None:
        self._version += 1
        self.view = self._make_view()
        self._on_change()

    def _make_view(self) -> PhoneView:
        pos, b = self._pos, self._board
        if pos is None or b is None:
            return PhoneView(self._version, self.side, self.game, note=self._note)
        names = pos.geometry.names
        last = None
        if pos.move_stack:
            m = pos.move_stack[-1]
            last = (names[m.from_square], names[m.to_square] if m.to_square is not None else None)
        end = self._end
        outcome = pos.outcome() if end is None else None
        if outcome is not None:
            end = (outcome.result, outcome.reason)
        view = PhoneView(self._version, self.side, self.game, True, pos.variant.name, pos.fen(),
                         "white" if pos.turn == WHITE else "black", tuple(self._labels), last, min(b.n, len(self._line)),
                         self._ask.what if self._ask else None,
                         self._their_ask.what if self._their_ask else None,
                         self._their_ask.to if self._their_ask else 0,
                         end[0] if end else None, end[1] if end else "", self._note)
        if not view.to_move:
            return view
        choices = tuple(Choice(str(m), names[m.from_square], names[m.to_square] if m.to_square is not None else None,
                               move_words(pos.variant, move_label(pos, m))) for m in pos.legal_moves)
        return replace(view, choices=choices)
