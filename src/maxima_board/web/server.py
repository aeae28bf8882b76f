"""The board's web page (``maxima-board serve``, and part of ``run``).

    GET  /                  the page: live board, moves, clocks, games, new-game form
    GET  /events            server-sent events: the board state on every change
    GET  /api/state         the board state (maxima_board.service.feed snapshot + "svg")
    GET  /board.svg         the board as a picture
    GET  /api/games         a page of the stored games, newest first: the newest 20
                            ({"games": [GameRow fields...], "next": the next page's URL or null});
                            ?before=ID: those numbered below ID; &limit=K: K of them (1-100)
    GET  /api/variants      the games this board can start
    GET  /games/N.pgn       game N's record (PGN-style) to download, with its review
                            ([%eval] comments, NAGs, the better move) where there is one
    GET  /games/N           game N's page: the board after each move (?ply=K: after K moves;
                            Back/Next links, arrow keys), the evaluation graph, mistakes
                            marked, the better move on a second board (web/review_page.py)
    POST /api/new-game      start a new game; needs the board's PIN
    POST /                  the same (the page's form, sent without JavaScript)
    POST /api/invite        invite a player without a board (a phone); needs the PIN;
    /play/<token>...        the invited player's page and its requests (web/phone.py)

Reading is open to the local network; changing anything needs the PIN, a
request from the board's own page (same Origin, and JSON or the page's
token) and a host name of the board. The server (aiohttp, its own thread
and loop: ``httpbase``) never touches the controller and never waits on
the board's loop: the board comes from the feed's snapshots, stored games
from a read-only connection of the server's own (``games``), and only a
new game is a command the board's loop runs (``feed.submit``).
"""
from __future__ import annotations

import asyncio
import json
import logging
import re
import secrets
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, Iterable

from aiohttp import web

from maxima_board.service.feed import BoardFeed, NewGame
from maxima_board.service.review import export_annotated as export_text

from maxima_board.storage.storefile import StoreError

from .forms import available_games, cross_site, form_fields, parse_new_game  # noqa: F401 (the page's API)
from .games import GameReader, page_of, page_query
from maxima_board.webbase.httpbase import (EventStreams, HostCheck, WebServer, client_key, page_app,
                                           read_body, refuse, reply_bytes, reply_json, reply_static,
                                           reply_text, SHARED_STATIC)
from maxima_board.webbase.page import board_page
from .phone import PhoneRoutes
from .remote_board import RemoteBoardRoutes
from .pin import BOARD_FREE, BOARD_WAIT_S, MAX_BOARD_WAIT_S, PinGuard, pin_path
from maxima_board.webbase.svg import board_svg

_GAME_PATH = re.compile(r"^/games/(\d{1,9})\.pgn$")
log = logging.getLogger("webpage")


def snapshot_svg(snapshot: dict) -> str:
    """The board of a feed snapshot as a picture (``/board.svg``, the state's "svg")."""
    return board_svg(snapshot["fen"], snapshot["leds"], snapshot["last"], variant=snapshot.get("variant", "maxima"))


def with_svg(snapshot: dict) -> dict:
    return {**snapshot, "svg": snapshot_svg(snapshot)}


class _PerSnapshot:
    """``make(snapshot)``, made once per snapshot for every client (the
    state with its SVG; the page's HTML)."""

    _NONE = object()

    def __init__(self, make: Callable[[Any], str]) -> None:
        self._make = make
        self._cached: tuple[object, str] = (self._NONE, "")

    def text(self, snapshot: dict | None) -> str:
        key = snapshot["seq"] if snapshot is not None else None
        seq, text = self._cached            # one tuple: threads read it whole
        if seq != key:
            text = self._make(snapshot)
            self._cached = (key, text)
        return text


def first_view(snapshot: dict | None) -> str:
    """GET /'s HTML unless ``board_server(page=...)`` gives another maker:
    the page with the board of ``snapshot`` drawn in (``page.board_page``).
    :meth:`BoardPage.page_html` is the one place it is used."""
    return board_page(snapshot, available_games(board_kind_of(snapshot)))


def board_kind_of(snapshot: dict | None) -> str:
    """The kind of board of a feed snapshot (None: the board is starting, a Maxima board)."""
    return snapshot.get("board_kind", "maxima") if snapshot else "maxima"


