"""Building and driving the compiled engine in tests."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENGINE_DIR = ROOT / "engine"
BINARY = ENGINE_DIR / "maxima-engine"


def build() -> Path:
    """Run make in engine; a clear error when gcc or make is missing."""
    missing = [tool for tool in ("gcc", "make") if shutil.which(tool) is None]
    if missing:
        raise RuntimeError(f"cannot build engine: {' and '.join(missing)} not installed "
                           f"(Debian: apt-get install build-essential)")
    r = subprocess.run(["make", "-s", "-C", str(ENGINE_DIR)], capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"make -C engine failed:\n{r.stdout}{r.stderr}")
    return BINARY


def run_batch(binary: Path, mode: str, variant: str, fens: list[str], depth: int | None = None,
              blank_separated: bool = False, timeout: float = 300, eval_terms: int | None = None) -> list:
    """``eval_terms``: the engine's EvalTerms mask (--eval-terms; None: the default, every term)."""
    args = ([str(binary)] + (["--eval-terms", str(eval_terms)] if eval_terms is not None else [])
            + [mode, variant] + ([str(depth)] if depth is not None else []))
    r = subprocess.run(args, input="\n".join(fens) + "\n", capture_output=True, text=True, timeout=timeout)
    assert r.returncode == 0, r.stderr
    if not blank_separated:
        return r.stdout.split("\n")[:len(fens)]
    blocks, block = [], []
    for line in r.stdout.split("\n"):
        if line:
            block.append(line)
        else:  # each FEN's block ends with one blank line (no line at all when no move is legal)
            blocks.append(block)
            block = []
    return blocks[:len(fens)]


def assert_children_match(binary: Path, variant: str, fens: list[str]) -> None:
    """After every legal move of each of ``fens``, the compiled engine's FEN
    (its ``children`` mode) is the Python engine's."""
    from maxima_board.rules import Position

    out = run_batch(binary, "children", variant, fens, blank_separated=True)
    assert len(out) == len(fens)
    for fen, block in zip(fens, out):
        p = Position(fen, variant)
        want = {}
        for m in p.legal_moves:
            p.push(m)
            want[str(m)] = p.fen()
            p.pop()
        got = dict(line.split(" ", 1) for line in block)
        assert got == want, fen



def move_list_mismatches(cases: list[tuple[str, list[str]]], lines: list[str]) -> list[tuple]:
    """(fen, moves only Python has, moves only the engine has), at most five each, for every
    (fen, Python's sorted moves) case whose engine line (its ``moves`` mode) differs."""
    bad = []
    for (fen, want), line in zip(cases, lines):
        got = line.split()
        if got != want:
            bad.append((fen, sorted(set(want) - set(got))[:5], sorted(set(got) - set(want))[:5]))
    return bad

import pytest  # noqa: E402


@pytest.fixture(scope="session")
def engine_binary() -> Path:
    """The engine, built once per test run with make (fails clearly without gcc)."""
    try:
        return build()
    except RuntimeError as exc:
        pytest.fail(str(exc), pytrace=False)


import queue  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402


class Uci:
    """A UCI conversation with the engine process; lines are read by a thread."""

    def __init__(self, binary: Path):
        self.proc = subprocess.Popen([str(binary)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, bufsize=1)
        self.lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, text: str) -> None:
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()

    def expect(self, prefix: str, timeout: float = 10.0) -> tuple[str, list[str]]:
        """Read until a line starting with ``prefix``; returns it and the lines before it."""
        seen = []
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {prefix!r} within {timeout} s; got {seen[-5:]}")
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                raise AssertionError(f"engine exited before {prefix!r}; got {seen[-5:]}")
            if line.startswith(prefix):
                return line, seen
            seen.append(line)

    def bestmove(self, position: str, go: str, timeout: float = 30.0) -> tuple[str, list[str]]:
        self.send(position)
        self.send(go)
        line, info = self.expect("bestmove", timeout)
        return line.split()[1], info

    def close(self) -> int:
        if self.proc.poll() is None:
            try:
                self.send("quit")
            except BrokenPipeError:
                pass
            try:
                return self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode
