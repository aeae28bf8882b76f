"""The built-in engine's levels 1-10, defined by work, not time.

Each level searches at most ``nodes`` nodes a move (so it plays the same on
a Pi Zero as on a Pi 5 or a desktop; a game clock or the board's
``movetime_ms`` still caps the time), with a depth cap, evaluation noise
(± centipawns) and a share of random moves where the weakest levels need
them (``quiescence``: whether captures are searched to quiet positions).
``word`` is what a player reads in the board's menu and the docs; a level's
word is the same in every game.

Each family of games has its own rows (``ROWS``): a node budget or a noise
buys a different strength in each, and the ladder of docs/opponent.md ("The
levels' ladder") placed each family's levels about 150-250 Elo apart. The
engine holds the same numbers (``engine/levels.c``; ``maxima-engine
levels FAMILY`` prints them, and ``tests/test_opponent_engine_levels.py``
keeps the two equal).
"""
from __future__ import annotations

from typing import NamedTuple

from maxima_board.rules import variants


class Level(NamedTuple):
    n: int
    word: str
    nodes: int          # node budget per move
    depth: int | None   # depth cap (None: none)
    noise: int          # evaluation noise, +- centipawns
    random_pct: int     # percent of moves chosen at random
    quiescence: bool


WORDS = ("beginner", "novice", "learner", "casual", "intermediate", "club player", "strong club player",
         "expert", "candidate master", "master")
LEVEL_COUNT = len(WORDS)
DEFAULT = 5
FAMILIES = ("maxima", "ultima", "deckle", "optima")


def _table(*rows: tuple[int, int | None, int, int, bool]) -> list[Level]:
    return [Level(n, WORDS[n - 1], *row) for n, row in enumerate(rows, 1)]


# levels 8-10, the same in every family
_TOP = ((250_000, None, 0, 0, True), (800_000, None, 0, 0, True), (2_500_000, None, 0, 0, True))

ROWS: dict[str, list[Level]] = {
    "maxima": _table(
        (500, 2, 200, 20, True),
        (1_000, 2, 130, 10, True),
        (2_000, 2, 80, 5, True),
        (3_500, 3, 40, 1, True),
        (9_000, None, 35, 0, True),
        (25_000, None, 0, 0, True),
        (80_000, None, 0, 0, True),
        *_TOP),
    "ultima": _table(
        (500, 2, 180, 18, True),
        (1_000, 2, 140, 12, True),
        (2_000, 2, 70, 4, True),
        (5_000, 3, 40, 1, True),
        (10_000, None, 30, 0, True),
        (25_000, None, 0, 0, True),
        (80_000, None, 0, 0, True),
        *_TOP),
    "deckle": _table(
        (500, 2, 260, 26, True),
        (1_000, 2, 100, 7, True),
        (3_000, 2, 40, 2, True),
        (5_500, 3, 30, 1, True),
        (10_000, None, 30, 0, True),
        (30_000, None, 0, 0, True),
        (80_000, None, 0, 0, True),
        *_TOP),
    # Optima's level 1 (both boards) has no quiescence: with it, even with ±260 and 26 % random moves, it
    # was about even with the reference player (minimax2); without, 11/40 (-168).
    "optima": _table(
        (500, 2, 260, 26, False),
        (1_000, 2, 140, 12, True),
        (2_000, 2, 50, 3, True),
        (5_000, 3, 40, 1, True),
        (10_000, None, 30, 0, True),
        (30_000, None, 0, 0, True),
        (100_000, None, 0, 0, True),
        *_TOP),
}


def family(game: str) -> str:
    """The family whose rows ``game`` (a family or a variant id) plays; ValueError naming it otherwise."""
    return game if game in FAMILIES else variants.get(game).family


def checked(n: int) -> int:
    """``n`` when it is a level (1-10); ValueError naming the range otherwise."""
    if not 1 <= n <= LEVEL_COUNT:
        raise ValueError(f"level must be 1 to {LEVEL_COUNT}, got {n}")
    return n


def level(n: int, game: str) -> Level:
    """Level ``n`` (1-10) of ``game`` (a family or a variant id); ValueError naming the range otherwise."""
    return ROWS[family(game)][checked(n) - 1]


def label(n: int) -> str:
    """'Level 3 (learner)', for menus and messages."""
    return f"Level {n} ({WORDS[checked(n) - 1]})"
