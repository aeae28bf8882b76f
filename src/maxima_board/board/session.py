"""The game session: one game on one board, and its transitions (commit a
move, take it back, end the game, start or set up the next).

The modes (``maxima_board.board.modes``) see it through
``maxima_board.board.ports.Session``; the controller
(``maxima_board.board.core``) feeds it the board's frames, buttons and time
and renders what it holds (``maxima_board.board.game_state``). Every
transition stores first: nothing is shown that is not on disk, and a
failure to store leaves the state as it was (``failure`` says what could
not be done; the next frame or button tries again).
"""
from __future__ import annotations

import sqlite3
from typing import Callable

from maxima_board.rules import Move, Position
from maxima_board.storage.store import GameStore

from . import screens
from .clock import Clock, flag_result
from .game_state import GameState
from .games import other_form
from .modes import EndedMode, SetupMode, SyncMode
from .modes.choice import open_game_menu
from .modes.placement import play_mode
from .notes import NOTE_MS, STORE_NOTE_MS
from .ports import Page
from .reconstruct import MoveTable
from .records import LastMove, Setup, Sync
from .settings import Settings
from .timekeeper import GameClock


class GameSession(GameState):
    """The game of one board and its transitions (see the module
    docstring). With ``fen`` None the newest unfinished game in ``store``
    resumes, else set-up of the start position begins; with ``fen`` given
    (or ``"start"``), a new game from it starts at once."""

    def __init__(self, settings: Settings, store: GameStore | None, fen: str | None, now: int,
                 menu_items: "list[tuple[str, Callable[[int], list]]] | None" = None, variant: str | None = None):
        super().__init__(settings, store, fen, now, menu_items, variant)
        if self._store.message:
            self._pending.append({"type": "error", "text": self._store.message})
            self.overlay.show_note("Game database was damaged; moved aside, new one started.", now + STORE_NOTE_MS)
        if fen is not None:
            self._abandon_unfinished()
            self.start_game(self._position, now)
        elif not self._resume(now):
            self.begin_setup(self.new_position(), now)

    # ================================================================ inputs
    def see(self, occ: int, outside: frozenset[str]) -> None:
        """A sensor frame while the link is up: the occupied squares ``occ``
        of the game, and the board's squares ``outside`` it that hold a piece."""
        if self.frame.touched(occ, outside):
            self.overlay.touch()   # a piece lifted or placed: back to the game from the chooser or menu
        self.frame.see_outside(outside, self._now)   # the board settles again once they are cleared
        if self.frame.see(occ, self._now):
            self.matching.uncancel()
            self.failure = None
            self._track_lifts()

    def step(self, now: int) -> list[dict]:
        """The mode acts on the board as it stands (the frame is live)."""
        if self.failure is not None:   # the store failed: retry on the next frame or button
            return []
        if self.frame.outside and self.mode != "setup":   # a piece off the game's squares: nothing commits
            return []                                       # (set-up's own step checks: it may see the other size)
        return self.current_mode.step(now)

    def tick(self, now: int) -> None:
        """After the modes' steps at ``now``: the clocks run or stand, a
        board back from an outage counts once settled, what has had its time goes."""
        self.timekeeper.tick(now, self.current_mode.clock_runs)   # the side to move's runs while play goes on
        if self.frame.settle_return(now, self._settings.settle_ms):
            self.overlay.clear_refusal()   # the board is known again: its guidance, not the refusal
        self.overlay.expire(now)

    # ================================================================ pages
    def open_menu(self, only_new: bool = False) -> None:
        """MENU during a game: the chooser, then the game's menu; ``only_new``: only "New game?"."""
        open_game_menu(self, self.extra_items, only_new)

    def open_page(self, page: Page) -> None:
        """Show ``page`` (a Menu or the Chooser) over the game."""
        self.overlay.open(page)   # type: ignore[arg-type]   # a Menu or a Chooser

    def show_web_pin(self, now: int) -> list[dict]:
        """MENU → "Show web PIN?": the PIN on the OLED for a while."""
        self.overlay.show_note(f"Web PIN: {self.web_pin}", now + 3 * NOTE_MS)
        return []

    # ================================================================ transitions
    def commit(self, move: Move, now: int, stop: int | None = None) -> list[dict]:
        """Store the move, then play it: nothing is shown before it is on disk.
        ``stop``: when the mover's clock stopped (the board came to show the
        move); ``now`` (a button confirmed it) if None."""
        position = self._position
        clock = self.timekeeper.clock
        if clock is not None:
            if clock.flagged(now if stop is None else stop) and self.timekeeper.calls_flag(position.turn):
                return self.end(flag_result(position, position.turn), "time", now)
            clock = self.timekeeper.carried(clock.press(now if stop is None else stop, now),
                                            len(position.move_stack), str(move))
        text = screens.move_words(position, move, self.printed(position))
        parts = next((e.parts for e in self.table.entries if e.move == move), ())
        index = len(position.move_stack)
        position.push(move)
        fen = position.fen()
        try:
            self._store.append_move(self._game_id, index, str(move), fen, **GameClock.row(clock, now))
        except (sqlite3.Error, OSError) as exc:
            position.pop()
            return self._store_failed("save the move", exc)
        self.timekeeper.clock = clock
        self.failure = None
        self.overlay.clear_note()
        self.last = LastMove(move, text, now, parts)
        self.frame.forget_lifts()
        self.overlay.close()
        self._refresh()
        events: list[dict] = [{"type": "move", "move": str(move), "fen": fen}]
        if clock is not None:
            events[0]["clocks"] = clock.readings(now)
        outcome = position.outcome()
        if outcome is not None:
            events += self.end(outcome.result, outcome.reason, now)
        return events

    def end(self, result: str, reason: str, now: int) -> list[dict]:
        """Store the result, then the game is over (mode "ended")."""
        try:
            self._store.finish(self._game_id, result, reason)
        except (sqlite3.Error, OSError) as exc:
            return self._store_failed("record the result", exc)
        self._result, self._reason = result, reason
        self.current_mode = EndedMode(self)
        self.overlay.close()
        return [{"type": "game_end", "result": result, "reason": reason}]

    def take_back(self, now: int, by_restore: bool = False) -> list[dict]:
        """Take the last move back in the store, then on the board: the
        players are guided to restore it (mode "sync"), or with ``by_restore``
        (the board already shows the position before it) play goes on."""
        position = self._position
        if not position.move_stack:
            self.overlay.show_note("Nothing to take back.", now + NOTE_MS)
            return []
        move = position.move_stack[-1]
        index = len(position.move_stack) - 1
        try:
            if self.mode == "ended":
                self._store.reopen(self._game_id)
            self._store.take_back(self._game_id, index)
        except (sqlite3.Error, OSError) as exc:
            return self._store_failed("take the move back", exc)
        position.pop()
        words = screens.move_words(position, move, self.printed(position))
        short = screens.piece_move(position, move, room=screens.UNDO_ROOM,   # "Guard a7-a6": no number
                                   names=self.printed(position))
        self._refresh()
        self._result, self._reason = "*", None
        self._last_from_history()
        self.overlay.close()
        events: list[dict] = [{"type": "takeback", "move": str(move), "fen": position.fen()}]
        if self.timekeeper.clock is not None:   # the clocks as they stood before the move taken back
            self.timekeeper.clock = self._stored_clock(self._game_id, position)
            if self.timekeeper.clock is not None:
                events[0]["clocks"] = self.timekeeper.clock.readings(now)
        if by_restore:
            self.current_mode = play_mode(self)
            self.frame.forget_lifts()
            self.overlay.show_note(f"Taken back: {words}.", now + NOTE_MS)
            return events
        sync = self.sync
        if sync is None or sync.reason != "takeback":
            sync = Sync("takeback")
            self.frame.forget_lifts()
        self.current_mode = SyncMode(self, sync)
        sync.undone.insert(0, short)
        sync.moves.append(move)
        for sq in position.signature(move).replaced:   # a replacement, swap or promotion on a piece
            sync.required |= 1 << sq
            self.frame.unlift(1 << sq)
        self.frame.lift(self.frame.missing(self.table.expected))
        return events

    def reopen(self, now: int) -> list[dict]:
        """Undo a resignation or an agreed draw: play goes on."""
        try:
            self._store.reopen(self._game_id)
        except (sqlite3.Error, OSError) as exc:
            return self._store_failed("reopen the game", exc)
        self._result, self._reason = "*", None
        self.current_mode = play_mode(self)
        self.overlay.show_note("Game goes on.", now + NOTE_MS)
        return [{"type": "reopened", "game": self._game_id}]

    def play_on(self, note: str, now: int) -> None:
        """The board shows the position again: play goes on, ``note`` shown a while."""
        self.frame.forget_lifts()
        self.current_mode = play_mode(self)
        self.overlay.show_note(note, now + NOTE_MS)

    def forget_lifts(self) -> None:
        """No square counts as lifted (set-up's pieces are no move)."""
        self.frame.forget_lifts()

    def begin_setup(self, position: Position, now: int) -> Setup:
        """Set-up of ``position`` begins (no game in progress); its record."""
        self._regrid(position)
        squares = [sq for sq, _ in position.pieces()]
        setup = Setup(position, MoveTable(position), squares)
        self.current_mode = SetupMode(self, setup)
        self._game_id = None
        self.timekeeper.clock = None
        self._result, self._reason = "*", None
        self.overlay.close()
        self.last = None
        self.frame.forget_lifts()
        self._pending.append({"type": "setup", "fen": position.fen(), "variant": position.variant.name})
        return setup

    def start_game(self, position: Position, now: int) -> list[dict]:
        """Store a new game from ``position``, then play it (its ``new_game``
        event waits for the first frame when no board is known yet)."""
        s = self._settings
        clock = self.timekeeper.new_clock(position.turn)
        try:
            game_id = self._store.new_game(position.fen(), event=s.event, site=s.site, round=s.round,
                                           white=s.white, black=s.black, variant=position.variant.name,
                                           **GameClock.row(clock, now))
        except (sqlite3.Error, OSError) as exc:
            return self._store_failed("store the new game", exc)
        self._regrid(position)
        self.timekeeper.clock = clock
        self.failure = None
        setup = self.setup
        from_setup = setup is not None and setup.position is position
        self._game_id = game_id
        self._position = position
        self.current_mode = play_mode(self)
        self._result, self._reason = "*", None
        self.last = None
        self.overlay.close()
        self._refresh()
        if not from_setup:
            self.frame.forget_lifts()
        self.frame.lift(self.frame.missing(self.table.expected))
        event: dict = {"type": "new_game", "game": game_id, "fen": position.fen(), "variant": position.variant.name}
        if clock is not None:
            event["time_control"] = str(clock.control)
        if self.frame.raw is None:
            self._pending.append(event)
            return []
        return [event]

    def new_game(self, position: Position, setup: bool, now: int) -> list[dict]:
        """Abandon the game in progress and begin a new one from ``position``:
        with ``setup`` the players are guided to set it up and confirm;
        without, the board is taken to be set up."""
        self._abandon_unfinished()
        if setup:
            self.begin_setup(position, now)
            return []
        self.frame.forget()   # the old board must not play the new game's first move: wait for a frame
        return self.start_game(position, now)

    def next_game(self, now: int) -> list[dict]:
        """NEW confirmed (or OK after a game): abandon the game, set up the
        start position, and start at once if it already stands."""
        self._abandon_unfinished()
        setup = self.begin_setup(self.new_position(), now)
        if self.frame.raw is not None and self.frame.raw == setup.table.expected:
            return self.start_game(setup.position, now)
        return []

    def choose(self, variant: str, now: int) -> list[dict]:
        """Set-up of a new game of ``variant`` (a game of two sizes shows
        its size first: OK there, the other size)."""
        self._abandon_unfinished()
        setup = self.begin_setup(self.new_position(variant), now)
        if other_form(self._variant) is not None:
            setup.on_game = True
        return []

    # ================================================================ helpers
    def _store_failed(self, what: str, exc: BaseException) -> list[dict]:
        """The store could not ``what``: remembered until the next frame or button, reported."""
        self.failure = f"Cannot {what}: {exc}"
        return [{"type": "error", "text": self.failure}]

    def _refresh(self) -> None:
        """A new position of the game: its moves renewed."""
        self.matching.renew(self._position)
        self.frame.forget_undo()

    def _regrid(self, position: Position) -> None:
        """The board's frame and lifts re-read by square name in the
        geometry of ``position`` (a new game on another board)."""
        self.frame.regrid(self.current_position.geometry, position.geometry, self._now)

    def _track_lifts(self) -> None:
        """A new frame: the squares lifted since the position arose (``BoardFrame.track_lifts``)."""
        play = self.mode == "play"
        last = self.last_signature() if play and self._position.move_stack else None
        self.frame.track_lifts(self.current_table, self.mode in ("play", "setup"), last)

    def _last_from_history(self) -> None:
        """The last move of the game for the OLED, not lit."""
        self.last = None
        if self._position.move_stack:
            copy = self._position.copy()
            move = copy.pop()
            self.last = LastMove(move, screens.move_words(copy, move, self.printed(copy)), None)

    def _stored_clock(self, game_id: int, position: Position) -> Clock | None:
        """The game's clocks as stored with its last move (an error event if they cannot be read)."""
        clock, error = GameClock.stored(self._store, game_id, position)
        if error is not None:
            self._pending.append({"type": "error", "text": error})
        return clock

    def _resume(self, now: int) -> bool:
        """Resume the newest unfinished game of the store: whether there was one to resume."""
        row = self._store.unfinished()
        if row is None:
            return False
        moves = self._store.moves(row.id)
        try:
            position = Position(row.start_fen, row.variant)
            for text in moves:
                position.push(text)
        except ValueError as exc:
            self._store.finish(row.id, "*", f"could not be resumed: {exc}")
            self._pending.append({"type": "error", "text": f"game {row.id} could not be resumed: {exc}"})
            return False
        self._position = position
        self._variant = position.variant.name
        self._game_id = row.id
        self.timekeeper.clock = self._stored_clock(row.id, position)
        self._refresh()
        self._last_from_history()
        self._pending.append({"type": "resumed", "game": row.id, "fen": position.fen(), "moves": moves,
                              "variant": position.variant.name})
        outcome = position.outcome()
        if outcome is not None:
            self._pending += self.end(outcome.result, outcome.reason, now)
            return True
        self.current_mode = SyncMode(self, Sync("resume"))
        return True

    def _abandon_unfinished(self) -> None:
        """The game in progress, and any other unfinished one, stored as abandoned."""
        if self._game_id is not None and self.mode in ("play", "sync"):
            self._store.finish(self._game_id, "*", "abandoned")
        row = self._store.unfinished()
        if row is not None:
            self._store.finish(row.id, "*", "abandoned")
