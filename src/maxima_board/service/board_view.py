"""The game seen through a physical board: board squares ↔ the game's squares.

The controller works in the game's own square names (Ultima's a1…h8,
Deckle's a1…j8 …). The board reports the squares of its own matrix (the
10×10 board's a1…j10, the Maxima board's a1…h9 and goal squares), and its
LEDs sit under those. :class:`BoardView` stands between the runner and the
controller and translates both ways with the game's
:class:`maxima_board.devices.boards.Placement`:

* a frame of occupied board squares becomes the occupied game squares, and
  the occupied board squares outside the game are passed as
  ``outside=frozenset(board square names)`` (when the controller takes that
  keyword; :func:`call_on_frame`);
* the controller's LED plan (game square → LED state) becomes board square →
  LED state; a board square outside the game is dark unless a piece stands
  there, then it shows ``error-extra`` (whatever the controller says).

The placement follows the game the controller is playing (its position's
variant), so a game chosen on the board moves to its place at once.
Everything else of the controller's interface passes through
(``maxima_board.service.stack.Layer``).
"""
from __future__ import annotations

import inspect
from typing import Callable

from maxima_board.devices.boards import BoardKind, Placement, PlacementError, board_kind, place

from .stack import GameStack, Layer

EXTRA = "error-extra"


def takes_outside(on_frame: Callable) -> bool:
    """Whether a controller's ``on_frame`` takes the ``outside`` keyword."""
    try:
        params = inspect.signature(on_frame).parameters
    except (TypeError, ValueError):
        return False
    return "outside" in params or any(p.kind is p.VAR_KEYWORD for p in params.values())


def call_on_frame(controller, now_ms: int, squares: frozenset[str], outside: frozenset[str]) -> list[dict]:
    """``controller.on_frame(now, squares, outside=…)``, or without
    ``outside`` for a controller that does not take it yet."""
    if takes_outside(controller.on_frame):
        return controller.on_frame(now_ms, squares, outside=outside)
    return controller.on_frame(now_ms, squares)


class BoardView(Layer):
    """A controller as the runner sees it on ``board`` (a kind name or
    :class:`BoardKind`), with the game placed at ``offset`` ("" = centred).

    Raises :class:`maxima_board.devices.boards.PlacementError` (one line) when the
    controller's game does not fit the board."""

    def __init__(self, controller: GameStack, board: "str | BoardKind" = "maxima", offset: str = "") -> None:
        super().__init__(controller)
        self.board = board_kind(board)
        self.offset = offset
        self._outside: frozenset[str] = frozenset()
        self._placement: Placement | None = None
        self._last: tuple[frozenset[str], Placement] | None = None   # the last board frame, as placed
        self.problem: str | None = None      # the current game does not fit (kept: the last placement)
        self._told = takes_outside(controller.on_frame)   # the controller hears of outside pieces
        show = getattr(controller, "show_on_board", None)
        if show is not None:                  # its texts name squares as this board prints them
            show(self.board.name, offset)
        self.placement          # fail now, not at the first frame

    @property
    def placement(self) -> Placement:
        """Where the controller's current game stands on the board."""
        variant = self.controller.position.variant
        p = self._placement
        if p is None or (p.variant is not variant and self.problem != variant.name):
            try:
                p = self._placement = place(variant, self.board, self.offset or None)
                self.problem = None
            except PlacementError:
                if p is None:
                    raise
                self.problem = variant.name     # a running board never stops: keep the old placement
        return p

    @property
    def outside(self) -> frozenset[str]:
        """The occupied board squares outside the game (last frame)."""
        return self._outside

    def on_frame(self, now_ms: int, squares: frozenset[str] | set[str]) -> list[dict]:
        """A frame of occupied *board* squares."""
        placement = self.placement
        self._last = (frozenset(squares), placement)
        inside, self._outside = placement.to_game(squares)
        if self._told:
            events = self.controller.on_frame(now_ms, inside, outside=self._outside)
        else:
            events = self.controller.on_frame(now_ms, inside)
        return self._replaced(now_ms, events)   # the frame itself may have changed the game (Deckle's size)

    def on_button(self, now_ms: int, button: str) -> list[dict]:
        return self._replaced(now_ms, self.controller.on_button(now_ms, button))

    def on_tick(self, now_ms: int) -> list[dict]:
        return self._replaced(now_ms, self.controller.on_tick(now_ms))

    def _replaced(self, now_ms: int, events: list[dict]) -> list[dict]:
        """``events``, and when the controller's game has moved to another
        placement since the last frame (MENU → Game, a new or resumed game),
        the same board read again through the new one."""
        if self._last is not None and self.placement is not self._last[1]:
            events = events + self.on_frame(now_ms, self._last[0])
        return events

    @property
    def leds(self) -> dict[str, str]:
        """The controller's LED plan on the board's squares."""
        out = self.placement.to_board(self.controller.leds)
        for square in self._outside:
            out[square] = EXTRA
        return out

    @property
    def display(self) -> list[str]:
        lines = list(self.controller.display)
        if self._outside and not self._told:
            # a controller that is not told about them cannot name them
            names = " ".join(sorted(self._outside, key=lambda n: (int(n[1:]), n[0])))
            lines = lines[:4] + [f"Off board: {names}"[:21]]
        return lines
