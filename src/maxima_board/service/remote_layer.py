"""A game against a player elsewhere: a layer around the controller.

:class:`RemoteLayer` wraps a ``maxima_board.board.core.Controller`` as the
computer opponent's layer does. The board plays one side (``side``); the
other side's moves come from a :class:`Peer` (the other board through the
club's broker, ``maxima_board.club.remote_link``, or a phone through the
board's page) and are shown as the computer's are: "Remote: Pawn f7-f4.
Make it on the board.", from and to lit; the player makes them, and the
game goes on.

The layer keeps the game both boards agree on (``line``: the moves and
each mover's clock after it). The board's own game is a prefix of it, or
one move more: the player's own move, which joins the line at once and is
sent. What arrives is checked before it counts (``remote_wire.decode``:
size, signature, bounds; then order, turn and the rules), and each refusal
is one ``remote_refused`` event; the game goes on.

Asked of the other player, applied on both boards only when accepted:

- a take-back: BACK (or the pieces put back) takes the board's moves back
  at once, and asks; declined, the board shows the moves to make again;
- a draw: MENU's "Agree draw?" asks instead of ending the game;
- a resignation: MENU's "Resign White?" (the board's own side) asks; the
  other board ends the game and answers, then this one ends it too.

The other player's questions are answered by MENU ("Accept take-back?",
"Decline take-back?"). Each board calls only its own side's flag; the
other's comes as that board's ``end``. Each move carries its mover's clock,
which both boards then show.

Events the layer adds: ``{"type": "remote_move", "move"}`` (the other
side's move arrived), ``{"type": "remote_refused", "why"}``,
``{"type": "remote_ask", "what", "by": "us"|"them"}``,
``{"type": "remote_answer", "what", "yes", "by"}`` and
``{"type": "remote_game", "game": public id, "side"}``.
"""
from __future__ import annotations

import itertools
import sqlite3
from typing import Callable, Iterator


from maxima_board.board import guidance as g
from maxima_board.rules import WHITE, MoveError, Position

from . import remote_wire as w
from .remote_screen import NOTE_MS, RemoteScreen
from .remote_talk import WHAT, Peer, RemoteStack, agreed
from .stack import WatchingLayer




def event_of(name: str) -> str:
    """The Event tag of the remote game ``name``: its public id, never its name."""
    return f"Remote game {w.game_id(name)}"


Connect = Callable[[str, str, str], Peer]     # (name, side, secret) -> the link to the other board


