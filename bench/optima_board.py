"""Optima on the board: whole games played by hand through the controller.

    python bench/optima_board.py [--games N] [--kinds eq,u1,u2,random] [--board 10x10|9x9]

Each game starts from the start of its kind of forces (O4; u1, u2 and
random drawn with the game's seed), and a simulated player
(``maxima_board.board.hands.pick_move``: royal captures first, captures often)
makes every move as sensor frames and button presses
(``maxima_board.board.hands.hand_lines``: placements, conversions exchanged on
their squares, rifle shots, captured pieces off before or after) until the
game ends (O13) or 400 plies. Prints, per kind, the games, plies, how they
ended, the moves of each sort the board saw, and the wall time per ply
(script lines included) and per controller call.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "src"))

from maxima_board.board.hands import hand_lines, pick_move  # noqa: E402
from maxima_board.service.script import Runner, parse_script  # noqa: E402
from maxima_board.board.settings import Settings  # noqa: E402
from maxima_board.rules import Position  # noqa: E402
from maxima_board.rules.optima.forces import start_fen  # noqa: E402

MAX_PLIES = 400


class TimedRunner(Runner):
    """A runner that times every call into the controller."""

    calls: list[float]

    def _timed(self, call, *args):
        t = time.perf_counter()
        out = call(*args)
        self.calls.append(time.perf_counter() - t)
        return out

    def _frame(self):
        return self._timed(super()._frame)

    def press(self, button):
        return self._timed(super().press, button)


def play(variant: str, forces: str, seed: int) -> tuple[int, str, Counter, float, list[float]]:
    fen = start_fen(variant, forces, seed=seed)
    rng = random.Random(seed)
    settings = Settings(variant=variant, board_kind="10x10")
    runner = TimedRunner(settings, fen=fen, variant=variant)
    runner.calls = []
    c = runner.controller
    sorts: Counter = Counter()
    t0 = time.perf_counter()
    while c.result == "*" and len(c.moves) < MAX_PLIES:
        p = c.position
        move = pick_move(p, rng)
        sorts[move.kind] += 1
        if move.promotion:
            sorts["promotion"] += 1
        if len(move.captures) > 1:
            sorts["several captures"] += 1
        for step in parse_script(hand_lines(p, move, rng, settings.settle_ms, c._table), variant):
            runner.do(step)
        if c.moves[-1:] != [str(move)]:
            raise SystemExit(f"{variant} {forces} seed {seed}: {move} did not commit in {p.fen()}")
    return len(c.moves), c.reason or "400 plies", sorts, time.perf_counter() - t0, runner.calls


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=5, help="games per kind (seeds 1..N)")
    parser.add_argument("--kinds", default="eq,u1,u2,random", help="kinds of forces, comma-separated")
    parser.add_argument("--board", choices=("10x10", "9x9"), default="10x10")
    args = parser.parse_args()
    variant = "optima" if args.board == "10x10" else "optima-9x9"
    for kind in args.kinds.split(","):
        if kind == "u2" and variant == "optima-9x9":
            continue
        plies, seconds, ends, sorts, calls = 0, 0.0, Counter(), Counter(), []
        for seed in range(1, args.games + 1):
            n, reason, s, dt, c = play(variant, kind, seed)
            plies, seconds = plies + n, seconds + dt
            ends[reason] += 1
            sorts += s
            calls += c
        calls.sort()
        p99 = calls[int(len(calls) * 0.99)] * 1000 if calls else 0.0
        print(f"{variant} {kind}: {args.games} games, {plies} plies, ends {dict(ends)}")
        print(f"  moves seen: {dict(sorted(sorts.items()))}")
        print(f"  {seconds / max(plies, 1) * 1000:.2f} ms per ply (all of it); controller call "
              f"mean {sum(calls) / max(len(calls), 1) * 1000:.3f} ms, p99 {p99:.3f} ms, n={len(calls)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
