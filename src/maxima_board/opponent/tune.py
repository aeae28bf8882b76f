"""Material values of the compiled engine fitted to self-play results.

    python -m maxima_board.opponent.tune [--variants maxima,ultima,withdrawer-chess]
                            [--games 500] [--depth 3] [--seed 1] [--jobs N]
                            [--max-plies 300] [--ridge auto|R] [--plies FIRST:END]
                            [--pawn-phase] [--pawn-run] [--phase-only]
                            [--forces eq,u1,u2,random] [--keep TYPES]
                            [--terms | --terms-only]
                            [--save DIR | --load DIR] [--write]

For each variant the engine (``engine/maxima-engine selfplay``)
plays GAMES games against itself at a fixed DEPTH from the start after 4-8
seeded random plies, and prints each quiet position (side to move not in
check, the chosen move captures nothing) with the count of each piece type
(White's minus Black's), the engine's static evaluation, the immobilized
pieces of each type (White's minus Black's) and the game's result.

Texel-style, the values are fitted inside the engine's whole evaluation. With
x_t = d_t - f_t / 2 (evaluate() counts an immobilized piece at half its value)
the evaluation is ``E = rest + sum_t v_t * x_t`` for the build's values v_t,
where ``rest`` (mobility, squares, King safety, palace) does not depend on
them, and the model is

    P(White scores) = sigmoid(b + K * rest + sum_t w_t * x_t)

where K is the scale that fits the build's whole evaluation best
(``sigmoid(b + K * E)``) and stays fixed; draws are a target of 1/2. The w_t
are found by Newton's method on the cross-entropy plus a ridge
``R * sum_t ((w_t - K * v_t) / (100 K))^2`` pulling them towards the build's
values. With ``--ridge auto`` (the default) R is chosen by 4-fold
cross-validation over the training games from a grid, so that a game whose
results say little keeps values close to the hand-set ones. The fitted
values are w_t / K centipawns. The positions of one game in five are held
out: the script prints the cross-entropy of the build's values and of the
fitted ones on them. Selfplay output without the evaluation columns (that of
Optima before 24 Nov 2026) is fitted on material alone (rest = 0).

Optima (``optima``, ``optima-9x9``): with ``--forces`` the games start from
other forces than the default E10 / E9 set (O4), so that all 56 unit types
can occur: game g starts from ``maxima_board.rules.optima.forces.start_fen(variant,
KIND, seed=SEED * 1000000 + g)`` (what ``maxima-board new-optima --forces
KIND --seed N`` prints), KIND taking the listed kinds in turn (u2, which
9x9 does not have, is left out there); the FENs go to the engine on its
standard input. ``--keep AR,CE,...`` holds those types at the build's values
(their material counted in ``rest``) and fits the others (Optima 10x10: the
12 types fitted from E10 kept, the 44 others fitted from varied forces).
Optima's values are in ``engine/optima_units.c`` (and
``opponent/material.py``), not in values.h: ``--write`` does not take them.

With ``--pawn-phase`` (Deckle's games, whose selfplay output carries the game
phase) the Pawn gets a second value, for the endgame: with n pieces other than
Pawns and Kings on the board and N at the start, evaluate() counts a Pawn
``v_p + (v_end - v_p) * e`` with ``e = (N - min(n, N)) / N``, so the model has
one more column, ``e * x_p``, whose weight is ``K * (v_end - v_p)`` (its prior
the build's difference, 0 when the build has no endgame value). It is
written to values.h under the letter ``P``. With ``--pawn-run`` a Pawn gains
``A * e * (a / m)^2`` (a: ranks advanced past its start rank, m: those to the
last rank before promotion): the column ``e * run2 / 2048`` of selfplay's
last number, written as ``A``. ``--phase-only`` fits these alone.

With ``--terms`` the weights of the evaluation terms beyond material
(placement, the mobility of the kinds the slider term skips, King and palace
safety; ``search.c``, "evaluation terms") are fitted too: selfplay prints a
``terms`` line (each column's name and the build's weight, 0 where EvalTerms
masks it) and after each position a ``feat`` line (the columns, White's minus
Black's); evaluate() adds weight x column of each, so each varying column is
one more feature, counted in tenths (TERM_UNIT) so that the ridge's scale is
10 cp a count, its prior the build's weight, and the build's contribution
leaves ``rest``. The games are then played with every term and the fitted
weights of terms.h, also those that no check match has kept
(``--eval-terms 15``; engine/kept_terms.h). ``--terms-only`` fits them alone (the material keeps the
build's values). ``--write`` puts them into ``engine/terms.h`` under
the variant's family (maxima; ultima; deckle, for every Deckle game and
board, the added piece written as ``+``); values.h is written only when
material values or phase terms were fitted.

With ``--write`` the values go into ``engine/values.h`` (entries of
the other variants already there are kept), which ``variants.c`` applies over
its hand-set values; rebuild with ``make -C engine``. Plain Python,
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

from maxima_board.rules.variants import get as get_variant, resized

from .specs import SOURCE_DIR

ENGINE_DIR = SOURCE_DIR
BINARY = ENGINE_DIR / "maxima-engine"
VALUES_H = ENGINE_DIR / "values.h"
FAMILIES = ("maxima", "ultima", "withdrawer-chess")
TERMS_H = ENGINE_DIR / "terms.h"
TERM_UNIT = 10      # a term's column is its count / TERM_UNIT in the fit (its ridge scale 10 cp a count)
ALL_TERMS = 15       # EvalTerms: every group, with the weights no check match has kept as well
RIDGE = 0.0001      # the fixed ridge of fit() when none is given
RIDGE_GRID = (1e-5, 1e-4, 3e-4, 1e-3, 3e-3, 1e-2, 3e-2, 0.1, 1.0)   # --ridge auto chooses among these
FOLDS = 4


OPTIMA = ("optima", "optima-9x9")


def optima_starts(variant: str, forces: list[str], games: int, seed: int) -> list[str]:
    """The start FEN of each of ``games`` Optima games: the kinds of ``forces`` in turn (u2 not on 9x9),
    game g's forces drawn with the seed SEED * 1000000 + g."""
    from maxima_board.rules import variants
    from maxima_board.rules.optima.forces import start_fen
    offered = variants.get(variant).forces
    kinds = [k for k in forces if not (k == "u2" and offered and k not in offered)]
    if not kinds:
        raise ValueError(f"--forces: no kind of forces {variant} has among {','.join(forces)}")
    return [start_fen(variant, kinds[g % len(kinds)], seed=seed * 1_000_000 + g) for g in range(games)]


