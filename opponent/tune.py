"""Material values of the compiled engine fitted to self-play results.

    python -m opponent.tune [--variants maxima,ultima,withdrawer-chess]
                            [--games 500] [--depth 3] [--seed 1] [--jobs N] [--write]

For each variant the engine (``opponent/engine/maxima-engine selfplay``)
plays GAMES games against itself at a fixed DEPTH from the start after 4-8
seeded random plies, and prints each quiet position (side to move not in
check, the chosen move captures nothing) with the count of each piece type
(White's minus Black's) and the game's result. Texel-style, the values are
fitted by logistic regression of the result on the material difference:

    P(White scores) = sigmoid(b + sum_t w_t * d_t)

(draws are a target of 1/2; Newton's method on the cross-entropy, with a
small ridge pulling each w_t towards the build's own value times the scale K
that fits the build's values best). The fitted values are w_t / K, so they
are centipawns on the scale of the values they replace. The positions of
one game in five are held out: the script prints the cross-entropy of the
build's values and of the fitted ones on them.

With ``--write`` the values go into ``opponent/engine/values.h`` (entries of
the other variants already there are kept), which ``variants.c`` applies over
its hand-set values; rebuild with ``make -C opponent/engine``. Plain Python,
no numpy.
"""
from __future__ import annotations

import argparse
import math
import re
import subprocess
import sys
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ENGINE_DIR = Path(__file__).resolve().parent / "engine"
BINARY = ENGINE_DIR / "maxima-engine"
VALUES_H = ENGINE_DIR / "values.h"
FAMILIES = ("maxima", "ultima", "withdrawer-chess")
RIDGE = 0.0001      # pull towards the build's values, per unit of (w - K*value) / (K*100), squared


def selfplay(variant: str, games: int, depth: int, seed: int, max_plies: int):
    """(letters, build values, samples, game lines): samples are (game index, diffs, result)."""
    out = subprocess.run([str(BINARY), "selfplay", variant, str(games), str(depth), str(seed), str(max_plies)],
                         capture_output=True, text=True, check=True).stdout.splitlines()
    letters, values = [], []
    for item in out[0].split()[1:]:
        letter, _, value = item.partition(":")
        letters.append(letter)
        values.append(int(value))
    samples, game_lines, game = [], [], 0
    for line in out[1:]:
        words = line.split()
        if words[0] == "pos":
            samples.append((game, tuple(int(x) for x in words[3:]), float(words[1])))
        elif words[0] == "game":
            game_lines.append(line)
            game += 1
    return letters, values, samples, game_lines


def _sigmoid(z: float) -> float:
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


def _loss(rows: Counter, w: list[float]) -> float:
    """Mean cross-entropy; w[0] is the intercept."""
    total = n = 0.0
    for (x, y), count in rows.items():
        p = min(max(_sigmoid(w[0] + sum(wi * xi for wi, xi in zip(w[1:], x))), 1e-12), 1 - 1e-12)
        total -= count * (y * math.log(p) + (1 - y) * math.log(1 - p))
        n += count
    return total / n


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(c + 1, n):
            f = m[r][c] / m[c][c]
            for k in range(c, n + 1):
                m[r][k] -= f * m[c][k]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][k] * x[k] for k in range(r + 1, n))) / m[r][r]
    return x


def fit(rows: Counter, prior: list[float], scale: float, iterations: int = 25) -> list[float]:
    """Newton's method on mean cross-entropy + RIDGE * sum(((w - prior) / scale)^2); returns [b, w...]."""
    d = len(prior) + 1
    w = [0.0] + prior[:]
    n = sum(rows.values())
    for _ in range(iterations):
        grad = [0.0] * d
        hess = [[0.0] * d for _ in range(d)]
        for (x, y), count in rows.items():
            xs = (1,) + x
            p = _sigmoid(sum(wi * xi for wi, xi in zip(w, xs)))
            g, h = count * (p - y) / n, count * p * (1 - p) / n
            for i in range(d):
                if xs[i]:
                    grad[i] += g * xs[i]
                    hi = h * xs[i]
                    for j in range(d):
                        if xs[j]:
                            hess[i][j] += hi * xs[j]
        for i in range(1, d):
            grad[i] += 2 * RIDGE * (w[i] - prior[i - 1]) / scale ** 2
            hess[i][i] += 2 * RIDGE / scale ** 2
        hess[0][0] += 1e-9
        step = _solve(hess, grad)
        w = [wi - si for wi, si in zip(w, step)]
        if max(abs(s) for s in step) < 1e-7:
            break
    return w


