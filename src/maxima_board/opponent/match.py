"""Matches between two engines, and the Elo difference they measure.

A match plays ``games`` games from varied openings: ``games // 2`` short
random legal move sequences (``OPENING_PLIES`` plies, drawn with a seeded
generator, none ending the game), each played twice with the colours
swapped. A game is adjudicated by the rules (``Position.outcome()``); a game
that reaches ``max_plies`` is a draw; an engine that fails twice in a row on
one move (dies, hangs or plays an illegal move, see ``maxima_board.opponent.supervisor``)
loses that game.

Elo from per-game scores x_i (1 win, ½ draw, 0 loss, from A's side), n games:

    s   = mean(x_i)                              A's score fraction
    Elo = -400 · log10(1/s - 1)                  the logistic Elo model
    se  = sqrt( Σ (x_i - s)² / n ) / sqrt(n)     standard error of s
    95% interval: Elo(s - 1.96·se) .. Elo(s + 1.96·se)

(the standard normal approximation of the mean score, mapped through the
Elo function; bounds outside 0 < s < 1 are ±infinity).
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Callable

from maxima_board.rules import Position, variants
from maxima_board.rules.record import GameRecord

from .specs import EngineSpec, parse_spec
from .supervisor import Limits, Supervisor
from .uci import EngineError

OPENING_PLIES = 4
MAX_PLIES = 300
Z95 = 1.959964


def elo(score: float) -> float:
    """The Elo difference that expects ``score`` (0..1); ±inf at the ends."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


def elo_interval(scores: list[float]) -> tuple[float, float, float]:
    """(Elo, low, high) of the 95% interval from per-game scores."""
    n = len(scores)
    if n == 0:
        raise ValueError("no games")
    mean = sum(scores) / n
    se = math.sqrt(sum((x - mean) ** 2 for x in scores) / n) / math.sqrt(n)
    return elo(mean), elo(mean - Z95 * se), elo(mean + Z95 * se)


def openings(variant: str, count: int, plies: int = OPENING_PLIES, seed: int = 0,
             start_fen: str = "start") -> list[list[str]]:
    """``count`` distinct random legal sequences of ``plies`` plies from
    ``start_fen`` (default: the start position of ``variant``; fewer if the
    game has fewer)."""
    rng = random.Random(seed)
    seen: set[tuple[str, ...]] = set()
    out: list[list[str]] = []
    tries = 0
    while len(out) < count and tries < count * 50:
        tries += 1
        p = Position(start_fen, variant)
        line = []
        for _ in range(plies):
            moves = p.legal_moves
            if not moves:
                break
            move = rng.choice(moves)
            p.push(move)
            line.append(str(move))
        if p.outcome() is not None or tuple(line) in seen:
            continue
        seen.add(tuple(line))
        out.append(line)
    return out


@dataclass
class Game:
    """One game: A played White if ``a_white``; ``score`` is A's."""

    opening: list[str]
    a_white: bool
    moves: list[str]
    result: str
    reason: str
    score: float


@dataclass
class MatchResult:
    a: str
    b: str
    variant: str
    games: list[Game] = field(default_factory=list)

    @property
    def scores(self) -> list[float]:
        return [g.score for g in self.games]

    def counts(self) -> tuple[int, int, int]:
        """A's wins, draws, losses."""
        s = self.scores
        return s.count(1.0), s.count(0.5), s.count(0.0)

    def summary(self) -> str:
        w, d, l = self.counts()
        n = len(self.games)
        total = sum(self.scores)
        e, lo, hi = elo_interval(self.scores)
        return (f"{self.a} vs {self.b} ({self.variant}, {n} games): {total:g}-{n - total:g} "
                f"(+{w} ={d} -{l}), {100 * total / n:.1f}%, Elo {_fmt(e)} [95%: {_fmt(lo)} .. {_fmt(hi)}]")


def _fmt(x: float) -> str:
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    return f"{x if abs(x) >= 0.5 else 0.0:+.0f}"   # never "-0"


