"""The open connections of a web server (``httpbase.WebServer``), counted
per client so that a handful of addresses cannot take them all.

Every connection goes through a :class:`Gate` (an ``asyncio.Protocol`` in
front of aiohttp's own). :class:`Connections` admits it or not, and knows
which connections are *idle*: no request in progress (a keep-alive
connection waiting for its next request, or one whose request head is
still arriving, as slowloris sends it). The request guard tells it when a
request starts and ends (:meth:`Connections.begin`, :meth:`Connections.end`,
by the request's transport).

Admission (:meth:`Connections.admit`), for a client (``client_key``) that
holds ``n`` connections:

* ``n`` at ``max_per_client``: its own oldest idle connection is closed
  to make room, else it is refused;
* all ``max_connections`` open: the oldest idle connection of the client
  holding the most (and more than ``n``) is closed to make room, else it
  is refused.

A refused connection is answered 503 and closed at once. A connection
that sends more than ``max_bytes`` between the end of one request and the
end of the next (its head and body) is closed: a head of half a megabyte,
or a body that never ends, costs the server at most that much memory.
"""
from __future__ import annotations

import asyncio
import time
from typing import Callable

REFUSED = (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\nContent-Length: 34\r\n"
           b"Connection: close\r\n\r\ntoo many connections: try again.\r\n")
TOO_BIG = (b"HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Type: text/plain\r\n"
           b"Content-Length: 19\r\nConnection: close\r\n\r\nrequest too large.\n")


class Gate(asyncio.Protocol):
    """One connection: counted by ``connections`` (refused past the caps:
    503 and closed at once, its descriptor freed), else handed to aiohttp's
    protocol ``inner``. It counts the bytes received since its last request
    ended and closes the connection past ``connections.max_bytes``."""

    def __init__(self, connections: "Connections", inner: asyncio.Protocol):
        self.connections = connections
        self.inner: asyncio.Protocol | None = inner
        self.key = "?"
        self.transport: asyncio.Transport | None = None
        self.busy = 0                        # requests in progress
        self.idle_since = time.monotonic()   # when the last request ended (or the connection began)
        self.received = 0                    # bytes since then
        self.counted = False                 # holds a place in the caps
        self.shut = False                    # sent too much: nothing more is read

    @property
    def idle(self) -> bool:
        """No request in progress, and not closing."""
        return (self.busy == 0 and self.counted and self.transport is not None
                and not self.transport.is_closing())

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        peer = transport.get_extra_info("peername")
        self.key = self.connections.key_of(str(peer[0])) if peer else "?"
        self.transport = transport
        if not self.connections.admit(self):
            self.inner = None
            try:
                transport.write(REFUSED)
            finally:
                transport.close()
            return
        assert self.inner is not None
        self.inner.connection_made(transport)

    def connection_lost(self, exc: Exception | None) -> None:
        self.connections.release(self)
        if self.inner is not None:
            self.inner.connection_lost(exc)
            self.inner = None

    def data_received(self, data: bytes) -> None:
        if self.inner is None or self.shut:
            return
        self.received += len(data)
        if self.received > self.connections.max_bytes:
            self.connections.too_big(self)
            return
        self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received() if self.inner is not None else None

    def pause_writing(self) -> None:
        if self.inner is not None:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.inner is not None:
            self.inner.resume_writing()

    def close(self) -> None:
        """Close the connection (made room for another client's)."""
        if self.transport is not None:
            self.transport.close()


class Connections:
    """The caps of one server (module docstring); the server's loop only.
    ``key_of(address)`` is the client an address counts for; ``log`` gets
    one line for a refused or closed connection (rate-limited by the caller)."""

    def __init__(self, name: str, max_connections: int, max_per_client: int, max_bytes: int,
                 key_of: Callable[[str], str], log: Callable[[str], None]):
        self.name = name
        self.max_connections = max_connections
        self.max_per_client = max_per_client
        self.max_bytes = max_bytes
        self.key_of = key_of
        self.log = log
        self.connections = 0        # counted (open) connections
        self.refused = 0            # connections refused so far
        self.closed_for_room = 0    # idle connections closed to let another in
        self._open: dict[str, int] = {}
        self._gates: dict[asyncio.BaseTransport, Gate] = {}   # oldest first

    # -- admission -------------------------------------------------------------
    def admit(self, gate: Gate) -> bool:
        """Count ``gate`` in (closing an idle connection to make room where
        the module docstring says); False: refuse it."""
        key = gate.key
        held = self._open.get(key, 0)
        victim = None
        if held >= self.max_per_client:
            victim = self._oldest_idle(lambda g: g.key == key)
        elif self.connections >= self.max_connections:
            victim = self._fair_victim(held)
        if (held >= self.max_per_client or self.connections >= self.max_connections) and victim is None:
            self.refused += 1
            if self.refused in (1, 10, 100) or self.refused % 1000 == 0:
                self.log(f"web: {self.name}: connection refused from {key} "
                         f"({self.connections} open; {self.refused} refused so far)")
            return False
        if victim is not None:
            self.closed_for_room += 1
            self.release(victim)
            victim.close()
        self.connections += 1
        self._open[key] = self._open.get(key, 0) + 1
        gate.counted = True
        assert gate.transport is not None
        self._gates[gate.transport] = gate
        return True

    def _oldest_idle(self, which: Callable[[Gate], bool]) -> Gate | None:
        found = None
        for gate in self._gates.values():
            if gate.idle and which(gate) and (found is None or gate.idle_since < found.idle_since):
                found = gate
        return found

    def _fair_victim(self, held: int) -> Gate | None:
        """The oldest idle connection of the client holding the most
        connections, more than ``held`` (else of the next such client)."""
        found = None
        for gate in self._gates.values():
            count = self._open.get(gate.key, 0)
            if count <= held or not gate.idle:
                continue
            if found is None or (count, -gate.idle_since) > (self._open.get(found.key, 0), -found.idle_since):
                found = gate
        return found

    def release(self, gate: Gate) -> None:
        """``gate`` no longer counts (closed, or closing to make room)."""
        if not gate.counted:
            return
        gate.counted = False
        if gate.transport is not None:
            self._gates.pop(gate.transport, None)
        self.connections -= 1
        left = self._open.get(gate.key, 1) - 1
        if left > 0:
            self._open[gate.key] = left
        else:
            self._open.pop(gate.key, None)

    def too_big(self, gate: Gate) -> None:
        """``gate`` sent more than ``max_bytes`` for one request: closed
        (told so with 431 when no request of it is in progress)."""
        gate.shut = True
        self.log(f"web: {self.name}: {gate.key} sent more than {self.max_bytes} bytes for one request; closed")
        if gate.transport is None:
            return
        if gate.busy == 0:
            gate.transport.write(TOO_BIG)
            gate.transport.close()
        else:
            gate.transport.abort()

    # -- requests in progress (the request guard) -----------------------------------
    def begin(self, transport: asyncio.BaseTransport | None) -> Gate | None:
        """A request of the connection on ``transport`` is being handled."""
        gate = self._gates.get(transport) if transport is not None else None
        if gate is not None:
            gate.busy += 1
        return gate

    def end(self, gate: Gate | None) -> None:
        """That request is done: the connection is idle again, and its byte
        count starts again for the next request."""
        if gate is not None:
            gate.busy = max(0, gate.busy - 1)
            if gate.busy == 0:
                gate.idle_since = time.monotonic()
                gate.received = 0

    def held_by(self, key: str) -> int:
        """Connections open from client ``key``."""
        return self._open.get(key, 0)
