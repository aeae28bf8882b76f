"""Issue 31, finding 1: the web PIN leaves the board only on its own
screen. ``maxima-board serve --broadcast`` (its own process, a real
Mosquitto on loopback) shows its PIN on the OLED (MENU → "Show web PIN?",
then "New web PIN?"); every byte the page serves and every byte the board
publishes is searched for it."""
from __future__ import annotations

import http.client
import json
import queue
import re
import socket
import subprocess
import threading
import time

import paho.mqtt.client as mqtt

from .conftest import MAXIMA_BOARD, wait_for

PAGES = ("/", "/index.html", "/api/state", "/board.svg", "/api/games", "/api/variants", "/games/1.pgn",
         "/static/style.css", "/static/common.js", "/static/page.js")


class Everything:
    """Every message under the board's topics, as the broker hands it out."""

    def __init__(self, address: str):
        host, port = address.rsplit(":", 1)
        self.messages: list[tuple[str, bytes]] = []
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="pin-watch")
        self.client.on_connect = lambda c, u, f, rc, p: c.subscribe("#", qos=1)
        self.client.on_message = lambda c, u, m: self.messages.append((m.topic, bytes(m.payload)))
        self.client.connect(host, int(port))
        self.client.loop_start()

    def bytes(self) -> bytes:
        return b"\n".join(topic.encode() + b" " + payload for topic, payload in list(self.messages))

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


