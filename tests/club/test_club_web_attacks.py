"""Issue 22, the web page under attack from a spectator's phone on the
club's Wi-Fi (findings 1, 7, 8 and 9), all on 127.0.0.1: a board that
no flood of game-list reads can hold up, no request from another site or
host name that can change it, no wrong or empty PIN that locks its owner
out for good, no slow or malformed request that takes the page down or
leaves a traceback. The board is ``maxima-board serve`` (its own process)
or ``maxima_board.cli.club.start_club`` beside a simulated board; cross-site
forms are sent by headless Chromium from a page of another origin."""
from __future__ import annotations

import http.client
import io
import json
import os
import queue
import re
import resource
import socket
import subprocess
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from maxima_board.cli.club import start_club
from maxima_board.board.settings import Settings
from maxima_board.cli.sim import Sim
from maxima_board.storage.store import GameStore

from .conftest import MAXIMA_BOARD, wait_for

TICKS = os.sysconf("SC_CLK_TCK")


# -- a board to attack ---------------------------------------------------------
class Served:
    """``maxima-board serve`` on a free loopback port; its stderr is kept."""

    def __init__(self, tmp_path, nofile: int | None = None):
        def limit() -> None:
            if nofile is not None:
                resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))

        self.process = subprocess.Popen(MAXIMA_BOARD + ["serve", "--port", "0", "--bind", "127.0.0.1",
                                                        "--db", str(tmp_path / "games.db")],
                                        stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                        text=True, preexec_fn=limit)
        self.lines: queue.SimpleQueue[str] = queue.SimpleQueue()
        self.stderr: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        end = time.monotonic() + 20
        self.port = self.pin = None
        while self.port is None and time.monotonic() < end:
            try:
                line = self.lines.get(timeout=1)
            except queue.Empty:
                continue
            m = re.search(r"serve: http://127\.0\.0\.1:(\d+)/\s+web PIN (\d+)", line)
            if m:
                self.port, self.pin = int(m.group(1)), m.group(2)
        assert self.port, "serve did not say where it listens: " + "".join(self.stderr)
        self.url = f"http://127.0.0.1:{self.port}"
        wait_for(lambda: self.request("GET", "/api/state")[0] == 200, what="the board's state")

    def _read(self) -> None:
        for line in self.process.stderr:
            self.stderr.append(line)
            self.lines.put(line)

    def request(self, method: str, path: str, body: bytes | None = None, headers: dict | None = None,
                source: str = "127.0.0.1", timeout: float = 10.0) -> tuple[int, dict, bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout, source_address=(source, 0))
        try:
            conn.request(method, path, body, headers or {})
            response = conn.getresponse()
            return response.status, dict(response.headers), response.read()
        finally:
            conn.close()

    def post_json(self, data: dict, headers: dict | None = None, source: str = "127.0.0.1"):
        status, _, body = self.request("POST", "/api/new-game", json.dumps(data).encode(),
                                       {"Content-Type": "application/json", **(headers or {})}, source)
        return status, json.loads(body)

    def state(self) -> dict:
        return json.loads(self.request("GET", "/api/state")[2])

    def cpu_seconds(self) -> float:
        fields = open(f"/proc/{self.process.pid}/stat").read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICKS

    def close(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)


@pytest.fixture
def served(tmp_path):
    s = Served(tmp_path)
    yield s
    s.close()


def raw(port: int, data: bytes, timeout: float = 5.0) -> bytes:
    """``data`` sent as is; everything the server answers until it closes."""
    with socket.create_connection(("127.0.0.1", port), timeout) as s:
        s.sendall(data)
        chunks = []
        try:
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                chunks.append(chunk)
        except socket.timeout:
            pass
    return b"".join(chunks)


def status_of(reply: bytes) -> int | None:
    m = re.match(rb"HTTP/1\.[01] (\d{3})", reply)
    return int(m.group(1)) if m else None


