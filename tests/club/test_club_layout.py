"""The board's page fits the window (issue 32, finding 5): at 1200×900 the
Maxima board was taller than the window (rank 0 and the file letters cut
off) with the right half empty; on a phone the moves were two screens down
under a nine-row legend. Now the whole board, its coordinates too, is in the
viewport, the move list beside it on a desktop and right under it on a phone.
The dashboard of four tables: each card's clocks on one line, its small
board with coordinates, the club named once. Screenshots at 390, 1200 and
1920 px go to ``MAXIMA_BOARD_SCREENSHOTS`` (else
a temporary directory)."""
from __future__ import annotations

import pytest

from .test_club_screens import WIDTHS, ScreenBoard, club, open_dashboard, open_page, shots  # noqa: F401 (fixtures)

SIZES = {"phone": (390, 844), "desktop-1200": (1200, 900), "desktop-1920": (1920, 900)}


@pytest.fixture(scope="module")
def maxima_board(tmp_path_factory):
    board = ScreenBoard(tmp_path_factory.mktemp("layout"), "maxima", "maxima")
    board.play(14, seed=7)
    yield board
    board.close()


@pytest.fixture(autouse=True)
def phone_window_after(request):
    yield
    browser = request.getfixturevalue("browser")
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    browser.set_window_size(420, 900)


def viewport(browser, width: int, height: int) -> None:
    """The viewport ``width`` × ``height`` exactly (a headless window is at least 500 px wide: a phone's
    screen is emulated, as the browser's device mode does)."""
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
    assert browser.execute_script("return [window.innerWidth, window.innerHeight];") == [width, height]


def geometry(browser) -> dict:
    return browser.execute_script("""
        const box = (e) => { const r = e.getBoundingClientRect();
                             return {left: r.left, top: r.top, right: r.right, bottom: r.bottom}; };
        const svg = document.querySelector('#board svg');
        return {board: box(svg), moves: box(document.getElementById('moves')),
                coordinates: [...svg.querySelectorAll(':scope > text')].map((t) => [t.textContent, box(t)]),
                width: window.innerWidth, height: window.innerHeight};""")


def inside(box: dict, width: int, height: int) -> bool:
    return box["left"] >= 0 and box["top"] >= 0 and box["right"] <= width and box["bottom"] <= height


@pytest.mark.parametrize("size", list(SIZES))
def test_the_whole_board_is_in_the_window_with_the_moves_beside_or_right_under_it(browser, maxima_board, size,
                                                                                 shots):  # noqa: F811
    width, height = SIZES[size]
    viewport(browser, width, height)
    open_page(browser, maxima_board, (max(width, 500), height))
    browser.execute_script("window.scrollTo(0, 0);")
    browser.save_screenshot(str(shots / f"layout-maxima-{size}.png"))
    seen = geometry(browser)
    board, moves = seen["board"], seen["moves"]
    assert inside(board, width, height), (board, width, height)
    labels = [text for text, _ in seen["coordinates"]]
    assert "0" in labels and "10" in labels and all(f in labels for f in "abcdefgh"), labels
    cut = [text for text, box in seen["coordinates"] if not inside(box, width, height)]
    assert not cut, f"coordinates outside the window: {cut}"
    if size == "phone":     # right under the board: only the list's heading between them
        assert moves["top"] >= board["bottom"] and moves["top"] - board["bottom"] <= 80, (board, moves)
    else:                   # beside it, starting at its top
        assert moves["left"] >= board["right"] and moves["top"] <= board["top"] + 40, (board, moves)
    assert browser.execute_script("return document.documentElement.scrollWidth <= window.innerWidth;")
    assert not browser.execute_script("return document.getElementById('legend').open;")   # the legend folded


@pytest.mark.parametrize("size", list(WIDTHS))
def test_the_dashboards_cards_keep_their_clocks_on_one_line_and_their_boards_coordinates(
        browser, club, size, shots):  # noqa: F811
    width, height = WIDTHS[size]
    viewport(browser, width, height)
    cards = open_dashboard(browser, club, (max(width, 500), height))
    assert len(cards) == 4
    browser.save_screenshot(str(shots / f"layout-dashboard-{size}.png"))
    assert browser.find_element("id", "club").text == "screens · club dashboard"
    assert browser.find_element("id", "empty").get_attribute("hidden") is not None
    seen = browser.execute_script("""
        return [...document.querySelectorAll('article.table')].map((card) => [
            card.dataset.table,
            [...card.querySelectorAll('.clocks-line .clock')].map((c) => {
                const r = c.getBoundingClientRect(); return [r.top, r.bottom, c.getClientRects().length]; }),
            [...card.querySelectorAll('svg.board > text')].map((t) => t.textContent),
            [...card.querySelectorAll('svg.board > text')].map((t) => t.getBoundingClientRect().height)]);""")
    for table, clocks, labels, heights in seen:
        assert len(clocks) == 2, (table, clocks)
        (top1, bottom1, lines1), (top2, bottom2, lines2) = clocks
        assert abs(top1 - top2) < 1 and lines1 == lines2 == 1, f"table {table}: clocks wrapped {clocks}"
        assert "a" in labels and "h" in labels and ("1" in labels and "8" in labels), (table, labels)
        assert min(heights) >= 8, f"table {table}: coordinates {min(heights):.1f} px high"
