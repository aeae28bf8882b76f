"""Helpers for the Optima tests: a toy game of the family whose units have
simple moves (units are data: a Variant with other unit data is another game).

The toy game lets the core tests (O6, O13, properties) play movement-phase
moves whatever the state of the real unit definitions: VR steps like a king,
QU slides like a queen, AR slides like a rook and captures two squares
beyond (a shot, t == s), CR swaps with an adjacent enemy (O11), PN steps
forward and promotes on the last rank (O7).
"""
from __future__ import annotations

import dataclasses

from maxima_board.rules.geometry import ALL_DIRECTIONS, ORTHOGONAL
from maxima_board.rules.optima.movers import Leap, Slide
from maxima_board.rules.pieces import KING_STEPS
from maxima_board.rules.optima.tables import PROMOTE, SWAP
from maxima_board.rules.variants.optima import OPTIMA, OPTIMA_9X9, UNITS


class Shot:
    """Remove an enemy two squares away orthogonally, staying on s (t == s)."""

    def unit_moves(self, T, b, c, s, emit):
        for d in ORTHOGONAL:
            ray = T.rays[s][d]
            if len(ray) >= 2 and b[ray[1]] * c < 0:
                emit(s, (ray[1],))


class Swap:
    """Swap-convert an adjacent enemy (O11: loyal untouched, royal captured)."""

    def unit_moves(self, T, b, c, s, emit):
        for t in T.neighbours[s]:
            if b[t] * c < 0:
                caps, convs = T.convert(b, c, (t,))
                if convs:
                    emit(t, (), convs, SWAP)
                elif caps:
                    emit(t, caps)


class PawnStep:
    """One square forward (or capture diagonally forward); promotes on the last rank."""

    def unit_moves(self, T, b, c, s, emit):
        n = T.n
        f, r = T.file_of[s], T.rank_of[s]
        last = n if c > 0 else 1
        t = T.at(f, r + c)
        if t >= 0 and not b[t]:
            emit(t, (), (), PROMOTE if r + c == last else 0)
        for df in (-1, 1):
            t = T.at(f + df, r + c)
            if t >= 0 and b[t] * c < 0:
                emit(t, (t,), (), PROMOTE if r + c == last else 0)
        # the same destination twice: O6 says it is one move
        t = T.at(f, r + c)
        if t >= 0 and not b[t]:
            emit(t, (), (), PROMOTE if r + c == last else 0)


TOY_MOVES = {"VR": (Leap(KING_STEPS),), "QU": (Slide(ALL_DIRECTIONS),), "AR": (Slide(ORTHOGONAL), Shot()),
             "CR": (Leap(KING_STEPS, replace=False), Swap()), "PN": (PawnStep(),), "WI": (Slide(ALL_DIRECTIONS),)}
TOY_UNITS = tuple(dataclasses.replace(u, moves=TOY_MOVES.get(u.token, ())) for u in UNITS)
TOY = dataclasses.replace(OPTIMA, name="optima-toy", title="Optima (toy units)", summary="test only",
                          units=TOY_UNITS)
TOY_9X9 = dataclasses.replace(OPTIMA_9X9, name="optima-toy-9x9", title="Optima 9x9 (toy units)",
                              summary="test only", units=TOY_UNITS)
