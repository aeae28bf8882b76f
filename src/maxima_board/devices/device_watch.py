"""Waiting for a device node to appear, without a timer: Linux inotify.

A :class:`DeviceWatch` watches, for each path pattern it is given (a plain
path such as ``/dev/ttyACM0`` or a glob such as
``/dev/serial/by-id/*MicroPython*``), the folder the device will appear in.
When that folder does not exist yet (udev removes ``/dev/serial/by-id``
while no serial device is plugged in) it watches the nearest folder above
it that does, and moves down as the missing folders appear. Its descriptor
becomes readable when an entry is created or moved into a watched folder,
or a watched folder goes away; :meth:`DeviceWatch.drain` takes the events
and arms the watches again for the folders as they are now.

The watch only says *something changed*: whether the device is there now
is for the caller to check after :meth:`arm` or :meth:`drain`, so that
nothing that happens between the two is missed.

Where inotify is not available (not Linux, inotify_init fails, no more
watches) or a pattern has a glob in a folder's name (a watch cannot follow
it), :meth:`DeviceWatch.open` gives None, or :meth:`arm` False: the caller
then looks on a timer.
"""
from __future__ import annotations

import glob
import logging
import os
from typing import Iterable

try:
    from inotify_simple import INotify, flags
except (ImportError, OSError) as e:   # not installed, or not Linux (no termios/fcntl, no libc)
    INotify = None                    # type: ignore[assignment,misc]
    _NO_INOTIFY = f"{type(e).__name__}: {e}"

log = logging.getLogger(__name__)

if INotify is not None:
    #: An entry appearing (created, or renamed into place as udev does with
    #: its symlinks), or the watched folder itself going away.
    EVENTS = (flags.CREATE | flags.MOVED_TO | flags.DELETE_SELF | flags.MOVE_SELF
              | flags.ONLYDIR)


def folder_to_watch(pattern: str) -> str | None:
    """The existing folder to watch for ``pattern`` to appear: its own
    folder, else the nearest one above it that exists. None when a folder
    name holds a glob (no single folder to watch)."""
    folder = os.path.dirname(os.path.abspath(pattern))
    if glob.has_magic(folder):
        return None
    while not os.path.isdir(folder):
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent
    return folder


class DeviceWatch:
    """An inotify descriptor watching where ``patterns`` will appear."""

    def __init__(self, inotify: "INotify", patterns: Iterable[str]) -> None:
        self._inotify = inotify
        self.patterns = tuple(patterns)
        self._watches: dict[int, str] = {}    # watch descriptor -> folder
        self.armed = False                    # watching every pattern's folder

    @classmethod
    def open(cls, patterns: Iterable[str]) -> "DeviceWatch | None":
        """A watch for ``patterns``, or None where inotify cannot serve them."""
        patterns = tuple(patterns)
        if INotify is None:
            log.info("no inotify (%s): the device is looked for on a timer", _NO_INOTIFY)
            return None
        if any(glob.has_magic(os.path.dirname(p)) for p in patterns):
            return None
        try:
            return cls(INotify(nonblocking=True), patterns)
        except (OSError, AttributeError) as e:   # no inotify_init1 in this libc, or no more instances
            log.info("no inotify (%s): the device is looked for on a timer", e)
            return None

    def fileno(self) -> int:
        return self._inotify.fileno()

    @property
    def folders(self) -> tuple[str, ...]:
        """The folders watched now."""
        return tuple(sorted(set(self._watches.values())))

    def arm(self) -> bool:
        """Watch the folders where the patterns will appear, as they exist
        now (and no others). False when one cannot be watched: the caller
        must look on a timer instead."""
        wanted: dict[int, str] = {}
        for pattern in self.patterns:
            watched = self._watch_folder(pattern)
            if watched is None:
                self.disarm()
                return False
            wd, folder = watched
            wanted[wd] = folder
        for wd in set(self._watches) - set(wanted):
            self._remove(wd)
        self._watches = wanted
        self.armed = True
        return True

    def _watch_folder(self, pattern: str, tries: int = 3) -> tuple[int, str] | None:
        """Watch the folder where ``pattern`` will appear: (watch
        descriptor, folder), or None when it cannot be watched."""
        for _ in range(tries):
            folder = folder_to_watch(pattern)
            if folder is None:
                return None
            try:
                return self._inotify.add_watch(folder, EVENTS), folder
            except FileNotFoundError:          # removed since we looked: look again
                continue
            except OSError as e:               # no permission, no more watches (ENOSPC)
                log.info("cannot watch %s (%s): the device is looked for on a timer", folder, e)
                return None
        return None

    def drain(self) -> bool:
        """Take the events that came (True if any) and, if some came, arm
        again, so that a folder that appeared is watched from now on
        (``armed`` says whether that worked). The caller checks for the
        device after this."""
        events = []
        while True:
            try:
                got = self._inotify.read(timeout=0)
            except BlockingIOError:
                got = []
            if not got:
                break
            events += got
        if not events:
            return False
        for event in events:
            if event.mask & flags.IGNORED:     # the kernel dropped this watch (folder gone)
                self._watches.pop(event.wd, None)
        self.arm()
        return True

    def disarm(self) -> None:
        """Watch nothing (the device is open): the descriptor stays quiet."""
        for wd in list(self._watches):
            self._remove(wd)
        self._watches = {}
        self.armed = False
        try:                                   # events already queued are of no interest now
            while self._inotify.read(timeout=0):
                pass
        except (BlockingIOError, OSError, ValueError):
            pass

    def _remove(self, wd: int) -> None:
        try:
            self._inotify.rm_watch(wd)
        except OSError:                        # already gone with its folder
            pass

    def close(self) -> None:
        self._watches = {}
        self.armed = False
        self._inotify.close()
