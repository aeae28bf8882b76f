"""MENU's game chooser over a mode (``maxima_board.board.chooser`` lays out its
pages): in play and sync its MENU row goes on to the game's menu, in
set-up to Optima's forces and the clock, after a game it closes.

Choosing the game already played (or set up) keeps it; choosing another
sets up a new game of it, after "Abandon game N?" (OK) when the game in
progress has moves. A Deckle game is set up in the size of its newest
game stored on this board, else 10×10 (``maxima_board.board.sizes.usual_form``;
set-up follows the pieces to the other size).

The chooser has a way back on every page, even a group's page whose four
buttons all choose a game: it closes by itself when its countdown runs
out, and a touch on the board closes it, or the "Abandon game N?" it
asked, at once (``maxima_board.board.closing``)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from maxima_board.board.chooser import Chooser
from maxima_board.board.games import board_for, main_form
from maxima_board.board.sizes import usual_form
from .menu import Menu, MenuItem

if TYPE_CHECKING:
    from maxima_board.board.core import Controller


def open_chooser(c: "Controller", on_label: str, go_on: Callable[[int], list]) -> None:
    """Show the chooser's first page; its MENU row (``on_label``) calls ``go_on``."""
    current = c.variant
    c._menu = Chooser(board_for(current, c.settings), current, on_label,
                      lambda game, now: choose(c, game, now), go_on, now=c._now)


def choose(c: "Controller", game: str, now: int) -> list[dict]:
    """The chooser's row of ``game`` pressed (a Deckle game by its 10×10 form)."""
    if main_form(c.variant) == game and c.mode != "ended":
        return []                                   # the game already played or set up: kept
    form = usual_form(game, c.store)
    if c._position.move_stack and c.mode in ("play", "sync"):
        c._menu = Menu.question(MenuItem(f"Abandon game {c.game_id}?", lambda later: c._choose(form, later)), now)
        return []
    return c._choose(form, now)
