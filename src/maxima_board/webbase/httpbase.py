"""What the board's web page and the club dashboard share: an aiohttp server
in its own thread with its own asyncio loop, hardened for a club's Wi-Fi.

Every network byte is hostile. The server answers only the local network
(:func:`local_client`) and only for its own names (:class:`HostCheck`,
against DNS rebinding); it caps connections (overall and per client
address, an idle connection of the client holding the most closed for a
newcomer: ``connections``), closes a connection that has not sent a whole
request within ``IDLE_S`` (slowloris) or sat idle that long, or that sends
more than ``MAX_REQUEST_BYTES`` for one request, bounds bodies (inflated
ones too), event-stream clients (the oldest stream of the client holding
the most ended for a newcomer) and queued work, and answers a malformed
request with 400 and one log line. Nothing here ever waits on the board's
loop.
"""
from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import resource
import socket
import sys
import threading
import time
import zlib
from importlib import resources
from typing import Any, Awaitable, Callable, Iterable

from aiohttp import web

from .connections import Connections, Gate

MAX_BODY = 16 * 1024
IDLE_S = 10.0              # whole request head within this, and idle keep-alive connections closed after it
BODY_S = 10.0              # a request body must arrive within this
SEND_S = 30.0              # a reply must be taken within this
KEEPALIVE_S = 15.0         # event streams: a comment this often keeps proxies and phones from closing them
MAX_CONNECTIONS = 256      # open connections, all clients (below the default 1,024 descriptors)
MAX_PER_CLIENT = 16        # open connections from one address (a phone's browser opens about 6)
MAX_STREAMS = 64           # event-stream clients at once ...
MAX_STREAMS_PER_CLIENT = 4   # ... and from one address (one per open page)
MAX_REQUEST_BYTES = 32 * 1024   # bytes one request may send: its head and its body (MAX_BODY)
BACKLOG = 128              # connections the kernel holds while the server is busy
RATE = 50.0                # requests a second one client (address) may make ...
BURST = 200                # ... and at once
SLOW_DOWN_S = 1.0          # a client past its rate waits this long for its 429
SWITCH_S = 0.001           # interpreter lock hand-over (sys.setswitchinterval), see WebServer.start
TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
         ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml"}
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self'; "
                               "frame-ancestors 'none'; form-action 'self'",
    "X-Content-Type-Options": "nosniff",
    # same-origin, not no-referrer: with no-referrer a browser sends "Origin: null" on
    # the page's own form post, which would then look like another site's
    "Referrer-Policy": "same-origin",
    "Cache-Control": "no-store",
    "Server": "maxima-board",
}

log = logging.getLogger("webpage.http")


def local_client(address: str, reached_at: str | None = None) -> bool:
    """True for loopback, private (RFC 1918, ULA) and link-local addresses,
    and for a global IPv6 address in the same /64 as ``reached_at`` (the
    board's own address the request came in on: a home network's IPv6
    devices share its prefix): the page is for the club room's network,
    never the internet."""
    ip = _ip(address)
    if ip is None:
        return False
    if ip.is_loopback or ip.is_private or ip.is_link_local:
        return True
    own = _ip(reached_at) if reached_at else None
    return (ip.version == 6 and own is not None and own.version == 6 and own.is_global
            and ipaddress.ip_network(f"{own}/64", strict=False) == ipaddress.ip_network(f"{ip}/64", strict=False))


def _ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        ip = ipaddress.ip_address(text.split("%", 1)[0])
    except ValueError:
        return None
    mapped = getattr(ip, "ipv4_mapped", None)
    return mapped if mapped is not None else ip


def client_key(address: str) -> str:
    """One client for the limits (PIN lock, request rate, connections,
    streams): its whole address, IPv4 or IPv6 (an IPv4-mapped one as IPv4,
    without an IPv6 zone). Not an IPv6 /64: every device of a home or club
    network shares one, and one device must not lock out or crowd out the
    others. A device can make up addresses in its /64; the server-wide caps
    (connections, streams, queued reads and commands) bound what it gains."""
    ip = _ip(address)
    return str(ip) if ip is not None else address


def static_file(package: str, name: str) -> bytes | None:
    """A file of ``<package>/static``; None if there is no such file."""
    if not name or "/" in name or "\\" in name or name.startswith(".") or "\0" in name:
        return None
    try:
        return resources.files(package).joinpath("static", name).read_bytes()
    except (FileNotFoundError, IsADirectoryError, OSError, ValueError):
        return None


