"""Where each square and button sits in the switch matrix (board.md).

Matrix position ``i = row * columns + column``; bit ``i`` of a frame is that
switch, and position ``i`` is also the LED's place in the WS2812 chain. The
Maxima board's matrix is 10 rows × 8 columns (the defaults here); the 10×10
board's is 11 × 10 (hardware/boards.py).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .interfaces import BoardState

ROWS = 10
COLUMNS = 8
POSITIONS = ROWS * COLUMNS


def default_layout() -> dict[int, str]:
    """Matrix position → square or ``button:NAME``, as board.md wires it."""
    layout = {}
    for rank in range(1, 10):
        for file in range(8):
            layout[(rank - 1) * COLUMNS + file] = f"{'abcdefgh'[file]}{rank}"
    row9 = 9 * COLUMNS
    for col, name in enumerate(("d0", "e0", "d10", "e10", "button:ok", "button:back", "button:menu", "button:new")):
        layout[row9 + col] = name
    return layout


@dataclass
class MatrixMap:
    layout: dict[int, str] = field(default_factory=default_layout)
    rows: int = ROWS
    columns: int = COLUMNS

    def __post_init__(self) -> None:
        self.position_of = {name: pos for pos, name in self.layout.items()}

    @property
    def positions(self) -> int:
        return self.rows * self.columns

    @property
    def size(self) -> str:
        """``"10×8"``: rows × columns."""
        return f"{self.rows}×{self.columns}"

    @classmethod
    def for_board(cls, kind, layout: dict[int, str] | None = None) -> "MatrixMap":
        """The map of a board kind (maxima_board.devices.boards), with its default layout
        unless one is given."""
        return cls(dict(layout) if layout is not None else kind.default_layout(), kind.rows, kind.columns)

    def decode(self, frame: int) -> BoardState:
        """A matrix frame (bit set = switch closed) as a BoardState."""
        squares, buttons = set(), set()
        for pos, name in self.layout.items():
            if frame >> pos & 1:
                if name.startswith("button:"):
                    buttons.add(name[7:])
                else:
                    squares.add(name)
        return BoardState(frozenset(squares), frozenset(buttons))

    def encode(self, state: BoardState) -> int:
        frame = 0
        for sq in state.squares:
            frame |= 1 << self.position_of[sq]
        for b in state.buttons:
            frame |= 1 << self.position_of[f"button:{b}"]
        return frame
