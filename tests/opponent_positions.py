"""Seeded random playouts of the Python engine: positions for comparing the compiled engine with it."""
from __future__ import annotations

import random

from engine import Position


def _pick(rng: random.Random, moves: list) -> object:
    """Mostly random, but favour the rarer kinds so that captures, promotions,
    castling, en passant, swaps, suicides and destructions all occur."""
    special = [m for m in moves if m.kind in ("castle", "en passant", "swap", "destruction", "suicide") or m.promotion]
    if special and rng.random() < 0.5:
        return rng.choice(special)
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
            p.push(_pick(rng, moves))
    return out
