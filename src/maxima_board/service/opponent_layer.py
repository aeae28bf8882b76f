"""The computer opponent on the board: a layer around the controller.

:class:`OpponentLayer` wraps a ``maxima_board.board.core.Controller`` and offers the
same interface (``maxima_board.service.stack.Layer``: ``on_frame``,
``on_button``, ``on_tick``, ``set_link``, ``new_game``, ``leds`` and
``next_deadline`` are its own, everything else is the controller's), so the
runner, the simulator and the script runner use it in the controller's
place. The core knows nothing of engines:

- after every call the layer reads the controller's events (a move, a
  take-back, a new or resumed game) and its position; when it is the
  computer's turn (``side``) it asks the engine
  (``maxima_board.service.engine_questions``) in a background thread. The
  answer comes back through the runner's input path: the next ``on_tick``
  (or any other call) picks it up, stamped with that call's time. With
  ``sync=True`` (replays, tests) the engine is asked and awaited within the
  call, so scripts are reproducible;
- it overlays ``engine-from``/``engine-to`` onto the controller's LED frame
  and offers "Computer: Pawn d3-d5. Make it on the board." to the
  controller's screen composer (``maxima_board.board.composer``), which
  keeps it back while a page owns the OLED (the chooser, a menu question,
  "Which move?", take-back guidance);
- the player makes the computer's move on the board; a different move is
  taken back at once (the controller's BACK) and the board guides the pieces
  back: "Not the computer's move." (a move for the computer before it has
  answered too: "Wait for the computer's move."; unless the engine cannot be
  found, when the player plays both sides);
- MENU offers "Computer: White?" (cycles none → White → Black) and "Hint?"
  (the engine's move for the player, shown the same way), through the
  controller's ``menu_items`` hook;
- an engine that dies or hangs is restarted by the supervisor and reported:
  an ``engine_restart`` event and "Computer not answering — restarting" on the
  OLED; the game goes on, and the question is asked again.

Events the layer adds: ``{"type": "engine_move", "for": "computer"|"hint",
"move": ..., "score": ..., "at": ms}``, ``{"type": "engine_restart", ...}``
(see ``maxima_board.opponent.supervisor``), ``{"type": "engine_error", "text": ...}``,
``{"type": "not_engine_move", "move": played, "expected": ...}`` and
``{"type": "opponent", "side": "white"|"black"|"none"}``, and
``{"type": "opponent", "level": N}`` when MENU's "Computer: Level N (word)?"
(built-in engine only) sets the next level.
"""
from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass
from typing import Callable

from maxima_board.board import guidance as g
from maxima_board.board.composer import Offer, Rank
from maxima_board.board.screens import piece_move
from maxima_board.rules import WHITE, Move, Position

from maxima_board.opponent.levels import DEFAULT as DEFAULT_LEVEL, LEVEL_COUNT, label as level_label
from maxima_board.opponent.players import PLAYERS
from maxima_board.opponent.supervisor import RESTARTING, Limits

from .engine_questions import EngineQuestions
from .stack import GameStack, WatchingLayer

SIDES = {"none": None, "white": WHITE, "black": -WHITE}
NOTE_MS = 4000
RETRY_MS = 2000       # after a failed question, wait this long before asking again
MOVETIME_MS = 10_000   # without a clock, the most a move may take (the level's node budget usually ends it)


def side_word(side: int | None) -> str:
    return "none" if side is None else "white" if side == WHITE else "black"


def player_name(engine: str, level: int | None) -> str:
    """The computer as a game record names it, as picochess writes
    "Stockfish 16 (level 5)": ``"maxima-board engine (level 5)"`` for the
    built-in engine, ``"maxima-board greedy player"`` for a baseline, the
    file name of any other UCI engine."""
    head = engine.strip()
    if ":" in head:
        before, _, after = head.rpartition(":")
        if "=" in after and "/" not in after:
            head = before
            for option in after.split(","):
                key, _, value = option.partition("=")
                if key.strip().lower() == "level" and value.strip().isdigit() and level is None:
                    level = int(value)
    if head == "builtin":
        name = "maxima-board engine"
    elif head in PLAYERS:
        name = f"maxima-board {head} player"
    else:
        name = os.path.basename(head.rstrip("/")) or head
    return f"{name} (level {level})" if level is not None else name


