"""Set-up: the LEDs show which squares still need a piece or must be
cleared; MENU opens the game chooser (``maxima_board.board.chooser``), whose MENU
row goes on to Optima's forces (OK: the next kind), then the clock (OK:
the next preset), then walks the pieces one by one by name; the game
starts on OK/NEW once the board matches, or with a legal first move.

A Deckle game has two sizes: its "Game" screen (shown when it is chosen)
names the size, OK there sets up the other one while that can apply (the
set-up is of the start, the other size stands on this board, and the
start set up does not stand yet: once it stands, the screen says it is
ready and OK starts it); and a board that stands stably as the other
size's start switches to it (``maxima_board.board.sizes``)."""
from __future__ import annotations

from maxima_board.board.clock import PRESETS
from maxima_board.board.games import board_for, forces_for, other_form
from maxima_board.board.reconstruct import bits
from maxima_board.board.records import Setup
from maxima_board.board.sizes import on_board, other_size_standing, size_switch
from .base import Mode
from .choice import open_chooser

__all__ = ["Setup", "SetupMode"]


class SetupMode(Mode):
    name = "setup"

    def __init__(self, session, setup: Setup):
        super().__init__(session)
        self.setup = setup

    @property
    def on_label(self) -> str:
        """The chooser's MENU row in set-up: what follows it."""
        forces = forces_for(self.setup.position.variant, self.session.settings.forces)
        return "Forces, clock >" if forces else "Clock, pieces >"

    def step(self, now: int) -> list[dict]:
        s = self.session
        setup = self.setup
        if s.frame.raw == setup.table.expected and not s.frame.outside:
            if s.stable(now):
                setup.armed = True
            return []
        if s.stable(now) and self._switch_size(now):
            return []
        if s.frame.outside:   # a piece off the game's squares: nothing starts
            return []
        if setup.armed and s.match().kind in ("move", "suicide", "early", "ambiguous", "promote", "remove", "partial",
                                              "place"):
            return s.start_game(setup.position, now)
        return []

    def _switch_size(self, now: int) -> bool:
        """The board stands as the other size's start: set that one up."""
        settings = self.session.settings
        setup = self.setup
        position = setup.position
        game = position.variant.name
        if other_form(game) is None or position.fen() != position.variant.start_fen:
            return False
        other = other_size_standing(game, self._board(), board_for(game, settings), settings.board_offset)
        if other is None:
            return False
        self._set_up(other, now, on_game=setup.on_game)
        return True

    def _board(self) -> frozenset[str] | None:
        """The occupied squares of the physical board, by its names."""
        s = self.session
        game = self.setup.position.variant.name
        names = self.setup.position.geometry.names
        return on_board(game, (names[sq] for sq in bits(s.frame.raw or 0)), s.frame.outside,
                        board_for(game, s.settings), s.settings.board_offset)

    def _set_up(self, game: str, now: int, on_game: bool) -> None:
        s = self.session
        s.begin_setup(s.new_position(game), now).on_game = on_game

    def _go_on(self, now: int) -> list[dict]:
        """The chooser's MENU row: Optima's forces, else the clock."""
        setup = self.setup
        if forces_for(setup.position.variant, self.session.settings.forces):
            setup.on_forces = True
        else:
            setup.on_clock = True
        return []

    def press(self, button: str, now: int) -> list[dict]:
        s = self.session
        setup = self.setup
        standing = s.frame.raw == setup.table.expected and not s.frame.outside
        other = size_switch(setup.position, s.settings)
        if setup.on_game and (standing or other is None):   # the size page is gone: the buttons as ever
            setup.on_game = False
        if setup.on_game and button != "new":    # a Deckle game's size: OK = the other size
            setup.on_game = False
            if button == "ok":
                # chosen by hand: the pieces standing now are not the start it left (that start would stand, and OK
                # would start it), so they do not switch back to it
                self._set_up(other, now, on_game=True)
            elif button == "menu":
                return self._go_on(now)
            return []
        if setup.on_forces and button != "new":  # MENU → "Forces" (Optima): OK = the next kind
            setup.on_forces = False
            if button == "ok":
                kinds = forces_for(setup.position.variant, s.settings.forces)
                now_kind = s.settings.forces if s.settings.forces in kinds else kinds[0]
                s.set_forces(kinds[(kinds.index(now_kind) + 1) % len(kinds)], s.settings.seed)
                s.begin_setup(s.new_position(), now).on_forces = True
            elif button == "menu":
                setup.on_clock = True
            return []
        if setup.on_clock and button != "new":   # MENU → "Clock": OK = next preset
            setup.on_clock = False
            if button == "ok":
                current = str(s.control) if s.control is not None else PRESETS[0]
                index = PRESETS.index(current) if current in PRESETS else -1
                s.set_time_control(PRESETS[(index + 1) % len(PRESETS)])
                setup.on_clock = True
            elif button == "menu":
                setup.walk = 0
            return []
        setup.on_clock = False
        ready = s.frame.raw == setup.table.expected
        if button in ("ok", "new") and ready:
            s.forget_lifts()   # pieces lifted while setting up are no move (a Swapper's two would be a swap)
            return s.start_game(setup.position, now)
        if button == "ok":
            setup.walk = None
        elif button == "new":
            fresh = s.new_position()
            if setup.position.fen() != fresh.fen():
                s.begin_setup(fresh, now)
        elif button == "menu":
            if setup.walk is None:   # the chooser first, even on a board of one game: the player sees which
                open_chooser(s, self.on_label, self._go_on)
            else:
                setup.walk = (setup.walk + 1) % len(setup.squares)
        elif button == "back" and setup.walk is not None:
            setup.walk = (setup.walk - 1) % len(setup.squares)
        return []
