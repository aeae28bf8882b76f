"""The compiled engine's search trees, for checking that a speed-up changes no search.

    python bench/engine_trees.py [--binary PATH] [--depth N ...] [--variant NAME ...]
                                 [--selfplay NAME ...] [--eval-terms MASK]

For each game (default: every game but Optima) and each bench position (the
start and the seeded middle game of bench/engine.py; for Optima, ``--variant
optima``, also the position after the placement), prints one line per
depth: the nodes searched, the score and the principal variation of the last
iteration, and the best move. With ``--selfplay V`` it also prints a digest of
``maxima-engine selfplay V 4 3 1`` (every sampled position, evaluation and
result). Run it with the engine before and after a change and compare the two
outputs (``diff``): a change that only makes the engine faster prints the same
lines. Timings are left out on purpose (they are bench/engine.py's job).
``--eval-terms MASK`` runs the engine with that EvalTerms mask (0: without the
evaluation terms of issue 23, the trees of the builds before them; their
selfplay output has the terms' ``terms`` and ``feat`` lines, so compare its
``game`` lines, not the digest).
"""
from __future__ import annotations

import argparse
import hashlib
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from bench.engine import AFTER_PLACEMENT  # noqa: E402
from bench.perft import middle_game  # noqa: E402
from maxima_board.rules import variants  # noqa: E402
from tests.opponent_engine import build  # noqa: E402


def tree(binary: Path, variant: str, depth: int, fen: str | None, flags: tuple[str, ...] = ()) -> str:
    args = [str(binary), *flags, "search", variant, str(depth)] + ([fen] if fen else [])
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout.splitlines()
    infos = [line for line in out if line.startswith("info depth")]
    if not infos:   # Optima's search mode prints only its summary line
        words = out[-1].split()
        return f"depth {depth} nodes {words[words.index('nodes,') - 1]} best {words[-1]}"
    info = infos[-1].split()
    def after(word: str, n: int = 1) -> str:
        i = info.index(word)
        return " ".join(info[i + 1:i + 1 + n])
    pv = info[info.index("pv") + 1:]
    best = out[-1].split("best ")[-1]
    return f"depth {after('depth')} nodes {after('nodes')} score {after('score', 2)} best {best} pv {' '.join(pv)}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--binary", type=Path, help="default: build engine")
    ap.add_argument("--depth", type=int, action="append", help="default: 6")
    ap.add_argument("--variant", action="append")
    ap.add_argument("--selfplay", action="append", default=[])
    ap.add_argument("--eval-terms", type=int, metavar="MASK", help="the engine's EvalTerms (default: its own, 7)")
    args = ap.parse_args()
    flags = ("--eval-terms", str(args.eval_terms)) if args.eval_terms is not None else ()
    binary = args.binary or build()
    names = args.variant or [n for n in variants.names() if not n.startswith("optima")]
    for v in names:
        positions = [("start", None), ("middle", middle_game(v).fen())]
        if v in AFTER_PLACEMENT:
            positions.insert(1, ("placed", AFTER_PLACEMENT[v]))
        for label, fen in positions:
            for depth in args.depth or [6]:
                print(f"{v} {label} {tree(binary, v, depth, fen, flags)}", flush=True)
    for v in args.selfplay:
        out = subprocess.run([str(binary), *flags, "selfplay", v, "4", "3", "1"], capture_output=True, text=True,
                             check=True).stdout
        games = [line for line in out.splitlines() if line.startswith("game")]
        print(f"selfplay {v} 4 3 1: {len(out.splitlines())} lines, {' | '.join(games)}, "
              f"sha256 {hashlib.sha256(out.encode()).hexdigest()[:16]}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
