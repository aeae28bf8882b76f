"""Move primitives with effects beyond replacement (O9.5-O9.7, O11, O12.8-O12.17).

Each primitive is data plus ``unit_moves(T, b, c, s, emit)`` (see :mod:`.tables`). The
wrappers (:class:`Proximity`, :class:`Rifle`, :class:`TwoPart`) take other
primitives — from here or from :mod:`.movers` — and change what their moves do,
so a unit of Section B is a tuple of primitive instances with parameters and no
primitive here knows a unit.

O6 ("decided with the mover lifted off s"): no primitive here needs ``b[s]``
to be empty. Adjacency tests (stop rule, proximity, Envoy) look for enemies
and the mover is not one; the lines they follow run away from ``s``. The
second part of a two-part move is generated on a copy of the board as part 1
left it (O12.8).
"""
from __future__ import annotations

from maxima_board.rules.geometry import VECTORS
from maxima_board.rules.pieces import ALL
from .tables import SWAP


def _distance(T, s: int, t: int) -> int:
    """Chebyshev distance between two squares (the length of a straight move)."""
    return max(abs(T.file_of[s] - T.file_of[t]), abs(T.rank_of[s] - T.rank_of[t]))


class StopSlide:
    """O9.7 stop-rule slide along ``dirs`` up to ``range`` squares, to empty squares
    only: the piece may stop on q_k when q1…q_k are empty and none of q1…q_(k−1) is
    adjacent to an enemy unit (any enemy), so the first square next to an enemy is
    the last stop."""

    def __init__(self, dirs, range: int | None = None):
        self.dirs = tuple(dirs)
        self.range = range

    def unit_moves(self, T, b, c, s, emit) -> None:
        rays, neighbours = T.rays[s], T.neighbours
        for d in self.dirs:
            ray = rays[d] if self.range is None else rays[d][:self.range]
            for q in ray:
                if b[q]:
                    break
                emit(q)
                if any(b[n] * c < 0 for n in neighbours[q]):
                    break


class Proximity:
    """O9.5 proximity (and, with ``convert``, O12.17 adjacency conversion) on the
    moves of ``inner``: a move that ends on an empty square ``t`` at most ``reach``
    squares from s (None: any distance) also takes every enemy on the ``hood``
    neighbours of t (directions from t): captured unless shielded, or with
    ``convert`` treated by O11 (:meth:`Tables.convert`). Other moves of ``inner``
    (replacements, longer moves) are passed on unchanged."""

    def __init__(self, inner, hood=ALL, reach: int | None = None, convert: bool = False):
        self.inner = inner
        self.hood = tuple(hood)
        self.reach = reach
        self.convert = convert

    def unit_moves(self, T, b, c, s, emit) -> None:
        step, shielded, hood, reach = T.step, T.shielded, self.hood, self.reach

        def triggered(t, caps=(), convs=(), flags=0):
            if b[t] or caps or convs or flags or (reach is not None and _distance(T, s, t) > reach):
                emit(t, caps, convs, flags)
                return
            around = [q for q in (step[t][d] for d in hood) if q >= 0]
            if self.convert:
                caps, convs = T.convert(b, c, around)
                emit(t, caps, convs)
            else:
                emit(t, [q for q in around if b[q] * c < 0 and not shielded[-b[q] * c]])

        self.inner.unit_moves(T, b, c, s, triggered)


class Rifle:
    """O9.6 rifle: for every replacement capture of ``inner`` (an enemy taken on
    the square it lands on) of a unit that is not armored, a shot: the mover stays
    on s (t == s) and the unit is removed. ``inner``'s own moves are not emitted;
    a unit lists ``inner`` separately for them (both moves exist)."""

    def __init__(self, inner):
        self.inner = inner

    def unit_moves(self, T, b, c, s, emit) -> None:
        armored = T.armored

        def shoot(t, caps=(), convs=(), flags=0):
            if tuple(caps) == (t,) and not convs and not armored[-b[t] * c]:
                emit(s, (t,))

        self.inner.unit_moves(T, b, c, s, shoot)


