"""``maxima-board sim`` sleeps while nothing is due: it wakes for the
controller's next deadline, a typed line, the computer's answer or a web
page command, never on a fixed tick."""
from __future__ import annotations

import io
import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from maxima_board.board.settings import Settings
from maxima_board.cli.sim import Sim
from maxima_board.storage.store import GameStore
from tests.test_sim_console import Terminal

ROOT = Path(__file__).resolve().parent.parent
IDLE_S = 1.5


def switches(pid: int) -> int:
    """Context switches of every thread of ``pid`` so far: each wake-up is one."""
    total = 0
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/status") as f:
                for line in f:
                    if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                        total += int(line.split()[1])
        except OSError:                 # a thread that ended meanwhile
            pass
    return total


def wakeups_while_idle(pid: int, seconds: float = IDLE_S) -> int:
    before = switches(pid)
    time.sleep(seconds)
    return switches(pid) - before


@pytest.fixture
def sim():
    store = GameStore(":memory:")
    out = io.StringIO()
    s = Sim(Settings(), store, out)
    yield s
    s.close()
    store.close()


def test_the_sim_wakes_at_the_controllers_deadlines_and_then_not_at_all(sim):
    settings = Settings()
    sim.command("lift d3", 1)
    sim.command("place d4", 2)
    placed = sim.runner.now                              # the time the placement reached the controller
    settled = placed + settings.settle_ms
    assert sim.next_deadline() == settled
    sim.wait()
    assert settled <= sim.now() < settled + 500           # woken at the settle time, not before
    assert "move 1 d3-d4" in sim.out.getvalue()          # the tick came when it was due
    waits = 0
    while sim.next_deadline() is not None:               # the last move's LEDs going out, ...
        sim.wait()
        waits += 1
        assert waits < 10
    assert "leds off" in sim.out.getvalue().split("move 1 d3-d4")[1]
    ticked = sim.runner.now
    started = time.monotonic()
    assert sim.wait(timeout_s=0.2) == []
    assert time.monotonic() - started >= 0.19
    assert sim.runner.now == ticked                      # nothing was due: no tick


def test_the_computers_answer_wakes_the_sim():
    from tests.test_opponent_board import sim_awaiting_the_computer

    with sim_awaiting_the_computer() as (sim, out):
        end = time.monotonic() + 20
        while "\ncomputer " not in out.getvalue() and time.monotonic() < end:
            sim.wait(timeout_s=20)       # only the answer's wake can end this wait early
        assert "\ncomputer " in out.getvalue()
        assert time.monotonic() < end


def test_an_idle_sim_at_a_terminal_does_not_wake(tmp_path):
    t = Terminal(tmp_path)
    try:
        t.expect(r"\n> ")
        time.sleep(2.0)                  # the start's settle and grace times pass
        wakes = wakeups_while_idle(t.proc.pid)
        assert wakes <= 3, f"{wakes} wake-ups in {IDLE_S} s at the prompt"
        t.type(b"lift d3\rplace d4\r")
        t.expect(r"move 1 d3-d4 ")       # and a move still settles while nobody types
        t.type(b"quit\r")
        assert t.close() == 0
    finally:
        if t.proc.poll() is None:
            t.proc.kill()


def test_an_idle_sim_reading_a_pipe_does_not_wake(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "maxima_board.cli.main", "sim", "--db", str(tmp_path / "games.db")],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            cwd=ROOT, env=env)
    try:
        proc.stdin.write(b"lift d3\nplace d4\n")
        proc.stdin.flush()
        seen = b""
        end = time.monotonic() + 20
        while b"move 1 d3-d4" not in seen and time.monotonic() < end:
            if select.select([proc.stdout], [], [], 0.5)[0]:
                seen += os.read(proc.stdout.fileno(), 65536)
        assert b"move 1 d3-d4" in seen               # the move settled while nothing was typed
        time.sleep(3.5)                              # its LEDs go out after 3 s
        wakes = wakeups_while_idle(proc.pid)
        assert wakes <= 3, f"{wakes} wake-ups in {IDLE_S} s waiting for input"
        proc.communicate(b"quit\n", timeout=20)
        assert proc.returncode == 0
    finally:
        if proc.poll() is None:
            proc.kill()