def own_limits(spec: EngineSpec, limits: Limits) -> Limits:
    """The spec's own ``movetime=MS``, ``depth=N`` or ``nodes=N``
    (``builtin:level=10,movetime=100``) instead of the match's limit."""
    for key in ("movetime", "depth", "nodes"):
        if key in spec.options:
            return Limits(**{key: int(spec.options[key])})
    return limits


def play_game(white: Supervisor, black: Supervisor, variant: str, opening: list[str],
              limits: Limits | tuple[Limits, Limits], max_plies: int = MAX_PLIES,
              start_fen: str = "start") -> tuple[Position, str, str]:
    """Play one game from ``start_fen`` and ``opening`` (``limits``: one for
    both, or White's and Black's); (final position, result, reason)."""
    if isinstance(limits, Limits):
        limits = (limits, limits)
    position = Position(start_fen, variant)
    start = position.fen()
    for move in opening:
        position.push(move)
    for side in (white, black):
        side.new_game()
    moves = list(opening)
    while True:
        outcome = position.outcome()
        if outcome is not None:
            return position, outcome.result, outcome.reason
        if len(position.move_stack) >= max_plies:
            return position, variants.get(variant).draw_result, f"move cap ({max_plies} plies)"
        mover = white if position.turn > 0 else black
        try:
            answer = mover.best(start, moves, limits[0] if position.turn > 0 else limits[1], position)
        except EngineError as exc:
            loser_white = position.turn > 0
            return position, "0-1" if loser_white else "1-0", f"engine failure: {exc}"
        if answer.move is None:
            return position, variants.get(variant).draw_result, "no move"
        position.push(answer.move)
        moves.append(answer.move)


def run_match(a: str | EngineSpec, b: str | EngineSpec, games: int, variant: str = "maxima",
              limits: Limits = Limits(movetime=100), *, seed: int = 0, max_plies: int = MAX_PLIES,
              plies: int = OPENING_PLIES, on_game: Callable[[int, Game], None] | None = None,
              records: list[str] | None = None, start_fen: str = "start") -> MatchResult:
    """Play ``games`` games (rounded up to even) of A against B, from random
    openings of ``plies`` plies after ``start_fen`` (default: the game's start;
    a bad FEN raises FenError before any engine starts)."""
    spec_a = parse_spec(a) if isinstance(a, str) else a
    spec_b = parse_spec(b) if isinstance(b, str) else b
    variant = variants.get(variant).name
    start_fen = Position(start_fen, variant).fen()
    pairs = openings(variant, (games + 1) // 2, plies, seed, start_fen)
    if not pairs:
        raise ValueError(f"no opening of {plies} plies in {variant}")
    engine_a = Supervisor(spec_a, variant, seed=seed)
    engine_b = Supervisor(spec_b, variant, seed=seed + 1)
    limits_a, limits_b = own_limits(spec_a, limits), own_limits(spec_b, limits)
    match = MatchResult(spec_a.label, spec_b.label, variant)
    try:
        for opening in pairs:
            for a_white in (True, False):
                white, black = (engine_a, engine_b) if a_white else (engine_b, engine_a)
                lw, lb = (limits_a, limits_b) if a_white else (limits_b, limits_a)
                position, result, reason = play_game(white, black, variant, opening, (lw, lb), max_plies,
                                                     start_fen)
                a_color = 1 if a_white else -1
                if result == "1-0":
                    score = 1.0 if a_white else 0.0
                elif result == "0-1":
                    score = 0.0 if a_white else 1.0
                else:
                    score = 0.5
                game = Game(opening, a_white, [str(m) for m in position.move_stack], result, reason, score)
                match.games.append(game)
                if records is not None:
                    names = (spec_a.label, spec_b.label) if a_color > 0 else (spec_b.label, spec_a.label)
                    record = GameRecord.from_position(position, Event=f"match {spec_a.label} vs {spec_b.label}",
                                                      Round=str(len(match.games)), White=names[0],
                                                      Black=names[1], Result=result)
                    records.append(record.to_text())
                if on_game is not None:
                    on_game(len(match.games), game)
    finally:
        engine_a.close()
        engine_b.close()
    return match
