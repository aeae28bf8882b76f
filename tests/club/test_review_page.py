"""Issue 34: a reviewed game's page, /games/N, over HTTP and in Chromium
(phone and desktop widths): the evaluation graph drawn by the server, the
moves with their classes, stepping with links and the arrow keys, the
better move on a board of its own; hostile names escaped."""
from __future__ import annotations

import re
import time
import urllib.error
import urllib.request

import pytest

from maxima_board.service.feed import BoardFeed
from maxima_board.storage.store import GameStore, ReviewRow
from maxima_board.web.server import board_server

from ..review_support import replayed_game

PLIES = 6
SCORES = [20, -20, 20, 400, -390, 380, -385]     # the side to move's view: White's 2nd move blunders


@pytest.fixture
def served(tmp_path):
    db = str(tmp_path / "games.db")
    replayed_game(db, plies=PLIES)
    store = GameStore(db)
    try:
        store.store_review(1, PLIES, [ReviewRow(p, s, None, "d3-d5" if p < PLIES else None, 1, "nodes 1")
                                      for p, s in enumerate(SCORES)])
        store.set_players(1, "<script>alert(1)</script>", "Bob & Co")
    finally:
        store.close()
    server = board_server(BoardFeed(), "123456", "127.0.0.1", 0, db_path=db).start()
    yield f"http://127.0.0.1:{server.port}"
    server.close()


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def test_the_page_over_http(served):
    status, page = get(served + "/games/1")
    assert status == 200
    assert "<script>alert" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert page.count('class="graph"') == 1
    marks = re.findall(r'<circle [^>]*data-kind="(\w+)" data-ply="(\d+)"', page)
    assert marks == [("blunder", "3")]
    assert re.search(r'class="mv blunder"[^>]*data-ply="3"', page)
    assert 'data-ply="6"' in page and "Next" in page
    status, third = get(served + "/games/1?ply=3")
    assert status == 200 and "better was <strong>2. Pd3-d5</strong>" in third
    assert 'data-led="engine-from"' in third and 'data-led="engine-to"' in third   # the better move's board
    assert 'href="/games/1?ply=2"' in third and 'href="/games/1?ply=4"' in third
    assert get(served + "/games/1?ply=0")[0] == 200
    assert get(served + "/games/1?ply=999")[0] == 200                                 # the last position
    assert get(served + "/games/1?ply=-1")[0] == 400
    assert get(served + "/games/1?ply=%3Cx%3E")[0] == 400
    assert get(served + "/games/2")[0] == 404
    status, pgn = get(served + "/games/1.pgn")
    assert status == 200 and len(re.findall(r"\{\[%eval -?\d+\.\d\d\]\}", pgn)) == PLIES and "$4" in pgn


def test_the_page_is_made_again_only_when_the_review_changes(served, tmp_path):
    first = get(served + "/games/1?ply=2")[1]
    assert get(served + "/games/1?ply=2")[1] == first
    store = GameStore(str(tmp_path / "games.db"))
    try:
        store.store_review(1, PLIES, [ReviewRow(3, -400, None, "e3-e5", 1, "nodes 1")])   # no blunder now
    finally:
        store.close()
    changed = get(served + "/games/1")[1]
    assert 'data-kind="blunder"' not in changed


@pytest.mark.usefixtures("browser")
@pytest.mark.parametrize("width", [390, 1280])
def test_the_page_in_chromium_steps_with_the_arrow_keys(served, browser, width, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    browser.set_window_size(width, 900)
    browser.get("about:blank")
    browser.get_log("browser")      # what the pages of earlier tests logged (their servers are gone) is not ours
    browser.get(served + "/games/1?ply=0")
    graph = browser.find_element(By.CSS_SELECTOR, "svg.graph")
    assert graph.size["width"] > 0.5 * min(width, 700) and graph.size["height"] > 50
    board = browser.find_element(By.CSS_SELECTOR, ".board-wrap svg.board")
    assert board.size["width"] <= width
    body = browser.find_element(By.TAG_NAME, "body")
    for expected in (1, 2, 3):
        body.send_keys(Keys.ARROW_RIGHT)
        _wait(lambda: browser.find_element(By.TAG_NAME, "body").get_attribute("data-ply") == str(expected))
        body = browser.find_element(By.TAG_NAME, "body")
    assert "Blunder" in browser.find_element(By.ID, "about").text
    assert browser.find_element(By.CSS_SELECTOR, "figure.better svg.board").is_displayed()
    body.send_keys(Keys.ARROW_LEFT)
    _wait(lambda: browser.find_element(By.TAG_NAME, "body").get_attribute("data-ply") == "2")
    browser.find_element(By.ID, "next").click()
    _wait(lambda: browser.find_element(By.TAG_NAME, "body").get_attribute("data-ply") == "3")
    browser.save_screenshot(str(tmp_path / f"review-{width}.png"))
    errors = [e for e in browser.get_log("browser") if e.get("level") == "SEVERE" and "favicon" not in e["message"]]
    assert not errors      # a Content-Security-Policy refusal would show here


def _wait(condition, seconds: float = 10) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            if condition():
                return
        except Exception:       # the page is being replaced
            pass
        time.sleep(0.05)
    raise AssertionError("the page did not step")
