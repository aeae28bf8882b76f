"""Issue 21, "A screen a club player can read": the board's web page and
the club dashboard in headless Chromium at phone and desktop width, for
Maxima, Ultima, a Deckle game and Optima played on simulated boards (and,
for the dashboard, published through a real Mosquitto broker). Each view
is saved as a screenshot (``MAXIMA_BOARD_SCREENSHOTS``, else a pytest
temporary directory) for people to look at; the tests check what a
player needs: pieces with names and a legend, moves in words, the game
named, clocks with their sides and the side to move, a grid of cards, no
missing glyph, and the page drawn before any script runs."""
from __future__ import annotations

import io
import os
import queue
import random
import re
import shutil
import subprocess
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from maxima_board.club.dashboard import ClubTables, dashboard_server
from maxima_board.club.publisher import BoardPublisher
from maxima_board.service.feed import BoardFeed
from maxima_board.board.hands import hand_lines, pick_move
from maxima_board.board.settings import Settings
from maxima_board.cli.sim import Sim
from maxima_board.storage.store import GameStore
from maxima_board.rules import Position, variants
from maxima_board.web import pin as pins
from maxima_board.web.server import board_server
from maxima_board.webbase.svg import board_svg

from .conftest import CHROMEDRIVER, CHROMIUM, wait_for

GAMES = {   # game: (board kind, plies to play)
    "maxima": ("maxima", 14),
    "ultima": ("maxima", 14),
    "swapper-chess": ("10x10", 14),
    "optima": ("10x10", 30),      # 20 placements, then moves
}
WIDTHS = {"phone": (390, 844), "desktop-1200": (1200, 900), "desktop-1920": (1920, 1080)}
# A FEN-style move (Pf3-f4, ARd4-d4xd7, Sc1<>e5, AR@e2): what the lists must not show.
FEN_MOVE = re.compile(r"\b[A-Z]{1,2}\*?[a-j](?:10|[1-9])(?:-|<>|@)|\b[A-Z]{1,2}\*?@[a-j]")


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    where = os.environ.get("MAXIMA_BOARD_SCREENSHOTS")
    path = Path(where) if where else tmp_path_factory.mktemp("screens")
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture(autouse=True)
def phone_window_after(request):
    """The session's browser back at the size the other tests expect."""
    yield
    if "browser" in request.fixturenames:
        request.getfixturevalue("browser").set_window_size(420, 900)


class ScreenBoard:
    """A simulated board of ``variant`` with a clock and players' names,
    ticking in its own thread (which owns the controller), with its web page
    and, given a broker, publishing its table."""

    def __init__(self, tmp_path: Path, variant: str, kind: str, broker: str | None = None,
                 table: str = "1", time_control: str = "15+10"):
        self.db = str(tmp_path / f"{variant}-{table}.db")
        self.feed = BoardFeed()
        self.publisher = None
        if broker:
            self.publisher = BoardPublisher(broker, "screens", table)
            self.feed.listeners.append(self.publisher)
        self.pin = pins.board_pin(self.db)
        self.server = board_server(self.feed, self.pin, "127.0.0.1", 0).start()
        self.url = f"http://127.0.0.1:{self.server.port}/"
        self.settings = Settings(db_path=self.db, variant=variant, board_kind=kind, time_control=time_control,
                                 white="Ann Arbiter", black="Bob Board", event="Club night", round="3")
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)
        self._thread.start()
        assert self._ready.wait(10), "the board did not start"

    def _loop(self) -> None:
        store = GameStore(self.db)
        self.sim = Sim(self.settings, store, io.StringIO(), feed=self.feed)
        self.sim.controller.web_pin = self.pin
        self._ready.set()
        while not self._stop.is_set():
            self.sim.tick()
            while not self._jobs.empty():
                job, done = self._jobs.get()
                try:
                    done.append(job(self.sim))
                except Exception as exc:        # handed back to the test
                    done.append(exc)
            time.sleep(0.02)
        store.close()

    def run(self, job):
        done: list = []
        self._jobs.put((job, done))
        wait_for(lambda: done, timeout=30, what="the board's loop")
        if isinstance(done[0], Exception):
            raise done[0]
        return done[0]

    def play(self, plies: int, seed: int) -> list[str]:
        """``plies`` moves made by hand (lifts and placements), chosen by a
        simulated player; the moves made."""
        def job(sim):
            rng = random.Random(seed)
            for _ in range(plies):
                position = sim.controller.position
                if sim.controller.result != "*":
                    break
                move = pick_move(position, rng)
                for line in hand_lines(position, move, rng, 300):
                    sim.command(line, 1)
                assert sim.controller.moves[-1:] == [str(move)], (str(move), sim.controller.display)
            return list(sim.controller.moves)
        return self.run(job)

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5)
        self.server.close()
        if self.publisher is not None:
            self.publisher.close()


