"""The board's web page in a real browser (headless Chromium from Debian's
packages, driven by Selenium), against ``maxima-board serve`` with moves
typed into its simulated board: the page follows the game live and starts
a new game from its form, with the board's PIN."""
from __future__ import annotations

import re
import subprocess

import pytest

from .conftest import MAXIMA_BOARD, wait_for

pytestmark = pytest.mark.usefixtures("browser")


@pytest.fixture
def served(tmp_path):
    """``maxima-board serve`` on a free loopback port: (url, pin, process)."""
    process = subprocess.Popen(MAXIMA_BOARD + ["serve", "--port", "0", "--bind", "127.0.0.1",
                                              "--db", str(tmp_path / "games.db")],
                               stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               text=True)
    url = pin = None
    for _ in range(10):
        line = process.stderr.readline()
        m = re.search(r"serve: (http://127\.0\.0\.1:\d+/)\s+web PIN (\d+)", line)
        if m:
            url, pin = m.groups()
            break
    assert url, "serve did not say where it listens"
    yield url, pin, process
    process.terminate()
    assert process.wait(10) == 0


def type_on_board(process, *lines: str) -> None:
    process.stdin.write("".join(line + "\n" for line in lines))
    process.stdin.flush()


def text(browser, element_id: str) -> str:
    return browser.find_element("id", element_id).text


def test_page_shows_a_move_live(browser, served):
    url, _, process = served
    browser.get(url)
    wait_for(lambda: "White to move" in text(browser, "status"), what="the board's state")
    assert len(browser.find_elements("css selector", "#board svg g.piece")) == 36
    browser.execute_script("window.notReloaded = true;")
    type_on_board(process, "lift d3", "place d4", "wait 400")
    # one read of the list and the drawn board (redrawn on every change)
    drawn = wait_for(lambda: browser.execute_script(
        "const b = document.getElementById('board');"
        "if (!document.getElementById('moves').textContent.includes('Pawn d3-d4')) return null;"
        "return [!!b.querySelector('g.piece[data-piece=\"P\"][data-square=\"d4\"]'),"
        "        !!b.querySelector('g.piece[data-square=\"d3\"]'),"
        "        b.querySelector('rect[data-square=\"d4\"]').getAttribute('data-led')];"),
        what="the move in the list and on the board")
    assert drawn == [True, False, "last-to"]
    assert "Black to move" in text(browser, "status")
    assert browser.execute_script("return window.notReloaded === true;")
    # a phone-sized window: nothing wider than the screen
    assert browser.execute_script("return document.documentElement.scrollWidth <= window.innerWidth;")
    wait_for(lambda: browser.execute_script(
        "const a = document.querySelector('#games a[href=\"/games/1.pgn\"]'); return a && a.hasAttribute('download');"),
        what="the game's record link")


def fill_form(browser, **fields: str) -> None:
    details = browser.find_element("id", "new-game")
    if not details.get_attribute("open"):
        details.find_element("tag name", "summary").click()
    for name, value in fields.items():
        box = browser.find_element("id", f"f-{name}")
        box.clear()
        box.send_keys(value)


def test_new_game_from_the_form_needs_the_right_pin(browser, served):
    url, pin, process = served
    browser.get(url)
    wait_for(lambda: "White to move" in text(browser, "status"), what="the board's state")
    wrong = "9" * len(pin) if pin != "9" * len(pin) else "1" * len(pin)
    fill_form(browser, white="Ann Arbiter", black="Bob Board", event="Club night", round="4", pin=wrong)
    browser.find_element("id", "f-submit").click()
    wait_for(lambda: "wrong PIN" in text(browser, "form-msg"), what="the refusal")
    assert browser.find_element("id", "form-msg").get_attribute("class") == "error"
    assert text(browser, "players") == "White – Black"
    fill_form(browser, pin=pin)
    browser.find_element("id", "f-submit").click()
    wait_for(lambda: "New game" in text(browser, "form-msg"), what="the new game's confirmation")
    wait_for(lambda: text(browser, "players") == "Ann Arbiter – Bob Board", what="the names, live")
    assert "round 4" in text(browser, "status") and "setting up" in text(browser, "status")
    type_on_board(process, "press ok")        # the pieces stand: OK starts the game
    wait_for(lambda: "White to move" in text(browser, "status"), what="the game to start")
    wait_for(lambda: "Ann Arbiter – Bob Board" in text(browser, "games"), what="the game in the list")


def test_page_shows_the_leds_in_words_and_clocks_when_the_board_has_them(browser, tmp_path):
    """A controller with clocks (the shape the clock's controller state
    has): the page shows both and counts the running one down."""
    from .test_club_web import LiveBoard

    board = LiveBoard(tmp_path)
    try:
        browser.get(board.url)
        wait_for(lambda: "White to move" in text(browser, "status"), what="the board's state")
        assert not browser.find_element("id", "clocks").is_displayed()
        board.feed.submit(lambda c, now: (c.set_time_control("90"),
                                          c.new_game(now, c.position.fen(), setup=False))[1])
        board.play("lift d3", "place d4", "wait 400")
        wait_for(lambda: browser.find_element("id", "clocks").is_displayed()
                 and "to move" in text(browser, "clock-black"), what="the clocks after White's move")
        assert text(browser, "clock-white") == "White 1:30:00"
        first = text(browser, "clock-black")
        assert first.startswith("Black 1:")
        assert "running" in browser.find_element("id", "clock-black").get_attribute("class")
        wait_for(lambda: text(browser, "clock-black") != first, timeout=5, what="the running clock to tick")
        assert text(browser, "clock-white") == "White 1:30:00"
        wait_for(lambda: "last move to: d4" in text(browser, "lit"), what="the LEDs in words")
    finally:
        board.close()


def test_the_games_list_shows_a_page_and_goes_on(browser, tmp_path):
    """Issue 31: the page loaded every stored game. Now it shows the newest
    20 and "Older games" adds the next 20 until there are no more."""
    from .test_club_web import stored_games

    stored_games(str(tmp_path / "games.db"), 45)
    process = subprocess.Popen(MAXIMA_BOARD + ["serve", "--port", "0", "--bind", "127.0.0.1",
                                              "--db", str(tmp_path / "games.db")],
                               stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        url = None
        for _ in range(10):
            m = re.search(r"serve: (http://127\.0\.0\.1:\d+/)", process.stderr.readline())
            if m:
                url = m.group(1)
                break
        assert url, "serve did not say where it listens"
        browser.get(url)
        count = "return document.querySelectorAll('#games li').length;"
        wait_for(lambda: browser.execute_script(count) == 20, what="the first page of games")
        items = browser.find_elements("css selector", "#games li a")
        assert items[0].text.startswith("46. ") and items[-1].text.startswith("27. ")
        more = browser.find_element("id", "games-more")
        assert more.is_displayed()
        more.click()
        wait_for(lambda: browser.execute_script(count) == 40, what="the second page")
        more.click()
        wait_for(lambda: browser.execute_script(count) == 46, what="the last page")
        assert browser.find_elements("css selector", "#games li a")[-1].text.startswith("1. Player 1 ")
        wait_for(lambda: not more.is_displayed(), what="no more pages")
    finally:
        process.terminate()
        process.wait(10)
