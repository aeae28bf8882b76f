"""The simulator prints a page's OLED when it opens, changes and closes,
not again for each second of its countdown (issue 32, finding 5)."""
from __future__ import annotations

import io

from maxima_board.board.closing import CLOSE_MS
from maxima_board.board.settings import Settings
from maxima_board.cli.sim import Sim
from maxima_board.storage.store import GameStore


class Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


def oled_lines(out: io.StringIO) -> list[str]:
    return [line for line in out.getvalue().splitlines() if line.startswith("oled ")]


def test_a_menu_is_printed_when_it_opens_and_when_it_closes_not_each_second():
    clock, out, store = Clock(), io.StringIO(), GameStore(":memory:")
    sim = Sim(Settings(), store, out, clock=clock)
    try:
        sim.tick()
        sim.command("press menu", 1)               # the chooser
        sim.command("press menu", 2)               # its MENU row: the menu's first question
        before = len(oled_lines(out))
        assert "Menu 1/5" in oled_lines(out)[-1] and oled_lines(out)[-1].count("20s") == 1
        for _ in range(CLOSE_MS // 1000 + 2):      # the countdown runs out, second by second
            clock.t += 1
            sim.tick()
        printed = oled_lines(out)[before:]
        assert len(printed) == 1, printed          # the page closed: the game's screen again
        assert "Menu" not in printed[0] and not any(f" {n}s" in printed[0] for n in range(1, 20))
        sim.command("press menu", 3)
        sim.command("press menu", 4)
        sim.command("press menu", 5)               # MENU: the next question, printed at once
        assert "Menu 2/5" in oled_lines(out)[-1]
    finally:
        sim.close()
        store.close()
