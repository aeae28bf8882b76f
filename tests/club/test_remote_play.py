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
import re

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


def play_to_the_end(boards: dict[str, SimBoard], position: Position, rng: random.Random, broker: Broker,
                    kill: tuple[int, str], restart_broker: int, kill_shown: int = 0) -> None:
    """Random legal moves (``pick_move``) by hand on both boards until the
    game ends; at ply ``kill[0]`` the board of ``kill[1]`` (not the mover)
    is killed by SIGKILL, the move made without it, the board started again
    (same database); at ply ``restart_broker`` the broker (no persistence)
    is stopped, the move made, the broker started again; at ply
    ``kill_shown`` the other board is killed once it shows the move, before
    its player makes it, and started again."""
    while position.outcome() is None:
        ply = len(position.move_stack) + 1
        mover = "white" if position.turn > 0 else "black"
        other = "black" if mover == "white" else "white"
        move = pick_move(position, rng)
        if ply == kill[0]:
            assert kill[1] == other
            boards[other].kill()
            lines = made_alone(boards[mover], position, move, rng)
            boards[other].restart()
            boards[other].expect(rf"game \d+ resumed after {ply - 1} moves")
            made_after(boards[other], position, move, lines)
        elif ply == kill_shown:
            lines = made_alone(boards[mover], position, move, rng)
            boards[other].expect(rf"remote {re.escape(str(move))}$")
            boards[other].kill()
            boards[other].restart()
            boards[other].expect(rf"game \d+ resumed after {ply - 1} moves")
            made_after(boards[other], position, move, lines)
        elif ply == restart_broker:
            broker.stop()
            lines = made_alone(boards[mover], position, move, rng)
            broker.start()
            made_after(boards[other], position, move, lines, timeout=20)
        else:
            play_ply(boards, position, move, rng)
    outcome = position.outcome()
    for board in boards.values():
        board.expect(rf"game over {outcome.result} \({outcome.reason}\)")
    for board in boards.values():
        assert board.quit() == 0


def test_maxima_game_to_the_end_through_a_killed_board_and_a_restarted_broker(tmp_path, own_broker):
    """A Maxima game (random legal moves, seed 5: captures, checkmate at
    ply 32) to its end. Black's board is killed by SIGKILL while White
    moves, and comes back (same database) to the stored game and White's
    move; White's board is killed once it shows Black's move, before
    its player makes it, and shows it again when it is back; the broker is restarted without persistence while White moves,
    so both boards must publish again for the game to go on. At the end
    both boards have stored the same moves and the same result."""
    rng = random.Random(5)
    position = Position()
    boards = pair(tmp_path, own_broker.address, "e2e-maxima-1")
    try:
        play_to_the_end(boards, position, rng, own_broker, kill=(9, "black"), restart_broker=19,
                        kill_shown=24)
    finally:
        close(boards)
    outcome = position.outcome()
    moves = same_stores(tmp_path, outcome.result, outcome.reason)
    assert moves == [str(m) for m in position.move_stack]
    assert outcome.reason == "checkmate" and len(moves) == 32


def test_optima_game_placements_and_all_to_the_end(tmp_path, own_broker):
    """An Optima game (equal forces; random legal moves, seed 3): twenty
    placements (the unit chosen through the OLED's "Place: ...?" and
    MENU), then moves with captures and conversions, to a royal unit
    captured. White's board is killed and comes back during the
    placements, the broker is restarted in the movement phase; both
    stores hold the same game."""
    rng = random.Random(3)
    position = Position("start", "optima")
    boards = pair(tmp_path, own_broker.address, "e2e-optima-1", "--variant", "optima")
    try:
        for board in boards.values():
            assert board.count(f"game 1 started from {position.fen()}") == 1
        play_to_the_end(boards, position, rng, own_broker, kill=(6, "white"), restart_broker=27)
    finally:
        close(boards)
    outcome = position.outcome()
    moves = same_stores(tmp_path, outcome.result, outcome.reason)
    assert moves == [str(m) for m in position.move_stack]
    kinds = {m.kind for m in position.move_stack}
    assert {"placement", "conversion", "replacement"} <= kinds and len(moves) == 51
