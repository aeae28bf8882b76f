"""The compiled engine built for other targets, and what its builds must agree on.

Raspberry Pi OS runs on aarch64 (64-bit) and armhf (32-bit): there ``char``
is unsigned, and on armhf ``long`` and pointers are 32 bits. A build is a
:class:`Target` (a C compiler, and the command that runs its binaries here:
qemu-user for ARM); :func:`outputs` runs one build on a fixed set of
positions of every game family (perft, sorted legal moves, the FEN after each
move, fixed-depth searches and a UCI conversation) and returns the text it
printed, with times removed, so that two builds can be compared line by line.
Used by tests/test_opponent_engine_arm.py and bench/arm.py.
"""
from __future__ import annotations

import re
import shutil
import subprocess
import threading
from dataclasses import dataclass
from pathlib import Path

from tests.opponent_engine import ENGINE_DIR
from tests.opponent_optima_positions import game_positions, zoo_positions
from tests.opponent_positions import playout_positions


@dataclass(frozen=True)
class Target:
    name: str
    cc: str                    # make's CC (a compiler, possibly with options)
    run: tuple[str, ...] = ()  # prefix that runs the binary here (qemu-user)
    apt: tuple[str, ...] = ()  # the Debian packages that provide cc and run

    def missing(self) -> list[str]:
        """The tools of this target that are not installed."""
        tools = [self.cc.split()[0]] + ([self.run[0]] if self.run else [])
        return [tool for tool in tools if shutil.which(tool) is None]


X86 = Target("native", "gcc")
UNSIGNED_CHAR = Target("native-unsigned-char", "gcc -funsigned-char")
AARCH64 = Target("aarch64", "aarch64-linux-gnu-gcc", ("qemu-aarch64", "-L", "/usr/aarch64-linux-gnu"),
                 ("gcc-aarch64-linux-gnu", "qemu-user"))
ARMHF = Target("armhf", "arm-linux-gnueabihf-gcc", ("qemu-arm", "-L", "/usr/arm-linux-gnueabihf"),
               ("gcc-arm-linux-gnueabihf", "qemu-user"))
ARM = (AARCH64, ARMHF)


@dataclass(frozen=True)
class Build:
    command: list[str]         # runs the binary here
    log: str                   # what make printed


def build(target: Target, out_dir: Path, pgo: str = "off") -> Build:
    """``make -C engine`` for ``target`` into ``out_dir`` (the source
    tree's own binary is not touched). ``pgo``: "off" (PGO=0), "make" (the
    Makefile's default: profile-guided, the training run skipped when the
    machine cannot run the binary) or "trained" (the training run under
    ``target.run``, i.e. qemu)."""
    binary = Path(out_dir) / "maxima-engine"
    if " " in str(binary):
        raise ValueError(f"make cannot build into a path with spaces: {binary}")
    args = ["make", "-s", "-C", str(ENGINE_DIR), f"CC={target.cc}", f"BIN={binary}"]
    if pgo == "off":
        args.append("PGO=0")
    elif pgo == "trained" and target.run:
        args.append("PGO_RUN=" + " ".join(target.run))
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0 or not binary.exists():
        raise RuntimeError(f"make for {target.name} failed:\n{r.stdout}{r.stderr}")
    return Build([*target.run, str(binary)], r.stdout + r.stderr)


# ------------------------------------------------------------------ positions
NON_OPTIMA = ("maxima", "ultima", "ultima-pure", "swapper-chess", "swapper-chess-10x8",
              "coordinator-chess", "coordinator-chess-10x8", "mimotaur-chess", "long-leaper-chess-10x8")
OPTIMA = ("optima", "optima-9x9")
GAMES = NON_OPTIMA + OPTIMA


def positions(variant: str, count: int, seed: int = 11) -> list[str]:
    """``count`` FENs of ``variant`` from seeded random games (Optima: games
    through the placement phase, and boards holding all 56 unit types)."""
    if variant in OPTIMA:
        zoo = count // 3
        return ([fen for fen, _ in game_positions(variant, count - zoo, seed)]
                + [fen for fen, _ in zoo_positions(variant, zoo, seed)])
    return [fen for fen, _ in playout_positions(variant, count, seed)]


