"""MENU's game chooser over a mode (``controller.chooser`` lays out its
pages): in play and sync its MENU row goes on to the game's menu, in
set-up to Optima's forces and the clock, after a game it closes.

Choosing the game already played (or set up) keeps it; choosing another
sets up a new game of it, after "Abandon game N?" (OK) when the game in
progress has moves. A Deckle game is set up in the size of its newest
game stored on this board, else 10×10 (``controller.sizes.usual_form``;
set-up follows the pieces to the other size).

The chooser has a way back on every page, even a group's page whose four
buttons all choose a game: it closes by itself when its countdown runs
out (``Chooser.closes_at``), and a touch on the board (a lift or a
placement) closes it, or the "Abandon game N?" it asked, at once; the
board's change is then handled as any other. A button pressed within
``QUIET_MS`` after the chooser closed by itself was meant for its page: it
does nothing (a BACK meant for a game must not take a move back)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from ..chooser import Chooser
from ..games import board_for, main_form
from ..sizes import usual_form
from .menu import Menu, MenuItem

if TYPE_CHECKING:
    from ..core import Controller

QUIET_MS = 1000   # after the chooser closed by itself, presses this long are ignored


@dataclass
class AbandonQuestion(Menu):
    """The chooser's "Abandon game N?": a touch on the board closes it."""


def open_chooser(c: "Controller", on_label: str, go_on: Callable[[int], list]) -> None:
    """Show the chooser's first page; its MENU row (``on_label``) calls ``go_on``."""
    current = c.variant
    c._menu = Chooser(board_for(current, c.settings), current, on_label,
                      lambda game, now: choose(c, game, now), go_on, now=c._now)


def close_on_touch(c: "Controller") -> None:
    """A piece lifted or placed: the chooser (or its question) closes."""
    if isinstance(c._menu, (Chooser, AbandonQuestion)):
        c._menu = None


def close_if_expired(c: "Controller", now: int) -> None:
    """The chooser's countdown has run out: it closes, and presses until
    ``QUIET_MS`` after that moment do nothing."""
    menu = c._menu
    if isinstance(menu, Chooser) and menu.expired(now):
        c._menu = None
        c._quiet_until = menu.closes_at + QUIET_MS


def quiet(c: "Controller", now: int) -> bool:
    """Whether a press at ``now`` falls just after the chooser closed by itself."""
    return c._quiet_until is not None and now < c._quiet_until


def choose(c: "Controller", game: str, now: int) -> list[dict]:
    """The chooser's row of ``game`` pressed (a Deckle game by its 10×10 form)."""
    if main_form(c.variant) == game and c.mode != "ended":
        return []                                   # the game already played or set up: kept
    form = usual_form(game, c.store)
    if c._position.move_stack and c.mode in ("play", "sync"):
        c._menu = AbandonQuestion([MenuItem(f"Abandon game {c.game_id}?", lambda later: c._choose(form, later))])
        return []
    return c._choose(form, now)
