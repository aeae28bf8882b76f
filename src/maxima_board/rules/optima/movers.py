"""Move primitives of Optima's plain movers (O3, O7, O8, O9.1-O9.4, O12.1-O12.7,
the moves of the O12.12 immobilizers).

Each primitive is data plus ``unit_moves(T, b, c, s, emit)`` (see :mod:`.tables`): for
colour ``c``'s unit on ``s`` of board ``b`` it calls ``emit(t, caps, convs, flags)``
once per way of moving; the generator merges equal moves (O6). A unit is a
tuple of primitive instances; nothing here knows a unit.

Vectors are ``(file step, rank step)`` pairs (O3's (x, y)) and directions
:mod:`maxima_board.rules.geometry`'s N, E, S, W, NE, SE, SW, NW: the vocabulary of
:mod:`maxima_board.rules.pieces` (``KING_STEPS``, ``WAZIR``, ``KNIGHT``, ``ORTH``...),
whose ``Leap`` and ``Slide`` are also Optima's plain leap and slide. O6's "mover lifted off
s": no primitive here reads ``b[s]``; the only line that can run back to
``s`` is the hopper's run of victims (O12.5), which ends there.
"""
from __future__ import annotations

from dataclasses import dataclass
from weakref import WeakKeyDictionary

from maxima_board.rules import pieces
from maxima_board.rules.geometry import VECTORS
from .tables import PROMOTE


def perpendicular(dirs) -> dict[int, tuple[int, ...]]:
    """For each direction of ``dirs``, the directions of ``dirs`` at 90° to it (O3: dot product 0)."""
    return {d: tuple(e for e in dirs
                     if VECTORS[d][0] * VECTORS[e][0] + VECTORS[d][1] * VECTORS[e][1] == 0)
            for d in dirs}


_LINES: WeakKeyDictionary = WeakKeyDictionary()


def rider_lines(geometry, vectors, slip: int = 0) -> tuple[tuple[tuple[int, tuple[int, ...]], ...], ...]:
    """For every square s, one ``(gate, line)`` per vector v: ``line`` = s+v, s+2v, …
    while on the board, ``gate`` = -1; with ``slip`` k > 0, gate = s+v/k and line =
    gate+v, gate+2v, … (cached per geometry). Lines that are empty are left out."""
    per_geometry = _LINES.setdefault(geometry, {})
    key = (vectors, slip)
    table = per_geometry.get(key)
    if table is None:
        table = []
        for s in range(geometry.size):
            lines = []
            for df, dr in vectors:
                f, r, gate = geometry.file_of[s], geometry.rank_of[s], -1
                if slip:
                    f, r = f + df // slip, r + dr // slip
                    gate = geometry.at(f, r)
                    if gate < 0:
                        continue
                line = []
                while (q := geometry.at(f + df, r + dr)) >= 0:
                    line.append(q)
                    f, r = f + df, r + dr
                if line:
                    lines.append((gate, tuple(line)))
            table.append(tuple(lines))
        table = per_geometry[key] = tuple(table)
    return table


def slide_along(ray, b, c, emit, replace: bool) -> None:
    """O3 slide along ``ray`` (squares in order): every empty square, then the
    first occupied one when it is an enemy and ``replace``."""
    for t in ray:
        v = b[t] * c
        if v == 0:
            emit(t)
            continue
        if v < 0 and replace:
            emit(t, (t,))
        return


@dataclass(frozen=True, eq=False)
class Leap(pieces.Leap):
    """O3 leap by ``vectors``: the leap of :class:`maxima_board.rules.pieces.Leap`
    (replacement on an enemy when ``replace``) on Optima's board; ``move``: also
    to an empty square (a leap that only captures has ``move=False``)."""

    move: bool = True

    def unit_moves(self, T, b, c, s, emit) -> None:
        for t in T.leaps(self.vectors)[s]:
            v = b[t] * c
            if v == 0:
                if self.move:
                    emit(t)
            elif v < 0 and self.replace:
                emit(t, (t,))


@dataclass(frozen=True, eq=False)
class Slide(pieces.Slide):
    """O3 slide along ``dirs``: the slide of :class:`maxima_board.rules.pieces.Slide`
    (replacement on the first occupied square when it is an enemy and ``replace``)
    on Optima's board, up to ``range`` squares (None: unlimited)."""

    range: int | None = None

    def unit_moves(self, T, b, c, s, emit) -> None:
        rays = T.rays[s]
        for d in self.dirs:
            slide_along(rays[d] if self.range is None else rays[d][:self.range], b, c, emit, self.replace)


class Rider:
    """O3 rider by ``vectors``: s+v, s+2v, …; landing squares before the last
    empty, the last empty or an enemy (replaced); jumped squares do not matter.
    ``slip`` > 0: O12.2's slipping rider — the square s+v/``slip`` must be empty
    and is never a destination; the landings are s+v/slip + v, s+v/slip + 2v, …"""

    def __init__(self, vectors, replace: bool = True, slip: int = 0):
        self.vectors = tuple(vectors)
        self.replace = replace
        self.slip = slip

    def unit_moves(self, T, b, c, s, emit) -> None:
        replace = self.replace
        for gate, line in rider_lines(T.geometry, self.vectors, self.slip)[s]:
            if gate >= 0 and b[gate]:
                continue
            slide_along(line, b, c, emit, replace)


