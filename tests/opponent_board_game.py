"""A whole game on the simulated board against a computer opponent: a
simulated player makes the computer's shown moves and its own choices
(maxima_board.board.hands.pick_move) through lifts and placements."""
from __future__ import annotations

import random
from typing import Callable

from maxima_board.board.hands import hand_lines, pick_move
from maxima_board.service.script import Runner, parse_script
from maxima_board.board.settings import Settings
from maxima_board.rules import Move, Position
from maxima_board.service.opponent_layer import OpponentLayer


def play_against_the_computer(variant: str, board: str, computer: str, level: int, engine: str, seed: int,
                              on_computer_move: Callable[[Position, OpponentLayer, Move], None] | None = None,
                              max_plies: int = 400) -> tuple[OpponentLayer, list[Move]]:
    """Play until the rules end the game or ``max_plies``; every move made on
    the board must be recorded as exactly that move. ``on_computer_move`` sees
    each position where the computer's move is shown, before it is made.
    Returns the (closed) layer and the computer's moves."""
    rng = random.Random(seed)
    settings = Settings(variant=variant, board_kind=board)
    runner = Runner(settings, variant=variant)
    layer = OpponentLayer(runner.controller, computer, level, engine, sync=True)
    runner.controller = layer
    side = 1 if computer == "white" else -1
    computer_moves: list[Move] = []
    try:
        runner.wait(10)   # the first tick: a computer playing White asks its engine
        while layer.result == "*" and len(layer.moves) < max_plies:
            p = layer.position
            if p.turn == side:
                shown = layer._current()
                assert shown is not None and shown.kind == "computer", layer.display
                move = shown.move
                assert "Computer:" in " ".join(layer.display), layer.display
                if on_computer_move:
                    on_computer_move(p, layer, move)
                computer_moves.append(move)
            else:
                move = pick_move(p, rng)
            before = len(layer.moves)
            for step in parse_script(hand_lines(p, move, rng, settings.settle_ms, layer.controller.table), variant):
                runner.do(step)
            assert layer.moves[before:] == [str(move)], (layer.display, str(move))
    finally:
        layer.close()
    return layer, computer_moves