_FORM_TAG = re.compile(r'<form\b[^>]*\bid="(?:new-game-form|invite-form|remote-form)"[^>]*>')


def with_token(html: str, token: str) -> str:
    """The page with the forms' token as a hidden field (a form posted
    without JavaScript sends it; a page of another site cannot read it)."""
    field = f'<input type="hidden" name="token" value="{token}">'
    return _FORM_TAG.sub(lambda match: match.group(0) + field, html)


class BoardPage:
    """The board's web page (module docstring) as an aiohttp application.
    Reads of stored games run in one reading thread with its own read-only
    connection; only a new game goes to the board's loop (``feed.submit``);
    at most ``MAX_READS`` reads and ``MAX_COMMANDS`` commands wait at once."""

    MAX_READS = 16
    MAX_COMMANDS = 4

    def __init__(self, feed: BoardFeed, pin: str, db_path: str | None = None, hosts: Iterable[str] = (),
                 page: Callable[[dict | None], str] | None = None):
        self.feed = feed
        self.guard = PinGuard(pin)
        self.db_path = db_path if db_path is not None and pin_path(db_path) is not None else None
        self.hosts = HostCheck(hosts)
        self.token = secrets.token_urlsafe(24)
        self.page = page or first_view
        self.svg = _PerSnapshot(lambda snapshot: json.dumps(with_svg(snapshot)))
        self._html = _PerSnapshot(lambda snapshot: with_token(self.page(snapshot), self.token))
        self.streams = EventStreams()
        self.phone = PhoneRoutes(self)
        self.remote_board = RemoteBoardRoutes(self)
        self.server: WebServer | None = None
        self._reads = ThreadPoolExecutor(1, thread_name_prefix="web-reads")
        self._commands = ThreadPoolExecutor(2, thread_name_prefix="web-commands")
        self._local = threading.local()
        self._waiting = {"reads": 0, "commands": 0}
        feed.listeners.append(self._on_snapshot)

    # -- other threads -------------------------------------------------------
    def _on_snapshot(self, snapshot: dict) -> None:
        """The board's loop took a snapshot: wake the streams (never waits)."""
        self.notify()

    def notify(self) -> None:
        """Something the streams show changed (any thread; never waits)."""
        if self.server is not None:
            self.server.call(self.streams.changed)

    def new_game_of(self, form: dict[str, str]) -> NewGame:
        """The new game of the form's fields on this board; ValueError says which field is wrong."""
        return parse_new_game(form, board_kind_of(self.feed.latest))

    def set_pin(self, pin: str) -> None:
        """Use a new PIN from now on (any thread)."""
        if self.server is not None and self.server.loop is not None:
            self.server.call(lambda: self.guard.set_pin(pin))
        else:
            self.guard.set_pin(pin)

    def close(self) -> None:
        if self.feed.listeners.count(self._on_snapshot):
            self.feed.listeners.remove(self._on_snapshot)
        self._commands.shutdown(wait=False, cancel_futures=True)
        self._reads.submit(self._close_reader)
        self._reads.shutdown(wait=False)

    def _reader(self) -> GameReader:
        reader = getattr(self._local, "reader", None)
        if reader is None:
            reader = self._local.reader = GameReader(self.db_path or ":memory:")
        return reader

    def _close_reader(self) -> None:
        reader = getattr(self._local, "reader", None)
        if reader is not None:
            reader.close()

    async def _off_loop(self, kind: str, func: Callable[[], Any]) -> Any:
        """``func()`` in the reading or the command thread; 503 when too many wait."""
        limit = self.MAX_READS if kind == "reads" else self.MAX_COMMANDS
        if self._waiting[kind] >= limit:
            raise _Busy()
        self._waiting[kind] += 1
        try:
            pool = self._reads if kind == "reads" else self._commands
            return await asyncio.get_running_loop().run_in_executor(pool, func)
        finally:
            self._waiting[kind] -= 1

    # -- the application -------------------------------------------------------
    def app(self) -> web.Application:
        return page_app(self.hosts, self.streams, index=self.index, static=self.static, missing=self.missing,
                        routes=[web.get("/events", self.events),
                                web.get("/api/state", self.state),
                                web.get("/board.svg", self.board_svg),
                                web.get("/api/games", self.games),
                                web.get("/api/variants", self.variants),
                                web.get(r"/games/{number:\d{1,9}}.pgn", self.record),
                                web.get(r"/games/{number:\d{1,9}}", self.game_page),
                                web.post("/api/new-game", self.new_game),
                                *self.phone.routes(), *self.remote_board.routes(),
                                web.post("/", self.new_game)])      # the form without JavaScript posts to the page

    def page_html(self) -> str:
        """GET /: the one place the page's HTML comes from."""
        return self._html.text(self.feed.latest)

    async def index(self, request: web.Request) -> web.Response:
        return reply_bytes(self.page_html().encode("utf-8"), "text/html; charset=utf-8")

    async def static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        return reply_static("maxima_board.webbase" if name in SHARED_STATIC else "maxima_board.web", name, request.path)

    async def missing(self, request: web.Request) -> web.Response:
        if request.method in ("GET", "HEAD"):
            return reply_json({"error": f"no such page: {request.path[:200]}"}, 404)
        return reply_json({"error": f"no such action: {request.method} {request.path[:200]}"},
                          404 if request.method == "POST" else 405)

    async def state(self, request: web.Request) -> web.Response:
        latest = self.feed.latest
        if latest is None:
            return reply_json({"error": "the board is starting"}, 503)
        return reply_bytes(self.svg.text(latest).encode(), "application/json")

    async def board_svg(self, request: web.Request) -> web.Response:
        latest = self.feed.latest
        if latest is None:
            return reply_json({"error": "the board is starting"}, 503)
        return reply_bytes(snapshot_svg(latest).encode(), "image/svg+xml")

    async def variants(self, request: web.Request) -> web.Response:
        return reply_json(available_games(board_kind_of(self.feed.latest)))

    async def events(self, request: web.Request) -> web.StreamResponse:
        sent = {"seq": -1}

        async def next_data(_: Any) -> str | None:
            latest = self.feed.latest
            if latest is None or latest["seq"] == sent["seq"]:
                return None
            sent["seq"] = latest["seq"]
            return self.svg.text(latest)

        return await self.streams.serve(request, next_data)

    async def games(self, request: web.Request) -> web.Response:
        try:
            before, limit, given = page_query(request.query)
        except ValueError as exc:
            return refuse(request, 400, str(exc))
        if self.db_path is None:
            return await self._ask_loop(lambda c, now: c.store.games_page(before, limit + 1),
                                        lambda rows: reply_bytes(page_of(rows, limit, given),
                                                                 "application/json"))
        return await self._from_store(lambda: self._reader().page_json(before, limit, given),
                                      lambda body: reply_bytes(body, "application/json"))

    async def record(self, request: web.Request) -> web.Response:
        number = int(request.match_info["number"])

        def send(text: str) -> web.Response:
            return reply_text(text, filename=f"maxima-board-game-{number}.pgn",
                              content_type="application/x-chess-pgn; charset=utf-8")
        if self.db_path is None:
            return await self._ask_loop(lambda c, now: export_text(c.store, number), send, missing=404)
        return await self._from_store(lambda: self._reader().record_text(number), send, missing=404)

    async def game_page(self, request: web.Request) -> web.Response:
        number = int(request.match_info["number"])
        text = request.query.get("ply")
        if text is not None and not (text.isascii() and text.isdigit() and len(text) <= 5):
            return refuse(request, 400, "ply: a whole number from 0 to 99999")
        if self.db_path is None:
            return reply_json({"error": "this board keeps no games database"}, 404)
        return await self._from_store(
            lambda: self._reader().review_page(number, None if text is None else int(text)),
            lambda body: reply_bytes(body, "text/html; charset=utf-8"), missing=404)

    async def _from_store(self, read, reply, missing: int | None = None) -> web.Response:
        """``reply(read())``, read in the reading thread with the server's own
        connection: 503 when too many reads wait or the database cannot be
        read; a ValueError (no such game) is ``missing`` (None: raised on)."""
        try:
            result = await self._off_loop("reads", read)
        except (_Busy, StoreError) as exc:
            return reply_json({"error": str(exc)}, 503)
        except ValueError as exc:
            if missing is None:
                raise
            return reply_json({"error": str(exc)}, missing)
        return reply(result)

    async def _ask_loop(self, run, reply, missing: int = 500) -> web.Response:
        """A board whose games are not in a file (``:memory:``): its loop answers."""
        try:
            command = await self._off_loop("commands", lambda: self.feed.submit(run, timeout=5.0))
        except (_Busy, TimeoutError) as exc:
            return reply_json({"error": str(exc) or "the board is busy: try again"}, 503)
        if command.error is not None:
            return reply_json({"error": command.error}, missing)
        return reply(command.result)

    async def pin_form(self, request: web.Request) -> dict[str, str] | web.Response:
        """The fields of a request that changes the board, once its PIN is
        right; else the refusal to send (another site, an unreadable body,
        no PIN, a wrong one, too many wrong ones)."""
        why = cross_site(request)
        if why is not None:
            return refuse(request, 403, why)
        body = await read_body(request)
        try:
            form = form_fields(body, request.content_type, self.token)
        except PermissionError as exc:
            return refuse(request, 403, str(exc))
        except LookupError as exc:
            return refuse(request, 415, str(exc.args[0]))
        except (ValueError, UnicodeDecodeError, RecursionError) as exc:
            return refuse(request, 400, f"unreadable request: {type(exc).__name__}: {str(exc)[:100]}")
        client = client_key(request.remote or "")
        pin = form.get("pin", "").strip()
        if not pin:
            return reply_json({"ok": False, "error": "enter the board's PIN (on the board: MENU, Show web PIN?)"}, 400)
        refusal = self.guard.refusal(client)
        if refusal is not None:
            return reply_json({"ok": False, "error": refusal}, 429)
        waited = self.guard.board_waits()
        if not self.guard.check(pin, client):
            if self.guard.board_waits() and not waited:
                log.warning("web: %d wrong PINs on this board within the hour: one PIN checked every %.0f-%.0f s "
                            "from now (MENU, New web PIN? ends it)", BOARD_FREE, BOARD_WAIT_S, MAX_BOARD_WAIT_S)
            return reply_json({"ok": False, "error": "wrong PIN (shown on the board: MENU, Show web PIN?)"}, 403)
        return form

    async def run_command(self, run: Callable[[Any, int], Any]) -> Any:
        """``run`` in the board's loop (``feed.submit``), waited for off
        the server's loop; its result, or a reply saying why it did not run
        (503: the board is busy or did not answer; 400: ``run`` refused,
        its one-line reason)."""
        try:
            command = await self._off_loop("commands", lambda: self.feed.submit(run, timeout=5.0))
        except _Busy:
            return reply_json({"ok": False, "error": "the board is busy: try again"}, 503)
        except TimeoutError as exc:
            return reply_json({"ok": False, "error": str(exc)}, 503)
        if command.error is not None:
            return reply_json({"ok": False, "error": command.error}, 400)
        return command

    async def new_game(self, request: web.Request) -> web.Response:
        form = await self.pin_form(request)
        if isinstance(form, web.Response):
            return form
        try:
            new = parse_new_game(form, board_kind_of(self.feed.latest))
        except ValueError as exc:
            return reply_json({"ok": False, "error": str(exc)}, 400)
        command = await self.run_command(new)
        if isinstance(command, web.Response):
            return command
        started = [e for e in command.result or [] if e.get("type") in ("new_game", "setup")]
        return reply_json({"ok": True, "events": started,
                           "message": "New game: set the pieces up and press OK on the board." if new.setup
                           else "New game started."})


class _Busy(Exception):
    def __str__(self) -> str:
        return "the board is busy: try again"


class BoardServer(WebServer):
    """The board page's server; ``page`` is its :class:`BoardPage`."""

    page: BoardPage

    def close(self) -> None:
        super().close()
        self.page.close()


def board_server(feed: BoardFeed, pin: str, host: str = "0.0.0.0", port: int = 8080, *,
                 db_path: str | None = None, hosts: Iterable[str] = (),
                 page: Callable[[dict | None], str] | None = None) -> BoardServer:
    """The board's web page server (not yet started). ``db_path``: the
    board's games database, read through a connection of the server's own
    (None: ask the board's loop); ``hosts``: more names the board answers to
    (``[web] hosts``); ``page``: GET /'s HTML from the newest snapshot."""
    board_page = BoardPage(feed, pin, db_path, hosts, page)
    server = BoardServer(board_page.app, host, port, "board web page")
    server.page = board_page
    board_page.server = server
    return server
