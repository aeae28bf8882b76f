"""A simulated board in a remote game, as its own process: ``maxima-board
sim --remote ...`` fed through a pipe, every output line kept with the
moment it was read. The remote-broker tests and bench/remote.py use it (no
pytest here, so that a bench can)."""
from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[2]


class SimProcess:
    """``maxima-board sim --db DB --remote BROKER --remote-game NAME --side SIDE``
    and ``extra`` options (a log-in, TLS), started at once."""

    def __init__(self, db: Path, broker: str, name: str, side: str, *extra: str):
        self.side = side
        path = os.environ.get("PYTHONPATH")
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "src"), str(ROOT)] + ([path] if path else [])))
        self.process = subprocess.Popen(
            [sys.executable, "-m", "maxima_board", "sim", "--db", str(db), "--remote", broker,
             "--remote-game", name, "--side", side, *extra],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1, env=env)
        self.lines: list[tuple[float, str]] = []
        self._cond = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            with self._cond:
                self.lines.append((time.monotonic(), line.rstrip("\n")))
                self._cond.notify_all()
        with self._cond:
            self._cond.notify_all()

    def send(self, text: str) -> float:
        """Types ``text`` (lines); returns the moment it was written."""
        assert self.process.stdin is not None
        at = time.monotonic()
        self.process.stdin.write(text)
        self.process.stdin.flush()
        return at

    def wait_for(self, wanted: Callable[[str], bool] | str, timeout: float = 20.0,
                 start: int = 0) -> tuple[int, float, str]:
        """The first line from index ``start`` on that is ``wanted`` (a
        line's beginning, or a test): (its index, when it was read, it)."""
        test = (lambda line: line.startswith(wanted)) if isinstance(wanted, str) else wanted
        end = time.monotonic() + timeout
        i = start
        with self._cond:
            while True:
                while i < len(self.lines):
                    at, line = self.lines[i]
                    if test(line):
                        return i, at, line
                    i += 1
                left = end - time.monotonic()
                if left <= 0 or (self.process.poll() is not None and not self._reader.is_alive()):
                    tail = "\n".join(line for _, line in self.lines[-15:])
                    raise TimeoutError(f"{self.side}: no line {wanted!r} within {timeout} s; the last lines:\n{tail}")
                self._cond.wait(min(left, 0.5))

    def texts(self, start: int = 0) -> list[str]:
        with self._cond:
            return [line for _, line in self.lines[start:]]

    def make(self, move: str, wait_ms: int | None = 1000) -> float:
        """Makes ``move`` ("d3-d5", no capture) on the board: lift, place and
        (``wait_ms``) that much simulated time at once, past the settle time;
        returns the moment the ``place`` line was typed."""
        a, b = move.split("-")
        self.send(f"lift {a}\n")
        return self.send(f"place {b}\n" + (f"wait {wait_ms}\n" if wait_ms is not None else ""))

    def close(self, timeout: float = 15.0) -> int | None:
        """``quit``, then the process's end (killed if it does not end)."""
        if self.process.poll() is None:
            try:
                self.send("quit\n")
                self.process.stdin.close()
            except (BrokenPipeError, OSError, ValueError):
                pass
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        self._reader.join(5)
        return self.process.returncode

    def kill(self) -> None:
        """SIGKILL: the board's power cut."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(10)
        self._reader.join(5)
