"""The baseline players: what every search engine is measured against.

- ``random``: a legal move chosen at random;
- ``greedy``: one ply: the move that captures the most material (a move that
  wins the game at once first), random among equals;
- ``minimax2``: two plies of material: the move whose worst reply leaves the
  most material (a move that wins at once first; a move after which the
  opponent invades our palace at once, M13, last), random among equals — the strength of
  vchess.club's computer player.

Each is a function ``(position, rng) -> (move, score)`` with the score in
centipawns from the mover's view. They use only the Python rules engine.
"""
from __future__ import annotations

import random
from typing import Callable

from maxima_board.rules import Move, Position

from .material import material

WIN = 100_000
Player = Callable[[Position, random.Random], tuple[Move, int]]


def _board_after(position: Position, move: Move) -> list[int]:
    return position.board_after(move)


def _terminal(position: Position, mover: int) -> int | None:
    """The score for ``mover`` if the game has ended in ``position``."""
    outcome = position.outcome()
    if outcome is None:
        return None
    if outcome.winner is None:
        return 0
    return WIN if outcome.winner == mover else -WIN


def _pick(scored: list[tuple[int, Move]], rng: random.Random) -> tuple[Move, int]:
    best = max(score for score, _ in scored)
    return rng.choice([m for score, m in scored if score == best]), best


def play_random(position: Position, rng: random.Random) -> tuple[Move, int]:
    moves = position.legal_moves
    if not moves:
        raise ValueError("no legal move")
    return rng.choice(moves), 0


def play_greedy(position: Position, rng: random.Random) -> tuple[Move, int]:
    moves = position.legal_moves
    if not moves:
        raise ValueError("no legal move")
    side = position.turn
    optima = position.variant.uses_units
    base = material(position.board, optima) * side
    scored = []
    for move in moves:
        position.push(move)
        end = _terminal(position, side)
        after = material(position.board, optima) * side
        position.pop()
        scored.append((end if end is not None else after - base, move))
    return _pick(scored, rng)


def play_minimax2(position: Position, rng: random.Random) -> tuple[Move, int]:
    moves = position.legal_moves
    if not moves:
        raise ValueError("no legal move")
    side = position.turn
    optima = position.variant.uses_units
    base = material(position.board, optima) * side
    scored = []
    for move in moves:
        position.push(move)
        end = _terminal(position, side)
        if end is None:
            worst = None
            rules = getattr(position, "_rules", None)   # Optima has no palace
            for reply in position.legal_moves:
                board = _board_after(position, reply)
                if rules is not None and rules.palace and rules.palace_held(board, side, -side):
                    value = -WIN   # the reply invades our palace (M13)
                else:
                    value = material(board, optima) * side - base
                if worst is None or value < worst:
                    worst = value
            end = worst if worst is not None else 0
        position.pop()
        scored.append((end, move))
    return _pick(scored, rng)


PLAYERS: dict[str, Player] = {"random": play_random, "greedy": play_greedy, "minimax2": play_minimax2}
