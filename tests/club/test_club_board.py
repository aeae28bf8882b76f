"""The club parts on the board: the main loop (gpiozero MockFactory, luma
dummy devices, fake clock) runs the web page's commands like buttons and
hands out snapshots; ``run`` starts the web page from ``[web]``; the
``[web]``/``[broadcast]`` config and the commands' one-line errors."""
from __future__ import annotations

import json
import re
import socket
import subprocess
import urllib.error
import urllib.request

import pytest

from maxima_board.service.feed import BoardFeed, Command, NewGame
from maxima_board.rules import START_FEN
from maxima_board.cli.config import ConfigError, parse_config
from tests.test_hw_board_cmds import matrix  # noqa: F401  (the MockFactory reed matrix fixture)
from tests.test_hw_runner import Board

from .conftest import MAXIMA_BOARD, wait_for
from .mosquitto import free_port


@pytest.fixture
def board():
    b = Board()
    b.runner.feed = BoardFeed()
    yield b
    b.close()


def test_loop_hands_out_a_snapshot_after_each_change(board):
    board.at(100, "d3", False)
    board.at(400, "d5", True)
    board.run_until(1200)
    latest = board.runner.feed.latest
    assert latest["moves"] == ["d3-d5"] and latest["leds"] == {"d3": "last-from", "d5": "last-to"}
    assert latest["display"] == board.oled.lines


def test_loop_runs_web_commands_like_button_presses(board):
    command = Command(NewGame(START_FEN, {"white": "Ann", "black": "Bob"}, "", True))
    board.at(100, "d3", False)
    board.at(400, "d5", True)
    board.run_until(1000)
    board.runner.feed.inbox.put(command)
    assert not command.done.is_set()            # nothing happens outside the loop
    board.run_until(1100)
    assert command.done.is_set() and command.error is None
    assert [e["type"] for e in command.result][0] == "setup"
    assert board.controller.mode == "setup"
    assert any(e["type"] == "setup" for e in board.runner.events)
    assert board.runner.feed.latest["tags"]["White"] == "Ann"


def test_a_failing_web_command_is_answered_and_the_board_goes_on(board):
    def broken(controller, now):
        raise ValueError("no such thing")
    command = Command(broken)
    board.runner.feed.inbox.put(command)
    board.at(100, "d3", False)
    board.at(400, "d5", True)
    board.run_until(1200)
    assert command.error == "no such thing"
    assert board.controller.moves == ["d3-d5"]


def test_web_and_broadcast_config():
    config = parse_config('hardware = "sim"\n[web]\nenabled = true\nport = 8099\nbind = "127.0.0.1"\n'
                          '[broadcast]\nbroker = "192.168.1.10:1883"\nclub = "Hastings"\ntable = 12\n')
    assert (config.web.enabled, config.web.port, config.web.bind) == (True, 8099, "127.0.0.1")
    assert (config.broadcast.broker, config.broadcast.club, config.broadcast.table) == \
        ("192.168.1.10:1883", "Hastings", "12")
    default = parse_config('hardware = "direct"\n')
    assert default.web.enabled is False and default.web.port == 8080 and default.broadcast.broker is None
    refused('hardware = "sim"\n', (('[web]\nport = 70000', "[web] port"),
                                   ('[web]\nenable = true', "[web] enable: unknown key"),
                                   ('[broadcast]\nbroker = "host:port"', "[broadcast] broker"),
                                   ('[broadcast]\ntable = "1/2"', "[broadcast] table"),
                                   ('[broadcast]\nclub = "#"', "[broadcast] club")))


def refused(head: str, cases) -> None:
    """Each configuration ``head`` + text is refused with one line that starts with its message."""
    for text, message in cases:
        with pytest.raises(ConfigError) as e:
            parse_config(head + text, name="cfg.toml")
        assert str(e.value).startswith(f"config cfg.toml: {message}") and "\n" not in str(e.value), str(e.value)


def test_run_serves_the_web_page_from_the_config(tmp_path):
    port = free_port()
    cfg = tmp_path / "board.toml"
    cfg.write_text(f'hardware = "sim"\n[web]\nenabled = true\nport = {port}\nbind = "127.0.0.1"\n'
                   '[database]\npath = "g.db"\n')
    process = subprocess.Popen(MAXIMA_BOARD + ["run", "--config", str(cfg)], stdin=subprocess.PIPE,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        line = process.stderr.readline()
        assert re.search(rf"web page on http://127\.0\.0\.1:{port}/", line), line
        assert "PIN" in line and not re.search(r"\d{4,6}", line.split(str(port))[1])   # the PIN is not logged
        process.stdin.write("lift d3\nplace d4\nwait 400\n")
        process.stdin.flush()
        def moves():
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=5) as r:
                    return json.loads(r.read())["moves"]
            except urllib.error.HTTPError as e:      # 503 while the board starts
                assert e.code == 503
                return None
        assert wait_for(moves, what="the move on the page") == ["d3-d4"]
        assert (tmp_path / "web-pin").exists()
    finally:
        process.terminate()
        assert process.wait(10) == 0


