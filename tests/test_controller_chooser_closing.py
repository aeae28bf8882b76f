"""The way back of the pages over a game (``maxima_board.board.closing``): the game
chooser (``maxima_board.board.chooser``), the MENU's questions
(``maxima_board.board.modes.menu``: "Resign Black?", "Agree draw?"…) and the
questions asked on their own ("New game?", "Abandon game N?"). Each closes
by itself after its countdown, shown on the OLED, and at once when a piece
on the board is lifted or placed; the board's change then counts as it
would without the page. Nothing is chosen, resigned, abandoned or taken
back by either, and a press just after a page closed itself (meant for the
page) does nothing but say so."""
from __future__ import annotations

import re

import pytest

from maxima_board.board.closing import CLOSE_MS, IGNORED, QUIET_MS
from maxima_board.board.core import NOTE_MS
from maxima_board.service.script import Runner
from maxima_board.board.settings import Settings
from maxima_board.storage.store import GameStore
from maxima_board.devices.oled import layout

# Each page: the presses that open it in a game of Ultima on the 10×10 board
# (after a2-a4), and its heading with the countdown.
PAGES = {
    "chooser": (("menu", "ok"), "Choose a game"),            # the group page of four games
    "menu": (("menu", "menu"), "Menu 1/5"),                   # the chooser's MENU row: Resign Black?…
    "new game": (("new",), "Confirm"),                        # NEW: "New game?"
    "abandon": (("menu", "ok", "back"), "Confirm"),           # Ultima (pure) chosen: "Abandon game 1?"
}
HEADING = re.compile(r"(Choose a game|Menu \d+/\d+|Confirm) +(\d+)s")


def words(lines: list[str]) -> str:
    return " ".join(lines)


def heading(lines: list[str]) -> str | None:
    """The page's line with its countdown, None when no page is shown."""
    return next((line for line in lines if HEADING.fullmatch(line)), None)


def game(moved: bool = True) -> Runner:
    """A 10×10 board in play of Ultima (``moved``: after a2-a4, Black to move)."""
    runner = Runner(Settings(board_kind="10x10"), store=GameStore(":memory:"), board="10x10")
    if moved:
        runner.lift("b3"), runner.place("b5"), runner.wait(400)   # the board's b3: Ultima's a2
    return runner


def open_page(runner: Runner, page: str) -> None:
    presses, title = PAGES[page]
    for button in presses:
        runner.press(button)
    shown = heading(runner.controller.display)
    assert shown is not None and shown.startswith(title) and shown.endswith(" 20s"), runner.controller.display


def unchanged(runner: Runner, moves: list[str]) -> None:
    """Nothing was chosen, resigned, agreed, abandoned or taken back."""
    c = runner.controller
    assert c.mode == "play" and c.variant == "ultima" and c.game_id == 1 and c.moves == moves, c.display
    assert not c.store.game(1).finished


def test_the_chooser_group_page_has_no_row_going_back():
    runner = game()
    open_page(runner, "chooser")
    display = runner.controller.display
    assert [row[:4] for row in display[1:]] == ["OK  ", "BACK", "MENU", "NEW "]
    assert "<" not in words(display)          # four games: no row goes back


@pytest.mark.parametrize("page, keys", [("menu", "OK = yes, BACK = no, MENU = next."),
                                        ("new game", "OK = yes, BACK = cancel."),
                                        ("abandon", "OK = yes, BACK = cancel.")])
def test_a_question_names_the_buttons_it_takes(page, keys):
    """A question asked on its own has no next one: MENU is not offered (it would only close it)."""
    runner = game()
    open_page(runner, page)
    assert words(runner.controller.display).endswith(keys), runner.controller.display


