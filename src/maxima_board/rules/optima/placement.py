"""The placement phase (O5): what is still to place, who places next, and where.

A :class:`Reserve` is immutable (a placement makes a new one), so a position
keeps it on its undo stack as it is. Codes in a reserve are unsigned unit
codes (type code, ``ROYAL`` bit for a royal unit); the placing side gives the
unit its colour.
"""
from __future__ import annotations

from dataclasses import dataclass

from maxima_board.rules.variants.base import BLACK, WHITE
from .tables import PLACE
from .units import ROYAL, TYPE_MASK

KINDS = ("eq", "u1", "u2")


def set_size(n: int) -> int:
    """Pieces a side gets (O4): 10 on 10x10, 5 on 9x9."""
    return 10 if n == 10 else 5


def side_at(kind: str, i: int) -> int:
    """The side making placement number ``i`` (from 0) under ``kind`` (O5)."""
    if kind == "eq":
        return WHITE if i % 2 == 0 else BLACK
    if i == 0:
        return WHITE
    return BLACK if ((i - 1) // 2) % 2 == 0 else WHITE


def schedule(kind: str, n: int) -> tuple[int, ...]:
    """The sides of every placement of a game of ``kind`` on an n x n board."""
    return tuple(side_at(kind, i) for i in range(2 * set_size(n)))


def royals_first_sides(kind: str, royals: int) -> tuple[int, ...]:
    """u1/u2 (O5): the sides that place the pool's ``royals`` royal units,
    which are the first ``royals`` placements."""
    return tuple(side_at(kind, i) for i in range(royals))


def token_key(code: int, units: dict) -> tuple[str, bool]:
    """Canonical order of a reserve (O15): by letters, plain before royal."""
    return (units[code & TYPE_MASK].token, bool(code & ROYAL))


@dataclass(frozen=True)
class Reserve:
    """The units still to place. ``kind`` is "eq", "u1" or "u2", or "" in the
    movement phase (FEN reserve ``-``). eq: ``white`` and ``black`` are the
    two hands; u1/u2: ``pool`` is shared. Every tuple is in canonical order."""

    kind: str = ""
    white: tuple[int, ...] = ()
    black: tuple[int, ...] = ()
    pool: tuple[int, ...] = ()

    @property
    def left(self) -> int:
        """Units still to place."""
        return len(self.white) + len(self.black) + len(self.pool)

    def __bool__(self) -> bool:
        return self.left > 0

    def source(self, color: int) -> tuple[int, ...]:
        """What ``color`` places from: its hand (eq) or the pool (u1/u2)."""
        if self.kind == "eq":
            return self.white if color == WHITE else self.black
        return self.pool

    def placeable(self, color: int) -> tuple[int, ...]:
        """The distinct codes ``color`` may place now, in canonical order:
        its whole hand (eq), or the pool's royals while it holds one
        (u1/u2, royals first), then any unit of the pool."""
        units = self.source(color)
        if self.kind in ("u1", "u2") and any(code & ROYAL for code in units):
            units = tuple(code for code in units if code & ROYAL)
        out: list[int] = []
        for code in units:
            if not out or out[-1] != code:
                out.append(code)
        return tuple(out)

    def take(self, color: int, code: int) -> "Reserve":
        """The reserve after ``color`` placed a unit ``code`` (which it holds)."""
        units = list(self.source(color))
        units.remove(code)
        rest = tuple(units)
        if self.kind == "eq":
            if color == WHITE:
                return Reserve("eq", rest, self.black)
            return Reserve("eq", self.white, rest)
        return Reserve(self.kind, pool=rest)


def first_rank(n: int, color: int) -> range:
    """Squares of ``color``'s first rank on an n x n board (O1)."""
    start = 0 if color == WHITE else (n - 1) * n
    return range(start, start + n)


def placements(board: list[int], n: int, color: int, reserve: Reserve) -> list[tuple]:
    """Every placement (O5) of ``color``: each placeable unit on each empty
    square of its first rank, as raw moves ``(PLACE, t, (), (), value)``."""
    empty = [t for t in first_rank(n, color) if not board[t]]
    return [(PLACE, t, (), (), color * code) for code in reserve.placeable(color) for t in empty]


def count_placements(board: list[int], n: int, color: int, reserve: Reserve) -> int:
    """``len(placements(...))`` without building the list (perft leaves)."""
    empty = sum(1 for t in first_rank(n, color) if not board[t])
    return empty * len(reserve.placeable(color))
