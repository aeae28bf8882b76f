"""The game is over: OK or NEW starts the next game; MENU sets up a new
game with its Game item shown (OK there: another game); BACK reopens a
resignation or an agreed draw, or takes the last move back."""
from __future__ import annotations

from .base import Mode


class EndedMode(Mode):
    name = "ended"

    def press(self, button: str, now: int) -> list[dict]:
        c = self.c
        if button in ("ok", "new"):
            return c._next_game(now)
        if button == "menu":   # MENU → Game: set-up of the next game, its game shown (OK: the one after)
            return c._choose(c.variant, now)
        if button == "back":
            return c._reopen(now) if c._reason in ("resignation", "agreement") else c._take_back(now)
        return []
