"""Guiding the board back to the position: after a take-back, or when a
stored game resumes. Play goes on once the board shows the position."""
from __future__ import annotations

from dataclasses import dataclass, field

from maxima_board.rules import Move

from .base import Mode
from .play import game_press


@dataclass
class Sync:
    """``required``: squares whose piece must be lifted before the board
    counts as right (a replacement capture taken back)."""

    reason: str                         # "takeback" | "resume"
    undone: list[str] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)   # the moves taken back, newest last
    required: int = 0


class SyncMode(Mode):
    name = "sync"

    def __init__(self, controller, sync: Sync):
        super().__init__(controller)
        self.sync = sync

    def step(self, now: int) -> list[dict]:
        c = self.c
        sync = self.sync
        expected = c._table.expected
        # A square to be lifted that a later take-back left empty needs no lift.
        if c._raw == expected and sync.required & expected & ~c._lifted == 0:
            c._lifted = 0
            c._set_mode(c._play_mode())
            c._note = ("Taken back." if sync.reason == "takeback" else "Board in sync.", now + c.NOTE_MS)
            return [{"type": "sync", "fen": c._position.fen()}]
        return []

    def press(self, button: str, now: int) -> list[dict]:
        return game_press(self.c, button, now)
