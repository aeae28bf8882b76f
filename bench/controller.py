"""Controller speed and memory: a long game played by hand on the simulated
board.

    python bench/controller.py [--plies N] [--seed S] [--variant NAME | --all] [--no-rss]

Every move is made as sensor frames: captured pieces lifted (before or after
the mover lands), the mover lifted, set down for 30 ms on each free square
along its line, then placed. Prints the controller's reaction time per
sensor frame and per clock tick (ticks include committing moves to an
on-disk SQLite database with synchronous FULL), and the peak RSS of a
``maxima-board sim`` session playing the same game.

Targets (issue 3): p99 ≤ 5 ms per sensor frame; sim peak RSS ≤ 60 MB.

With ``--variant NAME`` (or ``--all``: every game) the game is that game's,
its moves made as ``maxima_board.board.hands`` makes them (castling King or Rook
first or with both hands, swaps, promotion chosen by MENU/OK, …), and the
move-table build of a crowded position of the game is timed: a fresh
position (its legal moves generated, as after a commit) and the table
alone. Targets (issue 9): sensor frame → LED/OLED plan p99 ≤ 2 ms for
every game; move-table build for a crowded 10×10 position ≤ 5 ms.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "src"))

from maxima_board.board.hands import hand_lines  # noqa: E402
from maxima_board.board.reconstruct import MoveTable  # noqa: E402
from maxima_board.service.script import Runner  # noqa: E402
from maxima_board.board.settings import Settings  # noqa: E402
from maxima_board.storage.store import GameStore  # noqa: E402
from maxima_board.rules import Position, variants  # noqa: E402


def _between(position: Position, frm: int, to: int) -> list[int]:
    """The squares strictly between ``frm`` and ``to`` on a line, if any."""
    for ray in position.geometry.rays[frm]:
        if to in ray:
            return list(ray[:ray.index(to)])
    return []


def game_script(plies: int, seed: int) -> list[str]:
    """Script lines for ``plies`` random legal moves (a new game from the
    start whenever one ends)."""
    rng = random.Random(seed)
    position = Position()
    lines: list[str] = []
    for _ in range(plies):
        if position.outcome() is not None:
            lines += ["press new", "board start", "wait 400", "press ok", "wait 400"]
            position = Position()
        move = rng.choice(position.legal_moves)
        names = position.geometry.names
        gone = [names[c] for c in move.captures if c != move.to_square]
        before = rng.random() < 0.5
        if move.kind == "replacement":
            lines.append(f"lift {names[move.to_square]}")
        if before:
            lines += [f"lift {sq}" for sq in gone]
        lines.append(f"lift {names[move.from_square]}")
        if move.to_square is None:
            lines.append("press ok")
        else:
            for sq in _between(position, move.from_square, move.to_square):
                if position.piece_at(sq) is None:
                    lines += [f"place {names[sq]}", "wait 30", f"lift {names[sq]}"]
            lines.append(f"place {names[move.to_square]}")
        if not before:
            lines += ["wait 100"] + [f"lift {sq}" for sq in gone]
        lines.append("wait 350")
        position.push(move)
    return lines


def variant_script(variant: str, plies: int, seed: int) -> list[str]:
    """Script lines for ``plies`` random legal moves of ``variant``, each
    made by hand (``maxima_board.board.hands``); a new game whenever one ends."""
    rng = random.Random(seed)
    position = Position("start", variant)
    lines: list[str] = []
    for _ in range(plies):
        if position.outcome() is not None:
            lines += ["press new", "board start", "wait 400", "press ok", "wait 400"]
            position = Position("start", variant)
        move = rng.choice(position.legal_moves)
        lines += hand_lines(position, move, rng)
        position.push(move)
    return lines


def crowded_position(variant: str, seed: int = 1) -> Position:
    """The position with the most legal moves in the first 30 plies of
    seeded random play: full of pieces, with lines opened."""
    rng = random.Random(seed)
    p = Position("start", variant)
    best, most = p.fen(), len(p.legal_moves)
    for _ in range(30):
        if p.outcome() is not None:
            break
        p.push(rng.choice(p.legal_moves))
        if len(p.legal_moves) > most:
            best, most = p.fen(), len(p.legal_moves)
    return Position(best, variant)


def table_build(variant: str, repeats: int = 200) -> tuple[int, float, float, float, float]:
    """Legal moves of the crowded position; for a table built for a fresh
    position (move generation included): p50 and p99 wall time and p99 CPU
    time (ms; the machine is shared, CPU time is what the code costs); p99
    CPU time of the table alone (moves already generated)."""
    fen = crowded_position(variant).fen()
    fresh, fresh_cpu, alone = [], [], []
    for _ in range(repeats):
        p = Position(fen, variant)
        start, cpu = time.perf_counter(), time.process_time()
        MoveTable(p)
        fresh.append(time.perf_counter() - start)
        fresh_cpu.append(time.process_time() - cpu)
        cpu = time.process_time()
        MoveTable(p)
        alone.append(time.process_time() - cpu)
    ms = sorted(x * 1000 for x in fresh)
    return (len(Position(fen, variant).legal_moves), ms[len(ms) // 2], _p99(fresh), _p99(fresh_cpu),
            _p99(alone))


class TimedRunner(Runner):
    """A runner that times every call into the controller."""

    frames: list[float]
    ticks: list[float]

    def frame(self) -> list[dict]:
        start, cpu = time.perf_counter(), time.process_time()
        events = super().frame()
        self.frames.append(time.perf_counter() - start)
        self.frames_cpu.append(time.process_time() - cpu)
        return events

    def advance_to(self, target: int) -> list[dict]:
        c = self.controller
        events = []
        while True:
            deadline = c.next_deadline()
            if deadline is None or deadline > target or deadline <= self.now:
                break
            self.now = deadline
            start = time.perf_counter()
            events += c.on_tick(deadline)
            self.ticks.append(time.perf_counter() - start)
        self.now = max(self.now, target)
        start = time.perf_counter()
        events += c.on_tick(self.now)
        self.ticks.append(time.perf_counter() - start)
        return events


def _figures(name: str, samples: list[float]) -> str:
    ms = sorted(s * 1000 for s in samples)
    p99 = ms[max(0, int(len(ms) * 0.99) - 1)]
    return (f"{name:<28} n={len(ms):>5}  mean {statistics.fmean(ms):6.3f} ms  "
            f"p99 {p99:6.3f} ms  max {ms[-1]:6.3f} ms")


def _p99(samples: list[float]) -> float:
    ms = sorted(s * 1000 for s in samples)
    return ms[max(0, int(len(ms) * 0.99) - 1)]


def timed_replay(lines: list[str], db: str, variant: str = "maxima") -> TimedRunner:
    from maxima_board.service.script import parse_script
    runner = TimedRunner.__new__(TimedRunner)
    runner.frames, runner.ticks, runner.frames_cpu = [], [], []
    Runner.__init__(runner, Settings(), store=GameStore(db), variant=variant)
    for step in parse_script(lines, variant):
        runner.do(step)
    return runner


def bench_variant(variant: str, plies: int, seed: int, tmp: str) -> bool:
    """Frame and tick figures of one game, and its table build; whether
    the issue 9 targets are met."""
    lines = variant_script(variant, plies, seed)
    runner = timed_replay(lines, os.path.join(tmp, f"{variant}.db"), variant)
    moves, p50, p99, p99_cpu, alone = table_build(variant)
    frame = _p99(runner.frames_cpu)
    geometry = Position("start", variant).geometry
    ten = len(geometry.names) == 100
    print(f"{variant}: {plies} plies (seed {seed}), {len(runner.frames)} frames")
    print("  " + _figures("sensor frame (on_frame)", runner.frames))
    print("  " + _figures("sensor frame, CPU time", runner.frames_cpu))
    print("  " + _figures("clock tick (on_tick)", runner.ticks))
    print(f"  move table, crowded position ({moves} moves): fresh p50 {p50:.3f} ms, p99 {p99:.3f} ms "
          f"(CPU p99 {p99_cpu:.3f} ms); table alone CPU p99 {alone:.3f} ms")
    return frame <= 2.0 and (not ten or p99_cpu <= 5.0)


SIM_RSS = """
import io, sys
sys.path.insert(0, {root!r})
from maxima_board.board.settings import Settings
from maxima_board.cli.sim import run_sim
script = open({script!r}).read()
out = io.StringIO()
run_sim(Settings(db_path={db!r}), io.StringIO(script), out)
moves = sum(1 for line in out.getvalue().splitlines() if line.startswith("move "))
hwm = [line for line in open("/proc/self/status") if line.startswith("VmHWM")][0].split()[1]
print(moves, hwm)
"""


def sim_peak_rss(lines: list[str], tmp: str) -> tuple[int, float]:
    """Moves committed and peak RSS (MB) of a sim session playing ``lines``."""
    script = os.path.join(tmp, "game.txt")
    with open(script, "w") as f:
        f.write("\n".join(lines) + "\nquit\n")
    code = SIM_RSS.format(root=str(ROOT), script=script, db=os.path.join(tmp, "sim.db"))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    moves, hwm_kb = out.split()
    return int(moves), int(hwm_kb) / 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--plies", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--variant", metavar="NAME", help="the game (see 'maxima-board variants')")
    parser.add_argument("--all", action="store_true", help="every game, one after the other")
    args = parser.parse_args()
    if args.variant or args.all:
        names = variants.names() if args.all else [variants.get(args.variant).name]
        with tempfile.TemporaryDirectory() as tmp:
            met = [bench_variant(name, args.plies, args.seed, tmp) for name in names]
        ok = all(met)
        print("targets (frame CPU p99 ≤ 2 ms; 10x10 crowded table build CPU p99 ≤ 5 ms):",
              "met" if ok else "NOT MET")
        return 0 if ok else 1
    lines = game_script(args.plies, args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        runner = timed_replay(lines, os.path.join(tmp, "bench.db"))
        played = len(runner.controller.store.moves(runner.controller.game_id))
        games = len(runner.controller.store.games())
        print(f"{args.plies} plies of random legal moves (seed {args.seed}) as {len(runner.frames)} "
              f"sensor frames; {games} game(s), {played} moves in the last")
        print(_figures("sensor frame (on_frame)", runner.frames))
        print(_figures("clock tick (on_tick)", runner.ticks))
        print(_figures("all calls", runner.frames + runner.ticks))
        memory_runner = timed_replay(lines, ":memory:")
        print(_figures("clock tick, store in memory", memory_runner.ticks))
        moves, rss = sim_peak_rss(lines, tmp)
        print(f"maxima-board sim: {moves} moves committed, peak RSS (VmHWM) {rss:.1f} MB")
    ok = _p99(runner.frames) <= 5.0 and rss <= 60.0
    print("targets (frame p99 ≤ 5 ms, sim RSS ≤ 60 MB):", "met" if ok else "NOT MET")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
