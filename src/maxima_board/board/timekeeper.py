"""The game's clocks as the session keeps them: the time control of the
next new game, the clocks of the game in progress, and their rows in the
store (``maxima_board.board.clock`` counts the time)."""
from __future__ import annotations

from maxima_board.rules import WHITE, Position
from maxima_board.storage.store import GameStore

from .clock import Clock, TimeControl, parse_time_control


class GameClock:
    """``control``: the time control of the games started from now on
    (None: none); ``clock``: the clocks of the game in progress (None
    without a clock)."""

    def __init__(self, control: str):
        self.control: TimeControl | None = parse_time_control(control)
        self.clock: Clock | None = None
        self.judged: frozenset[int] | None = None     # the sides whose flag this board calls (None: both)
        self._carried: dict[tuple[int, str], int] = {}   # (ply, move) -> the mover's ms after it

    def calls_flag(self, side: int) -> bool:
        """Whether this board calls ``side``'s flag (in a remote game, only
        its own side's: the other board calls the other)."""
        return self.judged is None or side in self.judged

    def carry(self, ply: int, move: str, ms: int) -> None:
        """When move number ``ply`` (0: the first) commits as ``move``, its
        mover's clock reads ``ms`` (the remote board's reading), not this board's."""
        if len(self._carried) > 64:
            self._carried.clear()
        self._carried[(ply, move)] = max(0, int(ms))

    def carried(self, clock: Clock, ply: int, move: str) -> Clock:
        """``clock`` just pressed after move ``ply``: with the mover's
        carried reading, if one was given for that move."""
        ms = self._carried.pop((ply, move), None)
        return clock if ms is None else clock.with_left(-clock.turn, ms)

    def set_control(self, text: str) -> None:
        """The time control of the games started from now on (``"none"``
        for none); TimeControlError (a ValueError) names bad text."""
        self.control = parse_time_control(text)

    @property
    def time_control(self) -> str | None:
        """The game's time control (``"90+30"``…), None without a clock."""
        return str(self.clock.control) if self.clock is not None else None

    @property
    def next_control(self) -> str:
        """The time control of the next new game as the screens name it."""
        return str(self.control) if self.control is not None else "none"

    def readings(self, now: int) -> dict[str, int] | None:
        """``{"white": ms, "black": ms}`` left at ``now``; None without a clock."""
        return self.clock.readings(now) if self.clock is not None else None

    @property
    def running_side(self) -> str | None:
        """``"white"`` or ``"black"``: whose clock runs now; None when none does."""
        if self.clock is None or not self.clock.running:
            return None
        return "white" if self.clock.turn == WHITE else "black"

    def new_clock(self, turn: int) -> Clock | None:
        """The clocks of a new game whose side ``turn`` moves first, not yet running."""
        return Clock.start(self.control, turn) if self.control is not None else None

    @staticmethod
    def row(clock: Clock | None, now: int) -> dict:
        """The store's ``clock`` argument for ``clock``: control, White's and
        Black's ms (no argument without a clock)."""
        if clock is None:
            return {}
        left = clock.readings(now)
        return {"clock": (str(clock.control), left["white"], left["black"])}

    @staticmethod
    def stored(store: GameStore, game_id: int, position: Position) -> tuple[Clock | None, str | None]:
        """The game's clocks as stored with its last move, standing still,
        and what was wrong with them if they could not be read. Time
        between that move and now (a restart) is not charged."""
        row = store.clock(game_id)
        if row is None:
            return None, None
        try:
            control = parse_time_control(row.control)
        except ValueError as exc:
            return None, f"game {game_id}: clock not resumed: {exc}"
        if control is None:
            return None, None
        return Clock.resume(control, row.white_ms, row.black_ms, position.turn, len(position.move_stack)), None

    def tick(self, now: int, runs: bool) -> None:
        """The side to move's clock runs (``runs``) or stands at ``now``."""
        if self.clock is not None:
            self.clock = self.clock.run(now) if runs else self.clock.pause(now)

    def deadlines(self, now: int) -> list[int]:
        """When the clocks' display next changes and when a flag falls."""
        if self.clock is None:
            return []
        return [t for t in (self.clock.next_change(now), self.clock.flag_time()) if t is not None]
