"""The chess clock: time controls and the two clocks of a game.

Pure: no wall clock and no sleeping. Every call gets the time in
milliseconds from the caller (the controller's injected time), and a
:class:`Clock` is an immutable value: each change returns a new one.

Time controls (:func:`parse_time_control`)::

    90+30         90 minutes, 30 s Fischer increment after each move
    60d10         60 minutes, 10 s simple delay (US delay) each move
    40/90,30+30   40 moves in 90 minutes, then 30 minutes + 30 s for the rest
    none          no clock

Stages are ``MOVES/MINUTES[+I|dD]``, any number of them, separated by
commas; the last stage has no move count and lasts for the rest of the game.
Moves are counted per side, from the first move played in this game (not
from the FEN's move number). When a side completes the last move of a stage,
the next stage's minutes are added to its clock.

Increment (Fischer): added to the mover's clock when the move is made (also
for the move that completes a stage). Delay: the *simple* (US) delay: for the
first D seconds of each turn the mover's clock does not run; unused delay is
lost. This is chosen over the Bronstein delay because it never shows a clock
going down that will later be given back, and a flag falls only once the
thinking time beyond the delay has used up the clock: a player with 2 s left
and a 5 s delay really has 7 s for the move.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from typing import Callable

from maxima_board.rules import WHITE, Position
from maxima_board.rules.variant import KING

NONE = "none"
# The presets MENU → "Clock" cycles through on the board before a game.
PRESETS = (NONE, "5+3", "15+10", "90+30", "60d10", "40/90,30+30")

MAX_MINUTES = 600
MAX_SECONDS = 600
MAX_MOVES = 999

_STAGE = re.compile(r"(?:(\d+)/)?(\d+)(?:([+d])(\d+))?")
_FORMS = "expected MINUTES, MINUTES+INCREMENT, MINUTESdDELAY or stages like 40/90,30+30"


class TimeControlError(ValueError):
    """A time control that cannot be read; the message names the text."""


@dataclass(frozen=True)
class Stage:
    """One stage: ``moves`` moves (None: the rest of the game) in ``minutes``,
    with a Fischer ``increment_s`` or a simple ``delay_s`` per move."""

    moves: int | None
    minutes: int
    increment_s: int = 0
    delay_s: int = 0

    def __str__(self) -> str:
        text = f"{self.moves}/{self.minutes}" if self.moves is not None else str(self.minutes)
        if self.increment_s:
            text += f"+{self.increment_s}"
        elif self.delay_s:
            text += f"d{self.delay_s}"
        return text


@dataclass(frozen=True)
class TimeControl:
    """A time control of one or more stages; ``str()`` is its canonical text."""

    stages: tuple[Stage, ...]

    def __str__(self) -> str:
        return ",".join(str(s) for s in self.stages)

    def pgn(self) -> str:
        """The PGN ``TimeControl`` tag value: stages in seconds, ``moves/seconds``
        joined by ``:``, ``+increment``; the delay is written ``dSECONDS``
        (PGN has no field for it)."""
        parts = []
        for s in self.stages:
            text = f"{s.moves}/{s.minutes * 60}" if s.moves is not None else str(s.minutes * 60)
            if s.increment_s:
                text += f"+{s.increment_s}"
            elif s.delay_s:
                text += f"d{s.delay_s}"
            parts.append(text)
        return ":".join(parts)

    @property
    def start_ms(self) -> int:
        return self.stages[0].minutes * 60_000

    def stage(self, moves_made: int) -> Stage:
        """The stage of a side's move number ``moves_made + 1``."""
        done = 0
        for s in self.stages:
            if s.moves is None or moves_made < done + s.moves:
                return s
            done += s.moves
        return self.stages[-1]

    def added_after(self, moves_made: int) -> int:
        """Milliseconds added to a side's clock once it has made ``moves_made``
        moves: the next stage's time when that move completed a stage."""
        done = 0
        for i, s in enumerate(self.stages[:-1]):
            done += s.moves or 0
            if moves_made == done:
                return self.stages[i + 1].minutes * 60_000
        return 0


