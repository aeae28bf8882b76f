"""The board's main loop: sensor source → controller → LEDs, display, buzzer.

The loop is event-driven: it sleeps in ``poll()`` until the next of

- a descriptor of the source becomes readable (the Pico's serial port: a
  line has come; while the Pico is unplugged, the watch on the folder its
  device appears in) or writable (output was waiting for room);
- the :class:`~maxima_board.service.waker.Waker` is woken: the web page or the
  broadcast queued a command (``BoardFeed.submit``), the computer
  opponent's worker has an answer, a gpiozero callback saw an edge, or a
  signal asked the loop to stop;
- the earliest deadline: the controller's (``next_deadline()``: a move
  settling, a note expiring, a clock's display), the source's (the Pico
  link's loss and reconnect times, the matrix scanner's next scan), the LED
  sink's (the next blink edge when blinking is rendered here), the board
  link's start-up wait, a failed driver's retry, and the systemd watchdog
  (half its timeout).

Each wake-up is one pass (:meth:`Runner.step`): read the source, hand the
controller what changed (the occupied squares on every change, button
*presses* — edges of ``BoardState.buttons`` — one by one), run at most a
few queued web commands, let time pass with ``on_tick``, then show the LED
map and, when they changed, the display lines. A source that can say
nothing of its timing (no ``next_deadline``), and a controller without
``next_deadline``, are polled every ``period_ms``.

The clock is injectable (:class:`Clock`), so tests run hours of play
without sleeping: :class:`FakeClock` moves time on instead of waiting, in
steps of ``step_ms`` while there are descriptors to look at. Under systemd
(``Type=notify``) the loop reports ``READY=1`` once running, ``WATCHDOG=1``
at half the watchdog timeout and the status bar as ``STATUS=``. A failing
display or LED driver is reported once and retried every second; it never
stops the game.

A source with a board link (``link_ok``, as the Pico's) starts with the link
down. Until it has been up once it is *connecting*, not lost: the controller
keeps waiting for the board, and hears of a lost link only if none has come
up ``LINK_WAIT_MS`` after start. Once the link has been up, every change is
passed on at once.

What the loop asks of its parts, beyond the interfaces of maxima_board.devices.interfaces,
all optional: ``source.next_deadline(now_ms)`` and ``source.descriptors()``
(``(readable fds, writable fds)``, None while it cannot be waited on),
``source.set_at_rest(bool)`` (told after every change whether the board
stands as the controller's ``expected_squares``: a scanner may then look
less often), ``leds.next_deadline(now_ms)``, ``controller.next_deadline()``
and ``set_waker(wake)`` on the controller, the source and the feed.
"""
from __future__ import annotations

import select
import sys
import time
from typing import Callable, Iterable, Protocol, TextIO

from maxima_board.devices.interfaces import Display, LedSink, SensorSource, poll_masks
from maxima_board.devices.notify import Notifier

from .waker import Waker

RETRY_MS = 1000
LINK_WAIT_MS = 1000   # board.md: no line for 1 s is a lost link; from start-up too
FEED_PER_PASS = 8     # web commands run per pass at most; the rest wake the loop again at once


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

    def wait(self, poller: "select.poll", timeout_ms: int | None) -> list[int]:
        """Sleep until a descriptor of ``poller`` is ready or ``timeout_ms``
        (None: no limit) have passed; the ready descriptors."""
        return [fd for fd, _ in poller.poll(timeout_ms)]


class FakeClock:
    """A clock that moves only when slept on (tests, replays). ``on_sleep``
    is called with the new time after every sleep, to script the world.

    It cannot be woken by a descriptor, so while the loop waits on some it
    moves on ``step_ms`` at a time and looks at them after each step
    (``step_ms`` None: straight to the timeout). With no timeout at all it
    moves on ``idle_ms``, so a ``stop`` condition is looked at."""

    def __init__(self, start_ms: int = 0, on_sleep: Callable[[int], None] | None = None,
                 step_ms: int | None = 10, idle_ms: int = 60_000):
        self.now = start_ms
        self.on_sleep = on_sleep
        self.step_ms = step_ms
        self.idle_ms = idle_ms
        self.sleeps = 0

    def now_ms(self) -> int:
        return self.now

    def sleep_ms(self, ms: int) -> None:
        self.now += max(ms, 1)
        self.sleeps += 1
        if self.on_sleep is not None:
            self.on_sleep(self.now)

    def wait(self, poller: "select.poll", timeout_ms: int | None) -> list[int]:
        ready = poller.poll(0)
        left = self.idle_ms if timeout_ms is None else timeout_ms
        while not ready and left > 0:
            step = left if self.step_ms is None else min(self.step_ms, left)
            self.sleep_ms(step)
            left -= step
            ready = poller.poll(0)
        return [fd for fd, _ in ready]


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

    def retry_at(self) -> int | None:
        return None if self.failed_at is None else self.failed_at + RETRY_MS


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

    def next_deadline(self) -> int | None:
        """When a board still connecting is to be reported lost."""
        if self._start is None or self._was_up or self.reported is not None:
            return None
        return self._start + self.wait_ms


