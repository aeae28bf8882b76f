"""The club dashboard: every table of a club, live, from the broker.

    GET /                 the page: one card per table, updated live
    GET /events           server-sent events: the tables that changed
    GET /api/tables       every table as JSON
    GET /api/rounds       the rounds of the games seen
    GET /round/R.pgn      every game of round R, as one PGN-style file

The dashboard only reads: it subscribes to ``maxima-board/<club>/+/...``
and keeps the newest state of each table and the record of every game.
"""
from __future__ import annotations

import asyncio
import json
import re
import secrets
import threading
import time
from typing import Any, Iterable

from aiohttp import web

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from engine.record import GameRecord
from webpage.httpbase import (EventStreams, HostCheck, WebServer, app_with_guard, reply_bytes, reply_json,
                              reply_static, reply_text)
from webpage.svg import board_svg

from .page import dashboard_page
from .topics import ROOT, parse_broker, topic_word

_PGN_RESULT = {"1/2": "1/2-1/2"}
_ROUND_NAME = re.compile(r"^([^/]{1,80})\.pgn$")


def _table_key(name: str) -> tuple:
    """Tables in natural order: 2 before 10."""
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in re.split(r"(\d+)", name) if p)


def record_text(table: str, record: dict) -> str:
    """A broadcast game record as PGN-style text (engine.record)."""
    tags = {k: str(v) for k, v in (record.get("tags") or {}).items()}
    tags["Result"] = _PGN_RESULT.get(record.get("result") or "*", record.get("result") or "*")
    tags["Variant"] = record.get("title") or "Maxima"
    tags["Board"] = table
    game = GameRecord(tags, list(record.get("moves") or []))
    if record.get("start_fen") and record["start_fen"] != game.start_fen:
        game.tags["FEN"] = record["start_fen"]
    if record.get("reason"):
        game.tags["Termination"] = record["reason"]
    return game.to_text()


