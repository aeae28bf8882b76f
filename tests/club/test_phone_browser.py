"""A phone as the other player, in a real browser (headless Chromium,
Selenium) against ``maxima-board serve --variant ultima``: the board's
page invites a player with the PIN; the link opens the phone's page, which
plays Black by tapping pieces and squares; the simulated board (typed on
stdin) makes the phone's moves on its squares when it prints ``remote
MOVE``, and answers; the phone resigns at the end."""
from __future__ import annotations

import os
import queue
import re
import subprocess
import threading

import pytest

from .conftest import MAXIMA_BOARD, wait_for

pytestmark = pytest.mark.usefixtures("browser")
SHOTS = os.environ.get("MAXIMA_BOARD_SHOTS")     # a directory: the test's screenshots are saved there


class Served:
    """``maxima-board serve`` with its board's lines read as they come."""

    def __init__(self, tmp_path):
        self.process = subprocess.Popen(
            MAXIMA_BOARD + ["serve", "--variant", "ultima", "--port", "0", "--bind", "127.0.0.1",
                            "--db", str(tmp_path / "games.db")],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.url = self.pin = None
        for _ in range(10):
            m = re.search(r"serve: (http://127\.0\.0\.1:\d+/)\s+web PIN (\d+)", self.process.stderr.readline())
            if m:
                self.url, self.pin = m.groups()
                break
        assert self.url, "serve did not say where it listens"
        self.lines: list[str] = []
        self._new: queue.SimpleQueue = queue.SimpleQueue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))

    def type(self, *lines: str) -> None:
        self.process.stdin.write("".join(line + "\n" for line in lines))
        self.process.stdin.flush()

    def printed(self, text: str) -> str:
        return wait_for(lambda: next((line for line in self.lines if text in line), None), what=repr(text))

    def close(self) -> None:
        self.process.terminate()
        assert self.process.wait(10) == 0


@pytest.fixture
def served(tmp_path):
    s = Served(tmp_path)
    yield s
    s.close()


def text(browser, element_id: str) -> str:
    return browser.find_element("id", element_id).text


def tap(browser, square: str) -> None:
    """A tap on ``square``: on its piece if one stands there (drawn over the square)."""
    pieces = browser.find_elements("css selector", f'#board g.piece[data-square="{square}"]')
    target = pieces[0] if pieces else browser.find_element("css selector", f'#board rect[data-square="{square}"]')
    target.click()


def pick(browser, square: str) -> str:
    return browser.find_element("css selector", f'#board rect[data-square="{square}"]').get_attribute("data-pick") or ""


def shot(browser, name: str) -> None:
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
        browser.save_screenshot(os.path.join(SHOTS, name))


def phone_move(browser, served, origin: str, target: str, words: str) -> None:
    """The phone plays ``origin``-``target`` by two taps; the board prints it as the remote move."""
    wait_for(lambda: text(browser, "status").startswith("Your move (Black)"), what="the phone's turn")
    wait_for(lambda: pick(browser, origin) == "movable", what=f"{origin} to be movable")
    tap(browser, origin)
    assert pick(browser, origin) == "from" and pick(browser, target) == "to"
    tap(browser, target)
    wait_for(lambda: words in text(browser, "moves"), what=f"{words} in the phone's list")
    served.printed(f"remote {origin}-{target}")