# -- finding 1: reads of stored games never wait on the board's loop ------------------
class LoopBoard:
    """``start_club`` (what ``serve`` and ``run`` start) beside a simulated
    board ticking in a thread, with ``games`` games stored before."""

    def __init__(self, tmp_path, games: int):
        self.db = str(tmp_path / "games.db")
        store = GameStore(self.db)
        for n in range(games):
            game = store.new_game("start", white=f"Player {n}")
            store.append_move(game, 0, "d3-d4", "x")
            store.finish(game, "1-0", "resignation")
        store.close()
        self.services = start_club(self.db, web_bind="127.0.0.1", web_port=0, log=io.StringIO())
        self.port = self.services.server.port
        self.commands = 0
        submit = self.services.feed.submit

        def counted(run, timeout=5.0):
            self.commands += 1
            return submit(run, timeout)
        self.services.feed.submit = counted
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)
        self._thread.start()
        assert self._ready.wait(20)

    def _loop(self) -> None:
        store = GameStore(self.db)
        sim = Sim(Settings(db_path=self.db), store, io.StringIO(), feed=self.services.feed)
        self._ready.set()
        while not self._stop.is_set():
            sim.tick()
            time.sleep(0.02)
        store.close()

    def get(self, path: str, source: str = "127.0.0.1") -> tuple[int, bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=15, source_address=(source, 0))
        try:
            conn.request("GET", path)
            response = conn.getresponse()
            return response.status, response.read()
        finally:
            conn.close()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5)
        self.services.close()


def test_stored_games_are_read_while_the_board_loop_is_busy(tmp_path):
    """Finding 1: /api/games and /games/N.pgn ran inside the board's loop. A
    loop busy for 4 s (a long step) held every read up for that long, and a
    flood of reads was a flood of work for the loop. Now they are read off
    the loop, and not one of 300 reads reaches it."""
    board = LoopBoard(tmp_path, 30)
    try:
        wait_for(lambda: board.get("/api/state")[0] == 200, what="the board")
        busy = threading.Thread(target=lambda: board.services.feed.submit(lambda c, now: time.sleep(4), 10))
        busy.start()
        time.sleep(0.3)
        start = time.monotonic()
        games = json.loads(board.get("/api/games")[1])["games"]       # the newest 20
        text = board.get("/games/7.pgn")[1].decode()
        took = time.monotonic() - start
        busy.join()
        assert len(games) == 20 and games[0]["id"] == 31 and games[-1]["white"] == "Player 11"
        assert '[White "Player 6"]' in text and "Pd3-d4" in text
        assert took < 1.5, f"the reads waited {took:.1f} s for the board's loop"
        board.commands = 0
        for n in range(150):         # from ten devices: no client's rate limit is reached
            assert board.get("/api/games", f"127.0.3.{n % 10 + 1}")[0] == 200
            assert board.get(f"/games/{n % 30 + 1}.pgn", f"127.0.3.{n % 10 + 1}")[0] == 200
        assert board.commands == 0, f"{board.commands} of 300 reads went through the board's loop"
    finally:
        board.close()


# -- finding 7: cross-site requests, DNS rebinding, the PIN lock-out ------------------
def test_a_host_name_of_another_site_is_refused(served):
    """DNS rebinding: a page of evil.example, its name pointed at the board,
    is same-origin with the board to the browser; only the Host tells."""
    for method, path, body, headers in (
            ("GET", "/api/state", None, {}),
            ("GET", "/api/games", None, {}),
            ("POST", "/api/new-game", json.dumps({"pin": served.pin, "white": "Mallory", "setup": "off"}).encode(),
             {"Content-Type": "application/json", "Origin": "http://evil.example:%d" % served.port})):
        status, _, _ = served.request(method, path, body, {"Host": f"evil.example:{served.port}", **headers})
        assert status == 421, (method, path, status)
    assert served.state()["tags"]["White"] == "White"
    for host in (f"127.0.0.1:{served.port}", f"localhost:{served.port}", f"{socket.gethostname()}:{served.port}",
                 f"[::ffff:127.0.0.1]:{served.port}"):
        assert served.request("GET", "/api/state", headers={"Host": host})[0] == 200, host


