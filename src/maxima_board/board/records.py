"""The game's state records: written by the session and the modes, read by
the screens (``maxima_board.board.screens``) and never changed there."""
from __future__ import annotations

from dataclasses import dataclass, field

from maxima_board.rules import Move, Position

from .reconstruct import MoveTable


@dataclass
class LastMove:
    """The last committed move, for the LEDs and the OLED's second line."""

    move: Move
    text: str
    at: int | None   # when it was played; None: not to be lit (taken back to, or resumed)
    parts: tuple[tuple[int, int], ...] = ()   # a castling: (origin, destination) of King and Rook


@dataclass
class Setup:
    """Setting up the pieces of ``position`` before a game."""

    position: Position
    table: MoveTable
    squares: list[int]
    walk: int | None = None
    armed: bool = False     # the board has matched once: a legal first move starts the game
    on_clock: bool = False  # MENU → "Clock" is shown: OK cycles the time control of the game
    on_game: bool = False   # a Deckle game's size is shown: OK sets up the other size
    on_forces: bool = False  # MENU → "Forces" is shown (Optima): OK cycles eq, u1, u2, random


@dataclass
class Sync:
    """``required``: squares whose piece must be lifted before the board
    counts as right (a replacement capture taken back)."""

    reason: str                         # "takeback" | "resume"
    undone: list[str] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)   # the moves taken back, newest last
    required: int = 0
