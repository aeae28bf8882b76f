"""The computer opponent's conversation with its engine.

:class:`EngineQuestions` asks the engine (``maxima_board.opponent.supervisor``)
for a position's best move, in a background thread, or within the call
with ``sync=True`` (replays, tests: reproducible), and queues what comes
back for the board loop, which collects it with :meth:`EngineQuestions.answers`:

- ``("answer", key, kind, result)``: the engine's move for the question
  ``(key, kind)``;
- ``("failed", key, kind, detail, text, short)``: it could not answer
  (the game is not one it plays, the engine cannot be found or built, it
  died): the reason, and the OLED's words for it, long and short;
- ``("report", report)``: the supervisor restarted a dead or hung engine.

A waker (``set_waker``) is called whenever something is queued, so that a
sleeping loop comes to collect it.
"""
from __future__ import annotations

import queue
import threading
from typing import Callable

from maxima_board.opponent.games import UnsupportedGame
from maxima_board.opponent.specs import SpecError
from maxima_board.opponent.supervisor import RESTARTING, Limits, Supervisor
from maxima_board.opponent.uci import EngineError
from maxima_board.rules import Position

Question = tuple   # (key, kind, start FEN, moves, Limits, Position)


class EngineQuestions:
    """The questions of one computer opponent to ``engine`` (an engine
    spec) at ``level``, for the game ``variant()`` names when the engine
    starts; ``seed``: the engine's ``Seed`` option; ``grace_s``: how long
    the supervisor waits for an answer before it restarts the engine."""

    def __init__(self, engine: str, variant: Callable[[], str], level: int | None, *, sync: bool = False,
                 seed: int | None = 0, grace_s: float | None = None) -> None:
        self.engine = engine
        self.level = level
        self.sync = sync
        self.seed = seed
        self.grace_s = grace_s
        self.asked: tuple | None = None       # (key, kind) of the question in flight
        self._variant = variant
        self._sup: Supervisor | None = None
        self._answers: "queue.Queue[tuple]" = queue.Queue()
        self._questions: "queue.Queue[Question | None]" = queue.Queue()
        self._worker: threading.Thread | None = None
        self._wake: Callable[[], None] = lambda: None

    def set_waker(self, wake: Callable[[], None]) -> None:
        self._wake = wake

    def set_level(self, level: int | None) -> None:
        self.level = level
        if self._sup is not None:
            self._sup.level = level
            self._sup.kill()   # the next question starts it with the new level

    def ask(self, key: tuple, kind: str, position: Position, limits: Limits) -> None:
        """Ask for the best move in ``position`` ("computer" or "hint"
        ``kind``, for the board position ``key``)."""
        start = position.copy()
        while start.move_stack:
            start.pop()
        question = (key, kind, start.fen(), [str(m) for m in position.move_stack], limits, position.copy())
        self.asked = (key, kind)
        if self.sync:
            self._answers.put(self.answer(question))
            return
        if self._worker is None:
            self._worker = threading.Thread(target=self._work, daemon=True, name="opponent")
            self._worker.start()
        self._questions.put(question)

    def answers(self) -> list[tuple]:
        """What has come back since the last call (module docstring)."""
        out = []
        while True:
            try:
                item = self._answers.get_nowait()
            except queue.Empty:
                return out
            if item[0] != "report" and self.asked == (item[1], item[2]):
                self.asked = None
            out.append(item)

    def supervisor(self) -> Supervisor:
        """The engine's supervisor (made at the first question)."""
        if self._sup is None:
            kwargs = {} if self.grace_s is None else {"grace_s": self.grace_s}
            self._sup = Supervisor(self.engine, self._variant(), self.level, seed=self.seed,
                                   on_report=lambda report: self._ready(("report", report)), **kwargs)
        return self._sup

    def answer(self, question: Question) -> tuple:
        """The engine's answer to ``question``, awaited."""
        key, kind, start, moves, limits, position = question
        try:
            result = self.supervisor().best(start, moves, limits, position)
        except UnsupportedGame as exc:
            return ("failed", key, kind, str(exc), "The computer does not play this game.", "No computer for this game")
        except SpecError as exc:
            what = ("no C compiler" if "no gcc" in str(exc) or "no make" in str(exc)
                    else "engine not built" if "not built" in str(exc) else "engine not found")
            return ("failed", key, kind, str(exc), f"Computer unavailable: {what}.", "Computer unavailable")
        except EngineError as exc:
            return ("failed", key, kind, str(exc), RESTARTING + ".", "Computer restarting")
        return ("answer", key, kind, result)

    def close(self) -> None:
        """Stop the worker and the engine."""
        if self._worker is not None:
            self._questions.put(None)
            self._worker.join(timeout=5)
            self._worker = None
        if self._sup is not None:
            self._sup.close()

    def _work(self) -> None:
        while True:
            question = self._questions.get()
            if question is None:
                return
            self._ready(self.answer(question))

    def _ready(self, item: tuple) -> None:
        self._answers.put(item)
        self._wake()
