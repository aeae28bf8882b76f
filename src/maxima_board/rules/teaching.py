"""Teaching (issue 34): what a lifted piece could do, and why a move is not legal.

:func:`preview` answers "what would this piece take?" from the legal
moves themselves (``Move.captures``, Optima's ``Move.converts``) and from
the immobilization rules (M9, U9, D9, O10) applied to the board after
each move: every kind of capture of the 21 games (withdrawal, long leap,
coordination, pincer, approach, replacement, the Chameleon's borrowed
captures, Optima's shots and conversions) and an Immobilizer's freeze,
with no table of its own.

:func:`why_not` says why ``from_square`` to ``to_square`` is not a legal
move, in words, with the rule that forbids it (:class:`Reason`), from the
same checks legality makes: the side to move, immobilization, the piece's
movement (:meth:`Position.pseudo_moves`), the own palace (M11), the swap
back (D14) and the King's safety (M12, U11, D5: :meth:`Position.check_info`
of the board after the move).
"""
from __future__ import annotations

from dataclasses import dataclass

from .position import Position

__all__ = ["Preview", "preview"]


@dataclass(frozen=True)
class Preview:
    """What the piece on a square could do now: ``targets``, the squares
    its legal moves end on; ``captures``, every enemy piece some legal move
    of it removes or converts (Optima); ``freezes``, every enemy piece some
    legal move of it leaves newly immobilized. Squares in increasing order."""

    targets: tuple[int, ...] = ()
    captures: tuple[int, ...] = ()
    freezes: tuple[int, ...] = ()


def preview(position: Position, square: int) -> Preview:
    """The :class:`Preview` of the piece on ``square`` (none when it has no legal move)."""
    moves = [m for m in position.legal_moves if m.from_square == square and m.placed is None]
    piece = position.piece_at(square)
    if not moves or piece is None:
        return Preview()
    enemy = -piece.color
    targets = {m.to_square for m in moves if m.to_square is not None and m.to_square != square}
    captures = {q for m in moves for q in m.captures + m.converts}
    frozen = set(position.immobilized())
    freezes: set[int] = set()
    for m in moves:
        after = position.copy()
        after.board = position.board_after(m)
        for q in after.immobilized():
            if q not in frozen and after.board[q] * enemy > 0:
                freezes.add(q)
    return Preview(tuple(sorted(targets)), tuple(sorted(captures)), tuple(sorted(freezes - captures)))
