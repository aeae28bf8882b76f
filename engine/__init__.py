"""The Maxima rules engine: pure Python, no I/O."""
from .geometry import Geometry
from .notation import FenError, Move, MoveError, parse_move
from .position import Check, Outcome, Piece, Position
from .variant import BLACK, MAXIMA, PIECE_NAMES, WHITE, Variant

START_FEN = MAXIMA.start_fen

__all__ = ["BLACK", "Check", "FenError", "Geometry", "MAXIMA", "Move", "MoveError", "Outcome",
           "PIECE_NAMES", "Piece", "Position", "START_FEN", "Variant", "WHITE", "parse_move"]
