"""Broadcast through a real Mosquitto broker on a free loopback port: what a
board publishes, its last will, twenty boards playing at once through a
broker restart, and the club dashboard (API, round download, browser)."""
from __future__ import annotations

import json
import re
import subprocess
import threading
import time
import urllib.request

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from maxima_board.club.dashboard import record_text
from maxima_board.club.publisher import BoardPublisher
from maxima_board.club.topics import parse_broker, topic_word
from maxima_board.service.feed import BoardFeed
from maxima_board.service.script import Runner
from maxima_board.board.settings import Settings
from maxima_board.rules.record import GameRecord

from .conftest import MAXIMA_BOARD, wait_for
from .games import quiet_game, script_of


class Listener:
    """A paho subscriber collecting the newest payload of every topic."""

    def __init__(self, broker, pattern: str, raw: bool = False):
        self.raw = raw                        # keep the payload's bytes, not its JSON
        self.messages: dict[str, dict | None] = {}
        self.history: list[tuple[str, object]] = []
        self.lock = threading.Lock()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2)
        self.client.on_connect = lambda c, *a: c.subscribe(pattern, 1)
        self.client.on_message = self._message
        self.client.connect("127.0.0.1", broker.port)
        self.client.loop_start()

    def _message(self, client, userdata, message):
        data = message.payload if self.raw else json.loads(message.payload)
        with self.lock:
            self.messages[message.topic] = data
            self.history.append((message.topic, data))

    def get(self, topic: str):
        with self.lock:
            return self.messages.get(topic)

    def close(self):
        self.client.disconnect()
        self.client.loop_stop()


def test_topics_and_names_are_checked():
    assert parse_broker("127.0.0.1:1884") == ("127.0.0.1", 1884)
    assert parse_broker("broker.local") == ("broker.local", 1883)
    for bad in ("", ":1883", "host:99999", "host:abc"):
        with pytest.raises(ValueError):
            parse_broker(bad)
    for bad in ("a/b", "+", "#", "", "x" * 65):
        with pytest.raises(ValueError):
            topic_word(bad, "table")


def test_board_publishes_retained_game_fen_moves_clocks_result(broker):
    runner = Runner(Settings())
    feed = BoardFeed()
    publisher = BoardPublisher(broker.address, "pubtest", "5")
    feed.listeners.append(publisher)
    try:
        for line in ("lift d3", "place d4", "wait 400", "lift c7", "place c5", "wait 400"):
            op, arg = line.split()
            runner.do(type("S", (), {"op": op, "arg": int(arg) if op == "wait" else arg, "line": 1})())
            feed.update(runner.controller)
        assert publisher.flush(10)
    finally:
        publisher.close()
    listener = Listener(broker, "maxima-board/pubtest/5/#")     # subscribes after: retained copies only
    try:
        base = "maxima-board/pubtest/5"
        state = wait_for(lambda: listener.get(f"{base}/state"), what="the retained state")
        assert state["moves"] == ["d3-d4", "c7-c5"] and state["sans"] == ["Pd3-d4", "Pc7-c5"]
        assert state["club"] == "pubtest" and state["table"] == "5" and state["turn"] == "white"
        assert wait_for(lambda: listener.get(f"{base}/fen"))["fen"] == runner.controller.position.fen()
        assert wait_for(lambda: listener.get(f"{base}/moves"))["moves"] == ["d3-d4", "c7-c5"]
        assert wait_for(lambda: listener.get(f"{base}/result")) == {"game": 1, "result": "*", "reason": None}
        assert wait_for(lambda: f"{base}/clocks" in listener.messages) and listener.get(f"{base}/clocks") is None
        assert wait_for(lambda: listener.get(f"{base}/game"))["tags"]["White"] == "White"
        record = wait_for(lambda: listener.get(f"{base}/games/1"))
        assert GameRecord.from_text(record_text("5", record)).replay().fen() == runner.controller.position.fen()
        assert wait_for(lambda: listener.get(f"{base}/status")) is not None
        assert listener.get(f"{base}/status")["online"] is False        # closed cleanly
    finally:
        listener.close()