def show_all(browser, width: int, height: int) -> None:
    """A window ``width`` wide, tall enough for the whole page."""
    browser.set_window_size(width, height)
    full, chrome = browser.execute_script(
        "return [document.documentElement.scrollHeight, window.outerHeight - window.innerHeight];")
    if full > height - chrome:
        browser.set_window_size(width, min(full + chrome, 6000))


def page_text(browser) -> str:
    return browser.execute_script("return document.body.innerText;")


def check_board(browser, scope: str, variant: str, legend_scope: str | None = None) -> None:
    """Every drawn piece is a figure with its name (and side) in a title;
    only Optima's caps carry their label; the legend lists every name."""
    pieces = browser.execute_script(f"""
        return [...document.querySelectorAll({scope!r} + ' svg.board g.piece')].map((g) => [
            g.dataset.name, g.dataset.side, g.querySelector('title').textContent,
            [...g.querySelectorAll('text')].map((t) => t.textContent)]);""")
    assert pieces, "no pieces drawn"
    for name, side, title, texts in pieces:
        if variants.get(variant).family != "optima":
            assert texts == [], f"{title}: a letter drawn on a piece: {texts}"
        else:
            assert all(re.fullmatch(r"[A-Z]{2}", t) for t in texts), texts
        assert name and side in ("white", "black") and title.startswith(f"{side.title()} {name} "), title
    legend = browser.execute_script(f"""
        return [...document.querySelectorAll({legend_scope or scope!r} + ' .legend-list li')].map((li) => [
            li.dataset.name, li.querySelector('.name').textContent, li.querySelectorAll('svg.icon g.figure').length]);""")
    assert sorted({p[0] for p in pieces}) == [name for name, _, _ in legend]
    assert all(text == name and icons >= 1 for name, text, icons in legend)


def words_of_moves(text: str, variant: str) -> None:
    assert not FEN_MOVE.search(text), f"a move in FEN letters: {FEN_MOVE.search(text).group(0)!r} in {text!r}"
    game = variants.get(variant)
    names = {t.name for t in game.units or game.types}
    assert any(name in text for name in names), text


# ------------------------------------------------------------------ words
def test_moves_in_words_for_every_kind_of_move():
    """The move list's words (maxima_board.rules.words), one per kind of move."""
    from maxima_board.rules.words import move_words, plural
    assert move_words("maxima", "Pf3-f4xe4") == "Pawn f3-f4 takes e4"
    assert move_words("maxima", "Qd2-d5xd6,d7") == "Withdrawer d2-d5 takes d6, d7"
    assert move_words("maxima", "Dd7-d6xd6") == "Guard d7 takes d6"          # by replacement
    assert move_words("maxima", "Pd3-S") == "Pawn d3 removes itself"
    assert move_words("swapper-chess", "Sc1<>e5") == "Swapper c1 swaps with e5"
    assert move_words("swapper-chess", "Sc1-Sxd2") == "Swapper c1 takes d2 and removes itself"
    assert move_words("coordinator-chess", "Kf1-i1") == "King f1-i1 (castles)"
    assert move_words("coordinator-chess", "Pe9-e10=C") == "Pawn e9-e10, becomes Coordinator"
    assert move_words("optima", "VR*@e2") == "places royal Viceroy on e2"
    assert move_words("optima", "ARd4-d4xd7") == "Archer d4 takes d7, stays on d4"
    assert move_words("optima", "AGd4-f6^g7,h8") == "Agent d4-f6, converts g7, h8"
    assert move_words("optima", "PNe9-e10=WI") == "Pawn e9-e10, becomes Wizard"
    assert move_words("maxima", "Zd3-d4") == "Zd3-d4"          # unreadable: shown as it came
    assert (plural(1, "ply", "plies"), plural(2, "ply", "plies"), plural(1, "table")) == ("1 ply", "2 plies", "1 table")