def search_positions(variant: str, fens: list[str], k: int = 3) -> list[str]:
    """``k`` positions of ``fens`` spread over the games (start, middle, late)."""
    return [fens[i * (len(fens) - 1) // max(1, k - 1)] for i in range(k)]


# ------------------------------------------------------------------ outputs
_TIMES = re.compile(r" (nps \d+|time \d+)|, [0-9.]+ s CPU \([0-9.]+ s wall\), \d+ (nodes|leaves)/s CPU")


def untimed(line: str) -> str:
    """A line of the engine without its timings (they differ between runs)."""
    return _TIMES.sub("", line)


def run(command: list[str], args: list[str], stdin: str = "", timeout: float = 600) -> str:
    r = subprocess.run([*command, *args], input=stdin, capture_output=True, text=True, timeout=timeout)
    if r.returncode != 0:
        raise AssertionError(f"{' '.join(command + args)} exited {r.returncode}: {r.stderr[-500:]}")
    return r.stdout


def uci_conversation(command: list[str], variant: str, fens: list[str], depth: int, timeout: float = 300) -> list[str]:
    """``uci``, ``setoption name UCI_Variant``, then per FEN ``position fen`` and
    ``go depth N`` answered by ``bestmove`` before the next; the lines the
    engine printed (without timings)."""
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, bufsize=1)
    timer = threading.Timer(timeout, proc.kill)
    timer.start()
    out: list[str] = []

    def until(prefix: str) -> None:
        while True:
            line = proc.stdout.readline()
            if not line:
                raise AssertionError(f"{' '.join(command)} ended before {prefix!r}: {out[-3:]}")
            out.append(untimed(line.rstrip("\n")))
            if line.startswith(prefix):
                return

    try:
        proc.stdin.write("uci\n")
        until("uciok")
        proc.stdin.write(f"setoption name UCI_Variant value {variant}\nisready\n")
        until("readyok")
        for fen in fens:
            proc.stdin.write(f"position fen {fen}\ngo depth {depth}\n")
            until("bestmove")
        proc.stdin.write("quit\n")
        proc.stdin.flush()
        proc.wait(timeout=30)
    finally:
        timer.cancel()
        if proc.poll() is None:
            proc.kill()
        proc.wait()
    return out


@dataclass
class Work:
    """What every build is asked, per game: perft(2) and the legal moves of
    ``fens``, the FEN after every move of ``children``, a fixed-depth search
    of ``searches`` and a UCI conversation over the same positions."""

    variant: str
    fens: list[str]
    children: list[str]
    searches: list[str]
    perft_depth: int = 2
    search_depth: int = 4
    uci_depth: int = 3


def work(count: int = 40, games: tuple[str, ...] = GAMES, searches: int = 2) -> list[Work]:
    out = []
    for v in games:
        fens = positions(v, count)
        out.append(Work(v, fens, fens[::8], search_positions(v, fens, searches)))
    return out


def outputs(command: list[str], w: Work) -> dict[str, list[str]]:
    """Everything one build prints for ``w``, by question."""
    stdin = "\n".join(w.fens) + "\n"
    got = {
        "perft": run(command, ["perft", w.variant, str(w.perft_depth)], stdin).splitlines(),
        "moves": run(command, ["moves", w.variant], stdin).splitlines(),
        "children": run(command, ["children", w.variant], "\n".join(w.children) + "\n").splitlines(),
        "search": [untimed(line) for fen in w.searches
                   for line in run(command, ["search", w.variant, str(w.search_depth), fen]).splitlines()],
        "uci": uci_conversation(command, w.variant, w.searches, w.uci_depth),
    }
    return got


def differences(a: dict[str, list[str]], b: dict[str, list[str]]) -> list[str]:
    """The first differing line of each question, or nothing when all are equal."""
    out = []
    for key in a:
        if a[key] != b[key]:
            n = next((i for i, (x, y) in enumerate(zip(a[key], b[key])) if x != y), min(len(a[key]), len(b[key])))
            x = a[key][n] if n < len(a[key]) else "(none)"
            y = b[key][n] if n < len(b[key]) else "(none)"
            out.append(f"{key} line {n + 1}: {x[:200]!r} != {y[:200]!r}")
    return out


def bestmoves(o: dict[str, list[str]]) -> list[str]:
    return [line for line in o["uci"] if line.startswith("bestmove")]
