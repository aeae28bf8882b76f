"""Optima speed (issue 10): perft after a complete equal-forces placement, and
legal moves of crowded middle-game positions.

    python bench/optima.py [--depth N] [--repeat R] [--positions K]

Prints CPU seconds (time.process_time: the machine is shared, wall time is
noise). perft(1..N) from the position after the E10 placement of optima.md
("Reference counts": 29 legal moves), leaves/s; then, for K middle-game
positions (seeded random games of every kind of forces on 10x10 after the
placement, 20 moves in, most units still on the board), the median and
worst CPU time of generating the legal moves (FEN reading excluded, cache
cleared each run) and of FEN + legal moves + royal attack + outcome.
Target: legal moves of a crowded middle-game position <= 5 ms.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from maxima_board.rules import Position  # noqa: E402
from maxima_board.rules.optima.forces import start_fen  # noqa: E402

AFTER_E10 = ("vr*requmakejufachcear/gdgdgdgdgdgdgdgdgdgd/pnpnpnpnpnpnpnpnpnpn/10/10/10/10/PNPNPNPNPNPNPNPNPNPN/"
             "GDGDGDGDGDGDGDGDGDGD/ARCECHFAJUKEMAQUREVR* w - - 20")
EXPECTED = {1: 29}


def middle_games(count: int) -> list[str]:
    """Crowded positions: after the placement, 20 moves without captures where possible."""
    out = []
    kinds = ["eq", "u1", "u2", "random"]
    seed = 0
    while len(out) < count:
        forces = kinds[seed % 4]
        rng = random.Random(seed)
        p = Position(start_fen("optima", forces, seed=seed), "optima", forces=forces)
        seed += 1
        while p.phase == "placement":
            p.push(rng.choice(p.legal_moves))
        for _ in range(20):
            moves = p.legal_moves
            if not moves or p.outcome():
                break
            quiet = [m for m in moves if not m.captures and not m.converts]
            p.push(rng.choice(quiet or moves))
        if p.outcome() is None:
            out.append(p.fen())
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=2, help="deepest perft after the E10 placement (default 2)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement; the best CPU time is printed")
    parser.add_argument("--positions", type=int, default=12, help="middle-game positions (default 12)")
    args = parser.parse_args(argv)
    ok = True
    for depth in range(1, args.depth + 1):
        best, nodes = None, 0
        for _ in range(args.repeat):
            p = Position(AFTER_E10, "optima")
            start = time.process_time()
            nodes = p.perft(depth)
            elapsed = time.process_time() - start
            best = elapsed if best is None else min(best, elapsed)
        known = EXPECTED.get(depth)
        ok &= known is None or nodes == known
        print(f"after E10 placement perft({depth}) = {nodes:>9,}  {best:7.3f} s CPU  "
              f"{nodes / max(best, 1e-9):>9,.0f} leaves/s  "
              f"{'ok' if known == nodes else 'WRONG' if known else '(no reference)'}")
    fens = middle_games(args.positions)
    gen, full, sizes, units = [], [], [], []
    for fen in fens:
        p = Position(fen, "optima")
        sizes.append(len(p.legal_moves))
        units.append(sum(1 for v in p.board if v))
        best_gen = best_full = None
        for _ in range(max(args.repeat, 5)):
            p._cache = {}
            start = time.process_time()
            p.legal_moves
            t1 = time.process_time() - start
            start = time.process_time()
            q = Position(fen, "optima")
            q.legal_moves
            q.royal_attacked()
            q.outcome()
            t2 = time.process_time() - start
            best_gen = t1 if best_gen is None else min(best_gen, t1)
            best_full = t2 if best_full is None else min(best_full, t2)
        gen.append(best_gen)
        full.append(best_full)
    print(f"middle games: {len(fens)} positions, {min(units)}-{max(units)} units, "
          f"{min(sizes)}-{max(sizes)} legal moves")
    print(f"  legal moves: median {statistics.median(gen) * 1e3:.2f} ms CPU, worst {max(gen) * 1e3:.2f} ms "
          f"(target <= 5 ms)")
    print(f"  FEN + legal moves + royal attack + outcome: median {statistics.median(full) * 1e3:.2f} ms CPU, "
          f"worst {max(full) * 1e3:.2f} ms")
    worst = fens[gen.index(max(gen))]
    print(f"  slowest: [{worst}]")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