def test_piece_names_per_game():
    """One name per letter (Optima: token) and game, for the OLED and the pages."""
    from maxima_board.rules.words import piece_name

    assert [piece_name("maxima", x) for x in "gQdm"] == ["Mage", "Withdrawer", "Guard", "Immobilizer"]
    assert piece_name("ultima", "W") == "Withdrawer" and piece_name("ultima", "l") == "Long Leaper"
    assert piece_name("swapper-chess", "s") == "Swapper" and piece_name("swapper-chess", "q") == "Queen"
    assert piece_name("optima", "VR*") == "Viceroy" and piece_name("optima", "wi") == "Wizard"
    with pytest.raises(KeyError):
        piece_name("ultima", "g")


def test_pieces_are_drawn_as_their_stand_ins_not_letters():
    """Issue 21: bare FEN letters on the board. Maxima's Withdrawer is the
    Queen players put there, the Immobilizer an upside-down Rook."""
    svg = board_svg(Position().fen())
    assert not re.search(r'<g class="piece"[^>]*>(?:(?!</g>).)*<text', svg), "a letter drawn on a piece"
    assert "<title>White Withdrawer d1 (a Queen)</title>" in svg
    assert 'rotate(180 50 50)' in svg                               # the upside-down Rook
    optima = board_svg(Position("start", "optima").fen(), variant="optima")
    assert "<title>White Pawn a3 (a chess Pawn)</title>" in optima


# ---------------------------------------------------------------- the page
@pytest.fixture(scope="module", params=list(GAMES))
def game_board(request, tmp_path_factory):
    variant = request.param
    kind, plies = GAMES[variant]
    board = ScreenBoard(tmp_path_factory.mktemp(variant), variant, kind)
    board.play(plies, seed=7)
    yield variant, board
    board.close()


def open_page(browser, board: ScreenBoard, size: tuple[int, int] = WIDTHS["desktop-1200"]) -> None:
    """The board's page, showing the board's newest state."""
    browser.set_window_size(*size)
    browser.get(board.url)
    plies = len(board.feed.latest["moves"])
    wait_for(lambda: len(browser.find_elements("css selector", "#moves li")) == (plies + 1) // 2
             and "to move" in browser.find_element("id", "status").text, what="the live state")


def test_page_draws_the_pieces_as_stand_ins_with_names_and_a_legend(browser, game_board):
    """Issue 21: bare FEN letters and no legend (in Maxima G is the Mage)."""
    variant, board = game_board
    open_page(browser, board)
    check_board(browser, "#board", variant, "#legend")


def test_the_script_keeps_the_servers_legend(browser, game_board):
    """board.js builds the legend from the board's SVG as webpage/svg.py does."""
    variant, board = game_board
    with urllib.request.urlopen(board.url, timeout=10) as reply:
        served = reply.read().decode().split('<ul id="legend-list" class="legend-list">')[1].split("</ul>")[0]
    open_page(browser, board)
    summary = """const lines = (ul) => [...ul.children].map((li) => [li.dataset.name, li.querySelector('.name').textContent,
                     (li.querySelector('.stand') || {}).textContent || '', li.querySelectorAll('svg.icon').length,
                     li.textContent]);"""
    live, drawn = browser.execute_script(summary + """
        const served = document.createElement('ul'); served.innerHTML = arguments[0];
        return [lines(document.getElementById('legend-list')), lines(served)];""", served)
    assert live == drawn and live


def test_page_writes_the_moves_in_words(browser, game_board):
    """Issue 21: the move list read ``Pf3-f4xe4``."""
    variant, board = game_board
    open_page(browser, board)
    words_of_moves(browser.find_element("id", "moves").text, variant)


def test_page_names_the_game(browser, game_board):
    variant, board = game_board
    open_page(browser, board)
    assert browser.find_element("id", "status").text.startswith(f"{variants.get(variant).title} · game 1 · ")
    assert browser.title.startswith(variants.get(variant).title)


