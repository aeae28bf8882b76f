"""What lies over the game's screen for a while: a page (the game chooser
or the MENU's questions), a passing note, and why a press was refused;
how they close is told in ``maxima_board.board.closing``."""
from __future__ import annotations

from typing import Union

from .chooser import Chooser
from .closing import IGNORED, QUIET_MS
from .modes.menu import Menu
from .notes import NOTE_MS

Page = Union[Menu, Chooser]


class Overlay:
    """``page``: the page shown over the game (None: none); ``note`` and
    ``refused``: a text and until when it is shown; ``quiet_until``: presses
    before then do nothing (a page has just closed by itself)."""

    def __init__(self) -> None:
        self.page: Page | None = None
        self.note: tuple[str, int] | None = None
        self.refused: tuple[str, int] | None = None
        self.quiet_until: int | None = None

    def open(self, page: Page) -> None:
        """Show ``page`` over the game (in place of any other)."""
        self.page = page

    def close(self) -> None:
        """No page over the game."""
        self.page = None

    def show_note(self, text: str, until: int) -> None:
        """A passing note on the OLED until ``until``."""
        self.note = (text, until)

    def clear_note(self) -> None:
        """No note shown."""
        self.note = None

    def refuse(self, text: str, until: int) -> None:
        """A press was refused: ``text`` says why until ``until``."""
        self.refused = (text, until)

    def clear_refusal(self) -> None:
        """No refusal shown."""
        self.refused = None

    def press(self, button: str, now: int, blind: bool = False) -> list[dict]:
        """A button while a page is shown; the page closes unless it stays
        or its item opened another (a confirmation). ``blind``: the board is
        not known, the chooser chooses nothing."""
        page = self.page
        assert page is not None
        stays, events = page.press(button, now, blind) if isinstance(page, Chooser) else page.press(button, now)
        if not stays and self.page is page:
            self.page = None
        return events

    def touch(self) -> None:
        """A piece lifted or placed: the page shown closes, and so does the
        note of a press ignored (the board's guidance is wanted now)."""
        self.page = None
        if self.refused is not None and self.refused[0] == IGNORED:
            self.refused = None

    def expire(self, now: int) -> None:
        """What has had its time at ``now`` goes: a page whose countdown
        has run out closes (presses until ``QUIET_MS`` after that moment do
        nothing), a note and a refusal whose time is up."""
        page = self.page
        if page is not None and page.expired(now):
            self.page = None
            self.quiet_until = page.closes_at + QUIET_MS
        if self.note is not None and self.note[1] <= now:
            self.note = None
        if self.refused is not None and self.refused[1] <= now:
            self.refused = None

    def ignored(self, now: int) -> bool:
        """Whether a press at ``now`` falls just after a page closed by itself;
        if so the OLED says that it was ignored."""
        if self.quiet_until is None or now >= self.quiet_until:
            return False
        self.refused = (IGNORED, now + NOTE_MS)
        return True

    def deadlines(self, now: int) -> list[int]:
        """When the note or the refusal goes, when the page's countdown next changes."""
        times = []
        if self.note is not None:
            times.append(self.note[1])
        if self.refused is not None:
            times.append(self.refused[1])
        if self.page is not None:   # its countdown, then it closes
            times.append(self.page.next_change(now))
        return times
