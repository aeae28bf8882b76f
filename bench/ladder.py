"""The levels' ladder: each level's Elo relative to a reference player.

    python bench/ladder.py [--variant V ...] [--levels 1-10] [--games N] [--reference minimax2]
                           [--direct LEVELS] [--max-plies N] [--seed S] [--engine PATH] [--jobs J]

For each game (default: maxima, ultima, withdrawer-chess, optima) it plays
adjacent levels of the built-in engine against each other (``builtin:level=K``
against ``builtin:level=K-1``) and levels against the reference player (by
default ``minimax2``, two plies of material: the strength of vchess.club's
computer player) with opponent/match.py's ``run_match`` (random openings, both
colours, the rules adjudicate). Every move is a bare ``go``: a level searches
its node budget (opponent/levels.py, that game's family's rows), so the table is the same on any
machine (up to the noise of the weakest levels). With ``--jobs J`` J matches
are played at once, each in its own process; the results do not change.

It prints each match (opponent/match.py's summary: score, Elo and its 95 %
interval) and then, per game, each level's Elo relative to the reference
(0) with a 95 % interval: a joint maximum-likelihood fit of all the matches
of that game (the logistic Elo model of opponent/match.py's ``elo``; a draw
counts half), with one virtual draw added to each match so that a 100 %
score gives a finite estimate (a single 10-game match at 10/10 then reads
+529, maxima_board.opponent.match.elo(10.5 / 11), instead of infinity); the interval comes from the fit's curvature.
"""
from __future__ import annotations

import argparse
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from maxima_board.opponent.levels import WORDS, checked, level as level_info  # noqa: E402
from maxima_board.opponent.match import Z95, run_match  # noqa: E402
from maxima_board.opponent.supervisor import Limits  # noqa: E402

VARIANTS = ["maxima", "ultima", "withdrawer-chess", "optima"]
SCALE = math.log(10) / 400        # Elo to the logistic's natural units
PRIOR_DRAWS = 1                   # virtual draws added to each match


@dataclass
class Pairing:
    a: int | None       # a level, or None for the reference
    b: int | None
    games: int
    score: float        # a's total


def level_ranges(text: str) -> list[int]:
    """'1-5' or '1,3,5' or '2-4,7'."""
    out: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        try:
            out.extend(range(int(lo), int(hi or lo) + 1))
        except ValueError:
            raise ValueError(f"bad levels {text!r} (e.g. 1-5, 1,3,5 or 2-4,7)") from None
    for n in out:
        checked(n)   # ValueError naming the range
    return sorted(set(out))


