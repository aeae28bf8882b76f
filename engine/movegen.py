"""Move generation and winning-reply detection on a bare board.

The board is a list of ints (0 empty, +code White, -code Black). ``kings`` is
a 3-list indexed by colour (``kings[1]`` White, ``kings[-1]`` Black) holding
the King's square or -1. A move is the tuple ``(from, to, captures)``; ``to``
is -1 for a suicide. Captures are in no particular order here.
"""
from __future__ import annotations

from .geometry import DIAGONAL, NE, NW, OPPOSITE, ORTHOGONAL, SE, SW, N, E, S, W
from .variant import (CHAMELEON, COORDINATOR, GUARD, IMMOBILIZER, KING, LEAPER, MAGE, PAWN,
                      WITHDRAWER, Variant)

# After its diagonal step a Mage may slide along either orthogonal component.
_MAGE_SLIDES = {NE: (N, E), SE: (S, E), SW: (S, W), NW: (N, W)}
# A Mage that ends a slide travelling in orthogonal direction o started one
# diagonal step back from its first slide square: these are the ways back.
_MAGE_ORIGINS = {o: tuple(OPPOSITE[d] for d in DIAGONAL if o in _MAGE_SLIDES[d]) for o in ORTHOGONAL}
_SLIDERS = frozenset((WITHDRAWER, COORDINATOR, LEAPER, CHAMELEON, IMMOBILIZER))
_CHAMELEON_STEP_VICTIMS = frozenset((KING, GUARD, MAGE))

Move = tuple  # (from, to, captures)