def run_cli(*args: str, stdin: str = ""):
    return subprocess.run(MAXIMA_BOARD + list(args), input=stdin, capture_output=True, text=True, timeout=60)


def test_club_commands_report_bad_input_in_one_line(tmp_path):
    r = run_cli("dashboard", "--broker", "host:notaport", "--port", "0")
    assert r.returncode == 2 and r.stderr.strip().count("\n") == 0 and "port must be a number" in r.stderr
    r = run_cli("dashboard", "--broker", "127.0.0.1:1883", "--club", "a/b", "--port", "0")
    assert r.returncode == 2 and "club 'a/b'" in r.stderr
    r = run_cli("replay", "-", "--broadcast", "127.0.0.1:1883", "--table", "x y", stdin="lift d3\n")
    assert r.returncode == 2 and "table 'x y'" in r.stderr
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        r = run_cli("serve", "--port", str(port), "--bind", "127.0.0.1", "--db", str(tmp_path / "g.db"))
    assert r.returncode == 2 and f"cannot serve the board web page on 127.0.0.1:{port}" in r.stderr
    assert r.stderr.strip().count("\n") == 0
    r = run_cli("serve", "--port", "70000")
    assert r.returncode == 2 and "PORT must be a number" in r.stderr


def test_run_on_a_board_serves_and_broadcasts_its_game(tmp_path, monkeypatch, matrix, broker, capsys):
    """``run`` on the direct topology (gpiozero MockFactory, scripted switches,
    fake clock) with [web] on loopback and [broadcast]: the game reaches the broker."""
    from maxima_board.service import runner as runner_module
    from maxima_board.cli.main import main
    from maxima_board.rules import Position
    from tests.test_hw_board_cmds import CONFIG, Scripted, _script_game

    from .test_club_broadcast import Listener

    start = Position()
    matrix.set_squares(n for n in start.geometry.names if start.piece_at(start.geometry.index[n]))
    monkeypatch.setattr(runner_module, "SystemClock", Scripted(matrix, _script_game()).clock)
    monkeypatch.chdir(tmp_path)
    config = tmp_path / "board.toml"
    config.write_text(CONFIG.replace("[web]\nenabled = false\n", "") + '[web]\nenabled = true\nport = 0\nbind = "127.0.0.1"\n'
                      f'[broadcast]\nbroker = "{broker.address}"\nclub = "hw"\ntable = "4"\n')
    assert main(["run", "--config", str(config), "--seconds", "6"]) == 0
    err = capsys.readouterr().err
    assert re.search(r"web page on http://127\.0\.0\.1:\d+/", err) and "broadcasting to" in err
    assert (tmp_path / "web-pin").exists()
    listener = Listener(broker, "maxima-board/hw/4/state")
    try:
        state = wait_for(lambda: listener.get("maxima-board/hw/4/state"), what="the board's state")
        assert state["moves"] == ["f3-f6", "e7-e5", "e2-h5xe5"]
    finally:
        listener.close()


def test_run_with_the_simulated_board_serves_no_page_unless_asked(tmp_path, monkeypatch, capsys):
    import io

    from maxima_board.cli.main import main

    cfg = tmp_path / "sim.toml"
    cfg.write_text('hardware = "sim"\n[database]\npath = "g.db"\n')
    monkeypatch.setattr("sys.stdin", io.StringIO("lift d3\nplace d4\nwait 400\nquit\n"))
    assert main(["run", "--config", str(cfg)]) == 0
    captured = capsys.readouterr()
    assert "move 1 d3-d4" in captured.out and "web page" not in captured.err
    assert not (tmp_path / "web-pin").exists()


