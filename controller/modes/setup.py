"""Set-up: the LEDs show which squares still need a piece or must be
cleared; MENU shows the game (OK: the next game the board plays), for
Optima its forces (OK: the next kind), then the clock (OK: the next
preset), then walks the pieces one by one by name; the
game starts on OK/NEW once the board matches, or with a legal first move."""
from __future__ import annotations

from dataclasses import dataclass

from engine import Position

from ..clock import PRESETS, parse_time_control
from ..games import board_kind, forces_for, next_game
from ..reconstruct import MoveTable
from .base import Mode


@dataclass
class Setup:
    """Setting up the pieces of ``position`` before a game."""

    position: Position
    table: MoveTable
    squares: list[int]
    walk: int | None = None
    armed: bool = False     # the board has matched once: a legal first move starts the game
    on_clock: bool = False  # MENU → "Clock" is shown: OK cycles the time control of the game
    on_game: bool = False   # MENU → "Game" is shown: OK cycles the games the board plays
    on_forces: bool = False  # MENU → "Forces" is shown (Optima): OK cycles eq, u1, u2, random


class SetupMode(Mode):
    name = "setup"

    def __init__(self, controller, setup: Setup):
        super().__init__(controller)
        self.setup = setup

    def step(self, now: int) -> list[dict]:
        c = self.c
        setup = self.setup
        if c._raw == setup.table.expected:
            if c._stable(now):
                setup.armed = True
            return []
        if setup.armed and c._match().kind in ("move", "suicide", "early", "ambiguous", "promote", "remove", "partial",
                                               "place"):
            return c._start_game(setup.position, now)
        return []

    def press(self, button: str, now: int) -> list[dict]:
        c = self.c
        setup = self.setup
        if setup.on_game and button != "new":    # MENU → "Game": OK = the next game
            setup.on_game = False
            if button == "ok":
                c._variant = next_game(setup.position.variant.name, board_kind(c.settings))
                c._begin_setup(c._new_position(), now)
                c._setup.on_game = True
            elif button == "menu":
                if forces_for(setup.position.variant, c.settings.forces):
                    setup.on_forces = True
                else:
                    setup.on_clock = True
            return []
        if setup.on_forces and button != "new":  # MENU → "Forces" (Optima): OK = the next kind
            setup.on_forces = False
            if button == "ok":
                kinds = forces_for(setup.position.variant, c.settings.forces)
                now_kind = c.settings.forces if c.settings.forces in kinds else kinds[0]
                c.set_forces(kinds[(kinds.index(now_kind) + 1) % len(kinds)], c.settings.seed)
                c._begin_setup(c._new_position(), now)
                c._setup.on_forces = True
            elif button == "menu":
                setup.on_clock = True
            return []
        if setup.on_clock and button != "new":   # MENU → "Clock": OK = next preset
            setup.on_clock = False
            if button == "ok":
                current = str(c._control) if c._control is not None else PRESETS[0]
                index = PRESETS.index(current) if current in PRESETS else -1
                c._control = parse_time_control(PRESETS[(index + 1) % len(PRESETS)])
                setup.on_clock = True
            elif button == "menu":
                setup.walk = 0
            return []
        setup.on_clock = False
        ready = c._raw == setup.table.expected
        if button in ("ok", "new") and ready:
            return c._start_game(setup.position, now)
        if button == "ok":
            setup.walk = None
        elif button == "new":
            fresh = c._new_position()
            if setup.position.fen() != fresh.fen():
                c._begin_setup(fresh, now)
        elif button == "menu":
            if setup.walk is None:   # "Game" first, even on a board of one game: the player sees which
                setup.on_game = True
            else:
                setup.walk = (setup.walk + 1) % len(setup.squares)
        elif button == "back" and setup.walk is not None:
            setup.walk = (setup.walk - 1) % len(setup.squares)
        return []
