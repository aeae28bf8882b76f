"""Games the club tests and benches play on simulated boards (no pytest
here, so that a bench can use them)."""
from __future__ import annotations

import random
from typing import Callable

from maxima_board.rules import Position


def _game(seed: int, plies: int, options: Callable[[Position, random.Random], list]) -> list[str]:
    """Up to ``plies`` canonical moves from the start, each the first of
    ``options(position, rng)`` that does not end the game."""
    rng = random.Random(seed)
    position = Position()
    moves = []
    for _ in range(plies):
        for move in options(position, rng):
            position.push(move)
            if position.outcome() is None:
                moves.append(str(move))
                break
            position.pop()
        else:
            break
    return moves


def quiet_game(seed: int, plies: int) -> list[str]:
    """A random game of ``plies`` legal moves without captures that does
    not end the game (canonical moves)."""
    def plain(position: Position, rng: random.Random) -> list:
        options = [m for m in position.legal_moves if m.kind == "move" and not m.captures]
        rng.shuffle(options)
        return options
    return _game(seed, plies, plain)


def long_game(seed: int, plies: int) -> list[str]:
    """Legal Maxima moves that do not end the game, captures last (about
    1,900 of them before none is left): a record as long as an attacker's."""
    def captures_last(position: Position, rng: random.Random) -> list:
        options = list(position.legal_moves)
        rng.shuffle(options)
        return sorted(options, key=lambda m: bool(m.captures))
    return _game(seed, plies, captures_last)


def script_of(moves: list[str], wait_ms: int = 400) -> str:
    """The board script that plays ``moves`` (no captures)."""
    lines = []
    for move in moves:
        a, b = move.split("-")
        lines += [f"lift {a}", f"place {b}", f"wait {wait_ms}"]
    return "\n".join(lines) + "\n"
