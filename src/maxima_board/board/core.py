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
- ``{"type": "new_game", "game": <number>, "fen": <start FEN>, "variant": <game id>}``:
  a game started (set-up confirmed, or a FEN given);
- ``{"type": "resumed", "game": <number>, "fen": ..., "moves": [...], "variant": ...}``;
- ``{"type": "setup", "fen": ..., "variant": ...}``: set-up of a new game began;
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

With a clock (``Settings.time_control``, see ``maxima_board.board.clock``), ``move``
and ``takeback`` events carry ``"clocks": {"white": ms, "black": ms}`` (time
left after the move, or as restored), ``new_game`` carries
``"time_control"``, and a flag fall ends the game with reason ``"time"``.

This module keeps the game's state and its transitions; what each mode does
with frames and buttons is in ``maxima_board.board.modes`` (one class per mode);
what the LEDs and the OLED show is composed in ``maxima_board.board.screens``.
"""
from __future__ import annotations

import sqlite3
from dataclasses import dataclass, replace
from typing import Callable

from maxima_board.rules import WHITE, Move, Position, variants
from maxima_board.devices.interfaces import BUTTONS

from . import screens
from .clock import Clock, flag_result, parse_time_control
from .chooser import Chooser
from .closing import close_if_expired, close_on_touch, ignored
from .composer import Composer, Offer, Source
from .games import first_game, other_form, start_fen
from .guidance import side_name
from .modes import EndedMode, Menu, MenuItem, Mode, PlayMode, Setup, SetupMode, Sync, SyncMode
from maxima_board.board.modes.choice import open_chooser
from maxima_board.board.modes.placement import play_mode
from .reconstruct import Match, MoveTable, bits
from .settings import Settings
from maxima_board.storage.store import GameStore

NOTE_MS = 4000          # how long a passing note ("Taken back.") stays on the OLED
STORE_NOTE_MS = 30000   # how long a note about the database stays
REFUSED_LOST = "Buttons wait until the board link is back."
REFUSED_RETURNING = "Wait for the board to settle, then press again."


@dataclass
class LastMove:
    """The last committed move, for the LEDs and the OLED's second line."""

    move: Move
    text: str
    at: int | None   # when it was played; None: not to be lit (taken back to, or resumed)
    parts: tuple[tuple[int, int], ...] = ()   # a castling: (origin, destination) of King and Rook


