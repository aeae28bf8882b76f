"""The board's PIN: anything that changes the board from the network needs it.

One random PIN per board, kept in the file ``web-pin`` beside the games
database (mode 0600), so it survives restarts and is shown on the OLED
(MENU → "Show web PIN?"). A throw-away database (``:memory:``) gets a PIN
that lives as long as the process. The file holds no lock: it is written
whole under another name and renamed into place, so a reader never sees
half a PIN, and reading it touches no lock the board holds (the games
database's locks are ``maxima_board.storage.storefile``'s concern).
"""
from __future__ import annotations

import hmac
import os
import secrets
import time
from collections import OrderedDict
from typing import Callable

PIN_FILE = "web-pin"
PIN_DIGITS = 6
MAX_FAILURES = 5          # wrong PINs in a row from one client before it is locked out
LOCK_S = 30.0             # first lock; doubles with each further wrong PIN, up to MAX_LOCK_S
MAX_LOCK_S = 600.0
FORGET_S = 3600.0         # a client's wrong PINs are forgotten this long after its last one
MAX_CLIENTS = 4096        # clients remembered (the oldest forgotten first)


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
    return replace_pin(db_path)


def replace_pin(db_path: str) -> str:
    """A new random PIN for the board, stored beside ``db_path`` (0600,
    written whole or not at all): MENU → "New web PIN?"."""
    pin = new_pin()
    path = pin_path(db_path)
    if path is None:
        return pin
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
    """Checks PINs, per client (an address: ``httpbase.client_key``). After
    ``MAX_FAILURES`` wrong PINs in a row a client is refused for a while
    (``LOCK_S``, doubling with each further wrong PIN, at most
    ``MAX_LOCK_S``), so the PIN cannot be guessed by trying them all; the
    lock ends by itself, and other clients (the player with the PIN read
    off the board) are not locked out. An empty PIN is not a guess: it is
    never counted (:meth:`check` is not to be called with one)."""

    def __init__(self, pin: str, clock: Callable[[], float] = time.monotonic):
        self.pin = pin
        self._clock = clock
        self._clients: OrderedDict[str, tuple[int, float, float]] = OrderedDict()   # failures, locked until, last

    def set_pin(self, pin: str) -> None:
        """A new PIN (MENU → New web PIN?): every lock and count is forgotten."""
        self.pin = pin
        self._clients.clear()

    def _entry(self, client: str) -> tuple[int, float, float]:
        entry = self._clients.get(client)
        if entry is not None and self._clock() - entry[2] > FORGET_S:
            del self._clients[client]
            return (0, 0.0, 0.0)
        return entry or (0, 0.0, 0.0)

    def locked_for(self, client: str = "") -> float:
        """Seconds until this client's PINs are checked again (0: not locked)."""
        return max(0.0, self._entry(client)[1] - self._clock())

    def check(self, given: str, client: str = "") -> bool:
        """True for the right PIN while the client is not locked."""
        if self.locked_for(client) > 0:
            return False
        if hmac.compare_digest(given.strip().encode(), self.pin.encode()):
            self._clients.pop(client, None)
            return True
        now = self._clock()
        failures = self._entry(client)[0] + 1
        locked = 0.0
        if failures >= MAX_FAILURES:
            locked = now + min(MAX_LOCK_S, LOCK_S * 2 ** min(failures - MAX_FAILURES, 16))
        self._clients[client] = (failures, locked, now)
        self._clients.move_to_end(client)
        while len(self._clients) > MAX_CLIENTS:
            self._clients.popitem(last=False)
        return False
