"""What the compiled engine's Optima keeps or counts for speed equals its definition
(engine/optima.c, ``maxima-engine check``): after every legal move of each position, the
square sets and material op_play keeps equal a recomputation from the board, the one-pass frozen
map equals O10 applied square by square, and op_count (the search's counting generator, with its
set-wise pawns and guards) gives, for both colours, the number of op_legal's moves (O6: equal moves
are one) and exactly its captures, conversions, promotions and swaps in its order."""
from __future__ import annotations

import pytest

from .opponent_engine import engine_binary, run_batch  # noqa: F401 (fixture)
from .opponent_optima_positions import game_positions, zoo_positions


@pytest.mark.parametrize("variant", ("optima", "optima-9x9"))
def test_O6_O10_kept_state_and_counts_equal_their_definitions(engine_binary, variant):
    """O6, O10, O11, O14: 300 positions per board (200 from random games of every kind of forces,
    placement included; 100 boards with units of all 56 types under random options), each with
    every position one legal move after it."""
    fens = [f for f, _ in game_positions(variant, 200, seed=3)] + [f for f, _ in zoo_positions(variant, 100, seed=3)]
    lines = run_batch(engine_binary, "check", variant, fens)
    assert len(lines) == len(fens)
    bad = [(fen, line) for fen, line in zip(fens, lines) if not line.startswith("ok ")]
    assert not bad, f"{len(bad)} positions differ, first: {bad[:3]}"
    checked = sum(int(line.split()[1]) for line in lines)
    assert checked > 10 * len(fens)    # the positions after the moves were checked too


def test_check_mode_reports_a_bad_fen(engine_binary):
    """A FEN the engine cannot read gives an error line, not a check result."""
    assert run_batch(engine_binary, "check", "optima", ["not a fen"])[0].startswith("error ")
