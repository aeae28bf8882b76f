"""Issue 13: when the board link comes back, nothing commits until a fresh
frame has been seen and has settled. The last frame from before the outage
is never taken as settled (controller.md: the link-lost rule)."""
from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

from maxima_board.board.core import Controller
from maxima_board.service.runner import FakeClock, Runner
from maxima_board.board.settings import Settings
from maxima_board.storage.store import GameStore
from maxima_board.rules import START_FEN
from maxima_board.cli.assemble import NoDisplay, NoLeds
from maxima_board.devices.interfaces import BoardState
from maxima_board.devices.notify import Notifier

ROOT = Path(__file__).resolve().parent.parent

# A move half made (b3 -> b4) when the link drops; during the outage it is
# undone and another move (c3 -> c4) is made instead.
SCRIPT = """\
lift b3
place b4
link down
wait 500
lift b4
place b3
lift c3
place c4
link up
wait 2000
"""


def replay(text: str) -> list[dict]:
    r = subprocess.run([sys.executable, "-m", "maxima_board.cli.main", "replay", "-"], input=text, text=True,
                       capture_output=True, cwd=ROOT, timeout=60,
                       env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert r.returncode == 0, r.stderr
    return [json.loads(line) for line in r.stdout.splitlines()]


def test_replay_link_return_commits_the_move_on_the_board_not_the_one_from_before():
    events = replay(SCRIPT)
    moves = [e["move"] for e in events if e["type"] == "move"]
    assert moves == ["c3-c4"]
    assert not [e for e in events if e["type"] == "error"]


def test_nothing_commits_before_the_fresh_frame_has_settled():
    settings = Settings()
    c = Controller(settings, GameStore(":memory:"), fen=START_FEN)
    board = set(c.expected_squares)
    c.on_frame(0, frozenset(board))
    board -= {"b3"}
    c.on_frame(10, frozenset(board))
    board |= {"b4"}
    c.on_frame(20, frozenset(board))                  # b3-b4, not yet settled
    c.set_link(False, 30)
    events = c.set_link(True, 1000)                   # long after the old frame would have settled
    assert not [e for e in events if e["type"] == "move"]
    assert not [e for e in c.on_tick(5000) if e["type"] == "move"]   # no fresh frame: still nothing
    # the fresh frame (the same board) must itself settle
    assert not [e for e in c.on_frame(6000, frozenset(board)) if e["type"] == "move"]
    assert not [e for e in c.on_tick(6000 + settings.settle_ms - 1) if e["type"] == "move"]
    moves = [e["move"] for e in c.on_tick(6000 + settings.settle_ms) if e["type"] == "move"]
    assert moves == ["b3-b4"]


class OutageSource:
    """A SensorSource with a board link (``link_ok`` + ``read()`` as PicoLink):
    ``plan`` is a list of (from_ms, link_ok, squares)."""

    def __init__(self, plan):
        self.plan = plan
        self.link_ok = False

    def read(self, now_ms: int) -> BoardState | None:
        current = [p for p in self.plan if p[0] <= now_ms][-1]
        self.link_ok = current[1]
        return BoardState(frozenset(current[2])) if self.link_ok else None

    def close(self) -> None:
        pass


def test_runner_passes_the_first_frame_after_a_link_return_even_when_unchanged():
    """The board is the same after the outage: the runner still hands the
    fresh frame to the controller, so the half-made move is judged anew and
    commits once that frame has settled (not at once, not never)."""
    settings = Settings()
    controller = Controller(settings, GameStore(":memory:"), fen=START_FEN)
    start = set(controller.expected_squares)
    moved = (start - {"b3"}) | {"b4"}
    source = OutageSource([(0, True, start), (100, True, moved), (150, False, ()), (2000, True, moved)])
    clock = FakeClock()
    runner = Runner(controller, source, NoLeds(), NoDisplay(), clock=clock, notifier=Notifier(None),
                    log=io.StringIO())
    seen_at = []

    def stop(now):
        if controller.moves and not seen_at:
            seen_at.append(now)
        return now >= 4000

    runner.run(stop=stop)
    assert controller.moves == ["b3-b4"]
    assert seen_at and 2000 + settings.settle_ms <= seen_at[0] <= 2000 + settings.settle_ms + 30
