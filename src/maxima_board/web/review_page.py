"""A stored game's page (``GET /games/N``, ``?ply=K``: after K moves): the
board after the chosen move (``board_svg``), the evaluation graph (an SVG
drawn here, so that the page works without JavaScript), the moves with
their classes, the better move on a second board, and links to step
through the game (review.js adds the arrow keys). Everything from the
database is escaped: a player's name is whatever was typed."""
from __future__ import annotations

from html import escape

from maxima_board.service.review import Reviewed, Step
from maxima_board.webbase.svg import board_svg, legend_html

GRAPH_W, GRAPH_H = 600, 140
MARK_COLOURS = {"inaccuracy": "#d8a500", "mistake": "#e07020", "blunder": "#c0201b"}
_WORDS = {"inaccuracy": "Inaccuracy", "mistake": "Mistake", "blunder": "Blunder"}


def clamp_ply(view: Reviewed, ply: int | None) -> int:
    """The position asked for, within the game (None: the last one)."""
    last = len(view.steps)
    return last if ply is None else max(0, min(last, ply))


def graph_svg(view: Reviewed, ply: int, number: int) -> str:
    """White's win chance after each move (0-100, White up), the reviewed
    positions joined, inaccuracies, mistakes and blunders as coloured
    dots, the shown position as a line; each position a link to it."""
    count = len(view.steps)
    step_x = GRAPH_W / max(count, 1)
    chances = [view.start_chance] + [s.chance for s in view.steps]
    points = [(i * step_x, GRAPH_H * (1 - c / 100)) for i, c in enumerate(chances) if c is not None]
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {GRAPH_W} {GRAPH_H}" class="graph" '
           f'role="img" aria-label="evaluation graph: White\'s win chance after each move" '
           f'preserveAspectRatio="none">',
           f'<rect x="0" y="0" width="{GRAPH_W}" height="{GRAPH_H}" fill="#3a3a3a"/>']
    if points:
        area = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
        out.append(f'<polygon points="{points[0][0]:.1f},{GRAPH_H} {area} {points[-1][0]:.1f},{GRAPH_H}" '
                   f'fill="#f4f4f0"/>')
        out.append(f'<polyline points="{area}" fill="none" stroke="#888" stroke-width="1.5"/>')
    out.append(f'<line x1="0" y1="{GRAPH_H / 2}" x2="{GRAPH_W}" y2="{GRAPH_H / 2}" stroke="#999" '
               f'stroke-dasharray="4 4" stroke-width="1"/>')
    out.append(f'<line x1="{ply * step_x:.1f}" y1="0" x2="{ply * step_x:.1f}" y2="{GRAPH_H}" stroke="#2f6fd6" '
               f'stroke-width="2" class="now"/>')
    for step in view.steps:
        j = step.judged
        if j is None or j.kind is None or step.chance is None:
            continue
        x, y = (step.ply + 1) * step_x, GRAPH_H * (1 - step.chance / 100)
        out.append(f'<a href="/games/{number}?ply={step.ply + 1}"><circle cx="{x:.1f}" cy="{y:.1f}" r="5" '
                   f'fill="{MARK_COLOURS[j.kind]}" stroke="#fff" stroke-width="1" data-kind="{j.kind}" '
                   f'data-ply="{step.ply + 1}"><title>{escape(step.numbered)}: {_WORDS[j.kind]}</title>'
                   f'</circle></a>')
    for i in range(count + 1):        # a column per position: a click shows it
        out.append(f'<a href="/games/{number}?ply={i}"><rect x="{(i - 0.5) * step_x:.1f}" y="0" '
                   f'width="{step_x:.1f}" height="{GRAPH_H}" fill="transparent"/></a>')
    out.append("</svg>")
    return "".join(out)


