"""The board's page fits the window (issue 32, finding 5): at 1200×900 the
Maxima board was taller than the window (rank 0 and the file letters cut
off) with the right half empty; on a phone the moves were two screens down
under a nine-row legend. Now the whole board, its coordinates too, is in the
viewport, the move list beside it on a desktop and right under it on a phone.
Screenshots at 390, 1200 and 1920 px go to ``MAXIMA_BOARD_SCREENSHOTS`` (else
a temporary directory)."""
from __future__ import annotations

import pytest

from .test_club_screens import ScreenBoard, open_page, shots  # noqa: F401  (shots: a fixture)

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
