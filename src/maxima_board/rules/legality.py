"""Legality: which pseudo-legal moves leave no winning reply (M11/M12, U11, D5),
with the shortcut that skips the full test for moves that cannot matter."""
from __future__ import annotations

from .pieces import SWAP

Move = tuple  # raw move, see maxima_board.rules.movegen


class Legality:
    """The legal-move filter of :class:`maxima_board.rules.movegen.Rules`; asks its
    generation (``pseudo_moves``, ``special_moves``) and attacks (``attacked``,
    ``attacks``)."""

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
