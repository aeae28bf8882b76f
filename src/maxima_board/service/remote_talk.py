"""What a remote game's board hears and says: the other board's messages
checked and taken (moves, questions, answers, its end), the player's
answers, and this board's own message (``maxima_board.service.remote_wire``).
A part of :class:`maxima_board.service.remote_layer.RemoteLayer`, split
off by concern; it works on the layer's state."""
from __future__ import annotations

import logging
from typing import Callable, Protocol

import msgspec

from maxima_board.rules import WHITE, MoveError, Position

from . import remote_wire as w
from .stack import GameStack

log = logging.getLogger("maxima_board.remote")

WHAT = {"takeback": "take-back", "draw": "draw", "resign": "resignation"}


class Peer(Protocol):
    """Where the other side's messages come from and ours go: bytes only."""

    def publish(self, payload: bytes) -> None: ...
    def received(self) -> list[bytes]: ...
    def set_waker(self, wake: Callable[[], None]) -> None: ...


class RemoteStack(GameStack, Protocol):
    """The controller as the layer uses it (``maxima_board.board.core.Controller``)."""

    def judge_flags(self, sides: frozenset[int] | None) -> None: ...
    def carry_clock(self, ply: int, move: str, ms: int) -> None: ...
    def route_agreements(self, route: Callable[[str, int, int], list] | None) -> None: ...
    def end_game(self, result: str, reason: str, now_ms: int) -> list[dict]: ...
    def take_back(self, now_ms: int) -> list[dict]: ...


