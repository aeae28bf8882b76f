"""The computer plays Optima on the board (issues 10 and 11): the built-in
engine's placements and moves are shown, made by a simulated player through
lifts and placements, and checked by the controller, from the placement
phase (O5) to the end of the game (O13)."""
from __future__ import annotations

import pytest

from tests.opponent_board_game import play_against_the_computer
from tests.opponent_engine import engine_binary  # noqa: F401 (a fixture)


@pytest.mark.parametrize("variant, computer", [("optima-9x9", "black"), ("optima", "white")])
def test_O5_O13_the_board_plays_a_whole_optima_game_against_the_built_in_engine(engine_binary, variant, computer):
    layer, moves = play_against_the_computer(variant, "10x10", computer, 1, str(engine_binary), seed=5)
    assert layer.result != "*" and layer.mode == "ended", layer.moves[-5:]
    placements = sum(move.kind == "placement" for move in moves)
    assert placements == (5 if variant == "optima-9x9" else 10)   # every placement of its side (O5)
    assert len(moves) > placements