def test_page_clocks_say_their_side_and_whose_turn(browser, game_board):
    variant, board = game_board
    open_page(browser, board)
    check_clocks([browser.find_element("id", f"clock-{side}") for side in ("white", "black")],
                 board.feed.latest["turn"])


def check_clocks(clocks, turn: str) -> None:
    """Two clocks, White's then Black's, each named, the side to move marked."""
    assert [c.find_element("css selector", ".side").text for c in clocks] == ["White", "Black"]
    assert [c.text.startswith(("White ", "Black ")) for c in clocks] == [True, True]
    assert ["to move" in c.text for c in clocks] == [turn == "white", turn == "black"]


@pytest.mark.parametrize("width", list(WIDTHS))
def test_the_page_at_phone_and_desktop_width(browser, game_board, width, shots):
    """Every game at every width, saved for people to look at."""
    variant, board = game_board
    open_page(browser, board, WIDTHS[width])
    show_all(browser, *WIDTHS[width])
    browser.save_screenshot(str(shots / f"page-{variant}-{width}.png"))
    check_board(browser, "#board", variant, "#legend")
    words_of_moves(browser.find_element("id", "moves").text, variant)
    check_clocks([browser.find_element("id", f"clock-{side}") for side in ("white", "black")],
                 board.feed.latest["turn"])
    assert browser.execute_script("return document.documentElement.scrollWidth <= window.innerWidth;")


def test_the_page_is_drawn_before_any_script(game_board, shots):
    """Issue 21: the page was drawn only by JavaScript ("connecting…" and an
    empty board). Plain HTTP, no script: the board, its legend, the moves in
    words, the clocks and the game's name are in the page."""
    variant, board = game_board
    with urllib.request.urlopen(board.url, timeout=10) as reply:
        html = reply.read().decode()
    latest = board.feed.latest
    assert html.count('<g class="piece"') == len(list(Position(latest["fen"], variant).pieces())) > 0
    assert '<ul id="legend-list" class="legend-list"><li data-name=' in html
    assert html.count('<span class="ply">') == len(latest["moves"])
    assert f'{variants.get(variant).title} · game 1 · Club night, round 3' in html
    assert '<span class="side">White</span>' in html and "connecting" not in html
    words_of_moves(re.sub(r"<[^>]+>", " ", html.split('id="moves"')[1].split("</ol>")[0]), variant)


def test_the_page_without_javascript_in_chromium(tmp_path, shots):
    """The page in Chromium with JavaScript switched off."""
    board = ScreenBoard(tmp_path, "maxima", "maxima")
    board.play(14, seed=7)
    driver = _chromium(javascript=False)
    try:
        driver.set_window_size(1200, 1000)
        driver.get(board.url)
        pieces = driver.find_elements("css selector", "#board svg g.piece")
        assert len(pieces) == len(list(Position(board.feed.latest["fen"]).pieces()))
        assert driver.find_element("id", "status").text.startswith("Maxima · game 1")
        driver.save_screenshot(str(shots / "page-maxima-no-javascript.png"))
    finally:
        driver.quit()
        board.close()


def _chromium(javascript: bool = True):
    chromium = next((p for p in CHROMIUM if os.path.exists(p)), None)
    driver_path = next((p for p in CHROMEDRIVER if os.path.exists(p)), None)
    if chromium is None or driver_path is None:
        pytest.skip("chromium and chromium-driver are not installed")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--no-first-run",
                "--disable-extensions"):
        options.add_argument(arg)
    if not javascript:
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    return webdriver.Chrome(options=options, service=Service(executable_path=driver_path))


