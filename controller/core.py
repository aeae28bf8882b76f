"""The controller core: sensor frames, buttons and time in; moves, an LED
frame and OLED lines out.

Pure and clock-free: every input carries its time in milliseconds, and
``next_deadline`` says when the controller next wants ``on_tick``. Events are
JSON-able dicts:

- ``{"type": "move", "move": <canonical>, "fen": <FEN after>}``: a committed
  move, already stored durably;
- ``{"type": "takeback", "move": <canonical>, "fen": <FEN after>}``: the last
  move was taken back (already stored);
- ``{"type": "game_end", "result": ..., "reason": ...}``;
- ``{"type": "new_game", "game": <number>, "fen": <start FEN>}``: a game
  started (set-up confirmed, or a FEN given);
- ``{"type": "resumed", "game": <number>, "fen": ..., "moves": [...]}``;
- ``{"type": "setup", "fen": ...}``: set-up of a new game began;
- ``{"type": "sync", "fen": ...}``: after a take-back or a resume, the board
  shows the position again and play goes on;
- ``{"type": "reopened", "game": <number>}``: BACK undid a resignation or an
  agreed draw;
- ``{"type": "leds", "leds": {<square>: <state>}}`` and
  ``{"type": "display", "lines": [...]}``: whenever they change;
- ``{"type": "error", "text": ..., "missing": [...], "extra": [...],
  "remove": [...]}``: a wrong board, once its grace time has run out;
  ``{"type": "error", "text": ...}`` alone for a failure to store;
- ``{"type": "link", "ok": bool}``.

With a clock (``Settings.time_control``, see ``controller.clock``), ``move``
and ``takeback`` events carry ``"clocks": {"white": ms, "black": ms}`` (time
left after the move, or as restored), ``new_game`` carries
``"time_control"``, and a flag fall ends the game with reason ``"time"``.

This module keeps the game's state and its transitions; what the LEDs and
the OLED show for a state is composed in ``controller.screens``.
"""
from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field

from engine import START_FEN, WHITE, Move, Position
from hardware.interfaces import BUTTONS

from . import screens
from .clock import PRESETS, Clock, flag_result, parse_time_control
from .reconstruct import Match, MoveTable, bits
from .settings import Settings
from .store import GameStore

NOTE_MS = 4000          # how long a passing note ("Taken back.") stays on the OLED
STORE_NOTE_MS = 30000   # how long a note about the database stays


@dataclass
class LastMove:
    """The last committed move, for the LEDs and the OLED's second line."""

    move: Move
    text: str
    at: int | None   # when it was played; None: not to be lit (taken back to, or resumed)


@dataclass
class Sync:
    """Guiding the board back to the position: after a take-back, or when a
    stored game resumes. ``required``: squares whose piece must be lifted
    before the board counts as right (a replacement capture taken back)."""

    reason: str                         # "takeback" | "resume"
    undone: list[str] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)   # the moves taken back, newest last
    required: int = 0


@dataclass
class Setup:
    """Setting up the pieces of ``position`` before a game."""

    position: Position
    table: MoveTable
    squares: list[int]
    walk: int | None = None
    armed: bool = False     # the board has matched once: a legal first move starts the game
    on_clock: bool = False  # MENU → "Clock" is shown: OK cycles the time control of the game