@pytest.mark.parametrize("page", PAGES)
def test_a_page_counts_down_and_closes_by_itself_doing_nothing(page):
    runner = game()
    c = runner.controller
    open_page(runner, page)
    opened = runner.now
    assert CLOSE_MS == 20_000 and layout(c.display) == c.display   # drawn as it is, nothing cut
    runner.wait(1500)
    assert heading(c.display).endswith(" 19s")
    # the board sleeps between the countdown's steps: the next wake is the next whole second
    assert c.next_deadline() == opened + 2000
    runner.wait(CLOSE_MS - 1500 - 1)
    assert heading(c.display).endswith(" 1s")
    runner.wait(1)
    assert heading(c.display) is None and "Abandon" not in words(c.display), c.display
    unchanged(runner, ["a2-a4"])
    assert c.next_deadline() is None or c.next_deadline() > runner.now + 1000   # no countdown left


@pytest.mark.parametrize("page", PAGES)
def test_a_press_just_after_a_page_closed_itself_is_ignored_and_said_then_buttons_act_again(page):
    runner = game()
    c = runner.controller
    open_page(runner, page)
    runner.wait(CLOSE_MS)
    runner.wait(QUIET_MS - 1)
    runner.press("back")                      # meant for the page: no take-back, no question
    unchanged(runner, ["a2-a4"])
    assert heading(c.display) is None and IGNORED in words(c.display), c.display
    runner.wait(1)
    runner.press("back")                      # a second later BACK is BACK again: the take-back
    assert c.moves == [] and c.mode == "sync" and IGNORED not in words(c.display)


def test_the_ignored_press_is_said_for_a_while_then_the_game_shows_again():
    runner = game()
    c = runner.controller
    open_page(runner, "menu")
    runner.wait(CLOSE_MS + 200)
    before = c.display
    runner.press("ok")
    assert IGNORED in words(c.display)
    assert c.next_deadline() == runner.now + NOTE_MS   # the board wakes to take it away
    runner.wait(NOTE_MS - 1)
    assert IGNORED in words(c.display)
    runner.wait(1)
    assert c.display == before


def test_a_touch_takes_the_ignored_press_note_away_for_the_boards_guidance():
    runner = game()
    c = runner.controller
    open_page(runner, "chooser")
    runner.wait(CLOSE_MS + 200)
    runner.press("back")
    assert IGNORED in words(c.display)
    runner.lift("c8")
    assert IGNORED not in words(c.display)
    runner.wait(400)
    assert "In hand" in words(c.display), c.display


@pytest.mark.parametrize("page", PAGES)
def test_a_late_press_with_no_tick_between_still_finds_the_page_closed_and_does_nothing(page):
    runner = game()
    open_page(runner, page)
    runner.now += CLOSE_MS + 10               # the loop slept past the deadline: the press comes first
    runner.press("back")
    unchanged(runner, ["a2-a4"])
    assert "Abandon" not in words(runner.controller.display)


def test_a_press_on_the_chooser_restarts_its_countdown():
    runner = Runner(Settings(board_kind="10x10"), board="10x10")
    c = runner.controller
    runner.press("menu")
    runner.wait(CLOSE_MS - 1000)
    runner.press("back")                         # Coordinator etc >: a new page, a new countdown
    assert c.display[0].endswith(" 20s") and "Coordinator" in words(c.display)
    runner.wait(CLOSE_MS - 1)
    assert "Choose a game" in words(c.display)
    runner.wait(1)
    assert "Choose a game" not in words(c.display) and c.variant == "ultima"


def test_menu_stepping_to_its_next_question_restarts_its_countdown():
    runner = game()
    c = runner.controller
    open_page(runner, "menu")
    runner.wait(CLOSE_MS - 1000)
    assert heading(c.display) == "Menu 1/5           1s"
    runner.press("menu")                         # Resign White?: a new question, a new countdown
    assert heading(c.display) == "Menu 2/5          20s" and "Resign White?" in words(c.display)
    runner.wait(CLOSE_MS - 1)
    assert heading(c.display) == "Menu 2/5           1s"
    runner.wait(1)
    assert heading(c.display) is None
    unchanged(runner, ["a2-a4"])


