"""Games the club tests and benches play on simulated boards (no pytest
here, so that a bench can use them)."""
from __future__ import annotations

import random

from maxima_board.rules import Position


def quiet_game(seed: int, plies: int) -> list[str]:
    """A random game of ``plies`` legal moves without captures that does
    not end the game (canonical moves)."""
    rng = random.Random(seed)
    position = Position()
    moves = []
    for _ in range(plies):
        options = [m for m in position.legal_moves if m.kind == "move" and not m.captures]
        rng.shuffle(options)
        for move in options:
            position.push(move)
            if position.outcome() is None:
                moves.append(str(move))
                break
            position.pop()
        else:
            break
    return moves


def script_of(moves: list[str], wait_ms: int = 400) -> str:
    """The board script that plays ``moves`` (no captures)."""
    lines = []
    for move in moves:
        a, b = move.split("-")
        lines += [f"lift {a}", f"place {b}", f"wait {wait_ms}"]
    return "\n".join(lines) + "\n"
