"""What a board publishes, and where: retained JSON messages under
``maxima-board/<club>/<table>/``. Pure: a board snapshot in, messages out.

    .../status      {"online": bool, "boot", "at": ms}   (the last will says offline)
    .../state       everything below in one message (what the dashboard reads),
                    ordered by ``boot`` (the board's start count) and ``seq``
    .../game        {"game", "tags", "start_fen", "variant"}
    .../fen         {"fen", "turn"}
    .../moves       {"game", "moves": [canonical], "sans": [with piece letters]}
    .../clocks      {"white": ms, "black": ms, "running": side|null} or null
    .../result      {"game", "result", "reason"}
    .../games/<n>   game n's record: tags, start FEN, every move, result

All messages are JSON and retained, so a dashboard that connects late gets
the whole round at once.
"""
from __future__ import annotations

import json
import re
import time

ROOT = "maxima-board"
_WORD = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")


def parse_broker(text: str) -> tuple[str, int]:
    """``host:port`` (port 1883 when left out); ValueError says what is wrong."""
    host, sep, port = str(text).strip().rpartition(":")
    if not sep:
        host, port = str(text).strip(), "1883"
    host = host.strip("[]")
    if not host:
        raise ValueError(f"broker {text!r}: expected host:port, e.g. 192.168.1.10:1883")
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"broker {text!r}: the port must be a number 1 to 65535")
    return host, int(port)


def topic_word(value: object, what: str) -> str:
    """A club or table name as used in topics: letters, digits, ``_.-``."""
    text = str(value).strip()
    if isinstance(value, bool) or not _WORD.match(text):
        raise ValueError(f"{what} {text!r}: use 1 to 64 letters, digits, '_', '.' or '-'")
    return text


def base_topic(club: str, table: str) -> str:
    return f"{ROOT}/{club}/{table}"


def status_payload(online: bool, boot: int = 0) -> bytes:
    """``status``; ``boot`` tells a late last will of an earlier start from this start's word."""
    return json.dumps({"online": online, "boot": boot, "at": int(time.time() * 1000)}).encode()


def game_record(snapshot: dict) -> dict:
    """The record of the snapshot's game: enough to write its PGN-style text."""
    return {"game": snapshot["game"], "tags": snapshot["tags"], "start_fen": snapshot["start_fen"],
            "variant": snapshot.get("variant", "maxima"), "title": snapshot.get("title", "Maxima"),
            "moves": snapshot["moves"],
            "result": snapshot["result"], "reason": snapshot["reason"]}


def state_payload(club: str, table: str, snapshot: dict, boot: int = 0) -> dict:
    """The ``state`` message: the whole table in one message. ``boot`` (the
    board's start count, maxima_board.club.boots) and ``seq`` order a table's states."""
    keep = ("game", "tags", "start_fen", "fen", "turn", "moves", "sans", "last", "leds", "mode",
            "result", "reason", "clocks", "seq", "at", "link_ok")
    return {"club": club, "table": table, "variant": snapshot.get("variant", "maxima"),
            "title": snapshot.get("title", "Maxima"),
            **{k: snapshot.get(k) for k in keep}, "boot": boot}


def table_messages(club: str, table: str, snapshot: dict, boot: int = 0) -> dict[str, bytes]:
    """Every retained message (topic → payload) for the board's state."""
    base = base_topic(club, table)
    state = state_payload(club, table, snapshot, boot)
    messages = {
        f"{base}/state": state,
        f"{base}/game": {"game": snapshot["game"], "tags": snapshot["tags"],
                         "start_fen": snapshot["start_fen"], "variant": state["variant"],
                         "title": state["title"]},
        f"{base}/fen": {"fen": snapshot["fen"], "turn": snapshot["turn"]},
        f"{base}/moves": {"game": snapshot["game"], "moves": snapshot["moves"], "sans": snapshot["sans"]},
        f"{base}/clocks": snapshot.get("clocks"),
        f"{base}/result": {"game": snapshot["game"], "result": snapshot["result"], "reason": snapshot["reason"]},
    }
    if snapshot["game"] is not None:
        messages[f"{base}/games/{snapshot['game']}"] = game_record(snapshot)
    return {topic: json.dumps(payload, separators=(",", ":")).encode() for topic, payload in messages.items()}
