"""The board as an SVG picture: squares, pieces drawn by type and colour
(the piece letter in a circle: white discs for White, black for Black), the
last move and the LED states as coloured squares. Pure: a FEN in, text out.
"""
from __future__ import annotations

from html import escape
from typing import Mapping

from engine import WHITE, Position
from engine.geometry import FILE_LETTERS

# Fill of a square whose LED is in this state (board.md's meanings).
LED_COLOURS = {
    "last-from": "#f3e27a", "last-to": "#e9cf3a", "remove": "#e5533d", "error-extra": "#e5533d",
    "error-missing": "#f08a7a", "check": "#f0a030", "immobilized": "#7fa7e0",
    "setup-missing": "#6cc46c", "hint": "#b7e4a8", "engine-from": "#b99be0", "engine-to": "#9a6fd6",
}
LIGHT, DARK = "#eeeed2", "#b5c69a"


def board_svg(fen: str, leds: Mapping[str, str] | None = None, last: Mapping[str, str | None] | None = None,
              cell: int = 40, coordinates: bool = True, variant: str = "maxima") -> str:
    """The SVG of the position ``fen`` of the game ``variant`` with LED
    states and the last move (``{"from": sq, "to": sq}``) marked. A FEN or
    game that cannot be read gives a ValueError."""
    position = Position(fen, variant)
    geo = position.geometry
    leds = dict(leds or {})
    marked = {}
    if last:
        for key, state in (("from", "last-from"), ("to", "last-to")):
            if last.get(key):
                marked[last[key]] = state
    margin = cell // 2 if coordinates else 0
    ranks = list(reversed(list(geo.ranks)))
    width, height = geo.files * cell + margin, len(ranks) * cell + margin
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
           f'class="board" role="img" aria-label="board: {escape(fen)}">']
    font = int(cell * 0.45)
    for row, rank in enumerate(ranks):
        y = row * cell
        if coordinates:
            out.append(f'<text x="{margin / 2:.0f}" y="{y + cell * 0.6:.0f}" font-size="{font * 0.7:.0f}" '
                       f'text-anchor="middle" fill="#555">{rank}</text>')
        for file in range(geo.files):
            sq = geo.at(file, rank)
            if sq < 0:
                continue
            name = geo.names[sq]
            x = margin + file * cell
            state = leds.get(name) or marked.get(name)
            fill = LED_COLOURS.get(state or "", LIGHT if (file + rank) % 2 else DARK)
            attrs = f' data-led="{escape(state, quote=True)}"' if state else ""
            out.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{fill}" '
                       f'data-square="{escape(name, quote=True)}"{attrs}/>')
            piece = position.piece_at(sq)
            if piece is None:
                continue
            white = piece.color == WHITE
            colour = "White" if white else "Black"
            cx, cy, r = x + cell / 2, y + cell / 2, cell * 0.4
            out.append(f'<g class="piece" data-piece="{piece.letter}" data-square="{name}">'
                       f'<title>{colour} {piece.name} {name}</title>'
                       f'<circle cx="{cx:.0f}" cy="{cy:.0f}" r="{r:.0f}" fill="{"#fff" if white else "#222"}" '
                       f'stroke="#222" stroke-width="2"/>'
                       f'<text x="{cx:.0f}" y="{cy + font * 0.35:.0f}" font-size="{font}" font-weight="bold" '
                       f'font-family="sans-serif" text-anchor="middle" fill="{"#222" if white else "#fff"}">'
                       f'{piece.letter.upper()}</text></g>')
    if coordinates:
        y = len(ranks) * cell + margin * 0.7
        for file in range(geo.files):
            x = margin + file * cell + cell / 2
            out.append(f'<text x="{x:.0f}" y="{y:.0f}" font-size="{font * 0.7:.0f}" text-anchor="middle" '
                       f'fill="#555">{FILE_LETTERS[file]}</text>')
    out.append("</svg>")
    return "".join(out)
