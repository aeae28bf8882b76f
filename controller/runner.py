"""The board's main loop: sensor source → controller → LEDs, display, buzzer.

Every ``period_ms`` the loop reads the debounced board, hands the controller
what changed (the occupied squares on every change, button *presses* —
edges of ``BoardState.buttons`` — one by one), lets time pass with
``on_tick``, then shows the controller's LED map and display lines. The LED
map is shown on every pass so blink patterns can be rendered from the
clock; the display only when its lines change.

The clock is injectable (:class:`Clock`), so tests run hours of play
without sleeping. Under systemd (``Type=notify``) the loop reports
``READY=1`` once running, ``WATCHDOG=1`` at half the watchdog timeout and
the status bar as ``STATUS=``. A failing display or LED driver is reported
once and retried every second; it never stops the game.

A source with a board link (``link_ok``, as the Pico's) starts with the link
down. Until it has been up once it is *connecting*, not lost: the controller
keeps waiting for the board, and hears of a lost link only if none has come
up ``LINK_WAIT_MS`` after start. Once the link has been up, every change is
passed on at once.
"""
from __future__ import annotations

import sys
import time
from typing import Callable, Iterable, Protocol, TextIO

from hardware.interfaces import Display, LedSink, SensorSource
from hardware.notify import Notifier

RETRY_MS = 1000
LINK_WAIT_MS = 1000   # board.md: no line for 1 s is a lost link; from start-up too


class Clock(Protocol):
    def now_ms(self) -> int: ...

    def sleep_ms(self, ms: int) -> None: ...


class SystemClock:
    """Monotonic wall time."""

    def now_ms(self) -> int:
        return time.monotonic_ns() // 1_000_000

    def sleep_ms(self, ms: int) -> None:
        if ms > 0:
            time.sleep(ms / 1000)


class FakeClock:
    """A clock that moves only when slept on (tests, replays). ``on_sleep``
    is called with the new time after every sleep, to script the world."""

    def __init__(self, start_ms: int = 0, on_sleep: Callable[[int], None] | None = None):
        self.now = start_ms
        self.on_sleep = on_sleep

    def now_ms(self) -> int:
        return self.now

    def sleep_ms(self, ms: int) -> None:
        self.now += max(ms, 1)
        if self.on_sleep is not None:
            self.on_sleep(self.now)


class _Guarded:
    """Calls a driver; after a failure reports it once and retries later."""

    def __init__(self, name: str, log: TextIO):
        self.name = name
        self.log = log
        self.failed_at: int | None = None
        self.last_error: str | None = None

    def call(self, now_ms: int, func: Callable[[], None]) -> bool:
        if self.failed_at is not None and now_ms - self.failed_at < RETRY_MS:
            return False
        try:
            func()
        except Exception as exc:  # a driver error must never end the game
            message = f"{type(exc).__name__}: {exc}"
            if message != self.last_error:
                print(f"maxima-board: {self.name} failed: {message}", file=self.log, flush=True)
            self.failed_at, self.last_error = now_ms, message
            return False
        if self.failed_at is not None:
            print(f"maxima-board: {self.name} works again", file=self.log, flush=True)
        self.failed_at = self.last_error = None
        return True


class LinkWatch:
    """When to tell the controller about the board link (pure: the time
    comes from ``now_ms``). A link that has never been up is not reported
    down before ``wait_ms`` have passed since the first look; after it has
    been up once, every change is reported."""

    def __init__(self, wait_ms: int = LINK_WAIT_MS):
        self.wait_ms = wait_ms
        self.reported: bool | None = None
        self._start: int | None = None
        self._was_up = False

    def update(self, ok: bool, now_ms: int) -> bool | None:
        """The link state to report now, or None when there is nothing new."""
        if self._start is None:
            self._start = now_ms
        self._was_up = self._was_up or ok
        connecting = not self._was_up and now_ms - self._start < self.wait_ms
        if connecting or ok == self.reported:
            return None
        self.reported = ok
        return ok