class Rules:
    """Move generation for one variant; all tables are the variant's."""

    def __init__(self, variant: Variant):
        g = variant.geometry
        self.variant = variant
        self.size = g.size
        self.rays = g.rays
        self.step = g.step
        self.neighbours = g.neighbours
        self.file_of = tuple(g.file_of)
        self.rank_of = tuple(g.rank_of)
        self.grid = g.grid
        self.min_rank = g.min_rank
        self.king_moves = variant.king_moves
        self.king_move_sets = tuple(frozenset(t) for t in variant.king_moves)
        self.goals = {1: variant.white_goals, -1: variant.black_goals}

    # ------------------------------------------------------------------ helpers
    def frozen_squares(self, b: list[int], c: int) -> set[int]:
        """The squares of colour ``c``'s immobilized pieces."""
        out: set[int] = set()
        neighbours = self.neighbours
        enemy_imm = -c * IMMOBILIZER
        if enemy_imm in b:
            start = 0
            cnt = b.count(enemy_imm)
            for _ in range(cnt):
                x = b.index(enemy_imm, start)
                start = x + 1
                for n in neighbours[x]:
                    v = b[n] * c
                    if v > 0 and v != MAGE:
                        out.add(n)
        own_imm = c * IMMOBILIZER
        enemy_cham = -c * CHAMELEON
        if own_imm in b and enemy_cham in b:
            for x, v in enumerate(b):
                if v == own_imm and x not in out:
                    for n in neighbours[x]:
                        if b[n] == enemy_cham:
                            out.add(x)
                            break
        return out

    def _coordinator_captures(self, b: list[int], c: int, t: int, king: int, victim: int | None) -> tuple[int, ...]:
        """Squares captured by coordination when a piece of ``c`` stops on ``t``.

        ``victim`` restricts the captured pieces to one type (Chameleon)."""
        if king < 0:
            return ()
        fo, ro = self.file_of, self.rank_of
        kf, kr = fo[king], ro[king]
        tf, tr = fo[t], ro[t]
        if tf == kf or tr == kr:
            return ()
        grid, low = self.grid, self.min_rank
        out = ()
        for sq in (grid[tf][kr - low], grid[kf][tr - low]):
            if sq >= 0:
                v = b[sq] * c
                if v < 0 and (victim is None or v == -victim):
                    out += (sq,)
        return out

    def _pincers(self, b: list[int], c: int, t: int, victim: int | None) -> tuple[int, ...]:
        """Enemy pieces pinned between ``t`` and a friendly piece beyond (M4)."""
        step = self.step
        out = ()
        st = step[t]
        for e in ORTHOGONAL:
            a = st[e]
            if a < 0:
                continue
            v = b[a] * c
            if v < 0 and (victim is None or v == -victim):
                beyond = step[a][e]
                if beyond >= 0 and b[beyond] * c > 0:
                    out += (a,)
        return out

    # ----------------------------------------------------------- generation
    def pseudo_moves(self, b: list[int], c: int, kings: list[int]) -> list[Move]:
        """Every move of colour ``c`` allowed by movement and capture rules,
        ignoring M11 and M12. Immobilized pieces other than the King get their
        suicide (M10)."""
        out: list[Move] = []
        app = out.append
        rays, step, neighbours = self.rays, self.step, self.neighbours
        frozen = self.frozen_squares(b, c)
        king = kings[c]
        for s in range(self.size):
            v = b[s] * c
            if v <= 0:
                continue
            if s in frozen:
                if v != KING:
                    app((s, -1, ()))
                continue
            if v == PAWN:
                rs = rays[s]
                for d in ORTHOGONAL:
                    for t in rs[d]:
                        if b[t]:
                            break
                        app((s, t, self._pincers(b, c, t, None)))
            elif v == KING or v == GUARD:
                for t in (self.king_moves[s] if v == KING else neighbours[s]):
                    w = b[t] * c
                    if w == 0:
                        app((s, t, ()))
                    elif w < 0:
                        app((s, t, (t,)))
            elif v == IMMOBILIZER:
                for ray in rays[s]:
                    for t in ray:
                        if b[t]:
                            break
                        app((s, t, ()))
            elif v == LEAPER:
                for ray in rays[s]:
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
            elif v == WITHDRAWER:
                rs, ss = rays[s], step[s]
                for d in range(8):
                    back = ss[OPPOSITE[d]]
                    cap = (back,) if back >= 0 and b[back] * c < 0 else ()
                    for t in rs[d]:
                        if b[t]:
                            break
                        app((s, t, cap))
            elif v == COORDINATOR:
                for ray in rays[s]:
                    for t in ray:
                        if b[t]:
                            break
                        app((s, t, self._coordinator_captures(b, c, t, king, None)))
            elif v == MAGE:
                ss = step[s]
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
                    for o in _MAGE_SLIDES[d]:
                        for t in rx[o]:
                            w = b[t] * c
                            if w == 0:
                                app((s, t, ()))
                                continue
                            if w < 0:
                                app((s, t, (t,)))
                            break
            elif v == CHAMELEON:
                self._chameleon_moves(b, c, s, king, app)
        return out

    def _chameleon_moves(self, b: list[int], c: int, s: int, king: int, app) -> None:
        step = self.step
        for t in self.neighbours[s]:
            if b[t] * c < 0 and -b[t] * c in _CHAMELEON_STEP_VICTIMS:
                app((s, t, (t,)))
        enemy_leaper = -c * LEAPER
        enemy_withdrawer = -c * WITHDRAWER
        rs, ss = self.rays[s], step[s]
        for d in range(8):
            ray = rs[d]
            back = ss[OPPOSITE[d]]
            base = (back,) if back >= 0 and b[back] == enemy_withdrawer else ()
            orthogonal = d < 4
            n = len(ray)
            i = 0
            while i < n:
                t = ray[i]
                w = b[t]
                if w == 0:
                    caps = base + self._coordinator_captures(b, c, t, king, COORDINATOR)
                    if orthogonal:
                        caps += self._pincers(b, c, t, PAWN)
                    app((s, t, caps))
                    i += 1
                elif w == enemy_leaper and i + 1 < n and b[ray[i + 1]] == 0:
                    base += (t,)
                    i += 1
                else:
                    break

    # ------------------------------------------------------ making moves
    @staticmethod
    def make(b: list[int], kings: list[int], m: Move) -> tuple:
        """Play ``m`` on the bare board; returns what ``unmake`` needs."""
        frm, to, caps = m
        p = b[frm]
        taken = tuple(b[x] for x in caps)
        for x, v in zip(caps, taken):
            b[x] = 0
            if v == KING or v == -KING:
                kings[1 if v > 0 else -1] = -1
        b[frm] = 0
        if to >= 0:
            b[to] = p
            if p == KING or p == -KING:
                kings[1 if p > 0 else -1] = to
        elif p == KING or p == -KING:
            kings[1 if p > 0 else -1] = -1
        return p, taken

    @staticmethod
    def unmake(b: list[int], kings: list[int], m: Move, undo: tuple) -> None:
        frm, to, caps = m
        p, taken = undo
        if to >= 0:
            b[to] = 0
        b[frm] = p
        if p == KING or p == -KING:
            kings[1 if p > 0 else -1] = frm
        for x, v in zip(caps, taken):
            b[x] = v
            if v == KING or v == -KING:
                kings[1 if v > 0 else -1] = x

    def palace_held(self, b: list[int], owner: int, holder: int) -> bool:
        """Whether both goal squares of ``owner`` hold pieces of ``holder``."""
        g1, g2 = self.goals[owner]
        return b[g1] * holder > 0 and b[g2] * holder > 0

    def legal_moves(self, b: list[int], c: int, kings: list[int]) -> list[Move]:
        """The moves of ``c`` legal under M11 and M12."""
        out = []
        og1, og2 = self.goals[c]
        eg1, eg2 = self.goals[-c]
        make, unmake, attacks = self.make, self.unmake, self.attacks
        for m in self.pseudo_moves(b, c, kings):
            undo = make(b, kings, m)
            if b[og1] * c > 0 and b[og2] * c > 0:
                pass  # M11: own palace filled
            elif (b[eg1] * c > 0 and b[eg2] * c > 0) or not attacks(b, -c, kings):
                out.append(m)
            unmake(b, kings, m, undo)
        return out

    def count_legal(self, b: list[int], c: int, kings: list[int]) -> int:
        n = 0
        og1, og2 = self.goals[c]
        eg1, eg2 = self.goals[-c]
        make, unmake, attacks = self.make, self.unmake, self.attacks
        for m in self.pseudo_moves(b, c, kings):
            undo = make(b, kings, m)
            if b[og1] * c > 0 and b[og2] * c > 0:
                pass
            elif (b[eg1] * c > 0 and b[eg2] * c > 0) or not attacks(b, -c, kings):
                n += 1
            unmake(b, kings, m, undo)
        return n

    # ------------------------------------------------------ winning replies
    def winning_reply_moves(self, b: list[int], a: int, kings: list[int]) -> list[Move]:
        """Every move of ``a`` that wins at once (M12), found by generating all
        of ``a``'s moves: the reference that ``attacks`` must agree with."""
        d = -a
        k = kings[d]
        ag1, ag2 = self.goals[a]
        dg1, dg2 = self.goals[d]
        out = []
        for m in self.pseudo_moves(b, a, kings):
            if k >= 0 and k in m[2]:
                out.append(m)
                continue
            undo = self.make(b, kings, m)
            if not (b[ag1] * a > 0 and b[ag2] * a > 0) and b[dg1] * a > 0 and b[dg2] * a > 0:
                out.append(m)
            self.unmake(b, kings, m, undo)
        return out

    def attacks(self, b: list[int], a: int, kings: list[int]) -> bool:
        """Whether colour ``a`` has a winning reply (M12): a move capturing
        the enemy King or completing the invasion of the enemy palace. Looks
        back from the King and the palace squares, one capture method at a time."""
        d = -a
        k = kings[d]
        if k >= 0 and self._king_attacked(b, a, k, kings[a]):
            return True
        g1, g2 = self.goals[d]
        h1, h2 = b[g1] * a > 0, b[g2] * a > 0
        if h1 and h2:
            return bool(self.winning_reply_moves(b, a, kings))
        if h1:
            return self._reaches(b, a, g2, g1)
        if h2:
            return self._reaches(b, a, g1, g2)
        return False

    def _mobile(self, b: list[int], x: int, a: int, p: int) -> bool:
        if p == MAGE:
            return True
        enemy_imm = -a * IMMOBILIZER
        nb = self.neighbours[x]
        for n in nb:
            if b[n] == enemy_imm:
                return False
        if p == IMMOBILIZER:
            enemy_cham = -a * CHAMELEON
            for n in nb:
                if b[n] == enemy_cham:
                    return False
        return True

    def _king_attacked(self, b: list[int], a: int, k: int, ak: int) -> bool:
        step, rays = self.step, self.rays
        mobile = self._mobile
        # King leap
        if ak >= 0 and ak in self.king_move_sets[k] and mobile(b, ak, a, KING):
            return True
        sk = step[k]
        rk = rays[k]
        for dr in range(8):
            n = sk[dr]
            if n < 0:
                continue
            p = b[n] * a
            if p <= 0:
                continue
            if p == GUARD or p == CHAMELEON:
                if mobile(b, n, a, p):
                    return True
            elif p == MAGE:
                if dr >= 4:
                    return True
            elif p == WITHDRAWER:
                beyond = step[n][dr]
                if beyond >= 0 and b[beyond] == 0 and mobile(b, n, a, p):
                    return True
        for u in range(8):
            # Long Leaper travelling in direction u jumps k and lands beyond it.
            land = sk[u]
            if land < 0 or b[land] != 0:
                continue
            last_empty = False
            for x in rk[OPPOSITE[u]]:
                v = b[x] * a
                if v == 0:
                    last_empty = True
                elif v > 0:
                    if v == LEAPER and mobile(b, x, a, v):
                        return True
                    break
                elif last_empty:
                    last_empty = False
                else:
                    break
        a_mage = a * MAGE
        for o in ORTHOGONAL:
            # Mage sliding in direction o ends on k.
            for x in rk[OPPOSITE[o]]:
                if b[x] != 0:
                    break
                sx = step[x]
                for back in _MAGE_ORIGINS[o]:
                    m = sx[back]
                    if m >= 0 and b[m] == a_mage:
                        return True
        a_pawn = a * PAWN
        for dr in ORTHOGONAL:
            t = sk[dr]
            if t < 0 or b[t] != 0:
                continue
            anvil = sk[OPPOSITE[dr]]
            if anvil < 0 or b[anvil] * a <= 0:
                continue
            rt = rays[t]
            toward_king = OPPOSITE[dr]
            for e in ORTHOGONAL:
                if e == toward_king:
                    continue
                for x in rt[e]:
                    v = b[x]
                    if v:
                        if v == a_pawn and mobile(b, x, a, PAWN):
                            return True
                        break
        if ak >= 0:
            fo, ro = self.file_of, self.rank_of
            same_rank = ro[ak] == ro[k]
            same_file = fo[ak] == fo[k]
            if same_rank or same_file:
                a_coord = a * COORDINATOR
                if a_coord in b:
                    line_of = fo if same_rank else ro
                    target = line_of[k]
                    for cs, v in enumerate(b):
                        if v != a_coord or not mobile(b, cs, a, COORDINATOR):
                            continue
                        for ray in rays[cs]:
                            for t in ray:
                                if b[t]:
                                    break
                                if line_of[t] == target:
                                    return True
        return False

    def _reaches(self, b: list[int], a: int, g: int, exclude: int) -> bool:
        """Whether a mobile piece of ``a`` other than the one on ``exclude``
        has a move that ends on ``g``."""
        step, rays = self.step, self.rays
        mobile = self._mobile
        target = b[g] * a  # 0 empty, < 0 an enemy piece to replace
        for x in self.king_moves[g]:
            if b[x] == a * KING and x != exclude and mobile(b, x, a, KING):
                return True
        sg = step[g]
        for dr in range(8):
            n = sg[dr]
            if n < 0 or n == exclude:
                continue
            p = b[n] * a
            if p == GUARD:
                if mobile(b, n, a, p):
                    return True
            elif p == MAGE:
                if dr >= 4:
                    return True
            elif p == CHAMELEON and target < 0 and -target in _CHAMELEON_STEP_VICTIMS:
                if mobile(b, n, a, p):
                    return True
        rg = rays[g]
        a_mage = a * MAGE
        for o in ORTHOGONAL:
            for x in rg[OPPOSITE[o]]:
                if b[x] != 0:
                    break
                sx = step[x]
                for back in _MAGE_ORIGINS[o]:
                    m = sx[back]
                    if m >= 0 and m != exclude and b[m] == a_mage:
                        return True
        if target < 0:
            return False
        enemy_leaper = -a * LEAPER
        for dr in range(8):
            last_empty = True
            only_leapers = True
            jumped = False
            for x in rg[dr]:
                v = b[x] * a
                if v == 0:
                    last_empty = True
                    continue
                if v < 0:
                    if not last_empty:
                        break
                    last_empty = False
                    jumped = True
                    if b[x] != enemy_leaper:
                        only_leapers = False
                    continue
                if x == exclude:
                    break
                if v == LEAPER or (not jumped and (v in _SLIDERS or (v == PAWN and dr < 4))) \
                        or (v == CHAMELEON and only_leapers):
                    if mobile(b, x, a, v):
                        return True
                break
        return False
