"""Sensor test mode (``maxima-board diag``) for building and debugging a board.

Scans the matrix, lights the LED of every closed switch, and prints one line
per change with the matrix position and what the layout puts there::

    closed  R3 C4  e4
    opened  R9 C4  button ok
    closed  R9 C6  (unused)

On the 10×10 board (11 × 10 matrix) the same lines read e.g. ``closed  R9 C9
j10`` and ``closed  R10 C2  button menu``.

The OLED shows the count of closed switches and the last change. With the
Pico topology the link state is printed when it changes and the link's
counters (lines, CRC drops, reconnects, …) every 5 s when they changed.

Between passes: a source that says when it needs looking at
(``descriptors()`` and ``next_deadline()``: the Pico link) is waited on, like
the board's loop does: until a line comes, its next deadline (or, while the
Pico is unplugged, until its device appears), the next counters line or a
stop. The direct matrix has no such thing to wait on: reed switches in a
matrix cannot raise an interrupt for every change (a column reads closed
while any switch on it is), so it is scanned every ``period_ms``.
"""
from __future__ import annotations

import select
from typing import Callable, Protocol, TextIO

from maxima_board.devices.interfaces import Display, LedSink, SensorSource, poll_masks
from maxima_board.devices.matrix_map import MatrixMap

STATS_MS = 5000      # how often a Pico link's counters are printed (when they changed)


class Wait(Protocol):
    """Sleep until a descriptor of ``poller`` is ready or ``timeout_ms``
    (None: no limit) have passed (``maxima_board.service.runner.SystemClock.wait``)."""

    def __call__(self, poller: "select.poll", timeout_ms: int | None) -> list[int]: ...


def describe(pos: int, matrix_map: MatrixMap) -> str:
    """``R3 C4  e4`` for a matrix position."""
    name = matrix_map.layout.get(pos)
    label = "(unused)" if name is None else name.replace("button:", "button ")
    return f"R{pos // matrix_map.columns} C{pos % matrix_map.columns}  {label}"


def _frame(source: SensorSource, matrix_map: MatrixMap, now_ms: int) -> int | None:
    read_frame = getattr(source, "read_frame", None)
    if read_frame is not None:        # the raw positions, unused ones included
        return read_frame(now_ms)
    state = source.read(now_ms)
    return None if state is None else matrix_map.encode(state)


def _light(leds: LedSink, frame: int, matrix_map: MatrixMap, now_ms: int) -> None:
    closed = [pos for pos in range(matrix_map.positions) if frame >> pos & 1]
    show_positions = getattr(leds, "show_positions", None)
    if show_positions is not None:
        show_positions(closed)
    else:
        names = (matrix_map.layout.get(pos, "") for pos in closed)
        leds.show({n: "setup-missing" for n in names if n and not n.startswith("button:")}, now_ms)


def run_diag(source: SensorSource, leds: LedSink, display: Display, matrix_map: MatrixMap,
             out: TextIO, now_ms: Callable[[], int], sleep_ms: Callable[[int], None],
             seconds: float | None = None, period_ms: int = 10,
             stop: Callable[[], bool] = lambda: False, wait: Wait | None = None,
             wake_fd: int | None = None) -> int:
    """Run the sensor test until ``seconds`` have passed (forever if None)
    or ``stop()``; return the number of changes seen.

    With ``wait``, a source that says when it needs looking at is waited on
    (module docstring), and ``wake_fd`` (a ``maxima_board.service.waker.Waker``'s,
    woken only by whoever makes ``stop()`` true) ends a wait; other
    sources, and every source without ``wait``, are looked at every
    ``period_ms``."""
    start = now_ms()
    end = None if seconds is None else start + int(seconds * 1000)
    previous: int | None = None
    changes = 0
    last = "close a switch"
    link: bool | None = None
    stats_shown: dict | None = None
    next_stats = start + STATS_MS
    print("diag: close a switch to see its matrix position; Ctrl-C ends", file=out, flush=True)
    display.show(["Sensor test", "waiting for a scan", "", ""])
    while not stop():
        now = now_ms()
        if end is not None and now >= end:
            break
        frame = _frame(source, matrix_map, now)
        ok = getattr(source, "link_ok", None)
        if ok is not None and ok != link:
            why = getattr(source, "last_error", None)
            if ok:
                text = "link up"
            elif link is None and not why:
                text = "link connecting"
            else:
                text = f"link down ({why})" if why else "link down"
            link = ok
            print(text, file=out, flush=True)
        if now >= next_stats:
            stats_shown = _print_stats(source, stats_shown, out)
            next_stats = now + STATS_MS
        if frame is not None and frame != previous:
            old = previous or 0
            for pos in range(matrix_map.positions):
                if (frame ^ old) >> pos & 1:
                    last = f"{'closed' if frame >> pos & 1 else 'opened'}  {describe(pos, matrix_map)}"
                    print(last, file=out, flush=True)
                    changes += 1
            previous = frame
            _light(leds, frame, matrix_map, now)
            display.show(["Sensor test", f"{bin(frame).count('1')} switches closed",
                          last.split("  ", 1)[0], last.split("  ", 1)[-1]])
        until = next_stats if end is None else min(next_stats, end)
        if wait is None or not _wait_on_source(source, wait, wake_fd, now, until):
            sleep_ms(period_ms)
    _print_stats(source, stats_shown, out)
    return changes


def _wait_on_source(source: SensorSource, wait: Wait, wake_fd: int | None,
                    now_ms: int, until_ms: int) -> bool:
    """Sleep on the source's descriptors until its next deadline or
    ``until_ms``, whichever comes first; False (at once) when the source
    cannot say when it needs looking at."""
    descriptors = getattr(source, "descriptors", None)
    deadline = getattr(source, "next_deadline", None)
    fds = descriptors() if descriptors is not None and deadline is not None else None
    if fds is None:
        return False
    readable, writable = fds
    poller = select.poll()
    for fd, mask in poll_masks([*readable, *([] if wake_fd is None else [wake_fd])], writable).items():
        poller.register(fd, mask)
    due = deadline(now_ms)
    wake_at = until_ms if due is None else min(due, until_ms)
    wait(poller, max(wake_at - now_ms, 1))        # at least 1 ms: a stale deadline never spins
    return True


def _print_stats(source: SensorSource, shown: dict | None, out: TextIO) -> dict | None:
    """The link counters of a Pico source (``stats``), when they changed."""
    stats = getattr(source, "stats", None)
    if not stats or stats == shown:
        return shown
    print("link " + " ".join(f"{k}={v}" for k, v in stats.items()), file=out, flush=True)
    return dict(stats)
