"""The board's web page over HTTP (standard library client): the state, the
live stream, the games and their records, and the PIN-guarded new-game
request. The browser tests are in test_club_browser.py."""
from __future__ import annotations

import io
import json
import os
import queue
import stat
import threading
import time
import urllib.error
import urllib.request

import pytest

from maxima_board.board.core import Controller
from maxima_board.service.feed import BoardFeed, NewGame, board_snapshot, clocks_of
from maxima_board.board.settings import Settings
from maxima_board.cli.sim import Sim
from maxima_board.storage.store import GameStore
from maxima_board.rules import START_FEN, Position
from maxima_board.web import pin as pins
from maxima_board.webbase.httpbase import local_client
from maxima_board.web.server import board_server, parse_new_game
from maxima_board.webbase.svg import board_svg

from .conftest import wait_for


class LiveBoard:
    """A simulated board ticking in its own thread (which owns the
    controller and its store), with its web page."""

    def __init__(self, tmp_path):
        self.db = str(tmp_path / "games.db")
        self.feed = BoardFeed()
        self.pin = pins.board_pin(self.db)
        self.server = board_server(self.feed, self.pin, "127.0.0.1", 0, db_path=self.db).start()
        self.url = f"http://127.0.0.1:{self.server.port}"
        self._lines: queue.SimpleQueue = queue.SimpleQueue()
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)
        self._thread.start()
        self._ready.wait(10)

    def _loop(self):
        store = GameStore(self.db)
        sim = Sim(Settings(db_path=self.db), store, io.StringIO(), feed=self.feed)
        sim.controller.web_pin = self.pin
        self._ready.set()
        while not self._stop.is_set():
            sim.tick()
            while not self._lines.empty():
                sim.command(self._lines.get(), 1)
            time.sleep(0.02)
        store.close()

    def play(self, *lines: str) -> None:
        for line in lines:
            self._lines.put(line)

    def close(self):
        self._stop.set()
        self._thread.join(2)
        self.server.close()


@pytest.fixture
def board(tmp_path):
    b = LiveBoard(tmp_path)
    yield b
    b.close()


def get(url: str):
    with urllib.request.urlopen(url, timeout=10) as r:
        return r.status, r.headers, r.read()