def test_a_post_from_another_origin_or_without_json_or_token_is_refused(served):
    """CSRF without a browser's help: the right PIN, but another site's
    Origin, or a form or text/plain body (no preflight) without the page's
    token. A JSON post from the page itself (same Origin) works."""
    data = {"pin": served.pin, "white": "Mallory", "setup": "off"}
    assert served.post_json(data, {"Origin": "http://evil.example"})[0] == 403
    assert served.post_json(data, {"Origin": "null"})[0] == 403
    assert served.post_json(data, {"Sec-Fetch-Site": "cross-site"})[0] == 403
    form = "&".join(f"{k}={v}" for k, v in data.items()).encode()
    assert served.request("POST", "/api/new-game", form,
                          {"Content-Type": "application/x-www-form-urlencoded"})[0] == 403
    assert served.request("POST", "/api/new-game", json.dumps(data).encode(),
                          {"Content-Type": "text/plain"})[0] in (403, 415)
    assert served.state()["tags"]["White"] == "White"
    status, reply = served.post_json(data, {"Origin": served.url})
    assert status == 200 and reply["ok"], reply
    wait_for(lambda: served.state()["tags"]["White"] == "Mallory", what="the page's own post")


def test_empty_pins_never_lock_and_a_lock_is_per_client(served):
    """Five posts with an empty PIN locked the real PIN out; wrong PINs from
    one device locked every device. Now an empty PIN is not a guess, and
    the player with the PIN off the OLED is not locked by someone else."""
    for _ in range(8):
        status, reply = served.post_json({"pin": ""})
        assert status == 400 and "PIN" in reply["error"]
        assert served.post_json({})[0] == 400
    wrong = "000000" if served.pin != "000000" else "111111"
    for _ in range(6):
        assert served.post_json({"pin": wrong}, source="127.0.0.2")[0] in (403, 429)
    assert served.post_json({"pin": served.pin}, source="127.0.0.2")[0] == 429
    status, reply = served.post_json({"pin": served.pin, "white": "Owner", "setup": "off"})
    assert status == 200 and reply["ok"], reply


def test_a_pin_lock_ends_by_itself():
    """The lock doubled with every further wrong PIN, without end (30 wrong
    PINs: 30·2^25 s); now it is capped and the right PIN works after it."""
    from maxima_board.web import pin as pins

    now = [0.0]
    guard = pins.PinGuard("1234", clock=lambda: now[0])
    for _ in range(30):
        guard.check("9999")
        now[0] += guard.locked_for() + 0.1      # each wrong PIN after the lock ended
        assert guard.locked_for() == 0
    guard.check("9999")
    assert 0 < guard.locked_for() <= 3600
    now[0] += 3600.1
    assert guard.check("1234")


class _Attacker(BaseHTTPRequestHandler):
    page = b""

    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(self.page)))
        self.end_headers()
        self.wfile.write(self.page)

    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def attacker_site():
    """Another origin on loopback (another port): its page is what the test sets."""
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), type("Attacker", (_Attacker,), {}))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield httpd
    httpd.shutdown()
    httpd.server_close()


@pytest.mark.parametrize("enctype", ["application/x-www-form-urlencoded", "text/plain"])
def test_chromium_form_from_another_site_cannot_start_a_game(browser, served, attacker_site, enctype):
    """A page of another origin that knows the PIN posts a self-submitting
    form to the board (no preflight for these bodies): refused."""
    field = ('<input name="pin" value="{pin}"><input name="white" value="Mallory"><input name="setup" value="off">'
             if enctype != "text/plain" else
             '<input name=\'{{"pin":"{pin}","white":"Mallory","setup":"off","x":"\' value=\'"}}\'>')
    attacker_site.RequestHandlerClass.page = (
        f'<!doctype html><form id="f" method="post" enctype="{enctype}" action="{served.url}/api/new-game">'
        + field.format(pin=served.pin) + '</form><script>document.getElementById("f").submit()</script>').encode()
    browser.get(f"http://127.0.0.1:{attacker_site.server_address[1]}/")
    wait_for(lambda: browser.current_url.startswith(served.url), what="the form to be sent")
    time.sleep(0.5)
    assert served.state()["tags"]["White"] == "White"


def test_chromium_without_javascript_posts_the_form_and_keeps_the_pin_out_of_the_url(browser, served):
    """The page's form without JavaScript: it used to GET the page with
    ?pin=… in the URL (history, logs); it posts, with the page's token."""
    browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
    try:
        browser.get(served.url + "/")
        details = browser.find_element("id", "new-game")
        if not details.get_attribute("open"):
            details.find_element("tag name", "summary").click()
        for name, value in (("white", "Nojs Player"), ("pin", served.pin)):
            box = browser.find_element("id", f"f-{name}")
            box.clear()
            box.send_keys(value)
        browser.find_element("id", "f-submit").click()
        wait_for(lambda: '"ok": true' in browser.page_source or "error" in browser.page_source,
                 what="the board's answer")
        assert served.pin not in browser.current_url
        assert '"ok": true' in browser.page_source
        wait_for(lambda: served.state()["tags"]["White"] == "Nojs Player", what="the new game")
    finally:
        browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})


