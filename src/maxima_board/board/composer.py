"""One screen: every layer offers its lines, the composer decides what the OLED shows.

An :class:`Offer` is either a whole screen (``lines``: the game's screen, a
page, the guard's fault screen) or words for the rows under a screen's
first two (``text``, and ``short`` for a screen with little room: the
computer's move, a note). Each has a :class:`Rank`:

* the highest-ranked screen is shown;
* the highest-ranked words ranked above that screen go with it. On the
  game screen they go under its first two rows (in place of its
  instruction when they are ``replaces``, or when it has none), else in
  their short form in place of its last rows;
* a screen ranked :attr:`Rank.PAGE` or above (the chooser, a menu question,
  "Which move?", take-back guidance, the fault screen) owns the OLED: its
  rows are never overwritten. Words ranked above it take only the rows it
  leaves free; words ranked below it (the computer's move) wait until it
  closes.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Callable, Iterable

from . import guidance as g


class Rank(IntEnum):
    """Who has the OLED, lowest first."""

    GAME = 0        # the game screen: status bar, the last move, the instruction
    OPPONENT = 10   # the computer's move, a hint, "Computer is thinking."
    PAGE = 20       # a page answered with the buttons: the chooser, a menu question, "Which move?"
    GUIDANCE = 30   # take-back guidance
    NOTE = 40       # a passing note of a layer: "Not the computer's move…", "Computer restarting"
    FAULT = 50      # the guard's fault screen


@dataclass(frozen=True)
class Offer:
    """What a layer would show: a whole screen (``lines``), or words for
    the rows under a screen's first two (``text``; ``short``: the same in
    one row, two when they need them). ``replaces``: the words stand in
    for the game screen's instruction (guidance of their own)."""

    rank: Rank
    lines: tuple[str, ...] = ()
    text: str = ""
    short: str = ""
    replaces: bool = False

    @property
    def is_screen(self) -> bool:
        return bool(self.lines) or not self.text


Source = Callable[[], "Offer | None"]


def compose(offers: Iterable[Offer]) -> list[str]:
    """The OLED lines for ``offers`` (module docstring)."""
    ranked = sorted(offers, key=lambda offer: offer.rank, reverse=True)
    screen = next((o for o in ranked if o.is_screen), Offer(Rank.GAME))
    words = next((o for o in ranked if not o.is_screen), None)
    lines = _trimmed(list(screen.lines))
    if words is None or words.rank <= screen.rank:
        return lines
    if screen.rank >= Rank.PAGE:
        tail = _short(words)
        return lines + tail if len(lines) + len(tail) <= g.LINES else lines
    head, body = (lines + ["", ""])[:2], lines[2:]
    if words.replaces or not any(body):
        return _trimmed(head + g.wrap(words.text))
    tail = _short(words)
    return _trimmed(head + body[:g.TEXT_LINES - len(tail)] + tail)


def _short(words: Offer) -> list[str]:
    """The words in one row, or two when they need them."""
    short = words.short or words.text
    return [short] if len(short) <= g.WIDTH else g.wrap(short, 2)


def _trimmed(lines: list[str]) -> list[str]:
    while lines and not lines[-1]:
        lines.pop()
    return lines


class Composer:
    """The OLED of one controller: its owner shows its screen
    (:meth:`show`), other layers add sources of offers (:meth:`add`),
    asked each time the lines are read."""

    def __init__(self) -> None:
        self._screen = Offer(Rank.GAME)
        self._sources: list[Source] = []

    def show(self, offer: Offer) -> None:
        """The owner's screen from now on."""
        self._screen = offer

    def add(self, source: Source) -> None:
        """``source()`` gives the layer's offer of the moment, or None."""
        self._sources.append(source)

    @property
    def lines(self) -> list[str]:
        """What the OLED shows now."""
        offers = [self._screen]
        for source in self._sources:
            offer = source()
            if offer is not None:
                offers.append(offer)
        return compose(offers)
