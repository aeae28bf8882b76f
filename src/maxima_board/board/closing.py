"""How a page over the game closes: the game chooser (``maxima_board.board.chooser``)
and the MENU's questions (``maxima_board.board.modes.menu``), with the "Abandon
game N?" and "New game?" they ask.

A page closes by itself ``CLOSE_MS`` after it opened or a press kept it
shown, its seconds counted down on the OLED; the board sleeps between the
countdown's steps (``next_change``). A touch on the board (a lift or a
placement) closes it at once, and the board's change is then handled as
any other. A button pressed within ``QUIET_MS`` after a page closed by
itself was meant for the page: it does nothing (a BACK meant for the page
must not take a move back), and the OLED says so until the next press or
touch, for ``NOTE_MS`` at most, so that a press that seems lost is not
pressed again blindly. (``maxima_board.board.overlay.Overlay`` does so.)
"""
from __future__ import annotations

CLOSE_MS = 20_000   # a page closes by itself this long after it opened or a press kept it shown
QUIET_MS = 1000     # after a page closed by itself, presses this long are ignored
IGNORED = "Menu had closed: press ignored."


class Countdown:
    """A page's countdown: the page closes by itself at ``closes_at``."""

    closes_at: int = 0

    def restart(self, now: int) -> None:
        """A press kept the page shown: ``CLOSE_MS`` from ``now`` again."""
        self.closes_at = now + CLOSE_MS

    def seconds_left(self, now: int) -> int:
        """Whole seconds until the page closes by itself, rounded up."""
        return max(0, -(-(self.closes_at - now) // 1000))

    def counter(self, now: int) -> str:
        """The seconds left as the OLED shows them, flush right: ``"20s"``."""
        return f"{self.seconds_left(now)}s"

    def next_change(self, now: int) -> int:
        """When the countdown next changes (or the page closes), after ``now``."""
        if now >= self.closes_at:
            return self.closes_at
        return now + (self.closes_at - now - 1) % 1000 + 1

    def expired(self, now: int) -> bool:
        """Whether the countdown has run out at ``now``."""
        return now >= self.closes_at

