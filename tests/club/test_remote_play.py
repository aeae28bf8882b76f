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
import threading
import time

import msgspec
import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from maxima_board.board.hands import pick_move
from maxima_board.club.remote_link import remote_topic
from maxima_board.rules import Position
from maxima_board.service import remote_wire as w

from .conftest import mosquitto_binary, wait_for
from .mosquitto import Broker
from .remote_boards import SimBoard, clocks_of, hands, made_after, made_alone, play_ply, remote_game_of


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
    (white, white_moves), (black, black_moves) = (remote_game_of(tmp_path / f"{side}.db")
                                                  for side in ("white", "black"))
    assert white_moves == black_moves
    assert (white["result"], white["reason"], white["finished"]) == (result, reason, 1)
    assert (black["result"], black["reason"], black["finished"]) == (result, reason, 1)
    assert white["event"] == black["event"] and white["start_fen"] == black["start_fen"]
    return white_moves


def play_to_the_end(boards: dict[str, SimBoard], position: Position, rng: random.Random, broker: Broker,
                    kill: tuple[int, str], restart_broker: int, kill_shown: int = 0,
                    kill_mover: int = 0) -> None:
    """Random legal moves (``pick_move``) by hand on both boards until the
    game ends; at ply ``kill[0]`` the board of ``kill[1]`` (not the mover)
    is killed by SIGKILL, the move made without it, the board started again
    (same database); at ply ``restart_broker`` the broker (no persistence)
    is stopped, the move made, the broker started again; at ply
    ``kill_shown`` the other board is killed once it shows the move, before
    its player makes it, and started again; at ply ``kill_mover`` the
    mover's board is killed as soon as it has stored its move (sent or not),
    and started again."""
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
        elif ply == kill_mover:
            lines = made_alone(boards[mover], position, move, rng)
            boards[mover].kill()
            boards[mover].restart()
            boards[mover].expect(rf"game \d+ resumed after {ply} moves")
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
    ply 32) to its end, through SIGKILLs and a broker lost:

    - ply 9: Black's board is killed while White moves, and comes back
      (same database) to the stored game and White's move;
    - ply 14: Black's board is killed as soon as it has stored its own
      move (sent or not), and sends it when it is back;
    - ply 19: the broker (no persistence) stops while White moves and
      starts again empty: both boards must publish again;
    - ply 24: White's board is killed once it shows Black's move, before
      its player makes it, and shows it again when it is back.

    At the end both boards have stored the same moves and the same result."""
    rng = random.Random(5)
    position = Position()
    boards = pair(tmp_path, own_broker.address, "e2e-maxima-1")
    try:
        play_to_the_end(boards, position, rng, own_broker, kill=(9, "black"), restart_broker=19,
                        kill_shown=24, kill_mover=14)
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


class Spy:
    """A third MQTT client on the game's topics: it keeps every message
    White's board publishes, and publishes what an attacker would."""

    def __init__(self, broker: Broker, topic: str):
        self.topic = topic
        self.messages: list[bytes] = []
        self.subscribed = threading.Event()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2)
        self.client.on_connect = lambda c, u, f, rc, p: c.subscribe(topic, qos=1)
        self.client.on_subscribe = lambda c, u, mid, rc, p: self.subscribed.set()
        self.client.on_message = lambda c, u, m: self.messages.append(bytes(m.payload))
        self.client.connect("127.0.0.1", broker.port)
        self.client.loop_start()
        assert self.subscribed.wait(10)

    def latest(self, n: int) -> bytes | None:
        """The newest message of White's board with ``n`` plies played, if any."""
        key = w.game_key(GAME_3)
        for data in reversed(self.messages):
            if w.decode(data, key, "white").n == n:
                return data
        return None

    def publish(self, payload: bytes) -> None:
        self.client.publish(self.topic, payload, qos=1, retain=True).wait_for_publish(10)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


GAME_3 = "e2e-forged-1"
REMOTE_LINE = r"remote (?!game |ask |answer )\S+$"


