"""The club dashboard as the server sends it: one card per table, drawn
from the tables the broker told (``ClubTables.tables(svg=True)``), so the
round is on screen before any script runs; dashboard.js then follows it
live. Everything came over the network: every value is escaped, and a
value of the wrong type is shown as missing.
"""
from __future__ import annotations

import json
from html import escape

from maxima_board.rules import variants
from maxima_board.rules.words import move_words, piece_names, plural
from maxima_board.webbase.page import clock_html, to_move
from maxima_board.webbase.svg import legend_html


def _text(value: object, default: str = "") -> str:
    return value if isinstance(value, str) else default


def _piece_names_json() -> str:
    """Every game's piece names by letter, for dashboard.js (as maxima_board.rules.words)."""
    names = {v.name: piece_names(v) for v in variants.all_variants()}
    castling = [v.name for v in variants.all_variants() if v.castling]
    return json.dumps({"names": names, "castling": castling}, separators=(",", ":")).replace("<", "\\u003c")


def last_move_text(table: dict) -> str:
    """``7... Pawn e3-e5 · 14 plies``, or "no moves yet" (dashboard.js writes the same)."""
    moves = table.get("moves") if isinstance(table.get("moves"), list) else []
    n = len(moves)
    if not n:
        return "no moves yet"
    texts = table.get("move_texts") if isinstance(table.get("move_texts"), list) else None
    sans = table.get("sans") if isinstance(table.get("sans"), list) else []
    if texts and len(texts) >= n:
        text = _text(texts[n - 1], "?")
    elif len(sans) >= n:
        label = _text(sans[n - 1], "?")
        try:
            text = move_words(_text(table.get("variant"), "maxima"), label)
        except ValueError:          # a game this dashboard does not know
            text = label
    else:
        text = "?"
    return f"{(n - 1) // 2 + 1}{'.' if n % 2 else '...'} {text} · {plural(n, 'ply', 'plies')}"


def _clocks(table: dict) -> str:
    clocks = table.get("clocks")
    ok = isinstance(clocks, dict) and all(isinstance(clocks.get(s), int) for s in ("white", "black"))
    side = to_move(table)
    if ok:
        return clock_html("white", clocks, to_move=side) + clock_html("black", clocks, to_move=side)
    if side:
        return f'<span class="to-move">{side.title()} to move</span>'
    return ""


def table_card(table: dict) -> str:
    """One table's card (dashboard.js ``card``/``show`` keep the same shape)."""
    name = _text(table.get("table"), "?")
    tags = table.get("tags") if isinstance(table.get("tags"), dict) else {}
    online = table.get("online")
    moves = table.get("moves") if isinstance(table.get("moves"), list) else []
    legend = ""
    if isinstance(table.get("fen"), str) and table.get("svg"):
        try:
            legend = legend_html(table["fen"], _text(table.get("variant"), "maxima"))
        except ValueError:
            legend = ""
    result = _text(table.get("result"))
    reason = _text(table.get("reason"))
    result_text = f"{result} ({reason})" if result and result != "*" and reason else (result if result != "*" else "")
    white, black = _text(tags.get("White")) or "White", _text(tags.get("Black")) or "Black"
    return (f'<article class="table{" offline" if online is False else ""}" data-table="{escape(name)}" '
            f'data-plies="{len(moves)}">'
            f'<h2><span class="table-name">Table {escape(name)}{" (offline)" if online is False else ""}</span>'
            f'<span class="game-name">{escape(_text(table.get("title")))}</span></h2>'
            f'<div class="names">{escape(white)} – {escape(black)}</div>'
            f'<div class="mini">{table.get("svg") or ""}</div>'
            f'<div class="clocks-line">{_clocks(table)}</div>'
            f'<div class="last">{escape(last_move_text(table))}</div>'
            f'<div class="result">{escape(result_text)}</div>'
            f'<details class="legend"><summary>Which piece is which</summary>'
            f'<ul class="legend-list">{legend}</ul></details></article>')


DEFAULT_CLUB = "club"   # the club name the commands take when none is given (``--club``)


def club_heading(club: str) -> str:
    """The dashboard's heading: the club's name once ("Hastings · club
    dashboard"), "Club dashboard" for the default name (dashboard.js
    ``clubHeading`` writes the same)."""
    return "Club dashboard" if club.strip().lower() in ("", DEFAULT_CLUB) else f"{club} · club dashboard"


def status_text(count: int, broker_ok: bool = True) -> str:
    """The line under the heading: how many tables (dashboard.js ``statusText``)."""
    seen = "no table seen yet" if not count else plural(count, "table", "tables")
    return seen + ("" if broker_ok else " · broker unreachable, showing the last known state")


def round_label(name: str) -> str:
    """A round record's link: "round 3", "games without a round" (``-``; dashboard.js ``roundLabel``)."""
    return "games without a round" if name == "-" else f"round {name}"


def empty_html(club: str) -> str:
    """What the page says while no table has been seen: how a board joins."""
    option = "" if club.strip().lower() in ("", DEFAULT_CLUB) else f" --club {club}"
    setting = "" if club.strip().lower() in ("", DEFAULT_CLUB) else f', club = "{club}"'
    return (f'<p>No board has reported to this dashboard yet. A board joins when it broadcasts to the same '
            f'broker: <code>maxima-board serve --broadcast HOST:PORT{escape(option)} --table N</code>, or '
            f'<code>[broadcast] broker = "HOST:PORT"{escape(setting)}, table = "N"</code> in its config. '
            f'Its card appears here with its first move.</p>')


def dashboard_page(club: str, tables: list[dict], broker_ok: bool = True, rounds: list[str] | None = None) -> str:
    """The whole dashboard page for ``tables`` (with their ``svg``, drawn
    by :func:`maxima_board.webbase.svg.board_svg` from the table's FEN)."""
    links = "".join(f'<a href="/round/{escape(_quote(r))}.pgn">{escape(round_label(r))}</a>' for r in rounds or [])
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(club_heading(club))} · maxima-board</title>
<link rel="stylesheet" href="/static/style.css">
<script type="application/json" id="piece-names">{_piece_names_json()}</script>
<script src="/static/common.js" defer></script>
<script src="/static/dashboard.js" defer></script>
</head>
<body>
<header>
  <h1 id="club" data-club="{escape(club)}">{escape(club_heading(club))}</h1>
  <p id="status" class="muted">{escape(status_text(len(tables), broker_ok))}</p>
  <p class="rounds">Game records (PGN) by round: <span id="rounds">{links or "none yet"}</span></p>
</header>
<main>
  <div id="empty" class="empty"{" hidden" if tables else ""}>{empty_html(club)}</div>
  <div id="tables" class="tables" data-count="{len(tables)}">{"".join(table_card(t) for t in tables)}</div>
</main>
</body>
</html>
"""


def _quote(text: str) -> str:
    from urllib.parse import quote
    return quote(text, safe="")
