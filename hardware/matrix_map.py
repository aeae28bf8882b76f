"""Where each square and button sits in the 8 × 10 switch matrix (board.md).

Matrix position ``i = row * 8 + column``; bit ``i`` of an 80-bit frame is that
switch, and position ``i`` is also the LED's place in the WS2812 chain.
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

    def __post_init__(self) -> None:
        self.position_of = {name: pos for pos, name in self.layout.items()}

    def decode(self, frame: int) -> BoardState:
        """An 80-bit matrix frame (bit set = switch closed) as a BoardState."""
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
