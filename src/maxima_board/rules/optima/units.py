"""Optima unit types as data, and how a unit is stored on the board.

A board is a list of ints indexed by square (see :mod:`maxima_board.rules.geometry`):
0 empty, +code White, -code Black. A code is a unit type's ``code``
(1..63) with the ``ROYAL`` bit added for a royal unit (O13), so
``abs(v) & TYPE_MASK`` is the type and ``abs(v) & ROYAL`` its royalty.
"""
from __future__ import annotations

from dataclasses import dataclass

ROYAL = 64
TYPE_MASK = 63

# Immobilizer ranges (O10).
KNIGHT_SQUARES = "knight"   # Basilisk: its 8 knight-leap squares
ADJACENT = "adjacent"       # Medusa, Wizard: the 8 neighbours
FIRST_ORTH = "orth"         # Chimaera: the first unit on each orthogonal line
FIRST_DIAG = "diag"         # Cyclops: the first unit on each diagonal line
FIRST_ALL = "all"           # Gorgona: the first unit on each of the 8 lines


@dataclass(frozen=True, eq=False)
class UnitType:
    """One of Optima's 56 unit types (O2): ``token`` (two upper-case letters),
    ``name``, ``moves`` (its primitives, see :mod:`maxima_board.rules.optima.tables`),
    the passive attributes of O2 (``armored`` is the default, options of O14
    may change it), ``immobilizes`` (an O10 range or None), and ``kind``:
    ``"piece"``, ``"pawn"``, ``"guard"`` or ``"wizard"``."""

    code: int
    token: str
    name: str
    moves: tuple = ()
    shielded: bool = False
    resolute: bool = False
    armored: bool = False
    loyal: bool = False
    immobilizes: str | None = None
    kind: str = "piece"

    @property
    def may_be_royal(self) -> bool:
        """Any of the 53 piece types may be royal; PN, GD and WI never (O2)."""
        return self.kind == "piece"

    def __repr__(self) -> str:
        return f"UnitType({self.token})"
