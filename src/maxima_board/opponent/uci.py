"""A UCI client: one engine process behind pipes.

The engine's standard output is read by a thread into a queue, so every wait
has a timeout: an engine that dies raises :class:`EngineDied`, one that does
not answer in time :class:`EngineTimeout` (both :class:`EngineError`). The
caller (``maxima_board.opponent.supervisor``) decides what to do then.
"""
from __future__ import annotations

import os
import queue
import subprocess
import threading
import time
from dataclasses import dataclass, field

HANDSHAKE_S = 10.0


class EngineError(Exception):
    """The engine cannot be used: it died, hung, or said something wrong."""


class EngineDied(EngineError):
    pass


class EngineTimeout(EngineError):
    pass


@dataclass(frozen=True)
class Option:
    """An option the engine announced (``option name ... type ...``)."""

    name: str
    type: str
    default: str | None = None
    min: int | None = None
    max: int | None = None
    vars: tuple[str, ...] = ()


@dataclass
class Result:
    """The engine's answer to ``go``: ``move`` (canonical text, None for
    ``bestmove (none)``), the last score seen (``score_cp`` or ``mate`` in
    moves, from the mover's view), depth and nodes when given, and every
    ``info`` line."""

    move: str | None
    score_cp: int | None = None
    mate: int | None = None
    depth: int | None = None
    nodes: int | None = None
    info: list[str] = field(default_factory=list)

    def score_text(self) -> str:
        """``+1.25``, ``-0.40``, ``mate 3``, ``mated in 2`` or ``?``."""
        if self.mate is not None:
            return f"mate {self.mate}" if self.mate > 0 else f"mated in {-self.mate}"
        if self.score_cp is not None:
            return f"{self.score_cp / 100:+.2f}"
        return "?"


def parse_option(line: str) -> Option | None:
    """``option name N type T [default D] [min A] [max B] [var V]...``."""
    words = line.split()
    if words[:2] != ["option", "name"] or "type" not in words:
        return None
    t = words.index("type")
    name = " ".join(words[2:t])
    kind = words[t + 1] if t + 1 < len(words) else ""
    default = lo = hi = None
    choices: list[str] = []
    i = t + 2
    keys = ("default", "min", "max", "var")
    while i < len(words):
        key = words[i]
        j = i + 1
        while j < len(words) and words[j] not in keys:
            j += 1
        value = " ".join(words[i + 1:j])
        if key == "default":
            default = value
        elif key == "min" and value.lstrip("-").isdigit():
            lo = int(value)
        elif key == "max" and value.lstrip("-").isdigit():
            hi = int(value)
        elif key == "var":
            choices.append(value)
        i = j
    return Option(name, kind, default, lo, hi, tuple(choices))


def parse_info(line: str, result: Result) -> None:
    """Fold one ``info`` line into ``result``."""
    words = line.split()
    for i, word in enumerate(words[:-1]):
        nxt = words[i + 1]
        if word == "depth" and nxt.isdigit():
            result.depth = int(nxt)
        elif word == "nodes" and nxt.isdigit():
            result.nodes = int(nxt)
        elif word == "score" and i + 2 < len(words):
            value = words[i + 2]
            if value.lstrip("-").isdigit():
                if nxt == "cp":
                    result.score_cp, result.mate = int(value), None
                elif nxt == "mate":
                    result.mate, result.score_cp = int(value), None