class Runner:
    """Glues a :class:`SensorSource`, :class:`LedSink`, :class:`Display` and
    an optional beeper to a ``maxima_board.board.core.Controller`` (or anything
    with its ``on_frame``/``on_button``/``on_tick``/``set_link``/
    ``next_deadline``/``leds``/``display``: the opponent and board layers,
    a guard around it)."""

    def __init__(self, controller, source: SensorSource, leds: LedSink, display: Display,
                 beeper=None, *, clock: Clock | None = None, period_ms: int = 10,
                 notifier: Notifier | None = None, log: TextIO | None = None, feed=None):
        self.waker = Waker()
        self.controller = controller
        self.source = source
        self.leds = leds
        self.display = display
        self.beeper = beeper
        self.clock = clock or SystemClock()
        self.period_ms = period_ms            # the poll period of a source that cannot say when
        self.notifier = notifier or Notifier.from_env()
        self.log = log or sys.stderr
        self.events: list[dict] = []          # every controller event, in order
        self.passes = 0                       # loop passes (wake-ups) so far
        self.feed = feed                      # maxima_board.service.feed.BoardFeed: web page, broadcast
        self._squares: frozenset[str] | None = None
        self._buttons: frozenset[str] = frozenset()
        self._link = LinkWatch()
        self._problem: str | None = None
        self._lines: list[str] | None = None   # the lines the display shows
        self._shown: tuple[dict[str, str], list[str]] | None = None   # the controller's LEDs and lines
        self._due_at: int | None = None       # the controller's next deadline
        self._stop = False
        self._led_guard = _Guarded("LEDs", self.log)
        self._display_guard = _Guarded("display", self.log)
        self._beeper_guard = _Guarded("buzzer", self.log)
        self._poller = select.poll()
        self._maybe_woken = True               # the waker may have been woken: drain it
        self._polled: dict[int, int] = {}
        for part in (controller, source, leds):
            set_waker = getattr(part, "set_waker", None)
            if callable(set_waker):
                set_waker(self.waker.wake)

    @property
    def feed(self):
        return self._feed

    @feed.setter
    def feed(self, feed) -> None:
        self._feed = feed
        if feed is not None and callable(getattr(feed, "set_waker", None)):
            feed.set_waker(self.waker.wake)

    # -- one pass -------------------------------------------------------------
    def step(self, now_ms: int, woken: bool = True) -> None:
        """Read, decide, show: one pass of the loop at ``now_ms``.

        ``woken`` False (the loop's own passes that only the source's
        schedule or a line from the Pico brought): unless something changed
        or the controller's deadline has come, the controller is not asked
        again; the LEDs are shown as they were (the sink renders blinks, the
        Pico link does its own work)."""
        self.passes += 1
        seen = len(self.events)
        state = self.source.read(now_ms)
        link = getattr(self.source, "link_ok", None)
        if link is not None:
            change = self._link.update(bool(link), now_ms)
            problem = getattr(self.source, "link_problem", None)
            if change is not None or (self._link.reported is False and problem != self._problem):
                self._problem = problem
                self._handle(self.controller.set_link(bool(self._link.reported), now_ms, problem))
                woken = True
                if change:
                    self._squares = None      # the controller waits for a fresh frame
        if state is not None:
            if state.squares != self._squares:
                self._squares = state.squares
                self._handle(self.controller.on_frame(now_ms, state.squares))
                woken = True
            pressed = state.buttons - self._buttons
            self._buttons = state.buttons
            for button in sorted(pressed):
                self._handle(self.controller.on_button(now_ms, button))
                woken = True
        if self.feed is not None and self.feed.pending():   # commands from the web page, like buttons
            self._handle(self.feed.pump(self.controller, now_ms, FEED_PER_PASS))
            woken = True
        due = self._due_at
        if woken or self._shown is None or (due is not None and now_ms >= due):
            self._handle(self.controller.on_tick(now_ms))
            if self.feed is not None and (len(self.events) != seen or self.feed.latest is None):
                self.feed.update(self.controller)
            self._shown = (dict(self.controller.leds), list(self.controller.display))
            self._due_at = self._controller_deadline(now_ms)
            self._tell_rest()
        leds, lines = self._shown
        self._led_guard.call(now_ms, lambda: self.leds.show(leds, now_ms))
        if lines != self._lines:
            if self._display_guard.call(now_ms, lambda: self.display.show(lines)):
                self._lines = lines
            if lines:
                self.notifier.set_status(lines[0])

    def _tell_rest(self) -> None:
        """Tell a source that scans (``set_at_rest``) whether the board
        stands exactly as the game expects: then the next change can only
        begin a move, and it may look less often."""
        set_at_rest = getattr(self.source, "set_at_rest", None)
        if set_at_rest is None:
            return
        expected = getattr(self.controller, "expected_squares", None)
        set_at_rest(expected is not None and self._squares is not None and frozenset(expected) == self._squares)

    def _controller_deadline(self, now_ms: int) -> int | None:
        """When the controller wants ``on_tick`` (one that cannot say: at
        every pass, ``period_ms`` apart)."""
        deadline = getattr(self.controller, "next_deadline", None)
        return deadline() if deadline is not None else now_ms + self.period_ms

    def _handle(self, events: Iterable[dict] | None) -> None:
        for event in events or ():
            self.events.append(event)
            sound = sound_for(event)
            if sound and self.beeper is not None:
                self._beeper_guard.call(self.clock.now_ms(), lambda: self.beeper.play(sound))

    # -- when to wake ---------------------------------------------------------
    def next_wake(self, now_ms: int) -> int | None:
        """The time of the next pass if nothing wakes the loop before
        (None: only an event will); ``now_ms`` when work is waiting."""
        if self.feed is not None and self.feed.pending():
            return now_ms
        times = [self._due_at, self._link.next_deadline(), self._led_guard.retry_at(),
                 self._beeper_guard.retry_at()]
        if self._shown is not None and self._lines != self._shown[1]:
            times.append(self._display_guard.retry_at())
        source_deadline = getattr(self.source, "next_deadline", None)
        if source_deadline is None or self._source_descriptors() is None:
            times.append(now_ms + self.period_ms)          # cannot say when: polled
        else:
            times.append(source_deadline(now_ms))
        led_deadline = getattr(self.leds, "next_deadline", None)
        if led_deadline is not None and self.leds is not self.source:
            times.append(led_deadline(now_ms))
        times = [t for t in times if t is not None]
        return max(min(times), now_ms + 1) if times else None   # +1: a stale deadline never spins

    def _source_descriptors(self) -> tuple[Iterable[int], Iterable[int]] | None:
        descriptors = getattr(self.source, "descriptors", None)
        return ((), ()) if descriptors is None else descriptors()

    def _watch(self) -> None:
        """Register exactly the descriptors to wake on now."""
        readable, writable = self._source_descriptors() or ((), ())
        wanted = poll_masks([self.waker.fileno(), *readable], writable)
        for fd in [fd for fd in self._polled if fd not in wanted]:
            self._poller.unregister(fd)
            del self._polled[fd]
        for fd, mask in wanted.items():
            if self._polled.get(fd) != mask:
                self._poller.register(fd, mask)   # registers or modifies
                self._polled[fd] = mask

    def _wait(self, until_ms: int | None) -> None:
        clock = self.clock
        timeout = None if until_ms is None else max(0, until_ms - clock.now_ms())
        wait = getattr(clock, "wait", None)
        if wait is None:                      # a clock that can only sleep
            clock.sleep_ms(self.period_ms if timeout is None else timeout)
            self._maybe_woken = True
            return
        self._watch()
        ready = wait(self._poller, timeout)
        self._maybe_woken = ready is None or self.waker.fileno() in ready

    # -- the loop -------------------------------------------------------------
    def request_stop(self) -> None:
        """Ask the loop to end after the current pass (signal handlers)."""
        self._stop = True
        self.waker.wake()

    def run(self, stop: Callable[[int], bool] | None = None, until_ms: int | None = None) -> None:
        """Loop until ``stop(now_ms)`` is true (looked at on every pass),
        the clock reaches ``until_ms``, or :meth:`request_stop`."""
        clock = self.clock
        interval = self.notifier.watchdog_interval_ms
        next_watchdog = clock.now_ms()
        ready = False
        self._maybe_woken = True
        while not self._stop:
            now = clock.now_ms()
            if (stop is not None and stop(now)) or (until_ms is not None and now >= until_ms):
                break
            # drained before the pass: a wake during it makes the next wait return at once
            woken = self.waker.drain() if self._maybe_woken else False
            self.step(now, woken)
            if not ready:
                self.notifier.ready(" ".join(self._lines[0].split()) if self._lines else "running")
                ready = True
            if interval is not None and now >= next_watchdog:
                self.notifier.watchdog()
                next_watchdog = now + interval
            if self._stop:
                break
            times = [t for t in (self.next_wake(now), until_ms,
                                 next_watchdog if interval is not None else None) if t is not None]
            self._wait(min(times) if times else None)
        self.notifier.stopping()

    def close(self) -> None:
        self.waker.close()


def sound_for(event: dict) -> str | None:
    """The buzzer sound for a controller event: ``accepted`` for a committed
    move, ``error`` when the board went wrong, else None."""
    kind = event.get("type")
    if kind in ("move", "suicide", "takeback"):
        return "accepted"
    if kind == "error":
        return "error"
    return None
