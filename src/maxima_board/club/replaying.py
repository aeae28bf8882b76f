"""A game's moves replayed a slice at a time, from where the last replay of
the same game stopped, and a game record's PGN-style text made from that
one replay (maxima_board.rules.record writes the same text, replaying the
moves once more).

Between slices a cursor keeps only the FEN after the moves done, never a
Position with its history (which takes about 15 kB a ply), so a replay may
pause for another table's turn at little cost.
"""
from __future__ import annotations

from typing import Iterator

from maxima_board.rules import Position, variants
from maxima_board.rules.notation import FenError, MoveError
from maxima_board.rules.record import GameRecord, numbered_label

from .schema import BadMessage

SLICE = 150                  # plies replayed before another table's turn (about 60 ms on a Pi 4)
CLUB_TAG = "Table"           # the club's own tag: which table played the game
# Tags that say which game a record is: taken from the record itself, never from the board's tags.
GAME_TAGS = frozenset(("Variant", "Board", "Forces", "Rules", "FEN", "SetUp", "Result", "Termination", CLUB_TAG))
_PGN_RESULT = {"1/2": "1/2-1/2"}


class Cursor:
    """The replay of one game so far: its ``variant``, ``start`` (the start
    FEN as sent, or the game's own), the ``moves`` replayed and the ``fen``
    after them; with ``words``, also ``movetext``: those moves numbered and
    labelled as a record writes them (space-separated)."""

    __slots__ = ("variant", "start", "moves", "fen", "movetext")

    def __init__(self, variant: str, start_fen: str | None, words: bool = False):
        self.variant = variant
        self.start = start_fen or variants.get(variant).start_fen
        try:
            self.fen = Position(self.start, variant).fen()
        except FenError as exc:
            raise BadMessage(f"start_fen: {exc}") from None
        self.moves: tuple[str, ...] = ()
        self.movetext: str | None = "" if words else None

    def copy(self) -> "Cursor":
        twin = Cursor.__new__(Cursor)
        twin.variant, twin.start, twin.moves, twin.fen, twin.movetext = \
            self.variant, self.start, self.moves, self.fen, self.movetext
        return twin

    def follows(self, variant: str, start_fen: str | None, moves: list[str]) -> bool:
        """Whether ``moves`` of that game begin with the moves replayed here."""
        return variant == self.variant and (start_fen or variants.get(variant).start_fen) == self.start \
            and len(moves) >= len(self.moves) and tuple(moves[:len(self.moves)]) == self.moves

    def steps(self, moves: list[str], per_step: int = SLICE) -> Iterator[None]:
        """Replays the moves of ``moves`` past those done here, every one
        parsed and checked by the engine, yielding after every ``per_step``
        plies (the cursor then holds what is done). BadMessage names the
        first move that is not legal; the cursor stays at the slice before it."""
        done = len(self.moves)
        while done < len(moves):
            position = Position(self.fen, self.variant)
            end = min(len(moves), done + per_step)
            labels = []
            for i in range(done, end):
                try:
                    move = position.parse_move(moves[i])
                except (MoveError, ValueError) as exc:
                    raise BadMessage(f"move {i + 1} {moves[i]!r}: {exc}") from None
                if self.movetext is not None:
                    labels.append(numbered_label(position, move, i == 0))
                position.push(move)
            self.fen, self.moves = position.fen(), tuple(moves[:end])
            if self.movetext is not None:
                self.movetext = " ".join(([self.movetext] if self.movetext else []) + labels)
            done = end
            if done < len(moves):
                yield


def steps_kept(cursor: Cursor, moves: list[str], working: dict, key: object) -> Iterator[None]:
    """``cursor.steps(moves)``; when it does not finish (a newer message of
    its key closed it, or a move was not legal), the cursor waits in
    ``working[key]``, so the next message of the key goes on from it."""
    finished = False
    try:
        yield from cursor.steps(moves)
        finished = True
    finally:
        if not finished:
            working[key] = cursor


def best_cursor(variant: str, start_fen: str | None, moves: list[str], *candidates: Cursor | None,
                words: bool = False) -> Cursor:
    """A cursor to replay ``moves`` from: a copy of the candidate that has
    replayed most of them already, else a new one at the start."""
    fits = [c for c in candidates if c is not None and (c.movetext is not None) == words
            and c.follows(variant, start_fen, moves)]
    if fits:
        return max(fits, key=lambda c: len(c.moves)).copy()
    return Cursor(variant, start_fen, words)


def text_of(table: str, record: dict, cursor: Cursor) -> str:
    """The PGN-style text of ``record`` (a decoded games/<n> message as
    plain data) whose moves ``cursor`` has replayed with words. The game's
    own tags (Variant, and Optima's Board, Forces, Rules) come from the game
    itself; the board's tags (Event, Round, White, ...) cannot replace them;
    the club's own tag ``Table`` names the table."""
    board_tags = {str(k): str(v) for k, v in (record.get("tags") or {}).items() if k not in GAME_TAGS}
    game = GameRecord.from_position(Position(cursor.start, cursor.variant), **board_tags)
    result = record.get("result") or "*"
    game.tags["Result"] = _PGN_RESULT.get(result, result)
    if record.get("reason"):
        game.tags["Termination"] = str(record["reason"])
    game.tags[CLUB_TAG] = table
    return game.text_with([cursor.movetext] if cursor.movetext else [])


def record_text(table: str, record: dict) -> str:
    """A broadcast game record (maxima_board.club.topics.game_record, as
    plain data) as PGN-style text, replayed in one go (``text_of``).
    BadMessage (a ValueError) if the record does not replay."""
    cursor = Cursor(record.get("variant") or "maxima", record.get("start_fen"), words=True)
    for _ in cursor.steps(list(record.get("moves") or []), per_step=1 << 30):
        pass
    return text_of(table, record, cursor)
