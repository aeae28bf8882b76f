"""End to end: a simulated Pico (the firmware's own logic on a simulated
matrix, speaking over a pty) plays a scripted game with the controller.

1. In process, simulated clock: maxima_board.service.runner.Runner + Controller +
   PicoLink, the Pico interleaved with the runner's sleeps; the USB cable is
   pulled during a move and the firmware resets mid-game — no move is lost.
2. Out of process, real time: ``maxima-board run`` with ``hardware = "pico"``
   and the pty as the device; the moves end up in the game database.
"""
from __future__ import annotations

import os
import random
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
import serial

from maxima_board.rules import Position
from maxima_board.devices.matrix_map import MatrixMap
from maxima_board.devices.pico_sim import SimPico
from maxima_board.devices.protocol import encode_leds
from maxima_board.devices.serial_link import PicoLink

core = pytest.importorskip("maxima_board.board.core", reason="controller.core not available")
runner_mod = pytest.importorskip("maxima_board.service.runner", reason="controller.runner not available")
from maxima_board.board.settings import Settings  # noqa: E402
from maxima_board.storage.store import GameStore  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
MAP = MatrixMap()


def scripted_game(plies: int, seed: int) -> list[str]:
    """A reproducible legal game from the start (no suicides)."""
    pos = Position()
    rnd = random.Random(seed)
    moves = []
    for _ in range(plies):
        legal = sorted((m for m in pos.legal_moves if m.kind != "suicide"), key=str)
        move = rnd.choice(legal)
        moves.append(str(move))
        pos.push(move)
    return moves


def occupied(pos: Position) -> set[str]:
    names = pos.geometry.names
    occ = pos.occupancy()
    return {names[i] for i in range(len(names)) if occ >> i & 1}


def hand_actions(pos: Position, text: str) -> list[tuple[str, str]]:
    """What a player's hands do for a move: (lift|place, square) in order.
    A replacement capture lifts the victim first; other captured pieces are
    taken off after the mover is placed."""
    move = pos.parse_move(text)
    names = pos.geometry.names
    acts = [("lift", names[move.from_square])]
    if move.kind == "replacement":
        acts.append(("lift", names[move.to_square]))
    if move.to_square is not None:
        acts.append(("place", names[move.to_square]))
    acts += [("lift", names[c]) for c in move.captures if c != move.to_square]
    return acts


class World:
    """The board in front of the players: squares occupied, as the simulated
    Pico's matrix sees them."""

    def __init__(self, sim: SimPico) -> None:
        self.sim = sim
        self.squares: set[str] = set()

    def set(self, squares: set[str]) -> None:
        self.squares = set(squares)
        self.sim.matrix.set({MAP.position_of[s] for s in self.squares})

    def act(self, action: str, square: str) -> None:
        if action == "lift":
            self.squares.discard(square)
        else:
            self.squares.add(square)
        self.set(self.squares)


def schedule_for(moves: list[str], start_ms: int, step_ms: int = 150, settle_wait_ms: int = 900,
                 pause_after: dict[int, int] | None = None):
    """(time, action, square) for the whole game, the start time of each
    move, and the end time. ``pause_after``: extra ms after move i."""
    pos = Position()
    out, starts = [], []
    t = start_ms
    for i, text in enumerate(moves):
        starts.append(t)
        for action, square in hand_actions(pos, text):
            out.append((t, action, square))
            t += step_ms
        pos.push(text)
        t += settle_wait_ms + (pause_after or {}).get(i, 0)
    return out, starts, t


def opener(sim: SimPico):
    def factory():
        if sim.path is None:
            raise serial.SerialException("unplugged")
        return serial.Serial(sim.path, 115200, timeout=0, write_timeout=0)
    return factory


class Screen:
    def __init__(self) -> None:
        self.history: list[list[str]] = []

    def show(self, lines) -> None:
        self.history.append(list(lines))

    def close(self) -> None:
        pass


