"""The MENU: a list of questions, each answered by OK.

Items are ``MenuItem(label, action)``: ``label`` is the question on the
OLED ("Agree draw?"), ``action(now_ms)`` returns the controller's events.
The controller builds the standard items (resign, draw, new game); other
layers (the computer opponent) add theirs with
``Controller.add_menu_item``.

Like the game chooser, a menu closes by itself ``CLOSE_MS`` after it
opened or MENU stepped it, its seconds counted down on the line above
the question, and at once on a touch on the board (``maxima_board.board.closing``).
"""
from __future__ import annotations

from dataclasses import InitVar, dataclass
from typing import Callable

from maxima_board.board import guidance as g
from maxima_board.board.closing import Countdown

Action = Callable[[int], list]
TITLE = "Menu"        # a menu's title, with where its question stands among them ("Menu 2/6")
CONFIRM = "Confirm"   # the title of a single question asked on its own ("New game?", "Abandon game N?")
# the buttons under a question, the first that lets the question and its buttons wrap whole (each button's
# words on one line): in full, in an order that breaks well after a one-line question ("Resign Black?"), and
# shorter where a long question leaves one line ("Computer: Level 7 (strong club player)?"): BACK then goes unsaid
KEYS = ("OK = yes, MENU = next, BACK = cancel.", "OK = yes, BACK = no, MENU = next.", "OK = yes, MENU = next")
KEYS_ALONE = ("OK = yes, BACK = cancel.", "OK = yes, BACK = no")   # a single question: MENU would only close it


@dataclass(frozen=True)
class MenuItem:
    label: "str | Callable[[], str]"   # a callable: words that change (``"Computer: White?"``)
    action: Action
    key: str = ""     # "new" marks the item that the NEW button confirms
    visible: "Callable[[], bool] | None" = None   # whether the menu offers it now (None: always)

    @property
    def offered(self) -> bool:
        return self.visible is None or self.visible()

    @property
    def text(self) -> str:
        return self.label() if callable(self.label) else self.label


@dataclass
class Menu(Countdown):
    """The questions ``items``, opened at ``now``."""

    items: list[MenuItem]
    now: InitVar[int]
    title: str = TITLE
    index: int = 0

    def __post_init__(self, now: int) -> None:
        self.restart(now)

    @classmethod
    def question(cls, item: MenuItem, now: int) -> "Menu":
        """A single question asked on its own ("New game?", "Abandon game N?")."""
        return cls([item], now, title=CONFIRM)

    @property
    def current(self) -> MenuItem:
        return self.items[self.index]

    def heading(self, now: int) -> str:
        """The line above the question: the title (and which question of
        how many), the seconds left flush right."""
        count = len(self.items)
        return g.status_line(f"{self.title} {self.index + 1}/{count}" if count > 1 else self.title,
                             self.counter(now))

    def shown(self, now: int) -> tuple[str, str, tuple[str, ...]]:
        """What the OLED shows of the menu at ``now``: its heading, its question and the buttons' words
        (in full, and short)."""
        return self.heading(now), self.current.text, KEYS if len(self.items) > 1 else KEYS_ALONE

    def press(self, button: str, now: int) -> tuple[bool, list[dict]]:
        """A button while the menu is shown: (whether the menu stays, events)."""
        if button == "back":
            return False, []
        if button == "menu" or (button == "new" and self.current.key != "new"):
            if self.index + 1 < len(self.items):
                self.index += 1
                self.restart(now)
                return True, []
            return False, []
        return False, list(self.current.action(now))   # ok, or NEW on "New game?"
