"""How a person makes a legal move on the board, as script lines.

Used by the simulated players of the tests and by ``bench/controller.py``:
``hand_lines`` writes the lifts, placements, waits and presses of one move,
in one of the orders people use (captured pieces off before or after the
mover lands; castling King first, Rook first or with both hands; a swap
with one hand or two; Optima's placements, rifle shots with or without a
touch of the shooter, conversions with each converted unit exchanged on
its square), then the presses the OLED asks for (a promotion
piece, a choice among moves that look alike, OK for a move that otherwise
waits).
"""
from __future__ import annotations

import random

from maxima_board.rules import Move, Position
from maxima_board.rules.optima.units import ROYAL

from .reconstruct import MoveTable


def hand_lines(position: Position, move: Move, rng: random.Random, settle_ms: int = 300,
               table: MoveTable | None = None) -> list[str]:
    """Script lines that make the legal ``move`` of ``position`` by hand."""
    names = position.geometry.names
    sig = position.signature(move)
    frm, to = move.from_square, move.to_square
    lines: list[str] = []
    lifted: set[int] = set()

    def lift(sq: int) -> None:
        lines.append(f"lift {names[sq]}")
        lifted.add(sq)

    def place(sq: int) -> None:
        lines.append(f"place {names[sq]}")

    if move.kind == "castle":
        rook = next(s for s in sig.vacated | sig.replaced if s != frm)
        rook_to = next(iter((sig.filled | sig.replaced) - {to}), frm)
        style = rng.choice(("king", "rook", "hands"))
        if style == "hands":
            lift(frm), lift(rook), place(rook_to), place(to)
        elif style == "king":
            lift(frm), place(to), lift(rook), place(rook_to)
        else:
            lift(rook), place(rook_to), lift(frm), place(to)
    elif move.kind == "swap":
        a, b = (frm, to) if rng.random() < 0.5 else (to, frm)
        lift(a), lift(b)          # one hand holds both, or one in each hand
        place(b), place(a)
    elif to is None:              # suicide or mutual destruction: pieces off
        lift(frm)
        for c in move.captures:
            lift(c)
    elif move.kind == "placement":   # Optima: a unit from the hand set on the first rank
        place(to)
    elif move.kind == "shot":     # Optima: the shooter stays (it may be lifted and put back)
        if rng.random() < 0.3:
            lift(frm), place(frm)
        for c in sorted(sig.vacated):
            lift(c)
    else:
        gone = sorted(sig.vacated - {frm})
        turned = sorted(sig.replaced - {frm, to})   # converted units: exchanged on their squares
        before = rng.random() < 0.5
        first = turned and rng.random() < 0.3   # converted units exchanged before the mover moves
        if first:
            for q in turned:
                lift(q), place(q)
        if before:
            for c in gone:
                lift(c)
        if to in sig.replaced:
            lift(to)
        lift(frm)
        place(to)
        if frm in sig.replaced or (move.kind == "swap conversion" and frm not in sig.vacated):
            place(frm)   # a swap conversion: the converted unit goes to the start square (maybe the same type)
        for q in turned if not first else ():
            lift(q), place(q)
        if not before:
            lines.append(f"wait {settle_ms}")
            for c in gone:
                lift(c)
    lines.append(f"wait {settle_ms}")
    table = table if table is not None else MoveTable(position)
    m = table.match(position.occupancy_after(move) if move.kind != "swap" else table.expected,
                    sum(1 << s for s in lifted))
    index = next((i for i, e in enumerate(m.entries) if e.move == move), 0)
    if m.kind in ("promote", "place"):
        lines += ["press menu"] * index + ["press ok"]
    elif m.kind == "ambiguous":
        lines += ["press back"] * index + ["press ok"]
    elif m.kind in ("suicide", "early"):
        lines.append("press ok")
    return lines


def pick_move(position: Position, rng: random.Random) -> Move:
    """A simulated player's choice among the legal moves of ``position``:
    a capture of an enemy royal unit when there is one (Optima, O13: so
    random games reach a real end), else a capture or conversion most of
    the time, else any move."""
    moves = position.legal_moves
    board, turn = position.board, position.turn
    royal = ROYAL if position.variant.uses_units else 0
    regicide = [m for m in moves if royal and any(abs(board[q]) & royal and board[q] * turn < 0 for q in m.captures)]
    if regicide:
        return rng.choice(regicide)
    takes = [m for m in moves if m.captures or getattr(m, "converts", ())]
    if takes and rng.random() < 0.6:
        return rng.choice(takes)
    return rng.choice(moves)
