"""Optima (Michael Howe; optima.md) on 10x10 and 9x9: the games, made of the unit data of
:mod:`maxima_board.rules.variants.optima_units`, played by
:class:`maxima_board.rules.optima.position.OptimaPosition` (a reserve, rules options, royal units)."""
from __future__ import annotations

from maxima_board.rules.move_forms import UNITS as UNIT_MOVES
from maxima_board.rules.optima.position import OptimaPosition
from .base import Variant
from .optima_units import BOARD_9X9, BOARD_10X10, BY_TOKEN, E9, E10, PIECE_TOKENS, START_9, START_10, UNITS

__all__ = ["BOARD_9X9", "BOARD_10X10", "BY_TOKEN", "E9", "E10", "OPTIMA", "OPTIMA_9X9", "PIECE_TOKENS", "START_9",
           "START_10", "UNITS"]

OPTIMA = Variant(
    name="optima", title="Optima", family="optima", freeze_rule="O10",
    summary="Optima (Howe) on 10x10: 53 piece types with attributes, placement phase, royal pieces",
    geometry=BOARD_10X10, start_fen=START_10, types=(), units=UNITS,
    repetition=True, draw_result="1/2-1/2", move_forms=UNIT_MOVES,
    position_class=OptimaPosition, forces=("eq", "u1", "u2", "random"))
OPTIMA_9X9 = Variant(
    name="optima-9x9", title="Optima 9x9", family="optima", freeze_rule="O10",
    summary="Optima (Howe) on 9x9: five pieces a side, one royal",
    geometry=BOARD_9X9, start_fen=START_9, types=(), units=UNITS,
    repetition=True, draw_result="1/2-1/2", move_forms=UNIT_MOVES,
    position_class=OptimaPosition, forces=("eq", "u1", "random"))   # u2: 10x10 only (O4)
