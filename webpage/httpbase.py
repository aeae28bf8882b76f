"""What the board's web page and the club dashboard share: a threading HTTP
server (standard library) that answers only the local network, JSON and
static-file replies, and server-sent events.
"""
from __future__ import annotations

import ipaddress
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Callable

MAX_BODY = 16 * 1024
KEEPALIVE_S = 15.0
TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
         ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml"}
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self'; "
                               "frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def local_client(address: str) -> bool:
    """True for loopback, private (RFC 1918, ULA) and link-local addresses:
    the page is for the club room's network, never the internet."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    mapped = getattr(ip, "ipv4_mapped", None)
    if mapped is not None:
        ip = mapped
    return ip.is_loopback or ip.is_private or ip.is_link_local


def static_file(package: str, name: str) -> bytes | None:
    """A file of ``<package>/static``; None if there is no such file."""
    if "/" in name or "\\" in name or name.startswith("."):
        return None
    try:
        return resources.files(package).joinpath("static", name).read_bytes()
    except (FileNotFoundError, IsADirectoryError, OSError):
        return None


class Handler(BaseHTTPRequestHandler):
    """Request helpers; subclasses define ``route(method, path, query)``."""

    server_version = "maxima-board"
    closing: threading.Event          # set by the server when it stops
    static_package = "webpage"

    def log_message(self, format: str, *args) -> None:   # quiet: the board's log is for the game
        pass

    def do_GET(self) -> None:
        self._dispatch("GET")

    def do_POST(self) -> None:
        self._dispatch("POST")

    def _dispatch(self, method: str) -> None:
        if not local_client(self.client_address[0]):
            self.send_json({"error": "this page answers the local network only"}, 403)
            return
        path, _, query = self.path.partition("?")
        try:
            self.route(method, path, query)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def route(self, method: str, path: str, query: str) -> None:
        raise NotImplementedError

    # -- replies --------------------------------------------------------------
    def send_bytes(self, body: bytes, content_type: str, status: int = 200,
                   headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        for name, value in {**SECURITY_HEADERS, **(headers or {})}.items():
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def send_json(self, data: object, status: int = 200) -> None:
        self.send_bytes(json.dumps(data).encode(), "application/json", status)

    def send_text(self, text: str, status: int = 200, content_type: str = "text/plain; charset=utf-8",
                  filename: str | None = None) -> None:
        headers = {"Content-Disposition": f'attachment; filename="{filename}"'} if filename else None
        self.send_bytes(text.encode(), content_type, status, headers)

    def send_static(self, name: str) -> None:
        body = static_file(self.static_package, name)
        if body is None:
            self.send_json({"error": f"no such page: {self.path}"}, 404)
            return
        suffix = name[name.rfind("."):]
        self.send_bytes(body, TYPES.get(suffix, "application/octet-stream"))

    def read_body(self) -> bytes | None:
        """The request body, or None (and a 413/400 reply) when too big."""
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            length = -1
        if not 0 <= length <= MAX_BODY:
            self.send_json({"error": "request body missing or too large"}, 413)
            return None
        return self.rfile.read(length)

    def stream_events(self, next_data: Callable[[float], str | None]) -> None:
        """Server-sent events: ``next_data(timeout)`` gives the next event's
        data (one JSON line) or None when nothing came; a comment keeps the
        connection alive. Ends when the client goes or the server stops."""
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Accel-Buffering", "no")
        for name, value in SECURITY_HEADERS.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(b"retry: 1000\n\n")
        self.wfile.flush()
        while not self.closing.is_set():
            data = next_data(1.0)
            if data is not None:
                self.wfile.write(b"data: " + data.encode() + b"\n\n")
                self.wfile.flush()
                self._idle = 0.0
            else:
                self._idle = getattr(self, "_idle", 0.0) + 1.0
                if self._idle >= KEEPALIVE_S:
                    self.wfile.write(b": keepalive\n\n")
                    self.wfile.flush()
                    self._idle = 0.0


class WebServer:
    """A ``ThreadingHTTPServer`` for ``handler`` in a daemon thread."""

    def __init__(self, handler: type[Handler], host: str, port: int, name: str):
        closing = threading.Event()
        self.closing = closing
        handler_class = type(handler.__name__, (handler,), {"closing": closing})
        try:
            self.httpd = ThreadingHTTPServer((host, port), handler_class)
        except OSError as exc:
            raise OSError(f"cannot serve the {name} on {host}:{port}: {exc.strerror or exc}") from None
        self.httpd.daemon_threads = True
        self._thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.25},
                                        name=name, daemon=True)

    @property
    def port(self) -> int:
        return int(self.httpd.server_address[1])

    def start(self) -> "WebServer":
        self._thread.start()
        return self

    def close(self) -> None:
        self.closing.set()
        self.httpd.shutdown()
        self.httpd.server_close()