def selfplay(variant: str, games: int, depth: int, seed: int, max_plies: int,
             save: Path | None = None, load: Path | None = None, forces: list[str] | None = None,
             eval_terms: int | None = None):
    """(letters, build values, samples, game lines, phase): samples are (game index, diffs, result, eval, frozen,
    ply, pieces, run2); eval and frozen are None in output without those columns, pieces (the pieces other than
    Pawns and Kings on the board) and run2 (the Pawns' advance shares squared, 0..1024 each, doubled, White's
    minus Black's) None without the phase columns; phase is (N, the build's endgame Pawn value, the build's
    runner bonus) from the ``phase`` line, None without it. ``load``: read the selfplay output
    of VARIANT.txt in that folder instead of playing; ``save``: write it there. ``forces``: an Optima
    game's kinds of forces (optima_starts), sent to the engine as start FENs. ``eval_terms``: the engine's
    EvalTerms mask for the games (``--eval-terms``; None: the build's default, the kept terms)."""
    if load is not None:
        return parse_selfplay((load / f"{variant}.txt").read_text().splitlines())
    args = ([str(BINARY)] + (["--eval-terms", str(eval_terms)] if eval_terms is not None else [])
            + ["selfplay", variant, str(games), str(depth), str(seed), str(max_plies)])
    stdin = None
    if forces and variant in OPTIMA:
        args.append("-")
        stdin = "\n".join(optima_starts(variant, forces, games, seed)) + "\n"
    text = subprocess.run(args, input=stdin, capture_output=True, text=True, check=True).stdout
    if save is not None:
        save.mkdir(parents=True, exist_ok=True)
        (save / f"{variant}.txt").write_text(text)
    return parse_selfplay(text.splitlines())


