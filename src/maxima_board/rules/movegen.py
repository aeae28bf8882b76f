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

from .immobilization import Immobilization
from .legality import Legality
from .making import MoveMaking
from .pieces import CASTLE, EN_PASSANT
from .rule_tables import RuleTables

Move = tuple  # raw move, see the module docstring


class Rules(Legality, MoveMaking, Immobilization, RuleTables):
    """Move generation for one variant; every table is the variant's
    (:class:`RuleTables`), freezing, making moves and legality each in their
    own class; generation and attacks here."""

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

    def palace_held(self, b: list[int], owner: int, holder: int) -> bool:
        """Whether both goal squares of ``owner`` hold pieces of ``holder``."""
        goals = self.goals[owner]
        if not goals:
            return False
        g1, g2 = goals
        return b[g1] * holder > 0 and b[g2] * holder > 0

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
