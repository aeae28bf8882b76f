"""The board's web page (``maxima-board serve``, and part of ``run``).

    GET  /                  the page: live board, moves, clocks, games, new-game form
    GET  /events            server-sent events: the board state on every change
    GET  /api/state         the board state (controller.feed snapshot + "svg")
    GET  /board.svg         the board as a picture
    GET  /api/games         the stored games
    GET  /api/variants      the games this board can start
    GET  /games/N.pgn       game N's record (PGN-style) to download
    POST /api/new-game      start a new game; needs the board's PIN

Reading is open to the local network; changing anything needs the PIN.
The server never touches the controller: reads come from the feed's
snapshots, and everything else is a command the board's loop runs.
"""
from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import asdict
from urllib.parse import parse_qs

from engine import START_FEN, FenError, Position
from engine import variants

from controller.feed import BoardFeed, NewGame
from controller.record import export_text

from hardware.boards import games_for

from .httpbase import Handler, WebServer
from .page import board_page
from .pin import PinGuard
from .svg import board_svg

TAG_FIELDS = {"white": "White", "black": "Black", "event": "Event", "round": "Round", "site": "Site"}
MAX_TAG = 80
# 90+30 (Fischer), 60d10 (delay), 40/90,30+30 (stages); "none".
_TIME_CONTROL = re.compile(r"^(none|(\d{1,3}/)?\d{1,3}([+d]\d{1,3})?(,(\d{1,3}/)?\d{1,3}([+d]\d{1,3})?)*)$")
_GAME_PATH = re.compile(r"^/games/(\d{1,9})\.pgn$")


def available_games(board_kind: str = "maxima") -> list[dict]:
    """The games (variants) a board of ``board_kind`` can start: id, name, start FEN."""
    playable = [variants.get(name) for name in games_for(board_kind)]
    return [{"id": v.name, "name": v.title, "start_fen": v.start_fen} for v in playable]


def with_svg(snapshot: dict) -> dict:
    return {**snapshot, "svg": board_svg(snapshot["fen"], snapshot["leds"], snapshot["last"],
                                         variant=snapshot.get("variant", "maxima"))}


class _SvgCache:
    """The snapshot with its SVG, drawn once per snapshot for every client."""

    def __init__(self) -> None:
        self._cached: tuple[int, str] = (-1, "")

    def text(self, snapshot: dict) -> str:
        seq, text = self._cached            # one tuple: threads read it whole
        if seq != snapshot["seq"]:
            text = json.dumps(with_svg(snapshot))
            self._cached = (snapshot["seq"], text)
        return text


def clean_tag(value: str, name: str) -> str:
    """A tag value from the form: trimmed, at most ``MAX_TAG`` characters,
    no control characters; ValueError names the field."""
    value = value.strip()
    if len(value) > MAX_TAG:
        raise ValueError(f"{name}: at most {MAX_TAG} characters")
    if any(unicodedata.category(ch).startswith("C") for ch in value):
        raise ValueError(f"{name}: control characters are not allowed")
    return value


def parse_new_game(form: dict[str, str], board_kind: str = "maxima") -> NewGame:
    """The new-game request of the form's fields for a board of
    ``board_kind``; ValueError says which field is wrong."""
    game = (form.get("game") or "maxima").strip().lower()
    games = {g["id"]: g for g in available_games(board_kind)}
    if game not in games:
        raise ValueError(f"game: unknown game {game!r} (this board plays {', '.join(g['name'] for g in games.values())})")
    fen = (form.get("fen") or "").strip()
    fen = games[game]["start_fen"] if fen in ("", "start") else fen
    try:
        Position(fen, game)
    except FenError as exc:
        raise ValueError(f"start FEN: {exc}") from None
    tags = {}
    for key, tag in TAG_FIELDS.items():
        value = clean_tag(form.get(key) or "", key)
        if value:
            tags[key] = value
    time_control = (form.get("time_control") or "").strip().replace(" ", "")
    if time_control and not _TIME_CONTROL.match(time_control):
        raise ValueError(f"time control: {time_control!r} is not like 90+30, 60d10, 40/90,30+30 or none")
    setup = str(form.get("setup", "on")).lower() not in ("", "off", "false", "0", "no")
    opponent = (form.get("opponent") or "").strip().lower()
    if opponent not in ("", "none", "white", "black"):
        raise ValueError(f"opponent: expected white, black or none, got {opponent[:20]!r}")
    return NewGame(fen, tags, time_control, setup, game, opponent)


