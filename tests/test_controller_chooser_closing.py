"""The game chooser's way back (``controller.chooser``,
``controller.modes.choice``): a group's page of four games, whose every
button chooses a game, closes by itself after its countdown, shown in its
title bar, and at once when a piece on the board is lifted or placed; the
board's change then counts as it would without the chooser. Nothing is
chosen, abandoned or taken back by either, and a press just after the
page closed itself (meant for the page) does nothing."""
from __future__ import annotations

from controller.closing import CLOSE_MS, QUIET_MS
from controller.script import Runner
from controller.settings import Settings
from controller.store import GameStore


def words(lines: list[str]) -> str:
    return " ".join(lines)


def group_page(moved: bool = False) -> Runner:
    """A 10×10 board in play (``moved``: after Ultima's a2-a4), the group
    page of Ultima, Ultima (pure), Optima and Optima 9x9 shown."""
    runner = Runner(Settings(board_kind="10x10"), store=GameStore(":memory:"), board="10x10")
    if moved:
        runner.lift("b3"), runner.place("b5"), runner.wait(400)   # the board's b3: Ultima's a2
    runner.press("menu"), runner.press("ok")
    assert [row[:4] for row in runner.controller.display[1:]] == ["OK  ", "BACK", "MENU", "NEW "]
    assert "<" not in words(runner.controller.display)          # four games: no row goes back
    return runner


def test_a_four_game_page_counts_down_and_closes_by_itself_choosing_nothing():
    runner = group_page(moved=True)
    c = runner.controller
    opened = runner.now
    assert c.display[0] == "Choose a game     20s" and CLOSE_MS == 20_000
    runner.wait(1500)
    assert c.display[0].endswith(" 19s") and "Ultima (pure)" in words(c.display)
    # the board sleeps between the countdown's steps: the next wake is the next whole second
    assert c.next_deadline() == opened + 2000
    runner.wait(CLOSE_MS - 1500 - 1)
    assert c.display[0].endswith(" 1s")
    runner.wait(1)
    assert "Choose a game" not in words(c.display) and "Abandon" not in words(c.display)
    assert c.mode == "play" and c.variant == "ultima" and c.moves == ["a2-a4"] and c.game_id == 1
    assert c.next_deadline() is None or c.next_deadline() > runner.now + 1000   # no countdown left


def test_a_press_just_after_the_page_closed_itself_does_nothing_then_buttons_act_again():
    runner = group_page(moved=True)
    c = runner.controller
    runner.wait(CLOSE_MS)
    runner.wait(QUIET_MS - 1)
    runner.press("back")                      # meant for "BACK Ultima (pure)": no take-back, no question
    assert c.moves == ["a2-a4"] and c.mode == "play" and "Abandon" not in words(c.display)
    runner.wait(1)
    runner.press("back")                      # a second later BACK is BACK again: the take-back
    assert c.moves == [] and c.mode == "sync"


def test_a_late_press_with_no_tick_between_still_finds_the_page_closed_and_does_nothing():
    runner = group_page(moved=True)
    c = runner.controller
    runner.now += CLOSE_MS + 10               # the loop slept past the deadline: the press comes first
    runner.press("back")
    assert c.moves == ["a2-a4"] and c.variant == "ultima" and "Abandon" not in words(c.display)


def test_a_press_on_the_page_restarts_its_countdown():
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


def test_lifting_a_piece_closes_the_page_and_the_move_counts_as_usual():
    runner = group_page()
    c = runner.controller
    runner.lift("b3")
    assert "Choose a game" not in words(c.display), c.display
    runner.wait(400)
    assert "In hand" in words(c.display), c.display
    runner.place("b5"), runner.wait(400)
    assert c.moves == ["a2-a4"] and c.variant == "ultima" and c.game_id == 1


def test_a_touch_closes_the_abandon_question_and_its_ok_then_abandons_nothing():
    runner = group_page(moved=True)
    c = runner.controller
    runner.press("back")                      # Ultima (pure): the game has a move, so it asks
    assert "Abandon game 1?" in words(c.display)
    runner.lift("c8")                         # Black plays on instead: the question goes
    assert "Abandon" not in words(c.display)
    runner.press("ok")                        # OK now is no answer to the question gone
    assert c.variant == "ultima" and c.mode == "play" and c.game_id == 1
    runner.place("c7"), runner.wait(400)
    assert c.moves == ["a2-a4", "b7-b6"]
    assert not c.store.game(1).finished


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


def test_the_service_loop_closes_the_chooser_at_its_deadline_waking_once_a_second():
    """The real loop (``controller.runner``) on a board that reports by
    events: the countdown and the closing come from the controller's
    deadlines, one pass a second, with no polling."""
    from controller.core import Controller
    from controller.runner import FakeClock
    from engine import START_FEN
    from hardware.interfaces import BoardState
    from tests.test_hw_runner import _quiet_runner

    clock = FakeClock(step_ms=None)
    runner = _quiet_runner(clock, controller=Controller(Settings(), GameStore(":memory:"), fen=START_FEN))
    runner.run(until_ms=1000)
    source, c = runner.source, runner.controller
    squares = source.state.squares
    source.state = BoardState(squares, frozenset({"menu"}))
    runner.waker.wake()
    runner.run(until_ms=1100)
    source.state = BoardState(squares)
    runner.waker.wake()
    runner.run(until_ms=1200)
    assert c.display[0] == "Choose a game     20s" and runner.display.lines == c.display
    before = runner.passes
    runner.run(until_ms=1000 + CLOSE_MS - 1)
    assert c.display[0] == "Choose a game      1s"
    runner.run(until_ms=1000 + CLOSE_MS + 60_000)
    assert "Choose a game" not in " ".join(runner.display.lines) and c.mode == "play" and c.moves == []
    assert runner.passes - before <= CLOSE_MS // 1000 + 5, runner.passes - before   # a pass a second, then sleep
