"""systemd's notify protocol, spoken directly (no extra dependency).

Under a ``Type=notify`` unit systemd sets ``$NOTIFY_SOCKET`` to a unix
datagram socket (a path, or an abstract name starting with "@"); each
datagram holds newline-separated ``KEY=VALUE`` assignments such as
``READY=1``, ``WATCHDOG=1`` or ``STATUS=...``. ``$WATCHDOG_USEC`` gives the
watchdog timeout (the unit's ``WatchdogSec``); pinging at half of it is
customary. Without ``$NOTIFY_SOCKET`` every call does nothing.
"""
from __future__ import annotations

import os
import socket
from typing import Mapping


class Notifier:
    """Sends notify messages to systemd, or nothing when not under systemd."""

    def __init__(self, address: str | None = None, watchdog_usec: int | None = None):
        self.address = address
        self.watchdog_usec = watchdog_usec
        self._sock: socket.socket | None = None
        self.status: str | None = None

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> "Notifier":
        environ = os.environ if environ is None else environ
        usec = environ.get("WATCHDOG_USEC", "")
        pid = environ.get("WATCHDOG_PID", "")
        watchdog = int(usec) if usec.isdigit() and (not pid or pid == str(os.getpid())) else None
        return cls(environ.get("NOTIFY_SOCKET") or None, watchdog)

    @property
    def enabled(self) -> bool:
        return self.address is not None

    @property
    def watchdog_interval_ms(self) -> int | None:
        """How often to send WATCHDOG=1 (half the timeout), or None."""
        if not self.enabled or not self.watchdog_usec:
            return None
        return max(1, self.watchdog_usec // 2000)

    def send(self, **fields: str | int) -> bool:
        """Send ``KEY=VALUE`` lines (``send(READY=1, STATUS="...")``);
        False when not under systemd or the message could not go out."""
        if not self.enabled or not fields:
            return False
        message = "\n".join(f"{key}={value}" for key, value in fields.items()).encode()
        address = self.address
        if address.startswith("@"):
            address = "\0" + address[1:]
        try:
            if self._sock is None:
                self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
            # never wait for systemd: a full queue loses this message, not the board's time
            self._sock.sendto(message, socket.MSG_DONTWAIT, address)
        except OSError:
            return False
        return True

    def ready(self, status: str | None = None) -> bool:
        return self.send(READY=1, **({"STATUS": status} if status else {}))

    def watchdog(self) -> bool:
        return self.send(WATCHDOG=1)

    def set_status(self, status: str) -> bool:
        """STATUS=, sent only when it changed."""
        status = " ".join(status.split())
        if status == self.status:
            return False
        self.status = status
        return self.send(STATUS=status)

    def stopping(self) -> bool:
        return self.send(STOPPING=1)

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None
