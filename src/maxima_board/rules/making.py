"""Playing and taking back raw moves on the bare board, and the Deckle state they leave."""
from __future__ import annotations

from .pieces import CASTLE, PROMOTE, SWAP

Move = tuple  # raw move, see maxima_board.rules.movegen


class MoveMaking:
    """``make``, ``unmake`` and ``next_state`` of :class:`maxima_board.rules.movegen.Rules`."""

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