def test_forged_replayed_and_repeated_messages_are_refused_or_counted_once(tmp_path, broker):
    """A third client on White's topic: a move signed with another key and
    the same move unsigned are refused on Black's board (``error remote:
    refused``, the move not shown); a copy of White's newest message and
    an old genuine one change nothing (no second ``remote`` line); Black's
    board started again, the broker holding that old message, still gets
    White's move; the game goes on and both stores hold the genuine moves
    only."""
    rng = random.Random(11)
    position = Position()
    spy = Spy(broker, remote_topic(GAME_3, "white"))
    boards = pair(tmp_path, broker.address, GAME_3)
    black = boards["black"]
    try:
        for _ in range(4):
            play_ply(boards, position, pick_move(position, rng), rng)
        wait_for(lambda: spy.latest(4), what="White's message with 4 plies")
        old, newest = spy.latest(1), spy.latest(4)
        # White to move: a forged White move, as the next message of White's board
        genuine = w.decode(newest, w.game_key(GAME_3), "white")
        forged_move = str(next(m for m in position.legal_moves if m.kind == "move" and not m.captures))
        forged = msgspec.structs.replace(
            genuine, seq=genuine.seq + 100, n=5, got=5,
            moves=[*genuine.moves, w.Entry(forged_move, None)])
        spy.publish(w.encode(forged, w.game_key(GAME_3, "a guess")))
        assert "bad signature" in black.expect(r"error remote: refused .*").group(0)
        spy.publish(msgspec.json.encode(forged))
        assert "not signed" in black.expect(r"error remote: refused .*").group(0)
        # White moves; then a copy of its newest message, and its first one again (kept by the broker)
        move = pick_move(position, rng)
        lines = made_alone(boards["white"], position, move, rng)
        black.expect(rf"remote {re.escape(str(move))}$")
        newest = wait_for(lambda: spy.latest(5), what="White's message with 5 plies")
        spy.publish(newest)
        spy.publish(old)
        quiet = black.settle(1.0)
        assert not [line for line in quiet if re.match(REMOTE_LINE, line) or line.startswith("error")], quiet
        # Black's board comes back before its player made White's move, the broker holding the old message
        black.kill()
        black.restart()
        black.expect(r"game \d+ resumed after 4 moves")
        made_after(black, position, move, lines)
        for _ in range(3):      # the game goes on, each of White's moves shown once
            play_ply(boards, position, pick_move(position, rng), rng)
        shown = [line for line in black.seen if re.match(REMOTE_LINE, line)]
        white_moves = [f"remote {m}" for m in position.move_stack[0::2]]
        assert shown == white_moves[:3] + white_moves[2:]      # the third again on the board started again
        for board in boards.values():
            assert board.quit() == 0
    finally:
        close(boards)
        spy.close()
    for side in ("white", "black"):
        game, moves = remote_game_of(tmp_path / f"{side}.db")
        assert moves == [str(m) for m in position.move_stack] and game["result"] == "*"


def quiet_move(position: Position, rng: random.Random):
    """A legal move without captures (one a take-back undoes by moving the piece back)."""
    return rng.choice([m for m in position.legal_moves if m.kind == "move" and not m.captures])


def undo_lines(position: Position, move) -> list[str]:
    """The hands that take the quiet ``move`` back on the board."""
    names = position.geometry.names
    return [f"lift {names[move.to_square]}", f"place {names[move.from_square]}", "wait 400"]


def asked_back(boards: dict[str, SimBoard], position: Position) -> None:
    """White takes its last move back (BACK, the piece moved back): a take-back asked of Black."""
    white, black = boards["white"], boards["black"]
    last = position.move_stack[-1]
    white.send("press back")
    white.expect(rf"takeback {re.escape(str(last))} ")
    white.expect(r"remote ask takeback by us$")
    white.send(*undo_lines(position, last))
    black.expect(r"remote ask takeback by them$")
    black.settle(0.3)


