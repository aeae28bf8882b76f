"""The OLED names pieces in words, never FEN letters (issue 21)."""
from __future__ import annotations

from maxima_board.service.script import Runner
from maxima_board.board.settings import Settings


def test_take_back_names_the_piece_in_words():
    runner = Runner(Settings())
    c = runner.controller
    runner.lift("d3"), runner.place("d4"), runner.wait(400)
    runner.press("back")
    assert c.display[1] == "Undo Pawn d3-d4", c.display
    runner.lift("d4"), runner.place("d3"), runner.wait(400)
    runner.lift("a3"), runner.place("a4"), runner.wait(400)
    runner.press("back")
    assert c.display[1] == "Undo Guard a3-a4", c.display   # Maxima's D: not "Da3-a4"
