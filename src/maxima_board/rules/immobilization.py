"""Immobilization (M9, U9, D9): which pieces may not move."""
from __future__ import annotations


class Immobilization:
    """The freezing rules of :class:`maxima_board.rules.movegen.Rules`; reads the
    tables of :class:`maxima_board.rules.rule_tables.RuleTables`."""

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