def test_broadcast_log_in_config():
    config = parse_config('hardware = "sim"\n[broadcast]\nbroker = "clubpi.local:8883"\ntable = "5"\n'
                          'username = "5"\npassword_file = "/etc/maxima-board/mqtt-password"\n'
                          '[broadcast.tls]\nca = "/etc/maxima-board/ca.crt"\ncert = "/etc/b.crt"\nkey = "/etc/b.key"\n')
    auth = config.broadcast.auth()
    assert (auth.username, auth.password_file) == ("5", "/etc/maxima-board/mqtt-password")
    assert (auth.tls_ca, auth.tls_cert, auth.tls_key) == ("/etc/maxima-board/ca.crt", "/etc/b.crt", "/etc/b.key")
    inline = parse_config('hardware = "sim"\n[broadcast]\ntls = { ca = "ca.crt" }\n')
    assert inline.broadcast.auth().tls_ca == "ca.crt" and inline.broadcast.auth().username is None
    assert parse_config('hardware = "sim"\n').broadcast.auth() == type(auth)()
    beside = parse_config('hardware = "sim"\n[broadcast]\nusername = "5"\npassword_file = "pw"\n'
                          'tls = { ca = "ca.crt" }\n', name="/etc/maxima-board/board.toml").broadcast.auth()
    assert (beside.password_file, beside.tls_ca) == ("/etc/maxima-board/pw", "/etc/maxima-board/ca.crt")
    refused('hardware = "sim"\n[broadcast]\n',
            (('password_file = "pw"', "[broadcast] password_file: a password needs a username"),
             ('username = "a/b"', "[broadcast] username"),
             ('username = 5', "[broadcast] username: expected a string"),
             ('tls = "ca.crt"', "[broadcast] tls: expected a table"),
             ('tls = { cert = "b.crt" }', "[broadcast] tls: needs ca"),
             ('tls = { ca = "ca.crt", key = "b.key" }', "[broadcast] tls: key needs cert"),
             ('tls = { ca = "ca.crt", certs = "b.crt" }', "[broadcast] tls: unknown key 'certs'")))


# -- the inbox: nothing from the network holds the loop up (issue 22) ------------


def test_a_full_inbox_refuses_at_once():
    import time

    from maxima_board.service.feed import BoardBusy

    feed = BoardFeed(maxsize=2)
    for _ in range(2):
        feed.inbox.put_nowait(Command(lambda c, now: None))
    started = time.monotonic()
    with pytest.raises(BoardBusy, match="busy"):
        feed.submit(lambda c, now: None, timeout=5)
    assert time.monotonic() - started < 0.1
    assert feed.refused == 1


def test_a_command_whose_requester_gave_up_is_dropped_unrun():
    import time

    feed = BoardFeed()
    ran = []
    late = Command(lambda c, now: ran.append("late"), deadline=time.monotonic() - 0.001)
    fresh = Command(lambda c, now: ran.append("fresh") or [], deadline=time.monotonic() + 5)
    feed.inbox.put(late)
    feed.inbox.put(fresh)
    assert feed.pump(object(), 0) == []
    assert ran == ["fresh"]
    assert late.done.is_set() and late.dropped and late.result is None
    assert fresh.done.is_set() and not fresh.dropped
    assert feed.dropped == 1


def test_submit_times_out_and_its_command_never_runs():
    feed = BoardFeed()
    ran = []
    with pytest.raises(TimeoutError, match="did not answer"):
        feed.submit(lambda c, now: ran.append(1), timeout=0.05)   # no loop pumps meanwhile
    feed.pump(object(), 0)
    assert ran == [] and feed.dropped == 1


def test_a_pass_runs_a_bounded_number_of_commands_and_comes_back_for_the_rest(board):
    """Twenty queries at once: one pass runs eight; the loop wakes again at
    once (not at its next deadline) and the rest are run in the next passes."""
    feed = board.runner.feed
    commands = [Command(lambda c, now: len(c.moves)) for _ in range(20)]
    board.run_until(100)
    now = board.clock.now
    with pytest.MonkeyPatch.context() as mp:
        runs = []
        mp.setattr(feed, "pump", lambda c, now, limit=8, pump=feed.pump: runs.append(now) or pump(c, now, limit))
        for command in commands:
            feed.inbox.put(command)
        board.runner.step(now)
        assert sum(c.done.is_set() for c in commands) == 8
        assert board.runner.next_wake(now) == now
        board.runner.run(stop=lambda t: all(c.done.is_set() for c in commands))
    assert all(c.done.is_set() and c.result == 0 for c in commands)
    assert runs == [now, now, now]                # no time passed between them


def test_submit_wakes_the_loop(board):
    woken = []
    board.runner.feed.set_waker(lambda: woken.append(1))
    import threading

    thread = threading.Thread(target=lambda: pytest.raises(TimeoutError, board.runner.feed.submit,
                                                           lambda c, now: None, 0.05))
    thread.start()
    thread.join()
    assert woken == [1]