def fit(levels: list[int], pairings: list[Pairing]) -> dict[int, tuple[float, float]]:
    """Each level's (Elo, standard error) relative to the reference (0): Newton's method on the
    log-likelihood of the logistic model, with PRIOR_DRAWS virtual draws per match."""
    index = {n: i for i, n in enumerate(levels)}
    k = len(levels)
    r = [0.0] * k

    def at(x: int | None) -> float:
        return 0.0 if x is None else r[index[x]]

    hess = [[0.0] * k for _ in range(k)]
    for _ in range(100):
        grad = [0.0] * k
        hess = [[0.0] * k for _ in range(k)]
        for p in pairings:
            n, s = p.games + PRIOR_DRAWS, p.score + PRIOR_DRAWS / 2
            e = 1 / (1 + math.exp(-(at(p.a) - at(p.b))))
            g, w = s - n * e, n * e * (1 - e)
            for x, sign in ((p.a, 1), (p.b, -1)):
                if x is None:
                    continue
                grad[index[x]] += sign * g
                for y, sign2 in ((p.a, 1), (p.b, -1)):
                    if y is not None:
                        hess[index[x]][index[y]] += sign * sign2 * w
        step = _solve(hess, grad)
        r = [ri + si for ri, si in zip(r, step)]
        if max(abs(si) for si in step) < 1e-9:
            break
    cov = _inverse(hess)
    return {n: (r[i] / SCALE, math.sqrt(max(cov[i][i], 0.0)) / SCALE) for n, i in index.items()}


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """x with a·x = b (Gaussian elimination; a is the fit's information matrix, positive definite
    when every level is linked to the reference by some chain of matches)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda i: abs(m[i][c]))
        m[c], m[p] = m[p], m[c]
        if abs(m[c][c]) < 1e-12:
            raise ValueError("a level is not linked to the reference by the matches played")
        for i in range(n):
            if i != c:
                f = m[i][c] / m[c][c]
                m[i] = [x - f * y for x, y in zip(m[i], m[c])]
    return [m[i][n] / m[i][i] for i in range(n)]


def _inverse(a: list[list[float]]) -> list[list[float]]:
    n = len(a)
    cols = [_solve(a, [1.0 if i == j else 0.0 for i in range(n)]) for j in range(n)]
    return [[cols[j][i] for j in range(n)] for i in range(n)]


def play(a: str, b: str, games: int, variant: str, seed: int, max_plies: int) -> tuple[str, int, float]:
    """One match of A against B: its summary line (with the wall time), games played and A's score."""
    start = time.monotonic()
    result = run_match(a, b, games, variant, Limits(), seed=seed, max_plies=max_plies)
    return (f"{result.summary()} [{time.monotonic() - start:.0f} s]", len(result.games),
            sum(result.scores))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--variant", action="append", help=f"default: {', '.join(VARIANTS)}")
    ap.add_argument("--levels", default="1-10", help="the levels to place (default 1-10)")
    ap.add_argument("--direct", help="the levels that also play the reference (default: all; the lowest "
                                     "level always does)")
    ap.add_argument("--games", type=int, default=20, help="games per match (default 20)")
    ap.add_argument("--reference", default="minimax2", help="the reference player's spec (default minimax2)")
    ap.add_argument("--engine", default="builtin", help="the engine whose levels are placed (default builtin)")
    ap.add_argument("--max-plies", type=int, default=200, help="a game this long is a draw (default 200)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1, help="matches played at once, each in its own process "
                                                         "(default 1)")
    args = ap.parse_args()
    if args.jobs < 1:
        ap.error("--jobs must be at least 1")
    variants = args.variant or VARIANTS
    try:
        levels = level_ranges(args.levels)
        direct = level_ranges(args.direct) if args.direct else levels
        for variant in variants:
            level_info(1, variant)   # ValueError naming an unknown game
    except ValueError as e:
        ap.error(str(e))
    direct = sorted(set(direct) | {levels[0]})
    spec = args.engine

    def name(x: int | None) -> str:   # the level joins the spec's own options (PATH:EvalTerms=15,level=3)
        if x is None:
            return args.reference
        return f"{spec}{',' if ':' in spec.rsplit('/', 1)[-1] else ':'}level={x}"

    matches = [(n, None) for n in direct] + [(b, a) for a, b in zip(levels, levels[1:])]
    work = [(variant, a, b) for variant in variants for a, b in matches]
    with ProcessPoolExecutor(max_workers=args.jobs) if args.jobs > 1 else nullcontext() as pool:
        calls = [(name(a), name(b), args.games, variant, args.seed, args.max_plies) for variant, a, b in work]
        runs = [pool.submit(play, *call) for call in calls] if pool else None
        pairings: dict[str, list[Pairing]] = {variant: [] for variant in variants}
        for i, (variant, a, b) in enumerate(work):
            summary, games, score = runs[i].result() if runs else play(*calls[i])
            pairings[variant].append(Pairing(a, b, games, score))
            print(summary, flush=True)
    tables = {variant: fit(levels, pairings[variant]) for variant in variants}
    print()
    print(f"Elo relative to {args.reference} (0), 95 % interval; {args.games} games per match, "
          f"{PRIOR_DRAWS} virtual draw each")
    print("(each cell: Elo [interval], the level's node budget in that game)")
    print("| level | word | " + " | ".join(tables) + " |")
    print("|---|---|" + "---|" * len(tables))
    for n in levels:
        cells = []
        for variant in tables:
            e, se = tables[variant][n]
            cells.append(f"{e:+.0f} [{e - Z95 * se:+.0f} .. {e + Z95 * se:+.0f}], {level_info(n, variant).nodes:,}")
        print(f"| {n} | {WORDS[n - 1]} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