def test_last_will_marks_a_board_that_vanishes_offline(broker, tmp_path):
    script = tmp_path / "long.txt"
    script.write_text("lift d3\nplace d4\nwait 60000\n")
    listener = Listener(broker, "maxima-board/will/9/status")
    process = subprocess.Popen(MAXIMA_BOARD + ["replay", str(script), "--broadcast", broker.address,
                                              "--club", "will", "--table", "9", "--realtime"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for(lambda: (listener.get("maxima-board/will/9/status") or {}).get("online") is True,
                 what="the board online")
        process.kill()                                        # no goodbye: the broker sends the will
        process.wait(10)
        wait_for(lambda: listener.get("maxima-board/will/9/status")["online"] is False, what="the last will")
    finally:
        process.kill()
        listener.close()


def test_publisher_keeps_everything_while_the_broker_is_away(broker):
    """Moves made while the broker is down reach it, complete, after it is back."""
    runner = Runner(Settings())
    publisher = BoardPublisher(broker.address, "outage", "1")
    moves = quiet_game(11, 12)
    try:
        publisher.update(_snapshot(runner))
        assert publisher.flush(10)
        broker.stop()
        wait_for(lambda: not publisher.connected, what="the publisher to notice")
        for move in moves:
            a, b = move.split("-")
            runner.lift(a), runner.place(b), runner.wait(400)
            publisher.update(_snapshot(runner))
        assert publisher.pending() > 0
        broker.start()
        assert publisher.flush(20)
        listener = Listener(broker, "maxima-board/outage/1/state")
        try:
            state = wait_for(lambda: listener.get("maxima-board/outage/1/state"), what="the state after the outage")
            assert state["moves"] == moves
        finally:
            listener.close()
    finally:
        if broker.process is None:
            broker.start()
        publisher.close()


def _snapshot(runner):
    feed = BoardFeed()
    return feed.update(runner.controller)


def get_json(url: str):
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.loads(r.read())


def start_dashboard(broker, *options: str):
    """``maxima-board dashboard`` of club ``round``: (url, process)."""
    process = subprocess.Popen(MAXIMA_BOARD + ["dashboard", "--broker", broker.address, "--club", "round",
                                              "--port", "0", "--bind", "127.0.0.1", *options],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    line = process.stderr.readline()
    m = re.search(r"(http://127\.0\.0\.1:\d+/)", line)
    assert m, line
    return m.group(1), process


def stop_dashboard(process) -> None:
    process.terminate()
    assert process.wait(10) == 0


@pytest.fixture
def dashboard(broker):
    url, process = start_dashboard(broker)
    yield url
    stop_dashboard(process)


@pytest.fixture
def secure_dashboard(secure_broker):
    """The dashboard logged in as the read-only user of the secure broker."""
    url, process = start_dashboard(secure_broker, *secure_broker.login(secure_broker.DASHBOARD))
    yield url
    stop_dashboard(process)


def test_twenty_boards_through_a_broker_restart_all_on_the_dashboard(secure_broker, secure_dashboard, tmp_path,
                                                                     request):
    """Twenty boards play at once (replay --broadcast --realtime), each
    logged in as its own table at a broker set up as docs/club.md says
    (password file, ACL); the broker is stopped and restarted mid-round;
    every move of every table reaches the dashboard (API, round download,
    and the page in a browser)."""
    broker, dashboard = secure_broker, secure_dashboard
    boards = {}
    for n in range(1, 21):
        moves = quiet_game(100 + n, 14)
        path = tmp_path / f"table{n}.txt"
        path.write_text(script_of(moves, wait_ms=500))
        boards[str(n)] = (moves, subprocess.Popen(
            MAXIMA_BOARD + ["replay", str(path), "--broadcast", broker.address, "--club", "round",
                            "--table", str(n), "--realtime", *broker.login(str(n))],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    try:
        wait_for(lambda: len(get_json(dashboard + "api/tables")) == 20, timeout=30, what="twenty tables")
        tables = get_json(dashboard + "api/tables")
        assert [t["table"] for t in tables] == [str(n) for n in range(1, 21)]        # natural order
        assert any(0 < len(t["moves"] or []) < 14 for t in tables)                  # mid-round
        broker.stop()
        time.sleep(2.0)
        broker.start()
        for name, (moves, process) in boards.items():
            out, err = process.communicate(timeout=60)
            assert process.returncode == 0, err
            final = json.loads(out.splitlines()[-1])
            assert final["moves"] == moves, name
        def complete():
            tables = {t["table"]: t for t in get_json(dashboard + "api/tables")}
            return all(tables.get(n, {}).get("moves") == moves for n, (moves, _) in boards.items()) and tables
        tables = wait_for(complete, timeout=30, what="every move on the dashboard")
        assert all(t["online"] is False for t in tables.values())       # each board said goodbye
    finally:
        for _, process in boards.values():
            process.kill()
    with urllib.request.urlopen(dashboard + "round/-.pgn", timeout=10) as r:
        assert "attachment" in r.headers["Content-Disposition"]
        text = r.read().decode()
    games = text.count("[Event ")
    assert games == 20
    checked = set()
    for chunk in re.split(r"\n(?=\[Event )", text):
        record = GameRecord.from_text(chunk)
        assert record.moves == boards[record.tags["Table"]][0]
        checked.add(record.tags["Table"])
    assert checked == set(boards)
    if "browser" in request.fixturenames or _has_browser(request):
        browser = request.getfixturevalue("browser")
        browser.get(dashboard)
        wait_for(lambda: len(browser.find_elements("css selector", "article.table")) == 20, what="twenty cards")
        wait_for(lambda: all(card.get_attribute("data-plies") == "14"
                             for card in browser.find_elements("css selector", "article.table")),
                 what="every card complete")
        assert browser.find_elements("css selector", 'article.table[data-table="20"] svg g.piece')
        assert browser.find_elements("css selector", '#rounds a[href="/round/-.pgn"]')


def _has_browser(request) -> bool:
    try:
        request.getfixturevalue("browser")
        return True
    except pytest.skip.Exception:
        return False


def test_dashboard_shows_a_move_live_in_the_browser(broker, dashboard, browser):
    runner = Runner(Settings(time_control="10"))
    feed = BoardFeed()
    publisher = BoardPublisher(broker.address, "round", "live")
    feed.listeners.append(publisher)
    try:
        feed.update(runner.controller)
        browser.get(dashboard)
        card = wait_for(lambda: browser.find_elements("css selector", 'article.table[data-table="live"]'),
                        what="the table's card")[0]
        assert card.get_attribute("data-plies") == "0"
        browser.execute_script("window.notReloaded = true;")
        runner.lift("e3"), runner.place("e5")
        feed.update(runner.controller)
        runner.wait(400)
        runner.wait(54_600)                      # Black thinks 54.6 s
        feed.update(runner.controller)
        wait_for(lambda: "Pawn e3-e5" in card.text, what="the move on the card")
        assert runner.controller.clock_running == "black"
        assert "White 10:00" in card.text and "Black 9:0" in card.text     # the clocks (9:05 left): Black's runs
        running = card.find_element("css selector", ".clock.running")
        assert running.get_attribute("data-side") == "black" and "to move" in running.text
        assert browser.execute_script("return window.notReloaded === true;")
    finally:
        publisher.close()


def test_serve_broadcasts_the_board_it_serves(broker, tmp_path):
    listener = Listener(broker, "maxima-board/served/3/state")
    process = subprocess.Popen(MAXIMA_BOARD + ["serve", "--port", "0", "--bind", "127.0.0.1",
                                              "--db", str(tmp_path / "g.db"), "--broadcast", broker.address,
                                              "--club", "served", "--table", "3"],
                               stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               text=True)
    try:
        process.stdin.write("lift d3\nplace d4\nwait 400\n")
        process.stdin.flush()
        state = wait_for(lambda: (lambda s: s if s and s["moves"] else None)(
            listener.get("maxima-board/served/3/state")), what="the served board's move")
        assert state["moves"] == ["d3-d4"] and state["game"] == 1
    finally:
        process.terminate()
        assert process.wait(10) == 0
        listener.close()


def test_run_broadcasts_logged_in_as_its_table(secure_broker, tmp_path):
    """``run`` with [broadcast] username and password_file at the club's
    broker: its moves reach the dashboard, its start count is kept."""
    from maxima_board.club.connection import BrokerAuth
    from maxima_board.club.tables import ClubTables

    b = secure_broker
    cfg = tmp_path / "board.toml"
    cfg.write_text(f'hardware = "sim"\n[database]\npath = "{tmp_path / "g.db"}"\n'
                   f'[broadcast]\nbroker = "{b.address}"\nclub = "round"\ntable = "run"\n'
                   f'username = "run"\npassword_file = "{b.password_file("run")}"\n')
    tables = ClubTables(b.address, "round", auth=BrokerAuth(b.DASHBOARD, str(b.password_file(b.DASHBOARD))))
    process = subprocess.Popen(MAXIMA_BOARD + ["run", "--config", str(cfg)], stdin=subprocess.PIPE,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True)
    try:
        process.stdin.write("lift d3\nplace d4\nwait 400\n")
        process.stdin.flush()
        table = wait_for(lambda: next((t for t in tables.tables() if t["table"] == "run" and t["moves"]), None),
                         what="the board's move on the dashboard")
        assert table["moves"] == ["d3-d4"] and table["boot"] >= time.time() - 60   # a first start: the clock's count
        assert (tmp_path / "broadcast-boot").read_text().strip() == str(table["boot"])
    finally:
        process.terminate()
        process.wait(10)
        tables.close()
        client = mqtt.Client(CallbackAPIVersion.VERSION2)
        client.username_pw_set("run", b.password_file("run").read_text().strip())
        client.connect("127.0.0.1", b.port)
        client.loop_start()
        for kind in ("state", "status", "games/1"):
            client.publish(f"maxima-board/round/run/{kind}", b"", qos=1, retain=True).wait_for_publish(5)
        client.disconnect()
        client.loop_stop()
