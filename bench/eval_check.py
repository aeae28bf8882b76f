"""A check match: one engine build (or option set) against another at a fixed
node budget, the games shared among worker processes.

    python bench/eval_check.py --new 'builtin' --old 'builtin:EvalTerms=0'
                               [--variant maxima --variant ultima ...] [--games 400]
                               [--nodes 300000] [--jobs 2] [--seed 1] [--max-plies 200]
                               [--log DIR]

For each game (``--variant``, repeatable; default maxima) it plays GAMES
games (rounded up to a multiple of twice the jobs) of NEW against OLD, every
move a bare ``go nodes NODES`` for both (the budget of a Pi 4 at about a
third of a second a move). Job j plays its share from the random openings of
opponent/match.py's ``openings`` drawn with seed SEED * 1000 + j, each opening
with both colours. Each finished game is appended as one JSON line to
``DIR/<variant>-job<j>.jsonl`` (default DIR: bench/eval-check), so that a
long run can be watched and its games kept; the table at the end gives
NEW's score, +W =D -L and the Elo difference with its 95 % interval
(opponent/match.py's ``elo_interval`` over the per-game scores), and with
more than one game a pooled row over all of them: a family's verdict.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from maxima_board.opponent.match import _fmt, elo_interval, run_match  # noqa: E402
from maxima_board.opponent.supervisor import Limits  # noqa: E402

LOG_DIR = Path(__file__).resolve().parent / "eval-check"


def play_share(new: str, old: str, variant: str, games: int, nodes: int, seed: int,
               max_plies: int, log: Path) -> list[float]:
    """One job's games; NEW's score of each, in order."""
    with log.open("a", encoding="utf-8") as out:
        def note(number: int, game) -> None:
            out.write(json.dumps({"n": number, "new_white": game.a_white, "result": game.result,
                                  "reason": game.reason, "score": game.score,
                                  "plies": len(game.moves), "opening": game.opening}) + "\n")
            out.flush()

        match = run_match(new, old, games, variant, Limits(nodes=nodes), seed=seed, max_plies=max_plies,
                          on_game=note)
    return match.scores


def table_row(label: str, scores: list[float], seconds: float | None) -> str:
    """One row of the result table: NEW's score over SCORES and its Elo with the 95 % interval."""
    e, lo, hi = elo_interval(scores)
    n, total = len(scores), sum(scores)
    wall = "" if seconds is None else f"{seconds:.0f}"
    return (f"| {label} | {n} | {total:g} | +{scores.count(1.0)} ={scores.count(0.5)} -{scores.count(0.0)} "
            f"| {100 * total / n:.1f} | {_fmt(e)} [{_fmt(lo)} .. {_fmt(hi)}] | {wall} |")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--new", required=True, help="engine spec of the build checked (opponent/specs.py)")
    ap.add_argument("--old", required=True, help="engine spec of the reference build")
    ap.add_argument("--variant", action="append", help="a game (repeatable; default maxima)")
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--nodes", type=int, default=300_000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-plies", type=int, default=200)
    ap.add_argument("--log", type=Path, default=LOG_DIR)
    args = ap.parse_args(argv)
    if args.games < 2 or args.jobs < 1 or args.nodes < 1:
        ap.error("--games must be at least 2, --jobs and --nodes at least 1")
    args.log.mkdir(parents=True, exist_ok=True)
    per_job = -(-args.games // (2 * args.jobs)) * 2
    rows = []
    every: list[float] = []
    variants = args.variant or ["maxima"]
    for variant in variants:
        started = time.monotonic()
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            shares = [pool.submit(play_share, args.new, args.old, variant, per_job, args.nodes,
                                  args.seed * 1000 + j, args.max_plies, args.log / f"{variant}-job{j}.jsonl")
                      for j in range(args.jobs)]
            scores = [s for share in shares for s in share.result()]
        every += scores
        row = table_row(variant, scores, time.monotonic() - started)
        print(row, flush=True)
        rows.append(row)
    if len(variants) > 1:
        rows.append(table_row("all, pooled", every, None))
    print(f"\nNEW {args.new} against OLD {args.old}, {args.nodes} nodes a move, openings seed {args.seed}:\n")
    print("| game | games | NEW's score | +W =D -L | % | Elo [95 %] | wall s |")
    print("|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
