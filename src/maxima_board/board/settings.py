"""The controller's settings: timings, what the LEDs show, game tags.

The hardware helper's config loader fills a ``Settings`` from the TOML file;
tests and the command line build one directly.
"""
from __future__ import annotations

from dataclasses import dataclass, fields

from maxima_board.rules import variants

from .clock import parse_time_control

SHOW_IMMOBILIZED = ("off", "side", "both")
BOARD_KINDS = ("maxima", "10x10")
FORCES = ("eq", "u1", "u2", "random")   # Optima's kinds of forces (O4)


@dataclass
class Settings:
    """Every knob of the controller, with its default.

    Times are milliseconds. ``settle_ms``: how long the board must stay
    unchanged before a matching state counts as a move (a slide that rests on
    a square for less than this is ignored). ``suicide_ms``: how long an
    immobilized piece must stay off the board before its suicide commits
    (OK commits at once). ``grace_ms``: how long a wrong board may stand
    before the LEDs and OLED call it an error. ``last_move_ms``: how long the
    last move stays lit.
    """

    settle_ms: int = 300
    suicide_ms: int = 3000
    grace_ms: int = 1500
    last_move_ms: int = 3000
    show_immobilized: str = "both"     # "off" | "side" (side to move) | "both"
    show_check: bool = True
    hints: bool = False
    # Teaching: a lifted piece lights its legal targets (as ``hints``) and
    # every enemy piece a move of it would capture or freeze (LED ``captures``).
    teach: bool = False
    # A board restored by hand to the position before the last move takes
    # that move back, as if BACK had been pressed.
    takeback_by_restore: bool = True
    db_path: str | None = None
    event: str = "Casual game"
    site: str = ""
    white: str = "White"
    black: str = "Black"
    round: str = "-"
    # The time control of new games ("90+30", "60d10", "40/90,30+30",
    # "none"): see maxima_board.board.clock.
    time_control: str = "none"
    # The board (config [board] kind): "maxima" or "10x10"; and where a
    # smaller game stands on it ([board] offset: the board square under the
    # game's a1; "" = centred). See hardware/boards.py.
    board_kind: str = "maxima"
    board_offset: str = ""
    # The game of new games (an id of ``maxima-board variants``). The board
    # kind (``board_kind``, "maxima" or "10x10") is the hardware's: see
    # ``maxima_board.board.games.board_kind`` and ``maxima_board.devices.boards``.
    variant: str = "maxima"
    # Optima's new games ([game] forces and seed): "eq" (equal forces),
    # "u1"/"u2" (unequal, single or double royal), "random" (no placement);
    # ``seed`` draws the pools and random sets (None: the time of the game).
    forces: str = "eq"
    seed: int | None = None

    def __post_init__(self) -> None:
        for name in ("settle_ms", "suicide_ms", "grace_ms", "last_move_ms"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"setting {name} must be a whole number of milliseconds ≥ 0, got {value!r}")
        if self.show_immobilized not in SHOW_IMMOBILIZED:
            raise ValueError(f"setting show_immobilized must be one of {', '.join(SHOW_IMMOBILIZED)}, "
                             f"got {self.show_immobilized!r}")
        parse_time_control(self.time_control)   # a TimeControlError names the text
        if self.board_kind not in BOARD_KINDS:
            raise ValueError(f"setting board_kind must be one of {', '.join(BOARD_KINDS)}, "
                             f"got {self.board_kind!r}")
        if self.variant not in variants.names():
            raise ValueError(f"setting variant: unknown game {self.variant!r} (known: {', '.join(variants.names())})")
        if self.forces not in FORCES:
            raise ValueError(f"setting forces must be one of {', '.join(FORCES)}, got {self.forces!r}")
        if self.seed is not None and (isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0):
            raise ValueError(f"setting seed must be a whole number ≥ 0, got {self.seed!r}")
        if self.suicide_ms < self.settle_ms:
            raise ValueError(f"setting suicide_ms ({self.suicide_ms}) must not be shorter than "
                             f"settle_ms ({self.settle_ms})")

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """The names of all settings, in declaration order."""
        return tuple(f.name for f in fields(cls))