class RateLimitedLog:
    """One line per problem, at most ``per_minute`` a minute (a flood of bad
    requests must not fill the journal); then one line saying how many were
    left out."""

    def __init__(self, per_minute: int = 20):
        self.per_minute = per_minute
        self._window = 0.0
        self._count = 0
        self._skipped = 0
        self._lock = threading.Lock()

    def __call__(self, message: str) -> None:
        with self._lock:
            now = time.monotonic()
            if now - self._window >= 60.0:
                if self._skipped:
                    log.warning("web: %d more bad requests in the last minute, not logged", self._skipped)
                self._window, self._count, self._skipped = now, 0, 0
            self._count += 1
            if self._count > self.per_minute:
                self._skipped += 1
                return
        log.warning("%s", message)


bad_request_log = RateLimitedLog()


class RateLimit:
    """Requests per client: a bucket of ``BURST`` that refills at ``RATE``
    a second (the server's loop only). Past it a client gets 429: a phone
    looping on the game list costs the board a short refusal, not a reply."""

    def __init__(self, rate: float | None = None, burst: int | None = None, clients: int = 4096):
        self.rate = rate or RATE
        self.burst = float(burst or BURST)
        self.clients = clients
        self._buckets: dict[str, tuple[float, float]] = {}

    def allow(self, client: str) -> bool:
        now = time.monotonic()
        tokens, then = self._buckets.pop(client, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        allowed = tokens >= 1.0
        self._buckets[client] = (tokens - 1.0 if allowed else tokens, now)
        if len(self._buckets) > self.clients:
            del self._buckets[next(iter(self._buckets))]    # the longest unseen
        return allowed


class _ServerLog(logging.LoggerAdapter):
    """aiohttp's own log of a request it could not parse: one line, no
    traceback; a connection the client closed, a debug line."""

    def exception(self, msg, *args, exc_info=None, **kwargs) -> None:   # type: ignore[override]
        reason = exc_info if isinstance(exc_info, BaseException) else None
        text = msg % args if args else str(msg)
        if isinstance(reason, ConnectionError):   # a client gone mid-reply (a tab closed): no problem of ours
            log.debug("web: %s: %s: %s", text, type(reason).__name__, reason)
            return
        detail = f"{type(reason).__name__}: {reason}" if reason is not None else "malformed request"
        bad_request_log(f"web: {text}: {' '.join(detail.split())[:200]}")


class HostCheck:
    """The names this server answers to (DNS rebinding: a page of another
    site, its name pointed at the board, sends that site's name): the
    board's host name (and ``NAME.local``), ``localhost``, the names given
    (``[web] hosts``), and as IP literals the loopback addresses and the
    address the request came in on."""

    def __init__(self, extra: Iterable[str] = ()):
        name = socket.gethostname().lower().rstrip(".")
        names = {"localhost", "localhost.localdomain", name, f"{name}.local", name.split(".", 1)[0]}
        names |= {h.strip().lower().rstrip(".") for h in extra if h.strip()}
        self.names = frozenset(n for n in names if n)

    @staticmethod
    def hostname(header: str) -> str | None:
        """The host of a Host header (no port, no brackets), or None when it is not one."""
        header = header.strip().lower()
        if header.startswith("["):
            end = header.find("]")
            rest = header[end + 1:]
            if end < 0 or (rest and not (rest[0] == ":" and rest[1:].isdigit())):
                return None
            return header[1:end]
        host, colon, port = header.rpartition(":")
        if not colon:
            host = header
        elif not port.isdigit():
            return None
        return host.rstrip(".") or None

    def allows(self, header: str | None, local_address: str | None) -> bool:
        if not header:
            return False
        host = self.hostname(header)
        if host is None:
            return False
        if host in self.names:
            return True
        ip = _ip(host)
        if ip is None:
            return False
        return ip.is_loopback or (local_address is not None and ip == _ip(local_address))


def reply_bytes(body: bytes, content_type: str, status: int = 200,
                headers: dict[str, str] | None = None) -> web.Response:
    response = web.Response(body=body, status=status, headers={**SECURITY_HEADERS, **(headers or {})})
    response.content_type, _, charset = content_type.partition("; charset=")
    if charset:
        response.charset = charset
    return response


def reply_json(data: object, status: int = 200) -> web.Response:
    return reply_bytes(json.dumps(data).encode(), "application/json", status)


def reply_text(text: str, status: int = 200, content_type: str = "text/plain; charset=utf-8",
               filename: str | None = None) -> web.Response:
    headers = {"Content-Disposition": f'attachment; filename="{filename}"'} if filename else None
    return reply_bytes(text.encode(), content_type, status, headers)


SHARED_STATIC = frozenset({"style.css", "common.js"})   # in maxima_board.webbase/static: both pages use them


def reply_static(package: str, name: str, path: str) -> web.Response:
    body = static_file(package, name)
    if body is None:
        return reply_json({"error": f"no such page: {path}"}, 404)
    return reply_bytes(body, TYPES.get(name[name.rfind("."):], "application/octet-stream"))


def refuse(request: web.Request, status: int, error: str) -> web.Response:
    """A refused request: the reply, and one (rate-limited) log line."""
    log_refused(request, status, error)
    return reply_json({"ok": False, "error": error}, status)


def log_refused(request: web.Request, status: int, error: str) -> None:
    """The one (rate-limited) log line of a request refused with ``status``."""
    bad_request_log(f"web: {status} for {request.remote} {request.method} {request.raw_path[:120]!r}: {error}")


CONNECTIONS = web.AppKey("connections", Connections)   # the server's, set by WebServer before it serves


def _middleware(hosts: HostCheck):
    limit = RateLimit()

    @web.middleware
    async def guard(request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]):
        connections = request.app.get(CONNECTIONS)
        if connections is None:
            return await _guarded(request, handler, hosts, limit)
        gate = connections.begin(request.transport)     # the connection is not idle while this runs
        try:
            return await _guarded(request, handler, hosts, limit)
        finally:
            connections.end(gate)
    return guard


