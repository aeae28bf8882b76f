"""What a broadcast message may hold, checked before the dashboard keeps it.

Every byte from the broker is hostile. A payload is decoded by msgspec into
typed, size-bounded structures (types, lengths, LED states from the board's
fixed list, tags as strings), then checked against the game it claims to
be: its squares are squares of that game's board, its FENs parse and its
moves are legal, replayed by the engine. Anything else is a ``BadMessage``
(a ValueError) saying what is wrong; the dashboard drops and counts it.
Fields this version does not know are ignored and not kept (a newer board
may say more).
"""
from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta, Struct

from maxima_board.rules import Position, variants
from maxima_board.rules.notation import FenError, MoveError
from maxima_board.devices.boards import BOARDS
from maxima_board.devices.interfaces import LED_STATES

MAX_MESSAGE = 256 * 1024     # bytes of one payload (a 2,000-ply game is about 60 kB)
MAX_PLIES = 2000
# A piece standing on a board square the game does not use is lit as an error.
BOARD_SQUARES = frozenset().union(*(kind.squares for kind in BOARDS.values()))

VariantName = Literal[tuple(v.name for v in variants.all_variants())]   # type: ignore[misc]
Side = Literal["white", "black"]
LedState = Literal[LED_STATES]                                          # type: ignore[valid-type]
ResultText = Literal["*", "1-0", "0-1", "1/2-1/2", "1/2"]
Square = Annotated[str, Meta(pattern=r"^[a-z][0-9]{1,2}$")]
# one line of text: no control characters but tab (a newline would end a PGN tag line)
Short = Annotated[str, Meta(max_length=64, pattern=r"^[^\x00-\x08\x0a-\x1f\x7f]*$")]
Text = Annotated[str, Meta(max_length=500, pattern=r"^[^\x00-\x08\x0a-\x1f\x7f]*$")]
Fen = Annotated[str, Meta(min_length=1, max_length=400)]
Millis = Annotated[int, Meta(ge=0, le=10**14)]
Count = Annotated[int, Meta(ge=0, le=2**53)]
GameNo = Annotated[int, Meta(ge=1, le=2**53)]
TagName = Annotated[str, Meta(pattern=r"^[A-Za-z][A-Za-z0-9_]{0,31}$")]
Tags = Annotated[dict[TagName, Text], Meta(max_length=32)]
Moves = Annotated[list[Annotated[str, Meta(min_length=1, max_length=80)]], Meta(max_length=MAX_PLIES)]


class BadMessage(ValueError):
    """A message the dashboard does not keep; the text says why."""


class Last(Struct):
    from_: Square | None = msgspec.field(default=None, name="from")
    to: Square | None = None


class Clocks(Struct):
    white: Millis
    black: Millis
    running: Side | None = None


class Status(Struct):
    online: bool
    boot: Count = 0          # the start that says so (a last will may come late)
    at: Millis | None = None


class State(Struct):
    """A table's ``state`` (maxima_board.club.topics.state_payload)."""

    fen: Fen
    turn: Side
    game: GameNo | None = None
    variant: VariantName = "maxima"
    title: Short = "Maxima"
    club: Short | None = None
    table: Short | None = None
    tags: Tags = {}
    start_fen: Fen | None = None
    moves: Moves = []
    sans: Moves = []
    last: Last | None = None
    leds: Annotated[dict[Square, LedState], Meta(max_length=200)] = {}
    mode: Short | None = None
    result: ResultText | None = None
    reason: Text | None = None
    clocks: Clocks | None = None
    link_ok: bool | None = None
    boot: Count = 0          # the board's start count (persisted): orders states across restarts
    seq: Count = 0           # increasing within one start
    at: Millis | None = None  # the board's wall clock: shown, never trusted for order

    @property
    def order(self) -> tuple[int, int]:
        return (self.boot, self.seq)


