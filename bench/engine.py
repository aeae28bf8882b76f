"""Speed of the compiled engine (engine, issue 11).

    python bench/engine.py [--depth-perft N] [--depth-search N] [--variant NAME ...]
                           [--binary PATH] [--eval-terms MASK]

Builds the engine with make, then prints for each game family (default:
maxima, ultima, one Deckle game on each board) perft leaves/s from the start
and search nodes/s from the start and from a middle-game position (a seeded
random game of 40 plies, as bench/perft.py). Rates are per CPU second of the
engine process (the machine is shared; wall time is also shown).

Optima (``--variant optima``, ``--variant optima-9x9``): perft from the
start only counts placements (O5), so the figures are perft from the position
after the placement (E10: optima.md's 29-move position; E9: the same set-up on
9x9) and from the middle game, and search nodes/s from both.

``--binary`` measures that engine instead of building one (a build of an
older commit, say); ``--eval-terms MASK`` runs it with that EvalTerms mask
(issue 23's evaluation terms; 0: without them).

Targets (issue 11): perft >= 5 million leaves/s for Maxima; search >= 1
million nodes/s.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from bench.perft import middle_game  # noqa: E402
from tests.opponent_engine import build  # noqa: E402

DEFAULT = ["maxima", "ultima", "ultima-pure", "swapper-chess", "coordinator-chess-10x8"]
AFTER_PLACEMENT = {
    "optima": "vr*requmakejufachcear/gdgdgdgdgdgdgdgdgdgd/pnpnpnpnpnpnpnpnpnpn/10/10/10/10/PNPNPNPNPNPNPNPNPNPN/"
              "GDGDGDGDGDGDGDGDGDGD/ARCECHFAJUKEMAQUREVR* w - - 20",
    "optima-9x9": "4vr*requfach/gdgdgdgdgdgdgdgdgd/pnpnpnpnpnpnpnpnpn/9/9/9/PNPNPNPNPNPNPNPNPN/GDGDGDGDGDGDGDGDGD/"
                  "CHFAQUREVR*4 w - - 10",
}


FLAGS: list[str] = []   # put before every mode (--eval-terms MASK)


def run(binary: Path, *args: str) -> str:
    r = subprocess.run([str(binary), *FLAGS, *args], capture_output=True, text=True, check=True)
    return r.stdout.strip().splitlines()[-1]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("--variant", action="append")
    ap.add_argument("--depth-perft", type=int, default=0, help="default: 4")
    ap.add_argument("--depth-search", type=int, default=7)
    ap.add_argument("--binary", type=Path, help="default: build engine")
    ap.add_argument("--eval-terms", type=int, metavar="MASK", help="the engine's EvalTerms (default: its own, 7)")
    args = ap.parse_args()
    binary = args.binary or build()
    if args.eval_terms is not None:
        FLAGS[:] = ["--eval-terms", str(args.eval_terms)]
    for v in args.variant or DEFAULT:
        if v in AFTER_PLACEMENT:
            optima(binary, v, args.depth_perft or 4, args.depth_search)
            continue
        depth = args.depth_perft or 4
        print(run(binary, "bench", v, str(depth)))
        print(run(binary, "search", v, str(args.depth_search)))
        fen = middle_game(v).fen()
        print(run(binary, "search", v, str(args.depth_search), fen), f"[middle game {fen}]")
    return 0


def optima(binary: Path, v: str, depth: int, depth_search: int) -> None:
    after = AFTER_PLACEMENT[v]
    middle = middle_game(v).fen()
    print(run(binary, "bench", v, str(depth), after), "[after the placement]")
    print(run(binary, "bench", v, str(max(depth - 1, 1)), middle), f"[middle game {middle}]")
    print(run(binary, "search", v, str(depth_search), after), "[after the placement]")
    print(run(binary, "search", v, str(depth_search), middle), "[middle game]")


if __name__ == "__main__":
    raise SystemExit(main())
