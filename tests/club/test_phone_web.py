"""A phone as the other player (issue 33, part 3), over HTTP on loopback:
the PIN-guarded invitation, the link's token seen by nobody but the PIN
holder who asked, wrong tokens refused (and locked out), the phone's
moves checked (turn, rules) with a one-line reason, and the phone's
questions and answers reaching the board. The browser test is
test_phone_browser.py."""
from __future__ import annotations

import io
import json
import queue
import re
import threading
import time
import urllib.error
import urllib.request

import pytest

from maxima_board.board.settings import Settings
from maxima_board.cli.remote import remote_wrap
from maxima_board.cli.sim import Sim
from maxima_board.service.feed import BoardFeed
from maxima_board.service.remote_layer import RemoteLayer
from maxima_board.service.stack import find_layer
from maxima_board.storage.store import GameStore
from maxima_board.web import pin as pins
from maxima_board.web.invite import TokenGuard
from maxima_board.web.pin import MAX_FAILURES
from maxima_board.web.server import board_server

from .conftest import wait_for


class Output(io.TextIOBase):
    """The simulated board's lines, written by its thread, read by the test's."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._text: list[str] = []

    def write(self, text: str) -> int:
        with self._lock:
            self._text.append(text)
        return len(text)

    def text(self) -> str:
        with self._lock:
            return "".join(self._text)


class PhoneBoard:
    """A simulated board with the remote layer ``serve`` builds (idle until
    invited), ticking in its own thread, and its web page."""

    def __init__(self, tmp_path, variant: str | None = "ultima", wrap=None):
        self.db = str(tmp_path / "games.db")
        self._wrap = wrap if wrap is not None else remote_wrap(None)
        self.feed = BoardFeed()
        self.pin = pins.board_pin(self.db)
        self.server = board_server(self.feed, self.pin, "127.0.0.1", 0, db_path=self.db).start()
        self.url = f"http://127.0.0.1:{self.server.port}"
        self.out = Output()
        self._lines: queue.SimpleQueue = queue.SimpleQueue()
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._loop, args=(variant,), daemon=True)
        self._thread.start()
        assert self._ready.wait(10)

    def _loop(self, variant: str) -> None:
        store = GameStore(self.db)
        sim = Sim(Settings(db_path=self.db), store, self.out, feed=self.feed, wrap=self._wrap)
        sim.controller.web_pin = self.pin
        if variant is not None:      # else the board resumes its stored game
            sim.command(f"variant {variant} start", 1)
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

    def printed(self, text: str, what: str = "") -> None:
        wait_for(lambda: text in self.out.text(), what=what or repr(text))

    def close(self) -> None:
        self._stop.set()
        self._thread.join(2)
        self.server.close()


@pytest.fixture
def board(tmp_path):
    b = PhoneBoard(tmp_path)
    yield b
    b.close()


def request(url: str, data: dict | bytes | None = None, headers: dict | None = None) -> tuple[int, bytes]:
    body = json.dumps(data).encode() if isinstance(data, dict) else data
    req = urllib.request.Request(url, body, {"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def call(url: str, data: dict | bytes | None = None, headers: dict | None = None) -> tuple[int, dict]:
    status, body = request(url, data, headers)
    return status, json.loads(body)


def invite(board, side: str = "black", game: str = "current", **more) -> str:
    status, reply = call(board.url + "/api/invite", {"pin": board.pin, "side": side, "game": game, **more})
    assert status == 200 and reply["ok"], reply
    assert re.fullmatch(r"/play/[A-Za-z0-9_-]{20,64}", reply["link"])
    return board.url + reply["link"]


def phone_state(link: str) -> dict:
    return call(link + "/state")[1]


def until(link: str, test, what: str) -> dict:
    return wait_for(lambda: (lambda s: s if test(s) else None)(phone_state(link)), what=what)


def test_the_invitation_needs_the_pin(board):
    status, reply = call(board.url + "/api/invite", {"side": "black", "game": "current"})
    assert status == 400 and "PIN" in reply["error"]
    wrong = "9" * len(board.pin) if board.pin != "9" * len(board.pin) else "1" * len(board.pin)
    status, reply = call(board.url + "/api/invite", {"pin": wrong, "side": "black"})
    assert status == 403 and reply["error"].startswith("wrong PIN")
    status, reply = call(board.url + "/api/invite", {"pin": board.pin, "side": "green"})
    assert status == 400 and reply["error"].startswith("side:")
    status, reply = call(board.url + "/api/invite", {"pin": board.pin, "side": "black"},
                         {"Origin": "http://evil.example"})
    assert status == 403
    assert "remote game" not in board.out.text()      # nothing reached the board
    link = invite(board)
    board.printed("remote game ", "the board's remote game")
    s = until(link, lambda s: s["on_board"], "the board's first message")
    assert s["side"] == "black" and s["turn"] == "white" and not s["your_turn"]
    assert s["status"] == "White (the board) to move." and "<svg" in s["svg"]


def test_a_new_game_invitation_and_one_after_a_move_refused(board):
    board.play("lift a2", "place a4", "wait 500")
    board.printed("move 1 a2-a4")
    status, reply = call(board.url + "/api/invite", {"pin": board.pin, "side": "black", "game": "current"})
    assert status == 400 and reply["error"] == "the board's game has moves already: invite the player to a new game"
    link = invite(board, "white", "ultima", player="Pat Phone", time_control="10+5")
    board.printed("set up clhwkhli/")
    s = phone_state(link)
    assert not s["ready"] and s["status"].startswith("Waiting for the board")
    board.play("lift a4", "place a2", "wait 500", "press ok")     # the pieces set up: the game begins
    s = until(link, lambda s: s["your_turn"], "the phone's turn")
    assert s["side"] == "white" and s["players"]["white"] == "Pat Phone"
    assert s["clocks"]["white"] == 600_000 and s["clocks"]["black"] == 600_000
    assert "clock 10+5" in board.out.text()


def test_the_token_is_seen_only_by_the_pin_holder(board):
    link = invite(board)
    token = link.rsplit("/", 1)[1]
    until(link, lambda s: s["on_board"], "the board's first message")
    board.play("lift a2", "place a4", "wait 500")
    until(link, lambda s: s["your_turn"], "the phone's turn")
    assert call(link + "/move", {"move": "b7-b5"}) == (200, {"ok": True})
    board.printed("remote b7-b5")
    board.play("lift b7", "place b5", "wait 500")
    board.printed("move 2 b7-b5")
    name = board.feed.submit(lambda c, now: find_layer(c, RemoteLayer).name).result
    assert name and len(name) == 19
    menu_to(board, "Show remote game's name?")        # on the board's own screen only
    wait_for(lambda: any(f"Remote game: {name}" in line for line in oled_lines(board)), what="the name shown")
    wait_for(lambda: "Remote game: (on the board)" in " ".join(board.feed.latest["display"]), what="the name hidden")
    seen = [request(board.url + path)[1] for path in
            ("/", "/index.html", "/api/state", "/board.svg", "/api/games", "/games/1.pgn", "/games/1",
             "/api/variants", "/static/board.js", "/static/phone.js")]
    with urllib.request.urlopen(board.url + "/events", timeout=10) as stream:
        while not (line := stream.readline()).startswith(b"data: "):
            pass
        seen.append(line)
    state = json.loads(request(board.url + "/api/state")[1])
    assert state["remote"]["side"] == "white" and state["tags"]["Event"].startswith("Remote game ")
    assert state["moves"] == ["a2-a4", "b7-b5"]
    seen += [json.dumps(board.feed.latest).encode(), request(link + "/state")[1], request(link)[1]]
    for data in seen:
        assert name.encode() not in data      # the key's other half: on the board's own screen only
    seen.append(board.out.text().encode())    # the board's terminal
    for data in seen[:-3] + seen[-1:]:
        assert token.encode() not in data


def test_wrong_tokens_are_refused_and_locked_out(board):
    link = invite(board)
    for i in range(MAX_FAILURES):
        status, body = request(board.url + f"/play/{'x' * 22}{i}")
        assert status == 404 and b"No such game" in body
    status, body = request(board.url + "/play/abc/state")
    assert status == 429 and b"too many wrong links" in body
    status, _ = request(link + "/state")          # locked: the right token is not looked at either
    assert status == 429


def test_token_guard_forgets_and_locks_per_client():
    now = [0.0]
    guard = TokenGuard(clock=lambda: now[0])
    for _ in range(MAX_FAILURES):
        assert guard.refusal("a") is None
        guard.wrong("a")
    assert guard.refusal("a") and guard.refusal("b") is None
    now[0] += 31
    assert guard.refusal("a") is None
    guard.wrong("a")
    assert guard.refusal("a")            # one more wrong one locks it again, for longer
    now[0] += 61
    guard.right("a")                     # an invitation's token: the wrong ones are forgotten
    guard.wrong("a")
    assert guard.refusal("a") is None


def test_moves_are_checked_before_the_board_sees_them(board):
    link = invite(board)
    until(link, lambda s: s["on_board"], "the board's first message")
    status, reply = call(link + "/move", {"move": "b7-b5"})
    assert status == 409 and reply["error"] == "not your turn: White (the board) to move"
    assert call(link + "/moves")[1]["moves"] == []
    board.play("lift a2", "place a4", "wait 500")
    until(link, lambda s: s["your_turn"], "the phone's turn")
    moves = call(link + "/moves")[1]["moves"]
    assert {"move": "b7-b5", "from": "b7", "to": "b5", "words": "Pawn b7-b5"} in moves
    assert all(m["from"][1] in "78" for m in moves)           # Black's pieces only
    for bad, code, why in (({"move": "b7-b9"}, 400, "b7-b9 is not a legal move here"),
                           ({"move": "a2-a3"}, 400, "a2-a3 is not a legal move here"),
                           ({"move": 7}, 400, "move: a move as the game writes it (e2-e4)"),
                           ({"move": "x" * 41}, 400, "move: a move as the game writes it (e2-e4)"),
                           ({"what": "b7-b5"}, 400, "move: a move as the game writes it (e2-e4)")):
        status, reply = call(link + "/move", bad)
        assert (status, reply["error"]) == (code, why)
        assert "\n" not in reply["error"]
    assert call(link + "/move", b"[1, 2]")[0] == 400
    assert call(link + "/move", b"{" * 2000)[0] == 413
    assert request(link + "/move", b'{"move": "b7-b5"}', {"Content-Type": "text/plain"})[0] == 415
    assert request(link + "/move", {"move": "b7-b5"}, {"Origin": "http://evil.example"})[0] == 403
    assert "remote " not in board.out.text().split("remote game", 1)[1]     # none of them reached the board
    assert call(link + "/move", {"move": "b7-b5"}) == (200, {"ok": True})
    board.printed("remote b7-b5")
    status, reply = call(link + "/move", {"move": "c7-c5"})
    assert status == 409 and reply["error"] == "not your turn: White (the board) to move"


def oled_lines(board) -> list[str]:
    return [line[5:].replace(" | ", " ") for line in board.out.text().splitlines() if line.startswith("oled ")]


def menu_to(board, label: str) -> None:
    """MENU (the chooser, then the menu's questions) until the board's
    display asks ``label``; then OK."""
    for _ in range(14):
        seen = len(oled_lines(board))
        board.play("press menu")
        wait_for(lambda: len(oled_lines(board)) > seen, what="the display to change")
        if label in oled_lines(board)[-1]:
            board.play("press ok")
            return
    raise AssertionError(f"{label} not in the menu: {oled_lines(board)[-14:]}")


def test_questions_and_answers_both_ways(board):
    link = invite(board)
    until(link, lambda s: s["on_board"], "the board's first message")
    board.play("lift a2", "place a4", "wait 500")
    until(link, lambda s: s["your_turn"], "the phone's turn")
    assert call(link + "/move", {"move": "b7-b5"})[0] == 200
    board.play("lift b7", "place b5", "wait 500")
    board.printed("move 2 b7-b5")
    # the phone asks to take its move back; the board's player accepts from MENU
    assert call(link + "/ask", {"what": "takeback"}) == (200, {"ok": True})
    board.printed("remote ask takeback by them")
    s = phone_state(link)
    assert s["asked"] == "takeback" and s["status"] == "You asked: take-back. Waiting for the answer."
    assert call(link + "/move", {"move": "c7-c5"})[0] == 409
    menu_to(board, "Accept take-back?")
    board.printed("remote answer takeback yes by us")
    s = until(link, lambda s: s["asked"] is None, "the answer")
    assert s["move_texts"] == ["Pawn a2-a4"] and s["note"] == "The board's player accepted the take-back."
    board.play("lift b5", "place b7", "wait 500")      # the board takes it back on its squares
    s = until(link, lambda s: s["your_turn"], "the phone's turn again")
    # the board's player offers a draw; the phone declines, then offers one itself, accepted
    menu_to(board, "Agree draw?")
    board.printed("remote ask draw by us")
    s = until(link, lambda s: s["asks"] == "draw", "the board's offer")
    assert s["status"] == "The board's player asks: draw. Accept or decline."
    assert call(link + "/answer", {"yes": False}) == (200, {"ok": True})
    board.printed("remote answer draw no by them")
    assert call(link + "/answer", {"yes": True})[1]["error"] == "the board's player asks nothing now"
    assert call(link + "/ask", {"what": "draw"})[0] == 200
    board.printed("remote ask draw by them")
    menu_to(board, "Accept draw?")
    board.printed("game over 1/2 (agreement)")
    s = until(link, lambda s: s["result"] is not None, "the end")
    assert s["result"] == "1/2" and s["reason"] == "agreement" and s["status"].endswith("Drawn.")
    assert call(link + "/move", {"move": "b7-b5"})[1]["error"] == "the game is over"


def test_a_new_invitation_ends_the_one_before(board):
    first = invite(board)
    until(first, lambda s: s["on_board"], "the board's first message")
    second = invite(board, "white")
    assert request(first + "/state")[0] == 404
    s = until(second, lambda s: s["your_turn"], "the new phone's turn")
    assert s["side"] == "white"


IMMOBILIZED = "cphwk2i/2p1l1pp/p2p4/2p2h1P/5W2/2P1Pp2/lP1KPCP1/ILH2H2 b 47"   # Black's Long Leaper a2 may only leave


def test_a_move_without_a_destination_is_offered_in_words(board):
    link = invite(board, "black", "ultima", fen=IMMOBILIZED, setup="off")
    s = until(link, lambda s: s["your_turn"], "the phone's turn")
    assert s["fen"] == IMMOBILIZED
    moves = call(link + "/moves")[1]["moves"]
    assert {"move": "a2-S", "from": "a2", "to": None, "words": "Long Leaper a2 removes itself"} in moves
    assert call(link + "/move", {"move": "a2-S"}) == (200, {"ok": True})
    board.printed("remote a2-S")


def test_a_board_started_again_plays_on_with_the_same_link(tmp_path):
    """The invitation is kept beside the games (0600): the board stopped
    and started again resumes the game, and the phone's link plays on."""
    board = PhoneBoard(tmp_path)
    try:
        link = invite(board)
        until(link, lambda s: s["on_board"], "the board's first message")
        board.play("lift a2", "place a4", "wait 500")
        until(link, lambda s: s["your_turn"], "the phone's turn")
        assert call(link + "/move", {"move": "b7-b5"})[0] == 200
        board.printed("remote b7-b5")
        board.play("lift b7", "place b5", "wait 500")
        board.printed("move 2 b7-b5")
    finally:
        board.close()
    kept = tmp_path / "phone-invitation"
    assert kept.stat().st_mode & 0o777 == 0o600 and link.rsplit("/", 1)[1] in kept.read_text()
    path = link.split("/play/", 1)[1]
    again = PhoneBoard(tmp_path, variant=None)
    try:
        again.server.page.phone.resume()
        again.printed("remote game ", "the remote game taken up again")
        link = again.url + "/play/" + path
        s = until(link, lambda s: s["on_board"] and len(s["move_texts"]) == 2, "the phone caught up")
        assert s["move_texts"] == ["Pawn a2-a4", "Pawn b7-b5"] and not s["your_turn"]
        again.play("lift c2", "place c4", "wait 500")
        until(link, lambda s: s["your_turn"], "the phone's turn after the restart")
        assert call(link + "/move", {"move": "c7-c5"})[0] == 200
        again.printed("remote c7-c5")
    finally:
        again.close()