class RemoteLayer(RemoteScreen, WatchingLayer):
    """Remote games around ``controller``. Idle until :meth:`begin` (the
    command line's ``--remote``, MENU's "Remote game as White?", the web
    page's invitation); then this board plays ``side`` of the game ``name``.
    ``connect(name, side, secret)``: the link to the other board for a
    game begun from MENU (None: MENU cannot begin one); ``boot``: this
    board's start count and ``sequence`` its message counter (the order of
    its messages, across restarts and rebuilt layers)."""

    controller: RemoteStack

    def __init__(self, controller: RemoteStack, *, connect: Connect | None = None, boot: int = 0,
                 sequence: Iterator[int] | None = None, now_ms: int = 0):
        super().__init__(controller)
        self._connect = connect
        self._wake: Callable[[], None] | None = None
        self._boot = boot
        self._sequence = sequence if sequence is not None else itertools.count(1)
        self._now = now_ms
        self._events: list[dict] = []
        self._note: tuple[str, int, str] | None = None
        self.peer: Peer | None = None
        self.name: str | None = None
        self.side = "white"
        self._reset("white", "")
        controller.add_menu_item(self._first_label, self._first_item, self._in_menu)
        controller.add_menu_item(self._second_label, self._second_item, self._in_menu)
        controller.add_offer(self._offer)

    def _reset(self, side: str, secret: str) -> None:
        self.side = side
        self.me = WHITE if side == "white" else -WHITE
        self.them = "black" if side == "white" else "white"
        self.public = w.game_id(self.name) if self.name else ""
        self._key = w.game_key(self.name or "", secret)
        self._seen: tuple[int, int] | None = None   # the order of the other's last message
        self._their_n = 0                   # plies the other board has played
        self._my_ask: w.Ask | None = None
        self._their_ask: w.Ask | None = None
        self._answer: w.Answer | None = None
        self._answered: set[int] = set()
        self._ask_ids = self._boot * 1000
        self._end: w.Ending | None = None
        self._their_end: w.Ending | None = None
        self._sent: w.State | None = None
        self.line: list[w.Entry] = []
        self._line_pos: Position | None = None
        self._start = ""
        self._game: int | None = None

    def begin(self, name: str, side: str, now_ms: int, *, secret: str = "", peer: Peer | None = None,
              both_flags: bool = False) -> list[dict]:
        """Play ``side`` of the remote game ``name`` from now on (through
        ``peer``, else a link made by ``connect``): the board's stored game
        of that name resumes, else the game as the board stands becomes it
        (a game with moves on the board is left stored and a new one set up).
        ``both_flags``: this board calls both sides' flags (the other player
        has no clock of their own: a phone). ValueError names a side or a
        link that cannot be."""
        if side not in w.SIDES:
            raise ValueError(f"side: expected white or black, not {side!r}")
        if peer is None:
            if self._connect is None:
                raise ValueError("no broker for remote games (--remote, or [remote] broker in the config)")
            peer = self._connect(name, side, secret)
        self.peer, self.name = peer, name
        self._reset(side, secret)
        self.controller.judge_flags(None if both_flags else frozenset({self.me}))
        self.controller.route_agreements(self._agreement)
        if self._wake is not None:
            peer.set_waker(self._wake)
        self._now = max(self._now, now_ms)
        self._adopt_game(self._now)
        return []      # its events come with the next call's

    # ================================================================ the controller's interface
    def set_waker(self, wake: Callable[[], None]) -> None:
        self._wake = wake
        if self.peer is not None:
            self.peer.set_waker(wake)
        super().set_waker(wake)

    def next_deadline(self) -> int | None:
        times = [t for t in (self.controller.next_deadline(), self._note[1] if self._note else None)
                 if t is not None and t > self._now]
        return min(times) if times else None

    @property
    def secrets(self) -> list[str]:
        """What the page and the broadcast must never show (the game's name)."""
        return [self.name] if self.name else []

    @property
    def leds(self) -> dict[str, str]:
        leds = self.controller.leds
        entry = self._to_make()
        if entry is None:
            return leds
        move = self._position_move(entry)
        if move is None:
            return leds
        names = self.controller.position.geometry.names
        layers = [(state, [sq]) for sq, state in leds.items()]
        layers.append(("engine-from", [names[move.from_square]]))
        if move.to_square is not None:
            layers.append(("engine-to", [names[move.to_square]]))
        return g.compose_leds(layers)

    # ================================================================ the game
    @property
    def active(self) -> bool:
        """Whether the board's game is this remote game."""
        return self.peer is not None and self._game is not None and self.controller.game_id == self._game

    def _adopt_game(self, now: int) -> None:
        """The board's game becomes the remote game: the stored one if the
        board resumed it, else the game as the board stands (tagged)."""
        c = self.controller
        if c.game_id is not None and c.store.game(c.game_id).event != event_of(self.name):
            if c.moves:     # another game on the board: left stored, the remote game set up
                self._events += c.new_game(now, None, True, c.variant)
            if c.game_id is not None:
                try:
                    c.store.set_event(c.game_id, event_of(self.name))
                except (sqlite3.Error, OSError) as exc:
                    self._events.append({"type": "error", "text": f"Cannot mark the remote game: {exc}"})
        self._game = c.game_id
        start = c.position.copy()
        while start.move_stack:
            start.pop()
        self._start = start.fen()
        self._line_pos = start
        self.line = []
        for text in c.moves:
            self._line_pos.push(text)
            self.line.append(w.Entry(text, None))
        clocks = c.clocks
        if self.line and clocks is not None:
            mover = "black" if c.position.turn == WHITE else "white"
            self.line[-1] = w.Entry(self.line[-1].move, clocks[mover])
        self._events.append({"type": "remote_game", "game": self.public, "side": self.side})

    def _start_fen(self) -> str:
        """The start of the game (kept when the game was taken on)."""
        return self._start

    def _to_make(self) -> w.Entry | None:
        """The agreed move the board must make next (the other's, or its
        own again after a take-back was declined), if any."""
        c = self.controller
        n = len(c.moves)
        if not self.active or c.mode != "play" or n >= len(self.line) or self._my_ask is not None:
            return None
        return self.line[n]

    def _position_move(self, entry: w.Entry):
        try:
            return self.controller.position.parse_move(entry.move)
        except (MoveError, ValueError):
            return None

    # ================================================================ each call
    def after(self, now: int, events: list[dict]) -> list[dict]:
        self._now = max(self._now, now)
        out = list(events)
        c = self.controller
        if self.peer is not None and self._game is None and c.game_id is not None and c.mode in ("play", "sync"):
            self._adopt_game(self._now)     # set-up is over: the remote game begins
        if self.active:
            out += self._check_local(events)
            out += self._receive()
            out += self._apply_their_end()
        if self._note is not None and self._note[1] <= self._now:
            self._note = None
        if self.active:
            self._publish()
        pending, self._events = self._events, []
        return self.reframed(out + pending)


    def _say(self, text: str, short: str) -> None:
        self._note = (text, self._now + NOTE_MS, short)

    # ---------------------------------------------------------------- what the board did
    def _check_local(self, events: list[dict]) -> list[dict]:
        out: list[dict] = []
        for event in events:
            kind = event.get("type")
            if event.get("agreed"):
                continue    # the layer's own doing (an answer given from MENU)
            if kind == "move":
                out += self._local_move(event)
            elif kind == "takeback":
                out += self._local_takeback()
            elif kind == "game_end":
                out += self._local_end(event)
        return out

    def _local_move(self, event: dict) -> list[dict]:
        c = self.controller
        ply = len(c.moves) - 1
        if ply < 0 or c.moves[ply] != event["move"]:
            return []
        if ply < len(self.line):
            if self.line[ply].move == event["move"]:
                return []
            expected = self.line[ply]
            words = self._words_of(expected)
            self._say(f"Not the remote move. Put it back, then play {words}.", "Not the remote move!")
            return [{"type": "remote_refused", "why": f"the board played {event['move']}, "
                                                      f"the game's move is {expected.move}"}] + \
                agreed(self.controller.take_back(self._now))
        mover = -c.position.turn
        if mover != self.me or self._my_ask is not None:
            waiting = "the answer" if self._my_ask is not None else "the remote move"
            self._say(f"Wait for {waiting}. Put the piece back.", "Wait for remote!")
            return agreed(self.controller.take_back(self._now))
        clocks = event.get("clocks")
        return self._extend(w.Entry(event["move"], clocks.get(self.side) if isinstance(clocks, dict) else None))

    def _extend(self, entry: w.Entry) -> list[dict]:
        """The line goes on by ``entry``; a question of the other's still open is answered no by it."""
        assert self._line_pos is not None
        self._line_pos.push(entry.move)
        self.line.append(entry)
        if self._their_ask is None:
            return []
        self._forget_ask_note()
        return self._decline()

    def _forget_ask_note(self) -> None:
        """The note of the other's question goes with the question."""
        if self._note is not None and self._note[2].startswith("Asked:"):
            self._note = None

    def _truncate(self, plies: int) -> None:
        assert self._line_pos is not None
        while len(self.line) > plies:
            self.line.pop()
            self._line_pos.pop()

    def _local_takeback(self) -> list[dict]:
        """The player took a move back: asked of the other player."""
        n = len(self.controller.moves)
        if n >= len(self.line):
            return []
        to = n if self._my_ask is None or self._my_ask.what != "takeback" else min(n, self._my_ask.to)
        return self._ask("takeback", to)

    def _local_end(self, event: dict) -> list[dict]:
        """The game ended on this board by itself (its own flag, the rules):
        told to the other board. (Resignations and draws never end here
        alone: MENU's are routed to :meth:`_agreement`.)"""
        self._end = w.Ending(str(event.get("result")), str(event.get("reason")), len(self.controller.moves))
        return []

    def _agreement(self, what: str, side: int, now: int) -> list[dict]:
        """MENU's "Resign White?" and "Agree draw?" in a remote game: asked
        of the other player, never ended here alone."""
        if not self.active:
            c = self.controller    # the board plays another game now: as MENU always does
            if what == "draw":
                return c.end_game(c.position.variant.draw_result, "agreement", now)
            return c.end_game("0-1" if side == WHITE else "1-0", "resignation", now)
        if what == "resign" and side != self.me:
            self._say("Only the other player can resign their side.", "Not your side!")
            return []
        return self._ask(what, len(self.line))

    def _ask(self, what: str, to: int) -> list[dict]:
        self._ask_ids += 1
        self._my_ask = w.Ask(self._ask_ids, what, len(self.line), to)
        self._say(f"Asked the other player: {WHAT[what]}.", f"Asked: {WHAT[what]}")
        return [{"type": "remote_ask", "what": what, "by": "us"}]
