"""Optima's forces and start positions (O4): equal, unequal and random.

:func:`start_fen` gives the FEN a game starts from:

- ``eq``: both sides get the same set in hand (default E10 / E9, O4);
- ``u1`` / ``u2``: one shared pool of 2 x set units with 2 / 4 royal ones
  (``u2`` on 10x10 only);
- ``random``: no placement phase; distinct types drawn at random, placed on
  White's first rank (9x9: on 5 random squares), Black's the 180-degree
  rotation of White's.

Sets and pools are game parameters (``pool``). Without one, ``seed`` draws
one at random (distinct piece types, the royal units chosen at random);
without a seed too, ``eq`` uses E10 / E9 and ``u1`` / ``u2`` a project
default pool: the equal set twice (u1: its royal twice; u2 also both Keeps
royal on 10x10). ``random`` always draws, from ``seed`` (None: fresh).
"""
from __future__ import annotations

import random as _random

from maxima_board.rules.variants.base import Variant
from maxima_board.rules.variants.optima_units import BY_TOKEN, E9, E10, PIECE_TOKENS
from . import fen as fenmod
from .placement import Reserve, set_size
from .tables import Options
from .text import parse_board
from .units import ROYAL

KINDS = ("eq", "u1", "u2", "random")
_PAWNS_GUARDS = {10: ("gd" * 10, "pn" * 10, "PN" * 10, "GD" * 10), 9: ("gd" * 9, "pn" * 9, "PN" * 9, "GD" * 9)}


def _variant(variant: "Variant | str") -> Variant:
    from maxima_board.rules import variants
    v = variants.get(variant)
    if not v.forces:
        raise ValueError(f"{v.title} is not an Optima game (optima or optima-9x9)")
    return v


def _codes(tokens) -> list[int]:
    """Unsigned codes of tokens such as ``"QU"``, ``"VR*"``; ValueError for a unit that is never placed."""
    out = []
    for token in tokens:
        name = token.rstrip("*").upper()
        unit = BY_TOKEN.get(name)
        if unit is None or unit.kind != "piece" or token.count("*") > 1:
            raise ValueError(f"{token!r} is not a piece token (two letters of the 53 piece types, '*' for royal; "
                             f"WI, PN and GD are never placed, O4)")
        out.append(unit.code | (ROYAL if token.endswith("*") else 0))
    return out


def _draw(rng: _random.Random, count: int, royals: int) -> list[str]:
    types = rng.sample(PIECE_TOKENS, count)
    royal = set(rng.sample(range(count), royals))
    return [t + ("*" if i in royal else "") for i, t in enumerate(types)]


def _empty_board(n: int) -> list[int]:
    """Pawns and guards on their ranks (O1), both first ranks empty."""
    gd, pn, PN, GD = _PAWNS_GUARDS[n]
    text = "/".join([str(n), gd, pn] + [str(n)] * (n - 6) + [PN, GD, str(n)])
    return parse_board(text, BY_TOKEN)[1]


def start_fen(variant: "Variant | str" = "optima", forces: str = "eq", *, seed: int | None = None,
              pool=None, royals: int | None = None) -> str:
    """The FEN an Optima game of ``forces`` starts from (see the module's
    docstring). ``royals``: royal units a side gets (1 or 2 on 10x10, 1 on
    9x9; u1 means 1, u2 means 2). ValueError says what is wrong."""
    v = _variant(variant)
    n = v.geometry.files
    size = set_size(n)
    if forces not in KINDS:
        raise ValueError(f"unknown forces {forces!r} (known: {', '.join(KINDS)})")
    if royals is not None and royals not in ((1, 2) if n == 10 else (1,)):
        raise ValueError(f"royals must be {'1 or 2' if n == 10 else '1 on 9x9'} (O4), got {royals!r}")
    if forces == "u2" and n == 9:
        raise ValueError("u2 (double royal) is not played on 9x9 (O4): use u1")
    if forces in ("u1", "u2") and royals not in (None, 1 if forces == "u1" else 2):
        raise ValueError(f"{forces} gives each side {1 if forces == 'u1' else 2} royal "
                         f"unit{'s' if forces == 'u2' else ''}: use {'u2' if forces == 'u1' else 'u1'} instead")
    rng = _random.Random(seed)
    board = _empty_board(n)
    if forces == "random":
        if pool is not None:
            raise ValueError("random forces draw their own pieces: give no pool")
        tokens = _draw(rng, size, royals or 1)
        files = sorted(rng.sample(range(n), size))
        rng.shuffle(tokens)
        for file, code in zip(files, _codes(tokens)):
            board[file] = code                               # White on (x, 1)
            board[(n - 1) * n + (n - 1 - file)] = -code     # Black on (N+1-x, N)
        reserve = Reserve()
    elif forces == "eq":
        if pool is None and seed is None:
            if royals == 2:
                raise ValueError("the default equal set has one royal piece: give a set, or a seed to draw one")
            pool = E10 if n == 10 else E9
        elif pool is None:
            pool = _draw(rng, size, royals or 1)
        hand = tuple(sorted(_codes(pool), key=lambda c: fenmod.token_key(c, fenmod.UNITS_BY_CODE)))
        reserve = Reserve("eq", hand, hand)
    else:
        want = 2 if forces == "u1" else 4
        if pool is None and seed is None:
            base = list(E10 if n == 10 else E9)
            pool = base + base
            if forces == "u2":
                pool = [t + "*" if t == "KE" else t for t in pool]
        elif pool is None:
            pool = _draw(rng, 2 * size, want)
        codes = _codes(pool)
        reserve = Reserve(forces, pool=tuple(sorted(codes, key=lambda c: fenmod.token_key(c, fenmod.UNITS_BY_CODE))))
    data = fenmod.OptimaFen(fenmod.variant_for(n), board, 1, reserve, Options(), 0)
    text = fenmod.format(data)
    try:
        fenmod.parse(text)
    except Exception as exc:   # a set or pool the rules do not allow (size, royals)
        raise ValueError(f"forces {forces}: {exc}") from None
    return text