class Controller:
    """The game controller for one board. See the module docstring for events.

    With ``fen`` None the newest unfinished game in ``store`` resumes (the
    players are guided back if the board differs), else set-up of the start
    position begins. With ``fen`` given (or ``"start"``), a new game from it
    starts at once and the board is taken to be set up.
    """

    NOTE_MS = NOTE_MS

    def __init__(self, settings: Settings, store: GameStore | None = None, fen: str | None = None,
                 now_ms: int = 0, menu_items: "list[tuple[str, Callable[[int], list]]] | None" = None,
                 variant: str | None = None):
        self.settings = settings
        self._variant = variants.get(variant).name if variant else first_game(settings)   # the game of new games
        self.store = store if store is not None else GameStore(":memory:")
        self._now = now_ms
        self._raw: int | None = None
        self._raw_since = now_ms
        self._lifted = 0
        self._outside: frozenset[str] = frozenset()   # board squares outside the game that hold a piece
        self._link_ok = True
        self._link_problem: str | None = None
        self._fresh = False
        self._returning = False   # the link came back: presses wait until a fresh frame has settled
        self._refused: tuple[str, int] | None = None   # why a press was refused, and until when it is shown
        self._undo_lifts = 0      # squares the last move replaced, lifted since (take-back by restore)
        self._start_cache: tuple[str, int | None] | None = None   # (game, its start's occupancy): _start_occupancy
        self._mode: Mode = PlayMode(self)
        self._result = "*"
        self._reason: str | None = None
        self._game_id: int | None = None
        self._last: LastMove | None = None
        self._note: tuple[str, int] | None = None
        self._menu: Menu | Chooser | None = None
        self._quiet_until: int | None = None   # presses wait: a page just closed by itself (closing.py)
        self._extra_items: list[MenuItem] = [MenuItem(label, action) for label, action in (menu_items or ())]
        self._pick: tuple[tuple[int, int], int] | None = None
        self._cancelled: tuple[int | None, int] | None = None   # (board, lifts) whose promotion BACK cancelled
        self._error_key: tuple | None = None
        self._failure: str | None = None
        self._pending: list[dict] = []
        self._control = parse_time_control(settings.time_control)   # for the next new game
        self._clock: Clock | None = None                            # the game's clocks
        self.web_pin: str | None = None   # the web page's PIN: MENU offers to show it
        self._position = self._new_position(fen)
        self._refresh()
        if self.store.message:
            self._pending.append({"type": "error", "text": self.store.message})
            self._note = ("Game database was damaged; moved aside, new one started.", now_ms + STORE_NOTE_MS)
        if fen is not None:
            self._abandon_unfinished()
            self._start_game(self._position, now_ms)
        elif not self._resume(now_ms):
            self._begin_setup(self._new_position(), now_ms)
        self._leds: dict[str, str] = {}
        self._display: list[str] = []
        self._oled = Composer()   # the OLED: this screen, and what the layers around offer
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
        return self._mode.name

    def add_menu_item(self, label: "str | Callable[[], str]", action: Callable[[int], list]) -> None:
        """Add a question to the MENU of a game in progress (after the
        standard ones): ``label`` is shown ("Play the computer?"; a callable
        gives the words of the moment), OK calls ``action(now_ms)``, which
        returns events."""
        self._extra_items.append(MenuItem(label, action))

    @property
    def variant(self) -> str:
        """The game's id (``maxima_board.rules.variants``): of the game in progress, or
        of the one being set up."""
        return self.position.variant.name

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

    @property
    def clock_running(self) -> str | None:
        """``"white"`` or ``"black"``: whose clock runs now; None when none does."""
        if self._clock is None or not self._clock.running:
            return None
        return "white" if self._clock.turn == WHITE else "black"

    def set_forces(self, forces: str, seed: int | None = None) -> None:
        """Optima's forces (eq, u1, u2, random) and the seed that draws
        them, for the games started from now on (``[game] forces``, ``seed``)."""
        self.settings = replace(self.settings, forces=forces, seed=seed)

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
        """The OLED lines (at most 5 of at most 21 characters), as composed
        of this screen and the layers' offers (``add_offer``)."""
        return self._oled.lines

    def add_offer(self, source: Source) -> None:
        """A layer around the controller offers lines for the OLED:
        ``source()`` gives its :class:`maxima_board.board.composer.Offer` of
        the moment (or None), and the composer decides what is shown."""
        self._oled.add(source)

    @property
    def link_ok(self) -> bool:
        """Whether the board link is up."""
        return self._link_ok

    @property
    def outside(self) -> frozenset[str]:
        """Squares of the last frame outside the game that hold a piece; the
        OLED asks to clear them and OK does nothing until they are clear."""
        return self._outside

    @property
    def expected_squares(self) -> frozenset[str]:
        """The squares that should be occupied now."""
        names = self.position.geometry.names
        target = self._setup.table.expected if self._setup else self._table.expected
        return frozenset(names[i] for i in bits(target))

    def on_frame(self, now_ms: int, squares: frozenset[str] | set[str],
                 outside: frozenset[str] | set[str] = frozenset()) -> list[dict]:
        """A debounced sensor frame: the occupied squares of the game, by
        the game's names; ``outside``: squares of the board that are not
        part of the game and hold a piece, by the board's names (lit as
        errors, named on the OLED; nothing commits while any holds one)."""
        occ = self._mask(squares)
        events = self._update(now_ms) if self._raw is not None else []
        if not self._link_ok:
            return events
        outside = frozenset(outside)
        if self._raw is not None and not self._fresh and (occ != self._raw or outside != self._outside):
            close_on_touch(self)   # a piece lifted or placed: back to the game from the chooser or menu
        if outside != self._outside:
            self._outside = outside
            self._raw_since = self._now   # the board settles again once they are cleared
        if self._fresh or occ != self._raw:
            self._cancelled = None
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
            self._returning = ok
            events.append({"type": "link", "ok": ok})
        return events + self._update(now_ms)

    def new_game(self, now_ms: int, fen: str | None = None, setup: bool = True,
                 variant: str | None = None) -> list[dict]:
        """Abandon the game in progress and begin a new one from ``fen``
        (the start position if None) of ``variant`` (the game of the last
        new game if None): with ``setup`` the players are guided to set it
        up and confirm; without, the board is taken to be set up."""
        if variant is not None:
            self._variant = variants.get(variant).name
        position = self._new_position(fen)
        events = self._update(now_ms)
        self._abandon_unfinished()
        if setup:
            self._begin_setup(position, self._now)
        else:
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
            if self._mode.name == "play" and self._match().kind in ("suicide", "early"):
                end = since + self.settings.suicide_ms
                times.append(end)
                if end > now:
                    times.append(now + (end - now - 1) % 1000 + 1)
        if self._last is not None and self._last.at is not None:
            times.append(self._last.at + self.settings.last_move_ms)
        if self._note is not None:
            times.append(self._note[1])
        if self._refused is not None:
            times.append(self._refused[1])
        if self._menu is not None:   # its countdown, then it closes
            times.append(self._menu.next_change(now))
        if self._clock is not None:
            times += [t for t in (self._clock.next_change(now), self._clock.flag_time()) if t is not None]
        later = [t for t in times if t > now]
        return min(later) if later else None

    # ================================================================ state
    @property
    def _setup(self) -> Setup | None:
        return self._mode.setup if isinstance(self._mode, SetupMode) else None

    @property
    def _sync(self) -> Sync | None:
        return self._mode.sync if isinstance(self._mode, SyncMode) else None

    def _set_mode(self, mode: Mode) -> None:
        self._mode = mode

    def _play_mode(self) -> PlayMode:
        return play_mode(self)   # Optima's placement phase has its own (modes/placement.py)

    def _new_position(self, fen: str | None = None) -> Position:
        """A position of the game of new games: ``fen``, else its start.
        (A FEN may pick a sibling game: a Deckle FEN's row count picks
        10x10 or 10x8.)"""
        if fen is None or fen == "start":
            fen = start_fen(self._variant, self.settings, self._now)   # Optima: by [game] forces and seed
        position = Position(fen, self._variant)
        self._variant = position.variant.name
        return position

    def choose_game(self, variant: str, now_ms: int) -> list[dict]:
        """Set-up of a new game of ``variant`` (MENU → Game on the board)."""
        events = self._update(now_ms)
        self._variant = variants.get(variant).name
        self._begin_setup(self._new_position(), self._now)
        return events + self._update(now_ms)

    def _regrid(self, position: Position) -> None:
        """The board's frame and lifts re-read by square name in the
        geometry of ``position`` (a new game on another board)."""
        old = self.position.geometry
        new = position.geometry
        if old is new or old.names == new.names:
            return
        raw = self._raw
        if raw is not None:   # the pieces outside the old game may stand inside the new one, and the reverse
            names = {old.names[sq] for sq in bits(raw)} | set(self._outside)
            self._raw = sum(1 << new.index[name] for name in names if name in new.index)
            self._outside = frozenset(name for name in names if name not in new.index)
            self._raw_since = self._now
        self._lifted = 0
    def _mask(self, squares) -> int:
        index = self.position.geometry.index
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
        self._cancelled = None
        self._error_key = None
        self._undo_lifts = 0

    def _expected(self) -> int:
        return self._setup.table.expected if self._setup else self._table.expected

    def _track_lifts(self) -> None:
        raw = self._raw
        assert raw is not None
        expected = self._expected()
        table = self._setup.table if self._setup else self._table
        if self._mode.name == "play" and self._position.move_stack:
            self._track_undo(raw, expected)
        # Both pieces of a swap lifted and set down again: the lifts are the move.
        if self._mode.name in ("play", "setup") and raw == expected and not table.swaps_within(self._lifted):
            self._lifted &= table.exchanged   # Optima: a unit to convert may be exchanged before the mover moves
        else:
            self._lifted |= expected & ~raw

    def _track_undo(self, raw: int, expected: int) -> None:
        """Follow the lifts of the squares whose piece the last move replaced
        (a replacement capture's, a swap's, a conversion's), whatever the
        order in which the players restore the board: they are kept when the
        board passes through the position on the way (a captured piece set
        back first). Only a move that left the occupancy as it was (a swap)
        counts its lifts per trip away from the position, as a swap does."""
        vacated, filled, replaced = self._last_signature()
        if (expected & ~filled | vacated) == expected and raw == expected:
            self._undo_lifts = (self._lifted | expected & ~raw) & replaced
        else:
            self._undo_lifts |= expected & ~raw & replaced

    def _match(self) -> Match:
        table = self._setup.table if self._setup else self._table
        m = table.match(self._raw or 0, self._lifted)
        if m.kind in ("promote", "place") and self._cancelled == (self._raw, self._lifted):
            return table.wrong(self._raw or 0)   # BACK cancelled the promotion (placement): the piece goes back
        return m

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
                if self._mode.name == mode.name and not step:
                    break
        if self._clock is not None:   # the side to move's clock runs while play goes on with a board
            running = self._mode.clock_runs
            self._clock = self._clock.run(now) if running else self._clock.pause(now)
        if self._returning and self._live() and self._stable(now):
            self._returning = False
            self._refused = None   # the board is known again: its guidance, not the refusal
        close_if_expired(self, now)
        if self._note is not None and self._note[1] <= now:
            self._note = None
        if self._refused is not None and self._refused[1] <= now:
            self._refused = None
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
        if self._outside and self._mode.name != "setup":   # a piece off the game's squares: nothing commits
            return []                                        # (set-up's own step checks: it may see the other size)
        return self._mode.step(now)

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
        parts = next((e.parts for e in self._table.entries if e.move == move), ())
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
        self._last = LastMove(move, text, now, parts)
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
        self._mode = EndedMode(self)
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
            if self._mode.name == "ended":
                self.store.reopen(self._game_id)
            self.store.take_back(self._game_id, index)
        except (sqlite3.Error, OSError) as exc:
            return self._store_failed("take the move back", exc)
        position.pop()
        words = screens.move_words(position, move)
        short = screens.piece_move(position, move, room=screens.UNDO_ROOM)   # "Guard a7-a6": no number
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
            self._mode = self._play_mode()
            self._lifted = 0
            self._note = (f"Taken back: {words}.", now + NOTE_MS)
            return events
        sync = self._sync
        if sync is None or sync.reason != "takeback":
            sync = Sync("takeback")
            self._lifted = 0
        self._mode = SyncMode(self, sync)
        sync.undone.insert(0, short)
        sync.moves.append(move)
        for sq in position.signature(move).replaced:   # a replacement, swap or promotion on a piece
            sync.required |= 1 << sq
            self._lifted &= ~(1 << sq)
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
        self._mode = self._play_mode()
        self._note = ("Game goes on.", now + NOTE_MS)
        return [{"type": "reopened", "game": self._game_id}]

    def _last_signature(self) -> tuple[int, int, int]:
        """The last move's signature (vacated, filled, replaced) as masks,
        computed once per position."""
        key = (self._position, len(self._position.move_stack), self._position.move_stack[-1])
        cached = getattr(self, "_sig_cache", None)
        if cached is not None and cached[0] == key:
            return cached[1]
        before = self._position.copy()
        move = before.pop()
        sig = before.signature(move)
        masks = tuple(sum(1 << sq for sq in squares) for squares in (sig.vacated, sig.filled, sig.replaced))
        self._sig_cache = (key, masks)
        return masks   # type: ignore[return-value]

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
            position = Position(row.start_fen, row.variant)
            for text in moves:
                position.push(text)
        except ValueError as exc:
            self.store.finish(row.id, "*", f"could not be resumed: {exc}")
            self._pending.append({"type": "error", "text": f"game {row.id} could not be resumed: {exc}"})
            return False
        self._position = position
        self._variant = position.variant.name
        self._game_id = row.id
        self._clock = self._stored_clock(row.id, position)
        self._refresh()
        self._last_from_history()
        self._pending.append({"type": "resumed", "game": row.id, "fen": position.fen(), "moves": moves,
                              "variant": position.variant.name})
        outcome = position.outcome()
        if outcome is not None:
            self._pending += self._end(outcome.result, outcome.reason, now)
            return True
        self._mode = SyncMode(self, Sync("resume"))
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
        if self._game_id is not None and self._mode.name in ("play", "sync"):
            self.store.finish(self._game_id, "*", "abandoned")
        row = self.store.unfinished()
        if row is not None:
            self.store.finish(row.id, "*", "abandoned")

    def _begin_setup(self, position: Position, now: int) -> None:
        self._regrid(position)
        squares = [sq for sq, _ in position.pieces()]
        self._mode = SetupMode(self, Setup(position, MoveTable(position), squares))
        self._game_id = None
        self._clock = None
        self._result, self._reason = "*", None
        self._menu = None
        self._last = None
        self._lifted = 0
        self._pending.append({"type": "setup", "fen": position.fen(), "variant": position.variant.name})

    def _start_game(self, position: Position, now: int) -> list[dict]:
        s = self.settings
        clock = Clock.start(self._control, position.turn) if self._control is not None else None
        try:
            game_id = self.store.new_game(position.fen(), event=s.event, site=s.site, round=s.round,
                                          white=s.white, black=s.black, variant=position.variant.name,
                                          **self._clock_row(clock, now))
        except (sqlite3.Error, OSError) as exc:
            return self._store_failed("store the new game", exc)
        self._regrid(position)
        self._clock = clock
        self._failure = None
        from_setup = self._setup is not None and self._setup.position is position
        self._game_id = game_id
        self._position = position
        self._mode = self._play_mode()
        self._result, self._reason = "*", None
        self._last = None
        self._menu = None
        self._refresh()
        if not from_setup:
            self._lifted = 0
        if self._raw is not None:
            self._lifted |= self._table.expected & ~self._raw
        event: dict = {"type": "new_game", "game": game_id, "fen": position.fen(), "variant": position.variant.name}
        if clock is not None:
            event["time_control"] = str(clock.control)
        if self._raw is None:
            self._pending.append(event)
            return []
        return [event]

    # ================================================================ buttons
    def _press(self, button: str, now: int) -> list[dict]:
        if not self._link_ok or self._fresh or self._returning:
            # The board is not known: a press must not commit or choose from
            # the frame from before the outage. A menu may still be stepped or closed.
            if self._menu is not None and button in ("menu", "back"):
                return self._menu_press(button, now, blind=True)
            self._refused = (REFUSED_LOST if not self._link_ok else REFUSED_RETURNING, now + NOTE_MS)
            return []
        self._refused = None
        if ignored(self, now):   # meant for the page that has just closed itself
            return []
        if self._menu is not None:
            return self._menu_press(button, now)
        setup = self._setup
        choosing = setup is not None and (setup.on_game or setup.on_forces or setup.on_clock)
        if self._outside and button == "ok" and not choosing:   # OK would commit: not while a piece is off the game's squares
            return []
        return self._mode.press(button, now)

    def _open_menu(self, only_new: bool = False) -> None:
        """MENU during a game: the game chooser, its MENU row going on to
        the game's menu; NEW: only "New game?"."""
        new = MenuItem("New game?", self._next_game, key="new")
        if only_new:
            self._menu = Menu.question(new, self._now)
            return
        side = self._position.turn

        def resign(color: int) -> Callable[[int], list]:
            return lambda now: self._end("0-1" if color == WHITE else "1-0", "resignation", now)

        items = [MenuItem(f"Resign {side_name(side)}?", resign(side)),
                 MenuItem(f"Resign {side_name(-side)}?", resign(-side)),
                 MenuItem("Agree draw?", lambda now: self._end(self._position.variant.draw_result, "agreement", now)),
                 new]
        if self.web_pin:
            items.append(MenuItem("Show web PIN?", self.show_web_pin))

        def game_menu(now: int) -> list[dict]:
            self._menu = Menu(items + self._extra_items, now)
            return []

        open_chooser(self, "Resign, draw >", game_menu)

    def _menu_press(self, button: str, now: int, blind: bool = False) -> list[dict]:
        """A button while the MENU is shown; the menu closes unless it stays
        or its item opened another (a confirmation). ``blind``: the board is
        not known, the chooser chooses nothing."""
        menu = self._menu
        stays, events = menu.press(button, now, blind) if isinstance(menu, Chooser) else menu.press(button, now)
        if not stays and self._menu is menu:
            self._menu = None
        return events

    def _choose(self, variant: str, now: int) -> list[dict]:
        """Set-up of a new game of ``variant`` (a game of two sizes shows
        its size first: OK there, the other size)."""
        self._abandon_unfinished()
        self._variant = variants.get(variant).name
        self._begin_setup(self._new_position(), now)
        if self._setup is not None and other_form(self._variant) is not None:
            self._setup.on_game = True
        return []

    def show_web_pin(self, now: int) -> list[dict]:
        """MENU → "Show web PIN?": the PIN on the OLED for a while."""
        self._note = (f"Web PIN: {self.web_pin}", now + 3 * NOTE_MS)
        return []

    def _next_game(self, now: int) -> list[dict]:
        """NEW confirmed (or OK after a game): abandon the game, set up the
        start position, and start at once if it already stands."""
        self._abandon_unfinished()
        self._begin_setup(self._new_position(), now)
        setup = self._setup
        if self._raw is not None and setup is not None and self._raw == setup.table.expected:
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
        self._oled.show(Offer(screen.rank, tuple(screen.lines)))
        return screen.leds, self._oled.lines

    def _view(self, now: int) -> screens.View:
        """What the screens need to know, now."""
        play = self._mode.name == "play" and self._raw is not None
        return screens.View(
            now=now, settings=self.settings, mode=self._mode.name, link_ok=self._link_ok,
            link_problem=self._link_problem,
            position=self._position, table=self._table, check=self._check_squares, frozen=self._frozen,
            raw=self._raw, raw_since=self._raw_since, lifted=self._lifted,
            match=self._match() if play else None, pick=self._pick,
            last=self._last, game_id=self._game_id, result=self._result, reason=self._reason,
            note=self._note[0] if self._note is not None else None,
            refused=self._refused[0] if self._refused is not None else None,
            menu=self._menu.shown(now) if isinstance(self._menu, Menu) else None,
            chooser=self._menu.screen(now) if isinstance(self._menu, Chooser) else None,
            failure=self._failure, sync=self._sync, setup=self._setup, outside=self._outside,
            clocks=self._clock.readings(now) if self._clock is not None else None,
            control=str(self._control) if self._control is not None else "none",
            placement=getattr(self._mode, "choice", None),
            start_standing=self._mode.name == "ended" and self._raw is not None and not self._outside
            and self._raw == self._start_occupancy())

    def _start_occupancy(self) -> int | None:
        """The squares the start of the next new game occupies, in the
        geometry of the game's position (None: another board's game)."""
        cached = self._start_cache
        if cached is not None and cached[0] == self._variant:
            return cached[1]
        start = Position(variants.get(self._variant).start_fen, self._variant)
        occupancy = start.occupancy() if start.geometry.names == self._position.geometry.names else None
        self._start_cache = (self._variant, occupancy)
        return occupancy
