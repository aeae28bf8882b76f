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

from dataclasses import replace
from typing import TYPE_CHECKING, Callable

from maxima_board.rules import WHITE
from maxima_board.board.chooser import Chooser
from maxima_board.board.games import board_for, main_form
from maxima_board.board.guidance import side_name
from maxima_board.board.sizes import usual_form
from .menu import Menu, MenuItem

if TYPE_CHECKING:
    from maxima_board.board.ports import Session


def open_chooser(s: "Session", on_label: str, go_on: Callable[[int], list]) -> None:
    """Show the chooser's first page; its MENU row (``on_label``) calls ``go_on``."""
    current = s.variant
    s.open_page(Chooser(board_for(current, s.settings), current, on_label,
                        lambda game, now: choose(s, game, now), go_on, now=s.now))


def choose(s: "Session", game: str, now: int) -> list[dict]:
    """The chooser's row of ``game`` pressed (a Deckle game by its 10×10 form)."""
    if main_form(s.variant) == game and s.mode != "ended":
        return []                                   # the game already played or set up: kept
    form = usual_form(game, s.store)
    if s.position.move_stack and s.mode in ("play", "sync"):
        s.open_page(Menu.question(MenuItem(f"Abandon game {s.game_id}?", lambda later: s.choose(form, later)), now))
        return []
    return s.choose(form, now)


def toggle_teaching(s: "Session") -> list[dict]:
    """MENU's "Teaching on?": a lifted piece lights what it would capture
    (``Settings.teach``), and a refused move says why; "Teaching off?" ends it."""
    s.settings = replace(s.settings, teach=not s.settings.teach)
    return []


def open_game_menu(s: "Session", extra: list[MenuItem], only_new: bool) -> None:
    """MENU during a game: the game chooser, its MENU row going on to the
    game's menu (resign, draw, new game, the web PIN, then ``extra``, then
    "Teaching on?");
    NEW: only "New game?"."""
    new = MenuItem("New game?", s.next_game, key="new")
    if only_new:
        s.open_page(Menu.question(new, s.now))
        return
    side = s.position.turn

    def resign(color: int) -> Callable[[int], list]:
        return lambda now: agreed("resign", color, now, "0-1" if color == WHITE else "1-0", "resignation")

    def agreed(what: str, color: int, now: int, result: str, reason: str) -> list:
        routed = s.agreements
        return routed(what, color, now) if routed is not None else s.end(result, reason, now)

    items = [MenuItem(f"Resign {side_name(side)}?", resign(side)),
             MenuItem(f"Resign {side_name(-side)}?", resign(-side)),
             MenuItem("Agree draw?", lambda now: agreed("draw", side, now, s.position.variant.draw_result,
                                                        "agreement")),
             new]
    if s.web_pin:
        items.append(MenuItem("Show web PIN?", s.show_web_pin))
    # last, after the items other layers add: a setting, not a step of the game
    teaching = MenuItem(lambda: f"Teaching {'off' if s.settings.teach else 'on'}?", lambda now: toggle_teaching(s))

    def game_menu(now: int) -> list[dict]:
        s.open_page(Menu(items + [item for item in extra if item.offered] + [teaching], now))
        return []

    open_chooser(s, "Resign, draw >", game_menu)