def test_scripted_game_through_the_runner_with_unplug_and_reset(tmp_path):
    moves = scripted_game(8, seed=11)
    sim = SimPico()
    world = World(sim)
    world.set(occupied(Position()))
    link = PicoLink(opener(sim), MAP, present=lambda: sim.path is not None and os.path.exists(sim.path))
    store = GameStore(str(tmp_path / "games.db"))
    controller = core.Controller(Settings(), store, now_ms=0)
    # the cable is pulled in the middle of move 3 (between lifting and placing
    # the piece) for 1.5 s, and the players wait for the board before move 4
    # (the controller reconstructs one move at a time); the firmware resets
    # (watchdog) in the middle of move 6
    schedule, starts, end = schedule_for(moves, start_ms=1500, pause_after={2: 2000})
    unplug_at, replug_at = starts[2] + 10, starts[2] + 1510
    reset_at = starts[5] + 20
    state = {"t": 0, "i": 0, "unplugged": False, "reset": False}

    def on_sleep(now: int) -> None:
        # the Pico runs every 2 ms between the runner's passes
        while state["t"] < now:
            state["t"] += 2
            t = state["t"]
            while state["i"] < len(schedule) and schedule[state["i"]][0] <= t:
                _, action, square = schedule[state["i"]]
                world.act(action, square)
                state["i"] += 1
            if not state["unplugged"] and unplug_at <= t < replug_at:
                sim.unplug()
                sim.firmware = None          # bus-powered: it reboots on replug
                state["unplugged"] = True
            if state["unplugged"] and t >= replug_at:
                sim.plug()
                state["unplugged"] = False
            if not state["reset"] and t >= reset_at:
                sim.firmware = None          # a watchdog reset: H, then frames again
                state["reset"] = True
            if sim.path is not None:
                sim.step(t)

    clock = runner_mod.FakeClock(0, on_sleep=on_sleep)
    screen = Screen()
    loop = runner_mod.Runner(controller, link, link, screen, clock=clock, period_ms=10,
                             notifier=runner_mod.Notifier(None, None), log=sys.stderr)
    loop.run(stop=lambda now: now >= end + 2000)

    assert controller.moves == moves
    played = [e["move"] for e in loop.events if e.get("type") == "move"]
    assert played == moves
    links = [e["ok"] for e in loop.events if e.get("type") == "link"]
    assert False in links and links[-1] is True
    assert link.link_ok
    s = link.stats
    assert s["link_losses"] >= 1 and s["reconnects"] >= 1
    assert s["firmware_resets"] >= 2          # the watchdog reset's H (+ the replug's)
    assert s["dropped_crc"] == s["dropped_malformed"] == 0
    assert sim.firmware.rx_crc == sim.firmware.rx_malformed == 0
    # the Pico shows exactly the controller's LED frame
    assert sim.leds() == encode_leds(controller.leds, MAP)
    # the moves are stored
    game = store.games()[-1]
    assert store.moves(game.id) == moves
    # the OLED was told about the lost link at some point
    assert any(any("link" in line.lower() or "pico" in line.lower() for line in lines)
               for lines in screen.history), screen.history[-3:]
    link.close()
    sim.close()


def stored_games(db: Path) -> list:
    """The games in the board's database, read as ``maxima-board games``
    does (read-only, beside the running board); none before it exists."""
    if not db.exists():
        return []
    try:
        store = GameStore(str(db), readonly=True)
    except OSError:      # StoreError: the board is still creating it
        return []
    try:
        return [(game, store.moves(game.id)) for game in store.games()]
    except (OSError, sqlite3.Error):
        return []
    finally:
        store.close()


def wait_for(what: str, check, proc: subprocess.Popen, timeout_s: float = 60):
    """Poll ``check()`` until it returns something true; the process must
    not end meanwhile."""
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        value = check()
        if value:
            return value
        if proc.poll() is not None:
            out, err = proc.communicate()
            raise AssertionError(f"maxima-board run ended before {what}: {err}")
        time.sleep(0.05)
    raise AssertionError(f"{what}: not within {timeout_s} s")


