"""Move primitives of Optima's plain movers (O3, O7, O8, O12.1-O12.7, O12.12 moves).

Each primitive is data plus ``gen(T, b, c, s, emit)`` (see :mod:`.tables`).
"""
from __future__ import annotations

from ..geometry import ALL_DIRECTIONS, DIAGONAL, ORTHOGONAL

ORTH, DIAG, ALL = ORTHOGONAL, DIAGONAL, ALL_DIRECTIONS
W_LEAPS = ((0, 1), (1, 0), (0, -1), (-1, 0))
F_LEAPS = ((1, 1), (1, -1), (-1, -1), (-1, 1))
K_LEAPS = W_LEAPS + F_LEAPS
N_LEAPS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))


class Leap:
    """O3 leap by ``vectors``; ``capture``: replacement on an enemy at the end."""

    def __init__(self, vectors, capture: bool = True):
        self.vectors = tuple(vectors)
        self.capture = capture

    def gen(self, T, b, c, s, emit) -> None:
        for t in T.leaps(self.vectors)[s]:
            v = b[t] * c
            if v == 0:
                emit(t)
            elif v < 0 and self.capture:
                emit(t, (t,))


class Slide:
    """O3 slide along ``dirs`` up to ``range`` squares (None: unlimited);
    ``capture``: replacement on the first occupied square when it is an enemy."""

    def __init__(self, dirs, range: int | None = None, capture: bool = True):
        self.dirs = tuple(dirs)
        self.range = range
        self.capture = capture

    def gen(self, T, b, c, s, emit) -> None:
        rays = T.rays[s]
        for d in self.dirs:
            ray = rays[d] if self.range is None else rays[d][:self.range]
            for t in ray:
                v = b[t] * c
                if v == 0:
                    emit(t)
                    continue
                if v < 0 and self.capture:
                    emit(t, (t,))
                break
