"""Issue 34, part 4: teaching on the board. A lifted piece lights its legal
targets and, as LED ``captures``, every enemy piece a move of it would
capture (each kind of capture of the 21 games) or freeze; the switch is
``[assist] teach``, MENU's "Teaching on?" and ``--teach``."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from maxima_board.board.settings import Settings
from maxima_board.cli.config import parse_config
from maxima_board.rules import Position
from maxima_board.rules.teaching import preview
from maxima_board.service.script import Runner

ROOT = Path(__file__).resolve().parent.parent
ULTIMAS = ("ultima", "ultima-pure")
M = "xxx2xxx/{}/8/8/8/{}/{}/{}/{}/4K3/xxx2xxx w 0"   # Maxima: ranks 9, 5, 4, 3, 2 filled in
D = "9k/10/10/10/10/{}/{}/{}/{}/4K5 w - - 0 1"       # Deckle 10x10: ranks 5, 4, 3, 2 filled in


def seen(variant: str, fen: str, square: str) -> tuple[list[str], list[str]]:
    """The names of the squares the piece on ``square`` would capture, and would freeze."""
    p = Position(fen, variant)
    names = p.geometry.names
    found = preview(p, p.geometry.index[square])
    return [names[q] for q in found.captures], [names[q] for q in found.freezes]


# (rule, variant, FEN, lifted square, captured, frozen): one row per kind of capture and game
CASES = [
    *[(f"U4 pincer ({v})", v, "7k/8/8/3pP3/8/2P5/8/4K3 w 0", "c3", ["d5"], []) for v in ULTIMAS],
    *[(f"U5 withdrawal ({v})", v, "7k/8/8/8/3p4/3W4/8/4K3 w 0", "d3", ["d4"], []) for v in ULTIMAS],
    *[(f"U6 coordination ({v})", v, "7k/8/8/4p3/8/8/1C6/4K3 w 0", "b2", ["e5"], []) for v in ULTIMAS],
    *[(f"U7 long leap ({v})", v, "7k/8/8/8/3p4/8/3L4/4K3 w 0", "d2", ["d4"], []) for v in ULTIMAS],
    *[(f"U8 Chameleon as Withdrawer ({v})", v, "7k/8/8/8/3w4/3H4/8/4K3 w 0", "d3", ["d4"], []) for v in ULTIMAS],
    *[(f"U9 Immobilizer's freeze ({v})", v, "7k/8/8/3p4/8/3I4/8/4K3 w 0", "d3", [], ["d5", "h8"]) for v in ULTIMAS],
    *[(f"U3 King by replacement ({v})", v, "7k/8/8/8/8/3p4/4K3/8 w 0", "e2", ["d3"], []) for v in ULTIMAS],
    ("M4 pincer", "maxima", M.format("7k", "3pP3", "8", "2P5", "8"), "c3", ["d5"], []),
    ("M5 withdrawal", "maxima", M.format("7k", "8", "3p4", "3Q4", "8"), "d3", ["d4"], []),
    ("M6 coordination", "maxima", M.format("7k", "4p3", "8", "8", "1R6"), "b2", ["e5"], []),
    ("M7 long leap", "maxima", M.format("7k", "8", "3p4", "8", "3N4"), "d2", ["d4"], []),
    ("M8 Chameleon as Withdrawer", "maxima", M.format("7k", "8", "3q4", "3B4", "8"), "d3", ["d4"], []),
    ("M9 Immobilizer's freeze", "maxima", M.format("7k", "3p4", "8", "3M4", "8"), "d3", [], ["d5"]),
    ("D8 coordination", "coordinator-chess", D.format("4p5", "10", "10", "1C8"), "b2", ["e5"], []),
    ("D9 Immobilizer's freeze", "immobilizer-chess", D.format("3p6", "10", "3I6", "10"), "d3", [], ["d5", "j10"]),
    ("D10 withdrawal", "withdrawer-chess", D.format("10", "3p6", "3W6", "10"), "d3", ["d4"], []),
    ("D11 approach", "advancer-chess", D.format("10", "3p6", "10", "3A6"), "d2", ["d4"], []),
    ("D12 Pushme-Pullyu's withdrawal", "pushme-pullyu-chess", D.format("10", "3p6", "3U6", "10"), "d3", ["d4"], []),
    ("D13 long leap", "long-leaper-chess", D.format("10", "3p6", "10", "3L6"), "d2", ["d4"], []),
    ("D14 Swapper's mutual destruction", "swapper-chess", D.format("10", "3p6", "3S6", "10") + " -", "d3",
     ["d4"], []),
    ("D15 Mimotaur takes a Knight as one", "mimotaur-chess", D.format("3n6", "10", "2M7", "10"), "c3", ["d5"], []),
    ("O9.6 rifle shot and replacement", "optima", "9vr*/10/10/4gd1pn3/10/1qu2AR5/4gd5/10/10/9VR* w - - 0", "e5",
     ["e4", "b5", "e7", "g7"], []),
    ("O11 conversion", "optima", "10/10/10/10/3arvr*qu4/10/4EN5/6pn3/3gd6/9VR* w - - 0", "e4",
     ["d2", "g3", "d6", "e6"], []),
    ("O10 Medusa's freeze", "optima", "9vr*/10/10/10/4pn5/10/10/10/4ME5/VR*9 w - - 0", "e2", [], ["e6"]),
]


@pytest.mark.parametrize("rule, variant, fen, square, captured, frozen", CASES, ids=[c[0] for c in CASES])
def test_a_lifted_piece_shows_what_it_would_capture_or_freeze(rule, variant, fen, square, captured, frozen):
    assert seen(variant, fen, square) == (captured, frozen)


def test_U5_the_preview_is_the_legal_moves_captures_and_nothing_else():
    """Every lit capture is some legal move's, and every legal move's capture is lit."""
    p = Position("7k/8/8/2p5/3p4/2pW4/8/4K3 w 0", "ultima")
    d3 = p.geometry.index["d3"]
    moves = [m for m in p.legal_moves if m.from_square == d3]
    assert preview(p, d3).captures == tuple(sorted({q for m in moves for q in m.captures}))
    assert [p.geometry.names[q] for q in preview(p, d3).captures] == ["c3", "d4"]   # c5 is not next to d3


def test_U9_a_frozen_piece_and_an_empty_square_show_nothing():
    p = Position("7k/8/8/8/3i4/3W4/8/4K3 w 0", "ultima")
    assert preview(p, p.geometry.index["d3"]).captures == ()
    assert preview(p, p.geometry.index["a1"]).targets == ()


# ------------------------------------------------------------------ on the board
def lit(runner: Runner, state: str) -> list[str]:
    return sorted(sq for sq, s in runner.controller.leds.items() if s == state)


def test_U5_teaching_lights_the_withdrawers_victim_and_its_targets_and_names_it():
    runner = Runner(Settings(teach=True, variant="ultima"), fen="7k/8/8/8/3p4/3W4/8/4K3 w 0", variant="ultima")
    runner.lift("d3")
    runner.wait(300)
    assert lit(runner, "captures") == ["d4"]
    assert "d1" in lit(runner, "hint") and "d2" in lit(runner, "hint")
    assert "It can take Pawn d4." in " ".join(runner.controller.display)


def test_U5_without_teaching_nothing_is_lit():
    runner = Runner(Settings(variant="ultima"), fen="7k/8/8/8/3p4/3W4/8/4K3 w 0", variant="ultima")
    runner.lift("d3")
    runner.wait(300)
    assert "captures" not in runner.controller.leds.values() and "hint" not in runner.controller.leds.values()


def test_teaching_is_a_config_setting():
    config = parse_config('hardware = "sim"\n[assist]\nteach = true\n')
    assert config.settings_values == {"teach": True}
    assert Settings().teach is False


def test_M9_menu_switches_teaching_on_and_off():
    runner = Runner(Settings(), fen=M.format("7k", "3p4", "8", "3M4", "8"))
    runner.press("menu")
    runner.press("menu")           # the chooser's MENU row: the game's menu
    for _ in range(10):
        if "Teaching on?" in " ".join(runner.controller.display):
            break
        runner.press("menu")
    assert "Teaching on?" in " ".join(runner.controller.display)
    runner.press("ok")
    runner.lift("d3")
    runner.wait(300)
    assert lit(runner, "captures") == ["d5"]
    runner.place("d3")
    runner.wait(300)
    runner.press("menu")
    runner.press("menu")
    for _ in range(10):
        if "Teaching off?" in " ".join(runner.controller.display):
            break
        runner.press("menu")
    runner.press("ok")
    runner.lift("d3")
    runner.wait(300)
    assert lit(runner, "captures") == []


def cli(*args: str, stdin: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "maxima_board.cli.main", *args], input=stdin, text=True,
                          capture_output=True, cwd=ROOT, env=env, timeout=60)


def test_U5_sim_teach_prints_the_captures_beside_the_targets(tmp_path: Path):
    script = "fen 7k/8/8/8/3p4/3W4/8/4K3 w 0\nlift d3\nwait 500\nshow\n"
    out = cli("sim", "--variant", "ultima", "--db", str(tmp_path / "g.db"), "--teach", stdin=script).stdout
    leds = [line for line in out.splitlines() if line.startswith("leds ")]
    assert leds and "; captures d4" in leds[-1] and leds[-1].startswith("leds hint a3 ")
    assert "c captures" in out and "4 .  .  .h pc" in out
    plain = cli("sim", "--variant", "ultima", "--db", str(tmp_path / "h.db"), stdin=script).stdout
    assert "captures d4" not in plain


def test_U5_replay_teach_lights_the_captures(tmp_path: Path):
    script = tmp_path / "s.txt"
    script.write_text("lift d3\nwait 500\n")
    out = cli("replay", str(script), "--variant", "ultima", "--fen", "7k/8/8/8/3p4/3W4/8/4K3 w 0", "--teach",
              stdin="").stdout
    assert '"d4": "captures"' in out
