"""The board's PIN: anything that changes the board from the network needs it.

One random PIN per board, kept in the file ``web-pin`` beside the games
database (mode 0600), so it survives restarts and is shown on the OLED
(MENU → "Show web PIN?"). A throw-away database (``:memory:``) gets a PIN
that lives as long as the process.
"""
from __future__ import annotations

import hmac
import os
import secrets
import time
from typing import Callable

PIN_FILE = "web-pin"
PIN_DIGITS = 6
MAX_FAILURES = 5          # wrong PINs in a row before the form is locked
LOCK_S = 30.0             # first lock; doubles with each further wrong PIN


def new_pin(digits: int = PIN_DIGITS) -> str:
    """A random PIN of ``digits`` (4 to 6) decimal digits."""
    if not 4 <= digits <= 6:
        raise ValueError(f"a PIN has 4 to 6 digits, not {digits}")
    return f"{secrets.randbelow(10 ** digits):0{digits}d}"


def valid_pin(text: str) -> bool:
    return 4 <= len(text) <= 6 and text.isascii() and text.isdigit()


def pin_path(db_path: str) -> str | None:
    """Where the PIN of the board whose games are in ``db_path`` is kept."""
    if db_path == ":memory:" or db_path.startswith("file::memory:"):
        return None
    return os.path.join(os.path.dirname(os.path.abspath(db_path)), PIN_FILE)


def board_pin(db_path: str) -> str:
    """The board's PIN: read from beside the database, or made and stored
    there the first time. A PIN file that does not hold a PIN is replaced."""
    path = pin_path(db_path)
    if path is None:
        return new_pin()
    try:
        with open(path, encoding="ascii") as f:
            text = f.read().strip()
        if valid_pin(text):
            return text
    except (FileNotFoundError, UnicodeDecodeError):
        pass
    except OSError as exc:
        raise OSError(f"cannot read the web PIN {path}: {exc.strerror or exc}") from None
    pin = new_pin()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = f"{path}.tmp-{os.getpid()}"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as f:
        f.write(pin + "\n")
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    return pin


class PinGuard:
    """Checks PINs; after ``MAX_FAILURES`` wrong ones in a row every check
    is refused for a while (``LOCK_S``, doubling), so the PIN cannot be
    guessed by trying them all."""

    def __init__(self, pin: str, clock: Callable[[], float] = time.monotonic):
        self.pin = pin
        self._clock = clock
        self._failures = 0
        self._locked_until = 0.0

    def locked_for(self) -> float:
        """Seconds until PINs are checked again (0: not locked)."""
        return max(0.0, self._locked_until - self._clock())

    def check(self, given: str) -> bool:
        """True for the right PIN while not locked."""
        if self.locked_for() > 0:
            return False
        if hmac.compare_digest(given.strip().encode(), self.pin.encode()):
            self._failures = 0
            return True
        self._failures += 1
        if self._failures >= MAX_FAILURES:
            self._locked_until = self._clock() + LOCK_S * 2 ** (self._failures - MAX_FAILURES)
        return False