def replay_limits(level: int | None) -> Limits:
    """Deterministic limits for replays: ``go depth 1 + level // 2``."""
    return Limits(depth=1 + (level or 1) // 2)


@dataclass
class Shown:
    """An engine move shown on the board for the position ``key``."""

    key: tuple
    kind: str          # "computer" | "hint"
    move: Move
    words: str         # "Pawn d3-d5"
    score: str


class OpponentLayer(WatchingLayer):
    """The computer opponent around ``controller`` (see the module docstring).

    ``side``: "white", "black" or "none"; ``level``: 1-10 (the engine's
    ``Level`` option); ``engine``: an engine spec (``builtin``, ``greedy``,
    a path…); ``limits``: each question's ``go`` (default ``movetime``
    ``movetime_ms``, a cap: the built-in engine's level is a node budget,
    ``maxima_board.opponent.levels``; with a game clock, the clocks are sent instead);
    ``sync``: await answers within the call; ``seed``: the engine's ``Seed``
    option when it has one.
    """

    def __init__(self, controller: GameStack, side: str = "none", level: int | None = None,
                 engine: str = "builtin", *, limits: Limits | None = None, sync: bool = False,
                 seed: int | None = 0, grace_s: float | None = None, movetime_ms: int = MOVETIME_MS):
        super().__init__(controller)
        self.side = SIDES[side]
        self.level = level
        self.engine = engine
        self.sync = sync
        self.movetime_ms = movetime_ms
        self.limits = limits if limits is not None else (replay_limits(level) if sync else None)
        self.questions = EngineQuestions(engine, lambda: self.controller.position.variant.name, level,
                                         sync=sync, seed=seed, grace_s=grace_s)
        self._now = 0
        self._shown: Shown | None = None
        self._retry_at: int | None = None
        self._unavailable: str | None = None    # the engine spec names nothing usable: why; ask no more
        self._hint_wanted: tuple | None = None  # the key a hint was asked for
        self._note: tuple[str, int, str] | None = None   # (text, until ms, the text in one line)
        self._events: list[dict] = []
        self._squares: frozenset[str] | None = None   # the board's last frame (the game's squares)
        self._frame_at = 0                             # when it came
        self._named: tuple | None = None               # (game, white, black) last written to the record
        controller.add_menu_item(self._side_label, self._cycle_side)
        controller.add_menu_item("Hint?", self._ask_hint)
        if self._has_levels():
            controller.add_menu_item(self._level_label, self._step_level)
        controller.add_offer(self._offer)

    # ================================================================ the controller's interface
    def on_frame(self, now_ms: int, squares, outside: frozenset[str] = frozenset()) -> list[dict]:
        squares = frozenset(squares)
        if squares != self._squares:   # when the board last changed: the computer's piece astray, after grace
            self._squares, self._frame_at = squares, now_ms
        return super().on_frame(now_ms, squares, outside)

    def set_waker(self, wake: Callable[[], None]) -> None:
        """``wake()`` is called when an answer (or a report) is queued for
        the next call, so a sleeping loop comes to collect it."""
        self.questions.set_waker(wake)
        super().set_waker(wake)

    def next_deadline(self) -> int | None:
        times = [t for t in (self.controller.next_deadline(),
                             self._note[1] if self._note else None, self._retry_at) if t is not None]
        later = [t for t in times if t > self._now]
        return min(later) if later else None

    @property
    def leds(self) -> dict[str, str]:
        leds = self.controller.leds
        shown = self._current()
        if shown is None:
            return leds
        names = self.controller.position.geometry.names
        misplaced = self._misplaced()
        if misplaced is not None:   # guided on to the computer's square, not back home
            home = names[shown.move.from_square]
            leds = {sq: state for sq, state in leds.items() if not (sq == home and state == "error-missing")}
        layers = [(state, [sq]) for sq, state in leds.items()]
        layers.append(("engine-from", [names[shown.move.from_square]]))
        if shown.move.to_square is not None:
            layers.append(("engine-to", [names[shown.move.to_square]]))
        return g.compose_leds(layers)

    def _offer(self) -> Offer | None:
        """The layer's words for the controller's OLED (``maxima_board.board.composer``):
        a note above pages; the computer's move (in place of the board's
        guidance when its piece went astray) below them."""
        text, short = self._words()
        if text is None:
            return None
        if self._note is not None:
            return Offer(Rank.NOTE, text=text, short=short)
        return Offer(Rank.OPPONENT, text=text, short=short, replaces=self._misplaced() is not None)

    # ================================================================ settings
    @property
    def thinking(self) -> bool:
        """Whether a question (the computer's move, a hint) is with the engine."""
        return self.questions.asked is not None

    def set_side(self, side: str, now_ms: int | None = None) -> list[dict]:
        """Who the computer plays: "white", "black" or "none"."""
        self.side = SIDES[side]
        if self._shown is not None and self._shown.kind == "computer":
            self._shown = None
        self._retry_at = None
        self._unavailable = None
        return self.after(self._now if now_ms is None else now_ms, [])

    def set_level(self, level: int | None) -> None:
        self.level = level
        self.questions.set_level(level)

    def close(self) -> None:
        """Stop the worker and the engine."""
        self.questions.close()
        super().close()

    # ================================================================ the work
    def _key(self) -> tuple:
        c = self.controller
        return (c.game_id, tuple(c.moves))

    def _current(self) -> Shown | None:
        """The engine move to show now, if any."""
        shown = self._shown
        if shown is None or self.controller.mode not in ("play", "sync") or shown.key != self._key():
            return None
        return shown

    def _words(self) -> tuple[str | None, str]:
        """The OLED text (long, and short: one line, or two when the move
        in words needs them; never FEN letters), or None."""
        if self._note is not None:
            return self._note[0], self._note[2]
        if self._unavailable:
            return self._unavailable, "Computer unavailable"
        shown = self._current()
        if shown is not None:
            if shown.kind == "hint":
                return f"Hint: {shown.words}.", f"Hint: {shown.words}"
            misplaced = self._misplaced()
            if misplaced is not None:   # said in the board's printed names, as the LEDs light them
                c = self.controller
                position = c.position
                printed = c.printed_names(position)
                piece = position.piece_at(shown.move.from_square).name
                where = printed[position.geometry.index[misplaced]]
                return (f"Computer: {shown.words}. Put the {piece} on {printed[shown.move.to_square]} "
                        f"from {where}.", f"Computer: {shown.words}")
            return f"Computer: {shown.words}. Make it on the board.", f"Computer: {shown.words}"
        asked = self.questions.asked
        if asked is not None and asked[1] == "computer" and asked[0] == self._key():
            return "Computer is thinking.", "Computer thinking…"
        return None, ""

    def _misplaced(self) -> str | None:
        """The square the computer's piece was set on instead of its move's
        (the board otherwise as the move leaves it), once the grace time has
        run out; None otherwise."""
        shown = self._current()
        c = self.controller
        if shown is None or shown.kind != "computer" or self._squares is None or c.mode != "play" \
                or shown.move.to_square is None:
            return None
        if self._now - self._frame_at < c.settings.grace_ms:
            return None
        names = c.position.geometry.names
        home, target = names[shown.move.from_square], names[shown.move.to_square]
        expected = c.expected_squares
        missing = expected - self._squares - {names[sq] for sq in shown.move.captures}
        extra = self._squares - expected
        if missing != {home} or len(extra) != 1 or target in extra:
            return None
        return next(iter(extra))

    def _name_players(self) -> list[dict]:
        """The record names the computer's side by its engine and level."""
        c = self.controller
        if self.side is None or c.game_id is None or c.mode not in ("play", "sync"):
            return []
        name = player_name(self.engine, self.level)
        settings = c.settings
        white = name if self.side == WHITE else settings.white
        black = name if self.side != WHITE else settings.black
        if self._named == (c.game_id, white, black):
            return []
        self._named = (c.game_id, white, black)
        try:
            c.store.set_players(c.game_id, white, black)
        except (sqlite3.Error, OSError) as exc:
            return [{"type": "error", "text": f"Cannot record the computer's name: {exc}"}]
        return [{"type": "players", "game": c.game_id, "white": white, "black": black}]

    def after(self, now: int, events: list[dict]) -> list[dict]:
        self._now = max(self._now, now)
        now = self._now
        out = list(events)
        out += self._name_players()
        out += self._check_moves(now, events)
        out += self._collect(now)
        if self._note is not None and self._note[1] <= now:
            self._note = None
        self._maybe_ask(now)
        out += self._collect(now)
        pending, self._events = self._events, []
        return self.reframed(out + pending)


    def _check_moves(self, now: int, events: list[dict]) -> list[dict]:
        """A move of the computer's side other than its shown move is taken
        back; so is one made before the computer has answered (unless the
        engine is unavailable: then the player plays both sides)."""
        out: list[dict] = []
        c = self.controller
        for event in events:
            if event.get("type") != "move" or self.side is None or self._unavailable:
                continue
            moves = list(c.moves)
            if not moves or moves[-1] != event["move"]:
                continue
            before = (c.game_id, tuple(moves[:-1]))
            mover = -c.position.turn
            if mover != self.side:
                continue
            shown = self._shown
            if shown is not None and shown.kind == "computer" and shown.key == before:
                if event["move"] == str(shown.move):
                    continue
                out.append({"type": "not_engine_move", "move": event["move"], "expected": str(shown.move)})
                note = (f"Not the computer's move. Put it back, then play {shown.words}.", now + NOTE_MS,
                        "Not computer's move!")
            else:
                out.append({"type": "not_engine_move", "move": event["move"], "expected": None})
                note = ("Wait for the computer's move. Put the piece back.", now + NOTE_MS, "Wait for computer!")
            out += c.on_button(now, "back")
            self._note = note
        return out

    def _maybe_ask(self, now: int) -> None:
        c = self.controller
        if self.questions.asked is not None or self._unavailable:
            return
        if self._retry_at is not None and now < self._retry_at:
            return
        key = self._key()
        kind = None
        if (self.side is not None and c.mode == "play" and c.result == "*" and c.position.turn == self.side
                and c.position.outcome() is None):
            kind = "computer"
        elif self._hint_wanted == key and c.mode == "play" and c.result == "*":
            kind = "hint"
        if kind is None or (self._shown is not None and self._shown.key == key and self._shown.kind == kind):
            return
        self._retry_at = None
        self.questions.ask(key, kind, c.position, self._limits())

    def _limits(self) -> Limits:
        if self.limits is not None:
            return self.limits
        clocks = self.controller.clocks
        if clocks is not None:
            return Limits(wtime=clocks["white"], btime=clocks["black"])
        return Limits(movetime=self.movetime_ms)

    def _collect(self, now: int) -> list[dict]:
        """The engine's answers and reports (``EngineQuestions.answers``),
        as events, notes and the move shown."""
        out: list[dict] = []
        for item in self.questions.answers():
            if item[0] == "report":
                out.append({**item[1], "at": now})
                self._note = (RESTARTING + ".", now + NOTE_MS, "Computer restarting")
                continue
            key, kind = item[1], item[2]
            if item[0] == "failed":
                out.append({"type": "engine_error", "text": item[3], "at": now})
                self._note = (item[4], now + NOTE_MS, item[5])
                self._retry_at = now + RETRY_MS
                self._unavailable = item[4] if item[4].startswith("Computer unavailable") else None
                continue
            result = item[3]
            if key != self._key() or result.move is None:
                continue   # the game moved on meanwhile: the question is asked again
            position: Position = self.controller.position
            move = position.parse_move(result.move)
            words = piece_move(position, move, names=self.controller.printed_names(position))
            self._shown = Shown(key, kind, move, words, result.score_text())
            if kind == "hint":
                self._hint_wanted = None
            out.append({"type": "engine_move", "for": kind, "move": str(move), "score": result.score_text(),
                        "at": now})
        return out

    # ================================================================ menu items
    def _side_label(self) -> str:
        nxt = {None: WHITE, WHITE: -WHITE, -WHITE: None}[self.side]
        return {None: "Computer: off?", WHITE: "Computer: White?", -WHITE: "Computer: Black?"}[nxt]

    def _cycle_side(self, now: int) -> list[dict]:
        nxt = {None: "white", WHITE: "black", -WHITE: "none"}[self.side]
        self.side = SIDES[nxt]
        if self._shown is not None and self._shown.kind == "computer":
            self._shown = None
        self._retry_at = None
        self._unavailable = None
        self._events.append({"type": "opponent", "side": nxt})
        return []

    def _has_levels(self) -> bool:
        """Whether the engine plays the built-in levels (maxima_board.opponent.levels)."""
        return self.engine.strip().split(":", 1)[0] == "builtin"

    def _next_level(self) -> int:
        return (self.level or DEFAULT_LEVEL) % LEVEL_COUNT + 1

    def _level_label(self) -> str:
        return f"Computer: {level_label(self._next_level())}?"

    def _step_level(self, now: int) -> list[dict]:
        n = self._next_level()
        self.set_level(n)
        self._events.append({"type": "opponent", "level": n})
        return []

    def _ask_hint(self, now: int) -> list[dict]:
        self._hint_wanted = self._key()
        self._retry_at = None
        self._unavailable = None
        return []

