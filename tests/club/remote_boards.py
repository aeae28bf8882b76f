"""Two simulated boards of a remote game (``maxima-board sim --remote``),
each a real process typed on stdin and read line by line, through a real
Mosquitto (mosquitto.py): what the remote play tests drive. No pytest
here, so that a bench can use it.

A move is made by hand as a person makes it (``maxima_board.board.hands``):
on the mover's board first, then, once it prints ``remote MOVE``, on the
other board.
"""
from __future__ import annotations

import queue
import random
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

from maxima_board.board.hands import hand_lines
from maxima_board.rules import Move, Position

MAXIMA_BOARD = [sys.executable, "-m", "maxima_board.cli.main"]


class SimBoard:
    """``maxima-board sim`` playing ``side`` of the remote game ``game``
    through ``broker`` ("host:port"), its games in ``db``; ``extra``: more
    options (``--variant optima``, ``--clock 5+0``). Every line it printed
    is in ``seen``; :meth:`expect` reads on from where it stopped."""

    def __init__(self, db: Path, broker: str, game: str, side: str, *extra: str):
        self.db, self.broker, self.game, self.side, self.extra = db, broker, game, side, extra
        self.seen: list[str] = []
        self.proc: subprocess.Popen | None = None
        self.start()

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [*MAXIMA_BOARD, "sim", "--db", str(self.db), "--remote", self.broker, "--remote-game", self.game,
             "--side", self.side, *self.extra],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
        self.lines: queue.Queue = queue.Queue()
        proc, lines = self.proc, self.lines

        def read() -> None:
            for line in proc.stdout:
                lines.put(line.rstrip("\n"))
            lines.put(None)
        threading.Thread(target=read, daemon=True).start()

    def send(self, *lines: str) -> None:
        assert self.proc is not None
        self.proc.stdin.write("".join(line + "\n" for line in lines))
        self.proc.stdin.flush()

    def expect(self, pattern: str, timeout: float = 15.0) -> re.Match:
        """The first line from here on that ``pattern`` matches (at its start)."""
        wanted = re.compile(pattern)
        end = time.monotonic() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.01, end - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"{self.side}: no line {pattern!r} in {timeout} s; last lines:\n"
                                     + "\n".join(self.seen[-25:])) from None
            if line is None:
                self.lines.put(None)
                raise AssertionError(f"{self.side}: the sim ended before {pattern!r}; last lines:\n"
                                     + "\n".join(self.seen[-25:]))
            self.seen.append(line)
            m = wanted.match(line)
            if m:
                return m

    def settle(self, seconds: float = 0.5) -> list[str]:
        """The lines printed in the next ``seconds`` (read, so that a later expect starts after them)."""
        out = []
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                break
            if line is None:
                self.lines.put(None)
                break
            self.seen.append(line)
            out.append(line)
        return out

    def kill(self) -> None:
        """SIGKILL: no goodbye, nothing flushed."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)
        self.settle(0.2)

    def restart(self) -> None:
        self.start()

    def quit(self) -> int:
        if self.proc is None or self.proc.poll() is not None:
            return self.proc.returncode if self.proc else 0
        try:
            self.send("quit")
        except (BrokenPipeError, OSError):
            pass
        try:
            return self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)
            raise

    def count(self, prefix: str) -> int:
        return sum(1 for line in self.seen if line.startswith(prefix))

    def choose(self, label: str, presses: int = 20) -> None:
        """MENU until the OLED asks ``label`` (the game chooser first, then
        the menu's questions), then OK."""
        for _ in range(presses):
            self.send("press menu")
            m = self.expect(r"oled (.*)")
            if label in m.group(1).replace(" | ", " "):
                self.send("press ok")
                return
        raise AssertionError(f"{self.side}: MENU never asked {label!r}; last lines:\n" + "\n".join(self.seen[-25:]))


def hands(position: Position, move: Move, rng: random.Random) -> list[str]:
    """The lines that make ``move`` by hand (a settle wait after them)."""
    return hand_lines(position, move, rng, settle_ms=400)


def play_ply(boards: dict[str, SimBoard], position: Position, move: Move, rng: random.Random,
             timeout: float = 15.0) -> None:
    """``move`` made on the mover's board, seen arriving on the other
    board and made there too: each board stores it as the same ply."""
    text, ply = str(move), len(position.move_stack) + 1
    mover = "white" if position.turn > 0 else "black"
    other = "black" if mover == "white" else "white"
    lines = hands(position, move, rng)
    boards[mover].send(*lines)
    boards[mover].expect(rf"move {ply} {re.escape(text)} ", timeout)
    boards[other].expect(rf"remote {re.escape(text)}$", timeout)
    boards[other].send(*lines)
    boards[other].expect(rf"move {ply} {re.escape(text)} ", timeout)
    position.push(move)


def made_alone(board: SimBoard, position: Position, move: Move, rng: random.Random) -> list[str]:
    """``move`` made and stored on ``board`` alone (the other board away or
    cut off); the lines that made it, for the other board."""
    lines = hands(position, move, rng)
    board.send(*lines)
    board.expect(rf"move {len(position.move_stack) + 1} {re.escape(str(move))} ")
    return lines


def made_after(board: SimBoard, position: Position, move: Move, lines: list[str], timeout: float = 15.0) -> None:
    """``move``, made on the other board, arrives on ``board`` and is made there with ``lines``."""
    board.expect(rf"remote {re.escape(str(move))}$", timeout)
    board.send(*lines)
    board.expect(rf"move {len(position.move_stack) + 1} {re.escape(str(move))} ")
    position.push(move)


def stored(db: Path) -> list[tuple[dict, list[str]]]:
    """Each game of the database ``db`` (read only): its row and its moves."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        con.row_factory = sqlite3.Row
        games = [dict(r) for r in con.execute(
            "SELECT id, event, start_fen, variant, result, reason, finished FROM games ORDER BY id")]
        return [(g, [r[0] for r in con.execute("SELECT move FROM moves WHERE game_id = ? ORDER BY ply",
                                               (g["id"],))]) for g in games]
    finally:
        con.close()


def clocks_of(db: Path) -> list[tuple]:
    """The clocks the database ``db`` stored (read only): (ply, control, White's ms, Black's ms)."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return list(con.execute("SELECT ply, control, white_ms, black_ms FROM clocks ORDER BY game_id, ply"))
    finally:
        con.close()


def remote_game_of(db: Path) -> tuple[dict, list[str]]:
    """The one remote game the database ``db`` holds (its row, its moves)."""
    games = [(g, moves) for g, moves in stored(db) if g["event"].startswith("Remote game ")]
    assert len(games) == 1, stored(db)
    return games[0]