def test_the_games_list_is_fetched_only_when_a_game_starts_or_ends(browser, tmp_path):
    """Issue 22: the page fetched /api/games after every move."""
    board = ScreenBoard(tmp_path, "maxima", "maxima")
    try:
        browser.get(board.url)
        wait_for(lambda: "White to move" in browser.find_element("id", "status").text, what="the live state")
        wait_for(lambda: "0 plies" in browser.find_element("id", "games").text, what="the games list")
        fetched = "return performance.getEntriesByType('resource').filter((e) => e.name.endsWith('/api/games')).length;"
        assert browser.execute_script(fetched) == 1
        board.play(3, seed=1)
        wait_for(lambda: "3 plies" in browser.find_element("id", "games").text, what="the plies counted live")
        assert browser.execute_script(fetched) == 1
        board.play(1, seed=2)
        wait_for(lambda: "4 plies" in browser.find_element("id", "games").text, what="the plies counted live")
        assert browser.execute_script(fetched) == 1
        def resign(sim):
            for _ in range(10):
                sim.command("press menu", 1)
                if any("Resign White?" in line for line in sim.controller.display):
                    return sim.command("press ok", 1)
            raise AssertionError(f"no Resign White? in the menu: {sim.controller.display}")
        board.run(resign)
        wait_for(lambda: "0-1" in browser.find_element("id", "result").text, what="the result")
        wait_for(lambda: browser.execute_script(fetched) == 2, what="the list fetched when the game ended")
        board.play(0, seed=3)
        assert browser.execute_script(fetched) == 2
    finally:
        board.close()


# ------------------------------------------------------------ the dashboard
@pytest.fixture(scope="module")
def club(broker, tmp_path_factory):
    """Four tables (Maxima, Ultima, Swapper Chess, Optima) publishing
    through Mosquitto to a dashboard."""
    tables = ClubTables(broker.address, "screens")
    server = dashboard_server(tables, "127.0.0.1", 0).start()
    boards = []
    try:
        for n, (variant, (kind, plies)) in enumerate(GAMES.items(), 1):
            board = ScreenBoard(tmp_path_factory.mktemp(f"table{n}"), variant, kind, broker.address, str(n))
            boards.append(board)
            board.play(plies, seed=n)
            assert board.publisher.flush(10)
        url = f"http://127.0.0.1:{server.port}/"
        wait_for(lambda: [len(t["moves"] or []) for t in tables.tables()] ==
                 [len(b.feed.latest["moves"]) for b in boards], what="every table on the dashboard")
        yield url, boards
    finally:
        for board in boards:
            board.close()
        server.close()
        tables.close()


def open_dashboard(browser, club, size: tuple[int, int] = WIDTHS["desktop-1200"]) -> list:
    """The dashboard with every table's newest state: the cards."""
    url, boards = club
    browser.set_window_size(*size)
    browser.get(url)
    wait_for(lambda: browser.execute_script(
        "return [...document.querySelectorAll('article.table')].map((a) => a.dataset.plies).join();")
        == ",".join(str(len(b.feed.latest["moves"])) for b in boards), what="every card")
    return browser.find_elements("css selector", "article.table")


def test_cards_name_the_game(browser, club):
    cards = open_dashboard(browser, club)
    for card, variant in zip(cards, GAMES):
        assert variants.get(variant).title in card.find_element("css selector", "h2").text.split("\n")[-1]


def test_card_clocks_say_their_side_and_whose_turn(browser, club):
    """Issue 21: "⏱ 10:00 – 9:05", no sides, no side to move."""
    cards = open_dashboard(browser, club)
    for card, board in zip(cards, club[1]):
        check_clocks(card.find_elements("css selector", ".clock"), board.feed.latest["turn"])


def test_card_pieces_are_stand_ins_with_names_and_a_legend(browser, club):
    cards = open_dashboard(browser, club)
    for card, variant in zip(cards, GAMES):
        check_board(browser, f'article.table[data-table="{card.get_attribute("data-table")}"]', variant)


def test_card_last_move_in_words(browser, club):
    cards = open_dashboard(browser, club)
    for card, board, variant in zip(cards, club[1], GAMES):
        last = card.find_element("css selector", ".last").text
        words_of_moves(last, variant)
        assert last.endswith(f"· {len(board.feed.latest['moves'])} plies")


def check_grid(browser, cards, width: str) -> None:
    columns = browser.execute_script(
        "return getComputedStyle(document.getElementById('tables')).gridTemplateColumns.split(' ').length;")
    lefts = {card.location["x"] for card in cards}
    right = max(card.location["x"] + card.size["width"] for card in cards)
    if width == "phone":
        assert columns == 1 and len(lefts) == 1
        assert browser.execute_script("return document.documentElement.scrollWidth <= window.innerWidth;")
    else:   # the cards side by side, filling the width
        assert len(lefts) == 4, f"{len(lefts)} column(s) of cards"
        assert right >= 0.9 * browser.execute_script("return window.innerWidth;")