class Controller:
    """The game controller for one board. See the module docstring for events.

    With ``fen`` None the newest unfinished game in ``store`` resumes (the
    players are guided back if the board differs), else set-up of the start
    position begins. With ``fen`` given (or ``"start"``), a new game from it
    starts at once and the board is taken to be set up.
    """

    def __init__(self, settings: Settings, store: GameStore | None = None, fen: str | None = None,
                 now_ms: int = 0):
        self.settings = settings
        # Extra MENU items from outside the core (the computer opponent): (label(), action(now_ms)
        # -> events), offered after the core's own items while a game is played.
        self.menu_items: list[tuple] = []
        self.store = store if store is not None else GameStore(":memory:")
        self._now = now_ms
        self._raw: int | None = None
        self._raw_since = now_ms
        self._lifted = 0
        self._link_ok = True
        self._link_problem: str | None = None
        self._fresh = False
        self._mode = "setup"
        self._result = "*"
        self._reason: str | None = None
        self._game_id: int | None = None
        self._last: LastMove | None = None
        self._note: tuple[str, int] | None = None
        self._menu: tuple[list[tuple[str, int]], int] | None = None
        self._pick: tuple[tuple[int, int], int] | None = None
        self._sync: Sync | None = None
        self._setup: Setup | None = None
        self._error_key: tuple | None = None
        self._failure: str | None = None
        self._pending: list[dict] = []
        self._control = parse_time_control(settings.time_control)   # for the next new game
        self._clock: Clock | None = None                            # the game's clocks
        self._position = Position(fen) if fen is not None else Position()
        self._refresh()
        if self.store.message:
            self._pending.append({"type": "error", "text": self.store.message})
            self._note = ("Game database was unreadable; moved aside, new one started.", now_ms + STORE_NOTE_MS)
        if fen is not None:
            self._abandon_unfinished()
            self._start_game(self._position, now_ms)
        elif not self._resume(now_ms):
            self._begin_setup(Position(), now_ms)
        self._leds: dict[str, str] = {}
        self._display: list[str] = []
        self._leds, self._display = self._render(now_ms)
        self._shown = False   # the first update reports the LEDs and the OLED even if unchanged

    # ================================================================ API
    @property
    def position(self) -> Position:
        """The game's position (in set-up: the position being set up)."""
        return self._setup.position if self._setup else self._position

    @property
    def moves(self) -> list[str]:
        """The game's moves so far, canonical."""
        return [str(m) for m in self.position.move_stack]

    @property
    def result(self) -> str:
        """``"*"`` while the game goes on, else ``"1-0"``, ``"0-1"`` or ``"1/2"``."""
        return self._result

    @property
    def reason(self) -> str | None:
        """Why the game ended: checkmate, palace invaded, bare king,
        stalemate, resignation, agreement, time; None while it goes on."""
        return self._reason

    @property
    def mode(self) -> str:
        """``"setup"``, ``"play"``, ``"sync"`` (guiding the board back) or ``"ended"``."""
        return self._mode

    @property
    def game_id(self) -> int | None:
        return self._game_id

    @property
    def time_control(self) -> str | None:
        """The game's time control (``"90+30"``…), None without a clock."""
        return str(self._clock.control) if self._clock is not None else None

    @property
    def clocks(self) -> dict[str, int] | None:
        """``{"white": ms, "black": ms}`` left now; None without a clock."""
        return self._clock.readings(self._now) if self._clock is not None else None

    def set_time_control(self, text: str) -> None:
        """The time control of the games started from now on (``"none"``
        for none); TimeControlError (a ValueError) names bad text."""
        self._control = parse_time_control(text)

    @property
    def leds(self) -> dict[str, str]:
        """The LED frame: square name → LED state; squares not named are dark."""
        return dict(self._leds)

    @property
    def display(self) -> list[str]:
        """The OLED lines (at most 5 of at most 21 characters)."""
        return list(self._display)

    @property
    def expected_squares(self) -> frozenset[str]:
        """The squares that should be occupied now."""
        names = self.position.geometry.names
        target = self._setup.table.expected if self._setup else self._table.expected
        return frozenset(names[i] for i in bits(target))

    def on_frame(self, now_ms: int, squares: frozenset[str] | set[str]) -> list[dict]:
        """A debounced sensor frame: the occupied squares, by name."""
        occ = self._mask(squares)
        events = self._update(now_ms) if self._raw is not None else []
        if not self._link_ok:
            return events
        if self._fresh or occ != self._raw:
            self._raw = occ
            self._raw_since = self._now
            self._fresh = False
            self._failure = None
            self._track_lifts()
        return events + self._update(now_ms)

    def on_button(self, now_ms: int, button: str) -> list[dict]:
        """A button press: one of ``ok``, ``back``, ``menu``, ``new``."""
        if button not in BUTTONS:
            raise ValueError(f"unknown button {button!r} (expected one of {', '.join(BUTTONS)})")
        events = self._update(now_ms)
        self._failure = None
        events += self._press(button, self._now)
        return events + self._update(now_ms)

    def on_tick(self, now_ms: int) -> list[dict]:
        """Time has passed: commit what has settled, expire what was shown."""
        return self._update(now_ms)

    def set_link(self, ok: bool, now_ms: int, problem: str | None = None) -> list[dict]:
        """The board link was lost (frames are ignored, the OLED says so,
        naming ``problem`` if given, e.g. "No board at /dev/…") or is back
        (nothing acts until a fresh frame has been seen and has settled)."""
        events = self._update(now_ms)
        self._link_problem = None if ok else problem
        if ok != self._link_ok:
            self._link_ok = ok
            self._fresh = ok
            events.append({"type": "link", "ok": ok})
        return events + self._update(now_ms)

    def new_game(self, now_ms: int, fen: str | None = None, setup: bool = True) -> list[dict]:
        """Abandon the game in progress and begin a new one from ``fen``
        (the start position if None): with ``setup`` the players are guided
        to set it up and confirm; without, the board is taken to be set up."""
        position = Position(fen) if fen is not None else Position()
        events = self._update(now_ms)
        self._abandon_unfinished()
        if setup:
            self._begin_setup(position, self._now)
        else:
            self._setup = None
            self._raw = None   # the old board must not play the new game's first move: wait for a frame
            events += self._start_game(position, self._now)
        return events + self._update(now_ms)

    def next_deadline(self) -> int | None:
        """The next time (ms) at which ``on_tick`` may change something."""
        now = self._now
        times: list[int] = []
        if self._live():
            since = self._raw_since
            times += [since + self.settings.settle_ms, since + self.settings.grace_ms]
            if self._mode == "play" and self._match().kind == "suicide":
                end = since + self.settings.suicide_ms
                times.append(end)
                if end > now:
                    times.append(now + (end - now - 1) % 1000 + 1)
        if self._last is not None and self._last.at is not None:
            times.append(self._last.at + self.settings.last_move_ms)
        if self._note is not None:
            times.append(self._note[1])
        if self._clock is not None:
            times += [t for t in (self._clock.next_change(now), self._clock.flag_time()) if t is not None]
        later = [t for t in times if t > now]
        return min(later) if later else None

    # ================================================================ state
    def _mask(self, squares) -> int:
        index = self._position.geometry.index
        occ = 0
        for name in squares:
            sq = index.get(name) if isinstance(name, str) else None
            if sq is None:
                raise ValueError(f"unknown square {name!r} in sensor frame")
            occ |= 1 << sq
        return occ

    def _facts_for(self, position: Position) -> None:
        """Check and immobilization squares of the position, computed once."""
        self._check_squares: list[int] = []
        if position.is_check():
            info = position.check_info()
            self._check_squares = ([info.king] if info.king is not None else []) + list(info.palace)
        frozen = position.immobilized()
        self._frozen = {WHITE: [s for s in frozen if position.board[s] > 0],
                        -WHITE: [s for s in frozen if position.board[s] < 0]}

    def _refresh(self) -> None:
        self._table = MoveTable(self._position)
        self._facts_for(self._position)
        self._pick = None
        self._error_key = None

    def _expected(self) -> int:
        return self._setup.table.expected if self._setup else self._table.expected

    def _track_lifts(self) -> None:
        raw = self._raw
        assert raw is not None
        expected = self._expected()
        if self._mode in ("play", "setup") and raw == expected:
            self._lifted = 0
        else:
            self._lifted |= expected & ~raw

    def _match(self) -> Match:
        table = self._setup.table if self._setup else self._table
        return table.match(self._raw or 0, self._lifted)

    def _live(self) -> bool:
        """The board's frame can be acted on: the link is up and, after it
        came back, a fresh frame has been seen (the last frame from before an
        outage is never taken as settled)."""
        return self._link_ok and not self._fresh and self._raw is not None

    def _stable(self, now: int) -> bool:
        return now - self._raw_since >= self.settings.settle_ms

    # ================================================================ update
    def _update(self, now: int) -> list[dict]:
        self._now = max(self._now, now)
        now = self._now
        events, self._pending = self._pending, []
        if self._live():
            for _ in range(4):   # a step may change mode; the next may act on the same frame
                mode = self._mode
                step = self._step(now)
                events += step
                if self._mode == mode and not step:
                    break
        if self._clock is not None:   # the side to move's clock runs while play goes on with a board
            running = self._mode == "play" and self._link_ok and self._raw is not None
            self._clock = self._clock.run(now) if running else self._clock.pause(now)
        if self._note is not None and self._note[1] <= now:
            self._note = None
        leds, display = self._render(now)
        if not self._shown:
            self._shown = True
            self._leds, self._display = {"": ""}, [""]
        if leds != self._leds:
            self._leds = leds
            events.append({"type": "leds", "leds": dict(leds)})
        if display != self._display:
            self._display = display
            events.append({"type": "display", "lines": list(display)})
        return events

    def _step(self, now: int) -> list[dict]:
        if self._failure is not None:   # the store failed: retry on the next frame or button
            return []
        if self._mode == "play":
            return self._step_play(now)
        if self._mode == "sync":
            return self._step_sync(now)
        if self._mode == "setup":
            return self._step_setup(now)
        return []

    def _step_play(self, now: int) -> list[dict]:
        outcome = self._position.outcome()
        if outcome is not None:      # recording the end failed before; try again
            return self._end(outcome.result, outcome.reason, now)
        m = self._match()
        clock = self._clock
        if clock is not None and clock.flagged(now):
            # A move the board showed before the flag fell still counts once it settles.
            if m.kind not in ("move", "suicide") or clock.flagged(self._raw_since):
                return self._end(flag_result(self._position, self._position.turn), "time", now)
        if m.kind == "move" and self._stable(now):
            return self._commit(m.entries[0].move, now, stop=self._raw_since)
        if m.kind == "suicide" and now - self._raw_since >= self.settings.suicide_ms:
            return self._commit(m.entries[0].move, now, stop=self._raw_since)
        if m.kind in ("remove", "lifted", "wrong") and self._stable(now) and self._restored():
            return self._take_back(now, by_restore=True)
        if m.kind == "wrong" and now - self._raw_since >= self.settings.grace_ms:
            key = (self._raw, self._lifted)
            if key != self._error_key:
                self._error_key = key
                names = self._position.geometry.names
                return [{"type": "error", "text": screens.wrong_text(self._position, m),
                         "missing": [names[s] for s in bits(m.missing)],
                         "extra": [names[s] for s in bits(m.extra)],
                         "remove": [names[s] for s in bits(m.remove)]}]
        return []

    def _restored(self) -> bool:
        """The board shows the position before the last move."""
        if not self.settings.takeback_by_restore or not self._position.move_stack:
            return False
        move = self._position.move_stack[-1]
        before = self._table.expected
        if move.to_square is not None:
            before &= ~(1 << move.to_square)
        before |= 1 << move.from_square
        for c in move.captures:
            before |= 1 << c
        if self._raw != before:
            return False
        return move.kind != "replacement" or bool(self._lifted >> move.to_square & 1)

    def _step_sync(self, now: int) -> list[dict]:
        sync = self._sync
        assert sync is not None
        # A square to be lifted that a later take-back left empty needs no lift.
        if self._raw == self._table.expected and sync.required & self._table.expected & ~self._lifted == 0:
            self._mode = "play"
            self._sync = None
            self._lifted = 0
            self._note = ("Taken back." if sync.reason == "takeback" else "Board in sync.", now + NOTE_MS)
            return [{"type": "sync", "fen": self._position.fen()}]
        return []

    def _step_setup(self, now: int) -> list[dict]:
        setup = self._setup
        assert setup is not None
        if self._raw == setup.table.expected:
            if self._stable(now):
                setup.armed = True
            return []
        if setup.armed and self._match().kind in ("move", "suicide", "ambiguous", "remove"):
            return self._start_game(setup.position, now)
        return []

    # ================================================================ transitions
    def _commit(self, move: Move, now: int, stop: int | None = None) -> list[dict]:
        """Store the move, then play it: nothing is shown before it is on disk.
        ``stop``: when the mover's clock stopped (the board came to show the
        move); ``now`` (a button confirmed it) if None."""
        position = self._position
        clock = self._clock
        if clock is not None:
            if clock.flagged(now if stop is None else stop):
                return self._end(flag_result(position, position.turn), "time", now)
            clock = clock.press(now if stop is None else stop, now)
        text = screens.move_words(position, move)
        index = len(position.move_stack)
        position.push(move)
        fen = position.fen()
        try:
            self.store.append_move(self._game_id, index, str(move), fen, **self._clock_row(clock, now))
        except (sqlite3.Error, OSError) as exc:
            position.pop()
            return self._store_failed("save the move", exc)
        self._clock = clock
        self._failure = None
        self._note = None
        self._last = LastMove(move, text, now)
        self._lifted = 0
        self._menu = None
        self._refresh()
        events: list[dict] = [{"type": "move", "move": str(move), "fen": fen}]
        if clock is not None:
            events[0]["clocks"] = clock.readings(now)
        outcome = position.outcome()
        if outcome is not None:
            events += self._end(outcome.result, outcome.reason, now)
        return events

    def _store_failed(self, what: str, exc: BaseException) -> list[dict]:
        self._failure = f"Cannot {what}: {exc}"
        return [{"type": "error", "text": self._failure}]

    def _end(self, result: str, reason: str, now: int) -> list[dict]:
        try:
            self.store.finish(self._game_id, result, reason)
        except (sqlite3.Error, OSError) as exc:
            return self._store_failed("record the result", exc)
        self._result, self._reason = result, reason
        self._mode = "ended"
        self._sync = None
        self._menu = None
        return [{"type": "game_end", "result": result, "reason": reason}]

    def _take_back(self, now: int, by_restore: bool = False) -> list[dict]:
        position = self._position
        if not position.move_stack:
            self._note = ("Nothing to take back.", now + NOTE_MS)
            return []
        move = position.move_stack[-1]
        index = len(position.move_stack) - 1
        try:
            if self._mode == "ended":
                self.store.reopen(self._game_id)
            self.store.take_back(self._game_id, index)
        except (sqlite3.Error, OSError) as exc:
            return self._store_failed("take the move back", exc)
        position.pop()
        words = screens.move_words(position, move)
        short = f"{position.piece_letter(move).upper()}{move}"
        self._refresh()
        self._result, self._reason = "*", None
        self._last_from_history()
        self._menu = None
        events: list[dict] = [{"type": "takeback", "move": str(move), "fen": position.fen()}]
        if self._clock is not None:   # the clocks as they stood before the move taken back
            self._clock = self._stored_clock(self._game_id, position)
            if self._clock is not None:
                events[0]["clocks"] = self._clock.readings(now)
        if by_restore:
            self._mode = "play"
            self._sync = None
            self._lifted = 0
            self._note = (f"Taken back: {words}.", now + NOTE_MS)
            return events
        if self._sync is None or self._sync.reason != "takeback":
            self._sync = Sync("takeback")
            self._lifted = 0
        self._mode = "sync"
        self._sync.undone.insert(0, short)
        self._sync.moves.append(move)
        if move.kind == "replacement":
            self._sync.required |= 1 << move.to_square
            self._lifted &= ~(1 << move.to_square)
        if self._raw is not None:
            self._lifted |= self._table.expected & ~self._raw
        return events

    def _reopen(self, now: int) -> list[dict]:
        """Undo a resignation or an agreed draw: play goes on."""
        try:
            self.store.reopen(self._game_id)
        except (sqlite3.Error, OSError) as exc:
            return self._store_failed("reopen the game", exc)
        self._result, self._reason = "*", None
        self._mode = "play"
        self._note = ("Game goes on.", now + NOTE_MS)
        return [{"type": "reopened", "game": self._game_id}]

    def _last_from_history(self) -> None:
        """The last move of the game for the OLED, not lit."""
        self._last = None
        if self._position.move_stack:
            copy = self._position.copy()
            move = copy.pop()
            self._last = LastMove(move, screens.move_words(copy, move), None)

    def _resume(self, now: int) -> bool:
        row = self.store.unfinished()
        if row is None:
            return False
        moves = self.store.moves(row.id)
        try:
            position = Position(row.start_fen)
            for text in moves:
                position.push(text)
        except ValueError as exc:
            self.store.finish(row.id, "*", f"could not be resumed: {exc}")
            self._pending.append({"type": "error", "text": f"game {row.id} could not be resumed: {exc}"})
            return False
        self._position = position
        self._game_id = row.id
        self._clock = self._stored_clock(row.id, position)
        self._refresh()
        self._last_from_history()
        self._pending.append({"type": "resumed", "game": row.id, "fen": position.fen(), "moves": moves})
        outcome = position.outcome()
        if outcome is not None:
            self._pending += self._end(outcome.result, outcome.reason, now)
            return True
        self._mode = "sync"
        self._sync = Sync("resume")
        return True

    def _clock_row(self, clock: Clock | None, now: int) -> dict:
        """The store's ``clock`` argument for ``clock``: control, White's and
        Black's ms (no argument without a clock)."""
        if clock is None:
            return {}
        left = clock.readings(now)
        return {"clock": (str(clock.control), left["white"], left["black"])}

    def _stored_clock(self, game_id: int, position: Position) -> Clock | None:
        """The game's clocks as stored with its last move, standing still.
        Time between that move and now (a restart) is not charged."""
        row = self.store.clock(game_id)
        if row is None:
            return None
        try:
            control = parse_time_control(row.control)
        except ValueError as exc:
            self._pending.append({"type": "error", "text": f"game {game_id}: clock not resumed: {exc}"})
            return None
        if control is None:
            return None
        return Clock.resume(control, row.white_ms, row.black_ms, position.turn, len(position.move_stack))

    def _abandon_unfinished(self) -> None:
        if self._game_id is not None and self._mode in ("play", "sync"):
            self.store.finish(self._game_id, "*", "abandoned")
        row = self.store.unfinished()
        if row is not None:
            self.store.finish(row.id, "*", "abandoned")

    def _begin_setup(self, position: Position, now: int) -> None:
        squares = [sq for sq, _ in position.pieces()]
        self._setup = Setup(position, MoveTable(position), squares)
        self._mode = "setup"
        self._game_id = None
        self._clock = None
        self._result, self._reason = "*", None
        self._sync = None
        self._menu = None
        self._last = None
        self._lifted = 0
        self._pending.append({"type": "setup", "fen": position.fen()})

    def _start_game(self, position: Position, now: int) -> list[dict]:
        s = self.settings
        clock = Clock.start(self._control, position.turn) if self._control is not None else None
        try:
            game_id = self.store.new_game(position.fen(), event=s.event, site=s.site, round=s.round,
                                          white=s.white, black=s.black, **self._clock_row(clock, now))
        except (sqlite3.Error, OSError) as exc:
            return self._store_failed("store the new game", exc)
        self._clock = clock
        self._failure = None
        from_setup = self._setup is not None and self._setup.position is position
        self._game_id = game_id
        self._position = position
        self._setup = None
        self._sync = None
        self._mode = "play"
        self._result, self._reason = "*", None
        self._last = None
        self._menu = None
        self._refresh()
        if not from_setup:
            self._lifted = 0
        if self._raw is not None:
            self._lifted |= self._table.expected & ~self._raw
        event: dict = {"type": "new_game", "game": game_id, "fen": position.fen()}
        if clock is not None:
            event["time_control"] = str(clock.control)
        if self._raw is None:
            self._pending.append(event)
            return []
        return [event]

    # ================================================================ buttons
    def _press(self, button: str, now: int) -> list[dict]:
        if self._menu is not None:
            return self._press_menu(button, now)
        if self._mode == "setup":
            return self._press_setup(button, now)
        if self._mode == "ended":
            if button in ("ok", "new"):
                return self._next_game(now)
            if button == "back":
                return self._reopen(now) if self._reason in ("resignation", "agreement") else self._take_back(now)
            return []
        m = self._match() if self._mode == "play" and self._raw is not None else Match("idle")
        if m.kind == "ambiguous" and self._stable(now) and button in ("ok", "back"):
            key, index = self._pick_state()
            if button == "ok":
                return self._commit(m.entries[index].move, now)
            self._pick = (key, (index + 1) % len(m.entries))
            return []
        if m.kind == "suicide" and button == "ok":
            return self._commit(m.entries[0].move, now)
        if button == "back":
            return self._take_back(now)
        if button == "menu":
            side = self._position.turn
            self._menu = ([("resign", side), ("resign", -side), ("draw", 0), ("new", 0)]
                          + [("extra", i) for i in range(len(self.menu_items))], 0)
        elif button == "new":
            self._menu = ([("new", 0)], 0)
        return []

    def _press_menu(self, button: str, now: int) -> list[dict]:
        assert self._menu is not None
        items, index = self._menu
        if button == "back":
            self._menu = None
        elif button == "menu" or (button == "new" and items[index][0] != "new"):
            self._menu = (items, index + 1) if index + 1 < len(items) else None
        else:   # ok, or new on "New game?"
            self._menu = None
            action, side = items[index]
            if action == "resign":
                return self._end("0-1" if side == WHITE else "1-0", "resignation", now)
            if action == "draw":
                return self._end("1/2", "agreement", now)
            if action == "extra":
                return list(self.menu_items[side][1](now) or [])
            return self._next_game(now)
        return []

    def _press_setup(self, button: str, now: int) -> list[dict]:
        setup = self._setup
        assert setup is not None
        if setup.on_clock and button != "new":   # MENU → "Clock": OK = next preset
            setup.on_clock = False
            if button == "ok":
                current = str(self._control) if self._control is not None else PRESETS[0]
                index = PRESETS.index(current) if current in PRESETS else -1
                self._control = parse_time_control(PRESETS[(index + 1) % len(PRESETS)])
                setup.on_clock = True
            elif button == "menu":
                setup.walk = 0
            return []
        setup.on_clock = False
        ready = self._raw == setup.table.expected
        if button in ("ok", "new") and ready:
            return self._start_game(setup.position, now)
        if button == "ok":
            setup.walk = None
        elif button == "new":
            if setup.position.fen() != START_FEN:
                self._begin_setup(Position(), now)
        elif button == "menu":
            if setup.walk is None:
                setup.on_clock = True
            else:
                setup.walk = (setup.walk + 1) % len(setup.squares)
        elif button == "back" and setup.walk is not None:
            setup.walk = (setup.walk - 1) % len(setup.squares)
        return []

    def _next_game(self, now: int) -> list[dict]:
        """NEW confirmed (or OK after a game): abandon the game, set up the
        start position, and start at once if it already stands."""
        self._abandon_unfinished()
        self._begin_setup(Position(), now)
        if self._raw is not None and self._raw == self._setup.table.expected:
            return self._start_game(self._setup.position, now)
        return []

    def _pick_state(self) -> screens.Pick:
        self._pick = screens.offered(self._pick, self._raw, self._lifted)
        return self._pick

    # ================================================================ render
    def _render(self, now: int) -> tuple[dict[str, str], list[str]]:
        screen = screens.render(self._view(now))
        if screen.pick is not None:
            self._pick = screen.pick
        return screen.leds, screen.lines

    def _menu_view(self) -> tuple[str, int] | None:
        if self._menu is None:
            return None
        action, side = self._menu[0][self._menu[1]]
        return (self.menu_items[side][0](), 0) if action == "extra" else (action, side)

    def _view(self, now: int) -> screens.View:
        """What the screens need to know, now."""
        play = self._mode == "play" and self._raw is not None
        return screens.View(
            now=now, settings=self.settings, mode=self._mode, link_ok=self._link_ok,
            link_problem=self._link_problem,
            position=self._position, table=self._table, check=self._check_squares, frozen=self._frozen,
            raw=self._raw, raw_since=self._raw_since, lifted=self._lifted,
            match=self._match() if play else None, pick=self._pick,
            last=self._last, game_id=self._game_id, result=self._result, reason=self._reason,
            note=self._note[0] if self._note is not None else None,
            menu=self._menu_view(),
            failure=self._failure, sync=self._sync, setup=self._setup,
            clocks=self._clock.readings(now) if self._clock is not None else None,
            control=str(self._control) if self._control is not None else "none")