def test_takeback_and_draw_asked_and_answered_through_menu(tmp_path, broker):
    """White takes its move back: Black's board is asked; declined through
    MENU, White makes its move again and nothing changes on Black's board;
    asked again and accepted, both boards take it back (Black's player moves
    the piece back as its board says) and White plays another move; asked
    once more, Black plays on instead (a no): White makes its move again,
    then Black's. Black
    offers a draw through MENU, White declines and the game goes on; White
    offers one and Black accepts: both boards end the game, and both stores
    hold the same moves, drawn by agreement."""
    rng = random.Random(2)
    position = Position()
    boards = pair(tmp_path, broker.address, "e2e-asks-1")
    white, black = boards["white"], boards["black"]
    try:
        for _ in range(3):
            play_ply(boards, position, quiet_move(position, rng), rng)
        third = position.move_stack[-1]
        # asked, declined: White makes the move again, Black's board is unchanged
        asked_back(boards, position)
        black.choose("Decline take-back?")
        black.expect(r"remote answer takeback no by us$")
        white.expect(r"remote answer takeback no by them$")
        position.pop()
        white.send(*hands(position, third, rng))
        white.expect(rf"move 3 {re.escape(str(third))} ")
        position.push(third)
        assert not [line for line in black.settle(0.5) if line.startswith(("takeback", "move", "remote "))]
        # asked again, accepted: both boards go back to two moves
        asked_back(boards, position)
        black.choose("Accept take-back?")
        black.expect(r"remote answer takeback yes by us$")
        black.expect(rf"takeback {re.escape(str(third))} ")
        black.send(*undo_lines(position, third))
        white.expect(r"remote answer takeback yes by them$")
        position.pop()
        other = quiet_move(position, rng)
        while other == third:
            other = quiet_move(position, rng)
        play_ply(boards, position, other, rng)
        # asked once more, Black plays on instead: that is a no; White makes its move again, then Black's
        asked_back(boards, position)
        fourth = quiet_move(position, rng)
        lines = hands(position, fourth, rng)
        black.send(*lines)
        black.expect(rf"move 4 {re.escape(str(fourth))} ")
        white.expect(r"remote answer takeback no by them$")
        white.expect(rf"remote {re.escape(str(fourth))}$")
        position.pop()
        white.send(*hands(position, other, rng))
        white.expect(rf"move 3 {re.escape(str(other))} ")
        position.push(other)
        white.send(*lines)
        white.expect(rf"move 4 {re.escape(str(fourth))} ")
        position.push(fourth)
        # Black offers a draw, White declines; the game goes on
        black.settle(0.3)
        black.choose("Agree draw?")
        black.expect(r"remote ask draw by us$")
        white.expect(r"remote ask draw by them$")
        white.settle(0.3)
        white.choose("Decline draw?")
        white.expect(r"remote answer draw no by us$")
        black.expect(r"remote answer draw no by them$")
        play_ply(boards, position, quiet_move(position, rng), rng)
        # White offers one, Black accepts: the game ends on both boards
        white.settle(0.3)
        white.choose("Agree draw?")
        white.expect(r"remote ask draw by us$")
        black.expect(r"remote ask draw by them$")
        black.settle(0.3)
        black.choose("Accept draw?")
        black.expect(r"remote answer draw yes by us$")
        result = black.expect(r"game over (\S+) \(agreement\)").group(1)
        white.expect(r"remote answer draw yes by them$")
        white.expect(rf"game over {re.escape(result)} \(agreement\)")
        for board in boards.values():
            assert board.quit() == 0
    finally:
        close(boards)
    moves = same_stores(tmp_path, result, "agreement")
    assert moves == [str(m) for m in position.move_stack] and len(moves) == 5 and moves[2] == str(other)


def test_resignation_asked_and_ended_on_both_boards(tmp_path, broker):
    """White resigns through MENU ("Resign White?"): Black's board is asked,
    ends the game and answers; White's ends it too; both stores say 0-1 by
    resignation. Black's board cannot resign White's side."""
    rng = random.Random(3)
    position = Position()
    boards = pair(tmp_path, broker.address, "e2e-resign-1")
    white, black = boards["white"], boards["black"]
    try:
        for _ in range(2):
            play_ply(boards, position, quiet_move(position, rng), rng)
        black.settle(0.3)
        black.choose("Resign White?")     # not its side: nothing is asked
        black.expect(r"oled .*(Not your side!|Only the other)")
        white.settle(0.3)
        white.choose("Resign White?")
        white.expect(r"remote ask resign by us$")
        black.expect(r"remote answer resign yes by us$")
        black.expect(r"game over 0-1 \(resignation\)")
        white.expect(r"remote answer resign yes by them$")
        white.expect(r"game over 0-1 \(resignation\)")
        assert black.count("remote ask") == 0 and white.count("remote ask resign") == 1
        for board in boards.values():
            assert board.quit() == 0
    finally:
        close(boards)
    moves = same_stores(tmp_path, "0-1", "resignation")
    assert moves == [str(m) for m in position.move_stack]