async def _guarded(request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]],
                   hosts: HostCheck, limit: RateLimit) -> web.StreamResponse:
    """The request guard (:func:`_middleware`) of one request."""
    remote = request.remote or ""
    sockname = request.transport.get_extra_info("sockname") if request.transport else None
    if not local_client(remote, sockname[0] if sockname else None):
        return reply_json({"error": "this page answers the local network only"}, 403)
    if not limit.allow(client_key(remote)):
        await asyncio.sleep(SLOW_DOWN_S)      # its connections (MAX_PER_CLIENT) wait, not the board
        return reply_json({"error": "too many requests: slow down"}, 429)
    if not hosts.allows(request.headers.get("Host"), sockname[0] if sockname else None):
        return refuse(request, 421, "this board does not answer to that host name "
                                    "(use its address, or add the name to [web] hosts)")
    path = request.path
    if any(ord(ch) < 32 or ch == "\x7f" for ch in path):
        return refuse(request, 400, "control characters in the path")
    response: web.StreamResponse | None = None
    try:
        response = await handler(request)
        if isinstance(response, web.Response):
            await _send_within(request, response)
        return response
    except web.HTTPException as exc:
        if exc.status >= 400:
            return reply_json({"error": exc.reason}, exc.status)
        raise
    except ConnectionError as exc:
        if request.transport is not None and not request.transport.is_closing():
            raise
        # the client went (a tab closed) while its reply was written: nothing wrong here. The reply
        # goes back to aiohttp, which finds the connection closed and says nothing either.
        log.debug("web: %s went before its reply to %s %s: %s", request.remote, request.method,
                  request.path[:120], type(exc).__name__)
        return response if response is not None else web.Response(status=204)
    except asyncio.CancelledError:
        raise
    except (ValueError, UnicodeError, RecursionError) as exc:
        return refuse(request, 400, f"unreadable request ({type(exc).__name__})")
    except Exception as exc:   # a bug must not cost more than this request
        log.error("web: %s %s failed: %s: %s", request.method, request.path[:120], type(exc).__name__, exc)
        return reply_json({"error": "internal error"}, 500)


async def _send_within(request: web.Request, response: web.Response) -> None:
    """Send the reply now, within ``SEND_S``: a client that does not read
    it (slow read) loses its connection instead of holding it for ever."""
    try:
        async with asyncio.timeout(SEND_S):
            await response.prepare(request)
            await response.write_eof()
    except TimeoutError:
        if request.transport is not None:
            request.transport.abort()
        bad_request_log(f"web: {request.remote} did not take its reply in {SEND_S:.0f} s; closed")


