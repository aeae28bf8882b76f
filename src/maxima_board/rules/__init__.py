"""The rules engine of the Ultima family: pure Python, no I/O.

A game is data (:mod:`maxima_board.rules.variants`), a piece is data
(:mod:`maxima_board.rules.pieces`); :class:`Position` plays any of them.
"""
from . import variants
from .geometry import Geometry
from .notation import FenError, Move, MoveError, parse_move
from .position import Check, Outcome, Piece, Position, Signature, position_class
from .variant import BLACK, MAXIMA, PIECE_NAMES, WHITE, Variant

START_FEN = MAXIMA.start_fen

__all__ = ["BLACK", "Check", "FenError", "Geometry", "MAXIMA", "Move", "MoveError", "Outcome",
           "PIECE_NAMES", "Piece", "Position", "START_FEN", "Signature", "Variant", "WHITE", "parse_move",
           "position_class", "variants"]
