"""Remote play end to end (issue 33): two simulated boards
(``maxima-board sim --remote``, real processes) through a real Mosquitto
on loopback, each played by hand as a person plays it (remote_boards.py):
the mover makes a move, the other board prints ``remote MOVE`` and its
player makes it too. Games to the end with a board killed and a broker
restarted on the way, Optima's placements, forged and repeated messages,
take-backs, draws and resignations asked and answered through MENU, and
clocks carried with the moves.
"""
from __future__ import annotations

import random

import pytest

from maxima_board.board.hands import pick_move
from maxima_board.rules import Position

from .conftest import mosquitto_binary
from .mosquitto import Broker
from .remote_boards import SimBoard, made_after, made_alone, play_ply, remote_game_of


@pytest.fixture
def own_broker(tmp_path):
    """A broker of this test's own (it is stopped and started again)."""
    directory = tmp_path / "broker"
    directory.mkdir()
    b = Broker(mosquitto_binary(), directory)
    b.start()
    yield b
    b.stop()


def pair(tmp_path, broker: str, game: str, *extra: str) -> dict[str, SimBoard]:
    """White's and Black's boards of the remote game ``game``, both begun."""
    boards = {}
    try:
        for side in ("white", "black"):
            boards[side] = SimBoard(tmp_path / f"{side}.db", broker, game, side, *extra)
        for side, board in boards.items():
            board.expect(rf"remote game [0-9a-f]{{20}} as {side}$")
    except BaseException:
        for board in boards.values():
            board.kill()
        raise
    return boards


def close(boards: dict[str, SimBoard]) -> None:
    for board in boards.values():
        if board.proc is not None and board.proc.poll() is None:
            board.kill()


def same_stores(tmp_path, result: str, reason: str) -> list[str]:
    """Both boards' stored remote game: the same moves, ``result`` for ``reason``."""
    (w, w_moves), (b, b_moves) = (remote_game_of(tmp_path / f"{side}.db") for side in ("white", "black"))
    assert w_moves == b_moves
    assert (w["result"], w["reason"], w["finished"]) == (result, reason, 1)
    assert (b["result"], b["reason"], b["finished"]) == (result, reason, 1)
    assert w["event"] == b["event"] and w["start_fen"] == b["start_fen"]
    return w_moves


def test_maxima_game_to_the_end_through_a_killed_board_and_a_restarted_broker(tmp_path, own_broker):
    """A Maxima game (random legal moves, seed 5: captures, checkmate at
    ply 32) to its end. Black's board is killed by SIGKILL while White
    moves, and comes back (same database) to the stored game and White's
    move; the broker is restarted without persistence while White moves,
    so both boards must publish again for the game to go on. At the end
    both boards have stored the same moves and the same result."""
    rng = random.Random(5)
    position = Position()
    boards = pair(tmp_path, own_broker.address, "e2e-maxima-1")
    try:
        while position.outcome() is None:
            ply = len(position.move_stack) + 1
            move = pick_move(position, rng)
            if ply == 9:        # Black's board dies and comes back while White moves
                boards["black"].kill()
                lines = made_alone(boards["white"], position, move, rng)
                boards["black"].restart()
                boards["black"].expect(r"game \d+ resumed after 8 moves")
                made_after(boards["black"], position, move, lines)
                continue
            if ply == 19:       # the broker goes away while White moves, and comes back empty
                own_broker.stop()
                lines = made_alone(boards["white"], position, move, rng)
                own_broker.start()
                made_after(boards["black"], position, move, lines, timeout=20)
                continue
            play_ply(boards, position, move, rng)
        outcome = position.outcome()
        for board in boards.values():
            board.expect(rf"game over {outcome.result} \({outcome.reason}\)")
        for board in boards.values():
            assert board.quit() == 0
    finally:
        close(boards)
    moves = same_stores(tmp_path, outcome.result, outcome.reason)
    assert moves == [str(m) for m in position.move_stack]
    assert outcome.reason == "checkmate" and len(moves) == 32

