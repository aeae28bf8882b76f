"""The built-in engine's levels 1-10, defined by work, not time.

Each level searches at most ``nodes`` nodes a move (so it plays the same on
a Pi Zero as on a Pi 5 or a desktop; a game clock or the board's
``movetime_ms`` still caps the time), with a depth cap, evaluation noise
(± centipawns) and a share of random moves where the weakest levels need
them (``quiescence``: whether captures are searched to quiet positions; every
level does since the retuning of 27 Nov 2026, docs/opponent.md, but Optima's
level 1). ``word`` is what a player reads in the board's
menu and the docs. The engine holds the same numbers
(``opponent/engine/levels.c``; ``maxima-engine levels`` prints them, and
``tests/test_opponent_engine_levels.py`` keeps the two equal). Optima's
level 1 is weaker than the others' (``OPTIMA_LEVELS``; ``maxima-engine levels
optima``): with the common row it was about even with the reference player.
"""
from __future__ import annotations

from typing import NamedTuple


class Level(NamedTuple):
    n: int
    word: str
    nodes: int          # node budget per move
    depth: int | None   # depth cap (None: none)
    noise: int          # evaluation noise, +- centipawns
    random_pct: int     # percent of moves chosen at random
    quiescence: bool


LEVELS: list[Level] = [
    Level(1, "beginner", 500, 2, 200, 20, True),
    Level(2, "novice", 1_000, 2, 140, 12, True),
    Level(3, "learner", 2_000, 2, 70, 4, True),
    Level(4, "casual", 5_000, 3, 40, 1, True),
    Level(5, "intermediate", 10_000, None, 30, 0, True),
    Level(6, "club player", 25_000, None, 0, 0, True),
    Level(7, "strong club player", 80_000, None, 0, 0, True),
    Level(8, "expert", 250_000, None, 0, 0, True),
    Level(9, "candidate master", 800_000, None, 0, 0, True),
    Level(10, "master", 2_500_000, None, 0, 0, True),
]
DEFAULT = 5

# Optima's levels: level 1 with more noise and random moves and no quiescence (the common row was about
# even with minimax2 in Optima, this one scored 11/40; docs/opponent.md, "The levels' ladder").
OPTIMA_LEVELS: list[Level] = [LEVELS[0]._replace(noise=260, random_pct=26, quiescence=False)] + LEVELS[1:]


def level(n: int) -> Level:
    """Level ``n`` (1-10); ValueError naming the range otherwise."""
    if not 1 <= n <= len(LEVELS):
        raise ValueError(f"level must be 1 to {len(LEVELS)}, got {n}")
    return LEVELS[n - 1]


def label(n: int) -> str:
    """'Level 3 (learner)', for menus and messages."""
    return f"Level {n} ({level(n).word})"