def test_a_phone_plays_black_by_tapping(browser, served):
    browser.get(served.url)
    wait_for(lambda: "White to move" in text(browser, "status"), what="the board's page")
    browser.find_element("css selector", "#invite summary").click()
    browser.find_element("id", "i-pin").send_keys(served.pin)
    browser.find_element("id", "i-submit").click()
    link = wait_for(lambda: browser.find_element("id", "invite-a").get_attribute("href") if
                    text(browser, "invite-a").startswith("http") else None, what="the invitation's link")
    assert re.fullmatch(re.escape(served.url) + r"play/[A-Za-z0-9_-]{20,64}", link)
    assert text(browser, "invite-a") == link
    shot(browser, "phone-invite.png")
    served.printed("remote game ")

    browser.get(link)
    wait_for(lambda: text(browser, "status") == "White (the board) to move.", what="the phone's page")
    assert text(browser, "title") == "You play Black · Ultima"
    assert len(browser.find_elements("css selector", "#board svg g.piece")) == 32
    a8, h1 = (browser.find_element("css selector", f'#board rect[data-square="{sq}"]').rect for sq in ("a8", "h1"))
    assert a8["x"] > h1["x"] and a8["y"] > h1["y"]          # Black's side of the board at the bottom
    browser.execute_script("window.notReloaded = true;")

    served.type("lift a2", "place a3", "wait 500")
    phone_move(browser, served, "a7", "a4", "Pawn a7-a4")
    assert not browser.find_elements("css selector", "#board rect[data-pick]")
    wait_for(lambda: text(browser, "status") == "Your move is being made on the board.", what="the board's turn")
    served.type("lift a7", "place a4", "wait 500")
    served.printed("move 2 a7-a4")
    wait_for(lambda: text(browser, "status") == "White (the board) to move.", what="the board's turn")

    served.type("lift b2", "place b4", "wait 500")
    phone_move(browser, served, "c7", "c4", "Pawn c7-c4 takes b4")    # custodial: b4 between c4 and a4
    served.type("lift c7", "place c4", "lift b4", "wait 500")
    served.printed("move 4 c7-c4xb4")
    wait_for(lambda: not browser.find_elements("css selector", '#board g.piece[data-square="b4"]'),
             what="the captured pawn gone")
    shot(browser, "phone-capture.png")

    served.type("lift h2", "place h5", "wait 500")
    wait_for(lambda: text(browser, "status").startswith("Your move (Black)"), what="the phone's turn")
    tap(browser, "g7")                   # a piece, then another: the second is picked
    tap(browser, "d7")
    assert pick(browser, "d7") == "from" and pick(browser, "g7") != "from"
    assert pick(browser, "d4") == "to" and pick(browser, "d6") == "to" and pick(browser, "e6") == ""
    shot(browser, "phone-picked.png")
    assert "Pawn a2-a3" in text(browser, "moves") and "Pawn h2-h5" in text(browser, "moves")
    browser.find_element("id", "resign").click()
    assert text(browser, "resign") == "Resign: sure?"
    browser.find_element("id", "resign").click()
    served.printed("game over 1-0 (resignation)")
    wait_for(lambda: text(browser, "status") == "Game over: 1-0 (resignation). You lost.", what="the end")
    assert text(browser, "result") == "1-0 (resignation)"
    assert browser.find_element("id", "ask-draw").get_attribute("disabled")
    assert browser.execute_script("return window.notReloaded === true;")
    assert browser.execute_script("return document.documentElement.scrollWidth <= window.innerWidth;")
    shot(browser, "phone-end.png")


def test_a_move_without_a_destination_is_chosen_from_a_list(browser, served):
    """A position where Black's immobilized Long Leaper may leave the board:
    tapping it offers that move in words, as a button."""
    import json
    import urllib.request

    body = json.dumps({"pin": served.pin, "side": "black", "game": "ultima", "setup": "off",
                       "fen": "cphwk2i/2p1l1pp/p2p4/2p2h1P/5W2/2P1Pp2/lP1KPCP1/ILH2H2 b 47"}).encode()
    request = urllib.request.Request(served.url + "api/invite", body, {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as r:
        link = served.url + json.loads(r.read())["link"][1:]
    browser.get(link)
    wait_for(lambda: text(browser, "status").startswith("Your move (Black)"), what="the phone's turn")
    wait_for(lambda: pick(browser, "a2") == "movable", what="a2 to be movable")
    assert not browser.find_element("id", "choices").is_displayed()
    tap(browser, "a2")
    button = wait_for(lambda: browser.find_element("css selector", '#choices button[data-move="a2-S"]'),
                      what="the move's button")
    assert button.text == "Long Leaper a2 removes itself"
    shot(browser, "phone-choice.png")
    button.click()
    served.printed("remote a2-S")
    wait_for(lambda: "Long Leaper a2 removes itself" in text(browser, "moves"), what="the move in the list")
