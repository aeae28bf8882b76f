"""What two boards of a remote game say to each other: one signed JSON
message per board, the board's whole view of the game in brief.

Each board publishes its :class:`State` (retained, so a board that comes
back reads the other's latest at once) to its side's topic of the game;
every message supersedes the one before, so a message that arrives twice,
late or not at all changes nothing but how soon the other board catches up.

    n      plies this board has played (made on its board and stored)
    got    plies of the game it knows of (n, or n + 1 while the other's
           move waits to be made on its board): the other's acknowledgement
    base   the ply of ``moves[0]``: the moves from the other board's ``n``
           on, which it may lack (with the mover's clock after each, in ms)
    ask    a take-back, a draw offer or a resignation asked of the other
    answer the answer to the other's ask (by its ``id``)
    end    how the game ended here when the other cannot see it (a flag)
    boot, seq  the order of this board's messages (``boot``: its start count)

A message is ``<JSON body>\\n<HMAC-SHA256 of the body, hex>``, keyed by the
game's secret (:func:`game_key`): a board that does not know the secret
cannot write a move the other accepts. :func:`decode` checks the size, the
signature and every field's type and bounds before anything else looks at it.
"""
from __future__ import annotations

import hashlib
import hmac

import msgspec

from .remote_names import NAME, game_id, game_key, new_name

__all__ = ["ASKS", "MAX_BYTES", "MAX_PLIES", "NAME", "SIDES", "Answer", "Ask", "Ending", "Entry", "State",
           "WireError", "decode", "encode", "game_id", "game_key", "new_name"]

MAX_BYTES = 256 * 1024       # below the club broker's max_packet_size (263168)
MAX_PLIES = 4096
SIDES = ("white", "black")
ASKS = ("takeback", "draw", "resign")


class WireError(ValueError):
    """A message that is not a sound, signed :class:`State` (the text says why)."""


class Entry(msgspec.Struct, array_like=True, frozen=True):
    """A move of the game (canonical) and its mover's clock after it (ms; None without a clock)."""

    move: str
    ms: int | None = None


class Ask(msgspec.Struct, frozen=True):
    """``what`` asked of the other board when the game had ``at`` plies;
    a take-back goes back to ``to`` plies."""

    id: int
    what: str
    at: int
    to: int = 0


class Answer(msgspec.Struct, frozen=True):
    id: int
    yes: bool


class Ending(msgspec.Struct, frozen=True):
    result: str
    reason: str
    at: int


class State(msgspec.Struct, frozen=True):
    side: str
    boot: int
    seq: int
    variant: str
    start: str
    control: str | None
    n: int
    got: int
    base: int
    moves: list[Entry]
    ask: Ask | None = None
    answer: Answer | None = None
    end: Ending | None = None
    v: int = 1

    @property
    def order(self) -> tuple[int, int]:
        return (self.boot, self.seq)


def encode(state: State, key: bytes) -> bytes:
    body = msgspec.json.encode(state)
    return body + b"\n" + hmac.new(key, body, hashlib.sha256).hexdigest().encode()


_decoder = msgspec.json.Decoder(State)


def decode(data: bytes, key: bytes, side: str) -> State:
    """The :class:`State` that ``data`` holds, from the board playing
    ``side``; :class:`WireError` when it is too big, unsigned, signed with
    another key, malformed, out of bounds or from the other side."""
    if not isinstance(data, (bytes, bytearray)) or len(data) > MAX_BYTES:
        raise WireError("too big")
    body, sep, mac = bytes(data).rpartition(b"\n")
    if not sep or len(mac) != 64:
        raise WireError("not signed")
    if not hmac.compare_digest(hmac.new(key, body, hashlib.sha256).hexdigest().encode(), mac):
        raise WireError("bad signature")
    try:
        state = _decoder.decode(body)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise WireError(f"malformed: {exc}") from None
    problem = _bounds(state)
    if problem:
        raise WireError(problem)
    if state.side != side:
        raise WireError(f"from {state.side}, expected {side}")
    return state


def _bounds(s: State) -> str | None:
    if s.v != 1:
        return f"version {s.v}"
    if s.side not in SIDES:
        return "unknown side"
    if not (0 <= s.boot < 2 ** 53 and 0 <= s.seq < 2 ** 53):
        return "order out of range"
    if len(s.variant) > 40 or len(s.start) > 400 or (s.control is not None and len(s.control) > 40):
        return "game out of range"
    if not (0 <= s.base <= s.n <= s.got <= s.n + 1 <= MAX_PLIES) or s.base + len(s.moves) != s.n:
        return "plies out of range"
    if any(len(e.move) > 40 or (e.ms is not None and not 0 <= e.ms < 2 ** 40) for e in s.moves):
        return "move out of range"
    if s.ask is not None and (s.ask.what not in ASKS or not 0 <= s.ask.to <= s.ask.at <= MAX_PLIES
                              or not 0 <= s.ask.id < 2 ** 53):
        return "ask out of range"
    if s.answer is not None and not 0 <= s.answer.id < 2 ** 53:
        return "answer out of range"
    if s.end is not None and (len(s.end.result) > 8 or len(s.end.reason) > 40 or not 0 <= s.end.at <= MAX_PLIES):
        return "end out of range"
    return None
