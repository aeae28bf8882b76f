"""Optima positions for comparing the compiled engine with the Python engine.

Two sources, both seeded:

- :func:`game_positions`: random games from the starts of every kind of
  forces (eq, u1, u2 on 10x10, random; drawn sets and pools), through the
  placement phase (O5) into the movement phase, favouring captures,
  conversions, swaps, shots and promotions;
- :func:`zoo_positions`: movement-phase boards scattered with units of all 56
  types (so every one of the 53 piece types, royal or not, pawns, guards and
  Wizards), with random rules options (O14: shp, gna, arm=...).
"""
from __future__ import annotations

import random

from maxima_board.rules import Position
from maxima_board.rules.optima.forces import start_fen
from maxima_board.rules.variants.optima import UNITS

PIECES = [u for u in UNITS if u.kind == "piece"]
KINDS = {"optima": ("eq", "u1", "u2", "random"), "optima-9x9": ("eq", "u1", "random")}


def _pick(rng: random.Random, moves: list) -> object:
    special = [m for m in moves if m.converts or m.promotion or m.from_square == m.to_square and m.placed is None]
    if special and rng.random() < 0.35:
        return rng.choice(special)
    captures = [m for m in moves if m.captures]
    if captures and rng.random() < 0.4:
        return rng.choice(captures)
    return rng.choice(moves)


def _start(rng: random.Random, variant: str, kind: str) -> str:
    seed = rng.randrange(10 ** 6)
    royals = rng.choice((1, 2)) if variant == "optima" and kind in ("eq", "random") else None
    if kind == "eq" and rng.random() < 0.2:
        return start_fen(variant, "eq")        # the project's default set (E10 / E9)
    return start_fen(variant, kind, seed=seed, royals=royals)


def game_positions(variant: str, count: int, seed: int, plies: int = 70) -> list[tuple[str, list[str]]]:
    """``count`` (FEN, sorted legal move strings) pairs from seeded random games."""
    rng = random.Random(f"optima-games/{variant}/{seed}")
    out: list[tuple[str, list[str]]] = []
    kinds = KINDS[variant]
    game = 0
    while len(out) < count:
        p = Position(_start(rng, variant, kinds[game % len(kinds)]), variant)
        game += 1
        for _ in range(plies):
            moves = p.legal_moves
            out.append((p.fen(), [str(m) for m in moves]))
            if not moves or len(out) >= count or p.outcome() is not None:
                break
            p.push(_pick(rng, moves))
    return out


def _rank(n: int, rank: int, cells: list[str]) -> str:
    out, run = "", 0
    for cell in cells:
        if not cell:
            run += 1
            continue
        if run:
            out += str(run)
            run = 0
        out += cell
    return out + (str(run) if run else "")


def zoo_fen(rng: random.Random, n: int) -> str:
    """A random movement-phase FEN with units of random types on random squares."""
    cells = [""] * (n * n)
    squares = rng.sample(range(n * n), rng.randint(12, min(45, n * n - 10)))
    for i, sq in enumerate(squares):
        unit = rng.choice(PIECES if i < 2 else UNITS)     # the first unit of each side is royal
        white = i % 2 == 0
        royal = unit.kind == "piece" and (i < 2 or (n == 10 and i < 4 and rng.random() < 0.3))
        token = unit.token if white else unit.token.lower()
        cells[sq] = token + ("*" if royal else "")
    rows = [_rank(n, r, cells[(r - 1) * n: r * n]) for r in range(n, 0, -1)]
    rules = []
    if rng.random() < 0.25:
        arm = sorted(rng.sample([u.token for u in UNITS if u.kind in ("piece", "wizard")], rng.randint(1, 3)))
        rules.append("arm=" + "".join(arm))
    if rng.random() < 0.25:
        rules.append("gna")
    if rng.random() < 0.25:
        rules.append("shp")
    side = rng.choice("wb")
    return f"{'/'.join(rows)} {side} - {','.join(rules) or '-'} {rng.randrange(20, 200)}"


def zoo_positions(variant: str, count: int, seed: int) -> list[tuple[str, list[str]]]:
    """``count`` (FEN, sorted legal moves) of random boards with units of all 56 types."""
    rng = random.Random(f"optima-zoo/{variant}/{seed}")
    n = 10 if variant == "optima" else 9
    out = []
    while len(out) < count:
        fen = zoo_fen(rng, n)
        p = Position(fen, variant)
        out.append((p.fen(), [str(m) for m in p.legal_moves]))
    return out
