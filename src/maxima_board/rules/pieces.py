"""Piece types as data, composed from movement and capture primitives.

A :class:`PieceType` is a name, a FEN letter, a tuple of primitives (how it
moves and what its moves capture) and a few attributes (royal, freezer, never
frozen, how a Chameleon or a Mimotaur captures it). The move generator only
asks each primitive of each piece for its moves, so a new piece is a new tuple
of existing primitives and a new game is a new module of data.

Primitives work on the bare board of :mod:`maxima_board.rules.movegen`: a list of ints
(0 empty, +code White, -code Black), square indices of the variant's
geometry, and raw moves, tuples ``(from, to, captures[, kind, arg])`` with
``to == -1`` for a move that removes the mover (suicide, mutual destruction).

Every primitive answers three questions:

- ``gen(R, b, c, s, kings, app)``: append every move of colour ``c``'s piece on
  ``s`` (``R`` is the :class:`maxima_board.rules.movegen.Rules` holding the tables);
- ``captures(R, b, a, s, k, kings)``: could the piece of colour ``a`` on ``s``
  remove the piece on ``k`` with this primitive (look-back test used for
  check; the default generates the moves and looks);
- ``reaches(R, b, a, s, g, kings)``: could it end a move on ``g``.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .geometry import ALL_DIRECTIONS, DIAGONAL, NE, NW, OPPOSITE, ORTHOGONAL, SE, SW, E, N, S, W

# Raw move kinds beyond the plain (from, to, captures) triple.
CASTLE = 1      # arg: (rook_from, rook_to)
SWAP = 2        # mover and the piece on ``to`` exchange squares
PROMOTE = 3     # arg: the code of the new piece
EN_PASSANT = 4  # captures: the advanced Pawn's square

# Leap vectors (file step, rank step), in geometry's direction order where they are steps.
KNIGHT = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
KING_STEPS = ((0, 1), (1, 0), (0, -1), (-1, 0), (1, 1), (1, -1), (-1, -1), (-1, 1))
WAZIR = KING_STEPS[:4]      # one step orthogonally
FERZ = KING_STEPS[4:]       # one step diagonally
CAMEL = ((1, 3), (3, 1), (3, -1), (1, -3), (-1, -3), (-3, -1), (-3, 1), (-1, 3))
DABBABA = tuple((2 * x, 2 * y) for x, y in WAZIR)
ALFIL = tuple((2 * x, 2 * y) for x, y in FERZ)


def multiples(vectors, ks) -> tuple[tuple[int, int], ...]:
    """``k·v`` for every v in ``vectors`` and k in ``ks`` (Optima's Hero: King steps times 1, 2, 3)."""
    return tuple((k * x, k * y) for k in ks for x, y in vectors)


class Primitive:
    """One way a piece moves and captures."""

    def gen(self, R, b, c, s, kings, app) -> None:
        raise NotImplementedError

    def captures(self, R, b, a, s, k, kings) -> bool:
        out: list = []
        self.gen(R, b, a, s, kings, out.append)
        return any(k in m[2] for m in out)

    def reaches(self, R, b, a, s, g, kings) -> bool:
        out: list = []
        self.gen(R, b, a, s, kings, out.append)
        return any(m[1] == g for m in out)

    def deps(self, R, b, a, s, k, kings):
        """Squares whose change by the other side's move could let the piece
        of colour ``a`` on ``s`` capture the piece on ``k`` with this
        primitive (the piece itself staying put), or None when unknown: the
        legality shortcut then tests every move fully."""
        return None

    # Replacement captures of one victim type only (a Mimotaur imitating).
    def gen_replace(self, R, b, c, s, victim, app) -> None:
        raise NotImplementedError(f"{type(self).__name__} has no replacement pattern")

    def replace_attacks(self, R, b, a, s, k) -> bool:
        raise NotImplementedError(f"{type(self).__name__} has no replacement pattern")


# ------------------------------------------------------------------ effects
class Effect:
    """A capture that follows a move to an empty square ``t`` in direction ``d``."""

    per_direction = False  # True when the captures depend on (s, d) only

    def caps(self, R, b, c, s, d, t, kings, victim) -> tuple:
        raise NotImplementedError

    def attacks(self, R, b, a, s, k, kings, dirs) -> bool:
        raise NotImplementedError

    def deps(self, R, b, a, s, k, kings, dirs):
        """See :meth:`Primitive.deps`."""
        return None


class Withdrawal(Effect):
    """The enemy next to the start square, opposite to the direction of travel (M5, U5, D10)."""

    per_direction = True

    def caps(self, R, b, c, s, d, t, kings, victim):
        back = R.step[s][OPPOSITE[d]]
        if back >= 0:
            v = b[back] * c
            if v < 0 and (not victim or v == -victim):
                return (back,)
        return ()

    def attacks(self, R, b, a, s, k, kings, dirs):
        d = R.direction(k, s)
        if d < 0 or R.distance(k, s) != 1 or d not in dirs:
            return False
        t = R.step[s][d]
        return t >= 0 and b[t] == 0

    def deps(self, R, b, a, s, k, kings, dirs):
        d = R.direction(k, s)
        if d < 0 or R.distance(k, s) != 1 or d not in dirs:
            return ()
        t = R.step[s][d]
        return (t,) if t >= 0 else ()


class Approach(Effect):
    """The enemy on the square after the end square, in the direction of travel (D11)."""

    def caps(self, R, b, c, s, d, t, kings, victim):
        front = R.step[t][d]
        if front >= 0:
            v = b[front] * c
            if v < 0 and (not victim or v == -victim):
                return (front,)
        return ()

    def attacks(self, R, b, a, s, k, kings, dirs):
        d = R.direction(s, k)
        if d < 0 or d not in dirs or R.distance(s, k) < 2:
            return False
        return R.clear(b, s, k)

    def deps(self, R, b, a, s, k, kings, dirs):
        d = R.direction(s, k)
        if d < 0 or d not in dirs:
            return ()
        return R.between(s, k)


class Custodian(Effect):
    """Every enemy orthogonally next to the end square with a friendly piece beyond (M4, U4)."""

    def caps(self, R, b, c, s, d, t, kings, victim):
        out = ()
        step = R.step
        st = step[t]
        for e in ORTHOGONAL:
            x = st[e]
            if x < 0:
                continue
            v = b[x] * c
            if v < 0 and (not victim or v == -victim):
                beyond = step[x][e]
                if beyond >= 0 and b[beyond] * c > 0:
                    out += (x,)
        return out

    def attacks(self, R, b, a, s, k, kings, dirs):
        step = R.step
        sk = step[k]
        for e in ORTHOGONAL:
            t = sk[e]
            if t < 0 or b[t] != 0:
                continue
            anvil = sk[OPPOSITE[e]]
            if anvil < 0 or b[anvil] * a <= 0 or anvil == s:
                continue
            d = R.direction(s, t)
            if d >= 0 and d in dirs and R.clear(b, s, t):
                return True
        return False

    def deps(self, R, b, a, s, k, kings, dirs):
        # The anvil must already be the attacker's: the mover cannot put one there.
        out = []
        sk = R.step[k]
        for e in ORTHOGONAL:
            t = sk[e]
            if t < 0:
                continue
            anvil = sk[OPPOSITE[e]]
            if anvil < 0 or b[anvil] * a <= 0:
                continue
            d = R.direction(s, t)
            if d >= 0 and d in dirs:
                out.append(t)
                out.extend(R.between(s, t))
        return out


class Coordination(Effect):
    """Enemies on the two corners of the rectangle of the end square and the own King (M6, U6, D8)."""

    def caps(self, R, b, c, s, d, t, kings, victim):
        king = kings[c]
        if king < 0:
            return ()
        fo, ro = R.file_of, R.rank_of
        kf, kr, tf, tr = fo[king], ro[king], fo[t], ro[t]
        if tf == kf or tr == kr:
            return ()
        out = ()
        grid, low = R.grid, R.min_rank
        for x in (grid[tf][kr - low], grid[kf][tr - low]):
            if x >= 0:
                v = b[x] * c
                if v < 0 and (not victim or v == -victim):
                    out += (x,)
        return out

    def attacks(self, R, b, a, s, k, kings, dirs):
        king = kings[a]
        if king < 0 or king == k:
            return False
        fo, ro = R.file_of, R.rank_of
        if ro[king] == ro[k]:
            line, target = fo, fo[k]
        elif fo[king] == fo[k]:
            line, target = ro, ro[k]
        else:
            return False
        rs = R.rays[s]
        for d in dirs:
            for t in rs[d]:
                if b[t]:
                    break
                if line[t] == target:
                    return True
        return False

    def deps(self, R, b, a, s, k, kings, dirs):
        king = kings[a]
        if king < 0 or king == k:
            return ()
        fo, ro = R.file_of, R.rank_of
        if ro[king] == ro[k]:
            line, target = fo, fo[k]
        elif fo[king] == fo[k]:
            line, target = ro, ro[k]
        else:
            return ()
        out = []
        rs = R.rays[s]
        for d in dirs:
            ray = rs[d]
            for i, t in enumerate(ray):
                if line[t] == target:
                    if t != k:  # the victim's own square is never reached
                        out.extend(ray[:i + 1])
                    break
        return out


# ------------------------------------------------------------------ movement
@dataclass(frozen=True, eq=False)
class Leap(Primitive):
    """One leap by any of ``vectors`` (a step is a leap of length one); files
    wrap when ``wrap`` (Maxima's King, M3). Lands on empty squares and, when
    ``replace``, captures an enemy there."""

    vectors: tuple = KING_STEPS
    wrap: bool = False
    replace: bool = True

    def gen(self, R, b, c, s, kings, app):
        for t in R.leaps(self)[s]:
            w = b[t] * c
            if w == 0:
                app((s, t, ()))
            elif w < 0 and self.replace:
                app((s, t, (t,)))

    def captures(self, R, b, a, s, k, kings):
        return self.replace and k in R.leap_sets(self)[s]

    def deps(self, R, b, a, s, k, kings):
        return ()

    def replace_deps(self, R, b, a, s, k):
        return ()

    def reaches(self, R, b, a, s, g, kings):
        return g in R.leap_sets(self)[s] and (b[g] == 0 or (self.replace and b[g] * a < 0))

    def gen_replace(self, R, b, c, s, victim, app):
        for t in R.leaps(self)[s]:
            if b[t] * c == -victim:
                app((s, t, (t,)))

    def replace_attacks(self, R, b, a, s, k):
        return k in R.leap_sets(self)[s]


@dataclass(frozen=True, eq=False)
class Slide(Primitive):
    """Slides along ``dirs`` over empty squares. Captures by replacement when
    ``replace``; a move to an empty square triggers ``effects``."""

    dirs: tuple = ALL_DIRECTIONS
    replace: bool = True
    effects: tuple = ()

    def gen(self, R, b, c, s, kings, app):
        rs = R.rays[s]
        effects = self.effects
        replace = self.replace
        if not effects:
            for d in self.dirs:
                for t in rs[d]:
                    w = b[t]
                    if w:
                        if replace and w * c < 0:
                            app((s, t, (t,)))
                        break
                    app((s, t, ()))
            return
        fixed_effects = [e for e in effects if e.per_direction]
        end_effects = [e for e in effects if not e.per_direction]
        for d in self.dirs:
            base = ()
            for e in fixed_effects:
                base += e.caps(R, b, c, s, d, -1, kings, 0)
            for t in rs[d]:
                w = b[t]
                if w:
                    if replace and w * c < 0:
                        app((s, t, (t,)))
                    break
                caps = base
                for e in end_effects:
                    caps += e.caps(R, b, c, s, d, t, kings, 0)
                app((s, t, caps))

    def captures(self, R, b, a, s, k, kings):
        dirs = self.dirs
        if self.replace:
            d = R.direction(s, k)
            if d >= 0 and d in dirs and R.clear(b, s, k):
                return True
        for e in self.effects:
            if e.attacks(R, b, a, s, k, kings, dirs):
                return True
        return False

    def deps(self, R, b, a, s, k, kings):
        out = []
        if self.replace:
            out.extend(self.replace_deps(R, b, a, s, k))
        for e in self.effects:
            more = e.deps(R, b, a, s, k, kings, self.dirs)
            if more is None:
                return None
            out.extend(more)
        return out

    def replace_deps(self, R, b, a, s, k):
        d = R.direction(s, k)
        if d < 0 or d not in self.dirs:
            return ()
        return R.between(s, k)

    def reaches(self, R, b, a, s, g, kings):
        d = R.direction(s, g)
        if d < 0 or d not in self.dirs or not R.clear(b, s, g):
            return False
        return b[g] == 0 or (self.replace and b[g] * a < 0)

    def gen_replace(self, R, b, c, s, victim, app):
        rs = R.rays[s]
        for d in self.dirs:
            for t in rs[d]:
                w = b[t]
                if w:
                    if w * c == -victim:
                        app((s, t, (t,)))
                    break

    def replace_attacks(self, R, b, a, s, k):
        d = R.direction(s, k)
        return d >= 0 and d in self.dirs and R.clear(b, s, k)


@dataclass(frozen=True, eq=False)
class LeapingSlide(Primitive):
    """The Long Leaper (M7, U7, D13): a slide that jumps single enemy pieces
    with an empty square beyond, capturing each, and stops on any empty square
    after its last jump."""

    dirs: tuple = ALL_DIRECTIONS

    def gen(self, R, b, c, s, kings, app):
        rs = R.rays[s]
        for d in self.dirs:
            ray = rs[d]
            caps = ()
            n = len(ray)
            i = 0
            while i < n:
                t = ray[i]
                w = b[t] * c
                if w == 0:
                    app((s, t, caps))
                    i += 1
                elif w < 0 and i + 1 < n and b[ray[i + 1]] == 0:
                    caps += (t,)
                    i += 1
                else:
                    break

    def captures(self, R, b, a, s, k, kings):
        d = R.direction(s, k)
        if d < 0 or d not in self.dirs:
            return False
        ray = R.rays[s][d]
        n = len(ray)
        i = 0
        while i < n:
            t = ray[i]
            w = b[t] * a
            if w == 0:
                i += 1
            elif w < 0 and i + 1 < n and b[ray[i + 1]] == 0:
                if t == k:
                    return True
                i += 1
            else:
                return False
        return False

    def deps(self, R, b, a, s, k, kings):
        d = R.direction(s, k)
        if d < 0 or d not in self.dirs:
            return ()
        return R.rays[s][d][:R.distance(s, k) + 1]

    def reaches(self, R, b, a, s, g, kings):
        if b[g] != 0:
            return False
        d = R.direction(s, g)
        if d < 0 or d not in self.dirs:
            return False
        out: list = []
        self.gen(R, b, a, s, kings, out.append)
        return any(m[1] == g for m in out)


# A Mage that slid in orthogonal direction o made its diagonal step first.
_BENT = {NE: (N, E), SE: (S, E), SW: (S, W), NW: (N, W)}


@dataclass(frozen=True, eq=False)
class StepThenSlide(Primitive):
    """Maxima's Mage (M2): one diagonal step, then optionally a slide along
    either orthogonal direction that continues the diagonal. Captures by
    replacement on the diagonal square or at the end of the slide."""

    def gen(self, R, b, c, s, kings, app):
        ss = R.step[s]
        rays = R.rays
        for d in DIAGONAL:
            x = ss[d]
            if x < 0:
                continue
            w = b[x] * c
            if w < 0:
                app((s, x, (x,)))
                continue
            if w > 0:
                continue
            app((s, x, ()))
            rx = rays[x]
            for o in _BENT[d]:
                for t in rx[o]:
                    w = b[t] * c
                    if w == 0:
                        app((s, t, ()))
                        continue
                    if w < 0:
                        app((s, t, (t,)))
                    break

    def captures(self, R, b, a, s, k, kings):
        ss = R.step[s]
        for d in DIAGONAL:
            x = ss[d]
            if x < 0:
                continue
            if x == k:
                return True
            if b[x]:
                continue
            o = R.direction(x, k)
            if o >= 0 and o in _BENT[d] and R.clear(b, x, k):
                return True
        return False

    def deps(self, R, b, a, s, k, kings):
        out = []
        ss = R.step[s]
        for d in DIAGONAL:
            x = ss[d]
            if x < 0 or x == k:
                continue
            for o in _BENT[d]:
                if R.direction(x, k) == o:
                    out.append(x)
                    out.extend(R.between(x, k))
        return out


@dataclass(frozen=True, eq=False)
class PawnMoves(Primitive):
    """Deckle's Pawn (D7): one step forward to an empty square, the initial
    advance of up to ``R.variant.pawn_advance`` squares from the own second
    rank, replacement one square diagonally forward, promotion on the last
    rank to any of the variant's promotion letters. En passant is the
    generator's (it needs the previous move)."""

    def gen(self, R, b, c, s, kings, app):
        step = R.pawn_step[c][s]
        if step >= 0 and b[step] == 0:
            R.add_pawn_move(c, s, step, (), app)
            if R.second_rank[c][s]:
                x = step
                for _ in range(R.variant.pawn_advance - 1):
                    x = R.pawn_step[c][x]
                    if x < 0 or b[x] != 0:
                        break
                    app((s, x, ()))
        for t in R.pawn_caps[c][s]:
            if b[t] * c < 0:
                R.add_pawn_move(c, s, t, (t,), app)

    def captures(self, R, b, a, s, k, kings):
        return k in R.pawn_caps[a][s]

    def deps(self, R, b, a, s, k, kings):
        return ()

    def replace_deps(self, R, b, a, s, k):
        return ()

    def reaches(self, R, b, a, s, g, kings):
        out: list = []
        self.gen(R, b, a, s, kings, out.append)
        return any(m[1] == g for m in out)

    def gen_replace(self, R, b, c, s, victim, app):
        for t in R.pawn_caps[c][s]:
            if b[t] * c == -victim:
                app((s, t, (t,)))

    def replace_attacks(self, R, b, a, s, k):
        return k in R.pawn_caps[a][s]


@dataclass(frozen=True, eq=False)
class Imitation(Primitive):
    """The Chameleon (M8, U8): a queen slide to empty squares capturing each
    enemy type the way that type captures (``PieceType.imitated_as``):
    custodian on orthogonal moves, withdrawal, coordination, leaping over
    Leapers only, and a step onto a type imitated by ``"step"``. Captures of
    one move combine, except under ``R.variant.chameleon_pure`` where a move
    that jumps takes only the jumped pieces (U8)."""

    def gen(self, R, b, c, s, kings, app):
        im = R.imitation
        step_victims = im["step"]
        for t in R.neighbours[s]:
            if -b[t] * c in step_victims:
                app((s, t, (t,)))
        leaper = im["leaping"]
        withdrawer = im["withdrawal"]
        coordinator = im["coordination"]
        pawn = im["custodian"]
        pure = R.variant.chameleon_pure
        rs, ss = R.rays[s], R.step[s]
        for d in ALL_DIRECTIONS:
            ray = rs[d]
            base = ()
            if withdrawer:
                back = ss[OPPOSITE[d]]
                if back >= 0 and -b[back] * c == withdrawer:
                    base = (back,)
            orthogonal = d < 4
            jumped = ()
            n = len(ray)
            i = 0
            while i < n:
                t = ray[i]
                w = b[t]
                if w == 0:
                    if pure and jumped:
                        app((s, t, jumped))
                    else:
                        caps = base + jumped
                        if coordinator:
                            caps += _COORDINATION.caps(R, b, c, s, d, t, kings, coordinator)
                        if pawn and orthogonal:
                            caps += _CUSTODIAN.caps(R, b, c, s, d, t, kings, pawn)
                        app((s, t, caps))
                    i += 1
                elif leaper and -w * c == leaper and i + 1 < n and b[ray[i + 1]] == 0:
                    jumped += (t,)
                    i += 1
                else:
                    break

    def captures(self, R, b, a, s, k, kings):
        victim = -b[k] * a
        if victim in R.imitation["step"]:
            return k in R.neighbour_sets[s]
        return Primitive.captures(self, R, b, a, s, k, kings)

    def deps(self, R, b, a, s, k, kings):
        return () if -b[k] * a in R.imitation["step"] else None


@dataclass(frozen=True, eq=False)
class Swap(Primitive):
    """The Swapper (D14): exchanges squares with the first piece along any
    line (``FROM<>TO``), never with a friendly Swapper and never putting a
    Pawn on the first or last rank; captures nothing."""

    def gen(self, R, b, c, s, kings, app):
        me = b[s]
        pawn = R.pawn_code
        for ray in R.rays[s]:
            for t in ray:
                w = b[t]
                if not w:
                    continue
                if w != me and not (abs(w) == pawn and R.end_rank[s]):
                    app((s, t, (), SWAP))
                break

    def captures(self, R, b, a, s, k, kings):
        return False

    def deps(self, R, b, a, s, k, kings):
        return ()

    def reaches(self, R, b, a, s, g, kings):
        return False


@dataclass(frozen=True, eq=False)
class MutualDestruction(Primitive):
    """The Swapper's capture (D14): it removes itself and one adjacent enemy (``FROM-SxC``)."""

    def gen(self, R, b, c, s, kings, app):
        for t in R.neighbours[s]:
            if b[t] * c < 0:
                app((s, -1, (t,)))

    def captures(self, R, b, a, s, k, kings):
        return k in R.neighbour_sets[s]

    def deps(self, R, b, a, s, k, kings):
        return ()

    def reaches(self, R, b, a, s, g, kings):
        return False


@dataclass(frozen=True, eq=False)
class Mimic(Primitive):
    """The Mimotaur (D15): captures by replacement the way its victim does
    (each enemy type's ``mimic`` primitives, with the Mimotaur's own forward
    for a Pawn). A type with no ``mimic`` (the Mimotaur) is never taken so."""

    def gen(self, R, b, c, s, kings, app):
        for victim, prims in R.mimic_patterns:
            for p in prims:
                p.gen_replace(R, b, c, s, victim, app)

    def captures(self, R, b, a, s, k, kings):
        victim = -b[k] * a
        for p in R.mimic_of.get(victim, ()):
            if p.replace_attacks(R, b, a, s, k):
                return True
        return False

    def deps(self, R, b, a, s, k, kings):
        out = []
        for p in R.mimic_of.get(-b[k] * a, ()):
            out.extend(p.replace_deps(R, b, a, s, k))
        return out

    def reaches(self, R, b, a, s, g, kings):
        return b[g] * a < 0 and self.captures(R, b, a, s, g, kings)


_COORDINATION = Coordination()
_CUSTODIAN = Custodian()

# --------------------------------------------------------------- piece types
ORTH = ORTHOGONAL
DIAG = DIAGONAL
ALL = ALL_DIRECTIONS

TYPES: dict[int, "PieceType"] = {}


@dataclass(frozen=True, eq=False)
class PieceType:
    """A kind of piece: ``code`` (unique among all games, stored ±code on the
    board), ``name``, lower-case FEN ``letter``, ``moves`` (its primitives) and
    attributes:

    - ``royal``: the King (check, castling);
    - ``freezer``: immobilizes adjacent enemies (M9, U9, D9);
    - ``freezes_freezer``: immobilizes an adjacent enemy freezer (the Chameleon);
    - ``never_frozen``: cannot be immobilized (the Mage);
    - ``imitated_as``: how a Chameleon captures it ("custodian", "withdrawal",
      "coordination", "leaping", "step") or None when it cannot;
    - ``mimic``: the replacement primitives a Mimotaur uses to capture it;
    - ``pawn``: a Deckle Pawn (promotion, en passant, the fifty-move clock).
    """

    code: int
    name: str
    letter: str
    moves: tuple = ()
    royal: bool = False
    freezer: bool = False
    freezes_freezer: bool = False
    never_frozen: bool = False
    imitated_as: str | None = None
    mimic: tuple = field(default=())
    pawn: bool = False

    def __post_init__(self):
        other = TYPES.get(self.code)
        if other is not None and other is not self:
            raise ValueError(f"piece code {self.code} used by {other.name} and {self.name}")
        TYPES[self.code] = self