class Runner:
    """Glues a :class:`SensorSource`, :class:`LedSink`, :class:`Display` and
    an optional beeper to a ``controller.core.Controller``."""

    def __init__(self, controller, source: SensorSource, leds: LedSink, display: Display,
                 beeper=None, *, clock: Clock | None = None, period_ms: int = 10,
                 notifier: Notifier | None = None, log: TextIO | None = None, feed=None):
        self.controller = controller
        self.feed = feed                      # controller.feed.BoardFeed: web page, broadcast
        self.source = source
        self.leds = leds
        self.display = display
        self.beeper = beeper
        self.clock = clock or SystemClock()
        self.period_ms = period_ms
        self.notifier = notifier or Notifier.from_env()
        self.log = log or sys.stderr
        self.events: list[dict] = []          # every controller event, in order
        self._squares: frozenset[str] | None = None
        self._buttons: frozenset[str] = frozenset()
        self._link = LinkWatch()
        self._problem: str | None = None
        self._lines: list[str] | None = None
        self._stop = False
        self._led_guard = _Guarded("LEDs", self.log)
        self._display_guard = _Guarded("display", self.log)
        self._beeper_guard = _Guarded("buzzer", self.log)

    # -- one pass -------------------------------------------------------------
    def step(self, now_ms: int) -> None:
        """Read, decide, show: one pass of the loop at ``now_ms``."""
        seen = len(self.events)
        state = self.source.read(now_ms)
        link = getattr(self.source, "link_ok", None)
        if link is not None:
            change = self._link.update(bool(link), now_ms)
            problem = getattr(self.source, "link_problem", None)
            if change is not None or (self._link.reported is False and problem != self._problem):
                self._problem = problem
                self._handle(self.controller.set_link(bool(self._link.reported), now_ms, problem))
                if change:
                    self._squares = None      # the controller waits for a fresh frame
        if state is not None:
            if state.squares != self._squares:
                self._squares = state.squares
                self._handle(self.controller.on_frame(now_ms, state.squares))
            pressed = state.buttons - self._buttons
            self._buttons = state.buttons
            for button in sorted(pressed):
                self._handle(self.controller.on_button(now_ms, button))
        if self.feed is not None:             # commands from the web page, like buttons
            self._handle(self.feed.pump(self.controller, now_ms))
        self._handle(self.controller.on_tick(now_ms))
        if self.feed is not None and (len(self.events) != seen or self.feed.latest is None):
            self.feed.update(self.controller)
        leds = dict(self.controller.leds)
        self._led_guard.call(now_ms, lambda: self.leds.show(leds, now_ms))
        lines = list(self.controller.display)
        if lines != self._lines:
            if self._display_guard.call(now_ms, lambda: self.display.show(lines)):
                self._lines = lines
            if lines:
                self.notifier.set_status(lines[0])

    def _handle(self, events: Iterable[dict] | None) -> None:
        for event in events or ():
            self.events.append(event)
            sound = sound_for(event)
            if sound and self.beeper is not None:
                self._beeper_guard.call(self.clock.now_ms(), lambda: self.beeper.play(sound))

    # -- the loop -------------------------------------------------------------
    def request_stop(self) -> None:
        """Ask the loop to end after the current pass (signal handlers)."""
        self._stop = True

    def run(self, stop: Callable[[int], bool] | None = None) -> None:
        """Loop until ``stop(now_ms)`` is true or :meth:`request_stop`."""
        clock = self.clock
        interval = self.notifier.watchdog_interval_ms
        start = clock.now_ms()
        next_pass = start
        next_watchdog = start
        ready = False
        while not self._stop:
            now = clock.now_ms()
            if stop is not None and stop(now):
                break
            self.step(now)
            if not ready:
                self.notifier.ready(" ".join(self._lines[0].split()) if self._lines else "running")
                ready = True
            if interval is not None and now >= next_watchdog:
                self.notifier.watchdog()
                next_watchdog = now + interval
            next_pass += self.period_ms
            now = clock.now_ms()
            if next_pass < now:          # fell behind: do not try to catch up
                next_pass = now
            clock.sleep_ms(next_pass - now)
        self.notifier.stopping()


def sound_for(event: dict) -> str | None:
    """The buzzer sound for a controller event: ``accepted`` for a committed
    move, ``error`` when the board went wrong, else None."""
    kind = event.get("type")
    if kind in ("move", "suicide", "takeback"):
        return "accepted"
    if kind == "error":
        return "error"
    return None
