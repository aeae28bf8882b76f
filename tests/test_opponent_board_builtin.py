"""The board plays whole games against the built-in engine (issue 11) in
Maxima, Ultima and one of Deckle's games: every computer move is shown with
the engine-from/engine-to LEDs and in words, made by a simulated player
through lifts and placements, and checked by the controller, until the
rules end the game, which the computer at level 4 wins against a player
who moves at random. (Optima's games: test_opponent_board_optima.py.)"""
from __future__ import annotations

import pytest

from tests.opponent_board_game import play_against_the_computer
from tests.opponent_engine import engine_binary  # noqa: F401 (a fixture)


def _shown_on_the_board(p, layer, move) -> None:
    names = p.geometry.names
    assert layer.leds[names[move.from_square]] == "engine-from", layer.leds
    if move.to_square is not None and move.to_square != move.from_square:
        assert layer.leds[names[move.to_square]] == "engine-to", layer.leds
    assert move in p.legal_moves


@pytest.mark.parametrize("variant, board, computer", [
    ("maxima", "maxima", "white"),
    ("ultima", "maxima", "black"),
    ("withdrawer-chess", "10x10", "white"),
])
def test_the_board_plays_a_whole_game_against_the_built_in_engine(engine_binary, variant, board, computer):
    layer, moves = play_against_the_computer(variant, board, computer, 4, str(engine_binary), seed=7,
                                             on_computer_move=_shown_on_the_board)
    assert layer.result != "*" and layer.mode == "ended", layer.moves[-5:]
    # level 4 (depth 2, 5 % random moves: opponent/levels.py) beats a player who moves at random
    assert layer.result == ("1-0" if computer == "white" else "0-1"), (layer.result, layer.moves)
    assert len(moves) >= 5
    assert "engine-from" not in layer.leds.values()