def test_cards_fill_1200_px_as_a_grid(browser, club):
    """Issue 21: the cards sat in one narrow column at 1200 px."""
    check_grid(browser, open_dashboard(browser, club), "desktop-1200")


def check_optima_labels(browser) -> None:
    square, labels = browser.execute_script("""
        const card = document.querySelector('article.table[data-table="4"]');
        const rect = card.querySelector('svg.board rect').getBoundingClientRect();
        return [rect.width, [...card.querySelectorAll('svg.board g.piece text')].map((t) => {
            const b = t.getBoundingClientRect(); return [b.width, b.height]; })];""")
    assert labels, "no Optima cap on the card"
    too_small = [(w, h) for w, h in labels if h < 12 or w > 0.8 * square]
    assert not too_small, f"labels not readable in {square:.0f} px squares: {too_small[:3]}"


def test_optima_is_readable_on_a_card(browser, club):
    """Issue 21: Optima's tokens were unreadable at card size: every cap's
    label is at least 12 px high (a font of 10.5 px) and fits its cap."""
    open_dashboard(browser, club)
    check_optima_labels(browser)


@pytest.mark.parametrize("width", list(WIDTHS))
def test_the_dashboard_at_phone_and_desktop_width(browser, club, width, shots):
    """The four tables at every width, saved for people to look at."""
    cards = open_dashboard(browser, club, WIDTHS[width])
    if width == "desktop-1200":      # every legend open, once, to be looked at
        browser.execute_script("document.querySelectorAll('article.table details').forEach((d) => d.open = true);")
    show_all(browser, *WIDTHS[width])
    browser.save_screenshot(str(shots / f"dashboard-{width}.png"))
    assert browser.find_element("id", "status").text == "4 tables"
    for card, board, variant in zip(cards, club[1], GAMES):
        assert card.find_element("css selector", ".game-name").text == variants.get(variant).title
        check_board(browser, f'article.table[data-table="{card.get_attribute("data-table")}"]', variant)
        words_of_moves(card.find_element("css selector", ".last").text, variant)
        check_clocks(card.find_elements("css selector", ".clock"), board.feed.latest["turn"])
    check_grid(browser, cards, width)
    check_optima_labels(browser)


def test_the_dashboard_is_drawn_before_any_script(club):
    url, boards = club
    with urllib.request.urlopen(url, timeout=10) as reply:
        html = reply.read().decode()
    assert html.count('<article class="table') == 4 and html.count('<svg xmlns') == 4
    for variant in GAMES:
        assert f'<span class="game-name">{variants.get(variant).title}</span>' in html
    assert html.count('<span class="side">White</span>') == 4
    assert "4 tables" in html and "connecting" not in html
    for last in re.findall(r'<div class="last">([^<]*)</div>', html):
        assert not FEN_MOVE.search(last), last


def test_the_dashboard_writes_moves_as_the_engine_does(browser, club):
    """dashboard.js's moveWords and maxima_board.rules.words.move_words agree."""
    from maxima_board.rules.words import move_words
    url, _ = club
    browser.get(url)
    labels = [("maxima", "Pf3-f4xe4"), ("maxima", "Gb9-a8"), ("maxima", "Dd7-d6xd6"), ("maxima", "Pd3-S"), ("swapper-chess", "Sc1<>e5"),
              ("swapper-chess", "Sc1-Sxd2"), ("coordinator-chess", "Kf1-i1"), ("coordinator-chess", "Pe9-e10=C"),
              ("optima", "VR*@e2"), ("optima", "ARd4-d4xd7"), ("optima", "AGd4-f6^g7,h8"), ("optima", "PNe9-e10=WI"),
              ("ultima", "Ld1-d8xd3,d5"), ("maxima", "<b>x</b>"), ("nosuch", "Pd3-d4")]
    got = browser.execute_script("return arguments[0].map(([v, l]) => moveWords(v, l));", labels)
    want = [move_words(v if v != "nosuch" else "maxima", label) for v, label in labels]
    assert got == want