async def read_body(request: web.Request) -> bytes:
    """The request body, at most ``MAX_BODY`` bytes, within ``BODY_S``,
    inflated when it is sent gzip or deflate (:func:`inflate`; the server
    leaves bodies as sent: ``auto_decompress=False``);
    ``web.HTTPRequestEntityTooLarge`` / ``HTTPRequestTimeout`` otherwise, and
    ``HTTPBadRequest`` (with one log line) for a body that does not inflate."""
    raw = await _read_raw(request)
    encoding = request.headers.get("Content-Encoding", "").strip().lower()
    if encoding in ("", "identity"):
        return raw
    try:
        return inflate(raw, encoding)
    except LookupError:
        log_refused(request, 415, f"content encoding {encoding[:40]!r} is not taken")
        raise web.HTTPUnsupportedMediaType(reason="send the body as it is, gzip or deflate") from None
    except ValueError as exc:
        log_refused(request, 400, f"the body does not inflate ({encoding[:20]}): {exc}")
        raise web.HTTPBadRequest(reason=f"the body does not inflate ({encoding[:20]})") from None


def inflate(body: bytes, encoding: str) -> bytes:
    """``body`` inflated (``encoding`` "gzip", "x-gzip" or "deflate": zlib
    or raw), at most ``MAX_BODY`` bytes of it (``HTTPRequestEntityTooLarge``
    past that: a small body may inflate to gigabytes); LookupError for any
    other encoding, ValueError for a body that does not inflate whole."""
    if encoding in ("gzip", "x-gzip"):
        tries = (16 + zlib.MAX_WBITS,)
    elif encoding == "deflate":
        tries = (zlib.MAX_WBITS, -zlib.MAX_WBITS)
    else:
        raise LookupError(encoding)
    why = "empty"
    for wbits in tries:
        inflater = zlib.decompressobj(wbits)
        try:
            out = inflater.decompress(body, MAX_BODY + 1)
        except zlib.error as exc:
            why = str(exc)
            continue
        if len(out) > MAX_BODY:
            raise web.HTTPRequestEntityTooLarge(max_size=MAX_BODY, actual_size=len(out))
        if not inflater.eof:
            why = "cut short"
            continue
        if inflater.unused_data:
            why = "data after its end"
            continue
        return out
    raise ValueError(why)


async def _read_raw(request: web.Request) -> bytes:
    """The request body as sent, at most ``MAX_BODY`` bytes, within ``BODY_S``."""
    if request.content_length is not None and request.content_length > MAX_BODY:
        raise web.HTTPRequestEntityTooLarge(max_size=MAX_BODY, actual_size=request.content_length)
    chunks: list[bytes] = []
    size = 0
    try:
        async with asyncio.timeout(BODY_S):
            while chunk := await request.content.read(MAX_BODY + 1 - size):
                chunks.append(chunk)
                size += len(chunk)
                if size > MAX_BODY:
                    raise web.HTTPRequestEntityTooLarge(max_size=MAX_BODY, actual_size=size)
    except TimeoutError:
        raise web.HTTPRequestTimeout() from None
    return b"".join(chunks)


class _Stream:
    """One live stream: its client, its handler's task, its connection."""

    def __init__(self, key: str, task: asyncio.Task | None, transport: asyncio.BaseTransport | None):
        self.key = key
        self.task = task
        self.transport = transport

    @property
    def gone(self) -> bool:
        """Its connection is closed (a page reloaded): the stream has not noticed yet."""
        return self.transport is None or self.transport.is_closing()

    def end(self) -> None:
        if self.task is not None:
            self.task.cancel()