def post(url: str, data: dict, as_json: bool = True):
    body = json.dumps(data).encode() if as_json else "&".join(f"{k}={v}" for k, v in data.items()).encode()
    request = urllib.request.Request(url, body, {"Content-Type": "application/json" if as_json
                                                 else "application/x-www-form-urlencoded"})
    try:
        with urllib.request.urlopen(request, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def page_token(board) -> str:
    """The token the page's form carries (a form post needs it)."""
    import re
    return re.search(r'name="token" value="([^"]+)"', get(board.url + "/")[2].decode()).group(1)


def state(board) -> dict:
    return json.loads(get(board.url + "/api/state")[2])


def test_state_shows_the_committed_move_svg_and_leds(board):
    board.play("lift d3", "place d4", "wait 400")
    s = wait_for(lambda: (lambda s: s if s["moves"] == ["d3-d4"] else None)(state(board)), what="the move")
    assert s["sans"] == ["Pd3-d4"] and s["turn"] == "black"
    assert s["last"] == {"from": "d3", "to": "d4"}
    assert s["leds"] == {"d3": "last-from", "d4": "last-to"}
    assert 'data-piece="P" data-square="d4"' in s["svg"] and 'data-square="d3" data-led="last-from"' in s["svg"]
    assert s["clocks"] is None            # no clock on this board (yet)


def test_events_stream_sends_the_state_then_each_change(board):
    with urllib.request.urlopen(board.url + "/events", timeout=10) as stream:
        assert stream.headers["Content-Type"] == "text/event-stream"

        def next_state():
            while True:
                line = stream.readline().decode()
                if line.startswith("data: "):
                    return json.loads(line[6:])
        first = next_state()
        assert first["moves"] == []
        board.play("lift e3", "place e5", "wait 400")
        seen = next_state()
        while seen["moves"] != ["e3-e5"]:
            seen = next_state()
        assert "svg" in seen and seen["seq"] > first["seq"]


def test_games_list_and_record_download(board):
    board.play("lift d3", "place d4", "wait 400", "lift c7", "place c5", "wait 400")
    wait_for(lambda: len(state(board)["moves"]) == 2, what="two moves")
    status, _, body = get(board.url + "/api/games")
    page = json.loads(body)
    games = page["games"]
    assert [g["plies"] for g in games] == [2] and page["next"] is None
    status, headers, body = get(board.url + f"/games/{games[0]['id']}.pgn")
    assert "attachment" in headers["Content-Disposition"]
    text = body.decode()
    assert '[Variant "Maxima"]' in text and "1. Pd3-d4 Pc7-c5 *" in text
    with pytest.raises(urllib.error.HTTPError) as missing:
        get(board.url + "/games/99.pgn")
    assert missing.value.code == 404


def test_new_game_needs_the_pin(board):
    code, reply = post(board.url + "/api/new-game", {"pin": "x" + board.pin, "white": "Ann"})
    assert code == 403 and not reply["ok"] and "PIN" in reply["error"]
    assert state(board)["tags"]["White"] == "White"
    code, reply = post(board.url + "/api/new-game",
                       {"pin": board.pin, "white": "Ann", "black": "Bob", "event": "Club night", "round": "3",
                        "setup": "off", "token": page_token(board)}, as_json=False)
    assert code == 200 and reply["ok"], reply
    s = wait_for(lambda: (lambda s: s if s["tags"].get("White") == "Ann" else None)(state(board)), what="new game")
    assert s["tags"]["Black"] == "Bob" and s["tags"]["Round"] == "3" and s["mode"] == "play"
    games = json.loads(get(board.url + "/api/games")[2])["games"]          # newest first
    assert games[0]["white"] == "Ann" and games[0]["event"] == "Club night"


def test_new_game_from_a_fen_and_bad_fields_refused(board):
    fen = "xxx2xxx/4k3/8/8/8/8/8/8/8/4K3/xxx2xxx w 0"
    code, reply = post(board.url + "/api/new-game", {"pin": board.pin, "fen": "not a fen"})
    assert code == 400 and "start FEN" in reply["error"]
    code, reply = post(board.url + "/api/new-game", {"pin": board.pin, "time_control": "fast please"})
    assert code == 400 and "time control" in reply["error"]
    code, reply = post(board.url + "/api/new-game", {"pin": board.pin, "white": "A\x07"})
    assert code == 400 and "white" in reply["error"]
    code, reply = post(board.url + "/api/new-game", {"pin": board.pin, "fen": fen, "setup": "off"})
    assert code == 200, reply
    wait_for(lambda: state(board)["fen"] == fen, what="the FEN's game")


def test_wrong_pins_lock_the_form(board, monkeypatch):
    for _ in range(pins.MAX_FAILURES):
        assert post(board.url + "/api/new-game", {"pin": "000000" if board.pin != "000000" else "111111"})[0] == 403
    code, reply = post(board.url + "/api/new-game", {"pin": board.pin})
    assert code == 429 and "too many" in reply["error"]


def test_pin_guard_unlocks_after_the_wait():
    now = [0.0]
    guard = pins.PinGuard("1234", clock=lambda: now[0])
    for _ in range(pins.MAX_FAILURES):
        assert not guard.check("9999")
    assert not guard.check("1234")          # locked, even with the right PIN
    now[0] += pins.LOCK_S + 0.1
    assert guard.check("1234")


def test_board_pin_is_stored_beside_the_database_privately(tmp_path):
    db = str(tmp_path / "state" / "games.db")
    first = pins.board_pin(db)
    path = tmp_path / "state" / pins.PIN_FILE
    assert pins.valid_pin(first) and path.read_text().strip() == first
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert pins.board_pin(db) == first                  # survives a restart
    path.write_text("garbage\n")
    assert pins.valid_pin(pins.board_pin(db))           # a broken file is replaced
    assert len({pins.new_pin() for _ in range(50)}) > 40


def test_menu_shows_the_web_pin_on_the_oled():
    c = Controller(Settings(), GameStore(":memory:"), fen=START_FEN)
    c.on_frame(0, c.expected_squares)
    c.web_pin = "482913"
    for _ in range(6):   # the game chooser, Resign White?, Resign Black?, Agree draw?, New game?, Show web PIN?
        c.on_button(10, "menu")
    assert any("Show web PIN?" in line for line in c.display)
    c.on_button(20, "ok")
    assert any("482913" in line for line in c.display)
    assert c.mode == "play" and c.result == "*"


def test_page_answers_only_the_local_network():
    for address in ("127.0.0.1", "10.1.2.3", "192.168.0.7", "172.16.5.5", "::1", "fe80::1", "::ffff:192.168.1.2"):
        assert local_client(address), address
    for address in ("8.8.8.8", "2001:4860::8888", "::ffff:1.1.1.1", "nonsense"):
        assert not local_client(address), address


def test_page_answers_global_ipv6_of_its_own_network():
    """Issue 20: a phone on the club's network with a global IPv6 address
    (the prefix the board's own address has) reaches the page; another
    network's global address does not."""
    board = "2a02:8070:1234:5600:ba27:ebff:fe01:2345"
    assert local_client("2a02:8070:1234:5600:1c3f:9aa1:4b2e:77d0", board)
    for address in ("2a02:8070:1234:5601::7", "2001:4860::8888", "8.8.8.8"):
        assert not local_client(address, board), address
    assert not local_client("2a02:8070:1234:5600::7", "192.168.1.5")


def test_static_files_and_unknown_pages(board):
    status, headers, body = get(board.url + "/")
    assert b"new-game-form" in body and "default-src 'self'" in headers["Content-Security-Policy"]
    assert b"EventSource" in get(board.url + "/static/board.js")[2]
    for path in ("/static/../server.py", "/nothing", "/static/missing.css"):
        with pytest.raises(urllib.error.HTTPError) as e:
            get(board.url + path)
        assert e.value.code == 404


def test_parse_new_game_fields():
    request = parse_new_game({"white": " Ann ", "round": "2", "time_control": "40/90,30+30", "setup": "off"})
    assert request == NewGame(START_FEN, {"white": "Ann", "round": "2"}, "40/90,30+30", False)
    for tc in ("90+30", "60d10", "none", "5"):
        assert parse_new_game({"time_control": tc}).time_control == tc
    with pytest.raises(ValueError, match="game"):
        parse_new_game({"game": "chess"})


def test_time_control_from_the_web_form_is_checked_and_set():
    c = Controller(Settings(), GameStore(":memory:"), fen=START_FEN)
    with pytest.raises(ValueError, match="90\\+x"):
        NewGame(START_FEN, {}, "90+x", False)(c, 0)
    NewGame(START_FEN, {}, "90+30", False)(c, 0)
    assert c.time_control == "90+30" and c.clocks == {"white": 5_400_000, "black": 5_400_000}


def test_snapshot_takes_clocks_when_the_controller_has_them():
    c = Controller(Settings(), GameStore(":memory:"), fen=START_FEN)
    assert clocks_of(c) is None or set(clocks_of(c)) == {"white", "black", "running"}

    class Clocked:
        clocks = {"white": 5_400_000, "black": 5_399_000, "running": "black"}
    assert clocks_of(Clocked()) == {"white": 5_400_000, "black": 5_399_000, "running": "black"}
    clocked = Controller(Settings(time_control="90"), GameStore(":memory:"), fen=START_FEN)
    assert board_snapshot(clocked)["clocks"]["running"] is None      # no board seen yet
    clocked.on_frame(0, frozenset(clocked.expected_squares))
    assert board_snapshot(clocked)["clocks"] == {"white": 5_400_000, "black": 5_400_000, "running": "white"}


def test_svg_draws_every_piece_by_type_and_colour():
    svg = board_svg(START_FEN, {"e5": "remove"}, None)
    assert svg.count('class="piece"') == len(list(Position().pieces())) == 36
    assert "<title>White Mage b1 (a Queen with a coloured ring)</title>" in svg
    assert "<title>Black Immobilizer d8 (a Rook upside down)</title>" in svg
    assert 'data-square="e5" data-led="remove"' in svg
    with pytest.raises(ValueError):
        board_svg("xx/yy w 0")


def test_feed_labels_moves_incrementally_and_after_a_takeback():
    from maxima_board.service.script import Runner
    from maxima_board.service.feed import move_labels
    runner = Runner(Settings())
    feed = BoardFeed()
    for line in ("d3 d4", "c7 c5", "e3 e5"):
        a, b = line.split()
        runner.lift(a), runner.place(b), runner.wait(400)
        feed.update(runner.controller)
    assert feed.latest["sans"] == ["Pd3-d4", "Pc7-c5", "Pe3-e5"]
    runner.press("back")
    runner.lift("e5"), runner.place("e3"), runner.wait(400)
    runner.lift("f3"), runner.place("f4"), runner.wait(400)
    feed.update(runner.controller)
    assert feed.latest["sans"] == ["Pd3-d4", "Pc7-c5", "Pf3-f4"]
    assert (feed.latest["start_fen"], feed.latest["sans"]) == move_labels(runner.controller.position)


def test_the_form_starts_every_game_the_board_plays_and_no_other():
    """Issue 9 + 12: the games offered are those that fit the board."""
    request = parse_new_game({"game": "ultima-pure", "setup": "off"}, "maxima")
    assert request.variant == "ultima-pure" and request.fen == Position("start", "ultima-pure").fen()
    with pytest.raises(ValueError, match="this board plays"):
        parse_new_game({"game": "swapper-chess"}, "maxima")
    assert parse_new_game({"game": "swapper-chess-10x8"}, "10x10").variant == "swapper-chess-10x8"
    with pytest.raises(ValueError, match="start FEN"):
        parse_new_game({"game": "ultima", "fen": START_FEN}, "10x10")      # a Maxima FEN is not Ultima's
    c = Controller(Settings(board_kind="10x10", variant="ultima"), GameStore(":memory:"), fen="start")
    parse_new_game({"game": "coordinator-chess", "setup": "off"}, "10x10")(c, 0)
    assert c.position.variant.name == "coordinator-chess"
    snapshot = board_snapshot(c)
    assert (snapshot["variant"], snapshot["title"], snapshot["board_kind"]) == \
        ("coordinator-chess", "Coordinator Chess", "10x10")
    svg = board_svg(snapshot["fen"], {}, None, variant=snapshot["variant"])
    assert svg.count('class="piece"') == 40 and "<title>White Coordinator c1 (a Rook upside down)</title>" in svg


def test_the_form_sets_the_computer_opponent():
    """Issue 12: the new-game form sets the computer opponent (issue 11's layer)."""
    from maxima_board.service.opponent_layer import SIDES, OpponentLayer

    assert parse_new_game({"opponent": "black"}).opponent == "black"
    with pytest.raises(ValueError, match="opponent"):
        parse_new_game({"opponent": "both"})
    bare = Controller(Settings(), GameStore(":memory:"), fen=START_FEN)
    with pytest.raises(ValueError, match="no computer opponent"):
        parse_new_game({"opponent": "white", "setup": "off"})(bare, 0)
    layer = OpponentLayer(Controller(Settings(), GameStore(":memory:"), fen=START_FEN), "none", 1, "random")
    try:
        parse_new_game({"opponent": "black", "setup": "off"})(layer, 0)
        assert layer.side == SIDES["black"] != SIDES["none"]
    finally:
        layer.close()


def stored_games(db: str, count: int) -> None:
    """``count`` finished games of one move each, in one transaction."""
    import sqlite3

    GameStore(db).close()                  # our schema and application id
    conn = sqlite3.connect(db)
    with conn:
        for n in range(count):
            game = conn.execute("INSERT INTO games (start_fen, created, event, site, date, round, white, black, "
                                "result, finished) VALUES (?, '2025-05-01T19:00:00', 'Season', '', '2025.05.01', "
                                "'-', ?, ?, '1-0', 1)", (START_FEN, f"Player {n + 1}", "Black")).lastrowid
            conn.execute("INSERT INTO moves (game_id, ply, move, fen, created) VALUES (?, 0, 'd3-d4', 'x', '')",
                         (game,))
    conn.close()


def test_the_games_list_comes_in_pages(tmp_path):
    """Issue 31: /api/games sent every stored game (244 ms with 870). Now a
    page of the newest 20 and the address of the next; following it walks
    every game once, newest first; a bad query gets 400."""
    db = str(tmp_path / "games.db")
    stored_games(db, 900)
    server = board_server(BoardFeed(), "123456", "127.0.0.1", 0, db_path=db).start()
    url = f"http://127.0.0.1:{server.port}"
    try:
        page = json.loads(get(url + "/api/games")[2])
        assert [g["id"] for g in page["games"]] == list(range(900, 880, -1))
        assert page["games"][0]["white"] == "Player 900" and page["games"][0]["plies"] == 1
        assert page["next"] == "/api/games?before=881"
        seen = [g["id"] for g in page["games"]]
        page = json.loads(get(url + page["next"])[2])
        assert [g["id"] for g in page["games"]] == list(range(880, 860, -1))
        page = json.loads(get(url + "/api/games?before=861&limit=100")[2])
        assert len(page["games"]) == 100 and page["next"] == "/api/games?before=761&limit=100"
        pages = 0
        address = "/api/games"
        seen = []
        while address is not None:
            page = json.loads(get(url + address)[2])
            assert len(page["games"]) <= 20
            seen += [g["id"] for g in page["games"]]
            address = page["next"]
            pages += 1
        assert seen == list(range(900, 0, -1)) and pages == 45
        assert json.loads(get(url + "/api/games?before=1")[2]) == {"games": [], "next": None}
        for query in ("before=x", "before=0", "before=-5", "limit=0", "limit=101", "before=" + "9" * 30,
                      "limit=%EF%BC%95"):
            with pytest.raises(urllib.error.HTTPError) as bad:
                get(url + "/api/games?" + query)
            assert bad.value.code == 400, query
        assert "Player 12" in get(url + "/games/12.pgn")[2].decode()     # a game of no page read yet
    finally:
        server.close()
