"""Which position class plays each game: the one place that decides.

``engine.Position(fen, variant)`` asks :func:`position_class` (through
``Position.chooser``, set here): Optima's games get
:class:`maxima_board.rules.optima.position.OptimaPosition` (a reserve, rules options,
royal units), every other game the plain :class:`maxima_board.rules.position.Position`.
So ``engine/position.py`` never imports Optima's module, and Optima's module
imports the plain one only to build on it.
"""
from __future__ import annotations

from . import variants
from maxima_board.rules.optima.position import OptimaPosition
from .position import Position
from maxima_board.rules.variants.base import Variant

BY_FAMILY: dict[str, type[Position]] = {"optima": OptimaPosition}


def position_class(variant: Variant | str) -> type[Position]:
    """The class whose instances play ``variant``."""
    return BY_FAMILY.get(variants.get(variant).family, Position)


Position.chooser = position_class