def test_clocks_travel_with_the_moves_and_a_flag_ends_both_boards(tmp_path, broker):
    """With ``--clock 5+0``: White thinks 30 s and moves; Black's board
    shows White's clock as White's board had it (Black's player taking two
    seconds to make the move on the board changes nothing); Black thinks
    70 s, and White's board shows Black's clock as Black's had it. Then
    Black's time runs out on its own board, which calls its flag; White's
    board ends the game too. Both stores hold the same moves, result and
    clocks, to the millisecond."""
    rng = random.Random(4)
    position = Position()
    boards = pair(tmp_path, broker.address, "e2e-clocks-1", "--clock", "5+0")
    white, black = boards["white"], boards["black"]
    clock = r"clock White (\d+:\d\d) Black (\d+:\d\d)$"
    try:
        move = quiet_move(position, rng)
        lines = hands(position, move, rng)
        white.send("wait 30000", *lines)
        white.expect(rf"move 1 {re.escape(str(move))} ")
        shown = white.expect(clock).groups()
        assert "4:25" <= shown[0] <= "4:30" and shown[1] == "5:00", shown
        black.expect(rf"remote {re.escape(str(move))}$")
        black.send("wait 2000", *lines)
        black.expect(rf"move 1 {re.escape(str(move))} ")
        assert black.expect(clock).groups() == shown
        position.push(move)

        move = quiet_move(position, rng)
        lines = hands(position, move, rng)
        black.send("wait 70000", *lines)
        black.expect(rf"move 2 {re.escape(str(move))} ")
        shown = black.expect(clock).groups()
        assert "3:45" <= shown[1] <= "3:50" and shown[0] == white_left(white), shown
        white.expect(rf"remote {re.escape(str(move))}$")
        white.send(*lines)
        white.expect(rf"move 2 {re.escape(str(move))} ")
        assert white.expect(clock).groups() == shown
        position.push(move)

        play_ply(boards, position, quiet_move(position, rng), rng)
        black.send("wait 300000")       # Black's time runs out on Black's board
        black.expect(r"game over 1-0 \(time\)")
        white.expect(r"game over 1-0 \(time\)")
        for board in boards.values():
            assert board.quit() == 0
    finally:
        close(boards)
    moves = same_stores(tmp_path, "1-0", "time")
    assert moves == [str(m) for m in position.move_stack]
    stored_clocks = clocks_of(tmp_path / "white.db")
    assert stored_clocks == clocks_of(tmp_path / "black.db") and len(stored_clocks) == 4
    assert [row[1] for row in stored_clocks] == ["5"] * 4


def white_left(board: SimBoard) -> str:
    """White's clock in the last clock line ``board`` printed."""
    line = next(line for line in reversed(board.seen) if line.startswith("clock "))
    return line.split()[2]


def test_a_flood_of_forged_messages_neither_stops_nor_slows_the_game(tmp_path, broker):
    """A third client floods White's topic with 3,000 messages (unsigned,
    wrongly signed, 200 kB of junk) while the game goes on: Black's board
    refuses a bounded number of them in its log, and White's moves still
    arrive, each once, within a second or so."""
    rng = random.Random(12)
    position = Position()
    spy = Spy(broker, remote_topic(GAME_4, "white"))
    boards = pair(tmp_path, broker.address, GAME_4)
    black = boards["black"]
    stop = threading.Event()
    sent = [0]

    def flood() -> None:
        junk = [b"x" * 200_000, b"{}", w.encode(w.State("white", 9, 9, "maxima", "start", None, 0, 0, 0, []),
                                                 w.game_key("a guess"))]
        while not stop.is_set() and sent[0] < 3000:
            spy.client.publish(spy.topic, junk[sent[0] % 3], qos=0)
            sent[0] += 1
    try:
        play_ply(boards, position, pick_move(position, rng), rng)
        flooder = threading.Thread(target=flood, daemon=True)
        flooder.start()
        for _ in range(4):
            started = time.monotonic()
            play_ply(boards, position, pick_move(position, rng), rng)
            assert time.monotonic() - started < 10
        stop.set()
        flooder.join(10)
        for board in boards.values():
            assert board.quit() == 0
    finally:
        stop.set()
        close(boards)
        spy.close()
    refused = [line for line in black.seen if line.startswith("error remote: refused")]
    shown = [line for line in black.seen if re.match(REMOTE_LINE, line)]
    assert sent[0] > 500 and 0 < len(refused) < sent[0]
    assert shown == [f"remote {m}" for m in position.move_stack[0::2]]
    for side in ("white", "black"):
        assert remote_game_of(tmp_path / f"{side}.db")[1] == [str(m) for m in position.move_stack]


GAME_4 = "e2e-flooded-1"
