"""Levels defined by work (issue 23): each level is a node budget, `go nodes N`
is honoured to within 1 %, a clock's time still caps a level, and the
engine's table is opponent/levels.py's."""
from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest

from maxima_board.rules import Position
from maxima_board.opponent.levels import FAMILIES, LEVEL_COUNT, ROWS, WORDS, label, level

from .opponent_engine import Uci, engine_binary  # noqa: F401 (fixture)



@pytest.fixture
def uci(engine_binary):
    u = Uci(engine_binary)
    yield u
    u.close()


def _final_nodes(info: list[str]) -> int:
    """The count of the last line before bestmove: `info nodes N time T`."""
    last = info[-1].split()
    assert last[:2] == ["info", "nodes"], info[-1]
    return int(last[2])


def _position(variant: str) -> str:
    p = Position("start", variant)
    if variant.startswith("optima"):   # through the placement phase (O5), to a position with moves on the board
        while p.legal_moves and str(p.legal_moves[0]).find("@") >= 0:
            p.push(p.legal_moves[0])
    return p.fen()


@pytest.mark.parametrize("variant", ["maxima", "ultima", "withdrawer-chess", "optima-9x9"])
@pytest.mark.parametrize("budget", [777, 20_000, 120_000])
def test_go_nodes_is_honoured_within_one_percent(uci, variant, budget):
    uci.send(f"setoption name UCI_Variant value {variant}")
    fen = _position(variant)
    best, info = uci.bestmove(f"position fen {fen}", f"go nodes {budget}")
    assert Position(fen, variant).is_legal(Position(fen, variant).parse_move(best))
    nodes = _final_nodes(info)
    assert nodes <= budget, f"{nodes} nodes searched for go nodes {budget}"   # never an overshoot
    assert nodes >= budget * 0.99, f"only {nodes} nodes searched for go nodes {budget}"


@pytest.mark.parametrize("n", [1, 2, 3])
def test_the_weakest_levels_never_overshoot_go_nodes(uci, n):
    """Levels 1-2 evaluate the leaves without quiescence; those leaves count too (a depth-1 search
    of Maxima's start has 41 of them)."""
    uci.send(f"setoption name Level value {n}")
    for _ in range(10):
        _, info = uci.bestmove("position startpos", "go nodes 20")
        assert _final_nodes(info) <= 20


@pytest.mark.parametrize("variant", ["maxima", "ultima", "withdrawer-chess", "optima"])   # one game a family
@pytest.mark.parametrize("n", [6, 7])   # levels without a depth cap
def test_a_bare_go_searches_the_levels_node_budget(uci, variant, n):
    """Each game searches its own family's budget (levels.c's family_level, search_core.h's SC_LEVEL)."""
    uci.send(f"setoption name UCI_Variant value {variant}")
    uci.send(f"setoption name Level value {n}")
    _, info = uci.bestmove(f"position fen {_position(variant)}", "go", timeout=60)
    nodes = _final_nodes(info)
    assert level(n, variant).nodes * 0.99 <= nodes <= level(n, variant).nodes * 1.01


def test_a_clock_still_caps_the_top_level(uci):
    """Level 10's budget (millions of nodes) takes seconds; go movetime 200 ends it at 0.2 s."""
    start = time.monotonic()
    _, info = uci.bestmove("position startpos", "go movetime 200")
    assert time.monotonic() - start < 2.0
    assert _final_nodes(info) < level(10, "maxima").nodes


@pytest.mark.parametrize("family", FAMILIES)
def test_the_engines_levels_are_opponent_levels(engine_binary, family):
    out = subprocess.run([str(engine_binary), "levels", family], capture_output=True, text=True, check=True).stdout
    got, table = [line.split() for line in out.splitlines()], ROWS[family]
    assert len(got) == len(table) == 10
    for words, lv in zip(got, table):
        fields = dict(zip(words[1::2], map(int, words[2::2])))
        assert int(words[0]) == lv.n
        assert fields == {"nodes": lv.nodes, "depth": lv.depth or 0, "noise": lv.noise,
                          "random": lv.random_pct, "quiescence": int(lv.quiescence)}


@pytest.mark.parametrize("args", [[], ["board"], ["Maxima"]])
def test_the_engines_levels_need_a_family(engine_binary, args):
    run = subprocess.run([str(engine_binary), "levels", *args], capture_output=True, text=True)
    assert run.returncode == 2 and run.stdout == ""
    if args:
        assert run.stderr == f"maxima-engine levels: expected maxima, ultima, deckle or optima, got '{args[0]}'\n"


