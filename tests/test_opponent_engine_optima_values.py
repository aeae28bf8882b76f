"""Optima's material values (O2 units) are set once in the compiled engine
(``engine/optima.c``, a table per board) and once for the baseline
players (``opponent/material.py``); these tests keep the tables equal, and
check the self-play that fits them (``maxima-engine selfplay``, opponent/tune.py)."""
from __future__ import annotations

import subprocess

import pytest

from maxima_board.rules.optima.forces import start_fen
from maxima_board.rules.variants.optima import E10, UNITS
from maxima_board.opponent import tune
from maxima_board.opponent.material import (OPTIMA_9X9_TOKEN_VALUES, OPTIMA_9X9_VALUES, OPTIMA_TOKEN_VALUES,
                                            OPTIMA_VALUES)

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


@pytest.mark.parametrize("variant, by_code", [("optima", OPTIMA_VALUES), ("optima-9x9", OPTIMA_9X9_VALUES)])
def test_O2_every_python_unit_type_has_the_engine_value(engine_binary, variant, by_code):
    """O2: on each board, each of the Python engine's unit types (and its royal form) is valued as the
    compiled engine values it on that board."""
    engine = _engine_values(engine_binary, variant)
    assert {unit.token for unit in UNITS} == set(engine)
    for unit in UNITS:
        assert by_code[unit.code] == by_code[unit.code | 64] == engine[unit.token], unit.token


def test_O2_the_9x9_board_has_its_own_table(engine_binary):
    """O2: `values optima-9x9` is the 9x9 table of opponent/material.py, and material() of a 9x9 board
    counts with it (a board of one White unit of each type)."""
    assert _engine_values(engine_binary, "optima-9x9") == OPTIMA_9X9_TOKEN_VALUES
    from maxima_board.opponent.material import material
    for unit in UNITS:
        board = [0] * 81
        board[40] = unit.code
        assert material(board, optima=True) == OPTIMA_9X9_TOKEN_VALUES[unit.token]
        board = [0] * 100
        board[40] = -unit.code
        assert material(board, optima=True) == -OPTIMA_TOKEN_VALUES[unit.token]


def _selfplay(binary, variant, games, depth, seed, plies, fens=None, check=True):
    args = [str(binary), "selfplay", variant, str(games), str(depth), str(seed), str(plies)]
    r = subprocess.run(args + (["-"] if fens is not None else []), input="\n".join(fens or []) + "\n",
                       capture_output=True, text=True, timeout=300)
    if check:
        assert r.returncode == 0, r.stderr
    return r


def _material(words: list[str], values: list[int]) -> float:
    nums = [int(x) for x in words[3:]]
    return sum(v * (d - f / 2) for v, d, f in zip(values, nums[:56], nums[57:]))


def test_O5_O13_selfplay_lines_for_tuning(engine_binary):
    """O5, O13: `maxima-engine selfplay optima-9x9` (for opponent/tune.py) names the 56 types with the
    build's values, samples positions only after the placement phase (10 placements on 9x9), and ends
    each game by a royal capture, no move, repetition or the ply cap; each position carries the counts,
    the static evaluation (White's view) and the frozen units (O10), which tune.py reads."""
    out = _selfplay(engine_binary, "optima-9x9", 2, 1, 7, 60).stdout.splitlines()
    types = dict(item.partition(":")[::2] for item in out[0].split()[1:])
    assert {k: int(v) for k, v in types.items()} == _engine_values(engine_binary, "optima-9x9")
    games = [line.split() for line in out if line.startswith("game ")]
    positions = [line.split() for line in out if line.startswith("pos ")]
    assert len(games) == 2 and positions
    for words in games:
        assert words[1] in {"0", "0.5", "1"} and int(words[2]) <= 60
        assert " ".join(words[3:]) in {"royal captured", "no move", "repetition", "move cap"}
    for words in positions:
        assert len(words) == 3 + 56 + 1 + 56 and int(words[2]) >= 10
        diffs, frozen = [int(x) for x in words[3:59]], [int(x) for x in words[60:]]
        assert all(abs(f) <= 9 for f in frozen) and all(abs(d) <= 9 for d in diffs)
    letters, values, samples = tune.parse_selfplay(out)[:3]
    assert letters == list(types) and len(samples) == len(positions)
    assert all(s[3] is not None and len(s[4]) == 56 for s in samples)


