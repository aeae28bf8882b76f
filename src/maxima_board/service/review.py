"""Stored games reviewed by the engine (``maxima-board review``, and the
board's background reviewer): each position's evaluation and best move
stored beside the game (the ``reviews`` table), the record with
``[%eval]`` comments, NAGs and the better move as a variation, and the
moves judged the way lichess classes them (``maxima_board.opponent.review``).

The background reviewer (:class:`BackgroundReviewer`) is a separate
process at the lowest priority (``nice 19``) with its own engine: the
board's loop never waits on it. It reviews every finished game that has an
unreviewed position, oldest first, and stores a few positions at a time, so
after a restart it continues where it stopped.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from typing import Callable, TextIO

from maxima_board.rules import Position, variants
from maxima_board.rules.record import GameRecord, numbered_label
from maxima_board.rules.words import move_label

from maxima_board.opponent.review import Found, Judged, Search, eval_text, judge_game, review_game, white_chance
from maxima_board.opponent.supervisor import Supervisor
from maxima_board.storage.store import GameRow, GameStore, ReviewRow

from .record import game_record

IDLE_S = 10.0       # the background reviewer looks for newly finished games this often


@dataclass(frozen=True)
class Step:
    """Move ``ply`` (0: the first) of a game as the review page and the
    command show it: its record label (``12... Pe7-e5``), the position
    before and after it, the evaluation after it (``[%eval]``'s text and
    White's win chance), its judgement, and the better move's label and
    the position after it."""

    ply: int
    label: str
    numbered: str
    fen_before: str
    fen_after: str
    squares: tuple[str, str]
    eval: str | None
    chance: float | None
    judged: Judged | None
    better: str | None = None
    better_numbered: str | None = None
    better_fen: str | None = None
    better_squares: tuple[str, str] | None = None


@dataclass(frozen=True)
class Reviewed:
    """A stored game with its review: the start's evaluation and each move."""

    game: GameRow
    record: GameRecord
    start_fen: str
    start_eval: str | None
    start_chance: float | None
    steps: list[Step]

    @property
    def complete(self) -> bool:
        return self.start_eval is not None and all(s.eval is not None for s in self.steps)


def reviewed(store: GameStore, game: GameRow) -> Reviewed:
    """Game ``game`` and whatever of its review is stored."""
    record = game_record(store, game)
    rows = {row.ply: row for row in store.review(game.id)}
    position = Position(record.start_fen, record.variant)
    white_first = position.turn > 0
    judged = judge_game(rows.values(), white_first, len(record.moves))
    start = rows.get(0)
    start_eval = eval_text(start, white_first) if start else None
    start_chance = white_chance(start, white_first) if start else None
    steps = []
    for ply, text in enumerate(record.moves):
        move = position.parse_move(text)
        label, numbered = move_label(position, move), numbered_label(position, move, True)
        before = position.fen()
        squares = _squares(position, move)
        better = judged[ply].better if judged[ply] is not None else None
        extra: dict = {}
        if better and better != text:
            other = position.copy()
            best = other.parse_move(better)
            extra = {"better": move_label(position, best), "better_numbered": numbered_label(position, best, True),
                     "better_squares": _squares(position, best)}
            other.push(best)
            extra["better_fen"] = other.fen()
        position.push(move)
        row = rows.get(ply + 1)
        white = position.turn > 0
        steps.append(Step(ply, label, numbered, before, position.fen(), squares,
                          eval_text(row, white) if row else None, white_chance(row, white) if row else None,
                          judged[ply], **extra))
    return Reviewed(game, record, record.start_fen, start_eval, start_chance, steps)


def _squares(position: Position, move) -> tuple[str, str]:
    names = position.geometry.names
    return names[move.from_square], names[move.to_square]


def annotated_text(store: GameStore, game: GameRow) -> str:
    """The game's record; where it is reviewed, each move followed by its
    NAG (``$6`` inaccuracy, ``$2`` mistake, ``$4`` blunder), ``{[%eval
    0.17]}`` and the better move as a variation (``(12... Pd7-d5)``)."""
    if not store.reviewed_count(game.id):
        return game_record(store, game).to_text()
    view = reviewed(store, game)
    tokens = []
    annotated = True            # a Black move after a comment or a variation names its number again
    for step in view.steps:
        black = step.numbered.split(" ", 1)[0].endswith("...")
        words = [step.numbered if not black or annotated else step.label]
        if step.judged is not None and step.judged.nag:
            words.append(step.judged.nag)
        if step.eval is not None:
            words.append(f"{{[%eval {step.eval}]}}")
        if step.better_numbered:
            words.append(f"({step.better_numbered})")
        annotated = len(words) > 1
        tokens.append(" ".join(words))
    return view.record.text_with(tokens)


def export_annotated(store: GameStore, game_id: int | None = None) -> str:
    """``maxima-board export``: the record of game ``game_id`` (the newest
    if None) with its review where there is one (:func:`annotated_text`)."""
    games = store.games() if game_id is None else None
    if games is not None and not games:
        raise ValueError(f"no games stored in {store.path}")
    game = store.game(game_id) if game_id is not None else games[-1]
    return annotated_text(store, game)


def move_line(step: Step) -> str:
    """The command's line for a move: ``12... Pe7-e5   -0.35  mistake (better 12... Pd7-d5)``."""
    text = f"{step.numbered:<24} {step.eval or '?':>7}"
    if step.judged is not None and step.judged.kind:
        text += f"  {step.judged.kind}"
        if step.better_numbered:
            text += f" (better {step.better_numbered})"
    return text


def review_stored(store: GameStore, game_id: int, search: Search, engine: str = "builtin",
                  on_batch: Callable[[list[Found]], None] | None = None) -> int:
    """Review game ``game_id`` with ``engine`` and store it beside the game;
    what is stored with the same search stays (a review resumes), one with
    another search is replaced. The number of positions looked at."""
    game = store.game(game_id)
    moves = store.moves(game_id)
    rows = store.review(game_id)
    if any(row.search != search.text for row in rows):
        store.forget_review(game_id)
        rows = []
    plies = len(moves)

    def keep(found: list[Found]) -> None:
        store.store_review(game_id, plies, [ReviewRow(f.ply, f.score_cp, f.mate, f.best, f.nodes, f.search)
                                            for f in found])
        if on_batch is not None:
            on_batch(found)

    supervisor = Supervisor(engine, game.variant, search.engine_level())
    try:
        supervisor.new_game()
        return review_game(supervisor, game.start_fen, game.variant, moves, search,
                           [row.ply for row in rows], keep)
    finally:
        supervisor.close()


def review_pending(store: GameStore, search: Search, engine: str = "builtin", log: TextIO | None = None,
                   alive: Callable[[], bool] = lambda: True) -> int:
    """Review every finished game with an unreviewed position, oldest first
    (a game this version does not know, or one the engine does not play, is
    left as it is); the number of games reviewed."""
    count = 0
    for game_id in store.unreviewed():
        if not alive():
            break
        try:
            variants.get(store.game(game_id).variant)
        except ValueError:
            continue
        try:
            review_stored(store, game_id, search, engine)
        except (ValueError, OSError) as exc:     # the game changed under us, an engine that failed twice
            if log is not None:
                print(f"maxima-board review: game {game_id}: {exc}", file=log, flush=True)
            continue
        count += 1
        if log is not None:
            print(f"maxima-board review: game {game_id} reviewed", file=log, flush=True)
    return count


class BackgroundReviewer:
    """``maxima-board review --pending --watch`` for the board's database,
    at the lowest priority, beside the board process; :meth:`close` ends it.
    It ends by itself too when the board process is gone."""

    def __init__(self, db_path: str, search: Search | None = None, engine: str = "builtin",
                 idle_s: float = IDLE_S, log: TextIO | None = None):
        search = search or Search()
        limit = ["--nodes", str(search.nodes)] if search.nodes is not None else ["--level", str(search.engine_level())]
        self.command = [sys.executable, "-m", "maxima_board.cli.main", "review", "--pending", "--db", db_path,
                        "--watch", f"{idle_s:g}", "--parent", str(os.getpid()), "--engine", engine, *limit]
        self.proc = subprocess.Popen(self.command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=_file_of(log), preexec_fn=_lowest_priority, close_fds=True)

    @property
    def pid(self) -> int:
        return self.proc.pid

    def close(self, timeout: float = 5.0) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def _file_of(log: TextIO | None) -> TextIO | None:
    """``log`` when a child process can write to it (it has a file
    descriptor), else None: the child writes to the board's own stderr."""
    try:
        if log is not None:
            log.fileno()
            return log
    except (AttributeError, OSError, ValueError):    # io.UnsupportedOperation is both
        pass
    return None


def _lowest_priority() -> None:
    os.nice(19)          # the engine it starts inherits it


def watch(store: GameStore, search: Search, engine: str, idle_s: float, parent: int | None,
          log: TextIO) -> None:
    """The background reviewer's loop: review what is pending, then look
    again every ``idle_s`` seconds (one cheap query when nothing changed);
    ends when ``parent`` (the board process) is gone."""
    def alive() -> bool:
        return parent is None or os.getppid() == parent

    seen = None
    while alive():
        version = store.data_version()
        if version != seen:
            review_pending(store, search, engine, log, alive)
            seen = store.data_version()
        time.sleep(idle_s)
