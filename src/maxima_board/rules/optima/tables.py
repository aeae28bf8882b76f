"""The rules of one Optima game under one option set, and the generic move generator.

Raw moves are tuples ``(s, t, caps, convs, flags)``:

- ``s`` start square, ``t`` destination (``t == s`` for a rifle shot or a
  Viceroy's capture-and-return, O6);
- ``caps`` the captured squares and ``convs`` the converted squares, each a
  sorted tuple (O6's X and V);
- ``flags``: ``SWAP`` (the unit on ``t`` is converted and goes to ``s``),
  ``PROMOTE`` (the mover, a pawn, becomes a Wizard, O7).

A placement (O5) is ``(PLACE, t, (), (), v)``: put ``v`` (the signed board
value: colour sign, type code, ROYAL bit) on the empty square ``t``.

A primitive is any object with ``unit_moves(T, b, c, s, emit)``: for colour ``c``'s
unit on ``s`` of board ``b`` (lifted off ``s`` where O6 says so, which is the
primitive's business), call ``emit(t, caps=(), convs=(), flags=0)`` for each
move; order and duplicates do not matter (O6: equal moves are one move).
``T`` is this module's :class:`Tables`. The generator below knows no unit.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from maxima_board.rules.geometry import Geometry
from .units import ROYAL, TYPE_MASK, UnitType

PLACE = -1
SWAP = 1
PROMOTE = 2


@dataclass(frozen=True)
class Options:
    """The rules field of the FEN (O14): ``shp`` pawns shielded, ``gna``
    guards not armored, ``arm`` more armored piece tokens (sorted)."""

    shp: bool = False
    gna: bool = False
    arm: tuple[str, ...] = field(default=())


class Tables:
    """Precomputed tables of one Optima variant under one :class:`Options`."""

    def __init__(self, variant, options: Options = Options()):
        g: Geometry = variant.geometry
        self.variant = variant
        self.options = options
        self.geometry = g
        self.n = g.files
        self.size = g.size
        self.rays = g.rays          # rays[s][d]: squares from s along direction d
        self.step = g.step          # step[s][d]: the neighbour or -1
        self.neighbours = g.neighbours
        self.file_of = g.file_of
        self.rank_of = g.rank_of
        self.units: dict[int, UnitType] = {u.code: u for u in variant.units}
        top = 2 * ROYAL
        self.type_of: list[UnitType | None] = [None] * top
        self.shielded = [False] * top
        self.resolute = [False] * top
        self.armored = [False] * top
        self.loyal = [False] * top
        self.royal = [bool(code & ROYAL) for code in range(top)]
        for code in range(top):
            u = self.units.get(code & TYPE_MASK)
            if u is None:
                continue
            self.type_of[code] = u
            self.shielded[code] = u.shielded or (options.shp and u.kind == "pawn")
            self.resolute[code] = u.resolute
            self.armored[code] = (u.armored and not (options.gna and u.kind == "guard")) or u.token in options.arm
            self.loyal[code] = u.loyal
        wizards = [u for u in variant.units if u.kind == "wizard"]
        self.wizard_code = wizards[0].code if wizards else 0
        self._leaps: dict[tuple, tuple] = {}
        self._ranges: list | None = None

    # ------------------------------------------------------------ geometry
    def leaps(self, vectors: tuple[tuple[int, int], ...]) -> tuple[tuple[int, ...], ...]:
        """For every square, the squares one leap away by any of ``vectors`` (cached)."""
        table = self._leaps.get(vectors)
        if table is None:
            table = self._leaps[vectors] = self.geometry.leaps(vectors)
        return table

    def at(self, file: int, rank: int) -> int:
        """The square at (file index from 0, rank number), or -1 off the board."""
        return self.geometry.at(file, rank)

    # ------------------------------------------------------------ O11
    def convert(self, b: list[int], c: int, squares) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """O11 for colour ``c``'s conversion of the enemy units on ``squares``:
        loyal ones are untouched, royal ones captured, the rest converted.
        Returns ``(caps, convs)``; empty squares and friendly units are ignored."""
        caps, convs = [], []
        for q in squares:
            v = b[q] * c
            if v >= 0:
                continue
            code = -v
            if self.loyal[code]:
                continue
            (caps if code & ROYAL else convs).append(q)
        return tuple(caps), tuple(convs)

    # ------------------------------------------------------------ O10
    def frozen(self, b: list[int], c: int) -> set[int]:
        """Squares of colour ``c``'s units that are immobilized (O10): those in the
        range of an enemy immobilizer (frozen or not) and not resolute. Ranges:
        knight squares, the 8 neighbours, or the first unit on each line of a set
        (that unit hides the ones behind it, whatever it is)."""
        ranges = self._ranges
        if ranges is None:
            ranges = self._ranges = _immobilizer_ranges(self)
        out: set[int] = set()
        resolute = self.resolute
        for q, v in enumerate(b):
            if v * c >= 0:
                continue
            spec = ranges[-v * c]
            if spec is None:
                continue
            squares, lines = spec
            for r in squares[q]:
                w = b[r] * c
                if w > 0 and not resolute[w]:
                    out.add(r)
            for d in lines:
                for r in self.rays[q][d]:
                    w = b[r] * c
                    if w:
                        if w > 0 and not resolute[w]:
                            out.add(r)
                        break
        return out

    # ------------------------------------------------------------ O6
    def board_moves(self, b: list[int], c: int) -> list[tuple]:
        """Every movement-phase move of colour ``c`` (no check in Optima, O6/O13)."""
        out: set[tuple] = set()
        frozen = self.frozen(b, c)
        type_of = self.type_of
        for s, v in enumerate(b):
            if v * c <= 0 or s in frozen:
                continue
            unit = type_of[v * c]

            def emit(t, caps=(), convs=(), flags=0, _s=s):
                out.add((_s, t, tuple(sorted(caps)), tuple(sorted(convs)), flags))

            for prim in unit.moves:
                prim.unit_moves(self, b, c, s, emit)
        return list(out)

    def make(self, b: list[int], m: tuple) -> tuple:
        """Play raw move ``m`` on ``b``; returns what :meth:`unmake` needs."""
        s, t, caps, convs, flags = m
        if s == PLACE:
            b[t] = flags
            return (t,)
        saved = [(q, b[q]) for q in {s, t, *caps, *convs}]
        mover = b[s]
        c = 1 if mover > 0 else -1
        b[s] = 0
        for q in caps:
            b[q] = 0
        if flags & SWAP:
            b[s] = -b[t]          # converted, never royal (a royal is captured instead)
            convs = tuple(q for q in convs if q != t)
        for q in convs:
            b[q] = -b[q]
        if flags & PROMOTE:
            mover = c * self.wizard_code
        b[t] = mover
        return tuple(saved)

    def unmake(self, b: list[int], m: tuple, undo: tuple) -> None:
        if m[0] == PLACE:
            b[m[1]] = 0
            return
        for q, v in undo:
            b[q] = v


_KNIGHT = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
_ADJACENT = ((0, 1), (1, 0), (0, -1), (-1, 0), (1, 1), (1, -1), (-1, -1), (-1, 1))


def _immobilizer_ranges(T: Tables) -> list:
    """Per code: None, or ``(squares, lines)`` — per square the squares of a fixed
    range (knight, adjacent) and the directions whose first unit is in range (O10)."""
    from maxima_board.rules.geometry import ALL_DIRECTIONS, DIAGONAL, ORTHOGONAL
    from .units import ADJACENT, FIRST_ALL, FIRST_DIAG, FIRST_ORTH, KNIGHT_SQUARES
    none = tuple(() for _ in range(T.size))
    shapes = {KNIGHT_SQUARES: (T.leaps(_KNIGHT), ()), ADJACENT: (T.leaps(_ADJACENT), ()),
              FIRST_ORTH: (none, ORTHOGONAL), FIRST_DIAG: (none, DIAGONAL), FIRST_ALL: (none, ALL_DIRECTIONS)}
    return [None if u is None or u.immobilizes is None else shapes[u.immobilizes] for u in T.type_of]