@pytest.mark.parametrize("page", PAGES)
def test_lifting_a_piece_closes_the_page_its_ok_then_answers_nothing_and_the_move_counts(page):
    runner = game()
    c = runner.controller
    open_page(runner, page)
    runner.lift("c8")                         # Black plays on instead (the board's c8: Ultima's b7)
    assert heading(c.display) is None and "Abandon" not in words(c.display), c.display
    runner.press("ok")                        # no answer to a question gone: nothing resigned or chosen
    unchanged(runner, ["a2-a4"])
    runner.wait(400)
    assert "In hand" in words(c.display), c.display
    runner.place("c7"), runner.wait(400)
    unchanged(runner, ["a2-a4", "b7-b6"])


@pytest.mark.parametrize("page", PAGES)
def test_placing_the_piece_in_hand_when_the_page_opened_closes_it_and_the_move_counts(page):
    runner = game()
    c = runner.controller
    runner.lift("c8"), runner.wait(400)
    open_page(runner, page)                   # opened over "In hand"
    runner.place("c7")
    assert heading(c.display) is None, c.display
    runner.wait(400)
    unchanged(runner, ["a2-a4", "b7-b6"])


def test_a_whole_move_made_under_the_menu_counts_once_and_the_clock_goes_on():
    runner = Runner(Settings(board_kind="10x10", time_control="5+0"), board="10x10")
    c = runner.controller
    c.new_game(runner.now, fen="start", setup=False)
    runner.set_board(runner.board), runner.wait(400)
    open_page(runner, "menu")
    assert c.clock_running == "white"          # the menu does not stop the clock
    runner.lift("b3")
    assert heading(c.display) is None          # closed by the lift, before the move is known
    runner.place("b5"), runner.wait(400)
    assert c.moves == ["a2-a4"] and c.clock_running == "black"
    runner.wait(CLOSE_MS + QUIET_MS)
    assert c.moves == ["a2-a4"] and c.mode == "play"


def test_placing_a_piece_in_set_up_closes_the_page_and_set_up_counts_it():
    runner = Runner(Settings(board_kind="10x10"), board="10x10")
    c = runner.controller
    c.new_game(runner.now, setup=True)
    runner.set_board([]), runner.wait(400)
    before = words(c.display)
    assert "Place 32" in before, before
    runner.press("menu"), runner.press("back")     # Coordinator etc >
    runner.place("b3")                             # Ultima's a2, a square to fill
    assert "Choose a game" not in words(c.display) and c.variant == "ultima" and c.mode == "setup"
    runner.wait(400)
    assert "Place 31" in words(c.display)


@pytest.mark.parametrize("presses, row, title", [(("menu",), 0, "Choose a game"), (("menu", "menu"), 1, "Menu 1/5")])
def test_the_service_loop_closes_the_page_at_its_deadline_waking_once_a_second(presses, row, title):
    """The real loop (``maxima_board.service.runner``) on a board that reports by
    events: the countdown and the closing come from the controller's
    deadlines, one pass a second, with no polling."""
    from maxima_board.board.core import Controller
    from maxima_board.service.runner import FakeClock
    from maxima_board.rules import START_FEN
    from maxima_board.devices.interfaces import BoardState
    from tests.test_hw_runner import _quiet_runner

    clock = FakeClock(step_ms=None)
    runner = _quiet_runner(clock, controller=Controller(Settings(), GameStore(":memory:"), fen=START_FEN))
    runner.run(until_ms=1000)
    source, c = runner.source, runner.controller
    squares = source.state.squares
    at = 1000
    for button in presses:
        source.state = BoardState(squares, frozenset({button}))
        runner.waker.wake()
        runner.run(until_ms=at + 100)
        source.state = BoardState(squares)
        runner.waker.wake()
        runner.run(until_ms=at + 200)
        at += 200
    opened = at - 200   # the last press
    assert c.display[row] == title.ljust(18) + "20s" and runner.display.lines == c.display
    before = runner.passes
    runner.run(until_ms=opened + CLOSE_MS - 1)
    assert c.display[row] == title.ljust(18) + " 1s"
    runner.run(until_ms=opened + CLOSE_MS + 60_000)
    assert title not in " ".join(runner.display.lines) and c.mode == "play" and c.moves == []
    assert runner.passes - before <= CLOSE_MS // 1000 + 5, runner.passes - before   # a pass a second, then sleep
