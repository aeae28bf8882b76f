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
FORGET_S = 3600.0         # wrong PINs are forgotten this long after the last one (a client's, the board's)
MAX_CLIENTS = 4096        # clients remembered (the oldest forgotten first)
BOARD_FREE = 10           # wrong PINs from anywhere before the board takes one PIN at a time ...
BOARD_WAIT_S = 2.0        # ... at most one every BOARD_WAIT_S, doubling with each further wrong PIN ...
MAX_BOARD_WAIT_S = 60.0   # ... up to this: the 10^6 PINs then take a year to try, from any number of addresses


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


class ClientLocks:
    """Wrong tries per client (``httpbase.client_key``): after
    ``MAX_FAILURES`` in a row the client waits ``LOCK_S`` (doubling with
    each further wrong one, at most ``MAX_LOCK_S``); a client's tries are
    forgotten ``FORGET_S`` after its last, and at most ``MAX_CLIENTS`` are
    kept (the oldest go first). Wrong PINs (:class:`PinGuard`) and wrong
    invitation links (``web/invite.py``) are counted so."""

    def __init__(self, clock: Callable[[], float] = time.monotonic):
        self._clock = clock
        self._clients: OrderedDict[str, tuple[int, float, float]] = OrderedDict()   # failures, locked until, last

    def entry(self, client: str) -> tuple[int, float, float]:
        """``client``'s (wrong tries, locked until, last wrong try)."""
        entry = self._clients.get(client)
        if entry is not None and self._clock() - entry[2] > FORGET_S:
            del self._clients[client]
            return (0, 0.0, 0.0)
        return entry or (0, 0.0, 0.0)

    def wait(self, client: str) -> float:
        """Seconds until ``client`` is listened to again (0 or less: now)."""
        return self.entry(client)[1] - self._clock()

    def right(self, client: str) -> None:
        """``client`` got it right: its wrong tries are forgotten."""
        self._clients.pop(client, None)

    def wrong(self, client: str) -> None:
        """One more wrong try of ``client``."""
        now = self._clock()
        failures = self.entry(client)[0] + 1
        locked = 0.0
        if failures >= MAX_FAILURES:
            locked = now + min(MAX_LOCK_S, LOCK_S * 2 ** min(failures - MAX_FAILURES, 16))
        self._clients[client] = (failures, locked, now)
        self._clients.move_to_end(client)
        while len(self._clients) > MAX_CLIENTS:
            self._clients.popitem(last=False)

    def clear(self) -> None:
        self._clients.clear()


class PinGuard:
    """Checks PINs, per client (an address: ``httpbase.client_key``) and
    for the board as a whole.

    Per client: after ``MAX_FAILURES`` wrong PINs in a row the client is
    refused for a while (``LOCK_S``, doubling with each further wrong PIN,
    at most ``MAX_LOCK_S``); other clients (the player with the PIN read
    off the board) are not locked by it.

    For the board: a guesser with many addresses gets five tries from
    each, so after ``BOARD_FREE`` wrong PINs from anywhere the board
    checks at most one PIN every ``BOARD_WAIT_S`` (doubling with each
    further wrong PIN, at most ``MAX_BOARD_WAIT_S``); a PIN sent sooner is
    refused unchecked. Guessing half the 10^6 PINs then takes
    5·10^5 × 60 s, about a year. The owner is never locked out for long:
    the next PIN after the wait is checked, a right one ends the board's
    wait, and MENU → "New web PIN?" (:meth:`set_pin`) forgets everything.

    Wrong PINs are forgotten ``FORGET_S`` after the last one. An empty PIN
    is not a guess: :meth:`check` is not to be called with one."""

    def __init__(self, pin: str, clock: Callable[[], float] = time.monotonic):
        self.pin = pin
        self._clock = clock
        self._locks = ClientLocks(clock)
        self._board = (0, 0.0, 0.0)     # wrong PINs from anywhere, next PIN checked at, last wrong one
        self.checked = 0                # PINs compared with the board's (right or wrong)

    def set_pin(self, pin: str) -> None:
        """A new PIN (MENU → New web PIN?): every lock and count is forgotten."""
        self.pin = pin
        self._locks.clear()
        self._board = (0, 0.0, 0.0)

    def _board_entry(self) -> tuple[int, float, float]:
        if self._board[0] and self._clock() - self._board[2] > FORGET_S:
            self._board = (0, 0.0, 0.0)
        return self._board

    def locked_for(self, client: str = "") -> float:
        """Seconds until this client's PINs are checked again (0: now)."""
        return max(0.0, self._locks.wait(client), self._board_entry()[1] - self._clock())

    def board_waits(self) -> bool:
        """Whether the board takes one PIN at a time (many wrong ones from anywhere)."""
        return self._board_entry()[0] >= BOARD_FREE

    def refusal(self, client: str = "") -> str | None:
        """Why a PIN from ``client`` would not be checked now, or None."""
        wait = self.locked_for(client)
        if wait <= 0:
            return None
        if self._locks.wait(client) >= wait:
            return f"too many wrong PINs: try again in {wait:.0f} s"
        return (f"too many wrong PINs on this board: the next one is checked in {max(1.0, wait):.0f} s "
                f"(the board's owner can make a new PIN: MENU, New web PIN?)")

    def check(self, given: str, client: str = "") -> bool:
        """True for the right PIN while neither the client nor the board waits."""
        if self.locked_for(client) > 0:
            return False
        self.checked += 1
        if hmac.compare_digest(given.strip().encode(), self.pin.encode()):
            self._locks.right(client)
            self._board = (0, 0.0, 0.0)
            return True
        now = self._clock()
        self._locks.wrong(client)
        wrong = self._board_entry()[0] + 1
        wait_until = 0.0
        if wrong >= BOARD_FREE:
            wait_until = now + min(MAX_BOARD_WAIT_S, BOARD_WAIT_S * 2 ** min(wrong - BOARD_FREE, 16))
        self._board = (wrong, wait_until, now)
        return False
