"""Crash safety: ``maxima-board sim`` killed with SIGKILL at random points of
its games, restarted, must still hold every move it acknowledged."""
from __future__ import annotations

import os
import queue
import random
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from maxima_board.storage.store import GameStore
from maxima_board.rules import Position

ROOT = Path(__file__).resolve().parent.parent
STARTED = re.compile(r"^game (\d+) (?:started from|resumed after \d+ moves:) (.+)$")
ACK = re.compile(r"^move (\d+) (\S+) ")


class Sim:
    """A ``maxima-board sim`` process fed through a pipe."""

    def __init__(self, db: Path):
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "maxima_board.cli.main", "sim", "--db", str(db)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
            bufsize=1, cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)))
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, text: str) -> None:
        self.proc.stdin.write(text)
        self.proc.stdin.flush()

    def expect(self, pattern: re.Pattern, timeout: float, seen: list[str]) -> re.Match:
        end = time.monotonic() + timeout
        while True:
            line = self.lines.get(timeout=max(0.01, end - time.monotonic()))
            if line is None:
                raise AssertionError(f"sim ended; output: {seen[-10:]}")
            seen.append(line)
            m = pattern.match(line)
            if m:
                return m

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)


def _hands(position: Position, move) -> str:
    names = position.geometry.names
    steps = []
    if move.kind == "replacement":
        steps.append(f"lift {names[move.to_square]}")
    steps += [f"lift {names[c]}" for c in move.captures if c != move.to_square]
    steps.append(f"lift {names[move.from_square]}")
    if move.to_square is None:
        steps.append("press ok")
    else:
        steps.append(f"place {names[move.to_square]}")
    steps.append("wait 400")
    return "".join(s + "\n" for s in steps)


def kill_trials(db: Path, kills: int, seconds: float) -> tuple[int, int, int]:
    """Play random games in ``sim`` processes, each killed by SIGKILL at a
    random point, up to ``kills`` kills or ``seconds``; after every kill
    check that every acknowledged move is still stored. Returns
    (kills, acknowledged moves, seed)."""
    seed = int(os.environ.get("CRASH_SEED", time.time_ns() % 1_000_000))
    rng = random.Random(seed)
    acked: dict[int, list[str]] = {}
    started = time.monotonic()
    done = 0
    while done < kills and time.monotonic() - started < seconds:
        sim = Sim(db)
        seen: list[str] = []
        m = sim.expect(STARTED, 10, seen)
        game, fen = int(m.group(1)), m.group(2)
        stored = GameStore(db, readonly=True).moves(game)
        assert stored[:len(acked.get(game, []))] == acked.get(game, []), (seed, game)
        acked[game] = list(stored)     # a move stored just before the kill counts from now on
        position = Position(fen)
        for _ in range(rng.randrange(0, 6)):
            moves = position.legal_moves
            if not moves or position.outcome():
                break
            move = rng.choice(moves)
            sim.send(_hands(position, move))
            ack = sim.expect(ACK, 10, seen)
            assert ack.group(2) == str(move), (seed, seen[-5:])
            acked[game].append(str(move))
            position.push(move)
        # The kill: sometimes idle, sometimes with the next move under way
        # (its commit may be happening as the signal lands).
        moves = position.legal_moves
        if moves and not position.outcome() and rng.random() < 0.7:
            sim.send(_hands(position, rng.choice(moves)))
            time.sleep(rng.uniform(0, 0.05))
        sim.kill()
        done += 1
        store = GameStore(db, readonly=True)
        for gid, played in acked.items():
            assert store.moves(gid)[:len(played)] == played, (seed, gid)
        store.close()
        assert not list(db.parent.glob("*unreadable*")), seed     # a killed board never damages the file
    return done, sum(len(v) for v in acked.values()), seed


def test_sigkill_at_random_points_loses_no_acknowledged_move(tmp_path):
    kills, moves, seed = kill_trials(tmp_path / "games.db", 8, 20)
    assert kills >= 3, f"only {kills} kills in the time allowed (seed {seed})"
    assert moves > 0


@pytest.mark.slow
def test_sigkill_a_hundred_times_loses_no_acknowledged_move(tmp_path):
    """The store's crash test at scale: at least 100 SIGKILLs of a real
    ``sim`` process at random points, 0 acknowledged moves lost."""
    kills, moves, seed = kill_trials(tmp_path / "games.db", 120, 900)
    assert kills >= 100, f"only {kills} kills in 900 s (seed {seed})"
    assert moves >= 100
