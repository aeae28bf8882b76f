"""The board's page side of a phone player (issue 33):

    POST /api/invite             invite a player without a board; needs the board's PIN. JSON (or the
                                 page's form): side (the phone's: white|black), game ("current": the
                                 board's game before any move; else a game id: a new game, with the
                                 new-game form's fields), player (the invited player's name, a new
                                 game's tag). Answers {"ok", "link": "/play/<token>", "side", "message"}:
                                 the link goes to the PIN holder who asked, and nowhere else.
    GET  /play/<token>           the phone's page: the board, whose turn, clocks, moves in words
    GET  /play/<token>/state     its state (phone_page.phone_state)
    GET  /play/<token>/events    the same as server-sent events, on every change
    GET  /play/<token>/moves     the phone's legal moves now: {"version", "moves": [{move, from, to, words}]}
    POST /play/<token>/move      {"move": canonical}: the phone's move
    POST /play/<token>/ask       {"what": "takeback"|"draw"|"resign"|"withdraw"}
    POST /play/<token>/answer    {"yes": true|false}: the answer to the board's question

A token that is no invitation's is 404 (and counts towards the client's
lock-out: ``invite.TokenGuard``; 429 while locked). Posts are JSON from the
page's own origin, at most ``MAX_BODY`` bytes. A move is checked here
(turn, the legal moves of the phone's view) before it goes to the board's
loop, where the peer and then the remote layer check it again; a refusal
is one line. Nothing here waits on the board's loop but through
``run_command`` (``feed.submit``, bounded)."""
from __future__ import annotations

import json
import logging
import threading
from typing import Any, Callable, Protocol

from aiohttp import web

from maxima_board.service.feed import BoardFeed, NewGame
from maxima_board.service.remote_layer import RemoteLayer
from maxima_board.service.stack import find_layer
from maxima_board.webbase.httpbase import EventStreams, client_key, read_body, reply_bytes, reply_json

from .forms import clean_tag, cross_site
from .invite import Invitation, Invitations, Invite, ResumeInvitation, TokenGuard, invitation_path, new_token
from .phone_page import GONE_PAGE, choices_of, on_board_of, phone_page, phone_state
from .phone_peer import PhonePeer, PhoneView

log = logging.getLogger("maxima_board.web")

MAX_BODY = 1024
MAX_MOVE = 40
ASKS = ("takeback", "draw", "resign", "withdraw")


class Host(Protocol):
    """What the phone's routes use of the board's page (``server.BoardPage``)."""

    feed: BoardFeed
    streams: EventStreams
    db_path: str | None

    async def pin_form(self, request: web.Request) -> dict[str, str] | web.Response: ...
    async def run_command(self, run: Callable[[Any, int], Any]) -> Any: ...
    def new_game_of(self, form: dict[str, str]) -> NewGame: ...
    def notify(self) -> None: ...