def test_O2_selfplay_evaluation_is_whites_view(engine_binary):
    """O2: the EVAL column is the evaluation for White, whoever is to move: where the material
    (counted as the evaluation counts it, frozen units at half) is clearly unequal, EVAL nearly always
    has its sign; in the side to move's view it would have it about half the time."""
    fens = [start_fen("optima", "random", seed=s) for s in (11, 12, 13, 14)]
    out = _selfplay(engine_binary, "optima", 4, 1, 3, 100, fens).stdout.splitlines()
    values = [int(item.partition(":")[2]) for item in out[0].split()[1:]]
    agree = total = 0
    for words in (line.split() for line in out if line.startswith("pos ")):
        mat = _material(words, values)
        if abs(mat) >= 600:
            total += 1
            agree += (int(words[59]) > 0) == (mat > 0)
    assert total >= 20 and agree >= 0.85 * total, (agree, total)


def _types(fen: str) -> set[str]:
    """The unit types on the board and in the reserve of an Optima FEN (O15)."""
    board, _side, reserve = fen.split()[:3]
    letters = "".join(ch for ch in board + reserve.partition(":")[2] if ch.isalpha())
    return {letters[i:i + 2].upper() for i in range(0, len(letters), 2)}


def test_O4_selfplay_starts_from_the_given_forces(engine_binary):
    """O4: with `-` the games start from the FENs on standard input (game g from line g): from random
    forces (no placement phase) positions are sampled from the first plies on, and only the types of
    that start (and the Wizard a pawn promotes to, pawns and guards) ever differ; units outside the
    default set E10 occur."""
    fens = [start_fen("optima", "random", seed=21), start_fen("optima", "u1", seed=22)]
    out = _selfplay(engine_binary, "optima", 2, 1, 5, 80, fens).stdout.splitlines()
    tokens = [item.partition(":")[0] for item in out[0].split()[1:]]
    game, seen, first_ply = 0, set(), {}
    for line in out[1:]:
        words = line.split()
        if words[0] == "game":
            game += 1
            continue
        first_ply.setdefault(game, int(words[2]))
        nums = [int(x) for x in words[3:]]
        present = {tokens[i] for i in range(56) if nums[i] or nums[57 + i]}
        assert present <= _types(fens[game]) | {"WI", "PN", "GD"}, (game, present - _types(fens[game]))
        seen |= present
    assert game == 2
    assert first_ply[0] < 10 and first_ply[1] >= 20     # u1: a pool of 20 units placed first (O5); random: none
    assert seen - set(E10) - {"WI", "PN", "GD"}


def test_O4_selfplay_from_fens_is_reproducible(engine_binary):
    """O4: the same seed and start FENs play the same games; other start FENs other games."""
    fens = [start_fen("optima-9x9", "eq", seed=31), start_fen("optima-9x9", "random", seed=32)]
    a = _selfplay(engine_binary, "optima-9x9", 2, 1, 9, 50, fens).stdout
    b = _selfplay(engine_binary, "optima-9x9", 2, 1, 9, 50, fens).stdout
    c = _selfplay(engine_binary, "optima-9x9", 2, 1, 9, 50, fens[::-1]).stdout
    assert a == b and a != c


@pytest.mark.parametrize("variant, fens, where", [
    ("optima", ["10/10/10/10/10/10/10/10/10/10 w - - 0"], "line 1"),
    ("optima", [start_fen("optima", "random", seed=1), "not a fen"], "line 2"),
    ("optima-9x9", [start_fen("optima", "u1", seed=1)], "not a optima-9x9 position"),
    ("optima", [], "no start FEN"),
])
def test_O15_selfplay_refuses_bad_start_fens(engine_binary, variant, fens, where):
    """O15/O16: a start FEN that is not a valid position of the variant's board stops selfplay before
    any game, with a one-line error saying where, exit code 2."""
    r = _selfplay(engine_binary, variant, 1, 1, 1, 20, fens, check=False)
    assert r.returncode == 2 and r.stdout == ""
    assert len(r.stderr.strip().splitlines()) == 1 and where in r.stderr, r.stderr
