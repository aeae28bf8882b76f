"""A remote game with another board, begun from the board's page (issue 33):

    POST /api/remote    needs the board's PIN. Fields: side (this board's:
                        white|black), name (the game's name, to join a game
                        another board began; empty: a new game, whose name
                        the board shows on its own display, never here).
                        Answers {"ok", "message"} or {"ok": false, "error"}.

The board must have a broker for remote games (``--remote`` or the config's
``[remote] broker``). The name is the game's secret: a new one is never sent
back, and a given one is never echoed.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Protocol

from aiohttp import web

from maxima_board.service import remote_wire as w
from maxima_board.service.remote_layer import RemoteLayer
from maxima_board.service.stack import find_layer
from maxima_board.webbase.httpbase import reply_json


class Host(Protocol):
    async def pin_form(self, request: web.Request) -> dict[str, str] | web.Response: ...
    async def run_command(self, run: Callable[[Any, int], Any]) -> Any: ...


@dataclass(frozen=True)
class BeginRemote:
    """The board's loop: begin the remote game ``name`` (None: a new one),
    this board playing ``side``. ValueError (one line) when it cannot."""

    side: str
    name: str | None

    def __call__(self, controller: Any, now_ms: int) -> list[dict]:
        layer = find_layer(controller, RemoteLayer)
        if layer is None or not layer.can_connect:
            raise ValueError("this board has no broker for remote games (--remote, or [remote] broker in the config)")
        if layer.active and layer.controller.result == "*":
            raise ValueError("the board is playing a remote game already")
        try:
            if self.name is None:
                events = layer.begin_new(self.side, now_ms, quiet=True)
            else:
                events = layer.begin(self.name, self.side, now_ms)
        except OSError as exc:
            raise ValueError(f"the broker cannot be used: {exc}") from None
        return events + controller.on_tick(now_ms)


class RemoteBoardRoutes:
    def __init__(self, host: Host):
        self.host = host

    def routes(self) -> list[web.RouteDef]:
        return [web.post("/api/remote", self.begin)]

    async def begin(self, request: web.Request) -> web.Response:
        form = await self.host.pin_form(request)
        if isinstance(form, web.Response):
            return form
        side = form.get("side", "").strip().lower()
        if side not in ("white", "black"):
            return reply_json({"ok": False, "error": "side: this board plays white or black"}, 400)
        name = (form.get("name") or "").strip() or None
        if name is not None and not w.NAME.match(name):
            return reply_json({"ok": False, "error": "name: 6-64 letters, digits, _ . : + - (as the other board "
                                                     "shows it)"}, 400)
        done = await self.host.run_command(BeginRemote(side, name))
        if isinstance(done, web.Response):
            return done
        if name is None:
            message = (f"Remote game begun: this board plays {side.title()}. Its name, which the other player "
                       f"gives their board, is on this board's display (MENU, Show remote game's name?).")
        else:
            message = f"Joined the remote game: this board plays {side.title()}."
        return reply_json({"ok": True, "message": message})