def _moves_html(view: Reviewed, ply: int, number: int) -> str:
    items = []
    for step in view.steps:
        j = step.judged
        kind = j.kind if j is not None else None
        classes = ["mv"] + ([kind] if kind else []) + (["now"] if step.ply + 1 == ply else [])
        title = f' title="{_WORDS[kind]}: better {escape(step.better_numbered or "")}"' if kind else ""
        symbol = f'<span class="nag">{escape(j.symbol)}</span>' if kind else ""
        evaluation = f' <span class="ev">{escape(step.eval)}</span>' if step.eval is not None else ""
        items.append(f'<li><a class="{" ".join(classes)}" href="/games/{number}?ply={step.ply + 1}"{title}'
                     f' data-ply="{step.ply + 1}">{escape(step.numbered)}{symbol}</a>{evaluation}</li>')
    return "".join(items)


def _about(step: Step | None, view: Reviewed) -> str:
    if step is None:
        return f"The start. Evaluation {escape(view.start_eval or 'not reviewed yet')}."
    text = f"After {escape(step.numbered)}: evaluation {escape(step.eval or 'not reviewed yet')}"
    j = step.judged
    if j is not None and j.kind:
        text += (f'. <strong class="{j.kind}">{_WORDS[j.kind]}</strong> ({j.loss:.0f} points of win chance '
                 f'lost)')
        if step.better_numbered:
            text += f'; better was <strong>{escape(step.better_numbered)}</strong>'
    return text + "."


def review_html(view: Reviewed, ply: int | None, number: int) -> str:
    """The page of game ``number`` at position ``ply`` (after that many moves)."""
    ply = clamp_ply(view, ply)
    game = view.game
    variant = view.record.variant.name
    step = view.steps[ply - 1] if ply else None
    fen = step.fen_after if step else view.start_fen
    last = {"from": step.squares[0], "to": step.squares[1]} if step else None
    board = board_svg(fen, None, last, variant=variant)
    better = ""
    if step is not None and step.better_fen and step.better_squares:
        leds = {step.better_squares[0]: "engine-from", step.better_squares[1]: "engine-to"}
        better = (f'<figure class="better"><figcaption>Better: {escape(step.better_numbered or "")}</figcaption>'
                  f'{board_svg(step.better_fen, leds, None, variant=variant)}</figure>')
    title = f"{game.white} - {game.black}"
    result = game.result + (f" ({game.reason})" if game.reason else "")
    status = ("reviewed" if view.complete else
              "not reviewed yet (maxima-board review, or the board after the game)" if view.start_eval is None
              else "being reviewed")
    nav = []
    for label, target, key in (("« Start", 0, "first"), ("◀ Back", ply - 1, "prev"), ("Next ▶", ply + 1, "next"),
                               ("End »", len(view.steps), "last")):
        if 0 <= target <= len(view.steps) and target != ply:
            nav.append(f'<a class="button" id="{key}" href="/games/{number}?ply={target}">{label}</a>')
        else:
            nav.append(f'<span class="button off" id="{key}">{label}</span>')
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Game {number}: {escape(title)} · maxima-board</title>
<link rel="stylesheet" href="/static/style.css">
<link rel="stylesheet" href="/static/review.css">
<script src="/static/review.js" defer></script>
</head>
<body class="review" data-game="{number}" data-ply="{ply}">
<header>
  <h1>Game {number}: {escape(title)}</h1>
  <p class="muted">{escape(view.record.variant.title)} · {escape(game.date)} · {escape(result)} · {escape(status)} ·
  <a href="/games/{number}.pgn">PGN</a> · <a href="/">the board</a></p>
</header>
<main>
  <section class="board-area">
    <div class="board-wrap">{board}</div>
    <nav class="steps" aria-label="step through the game">{"".join(nav)}</nav>
    <p class="about" id="about">{_about(step, view)}</p>
    {better}
  </section>
  <section class="side">
    <h2>Evaluation</h2>
    <div class="graph-wrap">{graph_svg(view, ply, number)}</div>
    <p class="keys muted">White's chance to win, after each move; <span class="k inaccuracy">●</span> inaccuracy
    <span class="k mistake">●</span> mistake <span class="k blunder">●</span> blunder. Arrow keys step.</p>
    <h2>Moves</h2>
    <ol class="review-moves">{_moves_html(view, ply, number)}</ol>
    <details class="legend"><summary>Pieces</summary><ul class="legend-list">{legend_html(fen, variant)}</ul></details>
  </section>
</main>
</body>
</html>
"""


__all__ = ["review_html", "graph_svg", "clamp_ply"]