class PhoneRoutes:
    """The routes of the module docstring, for the board page ``host``."""

    def __init__(self, host: Host):
        self.host = host
        self.invitations = Invitations(invitation_path(host.db_path))
        self.tokens = TokenGuard()
        self._cached: tuple[tuple[int, int], str] = ((-1, -1), "")

    def routes(self) -> list[web.RouteDef]:
        return [web.post("/api/invite", self.invite),
                web.get("/play/{token}", self.page),
                web.get("/play/{token}/state", self.state),
                web.get("/play/{token}/events", self.events),
                web.get("/play/{token}/moves", self.moves),
                web.post("/play/{token}/move", self.move),
                web.post("/play/{token}/ask", self.ask),
                web.post("/play/{token}/answer", self.answer)]

    # ---------------------------------------------------------------- the invitation
    def resume(self) -> None:
        """The board started again: its kept invitation plays on (in the
        board's loop, once it runs; a thread of its own waits for it)."""
        if self.invitations.kept() is None:
            return

        def ask() -> None:
            try:
                self.host.feed.submit(ResumeInvitation(self.invitations, self.host.notify), timeout=30.0)
            except Exception as exc:   # noqa: BLE001  (the board goes on without the phone: it can invite again)
                log.warning("the kept phone invitation did not resume: %s", exc)
        threading.Thread(target=ask, name="phone invitation", daemon=True).start()

    async def invite(self, request: web.Request) -> web.Response:
        form = await self.host.pin_form(request)
        if isinstance(form, web.Response):
            return form
        side = form.get("side", "").strip().lower()
        if side not in ("white", "black"):
            return reply_json({"ok": False, "error": "side: the invited player plays white or black"}, 400)
        game = (form.get("game") or "current").strip().lower()
        new = None
        try:
            player = clean_tag(form.get("player") or "", "player")
            if game != "current":
                fields = {k: form[k] for k in ("game", "fen", "time_control", "setup") if k in form}
                if player:
                    fields[side] = player
                new = self.host.new_game_of(fields)
        except ValueError as exc:
            return reply_json({"ok": False, "error": str(exc)}, 400)
        token = new_token()
        done = await self.host.run_command(Invite(side, new, self.invitations, token, self.host.notify))
        if isinstance(done, web.Response):
            return done
        setup = new is not None and new.setup
        return reply_json({"ok": True, "link": f"/play/{token}", "side": side,
                           "message": f"Invitation to play {side.title()}: open the link on the player's phone"
                                      + (" (set the pieces up and press OK on the board first)." if setup else ".")})

    def _find(self, request: web.Request) -> Invitation | str:
        """The request's invitation, else why not ("locked: ...", "gone")."""
        client = client_key(request.remote or "")
        refusal = self.tokens.refusal(client)
        if refusal is not None:
            return "locked: " + refusal
        found = self.invitations.find(request.match_info.get("token", ""))
        if found is None:
            self.tokens.wrong(client)
            return "gone"
        self.tokens.right(client)
        return found

    def _refusal(self, why: str) -> web.Response:
        if why.startswith("locked: "):
            return reply_json({"ok": False, "error": why[8:]}, 429)
        return reply_json({"ok": False, "error": "no such game: ask the board's owner for a new link"}, 404)

    # ---------------------------------------------------------------- reading
    def _state_text(self, view: PhoneView) -> str:
        latest = self.host.feed.latest
        key = (view.version, latest["seq"] if latest else -1)
        cached_key, text = self._cached         # one tuple: threads read it whole
        if cached_key != key:
            text = json.dumps(phone_state(view, latest))
            self._cached = (key, text)
        return text

    async def page(self, request: web.Request) -> web.Response:
        found = self._find(request)
        if isinstance(found, str):
            if found == "gone":
                return reply_bytes(GONE_PAGE.encode(), "text/html; charset=utf-8", 404)
            return self._refusal(found)
        html = phone_page(phone_state(found.peer.view, self.host.feed.latest))
        return reply_bytes(html.encode(), "text/html; charset=utf-8")

    async def state(self, request: web.Request) -> web.Response:
        found = self._find(request)
        if isinstance(found, str):
            return self._refusal(found)
        return reply_bytes(self._state_text(found.peer.view).encode(), "application/json")

    async def moves(self, request: web.Request) -> web.Response:
        found = self._find(request)
        if isinstance(found, str):
            return self._refusal(found)
        view = found.peer.view
        return reply_json({"version": view.version, "moves": choices_of(view) if self._on_board(view) else []})

    def _on_board(self, view: PhoneView) -> bool:
        return on_board_of(view, self.host.feed.latest)

    async def events(self, request: web.Request) -> web.StreamResponse:
        found = self._find(request)
        if isinstance(found, str):
            return self._refusal(found)
        sent = {"text": ""}

        async def next_data(_: Any) -> str | None:
            if self.invitations.current is not found:
                text = json.dumps({"gone": True})
            else:
                text = self._state_text(found.peer.view)
            if text == sent["text"]:
                return None
            sent["text"] = text
            return text

        return await self.host.streams.serve(request, next_data)

    # ---------------------------------------------------------------- the phone's player
    async def _posted(self, request: web.Request) -> tuple[Invitation, dict] | web.Response:
        found = self._find(request)
        if isinstance(found, str):
            return self._refusal(found)
        why = cross_site(request)
        if why is not None:
            return reply_json({"ok": False, "error": why}, 403)
        if request.content_type != "application/json":
            return reply_json({"ok": False, "error": "send JSON"}, 415)
        if request.content_length is not None and request.content_length > MAX_BODY:
            return reply_json({"ok": False, "error": f"at most {MAX_BODY} bytes"}, 413)
        body = await read_body(request)
        if len(body) > MAX_BODY:
            return reply_json({"ok": False, "error": f"at most {MAX_BODY} bytes"}, 413)
        try:
            data = json.loads(body.decode("utf-8"))
        except (ValueError, UnicodeDecodeError, RecursionError):
            return reply_json({"ok": False, "error": "unreadable request: expected a JSON object"}, 400)
        if not isinstance(data, dict):
            return reply_json({"ok": False, "error": "unreadable request: expected a JSON object"}, 400)
        return found, data

    async def move(self, request: web.Request) -> web.Response:
        posted = await self._posted(request)
        if isinstance(posted, web.Response):
            return posted
        found, data = posted
        text = data.get("move")
        if not isinstance(text, str) or not 0 < len(text) <= MAX_MOVE or not text.isascii() \
                or not text.isprintable():
            return reply_json({"ok": False, "error": "move: a move as the game writes it (e2-e4)"}, 400)
        view = found.peer.view
        if not view.ready or not self._on_board(view):
            return reply_json({"ok": False, "error": "the board is not playing this game now"}, 409)
        if view.result is not None:
            return reply_json({"ok": False, "error": "the game is over"}, 409)
        if view.turn != view.side:
            return reply_json({"ok": False, "error": f"not your turn: {view.turn.title()} (the board) to move"}, 409)
        if view.asked is not None:
            return reply_json({"ok": False, "error": "wait for the answer to your question (or withdraw it)"}, 409)
        if text not in {c.move for c in view.choices}:
            return reply_json({"ok": False, "error": f"{text} is not a legal move here"}, 400)
        return await self._act(found, lambda peer: peer.play(text))

    async def ask(self, request: web.Request) -> web.Response:
        posted = await self._posted(request)
        if isinstance(posted, web.Response):
            return posted
        found, data = posted
        what = data.get("what")
        if what not in ASKS:
            return reply_json({"ok": False, "error": "what: takeback, draw, resign or withdraw"}, 400)
        if what == "withdraw":
            return await self._act(found, lambda peer: peer.withdraw())
        return await self._act(found, lambda peer: peer.ask(what))

    async def answer(self, request: web.Request) -> web.Response:
        posted = await self._posted(request)
        if isinstance(posted, web.Response):
            return posted
        found, data = posted
        yes = data.get("yes")
        if not isinstance(yes, bool):
            return reply_json({"ok": False, "error": "yes: true or false"}, 400)
        return await self._act(found, lambda peer: peer.answer(yes))

    async def _act(self, found: Invitation, act: Callable[[PhonePeer], None]) -> web.Response:
        """``act(peer)`` in the board's loop, if the board still plays the
        invitation's game; then the layer takes it at once."""
        invitations = self.invitations

        def run(controller: Any, now_ms: int) -> list[dict]:
            layer = find_layer(controller, RemoteLayer)
            if invitations.current is not found or layer is None or layer.peer is not found.peer:
                raise ValueError("this invitation has ended")
            if not layer.active:
                raise ValueError("the board is not playing this game now")
            act(found.peer)
            return controller.on_tick(now_ms)

        done = await self.host.run_command(run)
        if isinstance(done, web.Response):
            return done
        return reply_json({"ok": True})
