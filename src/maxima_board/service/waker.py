"""Waking the board's loop from another thread.

The loop sleeps in ``poll()`` on its descriptors (the Pico's serial port and
this waker's). Other threads — the web page's and the broadcast's, the
computer opponent's worker, gpiozero's callback thread — call
:meth:`Waker.wake` after they have queued something for the loop; the loop
wakes at once, drains the waker and looks at its queues. Wakes coalesce:
a hundred calls before the loop gets round to it are one wake-up.

Linux has ``eventfd`` for this; elsewhere a non-blocking pipe does the same.
"""
from __future__ import annotations

import os


class Waker:
    """A descriptor that becomes readable when :meth:`wake` is called."""

    def __init__(self) -> None:
        self._write_fd: int | None = None
        if hasattr(os, "eventfd"):
            self._fd = os.eventfd(0, os.EFD_NONBLOCK | os.EFD_CLOEXEC)
        else:   # pragma: no cover - not Linux
            self._fd, self._write_fd = os.pipe()
            for fd in (self._fd, self._write_fd):
                os.set_blocking(fd, False)
        self.wakes = 0          # wake() calls, for diagnostics and tests

    def fileno(self) -> int:
        return self._fd

    def wake(self) -> None:
        """Make the descriptor readable (thread-safe, never blocks)."""
        self.wakes += 1
        try:
            if self._write_fd is None:
                os.eventfd_write(self._fd, 1)
            else:   # pragma: no cover - not Linux
                os.write(self._write_fd, b"\0")
        except (BlockingIOError, OSError):   # full (already awake) or closed (shutting down)
            pass

    def drain(self) -> bool:
        """Take the wakes seen so far (True if there were any); the
        descriptor is quiet again."""
        woken = False
        try:
            if self._write_fd is None:
                woken = os.eventfd_read(self._fd) > 0
            else:   # pragma: no cover - not Linux
                while os.read(self._fd, 4096):
                    woken = True
        except (BlockingIOError, OSError):
            pass
        return woken

    def __del__(self) -> None:   # a runner dropped without close() must not leak its descriptor
        self.close()

    def close(self) -> None:
        for fd in (self._fd, self._write_fd):
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self._fd, self._write_fd = -1, None    # a later wake() must not hit a reused number
