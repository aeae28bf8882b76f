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

import json
import re
from urllib.parse import unquote

from webpage.httpbase import Handler, WebServer

from .page import dashboard_page
from .tables import ClubTables, record_text

__all__ = ["ClubTables", "DashboardHandler", "dashboard_server", "record_text"]
_ROUND_PATH = re.compile(r"^/round/([^/]{1,80})\.pgn$")


class DashboardHandler(Handler):
    tables: ClubTables
    static_package = "broadcast"

    def route(self, method: str, path: str, query: str) -> None:
        if method != "GET":
            self.send_json({"error": "the dashboard only shows; it changes nothing"}, 405)
        elif path in ("/", "/index.html"):
            page = dashboard_page(self.tables.club, self.tables.tables(svg=True), self.tables.broker_ok, self.tables.rounds())
            self.send_bytes(page.encode(), "text/html; charset=utf-8")
        elif path == "/static/style.css":
            self.static_package = "webpage"
            self.send_static("style.css")
        elif path.startswith("/static/"):
            self.send_static(path[len("/static/"):])
        elif path == "/api/tables":
            self.send_json(self.tables.tables())
        elif path == "/api/rounds":
            self.send_json(self.tables.rounds())
        elif path == "/events":
            self.events()
        elif _ROUND_PATH.match(path):
            name = unquote(_ROUND_PATH.match(path).group(1))
            text = self.tables.round_text(name)
            if not text:
                self.send_json({"error": f"no games of round {name!r} seen"}, 404)
            else:
                safe = re.sub(r"[^A-Za-z0-9_.-]", "_", name)
                self.send_text(text, filename=f"{self.tables.club}-round-{safe}.pgn",
                               content_type="application/x-chess-pgn; charset=utf-8")
        else:
            self.send_json({"error": f"no such page: {path}"}, 404)

    def events(self) -> None:
        seen = 0
        first = True

        def next_data(timeout: float) -> str | None:
            nonlocal seen, first
            version = self.tables.wait_newer(seen, timeout)
            if version == seen and not first:
                return None
            changed = self.tables.tables(since=0 if first else seen, svg=True)
            first = False
            seen = version
            return json.dumps({"club": self.tables.club, "broker_ok": self.tables.broker_ok,
                               "rounds": self.tables.rounds(), "tables": changed})

        self.stream_events(next_data)


def dashboard_server(tables: ClubTables, host: str = "0.0.0.0", port: int = 8081) -> WebServer:
    handler = type("ClubDashboardHandler", (DashboardHandler,), {"tables": tables})
    return WebServer(handler, host, port, "club dashboard")
