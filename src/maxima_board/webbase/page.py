"""The board's web page as the server sends it: the whole page drawn from
the newest snapshot (board, legend, moves in words, clocks, the game's
name), so a slow phone or a screenshot sees the game before any script
runs; board.js then follows the game live. Every value is escaped.
"""
from __future__ import annotations

from html import escape
from typing import Iterable

from maxima_board.rules.words import move_texts

from .svg import board_svg, legend_html

# What each LED state asks of the players (the colours are the board picture's); board.js has the same.
LED_WORDS = {
    "last-from": "last move from", "last-to": "last move to", "remove": "take off", "error-extra": "should be empty",
    "error-missing": "piece missing", "check": "check", "immobilized": "immobilized", "setup-missing": "place a piece",
    "hint": "possible move", "captures": "it would capture", "engine-from": "computer moves from", "engine-to": "computer moves to",
}
SIDES = ("white", "black")


def clock_text(ms: int) -> str:
    """``1:29:05``, ``9:05`` (rounded up to the second, as board.js)."""
    s = -(-max(0, int(ms)) // 1000)
    h, m, r = s // 3600, s % 3600 // 60, s % 60
    return f"{h}:{m:02d}:{r:02d}" if h else f"{m}:{r:02d}"


def players(tags: dict) -> str:
    return f"{tags.get('White') or 'White'} – {tags.get('Black') or 'Black'}"


def status_text(snapshot: dict) -> str:
    """The line under the players: the game in words, its number, event and
    round, and whose turn it is (board.js writes the same)."""
    tags = snapshot.get("tags") or {}
    where = ", ".join(x for x in (tags.get("Event"), f"round {tags['Round']}" if tags.get("Round") not in
                                  (None, "", "-") else "") if x)
    mode = snapshot.get("mode")
    what = ("setting up" if mode == "setup" else "game over" if mode == "ended"
            else "White to move" if snapshot.get("turn") == "white" else "Black to move")
    game = f"game {snapshot['game']}" if snapshot.get("game") is not None else ""
    return " · ".join(x for x in (snapshot.get("title") or "", game, where, what) if x)


def to_move(snapshot: dict) -> str | None:
    """The side to move while the game is played, else None."""
    in_play = snapshot.get("result") in (None, "*") and snapshot.get("mode") not in ("setup", "ended")
    turn = snapshot.get("turn")
    return turn if in_play and turn in SIDES else None


def clock_html(side: str, clocks: dict | None, element_id: str = "", to_move: str | None = None) -> str:
    """One clock: its side in words, the time left, and "to move" on the
    side to move (``to_move``); it is green while it runs."""
    ms = (clocks or {}).get(side)
    ms = ms if isinstance(ms, int) else None
    running = bool(clocks) and clocks.get("running") == side
    classes = "clock" + (" running" if running else "") + (" flag" if ms is not None and ms <= 0 else "")
    ident = f' id="{element_id}"' if element_id else ""
    time = clock_text(ms) if ms is not None else "–"
    return (f'<span{ident} class="{classes}" data-side="{side}"><span class="side">{side.title()}</span> '
            f'<span class="time">{time}</span><span class="turn">{" to move" if to_move == side else ""}</span></span>')


def moves_html(texts: Iterable[str]) -> str:
    """The moves in words, one list item per move number."""
    texts = list(texts)
    out = []
    for i in range(0, len(texts), 2):
        plies = "".join(f'<span class="ply">{escape(t)}</span>' for t in texts[i:i + 2])
        out.append(f"<li>{plies}</li>")
    return "".join(out)


def lit_html(leds: dict) -> str:
    by_state: dict[str, list[str]] = {}
    for square, state in (leds or {}).items():
        by_state.setdefault(str(state), []).append(str(square))
    return "".join(f'<li data-led="{escape(state)}">{escape(LED_WORDS.get(state, state))}: '
                   f'{escape(", ".join(sorted(squares)))}</li>' for state, squares in by_state.items())


def _options(games: list[dict]) -> str:
    games = games or [{"id": "maxima", "name": "Maxima"}]
    return "".join(f'<option value="{escape(g["id"])}">{escape(g["name"])}</option>' for g in games)


def board_page(snapshot: dict | None, games: list[dict] | None = None) -> str:
    """The whole page for ``snapshot`` (None: the board is starting), with
    ``games`` (``available_games``: id, name) in the new-game form."""
    s = snapshot or {}
    tags = s.get("tags") or {}
    svg = legend = ""
    if s.get("fen"):
        variant = s.get("variant") or "maxima"
        try:
            svg = board_svg(s["fen"], s.get("leds"), s.get("last"), variant=variant)
            legend = legend_html(s["fen"], variant)
        except ValueError:
            svg = legend = ""
    texts = s.get("move_texts")
    if texts is None and s.get("sans") is not None:
        texts = move_texts(s.get("variant") or "maxima", s["sans"])
    clocks = s.get("clocks")
    result = s.get("result")
    result_text = f"{result}{' (' + s['reason'] + ')' if s.get('reason') else ''}" if result not in (None, "*") else ""
    title = f"{s['title']}: {players(tags)} · maxima-board" if s.get("title") else "maxima-board"
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)}</title>
<link rel="stylesheet" href="/static/style.css">
<script src="/static/common.js" defer></script>
<script src="/static/board.js" defer></script>
</head>
<body>
<header>
  <h1 id="players">{escape(players(tags)) if snapshot else "maxima-board"}</h1>
  <p id="status" class="muted">{escape(status_text(s)) if snapshot else "the board is starting…"}</p>