class EventStreams:
    """Server-sent events for at most ``MAX_STREAMS`` clients. A client waits
    for :meth:`changed` (called in the server's loop); what it sends is what
    ``next_data(state)`` gives it then. A slow client skips states: each
    message is the newest, nothing queues up.

    Room for a new stream (:meth:`_room_for`): a stream whose connection is
    gone is ended first; a client at ``MAX_STREAMS_PER_CLIENT`` is refused
    (503); when all are taken, the oldest stream of the client holding the
    most (more than the newcomer) is ended, else the newcomer is refused."""

    def __init__(self, limit: int | None = None):
        self.limit = limit or MAX_STREAMS
        self.ended_for_room = 0
        self._per_client: dict[str, int] = {}
        self._live: dict[_Stream, None] = {}       # oldest first
        self._version = 0
        self._changed: asyncio.Event | None = None
        self._tasks: set[asyncio.Task] = set()

    @property
    def clients(self) -> int:
        """Streams counted now."""
        return len(self._live)

    async def close(self, app: web.Application | None = None) -> None:
        """End every stream (the server is stopping; an ``on_shutdown`` hook)."""
        for task in list(self._tasks):
            task.cancel()

    def changed(self) -> None:
        self._version += 1
        if self._changed is not None:
            self._changed.set()
            self._changed = None

    async def _wait(self, seen: int, timeout: float) -> int:
        if self._version == seen:
            if self._changed is None:
                self._changed = asyncio.Event()
            event = self._changed
            try:
                await asyncio.wait_for(event.wait(), timeout)
            except TimeoutError:
                pass
        return self._version

    def _drop(self, stream: _Stream) -> None:
        """``stream`` no longer counts (it ended, or is being ended)."""
        if stream in self._live:
            del self._live[stream]
            left = self._per_client.get(stream.key, 1) - 1
            if left > 0:
                self._per_client[stream.key] = left
            else:
                self._per_client.pop(stream.key, None)

    def _room_for(self, key: str) -> bool:
        """Make room for a stream of client ``key`` (class docstring); False: none."""
        for stream in [s for s in self._live if s.gone]:
            self._drop(stream)
            stream.end()
        held = self._per_client.get(key, 0)
        if held >= MAX_STREAMS_PER_CLIENT:
            return False
        if len(self._live) < self.limit:
            return True
        most = max(self._per_client.values(), default=0)
        if most <= held:
            return False
        victim = next(s for s in self._live if self._per_client.get(s.key) == most)
        self._drop(victim)
        victim.end()
        self.ended_for_room += 1
        return True

    async def serve(self, request: web.Request, next_data: Callable[[Any], Awaitable[str | None]],
                    state: Any = None) -> web.StreamResponse:
        """Stream to one client until it goes, the server stops or its
        stream is ended to make room (:meth:`_room_for`). ``next_data`` gets
        ``state`` (the client's own, e.g. what it saw)."""
        key = client_key(request.remote or "")
        if not self._room_for(key):
            return reply_json({"error": "too many live pages open: try again later"}, 503)
        response = web.StreamResponse(headers={**SECURITY_HEADERS, "Content-Type": "text/event-stream",
                                               "X-Accel-Buffering": "no"})
        if request.method == "HEAD":
            await response.prepare(request)
            return response
        task = asyncio.current_task()
        stream = _Stream(key, task, request.transport)
        self._live[stream] = None
        self._per_client[key] = self._per_client.get(key, 0) + 1
        if task is not None:
            self._tasks.add(task)
        try:
            await response.prepare(request)
            await response.write(b"retry: 1000\n\n")
            seen = self._version
            data = await next_data(state)
            while True:
                if data is not None:
                    await asyncio.wait_for(response.write(b"data: " + data.encode() + b"\n\n"), KEEPALIVE_S)
                version = await self._wait(seen, KEEPALIVE_S)
                if version == seen:
                    await asyncio.wait_for(response.write(b": keepalive\n\n"), KEEPALIVE_S)
                    data = None
                    continue
                seen = version
                data = await next_data(state)
        except (ConnectionError, TimeoutError):
            pass
        except asyncio.CancelledError:
            if task is None or task.cancelling() == 0:
                raise
        finally:
            response.force_close()   # an ended stream closes its connection: the page opens a new one
            self._drop(stream)
            self._tasks.discard(task)   # type: ignore[arg-type]
        return response


def _one_line(loop: asyncio.AbstractEventLoop, context: dict) -> None:
    """The server loop's own troubles (out of descriptors in accept, a
    connection that failed): one rate-limited line, no traceback."""
    exc = context.get("exception")
    detail = f": {type(exc).__name__}: {exc}" if exc is not None else ""
    bad_request_log(f"web: {context.get('message', 'error')}{detail}"[:300])


