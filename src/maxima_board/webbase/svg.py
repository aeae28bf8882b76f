"""The board as an SVG picture: squares, each piece drawn as the physical
piece that stands for it (:mod:`maxima_board.webbase.figures`) with its name in a
``<title>`` (a hover or a long tap shows it), the last move and the LED
states as coloured squares; and the legend of the pieces on the board.
Pure: a FEN in, text out; every text written is escaped.
"""
from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import Iterable, Mapping

from maxima_board.rules import WHITE, Position
from maxima_board.rules.geometry import FILE_LETTERS

from .figures import StandIn, figure_svg, stand_in

# Fill of a square whose LED is in this state (board.md's meanings).
LED_COLOURS = {
    "last-from": "#f3e27a", "last-to": "#e9cf3a", "remove": "#e5533d", "error-extra": "#e5533d",
    "error-missing": "#f08a7a", "check": "#f0a030", "immobilized": "#7fa7e0",
    "setup-missing": "#6cc46c", "hint": "#b7e4a8", "captures": "#d94f9b", "engine-from": "#b99be0", "engine-to": "#9a6fd6",
}
LIGHT, DARK = "#eeeed2", "#b5c69a"


@dataclass(frozen=True)
class DrawnPiece:
    """A piece as drawn: its square, side, name ("Withdrawer", Optima's
    "royal Viceroy") and the physical piece that stands for it."""

    square: str
    white: bool
    name: str
    letter: str
    stand: StandIn

    @property
    def side(self) -> str:
        return "White" if self.white else "Black"

    @property
    def title(self) -> str:
        words = "" if self.stand.words == self.name else f" ({self.stand.words})"
        return f"{self.side} {self.name} {self.square}{words}"


def drawn_pieces(position: Position) -> list[DrawnPiece]:
    """Every piece of ``position`` with its name and stand-in."""
    variant = position.variant
    names = position.geometry.names
    out = []
    for sq, piece in position.pieces():
        unit_type = getattr(piece, "type", None)         # Optima's units
        royal = bool(getattr(piece, "royal", False))
        if unit_type is not None:
            stand = stand_in(variant, unit_type.name, unit_type.token, royal, unit_type.kind)
            name = unit_type.name + (" (royal)" if royal else "")
        else:
            stand = stand_in(variant, piece.name)
            name = piece.name
        out.append(DrawnPiece(names[sq], piece.color == WHITE, name, piece.letter, stand))
    return out


def board_svg(fen: str, leds: Mapping[str, str] | None = None, last: Mapping[str, str | None] | None = None,
              cell: int = 40, coordinates: bool = True, variant: str = "maxima", flip: bool = False) -> str:
    """The SVG of the position ``fen`` of the game ``variant`` with LED
    states and the last move (``{"from": sq, "to": sq}``) marked; ``flip``:
    seen from Black's side. A FEN or game that cannot be read gives a ValueError."""
    position = Position(fen, variant)
    geo = position.geometry
    # the states and the last move may come from the network (the dashboard): strings only
    leds = {k: v for k, v in leds.items() if isinstance(k, str) and isinstance(v, str)} \
        if isinstance(leds, Mapping) else {}
    marked = {}
    if isinstance(last, Mapping):
        for key, state in (("from", "last-from"), ("to", "last-to")):
            if isinstance(last.get(key), str):
                marked[last[key]] = state
    margin = cell // 2 if coordinates else 0
    ranks = list(geo.ranks) if flip else list(reversed(list(geo.ranks)))
    columns = list(range(geo.files))[::-1] if flip else list(range(geo.files))
    width, height = geo.files * cell + margin, len(ranks) * cell + margin
    turn = "White" if position.turn == WHITE else "Black"
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
           f'class="board" role="img" aria-label="{escape(position.variant.title)} board, {turn} to move" '
           f'data-variant="{escape(position.variant.name)}">']
    font = int(cell * 0.45)
    label = max(font * 0.7, 9)   # the coordinates' size: readable on a dashboard card's small board too
    where: dict[str, tuple[float, float]] = {}
    for row, rank in enumerate(ranks):
        y = row * cell
        if coordinates:
            out.append(f'<text x="{margin / 2:.0f}" y="{y + cell * 0.6:.0f}" font-size="{label:.0f}" '
                       f'text-anchor="middle" fill="#555">{rank}</text>')
        for file in range(geo.files):
            sq = geo.at(file, rank)
            if sq < 0:
                continue
            name = geo.names[sq]
            x = margin + columns.index(file) * cell
            where[name] = (x, y)
            state = leds.get(name) or marked.get(name)
            fill = LED_COLOURS.get(state or "", LIGHT if (file + rank) % 2 else DARK)
            attrs = f' data-led="{escape(state)}"' if state else ""
            out.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{fill}" '
                       f'data-square="{escape(name)}"{attrs}/>')
    scale = cell * 0.9 / 100
    for piece in drawn_pieces(position):
        x, y = where[piece.square]
        out.append(f'<g class="piece" data-piece="{escape(piece.letter)}" data-square="{piece.square}" '
                   f'data-name="{escape(piece.name)}" data-side="{piece.side.lower()}" '
                   f'data-stand="{escape(piece.stand.words)}" '
                   f'transform="translate({x + cell * 0.05:g} {y + cell * 0.05:g}) scale({scale:g})">'
                   f'<title>{escape(piece.title)}</title>{figure_svg(piece.stand, piece.white)}</g>')
    if coordinates:
        y = len(ranks) * cell + margin * 0.7
        for column, file in enumerate(columns):
            x = margin + column * cell + cell / 2
            out.append(f'<text x="{x:.0f}" y="{y:.0f}" font-size="{label:.0f}" text-anchor="middle" '
                       f'fill="#555">{FILE_LETTERS[file]}</text>')
    out.append("</svg>")
    return "".join(out)


def legend_items(pieces: Iterable[DrawnPiece]) -> str:
    """The legend of ``pieces``: one line per name, sorted, with the
    figure of each side that has one and the stand-in in words. The page
    scripts build the same lines from a board's SVG (board.js, dashboard.js)."""
    by_name: dict[str, dict[bool, DrawnPiece]] = {}
    for piece in pieces:
        by_name.setdefault(piece.name, {})[piece.white] = piece
    out = []
    for name in sorted(by_name):
        sides = by_name[name]
        icons = "".join(f'<svg viewBox="0 0 100 100" class="icon" aria-hidden="true">'
                        f'{figure_svg(sides[white].stand, white)}</svg>'
                        for white in (True, False) if white in sides)
        stand = next(iter(sides.values())).stand.words
        words = "" if stand == name else f' <span class="stand">{escape(stand)}</span>'
        out.append(f'<li data-name="{escape(name)}">{icons}<span class="name">{escape(name)}</span>{words}</li>')
    return "".join(out)


def legend_html(fen: str, variant: str = "maxima") -> str:
    """The legend's list items for the position ``fen`` of ``variant``."""
    return legend_items(drawn_pieces(Position(fen, variant)))