class TwoPart:
    """O12.8 two-part move: part 1 is a move of ``part`` from s to m (empty, or an
    enemy captured); optionally part 2 is a move of ``part`` from m to t on the board
    as part 1 left it (s empty, the mover on m, m's victim gone). X = captures of
    both parts. t == s is a move only with ``return_on_capture`` and a capture on
    part 1 (the Viceroy's capture-and-return); otherwise part 2 may pass over s but
    not stop there. ``part`` must only emit replacement captures."""

    def __init__(self, part, return_on_capture: bool = False):
        self.part = part
        self.return_on_capture = return_on_capture

    def unit_moves(self, T, b, c, s, emit) -> None:
        firsts: list[tuple[int, tuple]] = []
        self.part.unit_moves(T, b, c, s, lambda m, caps=(), convs=(), flags=0: firsts.append((m, tuple(caps))))
        mover = b[s]
        for m, caps1 in firsts:
            emit(m, caps1)
            after = list(b)
            after[s] = 0
            after[m] = mover

            def second(t, caps=(), convs=(), flags=0, _caps1=caps1):
                if t == s and not (self.return_on_capture and _caps1):
                    return
                emit(t, tuple(_caps1) + tuple(caps))

            self.part.unit_moves(T, after, c, m, second)


class ZigZag:
    """O12.9 zig-zag: for each pair ``(a, b)`` of ``pairs`` (directions), the paths
    a, b, a, b, … and b, a, b, a, … of at least one step; every square before the
    last empty, the last empty or an enemy (replaced)."""

    def __init__(self, pairs, replace: bool = True):
        self.pairs = tuple(pairs)
        self.replace = replace

    def unit_moves(self, T, b, c, s, emit) -> None:
        step = T.step
        for x, y in self.pairs:
            for first, second in ((x, y), (y, x)):
                q, d = s, first
                while (q := step[q][d]) >= 0:
                    v = b[q] * c
                    if v == 0:
                        emit(q)
                        d = second if d == first else first
                        continue
                    if v < 0 and self.replace:
                        emit(q, (q,))
                    break


def zigzag_pairs(dirs) -> tuple[tuple[int, int], ...]:
    """The unordered pairs of perpendicular directions of ``dirs`` (O3: dot product 0)."""
    out = []
    for i, d in enumerate(dirs):
        for e in dirs[i + 1:]:
            if VECTORS[d][0] * VECTORS[e][0] + VECTORS[d][1] * VECTORS[e][1] == 0:
                out.append((d, e))
    return tuple(out)


class LeapConvert:
    """O12.14 leaping conversion along ``dirs``: for k ≥ 1, when s+kd holds an enemy
    that is not loyal and s+(k+1)d is on the board and empty, the piece moves to
    s+(k+1)d and that unit is treated by O11 (royal: captured; else converted),
    whatever stands on s+d…s+(k−1)d."""

    def __init__(self, dirs):
        self.dirs = tuple(dirs)

    def unit_moves(self, T, b, c, s, emit) -> None:
        rays = T.rays[s]
        for d in self.dirs:
            ray = rays[d]
            for k in range(len(ray) - 1):
                q, t = ray[k], ray[k + 1]
                if b[q] * c >= 0 or b[t]:
                    continue
                caps, convs = T.convert(b, c, (q,))
                if caps or convs:
                    emit(t, caps, convs)


class SwapLeap:
    """O12.15 swap conversion on leaps by ``vectors``: an empty t is a plain move
    (when ``move``); an enemy on t is treated by O11 — not loyal and not royal: it is
    converted and goes to s (SWAP); royal: captured and the mover lands on t;
    loyal: no move."""

    def __init__(self, vectors, move: bool = True):
        self.vectors = tuple(vectors)
        self.move = move

    def unit_moves(self, T, b, c, s, emit) -> None:
        for t in T.leaps(self.vectors)[s]:
            v = b[t] * c
            if v == 0:
                if self.move:
                    emit(t)
            elif v < 0:
                caps, convs = T.convert(b, c, (t,))
                if caps:
                    emit(t, caps)
                elif convs:
                    emit(t, (), convs, SWAP)


class Approach:
    """O12.16 approach conversion: slide along ``dirs`` up to ``range`` squares to
    empty squares; a move along d ending on t treats the enemy on t+d by O11
    (loyal: nothing, the move stays)."""

    def __init__(self, dirs, range: int | None = None):
        self.dirs = tuple(dirs)
        self.range = range

    def unit_moves(self, T, b, c, s, emit) -> None:
        rays, step = T.rays[s], T.step
        for d in self.dirs:
            ray = rays[d] if self.range is None else rays[d][:self.range]
            for t in ray:
                if b[t]:
                    break
                ahead = step[t][d]
                if ahead >= 0:
                    caps, convs = T.convert(b, c, (ahead,))
                    emit(t, caps, convs)
                else:
                    emit(t)
