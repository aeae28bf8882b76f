"""The board plays whole games against the built-in engine (issue 11) in
Maxima, Ultima and one of Deckle's games: every computer move is shown with
the engine-from/engine-to LEDs and in words, made by a simulated player
through lifts and placements, and checked by the controller, until the
rules end the game, which the computer at level 4 wins against a player
who moves at random. (Optima's games: test_opponent_board_optima.py.)"""
from __future__ import annotations

import random

import pytest

from controller.hands import hand_lines, pick_move
from controller.script import Runner, parse_script
from controller.settings import Settings
from opponent.board import OpponentLayer
from tests.opponent_engine import BINARY, build


@pytest.fixture(scope="module")
def engine() -> str:
    build()
    return str(BINARY)


@pytest.mark.parametrize("variant, board, computer", [
    ("maxima", "maxima", "white"),
    ("ultima", "maxima", "black"),
    ("withdrawer-chess", "10x10", "white"),
])
def test_the_board_plays_a_whole_game_against_the_built_in_engine(engine, variant, board, computer):
    rng = random.Random(7)
    settings = Settings(variant=variant, board_kind=board)
    runner = Runner(settings, variant=variant)
    layer = OpponentLayer(runner.controller, computer, 4, engine, sync=True)
    runner.controller = layer
    side = 1 if computer == "white" else -1
    try:
        runner.wait(10)   # the first tick: a computer playing White asks its engine
        computer_moves = 0
        while layer.result == "*" and len(layer.moves) < 400:
            p = layer.position
            if p.turn == side:
                shown = layer._current()
                assert shown is not None and shown.kind == "computer", layer.display
                move = shown.move
                names = p.geometry.names
                assert layer.leds[names[move.from_square]] == "engine-from", layer.leds
                if move.to_square is not None and move.to_square != move.from_square:
                    assert layer.leds[names[move.to_square]] == "engine-to", layer.leds
                assert "Computer:" in " ".join(layer.display), layer.display
                assert move in p.legal_moves
                computer_moves += 1
            else:
                move = pick_move(p, rng)
            before = len(layer.moves)
            for step in parse_script(hand_lines(p, move, rng, settings.settle_ms, layer.controller._table), variant):
                runner.do(step)
            assert layer.moves[before:] == [str(move)], (layer.display, str(move))
        assert layer.result != "*" and layer.mode == "ended", layer.moves[-5:]
        # level 4 (depth 2, no random moves) beats a player who moves at random
        assert layer.result == ("1-0" if side == 1 else "0-1"), (layer.result, layer.moves)
        assert computer_moves >= 5
        assert "engine-from" not in layer.leds.values()
    finally:
        layer.close()
