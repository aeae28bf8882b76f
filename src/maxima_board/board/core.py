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

This module takes the inputs and renders the outputs. The game's state and
its transitions are the session's (``maxima_board.board.session``); what each
mode does with frames and buttons is in ``maxima_board.board.modes`` (one
class per mode); what the LEDs and the OLED show is composed in
``maxima_board.board.screens``.
"""
from __future__ import annotations

from typing import Callable

from maxima_board.devices.interfaces import BUTTONS
from maxima_board.rules import Position
from maxima_board.storage.store import GameStore

from . import screens
from .chooser import Chooser
from .composer import Composer, Offer, Source
from .modes import Menu, MenuItem, Mode
from .notes import NOTE_MS
from .reconstruct import Match, MoveTable, bits
from .session import GameSession
from .settings import Settings

__all__ = ["Controller", "NOTE_MS"]

REFUSED_LOST = "Buttons wait until the board link is back."
REFUSED_RETURNING = "Wait for the board to settle, then press again."


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
        self._session = GameSession(settings, store, fen, now_ms, menu_items, variant)
        self._leds: dict[str, str] = {}
        self._display: list[str] = []
        self._oled = Composer()   # the OLED: this screen, and what the layers around offer
        self._leds, self._display = self._render(now_ms)
        self._shown = False   # the first update reports the LEDs and the OLED even if unchanged

    # ================================================================ API
    @property
    def settings(self) -> Settings:
        """The board's settings (the game's, as the web page may change them)."""
        return self._session.settings

    @settings.setter
    def settings(self, settings: Settings) -> None:
        self._session.settings = settings

    @property
    def store(self) -> GameStore:
        """The store of the board's games."""
        return self._session.store

    @property
    def web_pin(self) -> str | None:
        """The web page's PIN: MENU offers to show it (None: not offered)."""
        return self._session.web_pin

    @web_pin.setter
    def web_pin(self, pin: str | None) -> None:
        self._session.web_pin = pin

    @property
    def position(self) -> Position:
        """The game's position (in set-up: the position being set up)."""
        return self._session.current_position

    @property
    def moves(self) -> list[str]:
        """The game's moves so far, canonical."""
        return [str(m) for m in self.position.move_stack]

    @property
    def result(self) -> str:
        """``"*"`` while the game goes on, else ``"1-0"``, ``"0-1"`` or ``"1/2"``."""
        return self._session.result

    @property
    def reason(self) -> str | None:
        """Why the game ended: checkmate, palace invaded, bare king,
        stalemate, resignation, agreement, time; None while it goes on."""
        return self._session.reason

    @property
    def mode(self) -> str:
        """``"setup"``, ``"play"``, ``"sync"`` (guiding the board back) or ``"ended"``."""
        return self._session.mode

    @property
    def current_mode(self) -> Mode:
        """The mode the game is in (``maxima_board.board.modes``): its class tells it, as ``mode`` names it."""
        return self._session.current_mode

    def show_on_board(self, kind: str, offset: str = "") -> None:
        """The game is seen through physical board ``kind`` with the game's
        a1 at ``offset`` ("" = centred; ``maxima_board.service.board_view``):
        every text names a square as that board prints it. Without, texts
        use the game's own names."""
        self._session.board = (kind, offset)

    def printed_names(self, position: Position) -> tuple[str, ...]:
        """The name the board prints under each square of ``position``'s
        game, by index (the game's own without a physical board)."""
        return self._session.printed(position)

    def add_menu_item(self, label: "str | Callable[[], str]", action: Callable[[int], list],
                      visible: "Callable[[], bool] | None" = None) -> None:
        """Add a question to the MENU of a game in progress (after the
        standard ones): ``label`` is shown ("Play the computer?"; a callable
        gives the words of the moment), OK calls ``action(now_ms)``, which
        returns events; ``visible()``: whether the menu offers it when it opens."""
        self._session.extra_items.append(MenuItem(label, action, visible=visible))

    @property
    def variant(self) -> str:
        """The game's id (``maxima_board.rules.variants``): of the game in progress, or
        of the one being set up."""
        return self.position.variant.name

    @property
    def game_id(self) -> int | None:
        """The game's number in the store; None in set-up."""
        return self._session.game_id

    @property
    def time_control(self) -> str | None:
        """The game's time control (``"90+30"``…), None without a clock."""
        return self._session.timekeeper.time_control

    @property
    def clocks(self) -> dict[str, int] | None:
        """``{"white": ms, "black": ms}`` left now; None without a clock."""
        return self._session.timekeeper.readings(self._session.now)

    @property
    def clock_running(self) -> str | None:
        """``"white"`` or ``"black"``: whose clock runs now; None when none does."""
        return self._session.timekeeper.running_side

    def set_forces(self, forces: str, seed: int | None = None) -> None:
        """Optima's forces (eq, u1, u2, random) and the seed that draws
        them, for the games started from now on (``[game] forces``, ``seed``)."""
        self._session.set_forces(forces, seed)

    def set_time_control(self, text: str) -> None:
        """The time control of the games started from now on (``"none"``
        for none); TimeControlError (a ValueError) names bad text."""
        self._session.set_time_control(text)

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
        return self._session.frame.link_ok

    @property
    def outside(self) -> frozenset[str]:
        """Squares of the last frame outside the game that hold a piece; the
        OLED asks to clear them and OK does nothing until they are clear."""
        return self._session.frame.outside

    @property
    def expected_squares(self) -> frozenset[str]:
        """The squares that should be occupied now."""
        names = self.position.geometry.names
        return frozenset(names[i] for i in bits(self._session.current_table.expected))

    @property
    def table(self) -> MoveTable:
        """The legal moves of the game's position with their physical
        signatures (in set-up: of the last game's position, not the set-up's)."""
        return self._session.table

    def match(self) -> Match:
        """What the board shows now, against the moves of the game (in set-up: of the set-up)."""
        return self._session.match()

    def last_signature(self) -> tuple[int, int, int]:
        """The last move's signature (vacated, filled, replaced) as square masks."""
        return self._session.last_signature()

    def on_frame(self, now_ms: int, squares: frozenset[str] | set[str],
                 outside: frozenset[str] | set[str] = frozenset()) -> list[dict]:
        """A debounced sensor frame: the occupied squares of the game, by
        the game's names; ``outside``: squares of the board that are not
        part of the game and hold a piece, by the board's names (lit as
        errors, named on the OLED; nothing commits while any holds one)."""
        session = self._session
        occ = session.frame.mask(squares, self.position.geometry)
        events = self._update(now_ms) if session.frame.raw is not None else []
        if not session.frame.link_ok:
            return events
        session.see(occ, frozenset(outside))
        return events + self._update(now_ms)

    def on_button(self, now_ms: int, button: str) -> list[dict]:
        """A button press: one of ``ok``, ``back``, ``menu``, ``new``."""
        if button not in BUTTONS:
            raise ValueError(f"unknown button {button!r} (expected one of {', '.join(BUTTONS)})")
        events = self._update(now_ms)
        self._session.failure = None
        events += self._press(button, self._session.now)
        return events + self._update(now_ms)

    def on_tick(self, now_ms: int) -> list[dict]:
        """Time has passed: commit what has settled, expire what was shown."""
        return self._update(now_ms)

    def set_link(self, ok: bool, now_ms: int, problem: str | None = None) -> list[dict]:
        """The board link was lost (frames are ignored, the OLED says so,
        naming ``problem`` if given, e.g. "No board at /dev/…") or is back
        (nothing acts until a fresh frame has been seen and has settled)."""
        events = self._update(now_ms)
        if self._session.frame.set_link(ok, problem):
            events.append({"type": "link", "ok": ok})
        return events + self._update(now_ms)

    def new_game(self, now_ms: int, fen: str | None = None, setup: bool = True,
                 variant: str | None = None) -> list[dict]:
        """Abandon the game in progress and begin a new one from ``fen``
        (the start position if None) of ``variant`` (the game of the last
        new game if None): with ``setup`` the players are guided to set it
        up and confirm; without, the board is taken to be set up."""
        session = self._session
        position = session.new_position(variant, fen)
        events = self._update(now_ms)
        events += session.new_game(position, setup, session.now)
        return events + self._update(now_ms)

    def choose_game(self, variant: str, now_ms: int) -> list[dict]:
        """Set-up of a new game of ``variant`` (MENU → Game on the board)."""
        events = self._update(now_ms)
        session = self._session
        session.begin_setup(session.new_position(variant), session.now)
        return events + self._update(now_ms)

    def show_web_pin(self, now: int) -> list[dict]:
        """MENU → "Show web PIN?": the PIN on the OLED for a while."""
        return self._session.show_web_pin(now)

    # ================================================================ a game played with another board
    def judge_flags(self, sides: "frozenset[int] | None") -> None:
        """The sides whose flag this board calls (None: both, the default).
        In a remote game each board calls its own side's only; the other's
        comes as that board's result (:meth:`end_game`)."""
        self._session.timekeeper.judged = sides

    def route_agreements(self, route: "Callable[[str, int, int], list] | None") -> None:
        """MENU's "Resign White?" / "Resign Black?" / "Agree draw?" call
        ``route(what, side, now_ms)`` ("resign" with the side resigning,
        "draw") instead of ending the game (None: they end it). A remote game
        asks the other player first."""
        self._session.agreements = route

    def carry_clock(self, ply: int, move: str, ms: int) -> None:
        """When move number ``ply`` (0: the first) commits as ``move``, its
        mover's clock reads ``ms``, as the board that made it measured."""
        self._session.timekeeper.carry(ply, move, ms)

    def end_game(self, result: str, reason: str, now_ms: int) -> list[dict]:
        """End the game in progress with ``result`` for ``reason`` (stored
        first), as if agreed on this board; nothing when none is in progress."""
        events = self._update(now_ms)
        if self.mode in ("play", "sync") and self.result == "*":
            events += self._session.end(result, reason, self._session.now)
        return events + self._update(now_ms)

    def take_back(self, now_ms: int) -> list[dict]:
        """Take the last move back, as BACK does in a game: the players are
        guided to restore the position before it."""
        events = self._update(now_ms)
        events += self._session.take_back(self._session.now)
        return events + self._update(now_ms)

    def next_deadline(self) -> int | None:
        """The next time (ms) at which ``on_tick`` may change something."""
        return self._session.next_deadline()

    # ================================================================ update
    def _update(self, now: int) -> list[dict]:
        """Time is ``now``: the mode acts on the board, then the LEDs and the OLED are rendered (events when they change)."""
        session = self._session
        now = session.advance(now)
        events = session.take_pending()
        if session.frame.live:
            for _ in range(4):   # a step may change mode; the next may act on the same frame
                mode = session.current_mode
                step = session.step(now)
                events += step
                if session.current_mode.name == mode.name and not step:
                    break
        session.tick(now)
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

    # ================================================================ buttons
    def _press(self, button: str, now: int) -> list[dict]:
        """A button: to the page shown, else to the mode; refused while the board is not known."""
        session = self._session
        frame, overlay = session.frame, session.overlay
        if not frame.link_ok or frame.fresh or frame.returning:
            # The board is not known: a press must not commit or choose from
            # the frame from before the outage. A menu may still be stepped or closed.
            if overlay.page is not None and button in ("menu", "back"):
                return overlay.press(button, now, blind=True)
            overlay.refuse(REFUSED_LOST if not frame.link_ok else REFUSED_RETURNING, now + NOTE_MS)
            return []
        overlay.clear_refusal()
        if overlay.ignored(now):   # meant for the page that has just closed itself
            return []
        if overlay.page is not None:
            return overlay.press(button, now)
        setup = session.setup
        choosing = setup is not None and (setup.on_game or setup.on_forces or setup.on_clock)
        if frame.outside and button == "ok" and not choosing:   # OK would commit: not while a piece is off the game's squares
            return []
        return session.current_mode.press(button, now)

    # ================================================================ render
    def _render(self, now: int) -> tuple[dict[str, str], list[str]]:
        screen = screens.render(self._view(now))
        if screen.pick is not None:
            self._session.offer(screen.pick)
        self._oled.show(Offer(screen.rank, tuple(screen.lines)))
        return screen.leds, self._oled.lines

    def _view(self, now: int) -> screens.View:
        """What the screens need to know, now."""
        s = self._session
        frame, overlay, page = s.frame, s.overlay, s.overlay.page
        play = s.mode == "play" and frame.raw is not None
        return screens.View(
            now=now, settings=s.settings, mode=s.mode, link_ok=frame.link_ok,
            link_problem=frame.link_problem,
            position=s.position, table=s.table, check=s.matching.check, frozen=s.matching.frozen,
            raw=frame.raw, raw_since=frame.since, lifted=frame.lifted,
            match=s.match() if play else None, pick=s.matching.pick,
            last=s.last, game_id=s.game_id, result=s.result, reason=s.reason,
            note=overlay.note[0] if overlay.note is not None else None,
            refused=overlay.refused[0] if overlay.refused is not None else None,
            menu=page.shown(now) if isinstance(page, Menu) else None,
            chooser=page.screen(now) if isinstance(page, Chooser) else None,
            failure=s.failure, sync=s.sync, setup=s.setup, outside=frame.outside,
            clocks=s.timekeeper.readings(now),
            control=s.timekeeper.next_control,
            placement=getattr(s.current_mode, "choice", None), board=s.board,
            start_standing=s.mode == "ended" and frame.raw is not None and not frame.outside
            and frame.raw == s.start_occupancy())
