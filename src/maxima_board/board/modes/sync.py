"""Guiding the board back to the position: after a take-back, or when a
stored game resumes. Play goes on once the board shows the position."""
from __future__ import annotations

from maxima_board.board.records import Sync
from .base import Mode
from .play import game_press

__all__ = ["Sync", "SyncMode"]


class SyncMode(Mode):
    name = "sync"

    def __init__(self, session, sync: Sync):
        super().__init__(session)
        self.sync = sync

    def step(self, now: int) -> list[dict]:
        s = self.session
        sync = self.sync
        expected = s.table.expected
        # A square to be lifted that a later take-back left empty needs no lift.
        if s.frame.raw == expected and sync.required & expected & ~s.frame.lifted == 0:
            s.play_on("Taken back." if sync.reason == "takeback" else "Board in sync.", now)
            return [{"type": "sync", "fen": s.position.fen()}]
        return []

    def press(self, button: str, now: int) -> list[dict]:
        return game_press(self.session, button, now)
