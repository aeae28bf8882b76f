"""Move generation, immobilization, check and legality for any variant.

The board is a list of ints (0 empty, +code White, -code Black, codes from
:mod:`maxima_board.rules.pieces`). ``kings`` is a 3-list indexed by colour (``kings[1]``
White, ``kings[-1]`` Black) holding the King's square or -1. A raw move is
``(from, to, captures)`` or ``(from, to, captures, kind, arg)`` with a kind of
:mod:`maxima_board.rules.pieces` (CASTLE, SWAP, PROMOTE, EN_PASSANT); ``to`` is -1 for a
suicide or a mutual destruction. Captures are in no particular order here.

The control flow below knows no piece: it asks each primitive of each piece
type (``PieceType.moves``) for moves and look-back attacks, and reads the
variant's rule switches. Deckle's games carry a state tuple
``(castling bits, en-passant squares, swap-back ban)`` besides the board.
"""
from __future__ import annotations

from .geometry import ALL_DIRECTIONS
from .pieces import CASTLE, EN_PASSANT, PROMOTE, SWAP

Move = tuple  # raw move, see the module docstring

# Castling bits of the state tuple (D3 field 3 order).
WK, WQ, BK, BQ = 1, 2, 4, 8


class Rules:
    """Move generation for one variant; every table is the variant's."""

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

    # ---------------------------------------------------------- immobilization
    def mobile(self, b: list[int], x: int, a: int) -> bool:
        """Whether the piece of colour ``a`` on ``x`` may move (M9, U9, D9)."""
        if not self.freezers:
            return True
        code = b[x] * a
        if code in self.never_frozen:
            return True
        nb = self.neighbours[x]
        if code in self.freezer_set:
            for n in nb:
                if -b[n] * a in self.freezes_freezer:
                    return False
        for n in nb:
            e = -b[n] * a
            if e in self.freezer_set:
                if not self.pure:
                    return False
                neutralized = False
                for m in self.neighbours[n]:
                    if m != x and b[m] * a in self.neutralizers:
                        neutralized = True
                        break
                if not neutralized:
                    return False
        return True

    def frozen_squares(self, b: list[int], c: int) -> set[int]:
        """The squares of colour ``c``'s immobilized pieces."""
        out: set[int] = set()
        if not self.freezers:
            return out
        mobile = self.mobile
        for code in self.freezers:
            enemy = -c * code
            if enemy in b:
                for x, v in enumerate(b):
                    if v == enemy:
                        for n in self.neighbours[x]:
                            if b[n] * c > 0 and n not in out and not mobile(b, n, c):
                                out.add(n)
            own = c * code
            if self.freezes_freezer and own in b:
                for x, v in enumerate(b):
                    if v == own and x not in out and not mobile(b, x, c):
                        out.add(x)
        return out

    # ---------------------------------------------------------- generation
    def pseudo_moves(self, b: list[int], c: int, kings: list[int]) -> list[Move]:
        """Every move of colour ``c`` allowed by movement and capture rules,
        with suicides of immobilized pieces where the variant has them; no
        King safety, castling, en passant or swap-back ban."""
        out: list[Move] = []
        app = out.append
        frozen = self.frozen_squares(b, c) if self.freezers else ()
        suicide = self.variant.suicide
        king = self.king_code
        prims = self.prims
        for s, v in enumerate(b):
            v *= c
            if v <= 0:
                continue
            if frozen and s in frozen:
                if suicide and v != king:
                    app((s, -1, ()))
                continue
            for p in prims[v]:
                p.gen(self, b, c, s, kings, app)
        return out

    def special_moves(self, b: list[int], c: int, kings: list[int], state) -> list[Move]:
        """Castling (D6) and en passant (D7) of colour ``c`` in ``state``."""
        out: list[Move] = []
        castling, ep, _ban = state
        if ep and self.pawn_code > 0:
            pawn = c * self.pawn_code
            victim = self.ep_victim(ep, -c)
            frozen = None
            for e in ep:
                for s in self.pawn_caps[-c][e]:
                    if b[s] == pawn:
                        if frozen is None:
                            frozen = self.frozen_squares(b, c)
                        if s not in frozen and b[e] == 0:
                            out.append((s, e, (victim,), EN_PASSANT, None))
        if castling and self.variant.castling:
            out.extend(self._castles(b, c, kings, castling))
        return out

    def ep_victim(self, ep: tuple, mover: int) -> int:
        """The square of the Pawn of ``mover`` whose advance crossed ``ep``."""
        return self.pawn_step[mover][max(ep) if mover == 1 else min(ep)]

    def castle_squares(self, c: int):
        """For colour ``c``: ((bit, king_from, king_to, rook_from, rook_to,
        must_be_empty, must_not_be_attacked), ...) for king and queen side."""
        g = self.variant.geometry
        rank = g.ranks[0] if c == 1 else g.ranks[-1]
        at = lambda f: g.at(f, rank)  # noqa: E731
        kbit, qbit = (WK, WQ) if c == 1 else (BK, BQ)
        return ((kbit, at(5), at(8), at(9), at(7), (at(6), at(7), at(8)), (at(6), at(7), at(8))),
                (qbit, at(5), at(2), at(0), at(3), (at(1), at(2), at(3), at(4)), (at(4), at(3), at(2))))

    def _castles(self, b, c, kings, castling):
        king = c * self.king_code
        rook = c * self.variant.type_of("r").code
        out = []
        for bit, kf, kt, rf, rt, empty, safe in self.castle_squares(c):
            if not castling & bit or b[kf] != king or b[rf] != rook:
                continue
            if any(b[x] for x in empty):
                continue
            if not self.mobile(b, kf, c) or not self.mobile(b, rf, c):
                continue
            if self.attacked(b, -c, kf, kings):
                continue
            ok = True
            b[kf] = 0
            for x in safe:
                b[x] = king
                kings[c] = x
                hit = self.attacked(b, -c, x, kings)
                b[x] = 0
                if hit:
                    ok = False
                    break
            b[kf] = king
            kings[c] = kf
            if ok:
                out.append((kf, kt, (), CASTLE, (rf, rt)))
        return out

    # ------------------------------------------------------ making moves
    def make(self, b: list[int], kings: list[int], m: Move) -> tuple:
        """Play ``m`` on the bare board; returns what ``unmake`` needs."""
        frm, to, caps = m[0], m[1], m[2]
        p = b[frm]
        rk = self.king_code
        taken = tuple(b[x] for x in caps)
        for x, v in zip(caps, taken):
            b[x] = 0
            if v == rk or v == -rk:
                kings[1 if v > 0 else -1] = -1
        other = 0
        if len(m) > 3:
            kind = m[3]
            if kind == SWAP:
                other = b[to]
                b[to], b[frm] = p, other
                if other == rk or other == -rk:
                    kings[1 if other > 0 else -1] = frm
                if p == rk or p == -rk:
                    kings[1 if p > 0 else -1] = to
                return p, taken, other
            b[frm] = 0
            if kind == PROMOTE:
                b[to] = m[4] if p > 0 else -m[4]
                return p, taken, 0
            b[to] = p
            if kind == CASTLE:
                rf, rt = m[4]
                b[rt], b[rf] = b[rf], 0
            if p == rk or p == -rk:
                kings[1 if p > 0 else -1] = to
            return p, taken, 0
        b[frm] = 0
        if to >= 0:
            b[to] = p
            if p == rk or p == -rk:
                kings[1 if p > 0 else -1] = to
        elif p == rk or p == -rk:
            kings[1 if p > 0 else -1] = -1
        return p, taken, 0

    def unmake(self, b: list[int], kings: list[int], m: Move, undo: tuple) -> None:
        frm, to, caps = m[0], m[1], m[2]
        p, taken, other = undo
        rk = self.king_code
        if len(m) > 3:
            kind = m[3]
            if kind == SWAP:
                b[frm], b[to] = p, other
                if other == rk or other == -rk:
                    kings[1 if other > 0 else -1] = to
            else:
                b[to] = 0
                b[frm] = p
                if kind == CASTLE:
                    rf, rt = m[4]
                    b[rf], b[rt] = b[rt], 0
        else:
            if to >= 0:
                b[to] = 0
            b[frm] = p
        if p == rk or p == -rk:
            kings[1 if p > 0 else -1] = frm
        for x, v in zip(caps, taken):
            b[x] = v
            if v == rk or v == -rk:
                kings[1 if v > 0 else -1] = x

    def next_state(self, b: list[int], m: Move, state):
        """The state after ``m`` (not yet played): castling rights lost by
        touching a home square (D6), the squares an initial advance crossed
        (D7), the swap-back ban (D14)."""
        if state is None:
            return None
        castling, _ep, _ban = state
        frm, to, caps = m[0], m[1], m[2]
        kind = m[3] if len(m) > 3 else 0
        if castling:
            touched = {frm, to, *caps}
            if kind == CASTLE:
                touched.update(m[4])
            for bit, sq in self.castle_homes:
                if castling & bit and sq in touched:
                    castling &= ~bit
        ep = ()
        ban = None
        p = b[frm]
        if kind == SWAP:
            if b[to] == -p:
                ban = (frm, to)
        elif abs(p) == self.pawn_code and to >= 0 and kind == 0:
            c = 1 if p > 0 else -1
            x = self.pawn_step[c][frm]
            crossed = []
            while x != to and x >= 0 and len(crossed) < 3:
                crossed.append(x)
                x = self.pawn_step[c][x]
            if crossed and x == to:
                ep = tuple(sorted(crossed))
        return castling, ep, ban

    def palace_held(self, b: list[int], owner: int, holder: int) -> bool:
        """Whether both goal squares of ``owner`` hold pieces of ``holder``."""
        goals = self.goals[owner]
        if not goals:
            return False
        g1, g2 = goals
        return b[g1] * holder > 0 and b[g2] * holder > 0

    # -------------------------------------------------------- legality
    def relevant_squares(self, b: list[int], c: int, kings: list[int]) -> set[int] | None:
        """The squares a plain move of ``c`` must empty (its start square or a
        capture) to possibly give the opponent a winning reply, or None when
        every move needs the full test (in check, a palace square held by
        the opponent, a piece whose dependencies are unknown).

        When ``c`` is not in check now, a reply that captures its King after
        ``c``'s move needs a changed square among the squares the attacker's
        test reads (``Primitive.deps``); moves of the King, of freezers and
        of freezers and Chameleons leaving an enemy's side, and special moves
        are always tested fully."""
        k = kings[c]
        if k < 0:
            return None
        a = -c
        if self.palace:
            g1, g2 = self.goals[c]
            if b[g1] * a > 0 or b[g2] * a > 0:
                return None
        if self.attacked(b, a, k, kings):
            return None
        z: set[int] = set()
        prims = self.prims
        for s, v in enumerate(b):
            v *= a
            if v <= 0:
                continue
            for p in prims[v]:
                more = p.deps(self, b, a, s, k, kings)
                if more is None:
                    return None
                z.update(more)
        return z

    def _filter(self, b: list[int], c: int, kings: list[int], moves: list[Move], count: bool, shortcut: bool):
        out = []
        n = 0
        make, unmake = self.make, self.unmake
        z = self.relevant_squares(b, c, kings) if shortcut else None
        always = self.always_test
        palace = self.palace
        if palace:
            og1, og2 = self.goals[c]
            eg1, eg2 = self.goals[-c]
            attacks = self.attacks
        else:
            attacked = self.attacked
        unfreezers = self.unfreezers
        neighbours = self.neighbours
        pieces = [(s, self.prims[v * -c]) for s, v in enumerate(b) if v * c < 0]
        for m in moves:
            if z is not None and len(m) == 3:
                frm = m[0]
                v = b[frm] * c
                if v in always:
                    pass
                elif v in unfreezers and any(b[x] * c < 0 for x in neighbours[frm]):
                    pass
                else:
                    # filling a square only blocks: what matters is what the move empties
                    to = m[1]
                    if frm not in z and not (palace and (to == og1 or to == og2)):
                        for x in m[2]:
                            if x in z:
                                break
                        else:
                            n += 1
                            if not count:
                                out.append(m)
                            continue
            # a swap moves an enemy piece: the list of enemy pieces is stale
            enemy = None if len(m) > 3 and m[3] == SWAP else pieces
            undo = make(b, kings, m)
            if palace:
                ok = not (b[og1] * c > 0 and b[og2] * c > 0) and \
                    ((b[eg1] * c > 0 and b[eg2] * c > 0) or not attacks(b, -c, kings, enemy))
            else:
                k = kings[c]
                ok = k < 0 or not attacked(b, -c, k, kings, enemy)
            unmake(b, kings, m, undo)
            if ok:
                n += 1
                if not count:
                    out.append(m)
        return n if count else out

    def _candidates(self, b: list[int], c: int, kings: list[int], state) -> list[Move]:
        moves = self.pseudo_moves(b, c, kings)
        if state is not None:
            moves += self.special_moves(b, c, kings, state)
            ban = state[2]
            if ban is not None:
                moves = [m for m in moves if not (len(m) > 3 and m[3] == SWAP and m[0] == ban[0] and m[1] == ban[1])]
        return moves

    def legal_moves(self, b: list[int], c: int, kings: list[int], state=None, shortcut: bool = True) -> list[Move]:
        """The legal moves of ``c`` (M11/M12, U11, D5, D6, D7, D14).
        ``shortcut=False`` tests every move fully (the reference)."""
        return self._filter(b, c, kings, self._candidates(b, c, kings, state), False, shortcut)

    def count_legal(self, b: list[int], c: int, kings: list[int], state=None) -> int:
        """The number of legal moves of ``c`` (perft leaves), without building the list."""
        return self._filter(b, c, kings, self._candidates(b, c, kings, state), True, True)

    # ------------------------------------------------------ attacks
    def attacked(self, b: list[int], a: int, k: int, kings: list[int], pieces=None) -> bool:
        """Whether a mobile piece of colour ``a`` could remove the piece on
        ``k``. ``pieces``: (square, primitives) of every piece of ``a`` that
        may still stand there (stale entries are skipped), to avoid a scan."""
        if pieces is None:
            prims = self.prims
            pieces = [(s, prims[v * a]) for s, v in enumerate(b) if v * a > 0]
        for s, ps in pieces:
            if b[s] * a <= 0:
                continue
            for p in ps:
                if p.captures(self, b, a, s, k, kings):
                    if self.mobile(b, s, a):
                        return True
                    break
        return False

    def attacks(self, b: list[int], a: int, kings: list[int], pieces=None) -> bool:
        """Whether colour ``a`` has a winning reply: it could capture the
        enemy King (U11, D5) or, in Maxima, also complete the invasion of the
        enemy palace (M12). ``pieces`` as for :meth:`attacked`."""
        d = -a
        k = kings[d]
        if k >= 0 and self.attacked(b, a, k, kings, pieces):
            return True
        if not self.palace:
            return False
        g1, g2 = self.goals[d]
        h1, h2 = b[g1] * a > 0, b[g2] * a > 0
        if h1 and h2:
            return bool(self.winning_reply_moves(b, a, kings))
        if h1:
            return self._reaches(b, a, g2, g1, kings)
        if h2:
            return self._reaches(b, a, g1, g2, kings)
        return False

    def _reaches(self, b, a, g, exclude, kings) -> bool:
        prims = self.prims
        for s, v in enumerate(b):
            v *= a
            if v <= 0 or s == exclude:
                continue
            for p in prims[v]:
                if p.reaches(self, b, a, s, g, kings):
                    if self.mobile(b, s, a):
                        return True
                    break
        return False

    def winning_reply_moves(self, b: list[int], a: int, kings: list[int]) -> list[Move]:
        """Every move of ``a`` that captures the enemy King or (Maxima) wins
        by invasion, found by generating all of ``a``'s moves: the reference
        that ``attacks`` must agree with."""
        d = -a
        k = kings[d]
        out = []
        for m in self.pseudo_moves(b, a, kings):
            if k >= 0 and k in m[2]:
                out.append(m)
                continue
            if not self.palace:
                continue
            ag1, ag2 = self.goals[a]
            dg1, dg2 = self.goals[d]
            undo = self.make(b, kings, m)
            if not (b[ag1] * a > 0 and b[ag2] * a > 0) and b[dg1] * a > 0 and b[dg2] * a > 0:
                out.append(m)
            self.unmake(b, kings, m, undo)
        return out
