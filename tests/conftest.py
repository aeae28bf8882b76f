"""Helpers for the rules tests: readable hand-made positions.

    pos({"e1": "K", "e9": "k", "d4": "Q"}, "w")

builds the FEN of M14 from a {square: letter} dict (upper case White, lower
case Black) and returns the Position; ``fen_of`` returns only the FEN.
"""
from __future__ import annotations

from maxima_board.rules import MAXIMA, Position

GEOMETRY = MAXIMA.geometry
FILES = "abcdefgh"


def fen_of(pieces: dict[str, str], turn: str = "w", ply: int = 0) -> str:
    """The FEN (M14) of the position with ``pieces`` and ``turn`` to move."""
    for name in pieces:
        GEOMETRY.square(name)  # a typo in a test should fail loudly
    rows = []
    for rank in range(10, -1, -1):
        row, run = "", 0
        for file in range(8):
            name = f"{FILES[file]}{rank}"
            if not GEOMETRY.exists(file, rank):
                row += (str(run) if run else "") + "x"
                run = 0
            elif name in pieces:
                row += (str(run) if run else "") + pieces[name]
                run = 0
            else:
                run += 1
        rows.append(row + (str(run) if run else ""))
    return f"{'/'.join(rows)} {turn} {ply}"


def pos(pieces: dict[str, str], turn: str = "w", *, validate: bool = True) -> Position:
    return Position(fen_of(pieces, turn), validate=validate)


def sq(name: str) -> int:
    return GEOMETRY.square(name)


def names(squares) -> list[str]:
    return [GEOMETRY.names[s] for s in squares]


def legal(position: Position) -> list[str]:
    """The legal moves as canonical strings."""
    return [str(m) for m in position.legal_moves]


def moves_from(position: Position, square: str) -> set[str]:
    """The legal moves of the piece on ``square``."""
    s = sq(square)
    return {str(m) for m in position.legal_moves if m.from_square == s}


def pseudo_from(position: Position, square: str, color: int | None = None) -> set[str]:
    """The moves of the piece on ``square`` by movement rules alone (no M11/M12)."""
    s = sq(square)
    c = position.turn if color is None else color
    raw = position._rules.pseudo_moves(position.board, c, position.kings)
    return {str(position._move(m)) for m in raw if m[0] == s}


def targets(moves: set[str]) -> set[str]:
    """The destinations of canonical moves (``S`` for a suicide)."""
    return {m.split("-")[1].split("x")[0] for m in moves}
