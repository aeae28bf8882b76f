"""The boards the software drives, as data, and where a game sits on them.

Two boards (shared/hardware/board.md):

* ``maxima``: 8 columns × 10 rows = 80 switches; rows R0–R8 are a1…h9,
  row R9 the goal squares d0, e0, d10, e10 and the buttons OK, BACK, MENU, NEW.
  Both topologies (Pico or direct).
* ``10x10``: 10 columns × 11 rows = 110 switches; rows R0–R9 are a1…j10,
  R10C0–R10C3 the buttons, R10C4–R10C9 spare. Pico topology only.

A game is *placed* on a board: each of its squares stands on one board
square. A game smaller than the board is centred (lower-left when it cannot
be exactly centred): Ultima's a1…h8 on the 10×10 board's b2…i9, a 10×8 game
on a2…j9, a 9×9 game on a1…i9; on the Maxima board Ultima uses a1…h8 (rank 9
and the goal squares stay empty). ``[board] offset`` overrides it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from maxima_board.rules import variants
from maxima_board.rules.variants.base import Variant

from .interfaces import BUTTONS

FILES = "abcdefghij"


class PlacementError(ValueError):
    """A game that cannot stand on a board; ``str()`` is one line."""


@dataclass(frozen=True)
class BoardKind:
    """One board: its switch matrix, its squares and how it is wired.

    ``rows`` × ``columns`` is the switch matrix (matrix position
    ``i = row * columns + column`` is bit i of an F frame and LED i of the
    WS2812 chain). ``files`` × ``field_ranks`` is the full rectangle a game is
    centred in; ``extra`` are squares outside it (Maxima's goal squares).
    """

    name: str
    title: str
    rows: int
    columns: int
    files: int
    field_ranks: tuple[int, ...]
    extra: tuple[str, ...]
    button_row: int
    extra_positions: Mapping[str, int] = field(default_factory=dict)
    topologies: tuple[str, ...] = ("pico",)
    native: tuple[str, ...] = ()     # games written for exactly this board

    @property
    def positions(self) -> int:
        return self.rows * self.columns

    @property
    def size(self) -> str:
        """``"10×8"``: rows × columns, as the OLED and the log write it."""
        return f"{self.rows}×{self.columns}"

    @property
    def squares(self) -> frozenset[str]:
        return frozenset(self.default_layout().values()) - {f"button:{b}" for b in BUTTONS}

    def default_layout(self) -> dict[int, str]:
        """Matrix position → square or ``button:NAME`` (board.md's map)."""
        layout: dict[int, str] = {}
        low = self.field_ranks[0]
        for rank in self.field_ranks:
            for file in range(self.files):
                layout[(rank - low) * self.columns + file] = f"{FILES[file]}{rank}"
        for name, pos in self.extra_positions.items():
            layout[pos] = name
        base = self.button_row * self.columns + len(self.extra)
        for i, button in enumerate(BUTTONS):
            layout[base + i] = f"button:{button}"
        return layout

    def button_position(self, button: str) -> int:
        return self.button_row * self.columns + len(self.extra) + BUTTONS.index(button)


MAXIMA_BOARD = BoardKind(
    name="maxima", title="the Maxima board", rows=10, columns=8, files=8,
    field_ranks=tuple(range(1, 10)), extra=("d0", "e0", "d10", "e10"), button_row=9,
    extra_positions={"d0": 72, "e0": 73, "d10": 74, "e10": 75},
    topologies=("pico", "direct"), native=("maxima",))

TEN_BY_TEN = BoardKind(
    name="10x10", title="the 10×10 board", rows=11, columns=10, files=10,
    field_ranks=tuple(range(1, 11)), extra=(), button_row=10, topologies=("pico",))

BOARDS: dict[str, BoardKind] = {b.name: b for b in (MAXIMA_BOARD, TEN_BY_TEN)}


def board_kind(name: "str | BoardKind") -> BoardKind:
    """The board called ``name`` ("maxima" or "10x10"); PlacementError otherwise."""
    if isinstance(name, BoardKind):
        return name
    try:
        return BOARDS[name]
    except (KeyError, TypeError):
        raise PlacementError(f"unknown board kind {name!r} (expected one of "
                             f"{', '.join(repr(b) for b in BOARDS)})") from None


def _square(name: str) -> tuple[int, int]:
    return FILES.index(name[0]), int(name[1:])


def _game_squares(variant: Variant) -> list[str]:
    return [n for n in variant.geometry.names if n]


def _field(variant: Variant) -> tuple[int, int, int]:
    """(files, first full rank, number of full ranks) of a game: the ranks
    on which every file exists (Maxima: 1–9; its goal squares are outside)."""
    g = variant.geometry
    full = [r for r in g.ranks if all(g.exists(f, r) for f in range(g.files))]
    return g.files, full[0], len(full)


def home_board(variant: "str | Variant") -> BoardKind | None:
    """The board a game was written for (Maxima's: the Maxima board), or None."""
    name = variants.get(variant).name
    return next((kind for kind in BOARDS.values() if name in kind.native), None)


def _need(variant: Variant) -> str:
    """Which board a game that does not fit needs, in words."""
    home = home_board(variant)
    if home is not None:
        return f"{variant.title} needs {home.title}"
    if variant.series:
        g = variant.geometry
        return f"{variant.series} {g.files}×{len(g.ranks)} games need the 10×10 board"
    return f"{variant.title} needs the 10×10 board"


@dataclass(frozen=True)
class Placement:
    """Where a game stands on a board: game square ↔ board square.

    ``board_of`` maps every game square to its board square; ``game_of`` is
    the reverse; ``outside`` are the board squares the game does not use."""

    variant: Variant
    board: BoardKind
    shift: tuple[int, int]           # (files, ranks) from game a1 to its board square
    board_of: Mapping[str, str]
    game_of: Mapping[str, str]
    outside: frozenset[str]

    @property
    def origin(self) -> str:
        """The board square under the game's lower-left field square."""
        files, low, _ = _field(self.variant)
        return f"{FILES[self.shift[0]]}{low + self.shift[1]}"

    def to_game(self, board_squares) -> tuple[frozenset[str], frozenset[str]]:
        """Occupied board squares as (occupied game squares, occupied
        board squares outside the game)."""
        game_of = self.game_of
        inside = frozenset(game_of[s] for s in board_squares if s in game_of)
        return inside, frozenset(s for s in board_squares if s not in game_of)

    def to_board(self, leds: Mapping[str, str]) -> dict[str, str]:
        """An LED plan in game square names as board square names (names
        that are not the game's are dropped: the board squares outside the
        game are the caller's, see maxima_board.service.board_view)."""
        board_of = self.board_of
        return {board_of[sq]: state for sq, state in leds.items() if sq in board_of}


def parse_offset(value: object) -> tuple[str, object]:
    """A ``[board] offset`` value: a board square name (``"b2"``: where the
    game's a1 goes) or a list ``[files, ranks]`` (the shift of the game's a1
    from the board's a1). ValueError naming what is wrong."""
    if isinstance(value, str):
        text = value.strip().lower()
        if len(text) >= 2 and text[0] in FILES and text[1:].isdigit() and 1 <= int(text[1:]) <= 10:
            return ("square", text)
        raise ValueError(f'expected a square such as "b2" or a list [files, ranks], got "{value}"')
    if (isinstance(value, list) and len(value) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 9 for v in value)):
        return ("shift", (value[0], value[1]))
    raise ValueError(f"expected a square such as \"b2\" or a list [files, ranks] of 0 to 9, got {value!r}")


def place(game: "str | Variant", board: "str | BoardKind", offset: object = None) -> Placement:
    """Where ``game`` stands on ``board``: centred (lower-left when it cannot
    be exactly centred), or at ``offset`` (see :func:`parse_offset`).
    PlacementError (one line) when it does not fit."""
    variant = variants.get(game)
    kind = board_kind(board)
    files, low, nranks = _field(variant)
    board_low = kind.field_ranks[0]
    if variant.name in kind.native:
        shift = (0, 0)
    elif offset is not None and offset != "":
        how, where = parse_offset(offset)
        if how == "square":
            f, r = _square(where)
            shift = (f, r - low)
        else:
            shift = (where[0], where[1] + board_low - low)
    else:
        shift = ((kind.files - files) // 2, board_low - low + (len(kind.field_ranks) - nranks) // 2)
    squares = kind.squares
    board_of: dict[str, str] = {}
    for name in _game_squares(variant):
        f, r = _square(name)
        f, r = f + shift[0], r + shift[1]
        target = f"{FILES[f]}{r}" if 0 <= f < len(FILES) else None
        if target not in squares:
            if offset is not None and offset != "" and variant.name not in kind.native \
                    and files <= kind.files and nranks <= len(kind.field_ranks):
                raise PlacementError(f"offset {offset!r} puts {variant.title}'s {name} off "
                                     f"{kind.title}")
            raise PlacementError(f"{_need(variant)}; this is {kind.title}"
                                 if kind.name != "10x10" or home_board(variant) is not None
                                 else f"{variant.title} does not fit {kind.title}")
        board_of[name] = target
    game_of = {b: g for g, b in board_of.items()}
    return Placement(variant, kind, shift, board_of, game_of, frozenset(squares - set(game_of)))


def games_for(board: "str | BoardKind") -> list[str]:
    """The games that can be played on ``board``, in listing order."""
    out = []
    for name in variants.names():
        try:
            place(name, board)
        except PlacementError:
            continue
        out.append(name)
    return out