class Record(Struct):
    """A ``games/<n>`` record (maxima_board.club.topics.game_record)."""

    game: GameNo
    start_fen: Fen
    variant: VariantName = "maxima"
    title: Short = "Maxima"
    tags: Tags = {}
    moves: Moves = []
    result: ResultText | None = None
    reason: Text | None = None


_DECODERS = {kind: msgspec.json.Decoder(cls) for kind, cls in
             (("state", State), ("status", Status), ("games", Record))}


def decode(kind: str, payload: bytes) -> State | Status | Record:
    """The typed message of topic kind ``kind``; BadMessage if it does not fit."""
    if len(payload) > MAX_MESSAGE:
        raise BadMessage(f"{len(payload)} bytes (at most {MAX_MESSAGE})")
    try:
        return _DECODERS[kind].decode(payload)
    except msgspec.ValidationError as exc:
        raise BadMessage(str(exc)) from None
    except msgspec.DecodeError as exc:
        raise BadMessage(f"not JSON: {exc}") from None


def replay(variant: str, start_fen: str | None, moves: list[str],
           known: tuple[str, str, tuple[str, ...], str] | None = None) -> Position:
    """The position after ``moves`` from ``start_fen``, every move parsed and
    checked by the engine. ``known``: (variant, start FEN, moves, FEN after
    them) of an earlier replay of the same game; only the moves since are
    replayed, from that FEN (a Position with its history takes far more
    memory than a table is worth: about 600 kB after 40 plies)."""
    start = start_fen or variants.get(variant).start_fen
    try:
        if known is not None and known[0] == variant and known[1] == start \
                and tuple(moves[:len(known[2])]) == known[2]:
            position, done = Position(known[3], variant), len(known[2])
        else:
            position, done = Position(start, variant), 0
    except FenError as exc:
        raise BadMessage(f"start_fen: {exc}") from None
    for i in range(done, len(moves)):
        try:
            position.push(position.parse_move(moves[i]))
        except (MoveError, ValueError) as exc:
            raise BadMessage(f"move {i + 1} {moves[i]!r}: {exc}") from None
    return position


def check_state(state: State, table: str, known=None) -> Position:
    """BadMessage unless ``state`` is a sound state of ``table``: its squares
    on the game's board, its moves legal from its start and leading to its
    FEN. Returns the position after its moves (for ``known`` of the next check)."""
    position = check_state_shape(state, table)
    replayed = replay(state.variant, state.start_fen, state.moves, known)
    if replayed.fen() != position.fen():
        raise BadMessage("fen: not the position the moves lead to")
    return replayed


def check_state_shape(state: State, table: str) -> Position:
    """``check_state`` but for its moves (the costly part): BadMessage
    unless its table, labels, FEN and squares are sound; the position of
    its FEN."""
    if state.table is not None and state.table != table:
        raise BadMessage(f"table {state.table!r} in the topic of table {table!r}")
    if len(state.sans) != len(state.moves) or any(
            not label.endswith(move) for label, move in zip(state.sans, state.moves)):
        raise BadMessage("sans: not the moves with their piece letters")
    try:
        position = Position(state.fen, state.variant)
    except FenError as exc:
        raise BadMessage(f"fen: {exc}") from None
    names = set(position.geometry.names)
    bad = [sq for sq, led in state.leds.items()
           if sq not in names and not (led == "error-extra" and sq in BOARD_SQUARES)]
    if state.last is not None:
        bad += [sq for sq in (state.last.from_, state.last.to) if sq is not None and sq not in names]
    if bad:
        raise BadMessage(f"square {bad[0]!r} is not on the board of {state.variant}")
    return position


def check_record(record: Record, number: int) -> Position:
    """BadMessage unless ``record`` is a sound record of game ``number``."""
    if record.game != number:
        raise BadMessage(f"game {record.game} in the topic of game {number}")
    return replay(record.variant, record.start_fen, record.moves)


def to_dict(message: Struct) -> dict:
    """The message as plain JSON-able data (the field names as sent)."""
    return msgspec.to_builtins(message)