class ClubTables:
    """The tables of ``club`` as the broker tells them; thread-safe."""

    def __init__(self, broker: str, club: str, *, keepalive: int = 10):
        host, port = parse_broker(broker)
        self.club = topic_word(club, "club")
        self._cond = threading.Condition()
        self._tables: dict[str, dict[str, Any]] = {}
        self._records: dict[tuple[str, int], dict] = {}
        self.version = 0
        self.broker_ok = False
        client = mqtt.Client(CallbackAPIVersion.VERSION2,
                             client_id=f"maxima-dashboard-{self.club}-{secrets.token_hex(3)}", clean_session=True)
        client.reconnect_delay_set(1, 2)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        self._client = client
        client.connect_async(host, port, keepalive)
        client.loop_start()

    def close(self) -> None:
        self._client.disconnect()
        self._client.loop_stop()

    # -- paho's thread ----------------------------------------------------------
    def _on_connect(self, client, userdata, flags, reason_code, properties) -> None:
        if reason_code.is_failure:
            return
        base = f"{ROOT}/{self.club}/+"
        client.subscribe([(f"{base}/state", 1), (f"{base}/status", 1), (f"{base}/games/+", 1)])
        with self._cond:
            self.broker_ok = True
            self._bump(None)

    def _on_disconnect(self, client, userdata, flags, reason_code, properties) -> None:
        with self._cond:
            self.broker_ok = False
            self._bump(None)

    def _on_message(self, client, userdata, message) -> None:
        parts = message.topic.split("/")
        if len(parts) < 4:
            return
        table, kind = parts[2], parts[3]
        try:
            data = json.loads(message.payload)
        except ValueError:
            return
        if not isinstance(data, dict):
            return
        with self._cond:
            entry = self._tables.setdefault(table, {"table": table, "online": None, "state": None})
            if kind == "status":
                entry["online"] = bool(data.get("online"))
            elif kind == "state":
                old = entry["state"]
                if old is not None and (old.get("at") or 0, old.get("seq") or 0) > (data.get("at") or 0, data.get("seq") or 0):
                    return    # an older state arriving late
                entry["state"] = data
                entry.pop("svg", None)
            elif kind == "games" and len(parts) == 5 and parts[4].isdigit():
                self._records[(table, int(parts[4]))] = data
                return
            else:
                return
            self._bump(table)

    def _bump(self, table: str | None) -> None:
        self.version += 1
        if table is not None:
            self._tables[table]["version"] = self.version
            self._tables[table]["updated"] = int(time.time() * 1000)
        self._cond.notify_all()

    # -- readers ----------------------------------------------------------------
    def tables(self, since: int = 0, svg: bool = False) -> list[dict]:
        """The tables (changed after version ``since``), in natural order."""
        with self._cond:
            chosen = [e for e in self._tables.values() if e.get("version", 0) > since]
            chosen.sort(key=lambda e: _table_key(e["table"]))
            out = []
            for entry in chosen:
                state = entry["state"] or {}
                item = {"table": entry["table"], "online": entry["online"], "updated": entry.get("updated"),
                        **{k: state.get(k) for k in ("game", "tags", "variant", "title", "fen", "turn", "moves", "sans",
                                                     "last", "result", "reason", "clocks", "mode", "seq", "at")}}
                if svg and state.get("fen"):
                    if "svg" not in entry:
                        try:
                            entry["svg"] = board_svg(state["fen"], state.get("leds"), state.get("last"),
                                                     cell=24, coordinates=False,
                                                     variant=state.get("variant") or "maxima")
                        except ValueError:
                            entry["svg"] = ""
                    item["svg"] = entry["svg"]
                out.append(item)
            return out

    def wait_newer(self, version: int, timeout: float) -> int:
        with self._cond:
            self._cond.wait_for(lambda: self.version > version, timeout)
            return self.version

    def rounds(self) -> list[str]:
        with self._cond:
            return sorted({str((r.get("tags") or {}).get("Round", "-")) for r in self._records.values()},
                          key=_table_key)

    def round_text(self, round_name: str) -> str:
        """Every game of the round, table by table, as one PGN-style file."""
        with self._cond:
            games = [(table, number, record) for (table, number), record in self._records.items()
                     if str((record.get("tags") or {}).get("Round", "-")) == round_name]
        games.sort(key=lambda g: (_table_key(g[0]), g[1]))
        return "\n".join(record_text(table, record) for table, _, record in games)


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
        app = app_with_guard(self.hosts, self.streams)
        app.router.add_get("/", self.index)
        app.router.add_get("/index.html", self.index)
        app.router.add_get("/static/{name}", self.static)
        app.router.add_get("/api/tables", self.api_tables)
        app.router.add_get("/api/rounds", self.api_rounds)
        app.router.add_get("/events", self.events)
        app.router.add_get("/round/{name}", self.round)
        app.router.add_route("*", "/{tail:.*}", self.missing)
        return app

    async def _read(self, func):
        return await asyncio.get_running_loop().run_in_executor(None, func)

    async def index(self, request: web.Request) -> web.Response:
        tables = self.tables
        page = await self._read(lambda: dashboard_page(tables.club, tables.tables(svg=True), tables.broker_ok,
                                                       tables.rounds()))
        return reply_bytes(page.encode(), "text/html; charset=utf-8")

    async def static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        return reply_static("webpage" if name == "style.css" else "broadcast", name, request.path)

    async def missing(self, request: web.Request) -> web.Response:
        if request.method not in ("GET", "HEAD"):
            return reply_json({"error": "the dashboard only shows; it changes nothing"}, 405)
        return reply_json({"error": f"no such page: {request.path[:200]}"}, 404)

    async def api_tables(self, request: web.Request) -> web.Response:
        return reply_json(await self._read(self.tables.tables))

    async def api_rounds(self, request: web.Request) -> web.Response:
        return reply_json(await self._read(self.tables.rounds))

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