class UciEngine:
    """An engine process. ``command`` is its argv."""

    def __init__(self, command: list[str], cwd: str | None = None):
        self.command = list(command)
        self.cwd = cwd
        self.proc: subprocess.Popen | None = None
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.name: str | None = None
        self.options: dict[str, Option] = {}
        self.log: list[str] = []   # the last lines exchanged, "> " sent, "< " read

    # -- process ------------------------------------------------------------
    def start(self) -> None:
        try:
            self.proc = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.DEVNULL, text=True, bufsize=1, cwd=self.cwd)
        except OSError as exc:
            raise EngineDied(f"cannot start {' '.join(self.command)}: {exc.strerror or exc}") from None
        self.lines = queue.Queue()
        threading.Thread(target=self._read, args=(self.proc, self.lines), daemon=True,
                         name="uci-reader").start()

    @staticmethod
    def _read(proc: subprocess.Popen, lines: "queue.Queue[str | None]") -> None:
        assert proc.stdout is not None
        try:
            for line in proc.stdout:
                lines.put(line.rstrip("\r\n"))
        except (OSError, ValueError):
            pass
        lines.put(None)

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc is not None else None

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """End the process at once (it may be hung) and reap it."""
        proc, self.proc = self.proc, None
        if proc is None:
            return
        try:
            proc.kill()
        except OSError:
            pass
        for stream in (proc.stdin, proc.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass

    def close(self, timeout: float = 1.0) -> None:
        """``quit``, then kill if the engine has not left within ``timeout``."""
        if self.proc is None:
            return
        try:
            self.send("quit")
            self.proc.wait(timeout=timeout)
        except (EngineError, subprocess.TimeoutExpired, OSError):
            pass
        self.kill()

    # -- talking ------------------------------------------------------------
    def send(self, line: str) -> None:
        if self.proc is None or self.proc.stdin is None:
            raise EngineDied("engine not running")
        self._note("> " + line)
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (OSError, ValueError):
            raise EngineDied(f"engine {self._who()} died (exit code {self._code()})") from None

    def read_line(self, deadline: float) -> str:
        """The next line before ``deadline`` (time.monotonic())."""
        left = deadline - time.monotonic()
        try:
            line = self.lines.get(timeout=max(0.0, left))
        except queue.Empty:
            raise EngineTimeout(f"engine {self._who()} did not answer in time") from None
        if line is None:
            self.lines.put(None)   # every later read sees the end too
            raise EngineDied(f"engine {self._who()} died (exit code {self._code()})")
        self._note("< " + line)
        return line

    def wait_for(self, word: str, timeout: float) -> list[str]:
        """Lines up to and including the first starting with ``word``."""
        deadline = time.monotonic() + timeout
        seen = []
        while True:
            line = self.read_line(deadline)
            seen.append(line)
            if line.split(" ", 1)[0] == word:
                return seen

    def handshake(self, timeout: float = HANDSHAKE_S) -> None:
        """``uci`` … ``uciok``: the engine's name and options."""
        self.send("uci")
        for line in self.wait_for("uciok", timeout):
            if line.startswith("id name "):
                self.name = line[len("id name "):].strip()
            option = parse_option(line)
            if option is not None:
                self.options[option.name.lower()] = option

    def has_option(self, name: str) -> bool:
        return name.lower() in self.options

    def set_option(self, name: str, value: object) -> None:
        if isinstance(value, bool):
            value = "true" if value else "false"
        self.send(f"setoption name {name} value {value}")

    def ready(self, timeout: float = HANDSHAKE_S) -> None:
        self.send("isready")
        self.wait_for("readyok", timeout)

    def position(self, fen: str | None, moves: list[str]) -> None:
        head = "startpos" if fen is None else f"fen {fen}"
        tail = f" moves {' '.join(moves)}" if moves else ""
        self.send(f"position {head}{tail}")

    def go(self, **limits: int | bool) -> None:
        """``go`` with ``depth``, ``movetime``, ``wtime``, ``btime``,
        ``winc``, ``binc``, ``movestogo``, ``nodes`` or ``infinite=True``."""
        words = ["go"]
        for key, value in limits.items():
            if value is None or value is False:
                continue
            words += [key] if value is True else [key, str(int(value))]
        self.send(" ".join(words))

    def wait_best(self, timeout: float) -> Result:
        """Read ``info`` lines until ``bestmove``."""
        result = Result(None)
        deadline = time.monotonic() + timeout
        while True:
            line = self.read_line(deadline)
            if line.startswith("info "):
                result.info.append(line)
                parse_info(line, result)
            elif line.startswith("bestmove"):
                words = line.split()
                move = words[1] if len(words) > 1 else "(none)"
                result.move = None if move in ("(none)", "0000") else move
                return result

    # -- helpers ------------------------------------------------------------
    def _note(self, line: str) -> None:
        self.log.append(line)
        del self.log[:-50]

    def _who(self) -> str:
        return self.name or os.path.basename(self.command[0])

    def _code(self) -> object:
        if self.proc is None:
            return "?"
        try:
            return self.proc.wait(timeout=1)
        except subprocess.TimeoutExpired:
            return "?"