@pytest.mark.parametrize("family", FAMILIES)
def test_levels_grow_in_work_and_have_words(family):
    rows = ROWS[family]
    assert [lv.n for lv in rows] == list(range(1, 11)) and [lv.word for lv in rows] == list(WORDS)
    assert all(a.nodes < b.nodes for a, b in zip(rows, rows[1:]))
    assert all(a.random_pct >= b.random_pct and a.noise >= b.noise for a, b in zip(rows, rows[1:]))
    assert len(set(WORDS)) == LEVEL_COUNT == 10
    assert label(1) == "Level 1 (beginner)" and label(10) == "Level 10 (master)"


def test_a_level_is_looked_up_by_game_or_family():
    assert level(3, "withdrawer-chess-10x8") == level(3, "deckle") == ROWS["deckle"][2]
    assert level(1, "optima-9x9") == ROWS["optima"][0] and level(1, "ultima-pure") == ROWS["ultima"][0]
    with pytest.raises(ValueError, match="1 to 10"):
        level(11, "maxima")
    with pytest.raises(ValueError, match="1 to 10"):
        label(0)
    with pytest.raises(ValueError, match="unknown variant 'chess'"):
        level(1, "chess")


def _answers(engine_binary, n: int, seed: int | None, fens: list[str]) -> list[str]:
    u = Uci(engine_binary)
    try:
        u.send(f"setoption name Level value {n}")
        if seed is not None:
            u.send(f"setoption name Seed value {seed}")
        return [u.bestmove(f"position fen {fen}", "go")[0] for fen in fens]
    finally:
        u.close()


@pytest.mark.parametrize("n", [1, 4])
def test_with_a_seed_the_noisy_levels_repeat_themselves(engine_binary, n):
    """Levels 1-5 choose random moves and add noise; with the Seed option (the board and matches set it)
    two runs play the same moves, so a replay repeats exactly."""
    p, fens = Position("start", "ultima"), []
    for i in range(8):
        fens.append(p.fen())
        p.push(p.legal_moves[(7 * i) % len(p.legal_moves)])
    first = _answers(engine_binary, n, 11, fens)
    assert _answers(engine_binary, n, 11, fens) == first
    assert len(set(_answers(engine_binary, n, s, fens[:1])[0] for s in range(12))) > 1   # the seed matters


@pytest.mark.parametrize("variant", ["optima", "optima-9x9", "maxima", "ultima", "withdrawer-chess"])
def test_each_game_plays_its_own_level_1(engine_binary, variant):
    """Each game's search takes its level from its family's rows (levels.c's family_level, search_core.h's
    SC_LEVEL): the share of random moves (answered at once, `info depth 0`) over 1000 seeds is level 1's
    random_pct of that family, and the families' shares differ."""
    u = Uci(engine_binary)
    try:
        u.send(f"setoption name UCI_Variant value {variant}")
        u.send("setoption name Level value 1")
        fen, random_moves, tries = _position(variant), 0, 1000
        for seed in range(tries):
            u.send(f"setoption name Seed value {seed}")
            _, info = u.bestmove(f"position fen {fen}", "go")
            random_moves += any(line.startswith("info depth 0 ") for line in info)
    finally:
        u.close()
    assert len({rows[0].random_pct for rows in ROWS.values()}) > 1
    assert abs(random_moves / tries - level(1, variant).random_pct / 100) < 0.035, random_moves


def _cell(lv) -> str:
    """A level's row as docs/opponent-engine.md's table gives it."""
    parts = [f"{lv.nodes:,}"]
    parts += [f"depth {lv.depth}"] if lv.depth else []
    parts += [f"±{lv.noise}"] if lv.noise else []
    parts += [f"{lv.random_pct} % random"] if lv.random_pct else []
    parts += [] if lv.quiescence else ["no quiescence"]
    return ", ".join(parts)


def test_the_docs_give_each_familys_levels():
    """docs/opponent-engine.md (*Levels*) has each family's rows as opponent/levels.py (and levels.c) do."""
    text = (Path(__file__).resolve().parent.parent / "docs" / "opponent-engine.md").read_text()
    header = "| level | word | " + " | ".join(FAMILIES) + " |"
    assert header in text
    lines = text.split(header, 1)[1].splitlines()[2:2 + LEVEL_COUNT]
    for n, line in enumerate(lines, 1):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        assert cells == [str(n), WORDS[n - 1]] + [_cell(level(n, f)) for f in FAMILIES], line