class Fly:
    """O3 fly: every empty square on each line of ``dirs``, whatever stands between."""

    def __init__(self, dirs):
        self.dirs = tuple(dirs)

    def unit_moves(self, T, b, c, s, emit) -> None:
        rays = T.rays[s]
        for d in self.dirs:
            for t in rays[d]:
                if not b[t]:
                    emit(t)


class FlyHop:
    """O12.5 hopper: fly along ``dirs``; arriving on t along d captures the unbroken
    run of enemy units t−d, t−2d, … (at most ``run`` of them, None: no limit); the
    run ends at an empty or friendly square or at s. The capture is automatic."""

    def __init__(self, dirs, run: int | None = None):
        self.dirs = tuple(dirs)
        self.run = run

    def unit_moves(self, T, b, c, s, emit) -> None:
        rays = T.rays[s]
        limit = self.run
        for d in self.dirs:
            ray = rays[d]
            for k, t in enumerate(ray):
                if b[t]:
                    continue
                caps = []
                j = k - 1                      # ray[j] is t−(k−j)d; j < 0 is s
                while j >= 0 and b[ray[j]] * c < 0 and (limit is None or len(caps) < limit):
                    caps.append(ray[j])
                    j -= 1
                emit(t, caps)


class ScreenCapture:
    """O9.4 screen capture: an enemy at t on a line of ``dirs`` is taken by
    replacement when the number of occupied squares strictly between s and t
    (O3's σ) is one of ``screens``; moves only to capture."""

    def __init__(self, dirs, screens=(0, 1)):
        self.dirs = tuple(dirs)
        self.screens = frozenset(screens)
        self.most = max(screens)

    def unit_moves(self, T, b, c, s, emit) -> None:
        rays = T.rays[s]
        for d in self.dirs:
            seen = 0
            for t in rays[d]:
                v = b[t] * c
                if not v:
                    continue
                if v < 0 and seen in self.screens:
                    emit(t, (t,))
                seen += 1
                if seen > self.most:
                    break


class Plow:
    """O9.2/O12.3 plow along ``dirs`` up to ``range`` squares: t = s+kd when no square
    s+d…s+kd holds a friendly unit and (``armor_stops``) none of s+d…s+(k−1)d holds an
    enemy armored unit; every enemy on s+d…s+kd is captured."""

    def __init__(self, dirs, range: int | None = None, armor_stops: bool = True):
        self.dirs = tuple(dirs)
        self.range = range
        self.armor_stops = armor_stops

    def unit_moves(self, T, b, c, s, emit) -> None:
        rays = T.rays[s]
        armored = T.armored
        for d in self.dirs:
            ray = rays[d] if self.range is None else rays[d][:self.range]
            caps: list[int] = []
            for t in ray:
                v = b[t] * c
                if v > 0:
                    break
                if v < 0:
                    caps.append(t)
                emit(t, caps)
                if v < 0 and self.armor_stops and armored[-v]:
                    break


class Bent:
    """O12.6 bent path: slide along d ∈ ``dirs`` over empty squares to a corner
    c = s+jd (1 ≤ j ≤ ``first``; the corner empty), turn to e ⊥ d in ``dirs``, slide
    from c along e up to ``second`` squares (None: unlimited); the end is empty or
    an enemy (replaced). The corner itself is not a destination of this path."""

    def __init__(self, dirs, first: int | None = None, second: int | None = None, replace: bool = True):
        self.dirs = tuple(dirs)
        self.first = first
        self.second = second
        self.replace = replace
        self.turns = perpendicular(self.dirs)

    def unit_moves(self, T, b, c, s, emit) -> None:
        rays = T.rays
        for d in self.dirs:
            leg = rays[s][d] if self.first is None else rays[s][d][:self.first]
            for corner in leg:
                if b[corner]:
                    break
                for e in self.turns[d]:
                    ray = rays[corner][e] if self.second is None else rays[corner][e][:self.second]
                    slide_along(ray, b, c, emit, self.replace)


class DoubleLeap:
    """O12.7's second leap: leap by ``vectors`` to an empty m, then leap by
    ``vectors`` from m to t ≠ s, t empty or an enemy (replaced, the only capture)."""

    def __init__(self, vectors, replace: bool = True):
        self.vectors = tuple(vectors)
        self.replace = replace

    def unit_moves(self, T, b, c, s, emit) -> None:
        table = T.leaps(self.vectors)
        for m in table[s]:
            if b[m]:
                continue
            for t in table[m]:
                if t == s:
                    continue
                v = b[t] * c
                if v == 0:
                    emit(t)
                elif v < 0 and self.replace:
                    emit(t, (t,))


class Promote:
    """O7 promotion: the moves of ``primitives`` that end on the mover's last rank
    (rank N for White, rank 1 for Black) carry the PROMOTE flag."""

    def __init__(self, *primitives):
        self.primitives = primitives

    def unit_moves(self, T, b, c, s, emit) -> None:
        last = T.n if c > 0 else 1
        rank_of = T.rank_of

        def promoting(t, caps=(), convs=(), flags=0):
            emit(t, caps, convs, flags | PROMOTE if rank_of[t] == last else flags)

        for prim in self.primitives:
            prim.unit_moves(T, b, c, s, promoting)
