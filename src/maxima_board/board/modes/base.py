"""What every mode answers."""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from maxima_board.board.core import Controller


class Mode:
    """One mode of the controller. ``name`` is what ``Controller.mode`` says."""

    name = ""

    def __init__(self, controller: "Controller"):
        self.c = controller

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
