"""A supervised engine: started on demand, checked, restarted.

:meth:`Supervisor.best` sends ``position fen START moves ...`` and ``go``,
waits for ``bestmove`` at most the time the limit allows plus a grace, and
checks the move with the Python rules engine. When the process has died, does
not answer in time (hangs) or answers with an illegal move, it is killed,
reported (``on_report`` gets a dict ``{"type": "engine_restart", "reason":
"died"|"hung"|"illegal"|"failed", "text": RESTARTING, "detail": ...}``) and
restarted, and the question is asked again once; a second failure raises
:class:`~maxima_board.opponent.uci.EngineError` (the caller goes on without an answer and
may ask again later: the next call starts a fresh process).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from maxima_board.rules import Position, variants

from .games import refuse
from .specs import EngineSpec, parse_spec
from .uci import HANDSHAKE_S, EngineDied, EngineError, EngineTimeout, Result, UciEngine

RESTARTING = "Computer not answering — restarting"
GRACE_S = 5.0         # beyond a time limit, how long an answer may be late
SEARCH_S = 120.0      # the longest wait for a depth- or node-limited search


@dataclass(frozen=True)
class Limits:
    """One ``go``: at most one kind of limit (``movetime`` ms, ``depth``,
    ``nodes``, or the clocks ``wtime``/``btime`` ms with ``winc``/``binc``/
    ``movestogo``)."""

    movetime: int | None = None
    depth: int | None = None
    nodes: int | None = None
    wtime: int | None = None
    btime: int | None = None
    winc: int | None = None
    binc: int | None = None
    movestogo: int | None = None

    def words(self) -> dict[str, int]:
        return {k: v for k, v in self.__dict__.items() if v is not None}

    def timeout(self, white_to_move: bool, grace: float, search: float) -> float:
        """How long to wait for ``bestmove``."""
        if self.movetime is not None:
            return self.movetime / 1000 + grace
        own = self.wtime if white_to_move else self.btime
        if own is not None:
            return own / 1000 + grace
        return search


class Supervisor:
    """An engine (``spec``: an :class:`EngineSpec` or its text) playing
    ``variant`` at ``level`` (the UCI option ``Level`` when the engine has
    it). Thread-safe for one caller at a time."""

    def __init__(self, spec: EngineSpec | str, variant: str = "maxima", level: int | None = None, *,
                 seed: int | None = None, grace_s: float = GRACE_S, search_s: float = SEARCH_S,
                 handshake_s: float = HANDSHAKE_S, on_report: Callable[[dict], None] | None = None):
        self.spec = parse_spec(spec) if isinstance(spec, str) else spec
        self.variant = refuse(variant)
        self.level = level
        self.seed = seed
        self.grace_s = grace_s
        self.search_s = search_s
        self.handshake_s = handshake_s
        self.on_report = on_report
        self.engine: UciEngine | None = None
        self.restarts = 0
        self.reports: list[dict] = []

    # -- the process ----------------------------------------------------------
    def start(self) -> UciEngine:
        """The running engine, started and configured if it was not."""
        if self.engine is not None and self.engine.alive():
            return self.engine
        if self.engine is not None:   # it died between questions: that is a restart too
            self.engine.kill()
            self.engine = None
            self._report(EngineDied(f"engine {self.spec.label} died"))
        engine = UciEngine(list(self.spec.command))
        self.engine = engine
        try:
            engine.start()
            engine.handshake(self.handshake_s)
            options = dict(self.spec.options)
            if self.level is not None:
                options["Level"] = str(self.level)
            if self.seed is not None and "Seed" not in options:
                options["Seed"] = str(self.seed)
            if engine.has_option("UCI_Variant"):
                engine.set_option("UCI_Variant", self.variant)
            elif self.variant != variants.DEFAULT.name:
                raise EngineError(f"engine {engine.name or self.spec.label} has no UCI_Variant option")
            for name, value in options.items():
                if engine.has_option(name):
                    engine.set_option(name, value)
            engine.ready(self.handshake_s)
        except EngineError:
            engine.kill()
            raise
        return engine

    def new_game(self) -> None:
        engine = self.start()
        engine.send("ucinewgame")

    def close(self) -> None:
        if self.engine is not None:
            self.engine.close()
            self.engine = None

    def kill(self) -> None:
        if self.engine is not None:
            self.engine.kill()
            self.engine = None

    @property
    def pid(self) -> int | None:
        return self.engine.pid if self.engine is not None else None

    # -- asking ---------------------------------------------------------------
    def best(self, start_fen: str | None, moves: list[str], limits: Limits,
             position: Position | None = None) -> Result:
        """The engine's move (canonical, checked legal) for the position
        after ``moves`` from ``start_fen`` (None: the variant's start).
        ``position``, if given, is that position (read, not changed)."""
        if start_fen is None:
            start_fen = variants.get(self.variant).start_fen
        if position is None:
            position = Position(start_fen, self.variant)
            for move in moves:
                position.push(move)
        start = start_fen
        try:
            return self._ask(position, start, moves, limits)
        except EngineError as exc:
            self._report(exc)
        return self._ask(position, start, moves, limits)   # a second failure is the caller's

    def _ask(self, position: Position, start: str, moves: list[str], limits: Limits) -> Result:
        try:
            engine = self.start()
            engine.position(start, moves)
            engine.go(**limits.words())
            timeout = limits.timeout(position.turn > 0, self.grace_s, self.search_s)
            result = engine.wait_best(timeout)
        except EngineError:
            self.kill()
            raise
        if result.move is None:
            if position.legal_moves and position.outcome() is None:
                self.kill()
                raise EngineError(f"engine {self.spec.label} gave no move in {position.fen()}")
            return result
        try:
            result.move = str(position.parse_move(result.move))
        except ValueError:
            self.kill()
            raise EngineError(f"engine {self.spec.label} played the illegal move {result.move!r} "
                              f"in {position.fen()}") from None
        return result

    def _report(self, exc: EngineError) -> None:
        reason = ("died" if isinstance(exc, EngineDied) else "hung" if isinstance(exc, EngineTimeout)
                  else "illegal" if "illegal" in str(exc) else "failed")
        self.restarts += 1
        report = {"type": "engine_restart", "reason": reason, "text": RESTARTING, "detail": str(exc)}
        self.reports.append(report)
        if self.on_report is not None:
            self.on_report(report)