def best_scale(rows: Counter, values: list[int]) -> tuple[float, float]:
    """The K (and intercept) for which sigmoid(b + K * material) fits best (golden-section on K)."""
    def loss_k(k: float) -> tuple[float, float]:
        w = fit_intercept(rows, [k * v for v in values])
        return _loss(rows, [w] + [k * v for v in values]), w
    lo, hi = 1e-5, 0.05
    g = (math.sqrt(5) - 1) / 2
    a, b = hi - g * (hi - lo), lo + g * (hi - lo)
    for _ in range(40):
        if loss_k(a)[0] < loss_k(b)[0]:
            hi = b
        else:
            lo = a
        a, b = hi - g * (hi - lo), lo + g * (hi - lo)
    k = (lo + hi) / 2
    return k, loss_k(k)[1]


def fit_intercept(rows: Counter, w: list[float]) -> float:
    b = 0.0
    for _ in range(30):
        g = h = n = 0.0
        for (x, y), count in rows.items():
            p = _sigmoid(b + sum(wi * xi for wi, xi in zip(w, x)))
            g += count * (p - y)
            h += count * p * (1 - p)
            n += count
        if h <= 0:
            break
        b -= g / h
    return b


def tune(variant: str, played) -> dict:
    letters, values, samples, game_lines = played
    train, test = Counter(), Counter()
    for game, x, y in samples:
        (test if game % 5 == 4 else train)[(x, y)] += 1
    k, b0 = best_scale(train, values)
    prior = [k * v for v in values]
    w = fit(train, prior, k * 100)
    fitted = [round(wi / k) for wi in w[1:]]
    # a column that never varies (the King) keeps the build's value
    varies = [any(x[i] for (x, _y) in train) for i in range(len(values))]
    fitted = [f if v else old for f, v, old in zip(fitted, varies, values)]
    results = Counter(line.split()[1] for line in game_lines)
    return {
        "variant": variant, "letters": letters, "build": values, "fitted": fitted, "scale": k,
        "games": len(game_lines), "results": dict(results), "positions": len(samples),
        "test_loss_build": _loss(test, [b0] + prior) if test else float("nan"),
        "test_loss_fitted": _loss(test, w) if test else float("nan"),
        "train_loss_build": _loss(train, [b0] + prior), "train_loss_fitted": _loss(train, w),
    }


ENTRY = re.compile(r'\{"([^"]+)", \'(.)\', (-?\d+)\},')


def write_values(tuned: list[dict], command: str) -> None:
    kept = []
    names = {t["variant"] for t in tuned}
    if VALUES_H.exists():
        for m in ENTRY.finditer(VALUES_H.read_text()):
            if m.group(1) not in names:
                kept.append((m.group(1), m.group(2), int(m.group(3))))
    entries = kept + [(t["variant"], letter, value) for t in tuned
                      for letter, value in zip(t["letters"], t["fitted"]) if letter != "k"]
    lines = [
        "/* Material values fitted to self-play results (centipawns), overriding the",
        " * hand-set values of variants.c for these games. Generated by opponent/tune.py:",
        f" *   {command}",
        " * Do not edit by hand; rerun the script. */",
        "static const struct { const char *variant; char letter; int value; } TUNED_VALUES[] = {",
    ]
    lines += [f'    {{"{v}", \'{letter}\', {value}}},' for v, letter, value in entries]
    lines += ["    {0, 0, 0},", "};", ""]
    VALUES_H.write_text("\n".join(lines))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variants", default=",".join(FAMILIES))
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-plies", type=int, default=300)
    ap.add_argument("--jobs", type=int, default=1, help="variants played at once (default 1)")
    ap.add_argument("--write", action="store_true", help="write opponent/engine/values.h")
    args = ap.parse_args(argv)
    if not BINARY.exists():
        print(f"tune: {BINARY} not built (make -C opponent/engine)", file=sys.stderr)
        return 2
    tuned = []
    variants = args.variants.split(",")
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:   # the games of each variant in its own process
        played = list(pool.map(lambda v: selfplay(v, args.games, args.depth, args.seed, args.max_plies), variants))
    for variant, games in zip(variants, played):
        t = tune(variant, games)
        tuned.append(t)
        print(f"{variant}: {t['games']} games (White's scores {t['results']}), {t['positions']} quiet positions, "
              f"K = {t['scale']:.5f}/cp")
        print("  type:   " + " ".join(f"{letter:>5}" for letter in t["letters"]))
        print("  build:  " + " ".join(f"{v:>5}" for v in t["build"]))
        print("  fitted: " + " ".join(f"{v:>5}" for v in t["fitted"]))
        print(f"  cross-entropy, held-out games: build {t['test_loss_build']:.4f}, fitted {t['test_loss_fitted']:.4f}"
              f" (training: {t['train_loss_build']:.4f}, {t['train_loss_fitted']:.4f})", flush=True)
    if args.write:
        command = "python -m opponent.tune " + " ".join(a for a in (argv if argv is not None else sys.argv[1:]))
        write_values(tuned, command.strip())
        print(f"wrote {VALUES_H}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
