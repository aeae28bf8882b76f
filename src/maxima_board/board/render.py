"""The simulated board as text: pieces, LED states and the OLED, for ``show``."""
from __future__ import annotations

from typing import Callable, Iterable, Mapping, Sequence

from maxima_board.rules import Position
from maxima_board.rules.geometry import FILE_LETTERS
from maxima_board.rules.words import piece_names

from .guidance import WIDTH

# One character per LED state, shown after the piece letter.
LED_MARKS = {"error-extra": "X", "error-missing": "!", "remove": "R", "engine-from": "e",
             "engine-to": "E", "check": "+", "captures": "c", "setup-missing": "S", "last-from": "f",
             "last-to": "t", "immobilized": "i", "hint": "h"}


def board_text(position: Position, occupied: Iterable[str], leds: Mapping[str, str],
               display: Sequence[str]) -> str:
    """The board from rank 10 down to rank 0. A square shows the letter of
    the piece the position has there when the board holds a piece, ``*`` for
    a piece the position does not expect, ``.`` when empty; then the mark of
    its LED state (see the legend)."""
    geo = position.geometry
    rows = [(rank, [geo.names[geo.at(file, rank)] if geo.at(file, rank) >= 0 else None
                    for file in range(geo.files)]) for rank in reversed(geo.ranks)]

    def letter(name: str) -> str | None:
        piece = position.piece_at(geo.index[name])
        return piece.letter if piece is not None else None

    return grid_text(rows, geo.files, occupied, letter, leds, display, position.variant)


def board_view_text(view, occupied: Iterable[str], leds: Mapping[str, str], display: Sequence[str]) -> str:
    """A physical board (``maxima_board.service.board_view.BoardView``) in its own
    square names: every square of the board, the game's pieces where the
    game stands on it; squares outside the game show only what the board holds."""
    kind = view.board
    squares = kind.squares
    ranks = sorted({int(name[1:]) for name in squares}, reverse=True)
    rows = [(rank, [f"{FILE_LETTERS[f]}{rank}" if f"{FILE_LETTERS[f]}{rank}" in squares else None
                    for f in range(kind.files)]) for rank in ranks]
    placement = view.placement
    position = view.controller.position

    def letter(name: str) -> str | None:
        game = placement.game_of.get(name)
        if game is None:
            return None
        piece = position.piece_at(position.geometry.index[game])
        return piece.letter if piece is not None else None

    return grid_text(rows, kind.files, occupied, letter, leds, display, position.variant)


def grid_text(rows: Sequence[tuple[int, Sequence[str | None]]], files: int, occupied: Iterable[str],
              letter: Callable[[str], str | None], leds: Mapping[str, str], display: Sequence[str],
              variant=None) -> str:
    """Rows of square names (None: no square there) as text, then the names
    of the pieces shown (of ``variant``), the LEDs lit and the OLED;
    ``letter(name)`` is the piece expected on a square."""
    occupied = set(occupied)
    shown: set[str] = set()
    chars = {name: (letter(name) or "*") if name in occupied else "."
             for _, names in rows for name in names if name is not None}
    names = piece_names(variant) if variant is not None else {}
    # one column per file, as wide as the game's longest letters (Optima's units: two), so the files line up
    width = max([1] + [len(key) for key in names] + [len(char) for char in chars.values()])
    lines = []
    for rank, row in rows:
        cells = []
        for name in row:
            if name is None:
                cells.append(" " * (width + 2))
                continue
            char = chars[name]
            if char not in ".*":
                shown.add(char.lower())
            cells.append(f"{char:<{width}}{LED_MARKS.get(leds.get(name, ''), ' ')} ")
        lines.append(f"{rank:>2} " + "".join(cells).rstrip())
    lines.append("   " + "".join(f"{f:<{width + 2}}" for f in FILE_LETTERS[:files]).rstrip())
    legend = "LEDs: " + ", ".join(f"{m} {state}" for state, m in LED_MARKS.items())
    lit = ", ".join(f"{sq} {state}" for sq, state in sorted(leds.items())) or "none"
    border = "+" + "-" * WIDTH + "+"
    oled = [border] + [f"|{line:<{WIDTH}}|" for line in display] + [border]
    pieces = ["pieces (White upper case): " + ", ".join(f"{key} {names[key]}" for key in sorted(shown) if key in names)] \
        if shown & names.keys() else []
    return "\n".join(lines + [""] + pieces + [f"lit: {lit}", legend, "OLED:"] + oled)