def test_one_table_and_one_ply_are_singular(browser, broker, tmp_path):
    """Issue 21: "1 plies", "1 tables"."""
    tables = ClubTables(broker.address, "single")
    server = dashboard_server(tables, "127.0.0.1", 0).start()
    board = ScreenBoard(tmp_path, "maxima", "maxima", None)
    publisher = BoardPublisher(broker.address, "single", "1")
    board.feed.listeners.append(publisher)
    try:
        board.play(1, seed=3)
        wait_for(lambda: [len(t["moves"] or []) for t in tables.tables()] == [1], what="the table")
        browser.get(f"http://127.0.0.1:{server.port}/")
        wait_for(lambda: browser.find_element("id", "status").text == "1 table", what="one table")
        wait_for(lambda: browser.find_element("css selector", "article.table .last").text.endswith("· 1 ply"),
                 what="one ply")
        browser.get(board.url)
        wait_for(lambda: "1 ply" in browser.find_element("id", "games").text, what="the games list")
        assert "plies" not in browser.find_element("id", "games").text
    finally:
        publisher.close()
        board.close()
        server.close()
        tables.close()


def _covered(char: str) -> bool:
    """Whether a Liberation font (Debian's chromium recommends
    fonts-liberation) has a glyph for ``char``."""
    out = subprocess.run(["fc-list", f":charset={ord(char):x}", "family"], capture_output=True, text=True).stdout
    return "Liberation" in out


def test_no_glyph_is_missing_with_debians_fonts(browser, club):
    """Issue 21: the clock symbol was an empty box in Debian's Chromium.
    Every character the page and the dashboard show is in the Liberation
    fonts that Debian installs with chromium."""
    if shutil.which("fc-list") is None or not _covered("A"):
        pytest.skip("fontconfig or the Liberation fonts (fonts-liberation) are missing")
    url, boards = club
    seen = set()
    for page in (url, boards[0].url, boards[3].url):
        browser.get(page)
        wait_for(lambda: browser.find_elements("css selector", "svg.board g.piece"), what="a board")
        time.sleep(1.0)                  # the live state and its clocks
        text = browser.execute_script(
            "return document.body.innerText + [...document.querySelectorAll('svg text')].map((t) => t.textContent).join('')"
            " + [...document.querySelectorAll('summary')].map((s) => s.textContent).join('');")
        seen |= {ch for ch in text if ord(ch) > 126}
    missing = sorted(ch for ch in seen if not _covered(ch))
    assert not missing, f"no glyph in Debian's Liberation fonts for {[f'U+{ord(c):04X}' for c in missing]}"


