"""The state of one game on one board at a moment, and what it answers:
the game's position and record (id, result, last move), the mode it is in,
and its parts: the board's frame (``frame``), what lies over the screen
(``overlay``), the clocks (``timekeeper``), the position's moves as the
board shows them (``matching``).

The modes read it through ``maxima_board.board.ports.Session``; the
controller reads it to render. Its transitions are the session's
(``maxima_board.board.session.GameSession``).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Callable

from maxima_board.rules import Position, variants
from maxima_board.storage.store import GameStore

from .clock import Clock, TimeControl
from .frame import BoardFrame
from .games import first_game, start_fen
from .matching import Matching
from .modes import MenuItem, Mode, PlayMode, SetupMode, SyncMode
from .overlay import Overlay
from .reconstruct import Match, MoveTable
from .records import LastMove, Setup, Sync
from .screens import Pick
from .settings import Settings
from .sizes import printed_names
from .timekeeper import GameClock


class GameState:
    """One game on one board (see the module docstring): ``fen`` (or
    ``"start"``) the position to begin from, the start of ``variant`` (the
    settings' game if None) when None."""

    def __init__(self, settings: Settings, store: GameStore | None, fen: str | None, now: int,
                 menu_items: "list[tuple[str, Callable[[int], list]]] | None" = None, variant: str | None = None):
        self._settings = settings
        self._variant = variants.get(variant).name if variant else first_game(settings)   # the game of new games
        self._store = store if store is not None else GameStore(":memory:")
        self._now = now
        self.frame = BoardFrame(now)
        self.overlay = Overlay()
        self.timekeeper = GameClock(settings.time_control)
        self.current_mode: Mode = PlayMode(self)
        self._result = "*"
        self._reason: str | None = None
        self._game_id: int | None = None
        self.last: LastMove | None = None
        self.failure: str | None = None   # the store failed: what could not be done
        self._pending: list[dict] = []    # events of transitions made before the next update
        self.extra_items: list[MenuItem] = [MenuItem(label, action) for label, action in (menu_items or ())]
        self.web_pin: str | None = None   # the web page's PIN: MENU offers to show it
        # MENU's resignations and draw: (what, side, now) -> events, in place of ending the game
        # (a remote game asks the other player first); None: they end it
        self.agreements: "Callable[[str, int, int], list[dict]] | None" = None
        self._start_cache: tuple[str, int | None] | None = None   # (game, its start's occupancy)
        self.board: tuple[str, str] | None = None   # the physical board (kind, offset) the texts name squares of
        self._position = self.new_position(fen=fen)
        self.matching = Matching(self._position)

    # ================================================================ read
    @property
    def settings(self) -> Settings:
        """The board's settings; replaced as a whole (the web page's new game, Optima's forces)."""
        return self._settings

    @settings.setter
    def settings(self, settings: Settings) -> None:
        self._settings = settings

    @property
    def store(self) -> GameStore:
        """The store of the board's games."""
        return self._store

    @property
    def now(self) -> int:
        """The time of the last input (ms): it never goes back."""
        return self._now

    @property
    def position(self) -> Position:
        """The game's position (in set-up: the last game's, not the one set up)."""
        return self._position

    def printed(self, position: Position) -> tuple[str, ...]:
        """The name printed on the board under each square of ``position``'s
        game, by index (``maxima_board.board.sizes.printed_names``): the
        names every text of the board uses."""
        return printed_names(position, self.board)

    @property
    def current_position(self) -> Position:
        """The game's position, or in set-up the position being set up."""
        setup = self.setup
        return setup.position if setup else self._position

    @property
    def table(self) -> MoveTable:
        """The legal moves of the game's position with their physical signatures."""
        return self.matching.table

    @property
    def current_table(self) -> MoveTable:
        """The move table of ``current_position``."""
        setup = self.setup
        return setup.table if setup else self.matching.table

    @property
    def clock(self) -> Clock | None:
        """The game's clocks; None without a clock."""
        return self.timekeeper.clock

    @property
    def control(self) -> TimeControl | None:
        """The time control of the next new game; None: none."""
        return self.timekeeper.control

    @property
    def mode(self) -> str:
        """``"setup"``, ``"play"``, ``"sync"`` or ``"ended"``: the name of ``current_mode``."""
        return self.current_mode.name

    @property
    def setup(self) -> Setup | None:
        """The set-up's record while the game is being set up, else None."""
        mode = self.current_mode
        return mode.setup if isinstance(mode, SetupMode) else None

    @property
    def sync(self) -> Sync | None:
        """The record of the board being guided back, in mode "sync", else None."""
        mode = self.current_mode
        return mode.sync if isinstance(mode, SyncMode) else None

    @property
    def variant(self) -> str:
        """The game's id: of the game in progress, or of the one being set up."""
        return self.current_position.variant.name

    @property
    def game_id(self) -> int | None:
        """The game's number in the store; None in set-up."""
        return self._game_id

    @property
    def result(self) -> str:
        """``"*"`` while the game goes on, else its result."""
        return self._result

    @property
    def reason(self) -> str | None:
        """Why the game ended; None while it goes on."""
        return self._reason

    def match(self) -> Match:
        """What the board shows, against the moves of the game (in set-up: of the set-up)."""
        return self.matching.match(self.current_table, self.frame.raw, self.frame.lifted)

    def stable(self, now: int) -> bool:
        """Whether the board has stood still the settle time at ``now``."""
        return self.frame.stable(now, self._settings.settle_ms)

    def last_signature(self) -> tuple[int, int, int]:
        """The last move's signature (vacated, filled, replaced) as masks."""
        return self.matching.last_signature(self._position)

    def start_occupancy(self) -> int | None:
        """The squares the start of the next new game occupies, in the
        geometry of the game's position (None: another board's game)."""
        cached = self._start_cache
        if cached is not None and cached[0] == self._variant:
            return cached[1]
        start = Position(variants.get(self._variant).start_fen, self._variant)
        occupancy = start.occupancy() if start.geometry.names == self._position.geometry.names else None
        self._start_cache = (self._variant, occupancy)
        return occupancy

    def offered(self) -> Pick:
        """The move offered among several for the board as it stands."""
        return self.matching.offered(self.frame.raw, self.frame.lifted)

    def offer(self, pick: Pick) -> None:
        """Offer the move ``pick`` names instead."""
        self.matching.offer(pick)

    def cancel_offer(self, key: tuple[int | None, int]) -> None:
        """BACK cancelled the promotion (placement) on the board ``key``: its piece goes back."""
        self.matching.cancel(key)

    def new_error(self, key: tuple) -> bool:
        """Whether the wrong board ``key`` is reported for the first time."""
        return self.matching.new_error(key)

    def calls_flag(self, side: int) -> bool:
        """Whether this board calls ``side``'s flag (a remote game: its own side's only)."""
        return self.timekeeper.calls_flag(side)

    def advance(self, now: int) -> int:
        """Time is ``now`` (an earlier time is taken as the last); the time taken."""
        self._now = max(self._now, now)
        return self._now

    def take_pending(self) -> list[dict]:
        """The events of transitions made outside an update, once."""
        events, self._pending = self._pending, []
        return events

    def next_deadline(self) -> int | None:
        """The next time (ms) at which a tick may change something."""
        now = self._now
        times: list[int] = []
        if self.frame.live:
            since = self.frame.since
            times += [since + self._settings.settle_ms, since + self._settings.grace_ms]
            if self.mode == "play" and self.match().kind in ("suicide", "early"):
                end = since + self._settings.suicide_ms
                times.append(end)
                if end > now:
                    times.append(now + (end - now - 1) % 1000 + 1)
        if self.last is not None and self.last.at is not None:
            times.append(self.last.at + self._settings.last_move_ms)
        times += self.overlay.deadlines(now) + self.timekeeper.deadlines(now)
        later = [t for t in times if t > now]
        return min(later) if later else None

    # ================================================================ settings
    def set_forces(self, forces: str, seed: int | None = None) -> None:
        """Optima's forces and their seed for the games started from now on."""
        self._settings = replace(self._settings, forces=forces, seed=seed)

    def set_time_control(self, text: str) -> None:
        """The time control of the games started from now on (``"none"``: none)."""
        self.timekeeper.set_control(text)

    def new_position(self, variant: str | None = None, fen: str | None = None) -> Position:
        """A position of the game of new games (``variant`` becomes it if
        given): ``fen``, else its start. (A FEN may pick a sibling game: a
        Deckle FEN's row count picks 10x10 or 10x8.)"""
        if variant is not None:
            self._variant = variants.get(variant).name
        if fen is None or fen == "start":
            fen = start_fen(self._variant, self._settings, self._now)   # Optima: by [game] forces and seed
        position = Position(fen, self._variant)
        self._variant = position.variant.name
        return position
