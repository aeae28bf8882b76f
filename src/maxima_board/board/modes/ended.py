"""The game is over: OK or NEW starts the next game; MENU opens the game
chooser (a game chosen is set up; its MENU row closes it); BACK reopens a
resignation or an agreed draw, or takes the last move back."""
from __future__ import annotations

from .base import Mode
from .choice import open_chooser


class EndedMode(Mode):
    name = "ended"

    def press(self, button: str, now: int) -> list[dict]:
        c = self.c
        if button in ("ok", "new"):
            return c._next_game(now)
        if button == "menu":
            open_chooser(c, "Cancel", lambda later: [])
            return []
        if button == "back":
            return c._reopen(now) if c._reason in ("resignation", "agreement") else c._take_back(now)
        return []
