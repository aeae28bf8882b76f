"""The game chooser: the games a board plays as pages of labelled buttons.

A page shows one row per button, in the buttons' physical order (OK, BACK,
MENU, NEW; shared/hardware/board.md), each row the button's name and what
it does::

    OK   Ultima, Optima >
    BACK Coordinator +3 >
    MENU Resign, draw >
    NEW  Advancer +3 >

The first page keeps MENU for going on (the rest of the menu, set-up's
clock…); the other three buttons choose a game, or open a page of a group
of games when the board plays more than three. A group's page uses all
four buttons; a spare one goes back to the first page. The pages are built
from the board's games (``maxima_board.devices.boards.games_for``), a Deckle game once
(its 10×10 form: set-up follows the pieces to the 10×8 one), grouped by
family (``variants.relatives``), in the order of ``maxima-board variants``.

A group's page of four games has no button to spare for going back, so
every page closes by itself ``CLOSE_MS`` after the last press, counting
the seconds down in its title bar ("Choose a game  20s"); a touch on the
board closes it too (``maxima_board.board.closing``).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable

from maxima_board.rules import variants
from maxima_board.devices.boards import games_for
from maxima_board.devices.interfaces import BUTTONS

from . import guidance as g
from .closing import Countdown
from .games import main_form, short_title

ON = "menu"                   # the first page's button that goes on
LEAVES = 4                    # games on a group's page: one per button
LABEL = g.WIDTH - 5           # "BACK " then the label
TITLE = "Choose a game"
CURRENT = "*"                 # marks the game being played or set up


@dataclass(frozen=True)
class Row:
    """What one button does on a page: choose ``game``, open ``page``,
    go ``up`` to the first page, or go ``on`` (to what follows the chooser)."""

    label: str
    game: str | None = None
    page: "Page | None" = None
    up: bool = False
    on: bool = False


@dataclass(frozen=True)
class Page:
    rows: dict[str, Row] = field(default_factory=dict)   # button → row; a button not named does nothing


def choices(kind: str) -> list[str]:
    """The games the chooser offers on board ``kind``: each game once (a
    Deckle game by its 10×10 form), in the order of ``variants``."""
    out: list[str] = []
    for name in games_for(kind):
        main = main_form(name)
        if main not in out:
            out.append(main)
    return out


def _base_title(game: str) -> str:
    """The name a group is labelled by: the title without its size or
    parenthesis (``"Ultima (pure)"`` → ``"Ultima"``, ``"Optima 9x9"`` → ``"Optima"``)."""
    return re.sub(r" \(.*\)| \d+x\d+$", "", short_title(game))


def _groups(games: list[str], count: int) -> list[list[str]]:
    """``games`` in at most ``count`` groups, in order, each family kept
    together where it fits: families are cut in runs of ``cap`` games and
    the runs packed first-fit into groups of at most ``cap`` (``cap``: the
    smallest from ``LEAVES`` up that gives ``count`` groups or fewer)."""
    runs: list[list[str]] = []
    for game in games:
        if runs and variants.get(game) in variants.relatives(runs[-1][0]):
            runs[-1].append(game)
        else:
            runs.append([game])
    cap = LEAVES
    while True:
        groups: list[list[str]] = []
        for run in runs:
            for start in range(0, len(run), cap):
                part = run[start:start + cap]
                home = next((grp for grp in groups if len(grp) + len(part) <= cap), None)
                if home is None:
                    groups.append(list(part))
                else:
                    home.extend(part)
        if len(groups) <= count or cap >= len(games) - 1:
            return [sorted(grp, key=games.index) for grp in groups]
        cap += 1


def _group_label(games: list[str]) -> str:
    names = list(dict.fromkeys(_base_title(game) for game in games))
    # the games' names, or the first and how many more ("Coordinator +3 >"): a space before the ">" always
    for text in (", ".join(names) + " >", f"{names[0]} +{len(names) - 1} >", f"{names[0]} >"):
        if len(text) <= LABEL:
            return text
    return names[0][:LABEL - 2] + " >"


def _buttons(count: int) -> tuple[str, ...]:
    """The buttons a group's page of ``count`` games uses: all four when
    it needs them, else all but MENU (left for going back)."""
    return BUTTONS if count >= LEAVES else tuple(b for b in BUTTONS if b != ON)


def _page(games: list[str], buttons: tuple[str, ...], spare: Row | None) -> Page:
    """A page of ``games`` on ``buttons`` (groups of them when there are
    more games than buttons); ``spare`` on the first button left over."""
    if len(games) <= len(buttons):
        rows = {button: Row(short_title(game), game=game) for button, game in zip(buttons, games)}
    else:
        rows = {button: Row(_group_label(grp), page=_page(grp, _buttons(len(grp)), Row("< Back", up=True)))
                for button, grp in zip(buttons, _groups(games, len(buttons)))}
    left = [b for b in BUTTONS if b not in rows]
    if spare is not None and left:
        rows[ON if ON in left else left[0]] = spare
    return Page({b: rows[b] for b in BUTTONS if b in rows})


@lru_cache(maxsize=16)
def first_page(kind: str, on_label: str) -> Page:
    """The chooser's first page on board ``kind``: MENU goes on
    (``on_label``), the other buttons choose a game or open a group's page."""
    return _page(choices(kind), tuple(b for b in BUTTONS if b != ON), Row(on_label, on=True))


def rows(page: Page, current: str | None = None) -> list[str]:
    """The page's OLED rows, one per button, ``current`` (a game) marked."""
    out = []
    for button in BUTTONS:
        row = page.rows.get(button)
        if row is None:
            continue
        label = row.label
        if row.game is not None and row.game == current:
            label = label + CURRENT if len(label) < LABEL else label[:LABEL - 1] + CURRENT
        out.append(f"{button.upper():<4} {label}")
    return out


class Chooser(Countdown):
    """The chooser on the OLED, over the mode, as a menu is: ``press``
    answers (whether it stays shown, events), ``lines`` are its rows.
    ``choose(game, now)`` and ``go_on(now)`` return events. Opened at
    ``now``, it closes by itself at ``closes_at`` (``CLOSE_MS`` after the
    last press that kept it shown)."""

    def __init__(self, kind: str, current: str, on_label: str, choose: Callable[[str, int], list],
                 go_on: Callable[[int], list], now: int = 0):
        self.root = self.page = first_page(kind, on_label)
        self.current = main_form(current)
        self._choose = choose
        self._go_on = go_on
        self.restart(now)

    @property
    def title(self) -> str:
        return TITLE

    @property
    def lines(self) -> list[str]:
        return rows(self.page, self.current)

    def heading(self, now: int) -> str:
        """The title bar: the title, and the seconds left flush right."""
        return g.status_line(TITLE, self.counter(now))

    def screen(self, now: int) -> list[str]:
        """The OLED lines at ``now``: the title bar, then one row per button."""
        return [self.heading(now)] + self.lines

    def press(self, button: str, now: int, blind: bool = False) -> tuple[bool, list[dict]]:
        """A button on the shown page. ``blind`` (the board is not known):
        nothing is chosen; a button that would choose closes the chooser."""
        row = self.page.rows.get(button)
        if row is None:
            self.restart(now)
            return True, []
        if row.page is not None or row.up:
            self.page = row.page if row.page is not None else self.root
            self.restart(now)
            return True, []
        if row.on:
            return False, list(self._go_on(now))
        if blind:
            return False, []
        return False, list(self._choose(row.game, now))

