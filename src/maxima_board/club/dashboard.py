"""The club dashboard: every table of a club, live, from the broker.

    GET /                 the page: one card per table, updated live
    GET /events           server-sent events: the tables that changed
    GET /api/tables       every table as JSON
    GET /api/rounds       the rounds of the games seen
    GET /api/stats        the dashboard's health: broker, tables kept, messages dropped and why
    GET /round/R.pgn      every game of round R, as one PGN-style file

The dashboard only reads: it subscribes to ``maxima-board/<club>/+/...``
and keeps the newest state of each table and the record of every game.
"""
from __future__ import annotations

import asyncio
import json
import re
import threading
from typing import Any, Iterable

from aiohttp import web

from maxima_board.webbase.httpbase import (EventStreams, HostCheck, WebServer, page_app, reply_bytes,
                                           reply_json, reply_static, reply_text, SHARED_STATIC)

from .page import dashboard_page
from .tables import ClubTables, record_text

__all__ = ["ClubTables", "Dashboard", "dashboard_server", "record_text"]
_ROUND_NAME = re.compile(r"^([^/]{1,80})\.pgn$")


class Dashboard:
    """The dashboard's pages (module docstring) as an aiohttp application.
    ``tables`` (a ClubTables: MQTT thread) is read in a worker thread; a
    watcher thread wakes the event streams when it changes."""

    def __init__(self, tables: "ClubTables", hosts: Iterable[str] = ()):
        self.tables = tables
        self.hosts = HostCheck(hosts)
        self.streams = EventStreams()
        self.server: WebServer | None = None
        self._closing = threading.Event()
        self._page_cache: tuple[tuple[int, bool] | None, bytes] = (None, b"")
        self._watcher = threading.Thread(target=self._watch, name="dashboard watcher", daemon=True)

    def _watch(self) -> None:
        seen = 0
        while not self._closing.is_set():
            version = self.tables.wait_newer(seen, 30.0)
            if version != seen and self.server is not None:
                seen = version
                self.server.call(self.streams.changed)

    def app(self) -> web.Application:
        if not self._watcher.is_alive():
            self._watcher.start()
        return page_app(self.hosts, self.streams, index=self.index, static=self.static, missing=self.missing,
                        routes=[web.get("/api/tables", self.api_tables),
                                web.get("/api/rounds", self.api_rounds),
                                web.get("/api/stats", self.api_stats),
                                web.get("/events", self.events),
                                web.get("/round/{name}", self.round)])

    async def _read(self, func):
        return await asyncio.get_running_loop().run_in_executor(None, func)

    async def index(self, request: web.Request) -> web.Response:
        return reply_bytes(await self._read(self._page), "text/html; charset=utf-8")

    def _page(self) -> bytes:
        """The page, drawn once per change of the tables."""
        tables = self.tables
        seen = (tables.version, tables.broker_ok)
        if self._page_cache[0] != seen:
            page = dashboard_page(tables.club, tables.tables(svg=True), tables.broker_ok, tables.rounds())
            self._page_cache = (seen, page.encode())
        return self._page_cache[1]

    async def static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        return reply_static("maxima_board.webbase" if name in SHARED_STATIC else "maxima_board.club", name, request.path)

    async def missing(self, request: web.Request) -> web.Response:
        if request.method not in ("GET", "HEAD"):
            return reply_json({"error": "the dashboard only shows; it changes nothing"}, 405)
        return reply_json({"error": f"no such page: {request.path[:200]}"}, 404)

    async def api_tables(self, request: web.Request) -> web.Response:
        return reply_json(await self._read(self.tables.tables))

    async def api_rounds(self, request: web.Request) -> web.Response:
        return reply_json(await self._read(self.tables.rounds))

    async def api_stats(self, request: web.Request) -> web.Response:
        return reply_json(await self._read(self.tables.stats))

    async def round(self, request: web.Request) -> web.Response:
        match = _ROUND_NAME.match(request.match_info["name"])
        if match is None:
            return reply_json({"error": f"no such page: {request.path[:200]}"}, 404)
        name = match.group(1)
        text = await self._read(lambda: self.tables.round_text(name))
        if not text:
            return reply_json({"error": f"no games of round {name!r} seen"}, 404)
        safe = re.sub(r"[^A-Za-z0-9_.-]", "_", name)
        return reply_text(text, filename=f"{self.tables.club}-round-{safe}.pgn",
                          content_type="application/x-chess-pgn; charset=utf-8")

    async def events(self, request: web.Request) -> web.StreamResponse:
        state = {"seen": 0, "first": True}

        def changed() -> str | None:
            version = self.tables.version
            if version == state["seen"] and not state["first"]:
                return None
            tables = self.tables.tables(since=0 if state["first"] else state["seen"], svg=True)
            state["first"], state["seen"] = False, version
            return json.dumps({"club": self.tables.club, "broker_ok": self.tables.broker_ok,
                               "rounds": self.tables.rounds(), "tables": tables})

        async def next_data(_: Any) -> str | None:
            return await self._read(changed)

        return await self.streams.serve(request, next_data)

    def close(self) -> None:
        self._closing.set()


class DashboardServer(WebServer):
    dashboard: Dashboard

    def close(self) -> None:
        self.dashboard.close()
        super().close()


def dashboard_server(tables: ClubTables, host: str = "0.0.0.0", port: int = 8081, *,
                     hosts: Iterable[str] = ()) -> DashboardServer:
    dashboard = Dashboard(tables, hosts)
    server = DashboardServer(dashboard.app, host, port, "club dashboard")
    server.dashboard = dashboard
    dashboard.server = server
    return server