def connection_cap() -> int:
    """``MAX_CONNECTIONS``, or half the process's descriptors if that is
    less: the cap is reached well before ``accept`` runs out of them."""
    try:
        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    except (OSError, ValueError):
        return MAX_CONNECTIONS
    if soft == resource.RLIM_INFINITY:
        return MAX_CONNECTIONS
    return max(8, min(MAX_CONNECTIONS, soft // 2))


class WebServer:
    """``app`` (an ``aiohttp.web.Application``, made by ``make_app`` in the
    server's own loop) on ``host:port`` in a daemon thread. The socket is
    bound at once (OSError saying where), served from :meth:`start`. Its
    connections go through ``caps`` (:class:`~.connections.Connections`:
    ``max_connections``, ``max_per_client``, ``MAX_REQUEST_BYTES``), which
    the request guard tells when a request begins and ends."""

    def __init__(self, make_app: Callable[[], web.Application], host: str, port: int, name: str, *,
                 max_connections: int | None = None, max_per_client: int | None = None,
                 idle_s: float | None = None):
        self.name = name
        self.max_connections = max_connections or connection_cap()
        self.max_per_client = max_per_client or MAX_PER_CLIENT
        self.idle_s = idle_s or IDLE_S
        self._make_app = make_app
        self.caps = Connections(name, self.max_connections, self.max_per_client, MAX_REQUEST_BYTES,
                                client_key, bad_request_log)
        self.sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
        try:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            self.sock.bind((host, port))
        except OSError as exc:
            self.sock.close()
            raise OSError(f"cannot serve the {name} on {host}:{port}: {exc.strerror or exc}") from None
        self.loop: asyncio.AbstractEventLoop | None = None
        self._stopped: asyncio.Event | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)

    @property
    def port(self) -> int:
        return int(self.sock.getsockname()[1])

    # -- connection caps (the server's loop only: ``connections``) ----------------
    @property
    def connections(self) -> int:
        """Connections open now."""
        return self.caps.connections

    @property
    def refused(self) -> int:
        """Connections refused so far (past the caps, no idle one to close)."""
        return self.caps.refused

    # -- the thread ------------------------------------------------------------
    def _run(self) -> None:
        loop = self.loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        loop.set_exception_handler(_one_line)
        try:
            loop.run_until_complete(self._serve())
        except BaseException as exc:   # reported to start()
            self._error = exc
            self._ready.set()
        finally:
            loop.close()

    async def _serve(self) -> None:
        self._stopped = asyncio.Event()
        app = self._make_app()
        app[CONNECTIONS] = self.caps
        # a head: a request line of 4 kB, 32 fields of 8 kB (a browser sends about 15 short
        # ones), and all of it within MAX_REQUEST_BYTES (the gate closes the connection past it)
        runner = web.AppRunner(app, handle_signals=False, access_log=None, keepalive_timeout=self.idle_s,
                               shutdown_timeout=2.0, auto_decompress=False,
                               max_line_size=4096, max_field_size=8190, max_headers=32,
                               logger=_ServerLog(logging.getLogger("aiohttp.server"), {}))
        await runner.setup()
        server = runner.server
        assert server is not None
        listener = await asyncio.get_running_loop().create_server(
            lambda: Gate(self.caps, server()), sock=self.sock, backlog=BACKLOG)
        self._ready.set()
        try:
            await self._stopped.wait()
        finally:
            listener.close()
            await runner.cleanup()

    def start(self) -> "WebServer":
        # The server's thread holds the interpreter lock at most this long
        # when the board's loop wants it (CPython's default: 5 ms).
        sys.setswitchinterval(min(sys.getswitchinterval(), SWITCH_S))
        self._thread.start()
        self._ready.wait(10)
        if self._error is not None:
            raise OSError(f"cannot serve the {self.name}: {self._error}")
        return self

    def call(self, func: Callable[[], None]) -> None:
        """Run ``func`` in the server's loop (from any thread; never waits)."""
        loop = self.loop
        if loop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(func)
            except RuntimeError:    # the loop just closed
                pass

    def close(self) -> None:
        if self._thread.is_alive() and self._stopped is not None:
            self.call(self._stopped.set)
            self._thread.join(10)
        else:
            self.sock.close()


def app_with_guard(hosts: HostCheck, streams: EventStreams | None = None) -> web.Application:
    """An application with the request guard and the body limit; its
    ``streams`` end when the server stops."""
    app = web.Application(middlewares=[_middleware(hosts)], client_max_size=MAX_BODY)
    if streams is not None:
        app.on_shutdown.append(streams.close)
    return app


Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def page_app(hosts: HostCheck, streams: EventStreams | None, *, index: Handler, static: Handler,
             missing: Handler, routes: Iterable[web.RouteDef]) -> web.Application:
    """The shape of the board's page and of the club dashboard: the guard
    (:func:`app_with_guard`), the page at ``/`` and ``/index.html``, its
    files at ``/static/{name}``, the server's own ``routes``, and last
    ``missing`` for every other path (routes match in the order added)."""
    app = app_with_guard(hosts, streams)
    app.router.add_routes([web.get("/", index), web.get("/index.html", index), web.get("/static/{name}", static),
                           *routes, web.route("*", "/{tail:.*}", missing)])
    return app
