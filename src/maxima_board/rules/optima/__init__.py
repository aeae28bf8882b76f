"""Optima (optima.md, O1-O16): its units, placement phase and move generation.

Optima shares the engine's geometry and notation style but not the piece
model of the other games: units carry attributes (shielded, resolute,
armored, loyal), royalty belongs to a unit, moves may capture and convert at
once, and there is no check. The modules:

- :mod:`.units`: what a unit type is (data) and how a unit is stored on the board;
- :mod:`.tables`: the rules of one game and option set: attribute tables,
  immobilization, conversion (O11) and the generic move generator;
- :mod:`.movers` and :mod:`.effects`: the primitives units are built from;
- the unit table itself is data, in :mod:`maxima_board.rules.variants.optima`.
"""