class RemoteTalk:
    """The messages of :class:`~maxima_board.service.remote_layer.RemoteLayer`."""

    controller: RemoteStack
    peer: Peer
    side: str
    them: str
    me: int
    public: str
    line: list[w.Entry]
    _key: bytes
    _now: int
    _boot: int
    _seen: tuple[int, int] | None
    _their_n: int
    _my_ask: w.Ask | None
    _their_ask: w.Ask | None
    _answer: w.Answer | None
    _answered: set[int]
    _end: w.Ending | None
    _their_end: w.Ending | None
    _sent: w.State | None
    _line_pos: Position | None
    _events: list[dict]

    # ---------------------------------------------------------------- what the other board said
    def _receive(self) -> list[dict]:
        out: list[dict] = []
        for data in self.peer.received():
            try:
                state = w.decode(data, self._key, self.them)
            except w.WireError as exc:
                out.append(self._refuse(f"a message: {exc}"))
                continue
            if self._seen is not None and state.order <= self._seen:
                continue    # seen already, or older: counts once
            taken = self._take(state)
            if not any(e.get("type") == "remote_refused" for e in taken):
                self._seen = state.order     # a refused one does not hide what the other says next
            out += taken
        return out

    def _refuse(self, why: str) -> dict:
        log.warning("remote game %s: refused %s", self.public, why)
        return {"type": "remote_refused", "why": why}

    def _take(self, s: w.State) -> list[dict]:
        out: list[dict] = []
        if not self._same_game(s):
            if not self._adopt_theirs(s):
                return [self._refuse(f"the other board plays {s.variant} from {s.start}")]
        out += self._take_answer(s.answer)
        for i, entry in enumerate(s.moves):
            ply = s.base + i
            if ply < len(self.line):
                if self.line[ply].move != entry.move:
                    return out + [self._refuse(f"move {ply + 1} {entry.move}: the game has {self.line[ply].move}")]
                continue
            if ply > len(self.line):
                break
            out += self._their_move(ply, entry)
            if len(self.line) != ply + 1:
                return out
        self._their_n = min(s.n, len(self.line))   # what it has of the game: our moves from there on go out
        out += self._take_ask(s.ask)
        if s.end is not None and self._their_end is None:
            self._their_end = s.end
        return out

    def _same_game(self, s: w.State) -> bool:
        c = self.controller
        return (s.variant == c.variant and s.start == self._start_fen()
                and (s.control or None) == (c.time_control or None))

    def _adopt_theirs(self, s: w.State) -> bool:
        """Black plays the game White's board set: before any move, the
        board starts it (set up anew)."""
        c = self.controller
        if self.side != "black" or self.line or c.moves:
            return False
        try:
            Position(s.start, s.variant)
            c.set_time_control(s.control or "none")
        except (ValueError, KeyError):
            return False
        self._events += c.new_game(self._now, s.start, True, s.variant)
        self._adopt_game(self._now)
        return self._same_game(s)

    def _their_move(self, ply: int, entry: w.Entry) -> list[dict]:
        """The next move of the game from the other board: theirs, or one of
        ours it holds that this board no longer does (it restarted after
        taking it back, its question lost): made again on the board."""
        assert self._line_pos is not None
        ours = self._line_pos.turn == self.me
        if self._line_pos.outcome() is not None or self.controller.result != "*":
            return [self._refuse(f"move {ply + 1} {entry.move}: the game is over")]
        try:
            move = self._line_pos.parse_move(entry.move)
        except (MoveError, ValueError) as exc:
            return [self._refuse(f"move {ply + 1} {entry.move}: {'not their turn' if ours else exc}")]
        if ours:
            if str(move) != entry.move:
                return [self._refuse(f"move {ply + 1} {entry.move}: not their turn")]
            return self._extend(entry)
        if str(move) != entry.move:
            return [self._refuse(f"move {ply + 1} {entry.move}: not in canonical form")]
        out: list[dict] = []
        ask = self._my_ask
        if ask is not None and ask.what == "draw":     # a move answers an offer: no
            self._my_ask = None
            out.append({"type": "remote_answer", "what": ask.what, "yes": False, "by": "them"})
        out += self._extend(entry)
        if entry.ms is not None:
            self.controller.carry_clock(ply, entry.move, entry.ms)
        return out + [{"type": "remote_move", "move": entry.move}]

    def _take_ask(self, ask: w.Ask | None) -> list[dict]:
        if ask is None:
            if self._their_ask is not None:
                self._their_ask = None     # withdrawn
                self._forget_ask_note()
            return []
        if ask.id in self._answered or (self._their_ask is not None and self._their_ask.id == ask.id):
            return []
        if ask.at != len(self.line) or self.controller.result != "*":
            self._answer = w.Answer(ask.id, False)      # the game has moved on since
            self._answered.add(ask.id)
            return []
        if ask.what == "resign":
            self._answered.add(ask.id)
            self._answer = w.Answer(ask.id, True)
            loser = WHITE if self.them == "white" else -WHITE
            return [{"type": "remote_answer", "what": "resign", "yes": True, "by": "us"}] + \
                self._end_here("0-1" if loser == WHITE else "1-0", "resignation")
        self._their_ask = ask
        self._say(f"The other player asks: {WHAT[ask.what]}. MENU to answer.", f"Asked: {WHAT[ask.what]}?")
        return [{"type": "remote_ask", "what": ask.what, "by": "them"}]

    def _take_answer(self, answer: w.Answer | None) -> list[dict]:
        ask = self._my_ask
        if answer is None or ask is None or answer.id != ask.id:
            return []
        self._my_ask = None
        out = [{"type": "remote_answer", "what": ask.what, "yes": answer.yes, "by": "them"}]
        if not answer.yes:
            self._say(f"The other player declined the {WHAT[ask.what]}.", "Declined")
            return out
        if ask.what == "takeback":
            return out + self._go_back(ask.to)
        if ask.what == "draw":
            return out + self._end_here(self.controller.position.variant.draw_result, "agreement")
        loser = self.me
        return out + self._end_here("0-1" if loser == WHITE else "1-0", "resignation")

    def _go_back(self, plies: int) -> list[dict]:
        """The line goes back to ``plies`` moves, and so does the board."""
        self._truncate(plies)
        out: list[dict] = []
        c = self.controller
        while len(c.moves) > plies:
            before = len(c.moves)
            out += agreed(c.take_back(self._now))
            if len(c.moves) == before:
                break
        return out

    def _end_here(self, result: str, reason: str) -> list[dict]:
        c = self.controller
        if c.result != "*":
            return []
        return agreed(c.end_game(result, reason, self._now))

    def _apply_their_end(self) -> list[dict]:
        """The other board's end (its flag), once this board has every move before it."""
        end = self._their_end
        c = self.controller
        if end is None or c.result != "*" or len(c.moves) < end.at or len(self.line) != end.at:
            return []
        return self._end_here(end.result, end.reason)

    # ---------------------------------------------------------------- answering
    def _accept(self, now: int) -> list[dict]:
        ask = self._their_ask
        if ask is None:
            return []
        self._their_ask = None
        self._answered.add(ask.id)
        if ask.at != len(self.line):
            self._answer = w.Answer(ask.id, False)
            return []
        self._answer = w.Answer(ask.id, True)
        out = [{"type": "remote_answer", "what": ask.what, "yes": True, "by": "us"}]
        if ask.what == "takeback":
            return out + self._go_back(ask.to)
        return out + self._end_here(self.controller.position.variant.draw_result, "agreement")

    def _decline(self) -> list[dict]:
        ask = self._their_ask
        if ask is None:
            return []
        self._their_ask = None
        self._answered.add(ask.id)
        self._answer = w.Answer(ask.id, False)
        return [{"type": "remote_answer", "what": ask.what, "yes": False, "by": "us"}]

    # ---------------------------------------------------------------- sending
    def _publish(self) -> None:
        c = self.controller
        n = min(len(c.moves), len(self.line))
        base = min(self._their_n, n)
        got = len(self.line) if len(self.line) == n + 1 else n
        state = w.State(self.side, self._boot, 0, c.variant, self._start_fen(), c.time_control,
                        n, got, base, self.line[base:n], self._my_ask, self._answer, self._end)
        if state == self._sent:
            return
        self._sent = state
        self.peer.publish(w.encode(msgspec.structs.replace(state, seq=next(self._sequence)), self._key))


def agreed(events: list[dict]) -> list[dict]:
    """``events`` marked as agreed by both boards (the layer's own take-backs
    and ends), so that they are not taken for the player's own."""
    for event in events:
        if event.get("type") in ("takeback", "game_end"):
            event["agreed"] = True
    return events
