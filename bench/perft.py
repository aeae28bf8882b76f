"""Engine speed: perft from the start and one middle-game position's report.

    python bench/perft.py [--depth4]

Targets (issue 2): perft(3) from the start ≤ 2.0 s; legal moves + check +
outcome of a middle-game position ≤ 2 ms.
"""
from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import Position  # noqa: E402

# 130 legal moves, reached by a seeded random game of 40 plies.
MIDDLE_GAME = "xxx2xxx/6b1/1Gm1r3/4qkp1/2p3d1/2D5/5R1N/1P1P3D/4NM2/B1Q1K1G1/xxx1Bxxx w 40"
EXPECTED = {1: 41, 2: 1_643, 3: 78_930, 4: 3_694_617}


def main() -> int:
    depths = (1, 2, 3, 4) if "--depth4" in sys.argv else (1, 2, 3)
    ok = True
    for depth in depths:
        position = Position()
        start = time.perf_counter()
        nodes = position.perft(depth)
        elapsed = time.perf_counter() - start
        match = nodes == EXPECTED[depth]
        ok &= match
        print(f"perft({depth}) start = {nodes:>9,}  {elapsed:7.3f} s  "
              f"{nodes / elapsed:>9,.0f} leaves/s  {'ok' if match else 'WRONG'}")

    samples = []
    for _ in range(200):
        position = Position(MIDDLE_GAME, validate=False)
        start = time.perf_counter()
        moves = position.legal_moves
        position.is_check()
        position.outcome()
        samples.append(time.perf_counter() - start)
    samples.sort()
    print(f"middle game ({len(moves)} legal moves): legal moves + check + outcome "
          f"median {statistics.median(samples) * 1e3:.3f} ms, "
          f"p99 {samples[int(len(samples) * 0.99) - 1] * 1e3:.3f} ms")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
