"""The compiled engine (engine) generates exactly the Python engine's
legal moves, FENs and perft counts in every game (issue 11).

Positions come from seeded random playouts of the Python engine that favour
captures, promotions, castling, en passant, swaps, suicides and mutual
destructions (tests/opponent_positions.py)."""
from __future__ import annotations

import pytest

from maxima_board.rules import Position, variants

from .opponent_positions import playout_positions
from .opponent_engine import assert_children_match, engine_binary, move_list_mismatches, run_batch  # noqa: F401 (fixture)

NAMES = variants.names()


def _skip_optima(variant: str) -> None:
    """Optima's comparison is tests/test_opponent_engine_optima.py (its own positions and FENs)."""
    if variants.get(variant).family == "optima":
        pytest.skip("Optima: tests/test_opponent_engine_optima.py")
PER_GAME = 2000


@pytest.fixture(scope="module")
def positions():
    cache: dict[str, list] = {}

    def get(variant: str) -> list:
        if variant not in cache:
            cache[variant] = playout_positions(variant, PER_GAME, seed=1)
        return cache[variant]
    return get


@pytest.mark.parametrize("variant", NAMES)
def test_legal_move_lists_equal_python_engine(engine_binary, positions, variant):
    """M11/M12, U11, D5-D7, D14: the sorted canonical legal moves agree on 2,000 positions per game."""
    _skip_optima(variant)
    pos = positions(variant)
    assert len(pos) == PER_GAME
    lines = run_batch(engine_binary, "moves", variant, [f for f, _ in pos])
    assert len(lines) == len(pos)
    bad = move_list_mismatches(pos, lines)
    assert not bad, f"{len(bad)} positions differ, first: {bad[:3]}"


@pytest.mark.parametrize("variant", NAMES)
def test_fen_after_each_move_equals_python_engine(engine_binary, positions, variant):
    """M14, U13, D3: after every legal move of 40 positions, the compiled FEN is the Python FEN
    (castling rights, en-passant squares, swap-back ban, counters)."""
    _skip_optima(variant)
    sample = positions(variant)[::50]
    assert_children_match(engine_binary, variant, [f for f, _ in sample])


def test_perft_depth_3_maxima_middle_game(engine_binary, positions):
    """Maxima perft(3) from a middle-game position agrees (the start's is in the slow set)."""
    fen = positions("maxima")[60][0]
    got = run_batch(engine_binary, "perft", "maxima", [fen], depth=3)
    assert int(got[0]) == Position(fen, "maxima").perft(3)


@pytest.mark.parametrize("variant", NAMES)
def test_perft_depth_2_equals_python_engine(engine_binary, positions, variant):
    """perft(2) of 10 positions per game agrees with Position.perft."""
    _skip_optima(variant)
    sample = positions(variant)[7::200]
    got = [int(x) for x in run_batch(engine_binary, "perft", variant, [f for f, _ in sample], depth=2)]
    assert got == [Position(f, variant).perft(2) for f, _ in sample]


@pytest.mark.parametrize("variant", [
    pytest.param("maxima", marks=pytest.mark.slow), "ultima", "ultima-pure", "swapper-chess-10x8", "immobilizer-chess"])
def test_perft_depth_3_from_start_and_middle(engine_binary, positions, variant):
    """perft(3) from the start and from one middle-game position agrees."""
    fens = [variants.get(variant).start_fen, positions(variant)[30][0]]
    got = [int(x) for x in run_batch(engine_binary, "perft", variant, fens, depth=3)]
    assert got == [Position(f, variant).perft(3) for f in fens]


@pytest.mark.slow
@pytest.mark.parametrize("variant", NAMES)
def test_legal_move_lists_equal_python_engine_big_sweep(engine_binary, variant):
    """10,000 more positions per game from other seeds, longer games."""
    _skip_optima(variant)
    pos = playout_positions(variant, 10000, seed=2, plies=200)
    lines = run_batch(engine_binary, "moves", variant, [f for f, _ in pos])
    bad = move_list_mismatches(pos, lines)
    assert not bad, f"{len(bad)} positions differ, first: {bad[:3]}"
