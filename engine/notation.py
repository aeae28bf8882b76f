"""FEN and canonical move strings (M14)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from .geometry import FILE_LETTERS, Geometry
from .variant import BLACK, LETTER_CODES, PIECE_LETTERS, WHITE, Variant


class FenError(ValueError):
    """A FEN that cannot be read or describes a position M15 rejects."""


class MoveError(ValueError):
    """A move string that cannot be read, or a move that is not legal."""


@dataclass(frozen=True, slots=True)
class Move:
    """A move: ``from_square`` to ``to_square`` (None for a suicide), with
    every captured square in rank-then-file order. Squares are indices of the
    variant's geometry; ``str(move)`` is the canonical form of M14."""

    from_square: int
    to_square: int | None
    captures: tuple[int, ...] = ()
    geometry: Geometry | None = field(default=None, compare=False, repr=False)

    @property
    def kind(self) -> str:
        """``"suicide"``, ``"replacement"`` (the mover lands on a captured
        piece) or ``"move"``."""
        if self.to_square is None:
            return "suicide"
        if self.to_square in self.captures:
            return "replacement"
        return "move"

    def canonical(self, geometry: Geometry | None = None) -> str:
        g = geometry or self.geometry
        if g is None:
            raise ValueError("a Move without geometry needs one to be written")
        names = g.names
        if self.to_square is None:
            return f"{names[self.from_square]}-S"
        text = f"{names[self.from_square]}-{names[self.to_square]}"
        if self.captures:
            text += "x" + ",".join(names[c] for c in self.captures)
        return text

    def __str__(self) -> str:
        return self.canonical()

    def __repr__(self) -> str:
        if self.geometry is None:
            return f"Move({self.from_square}, {self.to_square}, {self.captures})"
        return f"Move({self.canonical()!r})"


_MOVE_RE = re.compile(r"^([a-z]\d{1,2})-(?:(S)|([a-z]\d{1,2})(?:x([a-z]\d{1,2}(?:,[a-z]\d{1,2})*))?)$")


def parse_move(text: str, geometry: Geometry) -> Move:
    """Read a canonical move; a leading piece letter (``Qd1-d4``) is allowed."""
    raw = text.strip()
    body = raw[1:] if raw[:1].isalpha() and raw[:1].upper() == raw[:1] and len(raw) > 1 else raw
    m = _MOVE_RE.match(body)
    if not m:
        raise MoveError(f"not a move: {raw!r} (expected FROM-TO, FROM-TOxC1,C2 or FROM-S)")
    try:
        frm = geometry.square(m.group(1))
        if m.group(2):
            return Move(frm, None, (), geometry)
        to = geometry.square(m.group(3))
        caps = tuple(sorted(geometry.square(x) for x in m.group(4).split(","))) if m.group(4) else ()
    except ValueError as exc:
        raise MoveError(f"{exc} in move {raw!r}") from None
    if len(set(caps)) != len(caps):
        raise MoveError(f"a square is captured twice in move {raw!r}")
    return Move(frm, to, caps, geometry)


# ASCII only: str.isdigit() also accepts '²' or '٣', which int() rejects or
# reads into a FEN that no longer round-trips (M14).
_DIGITS = "0123456789"
_PLIES_RE = re.compile(r"0|[1-9][0-9]{0,6}")
MAX_PLIES = 1_000_000   # far beyond any game; a bigger half-move number is a typo


def parse_fen(fen: str, variant: Variant) -> tuple[list[int], int, int]:
    """Board, side to move and half-move number of a FEN; checks syntax only
    (M14). ``FenError`` names what is wrong."""
    g = variant.geometry
    if not isinstance(fen, str):
        raise FenError("FEN must be text")
    parts = fen.split()
    if len(parts) != 3:
        raise FenError(f"FEN needs 3 fields (rows, side to move, half-moves), got {len(parts)}")
    rows_text, side, plies = parts
    rows = rows_text.split("/")
    ranks = list(reversed(g.ranks))
    if len(rows) != len(ranks):
        raise FenError(f"FEN has {len(rows)} rows, expected {len(ranks)}")
    board = [0] * g.size
    for row, rank in zip(rows, ranks):
        file = 0
        previous_digit = False
        for ch in row:
            if file >= g.files:
                raise FenError(f"row for rank {rank} is too long: {row!r}")
            if ch in _DIGITS:
                if previous_digit:
                    raise FenError(f"two digits in a row in rank {rank}: {row!r}")
                run = int(ch)
                if run == 0:
                    raise FenError(f"empty run of 0 in rank {rank}: {row!r}")
                for f in range(file, file + run):
                    if f >= g.files:
                        raise FenError(f"row for rank {rank} is too long: {row!r}")
                    if not g.exists(f, rank):
                        raise FenError(f"rank {rank}: cell {FILE_LETTERS[f]}{rank} does not exist and must be 'x'")
                file += run
                previous_digit = True
                continue
            previous_digit = False
            exists = g.exists(file, rank)
            if ch == "x":
                if exists:
                    raise FenError(f"rank {rank}: 'x' on square {g.names[g.at(file, rank)]}, which exists")
            elif ch.lower() in LETTER_CODES:
                if not exists:
                    raise FenError(f"rank {rank}: piece {ch!r} on cell {FILE_LETTERS[file]}{rank}, which does not exist")
                code = LETTER_CODES[ch.lower()]
                board[g.at(file, rank)] = code if ch.isupper() else -code
            else:
                raise FenError(f"unknown letter {ch!r} in rank {rank}: {row!r}")
            file += 1
        if file != g.files:
            raise FenError(f"row for rank {rank} has {file} cells, expected {g.files}: {row!r}")
    if side not in ("w", "b"):
        raise FenError(f"side to move must be 'w' or 'b', got {side!r}")
    if not _PLIES_RE.fullmatch(plies) or int(plies) > MAX_PLIES:
        shown = repr(plies) if len(plies) <= 24 else f"{plies[:24]!r}... ({len(plies)} characters)"
        raise FenError(f"half-move number must be a whole number from 0 to {MAX_PLIES} "
                       f"(digits 0-9, no leading zero), got {shown}")
    return board, WHITE if side == "w" else BLACK, int(plies)


def format_fen(board: list[int], turn: int, plies: int, variant: Variant) -> str:
    g = variant.geometry
    rows = []
    for rank in reversed(g.ranks):
        out = []
        run = 0
        for file in range(g.files):
            sq = g.at(file, rank)
            if sq >= 0 and board[sq] == 0:
                run += 1
                continue
            if run:
                out.append(str(run))
                run = 0
            if sq < 0:
                out.append("x")
            else:
                v = board[sq]
                letter = PIECE_LETTERS[abs(v)]
                out.append(letter.upper() if v > 0 else letter)
        if run:
            out.append(str(run))
        rows.append("".join(out))
    return f"{'/'.join(rows)} {'w' if turn == WHITE else 'b'} {plies}"
