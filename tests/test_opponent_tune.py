"""The tuning of the compiled engine's material values (opponent/tune.py,
maxima-engine selfplay, opponent/engine/values.h), issue 11."""
from __future__ import annotations

import math
import random
import subprocess
from collections import Counter

from opponent import tune

from .opponent_engine import engine_binary  # noqa: F401 (fixture)


def _synthetic(values: list[int], k: float, n: int, seed: int) -> Counter:
    """Results drawn from sigmoid(k * material) with known values."""
    rng = random.Random(seed)
    rows: Counter = Counter()
    for _ in range(n):
        x = tuple(rng.randint(-2, 2) for _ in values)
        p = 1 / (1 + math.exp(-k * sum(v * d for v, d in zip(values, x))))
        rows[(x, 1.0 if rng.random() < p else 0.0)] += 1
    return rows


def test_fit_recovers_known_values():
    """The logistic fit finds the values that generated the results, starting from wrong ones."""
    true = [100, 300, 900]
    rows = _synthetic(true, 0.002, 20000, seed=3)
    start = [300, 300, 300]
    k, _b = tune.best_scale(rows, start)
    w = tune.fit(rows, [k * v for v in start], k * 100)
    fitted = [wi / k for wi in w[1:]]
    ratios = [f / fitted[0] for f in fitted]
    assert abs(ratios[1] - 3) < 0.4 and abs(ratios[2] - 9) < 1.0, fitted
    assert tune._loss(rows, w) < tune._loss(rows, [w[0]] + [k * v for v in start])


def test_selfplay_prints_positions_and_results(engine_binary):  # noqa: F811
    """maxima-engine selfplay: a types line, quiet positions with the game's result, one line per game."""
    out = subprocess.run([str(engine_binary), "selfplay", "ultima", "3", "2", "5", "120"],
                         capture_output=True, text=True, timeout=120, check=True).stdout.splitlines()
    letters = [item.split(":")[0] for item in out[0].split()[1:]]
    assert out[0].startswith("types ") and letters == ["k", "p", "w", "c", "l", "h", "i"]
    games = [line.split() for line in out if line.startswith("game ")]
    assert len(games) == 3 and all(g[1] in ("0", "0.5", "1") and int(g[2]) <= 120 for g in games)
    game, seen = 0, 0
    for line in out[1:]:
        words = line.split()
        if words[0] == "game":
            game += 1
            continue
        seen += 1
        assert words[1] == games[game][1]               # each position carries its game's result
        diffs = [int(x) for x in words[3:]]
        assert len(diffs) == len(letters) and diffs[0] == 0   # the Kings never differ
        assert all(abs(d) <= 8 for d in diffs)
    assert seen > 0


def test_values_h_overrides_the_hand_set_values(engine_binary):  # noqa: F811
    """The entries of values.h are the values the built engine uses, for their game only."""
    entries = [(m.group(1), m.group(2), int(m.group(3))) for m in tune.ENTRY.finditer(tune.VALUES_H.read_text())]
    for variant in sorted({v for v, _, _ in entries}):
        out = subprocess.run([str(engine_binary), "selfplay", variant, "0", "1", "1"],
                             capture_output=True, text=True, timeout=60, check=True).stdout.split()
        used = {item.split(":")[0]: int(item.split(":")[1]) for item in out[1:]}
        for v, letter, value in entries:
            if v == variant:
                assert used[letter] == value, (variant, letter)


def test_write_values_keeps_other_games(tmp_path, monkeypatch):
    """--write replaces the tuned games' entries and keeps the others."""
    target = tmp_path / "values.h"
    target.write_text('static x[] = {\n    {"ultima", \'p\', 111},\n    {"maxima", \'g\', 1},\n    {0, 0, 0},\n};\n')
    monkeypatch.setattr(tune, "VALUES_H", target)
    tune.write_values([{"variant": "maxima", "letters": ["k", "g", "p"], "fitted": [0, 500, 90]}], "python -m opponent.tune")
    text = target.read_text()
    entries = [(m.group(1), m.group(2), int(m.group(3))) for m in tune.ENTRY.finditer(text)]
    assert entries == [("ultima", "p", 111), ("maxima", "g", 500), ("maxima", "p", 90)]
    assert "python -m opponent.tune" in text and text.rstrip().endswith("};")
