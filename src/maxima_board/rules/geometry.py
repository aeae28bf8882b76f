"""Board geometry as data: squares, names, adjacency, rays and leaps.

Squares are integers ordered by rank, then file, so sorting square indices
gives the order that M14 prescribes for lists of squares.
"""
from __future__ import annotations

from typing import Callable, Iterable

# Directions: the four orthogonal ones first, then the four diagonal ones.
N, E, S, W, NE, SE, SW, NW = range(8)
ORTHOGONAL = (N, E, S, W)
DIAGONAL = (NE, SE, SW, NW)
ALL_DIRECTIONS = ORTHOGONAL + DIAGONAL
VECTORS = ((0, 1), (1, 0), (0, -1), (-1, 0), (1, 1), (1, -1), (-1, -1), (-1, 1))
OPPOSITE = (S, W, N, E, SW, NW, NE, SE)

FILE_LETTERS = "abcdefghijklmnopqrstuvwxyz"


class Geometry:
    """The squares of a board and every precomputed relation between them.

    ``files`` is the number of files; ``ranks`` the rank numbers from bottom to
    top; ``exists(file, rank)`` says whether a cell of that grid is a square.
    """

    def __init__(self, files: int, ranks: Iterable[int], exists: Callable[[int, int], bool]):
        self.files = files
        self.ranks = tuple(ranks)
        self.names: list[str] = []
        self.file_of: list[int] = []
        self.rank_of: list[int] = []
        self._at: dict[tuple[int, int], int] = {}
        for rank in self.ranks:
            for file in range(files):
                if exists(file, rank):
                    self._at[file, rank] = len(self.names)
                    self.names.append(f"{FILE_LETTERS[file]}{rank}")
                    self.file_of.append(file)
                    self.rank_of.append(rank)
        self.size = len(self.names)
        self.index = {name: i for i, name in enumerate(self.names)}
        # grid[file][rank - min_rank] -> square or -1
        low = self.ranks[0]
        self.min_rank = low
        self.grid = [[self._at.get((f, r), -1) for r in range(low, self.ranks[-1] + 1)]
                     for f in range(files)]
        # cells of the grid that are no squares (Maxima's beside its goal squares; a FEN writes them x)
        self.has_holes = any(v < 0 for column in self.grid for v in column)
        self.rays: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
            tuple(self._ray(sq, d) for d in ALL_DIRECTIONS) for sq in range(self.size))
        self.step: tuple[tuple[int, ...], ...] = tuple(
            tuple(ray[0] if ray else -1 for ray in rays) for rays in self.rays)
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(
            tuple(s for s in steps if s >= 0) for steps in self.step)

    def at(self, file: int, rank: int) -> int:
        """The square at (file, rank), or -1 where there is none."""
        return self._at.get((file, rank), -1)

    def exists(self, file: int, rank: int) -> bool:
        return (file, rank) in self._at

    def _ray(self, sq: int, direction: int) -> tuple[int, ...]:
        df, dr = VECTORS[direction]
        f, r = self.file_of[sq] + df, self.rank_of[sq] + dr
        out = []
        while (f, r) in self._at:
            out.append(self._at[f, r])
            f, r = f + df, r + dr
        return tuple(out)

    def leaps(self, vectors: Iterable[tuple[int, int]], wrap_files: bool = False) -> tuple[tuple[int, ...], ...]:
        """For every square, the squares one leap away by any of ``vectors``."""
        vectors = tuple(vectors)
        table = []
        for sq in range(self.size):
            targets = set()
            for df, dr in vectors:
                f = self.file_of[sq] + df
                if wrap_files:
                    f %= self.files
                t = self.at(f, self.rank_of[sq] + dr)
                if t >= 0:
                    targets.add(t)
            table.append(tuple(sorted(targets)))
        return tuple(table)

    def square(self, name: str) -> int:
        """The index of a square name such as ``"d10"``; ValueError if unknown."""
        try:
            return self.index[name]
        except (KeyError, TypeError):
            raise ValueError(f"unknown square {name!r}") from None

    def name(self, sq: int) -> str:
        return self.names[sq]