# -- finding 8: slowloris, the descriptor limit, the backlog ---------------------------
def test_slow_clients_cannot_take_the_page_down(tmp_path):
    """400 connections that send half a request head, against a board with
    256 descriptors: the accept loop spun and the page was down. Now the
    caps refuse the excess at once, another device gets the page, and the
    server stays idle while the slow clients wait."""
    board = Served(tmp_path, nofile=256)
    slow: list[socket.socket] = []
    try:
        for _ in range(400):
            try:
                s = socket.create_connection(("127.0.0.1", board.port), 2)
                s.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
                slow.append(s)
            except OSError:
                break
        time.sleep(0.5)
        cpu, start = board.cpu_seconds(), time.monotonic()
        time.sleep(2.0)
        busy = (board.cpu_seconds() - cpu) / (time.monotonic() - start)
        status, _, body = board.request("GET", "/api/state", source="127.0.0.2", timeout=5)
        assert status == 200 and json.loads(body)["fen"]
        assert busy < 0.3, f"the server used {busy:.0%} of a core while slow clients waited"
    finally:
        for s in slow:
            s.close()
        board.close()


def test_a_request_head_that_never_ends_is_closed(monkeypatch):
    """No idle timeout: half a request head held a connection (and, before,
    a thread) for ever. Now it is closed once ``IDLE_S`` has passed."""
    from maxima_board.service.feed import BoardFeed
    from maxima_board.webbase import httpbase
    from maxima_board.web.server import board_server

    monkeypatch.setattr(httpbase, "IDLE_S", 1.0, raising=False)
    server = board_server(BoardFeed(), "123456", "127.0.0.1", 0).start()
    try:
        with socket.create_connection(("127.0.0.1", server.port), 10) as s:
            s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            start = time.monotonic()
            s.settimeout(8)
            try:
                while s.recv(4096):
                    pass
                closed = True
            except socket.timeout:
                closed = False
        assert closed and time.monotonic() - start < 5
        if os.path.exists("/usr/bin/ss") or os.path.exists("/bin/ss"):
            out = subprocess.run(["ss", "-ltnH", f"sport = :{server.port}"], capture_output=True, text=True).stdout
            backlog = int(out.split()[2])
            assert backlog >= 128, f"listen backlog {backlog}"
    finally:
        server.close()