# ---------------------------------------------------------------- escaping
def test_the_page_escapes_what_players_typed(browser, tmp_path):
    """The served page writes names from the new-game form as text."""
    import json

    board = ScreenBoard(tmp_path, "maxima", "maxima")
    hostile = '<img src=x onerror="document.title=1">'
    try:
        request = urllib.request.Request(board.url + "api/new-game", json.dumps(
            {"pin": board.pin, "white": hostile, "black": "Bob & Co", "setup": "off"}).encode(),
            {"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as reply:
            assert json.loads(reply.read())["ok"]
        wait_for(lambda: board.feed.latest["tags"]["White"] == hostile, what="the new game")
        with urllib.request.urlopen(board.url, timeout=10) as reply:
            html = reply.read().decode()
        assert "<img" not in html and "&lt;img src=x onerror=&quot;document.title=1&quot;&gt; – Bob &amp; Co" in html
        browser.get(board.url)
        assert browser.find_element("id", "players").text == f"{hostile} – Bob & Co"
        assert not browser.find_elements("css selector", "header img")
    finally:
        board.close()


def test_the_dashboard_escapes_and_survives_hostile_tables(broker):
    """Whatever a table publishes, the served dashboard writes it as text
    and draws the other tables."""
    import json

    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    tables = ClubTables(broker.address, "hostile")
    server = dashboard_server(tables, "127.0.0.1", 0).start()
    client = mqtt.Client(CallbackAPIVersion.VERSION2)
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    fen = Position().fen()
    states = {
        "t<b>1": {"title": "Maxima", "variant": "maxima", "fen": fen, "turn": "white",
                  "tags": {"White": "W", "Black": 7}, "moves": ["d3-d4"], "sans": ["<i>x</i>"],
                  "leds": ["a1"], "last": {"from": ["d3"]}, "clocks": {"white": "x", "black": None}},
        "2": {"title": "Ultima", "variant": "nosuch", "fen": "not a fen", "tags": "x", "moves": {"a": 1},
              "sans": None, "clocks": [1, 2], "result": "<u>1-0</u>", "reason": "<s>"},
        "h1": {"title": "<script>alert(1)</script>", "variant": "maxima", "fen": fen, "turn": "white",
               "tags": {"White": "<b>W</b>", "Black": "<i>B</i>"}, "moves": [], "sans": [], "leds": {},
               "last": None, "clocks": None, "result": "*", "mode": "play"},
        "3": {"title": "Maxima", "variant": "maxima", "fen": fen, "turn": "white", "tags": {}, "moves": [],
              "sans": [], "leds": {}, "last": None, "clocks": None, "result": "*", "mode": "play"},
    }
    try:
        for table, state in states.items():
            client.publish(f"maxima-board/hostile/{table}/state", json.dumps(state), qos=1, retain=False).wait_for_publish(5)
        # malformed states are dropped and counted; well-formed ones with markup are drawn as text
        wait_for(lambda: sorted(t["table"] for t in tables.tables()) == ["3", "h1"]
                 and sum(tables.stats()["dropped"].values()) >= 2, what="two tables kept, two states dropped")
        with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/", timeout=10) as reply:
            assert reply.status == 200
            html = reply.read().decode()
        for raw in ("<script>alert", "<b>W", "<i>B", "<i>x", "<u>1-0", "t<b>1"):
            assert raw not in html, raw
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "&lt;b&gt;W&lt;/b&gt;" in html
        assert html.count('<article class="table') == 2 and html.count("<svg xmlns") == 2
    finally:
        client.loop_stop()
        client.disconnect()
        server.close()
        tables.close()


def test_the_stand_ins_are_the_ones_the_building_guide_names():
    """The figures follow docs/building.md's tables "Which pieces stand for
    which type" (Maxima, Ultima): the chess piece, turned over, ringed or
    without its cross as the guide says."""
    from maxima_board.webbase.figures import stand_in

    text = (Path(__file__).resolve().parents[2] / "docs" / "building.md").read_text()
    for game, heading in (("maxima", "\n### Maxima\n"), ("ultima", "\n### Ultima\n")):
        section = text.split(heading, 1)[1].split("\n### ", 1)[0]
        rows = re.findall(r"^\| ([A-Z][A-Za-z ()]+?) \| ([a-z]) \| \d+ \| ([^|]+) \|$", section, re.M)
        assert len(rows) == len(variants.get(game).types), (game, rows)
        for _, letter, piece in rows:
            name = variants.get(game).type_of(letter).name
            drawn = stand_in(variants.get(game), name)
            assert drawn.figure == re.search(r"King|Queen|Rook|Bishop|Knight|Pawn", piece).group(0).lower(), name
            assert drawn.flipped == ("upside down" in piece), name
            assert drawn.ring == ("ring" in piece), name
            assert drawn.cross == ("cross" not in piece), name


def test_the_page_before_the_board_starts_and_for_every_game():
    """board_page without a snapshot, and with the start of every game."""
    from maxima_board.webbase.page import board_page

    html = board_page(None)
    assert "the board is starting…" in html and "<svg" not in html and 'id="new-game-form"' in html
    for game in variants.all_variants():
        snapshot = {"game": 1, "variant": game.name, "title": game.title, "tags": {}, "fen": game.start_fen,
                    "turn": "white", "moves": [], "sans": [], "move_texts": [], "last": None, "leds": {},
                    "display": [], "mode": "play", "result": "*", "reason": None, "clocks": None}
        html = board_page(snapshot, [{"id": game.name, "name": game.title}])
        assert f"{game.title} · game 1 · White to move" in html and "<svg" in html, game.name
        assert html.count('<g class="piece"') == len(list(Position(game.start_fen, game.name).pieces()))