def parse_selfplay(lines: list[str]):
    letters, values = [], []
    for item in lines[0].split()[1:]:
        letter, _, value = item.partition(":")
        letters.append(letter)
        values.append(int(value))
    n = len(letters)
    samples, game_lines, game = [], [], 0
    pending, phase, terms = [], None, None
    for line in lines[1:]:
        words = line.split()
        if not words:
            continue
        if words[0] == "terms":
            names, weights = zip(*(item.rsplit(":", 1) for item in words[1:])) if words[1:] else ((), ())
            terms = (tuple(names), tuple(int(w) for w in weights))
        elif words[0] == "feat" and pending:
            pending[-1] = pending[-1][:8] + (tuple(int(x) for x in words[1:]),)
        elif words[0] == "phase":
            phase = (int(words[1]), int(words[2]), int(words[3]) if len(words) > 3 else 0)
        elif words[0] == "pos":
            nums = [int(x) for x in words[3:]]
            diffs = tuple(nums[:n])
            ev, frozen = (nums[n], tuple(nums[n + 1:2 * n + 1])) if len(nums) >= 2 * n + 1 else (None, None)
            pieces = nums[2 * n + 1] if len(nums) >= 2 * n + 2 else None
            run2 = nums[2 * n + 2] if len(nums) == 2 * n + 3 else None
            pending.append((game, diffs, float(words[1]), ev, frozen, int(words[2]), pieces, run2, None))
        elif words[0] == "game":
            samples += pending   # a game cut short (an interrupted run) has no game line: dropped
            pending = []
            game_lines.append(line)
            game += 1
    return letters, values, samples, game_lines, phase, terms


def endgame_share(pieces: int, start_pieces: int) -> float:
    """e of the phase term: 0 with all the pieces other than Pawns and Kings on the board, 1 with none
    (search.c, pawn_phase)."""
    return (start_pieces - min(pieces, start_pieces)) / start_pieces


def _sigmoid(z: float) -> float:
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


def _rows(rows):
    """Counter keys are (x, y) (material only) or (x, rest, y)."""
    for key, count in rows.items():
        if len(key) == 2:
            yield key[0], 0.0, key[1], count
        else:
            yield key[0], key[1], key[2], count


def _loss(rows: Counter, w: list[float], k: float = 0.0) -> float:
    """Mean cross-entropy; w[0] is the intercept, k the weight of rest."""
    total = n = 0.0
    for x, rest, y, count in _rows(rows):
        p = min(max(_sigmoid(w[0] + k * rest + sum(wi * xi for wi, xi in zip(w[1:], x))), 1e-12), 1 - 1e-12)
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


def fit(rows: Counter, prior: list[float], scale: float, iterations: int = 25, ridge: float = RIDGE,
        k: float = 0.0, start: list[float] | None = None) -> list[float]:
    """Newton's method on mean cross-entropy of sigmoid(b + k * rest + w.x)
    + ridge * sum(((w - prior) / scale)^2); returns [b, w...]."""
    d = len(prior) + 1
    w = start[:] if start else [0.0] + prior[:]
    data = [((1.0,) + tuple(float(v) for v in x), k * rest, y, count) for x, rest, y, count in _rows(rows)]
    sparse = [([(i, xi) for i, xi in enumerate(xs) if xi], off, y, count) for xs, off, y, count in data]
    n = sum(rows.values())

    def objective(w: list[float]) -> float:
        total = 0.0
        for nz, off, y, count in sparse:
            p = min(max(_sigmoid(off + sum(w[i] * xi for i, xi in nz)), 1e-15), 1 - 1e-15)
            total -= count * (y * math.log(p) + (1 - y) * math.log(1 - p))
        return total / n + ridge * sum(((w[i] - prior[i - 1]) / scale) ** 2 for i in range(1, d))

    current = objective(w)
    for _ in range(iterations):
        grad = [0.0] * d
        hess = [[0.0] * d for _ in range(d)]
        for nz, off, y, count in sparse:
            p = _sigmoid(off + sum(w[i] * xi for i, xi in nz))
            g, h = count * (p - y) / n, count * p * (1 - p) / n
            for i, xi in nz:
                grad[i] += g * xi
                hi = h * xi
                row = hess[i]
                for j, xj in nz:
                    row[j] += hi * xj
        for i in range(1, d):
            grad[i] += 2 * ridge * (w[i] - prior[i - 1]) / scale ** 2
            hess[i][i] += 2 * ridge / scale ** 2
        for i in range(d):
            hess[i][i] += 1e-9
        step = _solve(hess, grad)
        t = 1.0   # damped: halve the step until the objective does not rise
        while True:
            trial = [wi - t * si for wi, si in zip(w, step)]
            value = objective(trial)
            if value <= current + 1e-12 or t < 1e-3:
                break
            t /= 2
        w, current = trial, value
        if max(abs(t * s) for s in step) < 1e-7:
            break
    return w


