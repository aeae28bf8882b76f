"""The board's start count, kept in ``broadcast-boot`` beside the games
database: the first half of the order of its broadcast states.

A Raspberry Pi has no real-time clock, so a board restarted before its
clock is set would publish states "older" than the ones it published
before; the dashboard orders a table's states by (start count, the feed's
sequence number) instead, which only ever grows. The first count (no file
yet) is the clock's seconds when the clock looks set, else 1: a board whose
file was lost (a new SD card) still counts past what it published before.
A throw-away database (``:memory:``) has no start count (0).
"""
from __future__ import annotations

import os
import time

BOOT_FILE = "broadcast-boot"
CLOCK_SET = 1_700_000_000      # seconds: a clock before November 2023 is not set


def boot_path(db_path: str) -> str | None:
    if db_path == ":memory:" or db_path.startswith("file::memory:"):
        return None
    return os.path.join(os.path.dirname(os.path.abspath(db_path)), BOOT_FILE)


def next_boot(db_path: str) -> int:
    """One more than the start count stored beside ``db_path``, stored
    (written to a temporary file, synced, renamed). OSError names the file."""
    path = boot_path(db_path)
    if path is None:
        return 0
    try:
        with open(path, encoding="ascii") as f:
            text = f.read(32).strip()
        count = int(text) if text.isdigit() else 0
    except FileNotFoundError:
        now = int(time.time())
        count = now - 1 if now > CLOCK_SET else 0
    except (OSError, UnicodeDecodeError) as exc:
        raise OSError(f"cannot read the start count {path}: {getattr(exc, 'strerror', None) or exc}") from None
    count += 1
    tmp = f"{path}.tmp-{os.getpid()}"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        with os.fdopen(fd, "w", encoding="ascii") as f:
            f.write(f"{count}\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        raise OSError(f"cannot store the start count {path}: {exc.strerror or exc}") from None
    return count
