"""The simulator for a person at a terminal (a real pty): readline line
editing and history, board events printed above the prompt, Ctrl-C; and
``show``/``help`` in replay scripts."""
from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from maxima_board.service.script import parse_script, replay
from maxima_board.board.settings import Settings

ROOT = Path(__file__).resolve().parent.parent
ENTER = b"\r"


class Terminal:
    """``maxima-board sim`` on a pty that is its controlling terminal."""

    def __init__(self, tmp_path: Path):
        self.master, self.slave = pty.openpty()
        self.saved = termios.tcgetattr(self.slave)
        env = dict(os.environ, PYTHONPATH=str(ROOT), TERM="xterm", XDG_STATE_HOME=str(tmp_path / "state"))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "maxima_board.cli.main", "sim", "--db", str(tmp_path / "games.db")],
            stdin=self.slave, stdout=self.slave, stderr=self.slave, cwd=ROOT, env=env,
            start_new_session=True, preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0))
        self.seen = b""

    def expect(self, pattern: str, timeout: float = 20) -> re.Match:
        end = time.monotonic() + timeout
        regex = re.compile(pattern.encode(), re.S)
        while True:
            m = regex.search(self.seen)
            if m:
                return m
            left = end - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{pattern!r} not seen; output: {self.seen[-2000:]!r}")
            ready, _, _ = select.select([self.master], [], [], min(left, 0.1))
            if ready:
                try:
                    self.seen += os.read(self.master, 65536)
                except OSError:
                    pass

    def type(self, data: bytes) -> None:
        os.write(self.master, data)

    def close(self) -> int:
        try:
            return self.proc.wait(timeout=20)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
            os.close(self.master)
            os.close(self.slave)


@pytest.fixture
def terminal(tmp_path):
    t = Terminal(tmp_path)
    yield t
    if t.proc.poll() is None:
        t.proc.kill()


def test_sim_terminal_edits_lines_and_recalls_history(terminal, tmp_path):
    t = terminal
    t.expect(r"games are stored in .*games\.db.*\n> ")
    t.type(b"d3\x01lift " + ENTER)            # Ctrl-A: to the start of the line
    t.expect(r"In hand: Pawn d3\.\r?\n> ")
    t.type(b"show" + ENTER)
    t.expect(r"OLED:.*\+\r?\n> ")
    t.type(b"\x1b[A" + ENTER)                 # arrow up: the last line again
    t.expect(r"OLED:.*OLED:.*\+\r?\n> ")
    t.type(b"pla\td4" + ENTER)                # Tab completes the command word
    t.expect(r"move 1 d3-d4 ")
    t.type(b"quit" + ENTER)
    assert t.close() == 0
    history = (tmp_path / "state" / "maxima-board" / "sim_history").read_text().splitlines()
    assert history[-4:] == ["lift d3", "show", "place d4", "quit"]   # a repeat is kept once


def test_sim_terminal_prints_board_events_above_the_half_typed_line(terminal):
    t = terminal
    t.expect(r"\n> ")
    t.type(b"lift d3" + ENTER + b"place d4" + ENTER)
    t.expect(r"> place d4\r?\n> ")
    t.type(b"lif")                            # being typed when the move settles
    # nothing else is sent: real time passes at the prompt, the move commits,
    # and the prompt with "lif" is drawn again below it
    t.expect(r"\r\x1b\[Kmove 1 d3-d4 [^\r\n]*\r?\n> lif")
    t.type(b"t c7" + ENTER)                   # the line goes on where it was
    t.expect(r"In hand: Pawn c7\.\r?\n> ")
    t.type(b"\x04")                           # Ctrl-D leaves
    assert t.close() == 0


def test_sim_terminal_ctrl_c_leaves_cleanly_and_restores_the_terminal(terminal):
    t = terminal
    t.expect(r"\n> ")
    t.type(b"lift d3" + ENTER)
    t.expect(r"> lift d3\r?\n> ")
    t.type(b"\x03")
    t.expect(r"quit: the game is stored and resumes next time")
    assert t.proc.wait(timeout=20) == 0
    assert termios.tcgetattr(t.slave) == t.saved      # readline's raw mode undone
    assert t.close() == 0
    assert b"Traceback" not in t.seen


def test_replay_show_prints_the_sim_view_and_help_is_ignored():
    evs = list(replay(parse_script(["help", "lift d3", "show"]), Settings()))
    shows = [e for e in evs if e["type"] == "show"]
    assert len(shows) == 1
    text = shows[0]["text"]
    assert " 3 D  P  P  .  P" in text and "OLED:" in text and "|White to move      1.|" in text
    assert evs[-1]["type"] == "final"


def test_show_names_the_pieces_it_draws_by_their_letters():
    """Screens are for people: the letters drawn are named, for the game
    shown (Maxima's g is the Mage, Ultima's r the Coordinator...), only
    those on the board; Optima's tokens too."""
    from maxima_board.rules import Position, variants
    from maxima_board.rules.words import piece_names

    for game in ("maxima", "ultima", "swapper-chess", "optima"):
        evs = list(replay(parse_script([f"variant {game}", "show"], game), Settings()))
        text = [e for e in evs if e["type"] == "show"][-1]["text"]
        legend = next(line for line in text.splitlines() if line.startswith("pieces (White upper case): "))
        named = dict(item.split(" ", 1) for item in legend.split(": ", 1)[1].split(", "))
        position = Position(evs[-1]["fen"], game)      # the board is set up as the game stands
        drawn = {p.letter.lower() for p in (position.piece_at(sq) for sq in range(len(position.geometry.names)))
                 if p is not None}
        assert named == {k: v for k, v in piece_names(variants.get(game)).items() if k in drawn}, game


def test_replay_show_takes_no_argument():
    from maxima_board.service.script import ScriptError

    with pytest.raises(ScriptError, match="line 1: show takes nothing"):
        parse_script(["show d3"])