class BoardHandler(Handler):
    feed: BoardFeed
    guard: PinGuard
    svg: _SvgCache

    def _board_kind(self) -> str:
        latest = self.feed.latest
        return latest.get("board_kind", "maxima") if latest else "maxima"

    def route(self, method: str, path: str, query: str) -> None:
        if method == "POST":
            if path == "/api/new-game":
                self.new_game()
            else:
                self.send_json({"error": f"no such action: {path}"}, 404)
            return
        if path in ("/", "/index.html"):
            self.send_bytes(board_page(self.feed.latest, available_games(self._board_kind())).encode(),
                            "text/html; charset=utf-8")
        elif path.startswith("/static/"):
            self.send_static(path[len("/static/"):])
        elif path == "/events":
            self.events()
        elif path == "/api/state":
            latest = self.feed.latest
            if latest is None:
                self.send_json({"error": "the board is starting"}, 503)
            else:
                self.send_bytes(self.svg.text(latest).encode(), "application/json")
        elif path == "/board.svg":
            latest = self.feed.latest
            if latest is None:
                self.send_json({"error": "the board is starting"}, 503)
            else:
                self.send_bytes(board_svg(latest["fen"], latest["leds"], latest["last"],
                                          variant=latest.get("variant", "maxima")).encode(), "image/svg+xml")
        elif path == "/api/games":
            self.ask(lambda c, now: [asdict(g) for g in c.store.games()], self.send_json)
        elif path == "/api/variants":
            self.send_json(available_games(self._board_kind()))
        elif _GAME_PATH.match(path):
            number = int(_GAME_PATH.match(path).group(1))
            self.ask(lambda c, now: export_text(c.store, number),
                     lambda text: self.send_text(text, filename=f"maxima-board-game-{number}.pgn",
                                                 content_type="application/x-chess-pgn; charset=utf-8"),
                     missing=404)
        else:
            self.send_json({"error": f"no such page: {path}"}, 404)

    def ask(self, run, reply, missing: int = 500) -> None:
        """Have the board's loop answer; ``reply`` sends what it gave."""
        try:
            command = self.feed.submit(run, timeout=5.0)
        except TimeoutError as exc:
            self.send_json({"error": str(exc)}, 503)
            return
        if command.error is not None:
            self.send_json({"error": command.error}, missing)
        else:
            reply(command.result)

    def events(self) -> None:
        seq = -1

        def next_data(timeout: float) -> str | None:
            nonlocal seq
            snapshot = self.feed.wait_newer(seq, timeout)
            if snapshot is None:
                return None
            seq = snapshot["seq"]
            return self.svg.text(snapshot)

        self.stream_events(next_data)

    def new_game(self) -> None:
        body = self.read_body()
        if body is None:
            return
        try:
            if (self.headers.get("Content-Type") or "").startswith("application/json"):
                raw = json.loads(body or b"{}")
                if not isinstance(raw, dict):
                    raise ValueError("expected a JSON object")
                form = {str(k): str(v) for k, v in raw.items()}
            else:
                form = {k: v[-1] for k, v in parse_qs(body.decode("utf-8"), keep_blank_values=True).items()}
        except (ValueError, UnicodeDecodeError) as exc:
            self.send_json({"ok": False, "error": f"unreadable request: {exc}"}, 400)
            return
        locked = self.guard.locked_for()
        if locked > 0:
            self.send_json({"ok": False, "error": f"too many wrong PINs: try again in {locked:.0f} s"}, 429)
            return
        if not self.guard.check(form.get("pin", "")):
            self.send_json({"ok": False, "error": "wrong PIN (shown on the board: MENU, Show web PIN?)"}, 403)
            return
        try:
            request = parse_new_game(form, self._board_kind())
        except ValueError as exc:
            self.send_json({"ok": False, "error": str(exc)}, 400)
            return
        try:
            command = self.feed.submit(request, timeout=5.0)
        except TimeoutError as exc:
            self.send_json({"ok": False, "error": str(exc)}, 503)
            return
        if command.error is not None:
            self.send_json({"ok": False, "error": command.error}, 400)
            return
        started = [e for e in command.result or [] if e.get("type") in ("new_game", "setup")]
        self.send_json({"ok": True, "events": started,
                        "message": "New game: set the pieces up and press OK on the board." if request.setup
                        else "New game started."})


def board_server(feed: BoardFeed, pin: str, host: str = "0.0.0.0", port: int = 8080) -> WebServer:
    """The board's web page server (not yet started)."""
    handler = type("BoardPageHandler", (BoardHandler,),
                   {"feed": feed, "guard": PinGuard(pin), "svg": _SvgCache()})
    return WebServer(handler, host, port, "board web page")
