"""The README's example outputs are what the program prints (issue 32,
finding 5): the "first ten minutes" walk-through is run, each step's
commands typed into ``maxima-board sim`` on a pipe, and every line the
README shows the program printing (``game``, ``oled``, ``move``, ``leds``,
``computer``, ``serve``'s first line) must be printed, in that order."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
PRINTED = re.compile(r"^(game|oled|move|leds|computer|takeback|error) ")
SETTLE = "wait 400"       # what a person's pace gives the board between lifting and placing


def walkthrough() -> list[list[str]]:
    """The indented blocks of "The first ten minutes", each as its lines."""
    text = README.read_text()
    section = text.split("## The first ten minutes", 1)[1].split("\n## ", 1)[0]
    blocks, current = [], []
    for line in section.splitlines():
        if line.startswith("    "):
            current.append(line[4:])
        elif current and line.strip() == "":
            continue
        elif current:
            blocks.append(current)
            current = []
    if current:
        blocks.append(current)
    return blocks


def sim(tmp_path: Path, commands: list[str], *args: str, end: list[str] = []) -> list[str]:
    """``maxima-board sim ARGS`` on a pipe (a fresh games file) with ``commands`` (then ``end``); the lines
    it prints."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    typed = []
    for command in commands:
        typed += [command, SETTLE]
    env = dict(os.environ, PYTHONPATH=f"{ROOT / 'src'}{os.pathsep}{ROOT}", XDG_STATE_HOME=str(tmp_path / "state"))
    done = subprocess.run([sys.executable, "-m", "maxima_board.cli.main", "sim", "--db", str(tmp_path / "games.db"),
                           *args], input="\n".join(typed + end) + "\n", capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def in_order(shown: list[str], printed: list[str]) -> list[str]:
    """The README's lines not printed in its order (empty: all were)."""
    missing, at = [], 0
    for line in shown:
        try:
            at = printed.index(line, at) + 1
        except ValueError:
            missing.append(line)
    return missing


def test_the_first_ten_minutes_print_what_the_readme_shows(tmp_path):
    blocks = walkthrough()
    start, move, menu = blocks[0], blocks[1], blocks[2]
    commands = [line[2:] for block in (move, menu) for line in block if line.startswith("> ") and line[2:].strip()]
    assert commands == ["lift c3", "place c4", "press menu"], commands
    shown = [line for block in (start, move, menu) for line in block if PRINTED.match(line)]
    assert len(shown) >= 7
    printed = [line for line in sim(tmp_path / "1", commands) if PRINTED.match(line)]
    assert printed == shown, "\n".join(["README:"] + shown + ["printed:"] + printed)

    computer = next(block for block in blocks if any(line.startswith("computer ") for line in block))
    played = sim(tmp_path / "4", ["lift c3", "place c4"], "--opponent", "black", end=["wait 3000"])
    assert not in_order(computer, played), "\n".join(["README:"] + computer + ["printed:"] + played)
    reply = re.search(r"computer (\w+)-(\w+)", "\n".join(computer)).groups()
    after = README.read_text().split("## The first ten minutes", 1)[1].split("**5.", 1)[0].split("computer ", 1)[1]
    assert f"{reply[0]} and {reply[1]} are lit" in after and f"`move 2 {reply[0]}-{reply[1]}`" in after


def test_serve_prints_its_address_and_pin_as_the_readme_shows(tmp_path):
    """``serve``'s first lines, the port and the PIN (random) aside."""
    shown = next(block for block in walkthrough() if any("web PIN" in line for line in block))
    patterns = [re.sub(r"PIN\\ \d+", r"PIN\\ \\d{6}", re.escape(line).replace("8080", r"\d+")) for line in shown]
    env = dict(os.environ, PYTHONPATH=f"{ROOT / 'src'}{os.pathsep}{ROOT}", XDG_STATE_HOME=str(tmp_path / "state"))
    proc = subprocess.Popen([sys.executable, "-m", "maxima_board.cli.main", "serve", "--bind", "127.0.0.1",
                             "--port", "0", "--db", str(tmp_path / "games.db")],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, cwd=ROOT)
    try:
        first = [proc.stdout.readline().rstrip("\n") for _ in shown]
    finally:
        proc.terminate()
        proc.wait(10)
    assert all(re.fullmatch(p, line) for p, line in zip(patterns, first)), (shown, first)
