"""The strength tables of issue 11: matches per family, printed as Markdown.

    python bench/match.py [--games N] [--movetime MS] [--variants V,V,...]
                          [--strong SPEC] [--weak SPEC] [--baselines] [--seed S]

For each variant (default: maxima, ultima, withdrawer-chess: one game of
each family) it plays, from seeded random openings, each opening with both
colours (``maxima_board.opponent.match``):

1. STRONG at MOVETIME ms/move vs ``minimax2`` (target: STRONG ≥ 95%);
2. STRONG at MOVETIME vs STRONG at MOVETIME/10 (target: ≥ 75%);
3. WEAK vs ``greedy`` (target: WEAK < 50%, beatable by a beginner);

with ``--baselines`` also ``greedy`` vs ``random`` and ``minimax2`` vs
``greedy`` (the baselines' own ladder). STRONG defaults to
``builtin:level=10`` and WEAK to ``builtin:level=1`` (the compiled engine:
``make -C engine``); any engine spec works (``minimax2``, a path…),
so the script runs before the engine is built. Each row: the score of the
first engine, W/D/L, percent, Elo and its 95% interval (see
``opponent/match.py`` for the formula), and the wall time of the row.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from maxima_board.opponent.match import elo_interval, run_match  # noqa: E402
from maxima_board.opponent.supervisor import Limits  # noqa: E402

FAMILIES = ("maxima", "ultima", "withdrawer-chess")


def _fmt(x: float) -> str:
    return "∞" if x == float("inf") else "-∞" if x == float("-inf") else f"{x if abs(x) >= 0.5 else 0.0:+.0f}"


def _with(spec: str, extra: str) -> str:
    return f"{spec},{extra}" if ":" in spec and "=" in spec.rpartition(":")[2] else f"{spec}:{extra}"


def pairings(strong: str, weak: str, movetime: int, baselines: bool) -> list[tuple[str, str, str]]:
    rows = [
        (_with(strong, f"movetime={movetime}"), "minimax2", "≥ 95%"),
        (_with(strong, f"movetime={movetime}"), _with(strong, f"movetime={max(1, movetime // 10)}"), "≥ 75%"),
        (weak, "greedy", "< 50%"),
    ]
    if baselines:
        rows += [("greedy", "random", ""), ("minimax2", "greedy", "")]
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20, help="games per row (default 20)")
    ap.add_argument("--movetime", type=int, default=1000, help="ms per move of STRONG (default 1000)")
    ap.add_argument("--variants", default=",".join(FAMILIES), help="comma-separated variant names")
    ap.add_argument("--strong", default="builtin:level=10")
    ap.add_argument("--weak", default="builtin:level=1")
    ap.add_argument("--baselines", action="store_true", help="also the baselines' ladder")
    ap.add_argument("--only-baselines", action="store_true", help="only the baselines' ladder")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--max-plies", type=int, default=300)
    args = ap.parse_args(argv)
    rows = pairings(args.strong, args.weak, args.movetime, args.baselines or args.only_baselines)
    if args.only_baselines:
        rows = rows[3:]
    print(f"games per row: {args.games}, openings of 4 random plies (seed {args.seed}), each with both colours; "
          f"move cap {args.max_plies} plies = draw; limit per move: the spec's movetime, else "
          f"{args.movetime} ms\n")
    print("| variant | A | B | target (A) | A's score | +W =D -L | A % | Elo (95% interval) | wall s |")
    print("|---|---|---|---|---|---|---|---|---|")
    for variant in args.variants.split(","):
        for a, b, target in rows:
            start = time.monotonic()
            m = run_match(a, b, args.games, variant, Limits(movetime=args.movetime), seed=args.seed,
                          max_plies=args.max_plies)
            n = len(m.games)
            w, d, l = m.counts()
            total = sum(m.scores)
            e, lo, hi = elo_interval(m.scores)
            print(f"| {variant} | {a} | {b} | {target} | {total:g}/{n} | +{w} ={d} -{l} | {100 * total / n:.1f} | "
                  f"{_fmt(e)} ({_fmt(lo)} .. {_fmt(hi)}) | {time.monotonic() - start:.0f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
