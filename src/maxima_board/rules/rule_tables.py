"""The tables one variant's move generator reads: geometry, piece codes by
role, imitation and mimic patterns, Pawn and castling squares (the data half
of :class:`maxima_board.rules.movegen.Rules`)."""
from __future__ import annotations

from .geometry import ALL_DIRECTIONS
from .pieces import PROMOTE

# Castling bits of the state tuple (D3 field 3 order).
WK, WQ, BK, BQ = 1, 2, 4, 8


class RuleTables:
    """Every table of one variant, built once; the lookups the primitives of
    :mod:`maxima_board.rules.pieces` ask for (leaps, lines, squares between)."""

    def __init__(self, variant):
        g = variant.geometry
        self.variant = variant
        self.size = g.size
        self.rays = g.rays
        self.step = g.step
        self.neighbours = g.neighbours
        self.neighbour_sets = tuple(frozenset(n) for n in g.neighbours)
        self.file_of = tuple(g.file_of)
        self.rank_of = tuple(g.rank_of)
        self.grid = g.grid
        self.min_rank = g.min_rank
        self.palace = variant.check == "palace"
        self.goals = {1: variant.white_goals, -1: variant.black_goals}
        types = variant.types
        top = max(t.code for t in types)
        self.types = [None] * (top + 1)
        self.prims: list[tuple] = [()] * (top + 1)
        for t in types:
            self.types[t.code] = t
            self.prims[t.code] = t.moves
        # Moving one of these may change what the other side attacks in ways
        # the per-position shortcut does not track (the King itself, freezing).
        self.always_test = frozenset(t.code for t in types if t.royal)
        # Moving one of these away from an enemy piece may unfreeze it.
        self.unfreezers = frozenset(t.code for t in types if t.freezer or t.freezes_freezer)
        royal = [t for t in types if t.royal]
        self.king_code = royal[0].code
        self.freezers = tuple(t.code for t in types if t.freezer)
        self.freezes_freezer = frozenset(t.code for t in types if t.freezes_freezer)
        self.neutralizers = frozenset(t.code for t in types if t.freezes_freezer or t.freezer)
        self.never_frozen = frozenset(t.code for t in types if t.never_frozen)
        self.freezer_set = frozenset(self.freezers)
        self.pure = variant.immobilization == "pure"
        im = {"step": set(), "custodian": 0, "withdrawal": 0, "coordination": 0, "leaping": 0}
        for t in types:
            if t.imitated_as == "step":
                im["step"].add(t.code)
            elif t.imitated_as:
                im[t.imitated_as] = t.code
        im["step"] = frozenset(im["step"])
        self.imitation = im
        self.mimic_patterns = tuple((t.code, t.mimic) for t in types if t.mimic)
        self.mimic_of = dict(self.mimic_patterns)
        pawns = [t for t in types if t.pawn]
        self.pawn_code = pawns[0].code if pawns else -1
        self.promotion_codes = tuple(variant.type_of(letter).code for letter in variant.promotion)
        self._leaps: dict[int, tuple] = {}
        self._leap_sets: dict[int, tuple] = {}
        # direction and distance from s to every square on one of its lines
        self._lines = []
        for s in range(self.size):
            table = {}
            for d in ALL_DIRECTIONS:
                for i, t in enumerate(self.rays[s][d]):
                    table[t] = (d, i + 1)
            self._lines.append(table)
        self._pawn_tables(g)
        # (castling bit, home square of its King or Rook) for D6's lost rights
        self.castle_homes: tuple = ()
        if variant.castling:
            self.castle_homes = tuple((bit, sq) for c in (1, -1)
                                      for bit, kf, _kt, rf, _rt, _e, _s in self.castle_squares(c)
                                      for sq in (kf, rf))

    def _pawn_tables(self, g) -> None:
        first, last = g.ranks[0], g.ranks[-1]
        self.end_rank = tuple(r in (first, last) for r in self.rank_of)
        self.pawn_step = [None, [], []]
        self.pawn_caps = [None, [], []]
        self.second_rank = [None, [], []]
        self.last_rank = [None, [], []]
        for c, fwd in ((1, 1), (-1, -1)):
            second = first + 1 if c == 1 else last - 1
            final = last if c == 1 else first
            for s in range(self.size):
                f, r = self.file_of[s], self.rank_of[s]
                self.pawn_step[c].append(g.at(f, r + fwd))
                self.pawn_caps[c].append(tuple(x for x in (g.at(f - 1, r + fwd), g.at(f + 1, r + fwd)) if x >= 0))
                self.second_rank[c].append(r == second)
                self.last_rank[c].append(r == final)

    # ---------------------------------------------------------------- tables
    def leaps(self, prim) -> tuple:
        table = self._leaps.get(id(prim))
        if table is None:
            table = self.variant.geometry.leaps(prim.vectors, wrap_files=prim.wrap)
            self._leaps[id(prim)] = table
            self._leap_sets[id(prim)] = tuple(frozenset(t) for t in table)
        return table

    def leap_sets(self, prim) -> tuple:
        sets = self._leap_sets.get(id(prim))
        if sets is None:
            self.leaps(prim)
            sets = self._leap_sets[id(prim)]
        return sets

    def direction(self, s: int, k: int) -> int:
        """The direction from ``s`` to ``k`` when they share a line, else -1."""
        return self._lines[s].get(k, (-1, 0))[0]

    def distance(self, s: int, k: int) -> int:
        return self._lines[s].get(k, (-1, 0))[1]

    def between(self, s: int, k: int) -> tuple:
        """The squares strictly between ``s`` and ``k`` on their common line."""
        d, n = self._lines[s][k]
        return self.rays[s][d][:n - 1]

    def clear(self, b: list[int], s: int, k: int) -> bool:
        """Whether every square strictly between ``s`` and ``k`` (on one line) is empty."""
        d, n = self._lines[s][k]
        for t in self.rays[s][d][:n - 1]:
            if b[t]:
                return False
        return True

    def add_pawn_move(self, c: int, s: int, t: int, caps: tuple, app) -> None:
        if self.last_rank[c][t]:
            for code in self.promotion_codes:
                app((s, t, caps, PROMOTE, code))
        else:
            app((s, t, caps))

    def castle_squares(self, c: int):
        """For colour ``c``: ((bit, king_from, king_to, rook_from, rook_to,
        must_be_empty, must_not_be_attacked), ...) for king and queen side."""
        g = self.variant.geometry
        rank = g.ranks[0] if c == 1 else g.ranks[-1]
        at = lambda f: g.at(f, rank)  # noqa: E731
        kbit, qbit = (WK, WQ) if c == 1 else (BK, BQ)
        return ((kbit, at(5), at(8), at(9), at(7), (at(6), at(7), at(8)), (at(6), at(7), at(8))),
                (qbit, at(5), at(2), at(0), at(3), (at(1), at(2), at(3), at(4)), (at(4), at(3), at(2))))
