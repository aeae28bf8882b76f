"""Maxima's pieces under their historical names (kept for existing callers).

New code reads games from :mod:`maxima_board.rules.variants`.
"""
from __future__ import annotations

from .pieces import KNIGHT as KNIGHT_VECTORS
from maxima_board.rules.variants.base import BLACK, WHITE, Variant
from maxima_board.rules.variants.maxima import MAXIMA, TYPES

KING, MAGE, GUARD, WITHDRAWER, COORDINATOR, LEAPER, CHAMELEON, IMMOBILIZER, PAWN = (t.code for t in TYPES)
PIECE_LETTERS = {t.code: t.letter for t in TYPES}
LETTER_CODES = {t.letter: t.code for t in TYPES}
PIECE_NAMES = {t.code: t.name for t in TYPES}

__all__ = ["BLACK", "CHAMELEON", "COORDINATOR", "GUARD", "IMMOBILIZER", "KING", "KNIGHT_VECTORS", "LEAPER",
           "LETTER_CODES", "MAGE", "MAXIMA", "PAWN", "PIECE_LETTERS", "PIECE_NAMES", "Variant", "WHITE",
           "WITHDRAWER"]
