"""The game session as the modes see it (``maxima_board.board.modes``): what
they read of the game and the board, and the transitions they ask for. The
session (``maxima_board.board.session.GameSession``) answers it; the modes
never see the controller."""
from __future__ import annotations

from typing import Callable, Protocol

from maxima_board.rules import Move, Position
from maxima_board.storage.store import GameStore

from .clock import Clock, TimeControl
from .frame import BoardFrame
from .reconstruct import Match, MoveTable
from .records import Setup
from .screens import Pick
from .settings import Settings

class Page(Protocol):
    """A page over the game: the game chooser (``maxima_board.board.chooser``),
    or the MENU's questions (``maxima_board.board.modes.menu``)."""

    closes_at: int

    def expired(self, now: int) -> bool: ...

    def next_change(self, now: int) -> int: ...


class Session(Protocol):
    """One game on one board: its state, read, and its transitions, asked."""

    # ------------------------------------------------------------ read
    @property
    def settings(self) -> Settings: ...

    @property
    def store(self) -> GameStore: ...

    @property
    def now(self) -> int:
        """The time of the last input (ms)."""

    @property
    def position(self) -> Position:
        """The game's position (not the one being set up)."""

    @property
    def table(self) -> MoveTable:
        """The legal moves of ``position`` with their physical signatures."""

    @property
    def frame(self) -> BoardFrame:
        """The board as the sensors last showed it; changed by the session only."""

    @property
    def clock(self) -> Clock | None:
        """The game's clocks; None without."""

    @property
    def control(self) -> TimeControl | None:
        """The time control of the next new game."""

    @property
    def mode(self) -> str:
        """``"setup"``, ``"play"``, ``"sync"`` or ``"ended"``."""

    @property
    def variant(self) -> str:
        """The game in progress or being set up."""

    @property
    def game_id(self) -> int | None: ...

    @property
    def reason(self) -> str | None:
        """Why the game ended; None while it goes on."""

    @property
    def agreements(self) -> "Callable[[str, int, int], list[dict]] | None":
        """What MENU's "Resign White?" and "Agree draw?" do instead of ending the game, if anything."""

    @property
    def web_pin(self) -> str | None:
        """The web page's PIN (None: no web page): MENU offers to show it."""

    def match(self) -> Match:
        """What the board shows, against the moves of the game (or of the set-up)."""

    def stable(self, now: int) -> bool:
        """Whether the board has settled at ``now``."""

    def last_signature(self) -> tuple[int, int, int]:
        """The last move's signature (vacated, filled, replaced) as masks."""

    # ------------------------------------------------------------ a choice the board cannot see
    def offered(self) -> Pick:
        """The move offered among several for the board as it stands."""

    def offer(self, pick: Pick) -> None:
        """Offer another of them."""

    def cancel_offer(self, key: tuple[int | None, int]) -> None:
        """BACK cancelled the promotion (placement) on the board ``key``."""

    def printed(self, position: Position) -> tuple[str, ...]:
        """The board's printed name of each square of ``position``'s game, by index."""

    def new_error(self, key: tuple) -> bool:
        """Whether the wrong board ``key`` is reported for the first time."""

    def calls_flag(self, side: int) -> bool:
        """Whether this board calls ``side``'s flag (a remote game: its own side's only)."""

    # ------------------------------------------------------------ transitions
    def commit(self, move: Move, now: int, stop: int | None = None) -> list[dict]:
        """Store and play ``move`` (``stop``: when the mover's clock stopped)."""

    def end(self, result: str, reason: str, now: int) -> list[dict]:
        """The game is over."""

    def take_back(self, now: int, by_restore: bool = False) -> list[dict]:
        """Take the last move back (``by_restore``: the board already shows the position before it)."""

    def reopen(self, now: int) -> list[dict]:
        """Undo a resignation or an agreed draw."""

    def start_game(self, position: Position, now: int) -> list[dict]:
        """Start a game from ``position``."""

    def next_game(self, now: int) -> list[dict]:
        """Abandon the game; set up the next one (started at once if it stands)."""

    def choose(self, variant: str, now: int) -> list[dict]:
        """Abandon the game; set up a new game of ``variant``."""

    def new_position(self, variant: str | None = None) -> Position:
        """The start of the game of new games (``variant`` becomes it if given)."""

    def begin_setup(self, position: Position, now: int) -> Setup:
        """Set-up of ``position`` begins; its record."""

    def play_on(self, note: str, now: int) -> None:
        """The board shows the position again: play goes on, ``note`` shown a while."""

    def forget_lifts(self) -> None:
        """No square counts as lifted (set-up's pieces are no move)."""

    def set_forces(self, forces: str, seed: int | None = None) -> None:
        """Optima's forces for the games started from now on."""

    def set_time_control(self, text: str) -> None:
        """The time control of the games started from now on."""

    # ------------------------------------------------------------ pages
    def open_menu(self, only_new: bool = False) -> None:
        """MENU during a game: the chooser, then the game's menu (``only_new``: only "New game?")."""

    def open_page(self, page: Page) -> None:
        """Show ``page`` over the game."""

    def show_web_pin(self, now: int) -> list[dict]:
        """The web PIN on the OLED for a while."""
