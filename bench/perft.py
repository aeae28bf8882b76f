"""Engine speed: perft from the start and one middle-game position's report.

    python bench/perft.py [--variant NAME | --all] [--depth N] [--repeat R]

Prints, per depth, the leaves, the CPU seconds (time.process_time: the
machine is shared, wall time is noise) and leaves per second, the best of
``--repeat`` runs, and whether the count matches the rules file. Then the
median CPU time of legal moves + check + outcome for a middle-game position
(reached by a seeded random game of 40 plies), FEN reading included.

Targets (issue 8): Maxima perft(4) <= 20 s; every other game >= 100,000
leaves/s at depth 3; middle-game report <= 1 ms.
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

from maxima_board.rules import Position, variants  # noqa: E402

_D10 = (34, 1_156, 43_344)
_D8 = (24, 576, 15_994)
EXPECTED = {
    "maxima": (41, 1_643, 78_930, 3_694_617),
    "ultima": (32, 944, 42_762), "ultima-pure": (32, 944, 42_762),
    "long-leaper-chess": (34, 1_156, 43_362), "long-leaper-chess-10x8": (24, 576, 15_998),
    "swapper-chess": (38, 1_444, 59_398), "swapper-chess-10x8": (28, 784, 24_498),
    # Optima's placement perft (optima.md "Reference counts"); bench/optima.py measures its movement phase
    "optima": (100, 10_000, 810_000, 65_610_000), "optima-9x9": (45, 2_025, 64_800, 2_073_600),
}
for _name in variants.names():
    EXPECTED.setdefault(_name, _D8 if _name.endswith("10x8") else _D10)


def middle_game(variant: str) -> Position:
    rng = random.Random(2026)
    p = Position("start", variant)
    for _ in range(40):
        moves = p.legal_moves
        if not moves or p.outcome():
            break
        p.push(rng.choice(moves))
    return Position(p.fen(), variant)


def bench(variant: str, depths: tuple[int, ...], repeat: int) -> bool:
    ok = True
    for depth in depths:
        best = None
        for _ in range(repeat):
            position = Position("start", variant)
            start = time.process_time()
            nodes = position.perft(depth)
            elapsed = time.process_time() - start
            best = elapsed if best is None else min(best, elapsed)
        expected = EXPECTED[variant]
        known = depth <= len(expected)
        match = known and nodes == expected[depth - 1]
        ok &= match or not known
        print(f"{variant:24} perft({depth}) = {nodes:>9,}  {best:7.3f} s CPU  "
              f"{nodes / max(best, 1e-9):>9,.0f} leaves/s  {'ok' if match else 'WRONG' if known else '(no reference)'}")
    fen = middle_game(variant).fen()
    samples = []
    for _ in range(100):
        start = time.process_time()
        # construction is timed too: a Deckle position computes its legal
        # moves at once (its repetition key depends on them, D16)
        position = Position(fen, variant, validate=False)
        moves = position.legal_moves
        position.is_check()
        position.outcome()
        samples.append(time.process_time() - start)
    print(f"{variant:24} middle game ({len(moves)} legal moves): FEN + legal moves + check + outcome "
          f"median {statistics.median(samples) * 1e3:.3f} ms CPU   [{fen}]")
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="maxima", choices=variants.names())
    parser.add_argument("--all", action="store_true", help="every game, depths 1-3")
    parser.add_argument("--depth", type=int, default=3, help="deepest perft (default 3)")
    parser.add_argument("--depth4", action="store_true", help="same as --depth 4")
    parser.add_argument("--repeat", type=int, default=1, help="runs per depth; the best CPU time is printed")
    args = parser.parse_args(argv)
    depth = 4 if args.depth4 else args.depth
    names = variants.names() if args.all else [args.variant]
    ok = True
    for name in names:
        ok &= bench(name, tuple(range(1, depth + 1)), args.repeat)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