</header>
<main>
  <section class="board-area">
    <div id="clocks" class="clocks"{"" if clocks else " hidden"}>
      {clock_html("white", clocks, "clock-white", to_move(s))}
      {clock_html("black", clocks, "clock-black", to_move(s))}
    </div>
    <div id="board" class="board-wrap" aria-live="polite">{svg}</div>
  </section>
  <section class="side">
    <h2>Moves</h2>
    <ol id="moves" class="moves">{moves_html(texts or [])}</ol>
    <p id="result" class="result">{escape(result_text)}</p>
    <ul id="lit" class="lit">{lit_html(s.get("leds") or {})}</ul>
    <pre id="oled" class="oled" title="the board's display">{escape(chr(10).join(map(str, s.get("display") or [])))}</pre>
    <details id="legend" class="legend">
      <summary>Which piece is which</summary>
      <ul id="legend-list" class="legend-list">{legend}</ul>
    </details>
    <h2>Games</h2>
    <ul id="games" class="games"></ul>
    <button type="button" id="games-more" hidden>Older games</button>
    <details id="new-game">
      <summary>New game</summary>
      <form id="new-game-form" method="post" autocomplete="off">
        <label>Game <select name="game" id="f-game">{_options(games or [])}</select></label>
        <label>Start FEN <input name="fen" id="f-fen" placeholder="start"></label>
        <label>White <input name="white" id="f-white" maxlength="80"></label>
        <label>Black <input name="black" id="f-black" maxlength="80"></label>
        <label>Event <input name="event" id="f-event" maxlength="80"></label>
        <label>Round <input name="round" id="f-round" maxlength="80"></label>
        <label>Time control <input name="time_control" id="f-time" placeholder="90+30, 60d10, 40/90,30+30, none"></label>
        <label>Computer plays <select name="opponent" id="f-opponent"><option value="">as now</option><option value="none">nobody</option><option value="white">White</option><option value="black">Black</option></select></label>
        <label class="check"><input type="checkbox" name="setup" id="f-setup" checked> set the pieces up on the board first</label>
        <label>Board PIN <input name="pin" id="f-pin" inputmode="numeric" pattern="[0-9]*" maxlength="6" required></label>
        <p class="muted">The PIN is on the board's display: MENU until "Show web PIN?", then OK.</p>
        <button type="submit" id="f-submit">Start</button>
        <p id="form-msg" role="status"></p>
      </form>
    </details>
    <details id="invite">
      <summary>Invite a player</summary>
      <form id="invite-form" method="post" action="/api/invite" autocomplete="off">
        <p class="muted">A player without a board plays from a phone's browser: the board shows their moves, you make them.</p>
        <label>The invited player plays <select name="side" id="i-side"><option value="black">Black</option><option value="white">White</option></select></label>
        <label>Game <select name="game" id="i-game"><option value="current">the board's game (before any move)</option>{_options(games or [])}</select></label>
        <label>Their name <input name="player" id="i-player" maxlength="80" placeholder="for a new game's record"></label>
        <label>Time control <input name="time_control" id="i-time" placeholder="a new game's: 90+30, 60d10, none"></label>
        <label>Board PIN <input name="pin" id="i-pin" inputmode="numeric" pattern="[0-9]*" maxlength="6" required></label>
        <button type="submit" id="i-submit">Invite</button>
        <p id="invite-msg" role="status"></p>
        <p id="invite-link" class="invite-link" hidden><a id="invite-a" href="#" rel="noreferrer"></a></p>
      </form>
    </details>
    <details id="remote-board">
      <summary>Play a board elsewhere</summary>
      <form id="remote-form" method="post" action="/api/remote" autocomplete="off">
        <p class="muted">Through the broker of remote games (docs/remote.md). Leave the name empty to begin a new game: the board shows its name on its own display, for the other player.</p>
        <label>This board plays <select name="side" id="r-side"><option value="white">White</option><option value="black">Black</option></select></label>
        <label>Game's name <input name="name" id="r-name" maxlength="64" placeholder="empty: a new game" autocapitalize="none" spellcheck="false"></label>
        <label>Board PIN <input name="pin" id="r-pin" inputmode="numeric" pattern="[0-9]*" maxlength="6" required></label>
        <button type="submit" id="r-submit">Play</button>
        <p id="remote-msg" role="status"></p>
      </form>
    </details>
  </section>
</main>
</body>
</html>
"""
