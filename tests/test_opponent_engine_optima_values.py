"""Optima's material values (O2 units) are set once in the compiled engine
(``opponent/engine/optima.c``) and once for the baseline players
(``opponent/material.py``); this test keeps the two tables equal."""
from __future__ import annotations

import subprocess

from engine.variants.optima import UNITS
from opponent.material import OPTIMA_TOKEN_VALUES, OPTIMA_VALUES

from .opponent_engine import engine_binary  # noqa: F401 (fixture)


def _engine_values(binary, variant: str) -> dict[str, int]:
    out = subprocess.run([str(binary), "values", variant], capture_output=True, text=True, check=True).stdout
    pairs = [item.partition(":") for item in out.split()]
    return {token: int(value) for token, _, value in pairs}


def test_O2_engine_and_baseline_material_tables_are_equal(engine_binary):
    """O2: every unit type has one value, the same in optima.c and opponent/material.py."""
    engine = _engine_values(engine_binary, "optima")
    assert len(engine) == 56
    assert engine == OPTIMA_TOKEN_VALUES


def test_O2_every_python_unit_type_has_the_engine_value(engine_binary):
    """O2: each of the Python engine's unit types (and its royal form) is valued as the compiled engine values it."""
    engine = _engine_values(engine_binary, "optima-9x9")
    assert {unit.token for unit in UNITS} == set(engine)
    for unit in UNITS:
        assert OPTIMA_VALUES[unit.code] == engine[unit.token], unit.token


def test_O5_O13_selfplay_lines_for_tuning(engine_binary):
    """O5, O13: `maxima-engine selfplay optima-9x9` (for opponent/tune.py) names the 56 types with the
    build's values, samples positions only after the placement phase (10 placements on 9x9), and ends
    each game by a royal capture, no move, repetition or the ply cap."""
    out = subprocess.run([str(engine_binary), "selfplay", "optima-9x9", "2", "1", "7", "60"],
                         capture_output=True, text=True, check=True, timeout=120).stdout.splitlines()
    types = dict(item.partition(":")[::2] for item in out[0].split()[1:])
    assert {k: int(v) for k, v in types.items()} == _engine_values(engine_binary, "optima-9x9")
    games = [line.split() for line in out if line.startswith("game ")]
    positions = [line.split() for line in out if line.startswith("pos ")]
    assert len(games) == 2 and positions
    for words in games:
        assert words[1] in {"0", "0.5", "1"} and int(words[2]) <= 60
        assert " ".join(words[3:]) in {"royal captured", "no move", "repetition", "move cap"}
    for words in positions:
        assert len(words) == 3 + 56 and int(words[2]) >= 10
