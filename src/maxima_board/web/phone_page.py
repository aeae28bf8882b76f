"""What the invited player's phone shows (``/play/<token>``): the game as
the phone knows it (:class:`~maxima_board.web.phone_peer.PhoneView`) with
the board's clocks, as a JSON-able state (:func:`phone_state`, sent on
every change) and as the whole page drawn from it (:func:`phone_page`), so
the board stands before any script runs; phone.js then follows it live.
Every text written is escaped.
"""
from __future__ import annotations

from html import escape

from maxima_board.rules.words import move_texts
from maxima_board.service.remote_talk import WHAT
from maxima_board.webbase.page import clock_html, moves_html
from maxima_board.webbase.svg import board_svg, legend_html

from .phone_peer import PhoneView

def _outcome(view: PhoneView, result: str) -> str:
    mine = "1-0" if view.side == "white" else "0-1"
    theirs = "0-1" if view.side == "white" else "1-0"
    return "You won." if result == mine else "You lost." if result == theirs else "Drawn."


def status_line(view: PhoneView, on_board: bool, result: str | None, reason: str) -> str:
    """One line: what the phone's player waits for or may do now."""
    board = "Black" if view.side == "white" else "White"
    if result is not None:
        return f"Game over: {result}{f' ({reason})' if reason else ''}. {_outcome(view, result)}"
    if not view.ready:
        return "Waiting for the board to begin the game (the pieces set up, OK pressed)."
    if not on_board:
        return "The board is not playing this game now."
    if view.asks is not None:
        return f"The board's player asks: {WHAT[view.asks]}. Accept or decline."
    if view.asked is not None:
        return f"You asked: {WHAT[view.asked]}. Waiting for the answer."
    if view.turn == view.side:
        return f"Your move ({view.side.title()}): tap a piece, then its square."
    if view.made < view.plies:
        return "Your move is being made on the board."
    return f"{board} (the board) to move."


def on_board_of(view: PhoneView, snapshot: dict | None) -> bool:
    """Whether the board's game (its feed ``snapshot``) is the phone's game."""
    remote = (snapshot or {}).get("remote")
    return isinstance(remote, dict) and remote.get("game") == view.game


def phone_state(view: PhoneView, snapshot: dict | None) -> dict:
    """The phone's page state: the game, whose turn, the moves in words,
    the clocks and result of the board while it plays this game."""
    tags = (snapshot or {}).get("tags") or {}
    on_board = on_board_of(view, snapshot)
    result, reason = view.result, view.reason
    if result is None and on_board and snapshot.get("result") not in (None, "*"):
        result, reason = snapshot["result"], snapshot.get("reason") or ""
    svg = legend = ""
    if view.ready:
        last = {"from": view.last[0], "to": view.last[1]} if view.last else None
        svg = board_svg(view.fen, {}, last, variant=view.variant, flip=view.side == "black")
        legend = legend_html(view.fen, view.variant)
    title = (snapshot or {}).get("title", "") if on_board else ""
    return {
        "version": view.version, "side": view.side, "ready": view.ready, "on_board": on_board,
        "variant": view.variant, "title": title, "fen": view.fen, "turn": view.turn,
        "your_turn": view.to_move and on_board and result is None,
        "move_texts": move_texts(view.variant, list(view.labels)) if view.ready else [],
        "last": {"from": view.last[0], "to": view.last[1]} if view.last else None,
        "clocks": snapshot.get("clocks") if on_board else None,
        "asked": view.asked, "asks": view.asks, "result": result, "reason": reason,
        "status": status_line(view, on_board, result, reason), "note": view.note,
        "players": {"white": tags.get("White") or "White", "black": tags.get("Black") or "Black"} if on_board
        else {"white": "White", "black": "Black"},
        "svg": svg, "legend": legend,
    }


def choices_of(view: PhoneView) -> list[dict]:
    """The phone's legal moves now (none when it may not move)."""
    return [{"move": c.move, "from": c.origin, "to": c.to, "words": c.words} for c in view.choices]


def phone_page(state: dict) -> str:
    """The whole phone page for ``state`` (:func:`phone_state`)."""
    side = state["side"]
    clocks = state.get("clocks")
    to_move = state["turn"] if state.get("result") is None and state.get("ready") else None
    result = state.get("result")
    result_text = f"{result}{' (' + state['reason'] + ')' if state.get('reason') else ''}" if result else ""
    title = f"You play {side.title()}" + (f" · {state['title']}" if state.get("title") else "")
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)} · maxima-board</title>
<link rel="stylesheet" href="/static/style.css">
<link rel="stylesheet" href="/static/phone.css">
<script src="/static/common.js" defer></script>
<script src="/static/phone.js" defer></script>
</head>
<body class="phone" data-side="{escape(side)}">
<header>
  <h1 id="title">{escape(title)}</h1>
  <p id="status" class="status">{escape(state["status"])}</p>
</header>
<main>
  <section class="board-area">
    <div id="clocks" class="clocks"{"" if clocks else " hidden"}>
      {clock_html("white", clocks, "clock-white", to_move)}
      {clock_html("black", clocks, "clock-black", to_move)}
    </div>
    <div id="board" class="board-wrap" aria-live="polite">{state["svg"]}</div>
    <div id="choices" class="choices" hidden></div>
  </section>
  <section class="side">
    <div id="question" class="question" hidden>
      <span id="question-text"></span>
      <button type="button" id="accept">Accept</button>
      <button type="button" id="decline">Decline</button>
    </div>
    <p id="msg" class="msg" role="status">{escape(state.get("note") or "")}</p>
    <div class="actions">
      <button type="button" id="ask-draw">Offer a draw</button>
      <button type="button" id="ask-takeback">Ask to take back</button>
      <button type="button" id="resign">Resign</button>
      <button type="button" id="withdraw" hidden>Withdraw the question</button>
    </div>
    <h2>Moves</h2>
    <ol id="moves" class="moves">{moves_html(state["move_texts"])}</ol>
    <p id="result" class="result">{escape(result_text)}</p>
    <details id="legend" class="legend">
      <summary>Which piece is which</summary>
      <ul id="legend-list" class="legend-list">{state["legend"]}</ul>
    </details>
  </section>
</main>
</body>
</html>
"""


GONE_PAGE = """<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>No such game · maxima-board</title><link rel="stylesheet" href="/static/style.css"></head>
<body><h1>No such game</h1>
<p>This link is not (or no longer) an invitation of this board: ask the board's owner for a new one.</p>
</body></html>
"""
