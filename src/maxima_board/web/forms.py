"""What the board's page takes from the network, checked: the new-game
request's fields (:func:`parse_new_game`), a form's or a JSON object's
fields (:func:`form_fields`), and whether a request comes from another site
(:func:`cross_site`). Every value is bounded and validated here before it
reaches the board's loop."""
from __future__ import annotations

import hmac
import json
import re
import unicodedata
from urllib.parse import parse_qs

from aiohttp import web

from maxima_board.devices.boards import games_for
from maxima_board.rules import FenError, Position
from maxima_board.rules import variants
from maxima_board.service.feed import NewGame

TAG_FIELDS = {"white": "White", "black": "Black", "event": "Event", "round": "Round", "site": "Site"}
MAX_TAG = 80
# 90+30 (Fischer), 60d10 (delay), 40/90,30+30 (stages); "none".
_TIME_CONTROL = re.compile(r"^(none|(\d{1,3}/)?\d{1,3}([+d]\d{1,3})?(,(\d{1,3}/)?\d{1,3}([+d]\d{1,3})?)*)$")

def available_games(board_kind: str = "maxima") -> list[dict]:
    """The games (variants) a board of ``board_kind`` can start: id, name, start FEN."""
    playable = [variants.get(name) for name in games_for(board_kind)]
    return [{"id": v.name, "name": v.title, "start_fen": v.start_fen} for v in playable]


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
    games = {g["id"]: g for g in available_games(board_kind)}
    game = (form.get("game") or next(iter(games))).strip().lower()
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


def form_fields(body: bytes, content_type: str, token: str) -> dict[str, str]:
    """The new-game request's fields: a JSON object (a page of another site
    cannot send one without the browser asking first), or a form carrying
    this server's token. PermissionError for a form without it, LookupError
    for any other kind of body, ValueError for an unreadable one."""
    if content_type == "application/json":
        raw = json.loads(body.decode("utf-8") or "{}")
        if not isinstance(raw, dict):
            raise ValueError("expected a JSON object")
        form = {}
        for key, value in raw.items():
            if not isinstance(value, (str, int, float, bool)) and value is not None:
                raise ValueError(f"{str(key)[:20]}: expected text")
            form[str(key)] = "" if value is None else str(value)
        return form
    if content_type == "application/x-www-form-urlencoded":
        pairs = parse_qs(body.decode("utf-8"), keep_blank_values=True, strict_parsing=False,
                         max_num_fields=64, errors="strict")
        form = {k: v[-1] for k, v in pairs.items()}
        if not hmac.compare_digest(form.get("token", "").encode(), token.encode()):
            raise PermissionError("the form is out of date: reload the page")
        return form
    raise LookupError("send the form from the board's page (JSON or the page's form)")


def cross_site(request: web.Request) -> str | None:
    """Why a request changing the board comes from another site, or None.
    No Origin (a program, not a browser) is fine; the Host is checked already."""
    origin = request.headers.get("Origin")
    if origin is not None and origin.lower() != f"{request.scheme}://{request.host}".lower():
        return "requests from other sites are refused"
    if request.headers.get("Sec-Fetch-Site", "same-origin") not in ("same-origin", "none"):
        return "requests from other sites are refused"
    return None
