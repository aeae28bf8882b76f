"""Optima Section B speed: the movement-phase generator and O10 on crowded boards.

    python bench/optima_effects.py [--positions N] [--repeat R]

For N seeded random 10x10 positions of 50 units (each of the 26 Section B
types once, the rest drawn from all 56), prints the median CPU time
(time.process_time: the machine is shared, wall time is noise) of
``Tables.board_moves`` (frozen units included) and of ``Tables.frozen`` for
White, and the same for the E10 position after placement. Target (issue 10):
legal moves of a crowded middle-game position <= 5 ms.
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

from maxima_board.rules.optima.tables import Options, Tables  # noqa: E402
from maxima_board.rules.optima.text import parse_board  # noqa: E402
from maxima_board.rules.variants.optima import OPTIMA  # noqa: E402
from maxima_board.rules.variants.optima_units import BY_TOKEN, SECTION_B, UNITS  # noqa: E402

E10_PLACED = ("vr*requmakejufachcear/" + "gd" * 10 + "/" + "pn" * 10 + "/10/10/10/10/" + "PN" * 10 + "/"
              + "GD" * 10 + "/ARCECHFAJUKEMAQUREVR*")


def crowded(rng: random.Random) -> list[int]:
    b = [0] * 100
    for i, q in enumerate(rng.sample(range(100), 50)):
        u = SECTION_B[i] if i < len(SECTION_B) else rng.choice(UNITS)
        b[q] = u.code if i % 2 == 0 else -u.code
    return b


def cpu_ms(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.process_time()
        fn()
        times.append((time.process_time() - t) * 1000)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=50)
    args = ap.parse_args()
    T = Tables(OPTIMA, Options())
    _, e10 = parse_board(E10_PLACED, BY_TOKEN)
    print(f"E10 after placement: {len(T.board_moves(e10, 1))} moves, "
          f"board_moves {cpu_ms(lambda: T.board_moves(e10, 1), args.repeat):.3f} ms, "
          f"frozen {cpu_ms(lambda: T.frozen(e10, 1), args.repeat):.3f} ms")
    rng = random.Random(10)
    gen, frz, counts = [], [], []
    for _ in range(args.positions):
        b = crowded(rng)
        counts.append(len(T.board_moves(b, 1)))
        gen.append(cpu_ms(lambda: T.board_moves(b, 1), args.repeat))
        frz.append(cpu_ms(lambda: T.frozen(b, 1), args.repeat))
    print(f"{args.positions} crowded positions (50 units): moves {min(counts)}-{max(counts)}, "
          f"board_moves median {statistics.median(gen):.3f} ms, max {max(gen):.3f} ms; "
          f"frozen median {statistics.median(frz):.3f} ms")


if __name__ == "__main__":
    main()
