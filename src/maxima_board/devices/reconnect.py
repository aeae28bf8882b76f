"""When the Pico link opens its serial device again (``serial_link.PicoLink``).

After a failed open or a lost link the next attempt waits, the wait doubling
from ``backoff_initial_ms`` up to ``backoff_max_ms``. While the device is
missing (unplugged), its arrival is seen by the device watch (inotify on its
folders, ``device_watch.DeviceWatch``), so the loop sleeps; without a watch,
or with one that cannot be armed, a presence check runs every
``presence_poll_ms`` during the backoff, so a replug is picked up without
waiting out the backoff.
"""
from __future__ import annotations

from typing import Callable

from .device_watch import DeviceWatch


class Reconnect:
    """The link's schedule of open attempts and its watch for the device."""

    def __init__(self, present: Callable[[], bool] | None, watch: DeviceWatch | None,
                 presence_poll_ms: int, backoff_initial_ms: int, backoff_max_ms: int) -> None:
        self.present = present
        self.watch = watch
        self.presence_poll_ms = presence_poll_ms
        self.backoff_initial_ms = backoff_initial_ms
        self.backoff_max_ms = backoff_max_ms
        self.next_attempt_ms: int | None = None     # None: try at the first call
        self.backoff_ms = backoff_initial_ms
        self.was_present = True
        self.last_presence_poll: int | None = None
        self.watching = False                        # waiting on the watch, not on a timer
        self.watch_works = watch is not None and present is not None   # False once arming failed

    def due(self, now: int) -> bool:
        """Time for an open attempt: the device has appeared (the watch saw
        its folder change and it is there), the backoff has run out, or,
        without a watch, the presence check has just found the device."""
        if self.watching:
            return self._appeared(now)
        if self.next_attempt_ms is None or now >= self.next_attempt_ms:
            return True
        if not self.polls_presence():
            return False
        if self.last_presence_poll is not None and now - self.last_presence_poll < self.presence_poll_ms:
            return False
        self.last_presence_poll = now
        was, self.was_present = self.was_present, self.is_present()
        if self.was_present and not was:
            self.backoff_ms = self.backoff_initial_ms
            return True
        return False

    def _appeared(self, now: int) -> bool:
        """Whether the watch brings the device: its folders changed and it
        is there now. A watch that can no longer be armed hands over to the
        timer."""
        assert self.watch is not None
        if not self.watch.drain():
            return False
        if not self.watch.armed:
            self.watching = self.watch_works = False
            self.schedule_retry(now)
            return False
        if not self.is_present():
            return False
        self.watching = False
        self.backoff_ms = self.backoff_initial_ms
        return True

    def device_missing(self, now: int) -> None:
        """The device is missing: wait on the watch (with the presence check
        to tell the device's arrival from other changes in its folder), or
        else on the timer."""
        if self.watch is not None and self.present is not None:
            self.watch_works = self.watch.arm()
            if self.watch_works:
                if not self.is_present():
                    self.watching = True   # armed before looking: an arrival after the look wakes us
                    return
                self.watch.disarm()        # there after all: the timer's attempt opens it
        self.schedule_retry(now)

    def polls_presence(self) -> bool:
        """Whether the device's appearance is looked for on a timer (no
        watch, or one that could not be armed) during the backoff."""
        return self.present is not None and not self.watch_works

    def device_there(self) -> None:
        """The device is there (open, or failing to open): its folder's
        changes are of no interest."""
        self.watching = False
        if self.watch is not None:
            self.watch.disarm()

    def is_present(self) -> bool:
        try:
            return bool(self.present()) if self.present is not None else True
        except Exception:
            return False

    def schedule_retry(self, now: int) -> None:
        """The next attempt after the backoff, which doubles for the one after."""
        self.was_present = self.is_present()
        self.last_presence_poll = now
        self.next_attempt_ms = now + self.backoff_ms
        self.backoff_ms = min(self.backoff_ms * 2, self.backoff_max_ms)

    def link_up(self) -> None:
        """A good line arrived: the next loss starts from the first backoff."""
        self.backoff_ms = self.backoff_initial_ms

    def next_time(self, now_ms: int) -> int:
        """When the next attempt (or presence check) is due, the device not open."""
        times = [self.next_attempt_ms if self.next_attempt_ms is not None else now_ms]
        if self.polls_presence() and self.last_presence_poll is not None:
            times.append(self.last_presence_poll + self.presence_poll_ms)
        return min(times)
