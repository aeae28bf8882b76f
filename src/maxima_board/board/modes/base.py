"""What every mode answers."""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from maxima_board.board.ports import Session


class Mode:
    """One mode of the game. ``name`` is what ``Controller.mode`` says;
    ``session`` is the game it acts on (``maxima_board.board.ports.Session``)."""

    name = ""

    def __init__(self, session: "Session"):
        self.session = session

    def step(self, now: int) -> list[dict]:
        """Act on the board as it stands (called while the link is live)."""
        return []

    def press(self, button: str, now: int) -> list[dict]:
        """A button, when no menu is shown."""
        return []

    @property
    def clock_runs(self) -> bool:
        """Whether the side to move's clock runs in this mode."""
        return False
