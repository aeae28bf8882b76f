"""The compiled engine's Optima (engine/optima_*.c) is the Python engine's
(engine/optima/): the same legal moves (O5 placements, O6 moves with O9-O12's
captures and conversions, O10 immobilization, O14 options), the same FEN after
every move (O15), the same perft counts, and the reference positions R1-R32 of
optima.md. Positions: tests/opponent_optima_positions.py (random games from
starts of every kind of forces, and boards with units of all 56 types)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from maxima_board.rules import Position, variants

from .opponent_engine import Uci, assert_children_match, engine_binary, move_list_mismatches, run_batch  # noqa: F401 (fixture)
from .opponent_optima_positions import game_positions, zoo_positions

VARIANTS = ("optima", "optima-9x9")
GAMES, ZOO = 1500, 1000
RULES = Path(__file__).resolve().parent.parent / "docs" / "rules" / "optima.md"


@pytest.fixture(scope="module")
def positions():
    cache: dict[str, list] = {}

    def get(variant: str) -> list:
        if variant not in cache:
            cache[variant] = game_positions(variant, GAMES, seed=1) + zoo_positions(variant, ZOO, seed=1)
        return cache[variant]
    return get


@pytest.mark.parametrize("variant", VARIANTS)
def test_O5_O6_legal_move_lists_equal_python_engine(engine_binary, positions, variant):
    """O5, O6, O9-O12, O14: the sorted canonical legal moves agree on 2,500 positions per board
    (1,500 from random games of every kind of forces, placement phase included; 1,000 boards
    holding units of all 56 types under random rules options)."""
    pos = positions(variant)
    assert len(pos) == GAMES + ZOO
    kinds = {fen.split()[2][:3] for fen, _ in pos}
    assert {"-", "eq:", "u1:"} <= kinds
    assert sum(1 for fen, _ in pos if fen.split()[2] == "-") >= 1500
    tokens = {t.upper() for fen, _ in pos for t in re.findall(r"[A-Za-z]{2}", fen.split()[0])}
    assert len(tokens) == 56
    lines = run_batch(engine_binary, "moves", variant, [f for f, _ in pos])
    assert len(lines) == len(pos)
    bad = move_list_mismatches(pos, lines)
    assert not bad, f"{len(bad)} positions differ, first: {bad[:3]}"


@pytest.mark.parametrize("variant", VARIANTS)
def test_O15_fen_after_each_move_equals_python_engine(engine_binary, positions, variant):
    """O15 (board, side, reserve, rules, ply) and O5's schedule: after every legal move of
    50 positions the compiled FEN is the Python FEN."""
    sample = positions(variant)[::50]
    assert_children_match(engine_binary, variant, [f for f, _ in sample])


@pytest.mark.parametrize("variant", VARIANTS)
def test_perft_depth_2_equals_python_engine(engine_binary, positions, variant):
    """perft(2) of 12 positions per board (games and zoo) agrees with Position.perft."""
    sample = positions(variant)[7::210]
    got = [int(x) for x in run_batch(engine_binary, "perft", variant, [f for f, _ in sample], depth=2)]
    assert got == [Position(f, variant).perft(2) for f, _ in sample]


def test_O5_placement_perft_reference_counts(engine_binary):
    """optima.md's reference counts: E10 placement perft 100 / 10,000 / 810,000, E9 45 / 2,025 /
    64,800 / 2,073,600, and the 29 moves after the E10 placement (perft(3) against Python)."""
    e10, e9 = variants.get("optima").start_fen, variants.get("optima-9x9").start_fen
    assert [int(run_batch(engine_binary, "perft", "optima", [e10], depth=d)[0]) for d in (1, 2, 3)] == \
        [100, 10000, 810000]
    assert [int(run_batch(engine_binary, "perft", "optima-9x9", [e9], depth=d)[0]) for d in (1, 2, 3, 4)] == \
        [45, 2025, 64800, 2073600]
    after = ("vr*requmakejufachcear/gdgdgdgdgdgdgdgdgdgd/pnpnpnpnpnpnpnpnpnpn/10/10/10/10/PNPNPNPNPNPNPNPNPNPN/"
             "GDGDGDGDGDGDGDGDGDGD/ARCECHFAJUKEMAQUREVR* w - - 20")
    assert len(run_batch(engine_binary, "moves", "optima", [after])[0].split()) == 29
    assert int(run_batch(engine_binary, "perft", "optima", [after], depth=3)[0]) == Position(after, "optima").perft(3)


def test_perft_depth_3_middle_game(engine_binary, positions):
    """perft(3) of a movement-phase position from a random game agrees."""
    fen = next(f for f, _ in positions("optima-9x9")[200:] if f.split()[2] == "-")
    assert int(run_batch(engine_binary, "perft", "optima-9x9", [fen], depth=3)[0]) == \
        Position(fen, "optima-9x9").perft(3)


def _reference_positions() -> list[tuple[str, str, list[str]]]:
    """(name, FEN, listed moves) of every R-position of optima.md (the first list given)."""
    text = RULES.read_text(encoding="utf-8")
    out = []
    for m in re.finditer(r"\*\*(R\d+)\*\*(.*?)(?=\*\*R\d+\*\*|\n## )", text, re.S):
        name, body = m.group(1), m.group(2)
        fen = next(x for x in re.findall(r"`([^`]+)`", body) if "/" in x)
        if name == "R3":   # printed with 11 White pawns (see test_optima_placement.py): its 10x10 board
            fen = fen.replace("PN" * 11, "PN" * 10)
        listed = re.search(r"\((\d+)\): `([^`]+)`", body)
        moves = listed.group(2).split(", ") if listed else []
        if listed:
            assert len(moves) == int(listed.group(1)), name
        out.append((name, fen, moves))
    return out


def test_reference_positions_R1_R32(engine_binary):
    """R1-R32 of optima.md through the compiled engine: the named unit's moves (placements:
    every placement) are exactly the listed ones; R11 has no legal move."""
    refs = _reference_positions()
    assert [r[0] for r in refs] == [f"R{i}" for i in range(1, 33)]
    for name, fen, listed in refs:
        variant = "optima-9x9" if fen.count("/") == 8 else "optima"
        got = run_batch(engine_binary, "moves", variant, [fen])[0].split()
        if not listed:
            assert got == [], name
        elif "@" in listed[0]:
            assert got == listed, name
        else:
            start = listed[0].split("-")[0] + "-"
            assert [m for m in got if m.startswith(start)] == listed, name


def test_R8_gna_and_R9_without_shp(engine_binary):
    """R8 with rules gna adds the shots on the guards; R9 without shp takes the pawns (O9.5, O9.6, O14)."""
    r8 = "9vr*/10/10/4gd1pn3/10/1qu2AR5/4gd5/10/10/9VR* w - gna 0"
    got = [m for m in run_batch(engine_binary, "moves", "optima", [r8])[0].split() if m.startswith("e5-")]
    assert "e5-e5xe4" in got and "e5-e5xe7" in got and len(got) == 24
    r9 = "9vr*/10/10/2maarpn5/6gd3/10/3CG2pn3/5pn4/4PN5/VR*9 w - - 0"
    got = [m for m in run_batch(engine_binary, "moves", "optima", [r9])[0].split() if m.startswith("d4-")]
    assert "d4-e6xd7,e7" in got and "d4-f5xg4,g6" in got and "d4-e6xd7" not in got


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_legal_move_lists_equal_python_engine_big_sweep(engine_binary, variant):
    """10,000 more positions per board from other seeds and longer games."""
    pos = game_positions(variant, 6000, seed=2, plies=150) + zoo_positions(variant, 4000, seed=2)
    lines = run_batch(engine_binary, "moves", variant, [f for f, _ in pos])
    bad = move_list_mismatches(pos, lines)
    assert not bad, f"{len(bad)} positions differ, first: {bad[:3]}"
