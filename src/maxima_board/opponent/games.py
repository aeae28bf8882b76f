"""Which games the computer opponent plays.

The compiled engine (``engine``) and the baseline players know every
game of the family, Optima included (the engine's Optima is
``engine/optima_*.c``, proven identical to ``src/maxima_board/rules/optima/`` by
tests/test_opponent_engine_optima.py). Everything that starts an engine asks
:func:`refuse` first, so a game the computer does not play gives one clear
line instead of an engine that cannot answer.
"""
from __future__ import annotations

from maxima_board.rules import variants


class UnsupportedGame(ValueError):
    """The computer opponent does not play this game."""


def engine_games() -> list[str]:
    """The variant ids the computer opponent plays, in listing order."""
    return [v.name for v in variants.all_variants()]


def refuse(variant: str) -> str:
    """``variant``'s id when the computer plays it (every game of
    ``maxima-board variants``); UnsupportedGame otherwise."""
    v = variants.get(variant)
    if v.name not in engine_games():
        raise UnsupportedGame(f"the computer opponent does not play {v.title}")
    return v.name