def parse_time_control(text: str) -> TimeControl | None:
    """``text`` as a TimeControl, or None for ``none`` (also ``""`` and ``-``).
    TimeControlError names the text and what is wrong."""
    body = text.strip() if isinstance(text, str) else text
    if not isinstance(body, str):
        raise TimeControlError(f"time control {text!r}: expected text such as \"90+30\"")
    if body.lower() in (NONE, "", "-"):
        return None
    parts = [p.strip() for p in body.split(",")]
    stages = []
    for i, part in enumerate(parts):
        m = _STAGE.fullmatch(part)
        if m is None:
            raise TimeControlError(f'time control "{body}": cannot read "{part}" ({_FORMS})')
        moves, minutes, kind, seconds = m.groups()
        last = i == len(parts) - 1
        if last and moves is not None:
            raise TimeControlError(f'time control "{body}": the last stage is for the rest of the game '
                                   f'and has no move count (e.g. "{body},30")')
        if not last and moves is None:
            raise TimeControlError(f'time control "{body}": stage "{part}" needs a move count, '
                                   f'MOVES/MINUTES (only the last stage has none)')
        if moves is not None and not 1 <= int(moves) <= MAX_MOVES:
            raise TimeControlError(f'time control "{body}": moves must be 1 to {MAX_MOVES}, got {int(moves)}')
        if not 1 <= int(minutes) <= MAX_MINUTES:
            raise TimeControlError(f'time control "{body}": minutes must be 1 to {MAX_MINUTES}, '
                                   f'got {int(minutes)}')
        extra = int(seconds) if seconds is not None else 0
        if extra > MAX_SECONDS:
            what = "increment" if kind == "+" else "delay"
            raise TimeControlError(f'time control "{body}": {what} must be 0 to {MAX_SECONDS} seconds, '
                                   f'got {extra}')
        stages.append(Stage(int(moves) if moves is not None else None, int(minutes),
                            increment_s=extra if kind == "+" else 0, delay_s=extra if kind == "d" else 0))
    return TimeControl(tuple(stages))


def format_ms(ms: int) -> str:
    """A clock reading: ``M:SS`` under an hour, else ``H:MM:SS``; partial
    seconds count as a whole one, so ``0:00`` means the flag has fallen."""
    s = max(0, math.ceil(ms / 1000))
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02}:{s:02}" if h else f"{m}:{s:02}"


