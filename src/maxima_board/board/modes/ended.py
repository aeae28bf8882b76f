"""The game is over: OK or NEW starts the next game; MENU opens the game
chooser (a game chosen is set up; its MENU row closes it); BACK reopens a
resignation or an agreed draw, or takes the last move back."""
from __future__ import annotations

from .base import Mode
from .choice import open_chooser


class EndedMode(Mode):
    name = "ended"

    def press(self, button: str, now: int) -> list[dict]:
        s = self.session
        if button in ("ok", "new"):
            return s.next_game(now)
        if button == "menu":
            open_chooser(s, "Cancel", lambda later: [])
            return []
        if button == "back":
            return s.reopen(now) if s.reason in ("resignation", "agreement") else s.take_back(now)
        return []