class Board:
    """``serve --broadcast`` typed into; its OLED lines are read off stdout."""

    def __init__(self, tmp_path, broker: str):
        self.db = tmp_path / "games.db"
        self.process = subprocess.Popen(
            MAXIMA_BOARD + ["serve", "--port", "0", "--bind", "127.0.0.1", "--db", str(self.db),
                            "--broadcast", broker, "--club", "secrets", "--table", "7"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
        self.oled: queue.SimpleQueue[str] = queue.SimpleQueue()
        self.stderr: list[str] = []
        threading.Thread(target=self._read, args=(self.process.stdout, self.oled), daemon=True).start()
        errors: queue.SimpleQueue[str] = queue.SimpleQueue()
        threading.Thread(target=self._read, args=(self.process.stderr, errors), daemon=True).start()
        end, self.port = time.monotonic() + 30, None
        while self.port is None and time.monotonic() < end:
            try:
                line = errors.get(timeout=1)
            except queue.Empty:
                continue
            self.stderr.append(line)
            found = re.search(r"serve: http://127\.0\.0\.1:(\d+)/", line)
            if found:
                self.port = int(found.group(1))
        assert self.port, "serve did not start: " + "".join(self.stderr)
        wait_for(lambda: self.get("/api/state")[0] == 200, what="the board's state")

    @staticmethod
    def _read(stream, into) -> None:
        for line in stream:
            into.put(line)

    def type(self, line: str) -> None:
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def until_oled(self, text: str, timeout: float = 20) -> str:
        """The first OLED line from now on that holds ``text``."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                line = self.oled.get(timeout=1)
            except queue.Empty:
                continue
            if line.startswith("oled") and text in line:
                return line
        raise AssertionError(f"the OLED never showed {text!r}")

    def press_until(self, button: str, text: str, presses: int = 12) -> None:
        """``press button`` until the OLED shows ``text``: one press, then its screen."""
        for _ in range(presses):
            time.sleep(0.3)
            while not self.oled.empty():
                self.oled.get()
            self.type(f"press {button}")
            if text in self.until_oled(""):
                return
        raise AssertionError(f"the OLED never showed {text!r}")

    def get(self, path: str) -> tuple[int, bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            conn.request("GET", path)
            response = conn.getresponse()
            return response.status, response.read()
        finally:
            conn.close()

    def stream(self, path: str, seconds: float) -> bytes:
        """What an event stream sends in ``seconds``, headers and all."""
        chunks, end = [], time.monotonic() + seconds
        with socket.create_connection(("127.0.0.1", self.port), 5) as sock:
            sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
            sock.settimeout(0.3)
            while time.monotonic() < end:
                try:
                    chunk = sock.recv(65536)
                except TimeoutError:
                    continue
                if not chunk:
                    break
                chunks.append(chunk)
        return b"".join(chunks)

    def served(self) -> bytes:
        """Every page, the state, the stored games and a few seconds of the live stream."""
        return b"\n".join([self.get(path)[1] for path in PAGES] + [self.stream("/events", 2.5)])

    def close(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)


def test_the_web_pin_is_never_served_nor_published(broker, tmp_path):
    watch = Everything(broker.address)
    board = Board(tmp_path, broker.address)
    try:
        board.type("lift c3")
        board.type("place c4")
        board.press_until("menu", "Show web PIN?")
        board.type("press ok")
        pin = (tmp_path / "web-pin").read_text().strip()
        assert re.search(rf"Web PIN: {pin}\b", board.until_oled("Web PIN")), "the board's own screen shows it"
        wait_for(lambda: "Web PIN" in "".join(json.loads(board.get("/api/state")[1])["display"]),
                 what="the note on the page")
        wait_for(lambda: any(t.endswith("/state") for t, _ in watch.messages), what="the broadcast")
        served = board.served()
        assert pin.encode() not in served
        assert b"Web PIN: (on the board)" in served       # the note itself is there, its secret is not
        assert pin.encode() not in watch.bytes()

        board.press_until("menu", "New web PIN?")
        board.type("press ok")
        wait_for(lambda: (tmp_path / "web-pin").read_text().strip() != pin, what="a new PIN")
        new = (tmp_path / "web-pin").read_text().strip()
        assert new in board.until_oled(new)
        served = board.served()
        assert new.encode() not in served and pin.encode() not in served
        assert new.encode() not in watch.bytes()
    finally:
        board.close()
        watch.close()


# -- finding 2: the PIN cannot be guessed from many addresses ------------------------
def test_the_board_checks_one_pin_at_a_time_after_a_handful_of_wrong_ones():
    """Five wrong PINs per address, from as many addresses as one likes,
    was 7,000 guesses a second. Now, after ``BOARD_FREE`` wrong PINs from
    anywhere, the board checks one PIN per wait (doubling, at most
    ``MAX_BOARD_WAIT_S``): the space takes longer than a season."""
    from maxima_board.web import pin as pins

    now = [0.0]
    guard = pins.PinGuard("123456", clock=lambda: now[0])
    attempts = 0
    for second in range(3600):                   # an hour of 100 guesses a second, each from a new address
        for n in range(100):
            attempts += 1
            guard.check(f"{(second * 100 + n) % 999_983:06d}" if n else "000000", f"10.{second % 250}.{n}.1")
        now[0] += 1.0
    assert attempts == 360_000
    assert guard.checked <= pins.BOARD_FREE + 3600 / pins.MAX_BOARD_WAIT_S + 8
    season_s = 5e5 * pins.MAX_BOARD_WAIT_S       # half the space at the steady rate
    assert season_s > 240 * 86_400
    assert guard.refusal("10.9.9.9") is not None and "New web PIN" in guard.refusal("10.9.9.9")


def test_the_owner_gets_in_after_the_wait_and_a_new_pin_ends_it():
    from maxima_board.web import pin as pins

    now = [0.0]
    guard = pins.PinGuard("123456", clock=lambda: now[0])
    for n in range(pins.BOARD_FREE):
        assert not guard.check("000000", f"10.0.0.{n}")
    assert guard.board_waits() and not guard.check("123456", "10.1.1.1")      # refused unchecked
    now[0] += guard.locked_for("10.1.1.1")
    assert guard.check("123456", "10.1.1.1")           # the owner, after the wait
    assert not guard.board_waits()                      # ... ends the board's wait
    for n in range(pins.BOARD_FREE + 5):
        guard.check("000000", f"10.0.1.{n}")
        now[0] += guard.locked_for(f"10.0.1.{n + 1}")
    assert not guard.check("000000", "10.0.2.1")
    assert guard.locked_for("10.2.2.2") == pins.MAX_BOARD_WAIT_S
    guard.set_pin("654321")                             # MENU -> New web PIN?
    assert guard.locked_for("10.2.2.2") == 0 and guard.check("654321", "10.2.2.2")


def test_wrong_pins_from_rotating_addresses_are_checked_a_handful_of_times(tmp_path):
    """Over HTTP from 60 loopback addresses (a phone changing its address
    at will): only ``BOARD_FREE`` wrong PINs are checked, every other is
    refused with 429 unchecked; the owner's PIN works after the wait."""
    from maxima_board.web import pin as pins

    from .test_club_web_attacks import Served

    served = Served(tmp_path)
    try:
        wrong = "000000" if served.pin != "000000" else "111111"
        statuses = []
        for n in range(60):
            for _ in range(3):
                statuses.append(served.post_json({"pin": wrong}, source=f"127.0.{n // 250}.{n % 250 + 2}")[0])
        assert statuses.count(403) == pins.BOARD_FREE, statuses
        assert statuses.count(429) == len(statuses) - pins.BOARD_FREE
        status, reply = served.post_json({"pin": served.pin, "setup": "off"}, source="127.0.3.1")
        assert status == 429 and "New web PIN" in reply["error"]
        time.sleep(float(re.search(r"in (\d+) s", reply["error"]).group(1)) + 0.2)
        status, reply = served.post_json({"pin": served.pin, "setup": "off", "white": "Owner"}, source="127.0.3.1")
        assert status == 200 and reply["ok"], reply
        assert any("wrong PINs on this board" in line for line in served.stderr)
    finally:
        served.close()