def test_maxima_board_run_plays_a_game_over_the_pico_link(tmp_path):
    """Readiness, not a fixed delay: the players press OK on the set-up
    board until the game is stored (the board has read the start position
    over the link), then play; the test stops the board once every move is
    stored."""
    moves = scripted_game(4, seed=5)
    sim = SimPico()
    world = World(sim)
    start = occupied(Position())
    world.set(start)
    db = tmp_path / "games.db"
    cfg = tmp_path / "board.toml"
    cfg.write_text(f'hardware = "pico"\n\n[pico]\ndevice = "{sim.path}"\n\n'
                   f'[oled]\ndriver = "dummy"\n\n[database]\npath = "{db}"\n')
    sim.start()
    schedule, _, end = schedule_for(moves, start_ms=0)
    env = dict(os.environ, PYTHONPATH=str(ROOT), MAXIMA_BOARD_DB=str(db))
    env.pop("NOTIFY_SOCKET", None)
    proc = subprocess.Popen([sys.executable, "-m", "maxima_board.cli.main", "run", "--config", str(cfg),
                             "--seconds", "600"],
                            cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        def started():
            world.set(start | {"button:ok"})      # press OK …
            time.sleep(0.2)
            world.set(start)                      # … and let go
            return stored_games(db)

        wait_for("the game started with OK", started, proc)
        t0 = time.monotonic()
        for at, action, square in schedule:
            delay = t0 + at / 1000 - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            world.act(action, square)
        wait_for("every move stored", lambda: stored_games(db)[-1][1] == moves, proc)
        proc.terminate()                          # systemctl stop: SIGTERM ends run cleanly
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
        sim.close()
    assert proc.returncode == 0, err
    assert "pico" in err
    store = GameStore(str(db))
    game = store.games()[-1]
    assert store.moves(game.id) == moves, err


def _switches(pid: int) -> tuple[int, int]:
    """(context switches of the main thread, of all threads) so far."""
    main = total = 0
    for tid in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{tid}/status") as f:
            n = sum(int(line.split()[1]) for line in f if "ctxt_switches" in line)
        total += n
        if int(tid) == pid:
            main = n
    return main, total


@pytest.mark.slow
def test_an_idle_board_sleeps_between_the_picos_lines(tmp_path):
    """Issue 20, measured on the real process: ``maxima-board run`` on a
    simulated Pico, the game waiting for a player. The main thread wakes for
    the Pico's heartbeats (4 a second) and the answers to its keep-up pings
    (at most 2), not 100 times a second as a 10 ms loop did; bench/idle.py
    measures the whole process."""
    sim = SimPico()
    World(sim).set(occupied(Position()))
    db = tmp_path / "games.db"
    cfg = tmp_path / "board.toml"
    cfg.write_text(f'hardware = "pico"\n\n[pico]\ndevice = "{sim.path}"\n\n'
                   f'[oled]\ndriver = "dummy"\n\n[database]\npath = "{db}"\n')
    sim.start()
    env = dict(os.environ, PYTHONPATH=str(ROOT), MAXIMA_BOARD_DB=str(db))
    env.pop("NOTIFY_SOCKET", None)
    proc = subprocess.Popen([sys.executable, "-m", "maxima_board.cli.main", "run", "--config", str(cfg),
                             "--seconds", "20"], cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(4)                                # started, link up, set-up seen
        before, t0 = _switches(proc.pid), time.monotonic()
        time.sleep(8)
        after, t1 = _switches(proc.pid), time.monotonic()
    finally:
        proc.terminate()
        proc.communicate(timeout=30)
        sim.close()
    main_rate = (after[0] - before[0]) / (t1 - t0)
    assert main_rate <= 10, f"the main thread woke {main_rate:.1f} times a second"
