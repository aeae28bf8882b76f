"""MENU's game chooser over a mode (``controller.chooser`` lays out its
pages): in play and sync its MENU row goes on to the game's menu, in
set-up to Optima's forces and the clock, after a game it closes.

Choosing the game already played (or set up) keeps it; choosing another
sets up a new game of it, after "Abandon game N?" (OK) when the game in
progress has moves. A Deckle game is set up in the size last set up on
this board in this session, else 10×10 (set-up follows the pieces to the
other size: ``controller.sizes``)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from ..chooser import Chooser
from ..games import board_for, main_form
from .menu import Menu, MenuItem

if TYPE_CHECKING:
    from ..core import Controller


def open_chooser(c: "Controller", on_label: str, go_on: Callable[[int], list]) -> None:
    """Show the chooser's first page; its MENU row (``on_label``) calls ``go_on``."""
    current = c.variant
    c._menu = Chooser(board_for(current, c.settings), current, on_label,
                      lambda game, now: choose(c, game, now), go_on)


def choose(c: "Controller", game: str, now: int) -> list[dict]:
    """The chooser's row of ``game`` pressed (a Deckle game by its 10×10 form)."""
    if main_form(c.variant) == game and c.mode != "ended":
        return []                                   # the game already played or set up: kept
    form = c._variant if main_form(c._variant) == game else game
    if c._position.move_stack and c.mode in ("play", "sync"):
        c._menu = Menu([MenuItem(f"Abandon game {c.game_id}?", lambda later: c._choose(form, later))])
        return []
    return c._choose(form, now)
