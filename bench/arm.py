"""The compiled engine on the Raspberry Pi's architectures, checked without a Pi.

    python bench/arm.py [--positions N] [--depth N] [--callgrind-depth N] [--no-qemu] [--no-callgrind]

1. Builds the engine for aarch64 (64-bit Raspberry Pi OS) and armhf (32-bit)
   with Debian's cross compilers (gcc-aarch64-linux-gnu, gcc-arm-linux-gnueabihf)
   and runs them under qemu-user on positions of every game family: perft(2),
   the sorted legal moves, the FEN after every move, ``search`` at a fixed
   depth and a UCI conversation (``go depth 3``). Prints, per game and
   architecture, "equal" or the first line that differs from this machine's
   build (tests/engine_builds.py does the work; the slow test
   tests/test_opponent_engine_arm.py asserts the same).
2. Counts the instructions of this machine's build (make's default,
   profile-guided) per search node with ``valgrind --tool=callgrind``: a
   figure that does not depend on the load of the machine, to compare with
   ``perf stat -e instructions`` or the nodes/s of ``maxima-engine search`` on
   a Pi. (x86-64 and ARM instructions are not the same unit; the ratio
   between games and the nodes/s are what carry over.)

qemu's speed says nothing about a Pi's speed, so no ARM speed is printed.
"""
from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from bench.engine import AFTER_PLACEMENT  # noqa: E402
from bench.perft import middle_game  # noqa: E402
from maxima_board.rules import Position  # noqa: E402
from tests import engine_builds as eb  # noqa: E402
from tests.opponent_engine import build  # noqa: E402

CALLGRIND_GAMES = ["maxima", "ultima", "ultima-pure", "swapper-chess", "coordinator-chess-10x8", "optima"]


def qemu_check(count: int, depth: int) -> None:
    work = eb.work(count=count, searches=3)
    for w in work:
        w.search_depth = depth
    with tempfile.TemporaryDirectory() as tmp:
        builds = {}
        for target in eb.ARM:
            missing = target.missing()
            if missing:
                print(f"{target.name}: {', '.join(missing)} missing (apt-get install {' '.join(target.apt)})")
                continue
            (Path(tmp) / target.name).mkdir()
            t0 = time.monotonic()
            builds[target.name] = eb.build(target, Path(tmp) / target.name, "trained")
            print(f"{target.name}: built with {target.cc}, profile trained under {target.run[0]} "
                  f"({time.monotonic() - t0:.0f} s)")
        if not builds:
            return
        reference = [str(build())]
        print(f"\n{count} positions per game: perft({work[0].perft_depth}), moves, FEN after every move of "
              f"{len(work[0].children)}, search depth {depth} of {len(work[0].searches)}, UCI go depth "
              f"{work[0].uci_depth}; compared with this machine's build (make's default)\n")
        names = list(builds)
        print(f"| game | {' | '.join(names)} | best moves (UCI, go depth {work[0].uci_depth}) |")
        print("|---|" + "---|" * len(names) + "---|")
        for w in work:
            mine = eb.outputs(reference, w)
            cells = []
            for name in names:
                diff = eb.differences(mine, eb.outputs(builds[name].command, w))
                cells.append("equal" if not diff else "DIFFERS: " + "; ".join(diff))
            print(f"| {w.variant} | {' | '.join(cells)} | {' '.join(m.split()[1] for m in eb.bestmoves(mine))} |")


def instructions(binary: Path, variant: str, depth: int, fen: str) -> tuple[int, int, str]:
    """(instructions, nodes, best move) of ``maxima-engine search`` under callgrind."""
    with tempfile.TemporaryDirectory() as tmp:
        r = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/out",
                            str(binary), "search", variant, str(depth), fen],
                           capture_output=True, text=True, check=True)
    ir = int(re.search(r"Collected : (\d+)", r.stderr).group(1))
    last = r.stdout.strip().splitlines()[-1]
    nodes = int(re.search(r": (\d+) nodes", last).group(1))
    return ir, nodes, last.split("best ")[-1]


def callgrind_table(depth: int) -> None:
    binary = build()
    print(f"\nInstructions per search node, x86-64, make's default build "
          f"(valgrind --tool=callgrind {binary.name} search GAME {depth} FEN; per node: the instructions "
          f"and nodes of that search minus those of a depth-1 search of the same position, which leaves "
          f"out the start-up and the clearing of the transposition table):\n")
    print("| game | position | nodes | instructions | instructions/node | best |")
    print("|---|---|---|---|---|---|")
    for v in CALLGRIND_GAMES:
        if v in AFTER_PLACEMENT:
            cases = [("after the placement", AFTER_PLACEMENT[v], depth - 1)]
        else:
            cases = [("start", Position("start", v).fen(), depth), ("middle game", middle_game(v).fen(), depth)]
        for label, fen, d in cases:
            ir, nodes, best = instructions(binary, v, d, fen)
            ir1, nodes1, _ = instructions(binary, v, 1, fen)
            per_node = (ir - ir1) / max(1, nodes - nodes1)
            print(f"| {v} | {label} (depth {d}) | {nodes:,} | {ir / 1e6:,.0f} M | {per_node:,.0f} | {best} |")


def peak_memory() -> None:
    """Peak resident memory (VmHWM) of a UCI session of this machine's build: the default
    Hash (16 MB), ``go depth 6`` in Maxima and ``go depth 5`` in Optima after the placement."""
    binary = build()
    proc = subprocess.Popen([str(binary)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    for variant, fen, depth in (("maxima", Position("start", "maxima").fen(), 6),
                                ("optima", AFTER_PLACEMENT["optima"], 5)):
        proc.stdin.write(f"setoption name UCI_Variant value {variant}\nposition fen {fen}\ngo depth {depth}\n")
        while not proc.stdout.readline().startswith("bestmove"):
            pass
    status = Path(f"/proc/{proc.pid}/status").read_text()
    proc.stdin.write("quit\n")
    proc.stdin.flush()
    proc.wait()
    hwm = re.search(r"VmHWM:\s+(\d+) kB", status)
    print(f"\nPeak resident memory of a UCI session (Hash 16 MB; Maxima depth 6, then Optima depth 5): "
          f"{int(hwm.group(1)) / 1024:.1f} MB" if hwm else "\n(no /proc: peak memory not measured)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--positions", type=int, default=100, help="positions per game (default 100)")
    ap.add_argument("--depth", type=int, default=5, help="search depth (default 5)")
    ap.add_argument("--callgrind-depth", type=int, default=6, help="search depth under callgrind (default 6; "
                    "Optima one less)")
    ap.add_argument("--no-qemu", action="store_true")
    ap.add_argument("--no-callgrind", action="store_true")
    args = ap.parse_args()
    if not args.no_qemu:
        qemu_check(args.positions, args.depth)
    peak_memory()
    if not args.no_callgrind:
        callgrind_table(args.callgrind_depth)
    return 0


if __name__ == "__main__":
    sys.exit(main())
