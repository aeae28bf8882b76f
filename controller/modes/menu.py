"""The MENU: a list of questions, each answered by OK.

Items are ``MenuItem(label, action)``: ``label`` is the question on the
OLED ("Agree draw?"), ``action(now_ms)`` returns the controller's events.
The controller builds the standard items (resign, draw, new game); other
layers (the computer opponent) add theirs with
``Controller.add_menu_item``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

Action = Callable[[int], list]


@dataclass(frozen=True)
class MenuItem:
    label: "str | Callable[[], str]"   # a callable: words that change (``"Computer: White?"``)
    action: Action
    key: str = ""     # "new" marks the item that the NEW button confirms

    @property
    def text(self) -> str:
        return self.label() if callable(self.label) else self.label


@dataclass
class Menu:
    items: list[MenuItem]
    index: int = 0

    @property
    def current(self) -> MenuItem:
        return self.items[self.index]

    def press(self, button: str, now: int) -> tuple[bool, list[dict]]:
        """A button while the menu is shown: (whether the menu stays, events)."""
        if button == "back":
            return False, []
        if button == "menu" or (button == "new" and self.current.key != "new"):
            if self.index + 1 < len(self.items):
                self.index += 1
                return True, []
            return False, []
        return False, list(self.current.action(now))   # ok, or NEW on "New game?"
