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

from .notation import Move
from .position import Position
from .variant import WHITE

__all__ = ["Preview", "Reason", "preview", "why_not"]


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


@dataclass(frozen=True)
class Reason:
    """Why a move is not legal: ``text``, words for people (the game's
    square names unless :func:`why_not` is given others), and ``rule``, the
    rule of /work/shared/rules that forbids it ("U9"), empty when none
    applies (no piece there, the other side's piece)."""

    text: str
    rule: str = ""


def _freezers(position: Position, square: int) -> list[int]:
    """The enemy pieces next to ``square`` each of which alone keeps its
    piece immobilized: the position's own immobilization test, asked with
    every other adjacent enemy taken off."""
    g = position.geometry
    own = position.board[square]
    fx, fy = square % g.files, square // g.files
    near = [q for q, v in enumerate(position.board)
            if v * own < 0 and max(abs(q % g.files - fx), abs(q // g.files - fy)) == 1]
    out = []
    for q in near:
        trial = position.copy()
        trial.board = list(position.board)
        for other in near:
            if other != q:
                trial.board[other] = 0
        if square in trial.immobilized():
            out.append(q)
    return out


def why_not(position: Position, from_square: int, to_square: int | None,
            names: "list[str] | tuple[str, ...] | None" = None) -> Reason | None:
    """Why no legal move takes the piece on ``from_square`` to
    ``to_square`` (None: a suicide or a mutual destruction), or None when
    one does. ``names``: the square names to use (the game's by default)."""
    p = position
    if any(m.from_square == from_square and m.to_square == to_square and m.placed is None
           for m in p.legal_moves):
        return None
    names = p.geometry.names if names is None else names
    v = p.variant
    piece = p.piece_at(from_square)
    if piece is None:
        return Reason(f"No piece on {names[from_square]}.")
    side = "White" if p.turn == WHITE else "Black"
    if piece.color != p.turn:
        return Reason(f"{side} to move, not the {piece.name} on {names[from_square]}.")
    where = f"{piece.name} {names[from_square]}"
    if from_square in p.immobilized():
        found = _freezers(p, from_square)
        by = " and ".join(f"the {p.piece_at(q).name} on {names[q]}" for q in found)
        return Reason(f"{where} is frozen by {by}." if by else f"{where} is frozen.", v.freeze_rule)
    tried = [m for m in p.pseudo_moves(p.turn) if m.from_square == from_square and m.to_square == to_square]
    state = getattr(p, "state", None)            # Deckle's (ban, ...); an Optima position has none
    ban = state[2] if state is not None else None
    if ban is not None and tuple(ban[:2]) == (from_square, to_square):
        return Reason(f"{v.title}: no swap back at once ({names[from_square]}<>{names[to_square]}).", v.swap_rule)
    if not tried:
        there = names[to_square] if to_square is not None else "off the board"
        return Reason(f"{where} cannot move to {there}.")
    return _unsafe(p, tried[0], names)


def _unsafe(p: Position, move: Move, names) -> Reason:
    """Why the pseudo-legal ``move`` is not legal: the own palace filled
    (M11), else what the opponent could then win (M12, U11, D5)."""
    v = p.variant
    after = p.tried(move)
    goals = v.white_goals if p.turn == WHITE else v.black_goals
    if v.palace_rule and goals and all(after.board[q] * p.turn > 0 for q in goals):
        return Reason(f"{v.title}: no move into your own palace.", v.palace_rule)
    check = after.check_info()
    if check.king is not None:
        return Reason(f"Your King would be taken on {names[check.king]}.", v.check_rule)
    if check.palace:
        return Reason(f"Your palace would be invaded on {' and '.join(names[q] for q in check.palace)}.",
                      v.check_rule)
    return Reason("Your King would be in check.", v.check_rule)
