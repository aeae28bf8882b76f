"""The engine commands of the command line: ``moves``, ``perft``, ``analyze``."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from maxima_board.cli.main import main
from maxima_board.rules import Position
from tests.conftest import fen_of

ROOT = Path(__file__).resolve().parent.parent
START = "xxx2xxx/1g1qk1g1/1bnmrnb1/dppppppd/8/8/8/DPPPPPPD/1BNMRNB1/1G1QK1G1/xxx2xxx w 0"
BAD_ROW = "xxx2xxx/1g1qk1g1/1bnmrnb1/dppppppd/8/7/8/DPPPPPPD/1BNMRNB1/1G1QK1G1/xxx2xxx w 0"
# The Chameleon d4 checks the Black King e5 (see test_rules_palace_check).
CHECKED = fen_of({"d4": "B", "a1": "K", "e5": "k"}, "b")


def run_cli(*args, stdin=""):
    return subprocess.run([sys.executable, "-m", "maxima_board.cli.main", *args], input=stdin,
                          capture_output=True, text=True, cwd=ROOT, timeout=60)


def test_moves_start_prints_the_sorted_legal_moves_one_per_line():
    done = run_cli("moves", "start")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 41
    assert lines == sorted(lines)
    assert lines == [str(m) for m in Position().legal_moves]
    assert "d3-d5" in lines and done.stderr == ""


def test_moves_accepts_a_fen(capsys):
    assert main(["moves", CHECKED]) == 0
    assert capsys.readouterr().out.split() == ["e5-c6", "e5-d7", "e5-f3", "e5-f7", "e5-g4", "e5-g6"]


def test_perft_start_2_prints_1643():
    done = run_cli("perft", "start", "2")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "1643\n"


def test_perft_divide_prints_per_move_counts_and_a_total(capsys):
    assert main(["perft", START, "2", "--divide"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1] == "total 1643"
    per_move = [line.split() for line in lines[:-1]]
    assert len(per_move) == 41
    assert [m for m, _ in per_move] == sorted(m for m, _ in per_move)
    assert sum(int(n) for _, n in per_move) == 1643
    assert all(int(n) > 0 for _, n in per_move)


def test_perft_divide_depth_1_counts_one_per_move(capsys):
    assert main(["perft", "start", "1", "--divide"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1] == "total 41"
    assert all(line.endswith(" 1") for line in lines[:-1])


def test_analyze_prints_one_json_object_per_fen_line():
    stdin = f"start\n{CHECKED}\n\n{START}\n"
    done = run_cli("analyze", stdin=stdin)
    assert done.returncode == 0, done.stderr
    reports = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(reports) == 3                      # the blank line is skipped
    for report in reports:
        assert set(report) == {"fen", "moves", "check", "result", "reason", "immobilized"}
    start, checked, again = reports
    assert start["fen"] == "start" and again["fen"] == START
    assert start["moves"] == again["moves"] == [str(m) for m in Position().legal_moves]
    assert start["check"] is False and start["result"] == "*" and start["reason"] is None
    assert start["immobilized"] == []
    assert checked["check"] is True
    assert checked["moves"] == ["e5-c6", "e5-d7", "e5-f3", "e5-f7", "e5-g4", "e5-g6"]


def test_analyze_reports_outcome_and_immobilized_pieces():
    # Black King c5 and Guard b5 frozen by b6: stalemate (test_rules_palace_check).
    # Black King e5 frozen by e4, checked by d6; a9 frozen by b8: checkmate.
    stalemate = fen_of({"a5": "N", "b6": "M", "h1": "K", "c5": "k", "b5": "d"}, "b")
    mate = fen_of({"e4": "M", "d6": "D", "b8": "M", "h1": "K", "e5": "k", "a9": "d"}, "b")
    done = run_cli("analyze", stdin=f"{stalemate}\n{mate}\n")
    a, b = (json.loads(line) for line in done.stdout.splitlines())
    assert (a["result"], a["reason"], a["moves"], a["check"]) == ("1/2", "stalemate", [], False)
    assert a["immobilized"] == ["b5", "c5"]
    assert (b["result"], b["reason"], b["check"]) == ("1-0", "checkmate", True)
    assert b["immobilized"] == ["e5", "a9"]                          # rank, then file


def test_analyze_bad_fen_gives_an_error_object_and_the_run_continues():
    bad_lines = [BAD_ROW, "not a fen", START.replace("/8/8/8/", "/8/8/\u00b2/"),
                 "xxx2xxx/8/8/8/8/8/8/8/8/8/xxx2xxx w 0"]
    done = run_cli("analyze", stdin="\n".join(bad_lines + ["start"]) + "\n")
    assert done.returncode == 1, done.stderr          # README: exit 1 when any line failed
    reports = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(reports) == len(bad_lines) + 1
    for line, report in zip(bad_lines, reports):
        assert set(report) == {"fen", "error"}
        assert report["fen"] == line and report["error"]
    assert "rank 5" in reports[0]["error"]
    assert "King" in reports[3]["error"]
    assert len(reports[-1]["moves"]) == 41


@pytest.mark.parametrize("args", [("moves", BAD_ROW), ("perft", BAD_ROW, "2"),
                                  ("perft", BAD_ROW, "1", "--divide"), ("moves", "nonsense"),
                                  ("moves", START.replace(" w 0", " w \u0663"))])
def test_malformed_fen_is_a_one_line_error_with_exit_code_2(args):
    done = run_cli(*args)
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1
    assert "FEN" in lines[0]


def test_impossible_position_is_rejected_by_moves_with_the_reason(capsys):
    in_check = "xxx2xxx/4k3/4D3/8/8/8/8/8/8/4K3/xxx2xxx w 0"
    assert main(["moves", in_check]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "check" in err


# ------------------------------------------------- --variant and `variants` (issue 8)

ULTIMA_START = "clhwkhli/pppppppp/8/8/8/8/PPPPPPPP/ILHKWHLC w 0"
SWAPPER_10X8_START = "rnsbqkbsnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNSBQKBSNR w KQkq - 0 1 -"


def test_variants_lists_every_game_one_line_each_in_order():
    from maxima_board.rules import variants
    done = run_cli("variants")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [line.split()[0] for line in lines] == variants.names()
    assert len(lines) == 21
    for line, name in zip(lines, variants.names()):
        assert variants.get(name).title in line
    assert any("Ultima (pure)" in line for line in lines)
    assert any(line.startswith("swapper-chess-10x8 ") and "Swapper Chess 10x8" in line for line in lines)


def test_moves_with_variant_uses_that_games_start_and_rules():
    done = run_cli("moves", "start", "--variant", "ultima")
    assert done.returncode == 0, done.stderr
    expected = sorted(f"{f}2-{f}{r}" for f in "abcdefgh" for r in range(3, 7))    # U2: 32 Pawn slides
    assert done.stdout.splitlines() == expected


def test_moves_with_variant_reads_that_games_fen(capsys):
    # deckle.md R19: the Swapper e1.
    fen = "9k/10/10/10/10/10/7b2/2N1P4K/10/r3Sn4 w - - 0 1 -"
    assert main(["moves", fen, "--variant", "swapper-chess"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [m for m in lines if m.startswith("e1")] == [
        "e1-Sxf1", "e1-b1", "e1-c1", "e1-d1", "e1-d2", "e1-e2", "e1-f2", "e1-g3", "e1<>a1", "e1<>c3",
        "e1<>f1", "e1<>h4"]


@pytest.mark.parametrize("variant, depth, leaves", [
    ("ultima", 2, 944), ("ultima-pure", 2, 944), ("swapper-chess-10x8", 2, 784),
    ("long-leaper-chess", 1, 34), ("maxima", 1, 41)])
def test_perft_with_variant_prints_the_rules_files_count(capsys, variant, depth, leaves):
    assert main(["perft", "start", str(depth), "--variant", variant]) == 0
    assert capsys.readouterr().out == f"{leaves}\n"


def test_perft_divide_with_variant(capsys):
    assert main(["perft", SWAPPER_10X8_START, "1", "--divide", "--variant", "swapper-chess-10x8"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1] == "total 28"
    assert len(lines) == 29


def test_analyze_with_variant_keeps_its_keys_and_reports_the_games_results():
    mate = "k9/1Q8/2K7/10/10/10/10/10/10/10 b - - 0 1"           # D16 checkmate
    stalemate = "k9/2Q7/10/10/10/10/10/10/10/5K4 b - - 0 1"       # D16 stalemate: a draw
    bare = "5k4/10/10/10/10/10/10/10/10/5K4 w - - 0 1"             # D16 insufficient material
    fifty = "5k4/10/10/10/10/10/10/10/10/R4K4 w - - 100 80"        # D16 fifty moves
    done = run_cli("analyze", "--variant", "coordinator-chess", stdin=f"{mate}\n{stalemate}\n{bare}\n{fifty}\nstart\n")
    assert done.returncode == 0, done.stderr
    reports = [json.loads(line) for line in done.stdout.splitlines()]
    for report in reports:
        assert set(report) == {"fen", "moves", "check", "result", "reason", "immobilized"}
    assert [(r["result"], r["reason"]) for r in reports] == [
        ("1-0", "checkmate"), ("1/2-1/2", "stalemate"), ("1/2-1/2", "insufficient material"),
        ("1/2-1/2", "fifty moves"), ("*", None)]
    assert len(reports[-1]["moves"]) == 34


def test_analyze_ultima_stalemate_is_a_win():
    frozen_king = "7k/8/8/8/8/8/1i6/K7 w 0"                       # U10, U12
    done = run_cli("analyze", "--variant", "ultima-pure", stdin=f"{frozen_king}\n")
    report = json.loads(done.stdout)
    assert (report["result"], report["reason"], report["moves"]) == ("0-1", "stalemate", [])
    assert report["immobilized"] == ["a1"]


def test_analyze_fen_of_another_game_gives_an_error_object():
    done = run_cli("analyze", "--variant", "ultima", stdin=f"{START}\n{SWAPPER_10X8_START}\n")
    assert done.returncode == 1, done.stderr   # a line failed (README: exit 1)
    reports = [json.loads(line) for line in done.stdout.splitlines()]
    assert [set(r) for r in reports] == [{"fen", "error"}, {"fen", "error"}]


@pytest.mark.parametrize("args", [("moves", "start", "--variant", "chess"),
                                  ("perft", "start", "1", "--variant", "Ultima"),
                                  ("analyze", "--variant", "swapper-chess-8x10")])
def test_unknown_variant_is_a_one_line_error_naming_it_and_the_known_names(args):
    done = run_cli(*args, stdin="start\n")
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1
    assert repr(args[-1]) in lines[0] or args[-1] in lines[0]
    for known in ("maxima", "ultima-pure", "mimotaur-chess-10x8"):
        assert known in lines[0]


def test_fen_of_another_game_is_a_one_line_error_exit_2():
    done = run_cli("moves", ULTIMA_START, "--variant", "coordinator-chess")
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.splitlines()) == 1 and "FEN" in done.stderr
