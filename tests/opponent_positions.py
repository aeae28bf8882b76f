"""Seeded random playouts of the Python engine: positions for comparing the compiled engine with it."""
from __future__ import annotations

import random

from maxima_board.rules import Position


def _pick(rng: random.Random, p: Position, moves: list) -> object:
    """Mostly random, but favour the rarer kinds so that captures, promotions,
    castling, en passant, swaps, suicides and destructions all occur (Pawn
    advances of two or three squares make en passant possible)."""
    special = [m for m in moves if m.kind in ("castle", "en passant", "swap", "destruction", "suicide") or m.promotion]
    if special and rng.random() < 0.5:
        return rng.choice(special)
    if p.variant.en_passant and rng.random() < 0.25:
        ranks = p.geometry.rank_of
        advances = [m for m in moves if m.kind == "move" and p.piece_letter(m) in "Pp"
                    and abs(ranks[m.to_square] - ranks[m.from_square]) >= 2]
        if advances:
            return rng.choice(advances)
    captures = [m for m in moves if m.captures]
    if captures and rng.random() < 0.4:
        return rng.choice(captures)
    return rng.choice(moves)


def playout_positions(variant: str, count: int, seed: int, plies: int = 80) -> list[tuple[str, list[str]]]:
    """``count`` (FEN, sorted legal move strings) pairs from seeded random games."""
    rng = random.Random(f"{variant}/{seed}")
    out: list[tuple[str, list[str]]] = []
    while len(out) < count:
        p = Position("start", variant)
        for _ in range(plies):
            moves = p.legal_moves
            out.append((p.fen(), [str(m) for m in moves]))
            if not moves or len(out) >= count or p.outcome() is not None:
                break
            p.push(_pick(rng, p, moves))
    return out


def won(p: Position, mover: int) -> bool:
    """The game is over and ``mover`` won it."""
    o = p.outcome()
    return o is not None and o.winner == mover


def forced_win(p: Position, n: int) -> bool:
    """Whether the side to move wins by force within ``n`` of its moves (brute force over the Python
    engine's moves and outcomes: mates, palace invasions, O13's royal captures)."""
    mover = p.turn
    for m in p.legal_moves:
        p.push(m)
        ok = won(p, mover) or (n > 1 and p.outcome() is None and
                                all(wins_after(p, r, n - 1) for r in p.legal_moves))
        p.pop()
        if ok:
            return True
    return False


def wins_after(p: Position, reply, n: int) -> bool:
    """After ``reply``, the side to move then wins by force within ``n`` of its moves."""
    p.push(reply)
    ok = forced_win(p, n)
    p.pop()
    return ok
