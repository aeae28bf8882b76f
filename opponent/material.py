"""Material values of every piece of the family, in centipawns (a Pawn is
100), by piece type code (codes are unique across games, see
``engine.pieces``). These are the baseline players' estimates, not tuned
values; the King counts 0 (it is never captured in a legal game).
"""
from __future__ import annotations

VALUES: dict[int, int] = {
    # Maxima (M1-M15)
    1: 0,      # King
    2: 800,    # Mage
    3: 250,    # Guard
    4: 400,    # Withdrawer
    5: 500,    # Coordinator
    6: 600,    # Leaper
    7: 450,    # Chameleon
    8: 700,    # Immobilizer
    9: 100,    # Pawn
    # Ultima (U1-U15)
    11: 0,     # King
    12: 100,   # Pawn
    13: 400,   # Withdrawer
    14: 450,   # Coordinator
    15: 500,   # Long Leaper
    16: 500,   # Chameleon
    17: 600,   # Immobilizer
    # Deckle's games (D1-D18)
    21: 0,     # King
    22: 900,   # Queen
    23: 500,   # Rook
    24: 325,   # Bishop
    25: 300,   # Knight
    26: 100,   # Pawn
    27: 500,   # Advancer
    28: 700,   # Pushme-Pullyu
    29: 350,   # Swapper
    30: 500,   # Mimotaur
    31: 600,   # Immobilizer
}


def material(board: list[int]) -> int:
    """White's material minus Black's (board values are ±code, + White)."""
    total = 0
    for v in board:
        if v > 0:
            total += VALUES.get(v, 0)
        elif v < 0:
            total -= VALUES.get(-v, 0)
    return total