def best_scale(rows: Counter, values: list[int]) -> tuple[float, float]:
    """The K and intercept b for which sigmoid(b + K * (rest + values.x)) fits best (Newton on b, K)."""
    evals = Counter()
    for x, rest, y, count in _rows(rows):
        evals[((rest + sum(v * xi for v, xi in zip(values, x)),), y)] += count
    b, k = fit(evals, [0.001], 1.0, ridge=0.0, start=[0.0, 0.001])
    return k, b


def _split(samples, folds: int = FOLDS):
    """Training rows, held-out rows (one game in five) and the training rows by cross-validation fold."""
    train, test = Counter(), Counter()
    fold_rows = [Counter() for _ in range(folds)]
    for game, x, rest, y in samples:
        key = (x, rest, y)
        if game % 5 == 4:
            test[key] += 1
        else:
            train[key] += 1
            fold_rows[(game // 5) % folds][key] += 1
    return train, test, fold_rows


def choose_ridge(fold_rows: list[Counter], prior: list[float], scale: float, k: float,
                 grid=RIDGE_GRID) -> tuple[float, dict]:
    """The ridge of ``grid`` with the least mean cross-entropy on the left-out fold."""
    scores = {}
    for ridge in grid:
        total = 0.0
        for i, held in enumerate(fold_rows):
            rest = Counter()
            for j, rows in enumerate(fold_rows):
                if j != i:
                    rest.update(rows)
            w = fit(rest, prior, scale, ridge=ridge, k=k, iterations=12)
            total += _loss(held, w, k)
        scores[ridge] = total / len(fold_rows)
    return min(scores, key=scores.get), scores


def tune(variant: str, played, ridge: float | None = None, material_only: bool = False,
         plies: tuple[int, int] | None = None, pawn_phase: bool = False, pawn_run: bool = False,
         phase_only: bool = False, keep: frozenset[str] = frozenset(), terms: bool = False,
         terms_only: bool = False) -> dict:
    """Fit ``played`` (selfplay()'s answer); ``ridge`` None: chosen by cross-validation;
    ``material_only``: ignore the evaluation columns (the method before 24 Nov 2026);
    ``plies`` (first, end): only the positions of plies first <= ply < end;
    ``pawn_phase``: fit the Pawn's endgame value too, ``pawn_run``: the endgame bonus of a Pawn one step from
    promotion (the phase columns, see the module's docstring); ``phase_only``: fit those alone (the other
    values stay the build's); ``keep``: the types (letters or tokens) that keep the build's values, their
    material counted in ``rest``; ``terms``: fit the evaluation terms' weights too (selfplay's ``terms`` and
    ``feat`` lines), ``terms_only``: those alone (the material keeps the build's values)."""
    letters, values, samples, game_lines = played[:4]
    phase = played[4] if len(played) > 4 else None
    term_header = played[5] if len(played) > 5 else None
    samples = [tuple(s) + (None,) * (9 - len(s)) for s in samples]
    if (terms or terms_only) and (term_header is None or any(s[8] is None for s in samples)):
        raise ValueError(f"{variant}: --terms needs selfplay output with the terms' columns (terms and feat lines)")
    if plies is not None:
        samples = [s for s in samples if plies[0] <= s[5] < plies[1]]
    if material_only:
        samples = [(g, d, y, None, None, ply, pieces, run2, f) for g, d, y, _e, _f, ply, pieces, run2, f in samples]
    n = len(values)
    pawn = letters.index("p") if "p" in letters else None
    if (pawn_phase or pawn_run) and (phase is None or pawn is None or any(s[6] is None for s in samples)
                                     or (pawn_run and any(s[7] is None for s in samples))):
        raise ValueError(f"{variant}: --pawn-phase/--pawn-run need selfplay output with the game phase (Deckle's games)")
    delta_build = phase[1] - values[pawn] if pawn_phase else 0
    run_build = phase[2] if pawn_run else 0
    # the columns that vary (not the King) are fitted, unless kept; the others keep the build's value
    varies = [any(s[1][i] for s in samples) for i in range(n)]
    cols = [i for i in range(n) if varies[i] and letters[i] not in keep
            and not (phase_only and (pawn_phase or pawn_run)) and not terms_only]
    term_names, term_build = term_header if term_header else ((), ())
    # the terms' columns that vary, in units of TERM_UNIT (so that the ridge's scale, 100 cp a unit, is 10 cp
    # a square or a ring for them); the others keep the build's weight, which stays in rest
    term_cols = [j for j in range(len(term_names)) if any(s[8][j] for s in samples)] if terms or terms_only else []
    fixed = [i for i in range(n) if i not in set(cols)]
    rows = []
    for game, diffs, y, ev, frozen, _ply, pieces, run2, feats in samples:
        x = [d - (frozen[i] / 2 if frozen else 0) for i, d in enumerate(diffs)]
        kept = sum(values[i] * x[i] for i in fixed)
        rest = (ev - sum(values[i] * x[i] for i in cols)) if ev is not None else kept
        features = tuple(x[i] for i in cols)
        if pawn_phase or pawn_run:   # the build's phase terms leave rest; their weights are fitted
            e = endgame_share(pieces, phase[0])
            terms = ((e * x[pawn], delta_build),) if pawn_phase else ()
            terms += ((e * run2 / 2048, run_build),) if pawn_run else ()
            features += tuple(z for z, _ in terms)
            rest -= sum(z * v for z, v in terms) if ev is not None else 0.0
        if term_cols:
            features += tuple(feats[j] / TERM_UNIT for j in term_cols)
            rest -= sum(feats[j] * term_build[j] for j in term_cols) if ev is not None else 0.0
        rows.append((game, features, rest, y))
    train, test, fold_rows = _split(rows)
    build = [values[i] for i in cols] + ([delta_build] if pawn_phase else []) + ([run_build] if pawn_run else [])
    build += [term_build[j] * TERM_UNIT for j in term_cols]
    k, b0 = best_scale(train, build)
    prior = [k * v for v in build]
    scores = {}
    if ridge is None:
        ridge, scores = choose_ridge(fold_rows, prior, k * 100, k)
    w = fit(train, prior, k * 100, ridge=ridge, k=k)
    fitted = list(values)
    for i, wi in zip(cols, w[1:]):
        fitted[i] = round(wi / k)
    pawn_end = pawn_end_build = run = None
    if pawn_phase:
        pawn_end_build = values[pawn] + delta_build
        pawn_w = w[1 + cols.index(pawn)] if pawn in cols else k * values[pawn]
        pawn_end = round((pawn_w + w[1 + len(cols)]) / k)
    if pawn_run:
        run = round(w[1 + len(cols) + int(pawn_phase)] / k)
    term_fitted = list(term_build)
    for n_j, j in enumerate(term_cols):
        term_fitted[j] = round(w[-len(term_cols) + n_j] / (k * TERM_UNIT))
    results = Counter(line.split()[1] for line in game_lines)
    return {
        "pawn_end": pawn_end, "pawn_end_build": pawn_end_build, "phase_pieces": phase[0] if phase else None,
        "pawn_run": run, "pawn_run_build": run_build if pawn_run else None,
        "variant": variant, "letters": letters, "build": values, "fitted": fitted, "scale": k,
        "material_fitted": bool(cols), "term_names": list(term_names), "term_build": list(term_build),
        "term_fitted": term_fitted if term_cols else None,
        "ridge": ridge, "ridge_scores": scores, "whole_eval": any(s[3] is not None for s in samples),
        "games": len(game_lines), "results": dict(results), "positions": len(samples),
        "test_loss_build": _loss(test, [b0] + prior, k) if test else float("nan"),
        "test_loss_fitted": _loss(test, w, k) if test else float("nan"),
        "train_loss_build": _loss(train, [b0] + prior, k), "train_loss_fitted": _loss(train, w, k),
    }


PAWN_END_LETTER = "P"   # values.h: the Pawn's endgame value (variants.c)
PAWN_RUN_LETTER = "A"   # values.h: the endgame bonus of a Pawn one step from promotion
ENTRY = re.compile(r'\{"([^"]+)", \'(.)\', (-?\d+)\},')
NOTE = re.compile(r'^    /\* ([a-z0-9-]+): (.*) \*/$', re.M)


def noted_rows(entries: list[tuple], notes: dict[str, str], row) -> list[str]:
    """The C lines of ``entries`` (``row(*entry)`` each; entry[0] the game), the first line of each game
    preceded by its note, when it has one (values.h and terms.h are written alike)."""
    lines, seen = [], set()
    for entry in entries:
        if entry[0] not in seen:
            seen.add(entry[0])
            if entry[0] in notes:
                lines.append(f"    /* {entry[0]}: {notes[entry[0]]} */")
        lines.append(row(*entry))
    return lines


def write_values(tuned: list[dict], command: str, path: Path | None = None) -> None:
    """Write the fitted values of ``tuned`` into ``path`` (default values.h), keeping its other games
    (and the note saying how each game's values were made)."""
    path = path or VALUES_H
    kept, notes = [], {}
    names = {t["variant"] for t in tuned}
    if path.exists():
        text = path.read_text()
        for m in ENTRY.finditer(text):
            if m.group(1) not in names:
                kept.append((m.group(1), m.group(2), int(m.group(3))))
        notes = {m.group(1): m.group(2) for m in NOTE.finditer(text) if m.group(1) not in names}
    for t in tuned:
        notes[t["variant"]] = command
    entries = kept
    for t in tuned:
        entries += [(t["variant"], letter, value) for letter, value in zip(t["letters"], t["fitted"]) if letter != "k"]
        if t.get("pawn_end") is not None:
            entries.append((t["variant"], PAWN_END_LETTER, t["pawn_end"]))
        if t.get("pawn_run") is not None:
            entries.append((t["variant"], PAWN_RUN_LETTER, t["pawn_run"]))
    lines = [
        "/* Material values fitted to self-play results (centipawns), overriding the",
        " * hand-set values of variants.c for these games, each kept because it won its",
        " * check match against the hand-set values (docs/opponent-engine.md, \"Tuned",
        " * material values\"). The letter P is the Pawn's endgame value, A the endgame bonus of a",
        " * Pawn one step from promotion (search.c, pawn_phase; tune.py --pawn-phase, --pawn-run).",
        " * Written by opponent/tune.py (--write); do not edit by hand. */",
        "static const struct { const char *variant; char letter; int value; } TUNED_VALUES[] = {",
    ]
    lines += noted_rows(entries, notes, lambda v, letter, value: f'    {{"{v}", \'{letter}\', {value}}},')
    lines += ["    {0, 0, 0},", "};", ""]
    path.write_text("\n".join(lines))


TERM_ENTRY = re.compile(r'\{"([^"]+)", "([a-z0-9]+)", (0|\'.\'), (-?\d+)\}')
DECKLE_STANDARD = "kqrbnp"   # a Deckle game's pieces but the added one (terms.h's letter + stands for it)


def term_game(variant: str) -> str:
    """The terms.h key a variant's fitted weights are written under: its family (maxima, ultima: both
    Ultimas, deckle: every Deckle game, 10x8 too); the engine applies a game's own entries over them."""
    return get_variant(variant).family


def term_entries(t: dict) -> list[tuple[str, str, str, int]]:
    """(game, term, letter or '', weight) of a tune() answer's term weights, the zero ones left out."""
    game, out = term_game(t["variant"]), []
    added_piece = get_variant(t["variant"]).chess_army     # chess's army plus one piece: its letter is +
    for name, value in zip(t["term_names"], t["term_fitted"]):
        term, _, letter = name.partition(".")
        if added_piece and letter and letter not in DECKLE_STANDARD:
            letter = "+"
        if value:
            out.append((game, term, letter, value))
    return out


def write_terms(tuned: list[dict], command: str, path: Path | None = None) -> None:
    """Write the fitted term weights of ``tuned`` (those with term_fitted) into ``path`` (default terms.h)
    under each variant's term_game(), keeping the other games' entries and notes."""
    path = path or TERMS_H
    tuned = [t for t in tuned if t.get("term_fitted") is not None]
    games = {term_game(t["variant"]) for t in tuned}
    kept, notes = [], {}
    if path.exists():
        text = path.read_text()
        kept = [(m.group(1), m.group(2), m.group(3).strip("'") if m.group(3) != "0" else "", int(m.group(4)))
                for m in TERM_ENTRY.finditer(text) if m.group(1) not in games]
        notes = {m.group(1): m.group(2) for m in NOTE.finditer(text) if m.group(1) not in games}
    entries = kept
    for t in tuned:
        notes[term_game(t["variant"])] = f"{command} (fitted on {t['variant']})"
        entries += term_entries(t)
    lines = [
        "/* The weights of the evaluation terms beyond material (search.c, \"evaluation terms\"), in centipawns:",
        " * place: per ring of centrality of a piece of that type (0 on the edge ring); mob: per square of the",
        " * mobility the slider term skips (a leaper's empty targets, an orthogonal Pawn's empty squares within three",
        " * steps, a Mage's empty diagonal steps, a Deckle Pawn's empty square ahead); shield, near2, freezer,",
        " * goaldef, goal2: per piece (engine.h, TS_). GAME is a family (maxima, ultima: both Ultimas, deckle: every",
        " * Deckle game, 10x8 too) or a game's own name, which overrides its family's; the letter + is a Deckle",
        " * game's added piece. Written by opponent/tune.py --terms (--write); do not edit by hand. */",
        "#define TERM_ADDED_LETTER '+'",
        "static const struct { const char *game; const char *term; char letter; int value; } EVAL_TERMS[] = {",
    ]
    lines += noted_rows(entries, notes, lambda game, term, letter, value:
                        f'    {{"{game}", "{term}", {repr(letter) if letter else 0}, {value}}},')
    lines += ["    {0, 0, 0, 0},", "};", ""]
    path.write_text("\n".join(lines))


def _ridge_arg(text: str) -> float | None:
    if text == "auto":
        return None
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--ridge: expected auto or a number >= 0, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"--ridge: expected auto or a number >= 0, got {text!r}")
    return value


def _plies_arg(text: str) -> tuple[int, int]:
    first, sep, end = text.partition(":")
    try:
        span = (int(first or 0), int(end) if end else 10 ** 9)
    except ValueError:
        span = None
    if not sep or span is None or span[0] < 0 or span[1] <= span[0]:
        raise argparse.ArgumentTypeError(f"--plies: expected FIRST:END plies (such as 0:120), got {text!r}")
    return span


def _forces_arg(text: str) -> list[str]:
    from maxima_board.rules.optima.forces import KINDS
    kinds = text.split(",")
    if not text or any(k not in KINDS for k in kinds):
        raise argparse.ArgumentTypeError(f"--forces: expected kinds among {','.join(KINDS)} separated by commas, "
                                         f"got {text!r}")
    return kinds


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variants", default=",".join(FAMILIES))
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-plies", type=int, default=300)
    ap.add_argument("--ridge", type=_ridge_arg, default=None,
                    help="pull towards the build's values: auto (cross-validated, default) or a number")
    ap.add_argument("--plies", metavar="FIRST:END", type=_plies_arg,
                    help="fit only the positions of these plies (0:120: the opening and middle game)")
    ap.add_argument("--material-only", action="store_true",
                    help="fit the material difference alone, without the rest of the evaluation")
    ap.add_argument("--pawn-phase", action="store_true",
                    help="fit a second Pawn value for the endgame (Deckle's games; written as P)")
    ap.add_argument("--pawn-run", action="store_true",
                    help="fit the endgame bonus of a Pawn one step from promotion (Deckle's games; written as A)")
    ap.add_argument("--phase-only", action="store_true",
                    help="with --pawn-phase/--pawn-run: fit those alone; the other values stay the build's")
    ap.add_argument("--keep", metavar="TYPES", default="",
                    help="types (letters, or Optima's tokens) that keep the build's values, separated by commas")
    ap.add_argument("--forces", metavar="KINDS", type=_forces_arg,
                    help="Optima: start from these kinds of forces in turn (eq,u1,u2,random; drawn from --seed)")
    ap.add_argument("--terms", action="store_true",
                    help="fit the evaluation terms' weights too (placement, mobility, safety; written to terms.h)")
    ap.add_argument("--terms-only", action="store_true",
                    help="fit the evaluation terms' weights alone; the material keeps the build's values")
    ap.add_argument("--jobs", type=int, default=1, help="variants played at once (default 1)")
    ap.add_argument("--save", metavar="DIR", type=Path, help="keep each variant's selfplay output as DIR/VARIANT.txt")
    ap.add_argument("--load", metavar="DIR", type=Path,
                    help="fit the selfplay output saved in DIR (by --save, or maxima-engine selfplay > DIR/VARIANT.txt)")
    ap.add_argument("--write", action="store_true", help="write engine/values.h")
    ap.add_argument("--also-10x8", action="store_true",
                    help="write each Deckle game's values for its 10x8 board too (VARIANT-10x8)")
    ap.add_argument("--write-to", metavar="PATH", type=Path,
                    help="write the values into PATH instead (a copy of values.h, for a check build)")
    args = ap.parse_args(argv)
    if args.phase_only and not (args.pawn_phase or args.pawn_run):
        ap.error("--phase-only: give --pawn-phase and/or --pawn-run (the terms to fit)")
    if not BINARY.exists() and args.load is None:
        print(f"tune: {BINARY} not built (make -C engine)", file=sys.stderr)
        return 2
    tuned = []
    variants = args.variants.split(",")
    if args.forces and not any(v in OPTIMA for v in variants):
        print("tune: --forces is for Optima (optima, optima-9x9)", file=sys.stderr)
        return 2
    if (args.write or args.write_to) and any(v in OPTIMA for v in variants):
        print("tune: Optima's values live in engine/optima_units.c and src/maxima_board/opponent/material.py, "
              "not values.h: --write does not take them", file=sys.stderr)
        return 2
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:   # the games of each variant in its own process
        played = list(pool.map(lambda v: selfplay(v, args.games, args.depth, args.seed, args.max_plies,
                                                  args.save, args.load, args.forces,
                                                  ALL_TERMS if args.terms or args.terms_only else None), variants))
    for variant, games in zip(variants, played):
        t = tune(variant, games, args.ridge, args.material_only, args.plies, args.pawn_phase, args.pawn_run,
                 args.phase_only, frozenset(k for k in args.keep.split(",") if k), args.terms, args.terms_only)
        tuned.append(t)
        print(f"{variant}: {t['games']} games (White's scores {t['results']}), {t['positions']} quiet positions, "
              f"K = {t['scale']:.5f}/cp, ridge {t['ridge']:g}"
              + ("" if t["whole_eval"] else " (material only)"))
        if t["ridge_scores"]:
            print("  cross-validation: " + ", ".join(f"{r:g}: {s:.5f}" for r, s in t["ridge_scores"].items()))
        print("  type:   " + " ".join(f"{letter:>5}" for letter in t["letters"]))
        print("  build:  " + " ".join(f"{v:>5}" for v in t["build"]))
        print("  fitted: " + " ".join(f"{v:>5}" for v in t["fitted"]))
        if t["pawn_end"] is not None:
            print(f"  endgame Pawn (no piece but Kings and Pawns; {t['phase_pieces']} at the start):"
                  f" build {t['pawn_end_build']}, fitted {t['pawn_end']}")
        if t["pawn_run"] is not None:
            print(f"  endgame bonus of a Pawn one step from promotion: build {t['pawn_run_build']}, fitted {t['pawn_run']}")
        if t["term_fitted"] is not None:
            print("  terms:  " + " ".join(f"{name}:{b}->{f}" for name, b, f in
                                          zip(t["term_names"], t["term_build"], t["term_fitted"]) if b or f != b))
        print(f"  cross-entropy, held-out games: build {t['test_loss_build']:.4f}, fitted {t['test_loss_fitted']:.4f}"
              f" (training: {t['train_loss_build']:.4f}, {t['train_loss_fitted']:.4f})", flush=True)
    if args.write or args.write_to:
        command = "python -m opponent.tune " + " ".join(a for a in (argv if argv is not None else sys.argv[1:]))
        target = args.write_to or VALUES_H
        if any(t["term_fitted"] is not None for t in tuned):
            terms_target = target.parent / TERMS_H.name if args.write_to else TERMS_H
            write_terms(tuned, command.strip(), terms_target)
            print(f"wrote {terms_target}")
        tuned = [t for t in tuned if t["material_fitted"] or t["pawn_end"] is not None or t["pawn_run"] is not None]
        if args.also_10x8:
            tuned += [dict(t, variant=other.name) for t in tuned
                      if (other := resized(t["variant"], 8)) is not None and other.name != t["variant"]]
        if tuned:
            write_values(tuned, command.strip(), target)
            print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
