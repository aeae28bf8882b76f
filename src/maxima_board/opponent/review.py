"""A game reviewed by the engine: each position's evaluation and best move,
and each move judged by the expected score its mover lost, the way lichess
classes them.

lichess's win chance of a score of ``cp`` centipawns (the mover's view) is
``50 + 50 * (2 / (1 + exp(-0.00368208 * cp)) - 1)``; a mate counts as
±1000 centipawns, and scores are clamped there too. A move whose mover's
win chance fell by at least 10 points is an inaccuracy, 20 a mistake, 30 a
blunder (PGN's NAGs ``$6``, ``$2``, ``$4``).

:func:`review_game` asks the engine (a :class:`~maxima_board.opponent.supervisor.Supervisor`)
about every position not yet reviewed, the start and the position after each
move, and hands over what it found in batches, so that a review stopped
half-way resumes where it stopped.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Iterable, Protocol

from maxima_board.rules import Position

from . import levels
from .supervisor import Limits, Supervisor

DEFAULT_LEVEL = 8           # the default search: level 8's node budget, no noise
MATE_CP = 1000              # a mate, and every score beyond it, counts as this
CLASSES = ((30, "blunder", "$4", "??"), (20, "mistake", "$2", "?"), (10, "inaccuracy", "$6", "?!"))
BATCH = 8                   # positions stored at once


class Reviewed(Protocol):
    """A stored evaluation (``maxima_board.storage.store.ReviewRow``): the
    side to move's view, as UCI reports it; ``mate`` 0: it has lost."""

    ply: int
    score_cp: int | None
    mate: int | None
    best: str | None


@dataclass(frozen=True)
class Found:
    """The engine's look at the position after ``ply`` moves."""

    ply: int
    score_cp: int | None
    mate: int | None
    best: str | None
    nodes: int
    search: str


@dataclass(frozen=True)
class Search:
    """The search a review asks for: ``level`` (its node budget, depth cap
    and noise) or ``nodes`` (at level 10: no noise)."""

    level: int | None = None
    nodes: int | None = None

    @property
    def text(self) -> str:
        return f"nodes {self.nodes}" if self.nodes is not None else f"level {self.level or DEFAULT_LEVEL}"

    def engine_level(self) -> int:
        return levels.LEVEL_COUNT if self.nodes is not None else (self.level or DEFAULT_LEVEL)

    def limits(self) -> Limits:
        return Limits(nodes=self.nodes) if self.nodes is not None else Limits()


def win_chance(cp: float) -> float:
    """lichess's win chance (0-100) of a score of ``cp`` centipawns."""
    cp = max(-MATE_CP, min(MATE_CP, cp))
    return 50 + 50 * (2 / (1 + math.exp(-0.00368208 * cp)) - 1)


def mover_cp(row: Reviewed) -> int:
    """The row's score in centipawns, the side to move's view, a mate as ±1000."""
    if row.mate is not None:
        return MATE_CP if row.mate > 0 else -MATE_CP
    return max(-MATE_CP, min(MATE_CP, row.score_cp or 0))


def white_chance(row: Reviewed, white_to_move: bool) -> float:
    """White's win chance (0-100) in the position of ``row``."""
    chance = win_chance(mover_cp(row))
    return chance if white_to_move else 100 - chance


def eval_text(row: Reviewed, white_to_move: bool) -> str:
    """PGN's ``[%eval]`` value, White's view: ``0.17``, ``-1.30``, ``#3``
    (White mates in 3), ``#-2`` (Black mates in 2), ``#0`` (the side to move
    is mated)."""
    sign = 1 if white_to_move else -1
    if row.mate is not None:
        return "#0" if row.mate == 0 else f"#{row.mate * sign}"
    return f"{(row.score_cp or 0) * sign / 100:.2f}"


def judge(loss: float) -> tuple[str, str, str] | None:
    """The class (name, NAG, symbol) of a move that lost ``loss`` points
    of its mover's win chance; None below an inaccuracy."""
    for least, name, nag, symbol in CLASSES:
        if loss >= least:
            return name, nag, symbol
    return None


@dataclass(frozen=True)
class Judged:
    """Move ``ply`` (0: the first) of a reviewed game: White's win chance
    after it, what its mover lost, its class and the better move."""

    ply: int
    chance: float
    loss: float
    kind: str | None        # "inaccuracy", "mistake", "blunder" or None
    nag: str | None
    symbol: str
    better: str | None


def judge_game(rows: Iterable[Reviewed], white_first: bool, plies: int) -> list[Judged | None]:
    """Each move's judgement (None where a position around it is not
    reviewed); ``white_first``: White moves first from the start position."""
    by_ply = {row.ply: row for row in rows}
    out: list[Judged | None] = []
    for ply in range(plies):
        before, after = by_ply.get(ply), by_ply.get(ply + 1)
        if before is None or after is None:
            out.append(None)
            continue
        white = (ply % 2 == 0) == white_first
        before_c, after_c = white_chance(before, white), white_chance(after, not white)
        loss = (before_c - after_c) if white else (after_c - before_c)
        kind = judge(loss)
        out.append(Judged(ply, after_c, loss, kind[0] if kind else None, kind[1] if kind else None,
                          kind[2] if kind else "", before.best if kind else None))
    return out


def review_game(engine: Supervisor, start_fen: str, variant: str, moves: list[str], search: Search,
                done: Iterable[int], store: Callable[[list[Found]], None],
                batch: int = BATCH) -> int:
    """Ask ``engine`` about each position of the game not in ``done`` (plies
    already reviewed), in order; ``store`` gets them ``batch`` at a time
    (and the rest at the end). The number of positions looked at."""
    done = set(done)
    position = Position(start_fen, variant)
    pending: list[Found] = []
    count = 0
    for ply in range(len(moves) + 1):
        if ply not in done:
            pending.append(_look(engine, start_fen, moves[:ply], position, ply, search))
            count += 1
            if len(pending) >= batch:
                store(pending)
                pending = []
        if ply < len(moves):
            position.push(moves[ply])
    if pending:
        store(pending)
    return count


def _look(engine: Supervisor, start_fen: str, moves: list[str], position: Position, ply: int,
          search: Search) -> Found:
    outcome = position.outcome()
    if outcome is not None or not position.legal_moves:
        if outcome is not None and outcome.winner is not None:
            return Found(ply, None, 0, None, 0, search.text)   # the side to move has lost
        return Found(ply, 0, None, None, 0, search.text)
    result = engine.best(start_fen, moves, search.limits(), position=position)
    if result.mate is None and result.score_cp is None:
        raise ValueError(f"the engine gave no score after move {ply}")
    return Found(ply, result.score_cp, result.mate, result.move, result.nodes or 0, search.text)
