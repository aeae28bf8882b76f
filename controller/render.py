"""The simulated board as text: pieces, LED states and the OLED, for ``show``."""
from __future__ import annotations

from typing import Iterable, Mapping, Sequence

from engine import Position
from engine.geometry import FILE_LETTERS

from .guidance import WIDTH

# One character per LED state, shown after the piece letter.
LED_MARKS = {"error-extra": "X", "error-missing": "!", "remove": "R", "engine-from": "e",
             "engine-to": "E", "check": "+", "setup-missing": "S", "last-from": "f",
             "last-to": "t", "immobilized": "i", "hint": "h"}


def board_text(position: Position, occupied: Iterable[str], leds: Mapping[str, str],
               display: Sequence[str]) -> str:
    """The board from rank 10 down to rank 0. A square shows the letter of
    the piece the position has there when the board holds a piece, ``*`` for
    a piece the position does not expect, ``.`` when empty; then the mark of
    its LED state (see the legend)."""
    geo = position.geometry
    occupied = set(occupied)
    rows = []
    for rank in reversed(geo.ranks):
        cells = []
        for file in range(geo.files):
            sq = geo.at(file, rank)
            if sq < 0:
                cells.append("   ")
                continue
            name = geo.names[sq]
            piece = position.piece_at(sq)
            if name in occupied:
                char = piece.letter if piece is not None else "*"
            else:
                char = "."
            cells.append(f"{char}{LED_MARKS.get(leds.get(name, ''), ' ')} ")
        rows.append(f"{rank:>2} " + "".join(cells).rstrip())
    rows.append("   " + "".join(f"{f}  " for f in FILE_LETTERS[:geo.files]).rstrip())
    legend = "LEDs: " + ", ".join(f"{m} {state}" for state, m in LED_MARKS.items())
    lit = ", ".join(f"{sq} {state}" for sq, state in sorted(leds.items())) or "none"
    border = "+" + "-" * WIDTH + "+"
    oled = [border] + [f"|{line:<{WIDTH}}|" for line in display] + [border]
    return "\n".join(rows + ["", f"lit: {lit}", legend, "OLED:"] + oled)
