"""The computer plays Optima on the board (issues 10 and 11): the built-in
engine's placements and moves are shown, made by a simulated player through
lifts and placements, and checked by the controller, from the placement
phase (O5) to the end of the game (O13)."""
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


@pytest.mark.parametrize("variant, computer", [("optima-9x9", "black"), ("optima", "white")])
def test_O5_O13_the_board_plays_a_whole_optima_game_against_the_built_in_engine(engine, variant, computer):
    rng = random.Random(5)
    settings = Settings(variant=variant, board_kind="10x10")
    runner = Runner(settings, variant=variant)
    layer = OpponentLayer(runner.controller, computer, 1, engine, sync=True)
    runner.controller = layer
    side = 1 if computer == "white" else -1
    try:
        runner.wait(10)   # the first tick: a computer playing White asks its engine
        computer_moves = placements = 0
        while layer.result == "*" and len(layer.moves) < 400:
            p = layer.position
            if p.turn == side:
                shown = layer._current()
                assert shown is not None and shown.kind == "computer", layer.display
                move = shown.move
                assert "Computer:" in " ".join(layer.display), layer.display
                computer_moves += 1
                placements += move.kind == "placement"
            else:
                move = pick_move(p, rng)
            before = len(layer.moves)
            for step in parse_script(hand_lines(p, move, rng, settings.settle_ms, layer.controller._table), variant):
                runner.do(step)
            assert layer.moves[before:] == [str(move)], (layer.display, str(move))
        assert layer.result != "*" and layer.mode == "ended", layer.moves[-5:]
        assert placements == (5 if variant == "optima-9x9" else 10)   # every placement of its side (O5)
        assert computer_moves > placements
    finally:
        layer.close()
