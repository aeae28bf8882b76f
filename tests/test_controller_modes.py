"""The controller's modes are classes, and the MENU takes items from outside."""
from __future__ import annotations

from maxima_board.board.core import Controller
from maxima_board.board.modes import EndedMode, PlayMode, SetupMode, SyncMode
from maxima_board.service.script import Runner
from maxima_board.board.settings import Settings
from maxima_board.storage.store import GameStore


def test_each_mode_name_is_its_class():
    c = Controller(Settings(), GameStore(":memory:"))
    assert isinstance(c.current_mode, SetupMode) and c.mode == "setup"
    runner = Runner(Settings())
    c = runner.controller
    assert isinstance(c.current_mode, PlayMode) and c.mode == "play"
    runner.lift("d3"), runner.place("d4"), runner.wait(400)
    runner.press("back")
    assert isinstance(c.current_mode, SyncMode) and c.mode == "sync"
    runner.press("menu"), runner.press("menu"), runner.press("ok")   # the game chooser, its MENU row: "Resign White?"
    assert isinstance(c.current_mode, EndedMode) and c.mode == "ended"


def test_menu_items_added_from_outside_come_after_the_standard_ones():
    calls = []
    runner = Runner(Settings())
    c = runner.controller
    c.add_menu_item("Hint?", lambda now: calls.append(now) or [{"type": "hint"}])
    runner.press("menu")
    seen = [c.display[-1]]
    for _ in range(5):   # the game chooser, Resign White?, Resign Black?, Agree draw?, New game?
        runner.press("menu")
        seen.append(" ".join(c.display[2:]))
    assert "Hint? OK = yes" in seen[-1]
    assert not any("Hint?" in s for s in seen[:-1])
    runner.wait(10)
    events = runner.press("ok")
    assert {"type": "hint"} in events and calls == [runner.now]
    assert c.mode == "play"


def test_menu_items_given_to_the_constructor():
    c = Controller(Settings(), GameStore(":memory:"), fen="start",
                   menu_items=[("Play the computer?", lambda now: [])])
    runner = Runner.attach(c, set(c.expected_squares), 0)
    for _ in range(6):
        runner.press("menu")
    assert "Play the computer?" in " ".join(c.display)