@dataclass(frozen=True)
class Clock:
    """Both clocks of a game under ``control``.

    ``white_ms``/``black_ms``: what each side has left at the start of the
    current turn (the side not to move: what it has left now). ``turn``: the
    side whose clock runs, or would run (engine.WHITE or BLACK). ``used_ms``:
    time that side used this turn before ``since``; ``since``: when the
    clock last started, None while it stands still.
    """

    control: TimeControl
    white_ms: int
    black_ms: int
    turn: int = WHITE
    white_moves: int = 0
    black_moves: int = 0
    used_ms: int = 0
    since: int | None = None

    @classmethod
    def start(cls, control: TimeControl, turn: int = WHITE) -> "Clock":
        """The clocks at the start of a game, standing still."""
        return cls(control, control.start_ms, control.start_ms, turn)

    @classmethod
    def resume(cls, control: TimeControl, white_ms: int, black_ms: int, turn: int, plies: int) -> "Clock":
        """Stored clocks after ``plies`` moves of the game, ``turn`` to move:
        standing still, the side to move's turn begins afresh."""
        first = turn if plies % 2 == 0 else -turn
        firsts, seconds = (plies + 1) // 2, plies // 2
        wm, bm = (firsts, seconds) if first == WHITE else (seconds, firsts)
        return cls(control, white_ms, black_ms, turn, wm, bm)

    # ------------------------------------------------------------ reading
    @property
    def running(self) -> bool:
        return self.since is not None

    def _left(self, side: int) -> int:
        return self.white_ms if side == WHITE else self.black_ms

    def moves_made(self, side: int) -> int:
        return self.white_moves if side == WHITE else self.black_moves

    def _stage(self) -> Stage:
        return self.control.stage(self.moves_made(self.turn))

    def _used(self, now: int) -> int:
        return self.used_ms + (max(0, now - self.since) if self.since is not None else 0)

    def _charged(self, used: int) -> int:
        return max(0, used - self._stage().delay_s * 1000)

    def remaining(self, side: int, now: int) -> int:
        """Milliseconds ``side`` has left at ``now`` (never below 0)."""
        left = self._left(side)
        if side == self.turn:
            left -= self._charged(self._used(now))
        return max(0, left)

    def readings(self, now: int) -> dict[str, int]:
        """``{"white": ms, "black": ms}`` left at ``now``."""
        return {"white": self.remaining(WHITE, now), "black": self.remaining(-WHITE, now)}

    def flag_time(self) -> int | None:
        """When the running clock reaches 0 (None while it stands still)."""
        if self.since is None:
            return None
        return self.since - self.used_ms + self._stage().delay_s * 1000 + self._left(self.turn)

    def flagged(self, at: int) -> bool:
        """The running side has no time left at ``at``."""
        flag = self.flag_time()
        return flag is not None and at >= flag

    def next_change(self, now: int) -> int | None:
        """The next time after ``now`` at which a reading shown in whole
        seconds changes, or the flag falls; None while standing still."""
        if self.since is None:
            return None
        left = self.remaining(self.turn, now)
        if left <= 0:
            return None
        wait = max(0, self._stage().delay_s * 1000 - self._used(now))
        return now + wait + (left - 1) % 1000 + 1

    # ------------------------------------------------------------ changing
    def with_left(self, side: int, ms: int) -> "Clock":
        """The clocks with ``side``'s time left (at the start of its next turn) set to ``ms``."""
        return replace(self, white_ms=ms) if side == WHITE else replace(self, black_ms=ms)

    def run(self, now: int) -> "Clock":
        """The side to move's clock starts (no change if it runs)."""
        return self if self.since is not None else replace(self, since=now)

    def pause(self, now: int) -> "Clock":
        """The clock stops; the turn's time used so far is kept."""
        return self if self.since is None else replace(self, used_ms=self._used(now), since=None)

    def press(self, stop: int, now: int) -> "Clock":
        """The side to move made a move: its clock stopped at ``stop`` (when
        the board showed the move), the move committed at ``now``. The
        mover gets its increment (and the next stage's time after the last
        move of a stage); the other side's turn begins at ``now``."""
        mover = self.turn
        used = self.used_ms + (max(0, stop - self.since) if self.since is not None else 0)
        stage = self._stage()
        made = self.moves_made(mover) + 1
        left = self._left(mover) - self._charged(used) + stage.increment_s * 1000
        left += self.control.added_after(made)
        if mover == WHITE:
            changed = replace(self, white_ms=left, white_moves=made)
        else:
            changed = replace(self, black_ms=left, black_moves=made)
        return replace(changed, turn=-mover, used_ms=0, since=now if self.since is not None else None)


# ---------------------------------------------------------------- flag fall
def _more_than_a_king(position: Position, side: int) -> bool:
    """Any piece besides the King: enough to win (M13: a bare King loses
    and can never win; Ultima and Deckle's games alike)."""
    return any(piece.color == side and piece.code != KING for _, piece in position.pieces())


# Can ``side`` still win in ``position``? By the game family (Variant.family);
# a game not listed uses the bare-King rule.
CAN_WIN: dict[str, Callable[[Position, int], bool]] = {
    "maxima": _more_than_a_king,
    "ultima": _more_than_a_king,
    "deckle": _more_than_a_king,
}


def can_win(position: Position, side: int) -> bool:
    """Whether ``side`` has the material to win at all."""
    return CAN_WIN.get(position.variant.family, _more_than_a_king)(position, side)


def flag_result(position: Position, flagged: int) -> str:
    """The result when ``flagged``'s time runs out: the other side wins,
    unless it cannot win at all (a bare King): then a draw."""
    winner = -flagged
    if not can_win(position, winner):
        return position.variant.draw_result
    return "1-0" if winner == WHITE else "0-1"