def test_live_streams_are_bounded(served):
    """Every open page holds an event stream; past the cap per device the
    server says so (503). Issue 31 finding 5: 64 streams from 8 addresses
    left a real user 503. Now a device holds at most 4 (one per open page),
    a newcomer ends the oldest stream of a device holding the most, and a
    stream whose page was closed makes room at once."""
    from maxima_board.webbase import httpbase

    per_client, total = httpbase.MAX_STREAMS_PER_CLIENT, httpbase.MAX_STREAMS
    streams: list[socket.socket] = []

    def open_stream(source: str) -> int:
        s = socket.create_connection(("127.0.0.1", served.port), 10, source_address=(source, 0))
        s.sendall(f"GET /events HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\n\r\n".encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = s.recv(4096)
            assert chunk, f"closed without an answer ({head!r})"
            head += chunk
        status = status_of(head)
        if status == 200:
            streams.append(s)
        else:
            s.close()
        return status
    try:
        assert all(open_stream("127.0.1.250") == 200 for _ in range(per_client))
        assert open_stream("127.0.1.250") == 503
        streams.pop(0).close()            # a page closed (reloaded): its stream makes room at once
        assert open_stream("127.0.1.250") == 200
        for n in range(total - per_client):
            assert open_stream(f"127.0.1.{n // per_client + 1}") == 200
        oldest = streams[0]
        assert open_stream("127.0.2.1") == 200      # a newcomer gets in, ending the oldest stream
        oldest.settimeout(5)                        # of a device holding the most
        while oldest.recv(65536):
            pass
        assert open_stream("127.0.2.1") == 200 and open_stream("127.0.2.2") == 200
        assert open_stream(f"127.0.1.{total // per_client - 1}") == 503    # still at its own cap
        assert per_client <= 4 and total // per_client >= 16
    finally:
        for s in streams:
            s.close()


# -- finding 9: malformed requests, HEAD -----------------------------------------------
def test_malformed_requests_get_400_and_one_log_line(served):
    """A NUL in the path or 16k-deep JSON dropped the connection with a
    traceback; HEAD got 501. Now: 400 with a line in the log, HEAD like GET."""
    host = f"Host: 127.0.0.1:{served.port}\r\n".encode()
    assert status_of(raw(served.port, b"GET /%00 HTTP/1.1\r\n" + host + b"Connection: close\r\n\r\n")) == 400
    assert status_of(raw(served.port, b"GET /\x00x HTTP/1.1\r\n" + host + b"Connection: close\r\n\r\n")) == 400
    assert status_of(raw(served.port, b"GET /static/%ff%fe HTTP/1.1\r\n" + host
                         + b"Connection: close\r\n\r\n")) in (400, 404)
    assert status_of(raw(served.port, b"GET / HTTP/1.1\r\nHost: \xff\xfe\r\nConnection: close\r\n\r\n")) in (400, 421)
    deep = b"[" * 16000
    status, _, body = served.request("POST", "/api/new-game", deep, {"Content-Type": "application/json"})
    assert status == 400 and b"unreadable" in body
    status, _, _ = served.request("POST", "/api/new-game", b'{"pin": "\xff\xfe"}', {"Content-Type": "application/json"})
    assert status == 400
    get = served.request("GET", "/")
    head = served.request("HEAD", "/")
    assert head[0] == get[0] == 200 and head[2] == b""
    assert head[1]["Content-Type"] == get[1]["Content-Type"]
    assert served.request("HEAD", "/api/games")[0] == 200
    assert served.request("GET", "/api/state")[0] == 200          # still serving
    time.sleep(0.3)
    log = "".join(served.stderr)
    assert "Traceback" not in log, log
    assert sum("400" in line for line in log.splitlines()) >= 2, log


def test_one_client_looping_on_reads_is_slowed_down_and_others_are_not(served):
    """Finding 1 from the network's side: a device looping on the game list
    is held to its rate (429, each after a pause), while another device's
    page still loads at once."""
    statuses = []
    conn = http.client.HTTPConnection("127.0.0.1", served.port, timeout=10, source_address=("127.0.4.1", 0))
    try:
        start = time.monotonic()
        while time.monotonic() - start < 3.0 and 429 not in statuses:
            conn.request("GET", "/api/games")
            response = conn.getresponse()
            response.read()
            statuses.append(response.status)
    finally:
        conn.close()
    assert 429 in statuses, f"{len(statuses)} reads in 3 s, none refused"
    begin = time.monotonic()
    assert served.request("GET", "/api/games", source="127.0.4.2")[0] == 200
    assert time.monotonic() - begin < 1.0


def test_dashboard_refuses_other_host_names_and_bad_requests(broker):
    """The club dashboard's HTTP side has the same guard: Host allow-list,
    HEAD like GET, a NUL in the path a 400."""
    from maxima_board.club.dashboard import ClubTables, dashboard_server

    tables = ClubTables(broker.address, "attacks")
    server = dashboard_server(tables, "127.0.0.1", 0).start()
    try:
        port = server.port
        host = f"Host: 127.0.0.1:{port}\r\n".encode()
        assert status_of(raw(port, b"GET /api/tables HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n")) == 421
        assert status_of(raw(port, b"GET /api/tables HTTP/1.1\r\n" + host + b"Connection: close\r\n\r\n")) == 200
        head = raw(port, b"HEAD / HTTP/1.1\r\n" + host + b"Connection: close\r\n\r\n")
        assert status_of(head) == 200 and head.endswith(b"\r\n\r\n")
        assert status_of(raw(port, b"GET /round/%00.pgn HTTP/1.1\r\n" + host + b"Connection: close\r\n\r\n")) == 400
        assert status_of(raw(port, b"POST /api/tables HTTP/1.1\r\n" + host
                             + b"Content-Length: 2\r\nConnection: close\r\n\r\n{}")) == 405
    finally:
        server.close()
        tables.close()


def test_menu_makes_a_new_pin_that_the_page_takes_at_once(tmp_path):
    """MENU → "New web PIN?": a PIN seen by the wrong eyes is replaced from
    the board; the old one stops working, the new one is on the OLED, in the
    PIN file and accepted by the page, with every lock-out forgotten."""
    from maxima_board.board.core import Controller
    from maxima_board.rules import START_FEN
    from maxima_board.web import pin as pins

    db = str(tmp_path / "games.db")
    services = start_club(db, web_bind="127.0.0.1", web_port=0, log=io.StringIO())
    try:
        controller = Controller(Settings(db_path=db), GameStore(db), fen=START_FEN)
        controller.on_frame(0, controller.expected_squares)
        services.attach(controller)
        old = services.pin
        url = f"http://127.0.0.1:{services.server.port}/api/new-game"

        def post(pin: str, source: str = "127.0.0.1") -> int:
            conn = http.client.HTTPConnection("127.0.0.1", services.server.port, timeout=10,
                                              source_address=(source, 0))
            try:
                conn.request("POST", url, json.dumps({"pin": pin, "setup": "off", "fen": "bad"}),
                             {"Content-Type": "application/json"})
                response = conn.getresponse()
                response.read()
                return response.status
            finally:
                conn.close()
        for _ in range(pins.MAX_FAILURES + 1):
            post("000000" if old != "000000" else "111111", "127.0.5.1")
        assert post(old, "127.0.5.1") == 429
        for _ in range(12):             # ... Show web PIN?, New web PIN?
            controller.on_button(10, "menu")
            if any("New web PIN?" in line for line in controller.display):
                break
        assert any("New web PIN?" in line for line in controller.display)
        controller.on_button(20, "ok")
        new = services.pin
        assert new != old and pins.valid_pin(new)
        assert any(new in line for line in controller.display)
        assert (tmp_path / pins.PIN_FILE).read_text().strip() == new
        wait_for(lambda: post(old) == 403, what="the old PIN refused")
        assert post(new) == 400                       # the PIN is right; the FEN is not
        assert post(new, "127.0.5.1") == 400          # the lock-out is forgotten
    finally:
        services.close()


def test_web_hosts_in_the_config():
    from maxima_board.cli.config import ConfigError, parse_config

    config = parse_config('hardware = "sim"\n[web]\nenabled = true\nhosts = ["Board7.club.lan", "maxima"]\n',
                          environ={})
    assert config.web.hosts == ("board7.club.lan", "maxima")
    with pytest.raises(ConfigError, match="hosts"):
        parse_config('hardware = "sim"\n[web]\nhosts = ["evil.example/x"]\n', environ={})
    with pytest.raises(ConfigError, match="hosts"):
        parse_config('hardware = "sim"\n[web]\nhosts = "board7"\n', environ={})


def test_a_body_in_pieces_is_read_whole_and_a_slow_or_huge_one_refused(served):
    """The body arrives in several pieces (a phone on bad Wi-Fi): read whole.
    One larger than 16 kB, sent in pieces without a length, is refused."""
    body = json.dumps({"pin": served.pin, "white": "Split Body", "setup": "off"}).encode()
    head = (f"POST /api/new-game HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode()
    with socket.create_connection(("127.0.0.1", served.port), 10) as s:
        s.sendall(head + body[:10])
        time.sleep(0.3)
        s.sendall(body[10:])
        reply = s.recv(65536)
    assert status_of(reply) == 200, reply
    chunk = b"x" * 4000
    chunked = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(6)) + b"0\r\n\r\n"
    reply = raw(served.port, b"POST /api/new-game HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n" + chunked)
    assert status_of(reply) == 413


def test_a_client_that_does_not_read_its_reply_loses_the_connection(tmp_path, monkeypatch):
    """Slow read: a big reply never read held its connection for ever. Now
    the reply must be taken within ``SEND_S``."""
    from maxima_board.web import games
    from maxima_board.webbase import httpbase

    monkeypatch.setattr(httpbase, "SEND_S", 1.0, raising=False)
    monkeypatch.setattr(games.GameReader, "page_json", lambda self, *args: b"[" + b"0," * 20_000_000 + b"0]")
    board = LoopBoard(tmp_path, 1)
    try:
        server = board.services.server
        with socket.create_connection(("127.0.0.1", board.port), 10) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            s.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            time.sleep(0.5)
            assert server.connections == 1
            wait_for(lambda: server.connections == 0, timeout=10, what="the connection to be closed")
    finally:
        board.close()


# -- issue 31, findings 5 and 8: caps a few addresses cannot exhaust, IPv6, gzip --------
def keep_alive(port: int, source: str, path: str = "/api/state") -> socket.socket:
    """A connection from ``source`` that made one request, read its reply
    whole, and stays open (keep-alive), as a browser leaves it."""
    s = socket.create_connection(("127.0.0.1", port), 10, source_address=(source, 0))
    s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = s.recv(65536)
        assert chunk, f"closed without an answer ({data!r})"
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    assert status_of(head) == 200, head
    length = int(re.search(rb"(?i)content-length: *(\d+)", head).group(1))
    while len(body) < length:
        body += s.recv(65536)
    return s


def closed_by_server(s: socket.socket, within: float) -> bool:
    """True when the server closes ``s`` (or answers and closes) within ``within`` seconds."""
    s.settimeout(within)
    try:
        while s.recv(65536):
            pass
        return True
    except ConnectionResetError:
        return True
    except socket.timeout:
        return False


def test_a_few_addresses_cannot_take_every_connection(served):
    """Finding 5: 256 keep-alive connections from 9 addresses left a real
    user 503. Now one address holds at most 16; when all 256 are open, a
    newcomer gets in by closing the oldest idle connection of an address
    holding the most, and an address at its own cap gets in by closing its
    own oldest idle one. A request in progress (a live stream) is never
    closed for room."""
    from maxima_board.webbase import httpbase

    per_client, total = httpbase.MAX_PER_CLIENT, httpbase.MAX_CONNECTIONS
    held: list[socket.socket] = []
    try:
        for n in range(total):
            source = f"127.0.6.{n // per_client + 1}"
            if n % per_client < per_client // 2:
                held.append(keep_alive(served.port, source))
            else:                                         # slowloris: a head that never ends
                s = socket.create_connection(("127.0.0.1", served.port), 10, source_address=(source, 0))
                s.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
                held.append(s)
        time.sleep(0.3)
        status, _, body = served.request("GET", "/", source="127.0.7.1", timeout=5)
        assert status == 200 and b"new-game-form" in body
        assert closed_by_server(held[0], 2), "the oldest idle connection was not the one closed"
        assert not closed_by_server(held[1], 0.2)
        mine = keep_alive(served.port, f"127.0.6.{total // per_client}")   # at its own cap: gets in too
        held.append(mine)
        assert closed_by_server(held[total - per_client], 2)
        assert per_client <= 16 and total // per_client >= 16
    finally:
        for s in held:
            s.close()


def test_a_request_of_half_a_megabyte_of_headers_is_cut_off(served):
    """Finding 5: headers of ~500 kB on each of 256 connections left the
    board at 300 MB. Now a connection that sends more than 32 kB for one
    request (head and body) is closed at once; the count starts again with
    every request, so a long-lived connection is not."""
    from maxima_board.webbase import httpbase

    with socket.create_connection(("127.0.0.1", served.port), 10) as s:
        s.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        sent = 0
        try:
            while sent < 24 * 8000:        # 24 fields of 8 kB: within aiohttp's own limits
                s.sendall(b"X-Big-%d: %s\r\n" % (sent, b"y" * 8000))
                sent += 8000
        except (BrokenPipeError, ConnectionResetError):
            pass
        assert closed_by_server(s, 2), f"{sent} bytes of headers and the connection still open"
    with socket.create_connection(("127.0.0.1", served.port), 10) as s:     # 40 requests of 2 kB each
        for n in range(40):
            s.sendall(b"GET /api/variants HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: " + b"p" * 2000 + b"\r\n\r\n")
            reply = b""
            while b"\r\n\r\n" not in reply:
                reply += s.recv(65536)
            assert status_of(reply) == 200, (n, reply[:200])
            head, _, body = reply.partition(b"\r\n\r\n")
            length = int(re.search(rb"(?i)content-length: *(\d+)", head).group(1))
            while len(body) < length:
                body += s.recv(65536)
    assert httpbase.MAX_REQUEST_BYTES * httpbase.MAX_CONNECTIONS <= 16 << 20


def test_a_body_that_does_not_inflate_gets_400_and_one_log_line(served):
    """Finding 8: a gzip or deflate body that did not inflate got 500 (and
    two log lines). Now 400 and one line; a body that does inflate is read
    (here: a wrong PIN, so 403); an unknown encoding gets 415."""
    import gzip
    import zlib

    wrong = "000000" if served.pin != "000000" else "111111"
    for encoding, body in (("gzip", b"this is not gzip"), ("deflate", b"\x00\x01 nor deflate"),
                           ("gzip", gzip.compress(b'{"pin": "1"}')[:-6])):
        status, _, reply = served.request("POST", "/api/new-game", body,
                                          {"Content-Type": "application/json", "Content-Encoding": encoding})
        assert status == 400 and b"does not inflate" in reply, (encoding, status, reply)
    for encoding, body in (("gzip", gzip.compress(json.dumps({"pin": wrong}).encode())),
                           ("deflate", zlib.compress(json.dumps({"pin": wrong}).encode()))):
        status, _, reply = served.request("POST", "/api/new-game", body,
                                          {"Content-Type": "application/json", "Content-Encoding": encoding})
        assert status == 403 and b"wrong PIN" in reply, (encoding, status, reply)
    bomb = gzip.compress(b"{" + b" " * (4 << 20) + b"}")
    assert served.request("POST", "/api/new-game", bomb, {"Content-Type": "application/json",
                                                          "Content-Encoding": "gzip"})[0] == 413
    assert served.request("POST", "/api/new-game", b"xx", {"Content-Type": "application/json",
                                                           "Content-Encoding": "br"})[0] == 415
    time.sleep(0.3)
    log = "".join(served.stderr)
    assert "Traceback" not in log and "internal error" not in log and "failed" not in log, log
    assert sum("does not inflate" in line for line in log.splitlines()) == 3, log


def test_ipv6_devices_of_one_network_are_told_apart(tmp_path):
    """Finding 8: clients were grouped by /64, so five wrong PINs from one
    phone locked out every device of the home or club network (they share
    its /64). Now a device is its address: for the PIN lock, the request
    rate and the caps; and a server on ::1 counts its connections so."""
    from maxima_board.service.feed import BoardFeed
    from maxima_board.web import pin as pins
    from maxima_board.web.server import board_server
    from maxima_board.webbase.httpbase import RateLimit, client_key

    phone, laptop = "2001:db8:1:2:a::1", "2001:db8:1:2:b::2"
    assert client_key(phone) != client_key(laptop)
    assert client_key("::ffff:192.168.1.7") == "192.168.1.7" == client_key("192.168.1.7")
    assert client_key("fe80::1%wlan0") == client_key("fe80::1") == "fe80::1"
    guard = pins.PinGuard("123456")
    for _ in range(pins.MAX_FAILURES):
        assert not guard.check("000000", client_key(phone))
    assert guard.locked_for(client_key(phone)) > 0
    assert guard.locked_for(client_key(laptop)) == 0 and guard.check("123456", client_key(laptop))
    limit = RateLimit(rate=1.0, burst=2)
    assert limit.allow(client_key(phone)) and limit.allow(client_key(phone)) and not limit.allow(client_key(phone))
    assert limit.allow(client_key(laptop))
    if not socket.has_ipv6:
        pytest.skip("no IPv6 on this machine")
    try:
        server = board_server(BoardFeed(), "123456", "::1", 0).start()
    except OSError as exc:
        pytest.skip(f"cannot bind ::1: {exc}")
    try:
        conns = []
        for _ in range(3):
            conn = http.client.HTTPConnection("::1", server.port, timeout=10)
            conn.request("GET", "/api/variants", headers={"Host": f"[::1]:{server.port}"})
            assert conn.getresponse().read() and conn.sock is not None
            conns.append(conn)
        wait_for(lambda: server.caps.held_by("::1") == 3, timeout=5, what="three connections of ::1")
        for conn in conns:
            conn.close()
    finally:
        server.close()
