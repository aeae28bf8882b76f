"""Pieces and variant definitions.

A variant is data: a geometry, the letters of its pieces, its King's leaps,
its goal squares and its start position. The move generator reads only these
tables, so a relative of Maxima (Ultima, Optima, Deckle's boards) is a new
``Variant`` value, not a new generator.
"""
from __future__ import annotations

from dataclasses import dataclass

from .geometry import Geometry

WHITE = 1
BLACK = -1

# Piece codes; a White piece is stored as +code, a Black one as -code.
KING = 1
MAGE = 2
GUARD = 3
WITHDRAWER = 4
COORDINATOR = 5
LEAPER = 6
CHAMELEON = 7
IMMOBILIZER = 8
PAWN = 9

PIECE_LETTERS = {KING: "k", MAGE: "g", GUARD: "d", WITHDRAWER: "q", COORDINATOR: "r",
                 LEAPER: "n", CHAMELEON: "b", IMMOBILIZER: "m", PAWN: "p"}
LETTER_CODES = {letter: code for code, letter in PIECE_LETTERS.items()}
PIECE_NAMES = {KING: "King", MAGE: "Mage", GUARD: "Guard", WITHDRAWER: "Withdrawer",
               COORDINATOR: "Coordinator", LEAPER: "Leaper", CHAMELEON: "Chameleon",
               IMMOBILIZER: "Immobilizer", PAWN: "Pawn"}

KNIGHT_VECTORS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))


@dataclass(frozen=True)
class Variant:
    name: str
    geometry: Geometry
    start_fen: str
    king_moves: tuple[tuple[int, ...], ...]
    # goals[WHITE] is White's own palace, the squares Black tries to invade.
    white_goals: tuple[int, ...]
    black_goals: tuple[int, ...]

    def goals(self, color: int) -> tuple[int, ...]:
        return self.white_goals if color == WHITE else self.black_goals


def _maxima() -> Variant:
    def exists(file: int, rank: int) -> bool:
        return 1 <= rank <= 9 or file in (3, 4)

    geometry = Geometry(8, range(0, 11), exists)
    return Variant(
        name="Maxima",
        geometry=geometry,
        start_fen="xxx2xxx/1g1qk1g1/1bnmrnb1/dppppppd/8/8/8/DPPPPPPD/1BNMRNB1/1G1QK1G1/xxx2xxx w 0",
        king_moves=geometry.leaps(KNIGHT_VECTORS, wrap_files=True),
        white_goals=(geometry.square("d0"), geometry.square("e0")),
        black_goals=(geometry.square("d10"), geometry.square("e10")),
    )


MAXIMA = _maxima()
