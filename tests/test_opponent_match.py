"""Matches and Elo (issue 11): the formula, the openings, a short seeded
match random vs greedy, the ``match``, ``best`` and ``engine`` commands."""
from __future__ import annotations

import math
import subprocess
import sys

import pytest

from maxima_board.rules import Position
from maxima_board.rules.record import GameRecord
from maxima_board.opponent.match import elo, elo_interval, openings, run_match
from maxima_board.opponent.supervisor import Limits


def expected(diff: float) -> float:
    """The logistic Elo model: the score expected at an Elo difference."""
    return 1 / (1 + 10 ** (-diff / 400))


def test_elo_of_known_scores():
    assert elo(0.5) == 0
    assert elo(10 / 11) == pytest.approx(400)     # 10:1 odds is 400 Elo
    assert elo(1 / 11) == pytest.approx(-400)
    assert elo(0.64) == pytest.approx(100, abs=0.05)   # the familiar "100 Elo is 64%"
    assert elo(1.0) == math.inf and elo(0.0) == -math.inf


def test_elo_interval_is_the_normal_approximation_of_the_mean_score():
    scores = [1.0] * 64 + [0.0] * 36            # 100 games, no draws: sd = sqrt(p(1-p))
    e, lo, hi = elo_interval(scores)
    se = math.sqrt(0.64 * 0.36 / 100)
    assert expected(e) == pytest.approx(0.64)
    assert expected(lo) == pytest.approx(0.64 - 1.96 * se, abs=1e-4)
    assert expected(hi) == pytest.approx(0.64 + 1.96 * se, abs=1e-4)
    assert lo < e < hi
    e, lo, hi = elo_interval([0.5] * 10)          # all draws: no spread at all
    assert e == lo == hi == 0
    assert elo_interval([1.0] * 5)[1] == math.inf


def test_openings_are_distinct_legal_and_unfinished():
    lines = openings("ultima", 8, 4, seed=1)
    assert len(lines) == 8 and len({tuple(line) for line in lines}) == 8
    for line in lines:
        p = Position("start", "ultima")
        for move in line:
            p.push(move)
        assert p.outcome() is None and len(line) == 4
    assert openings("ultima", 8, 4, seed=1) == lines != openings("ultima", 8, 4, seed=2)


def test_greedy_beats_random_in_a_short_seeded_match():
    games = []
    result = run_match("random", "greedy", 8, "maxima", Limits(depth=1), seed=4, max_plies=150,
                       on_game=lambda n, g: games.append(g))
    assert len(result.games) == 8 and [g.a_white for g in result.games] == [True, False] * 4
    assert [g.opening for g in result.games[0::2]] == [g.opening for g in result.games[1::2]]
    wins, draws, losses = result.counts()
    assert losses > 4, result.summary()            # greedy (B) wins the majority
    assert "random vs greedy (maxima, 8 games)" in result.summary()
    for g in result.games:                         # every game is a legal game adjudicated by the rules
        p = Position("start", "maxima")
        for move in g.moves:
            p.push(move)
        if g.reason.startswith("move cap"):
            assert g.result == "1/2" and len(g.moves) == 150
        else:
            assert p.outcome().result == g.result and p.outcome().reason == g.reason


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["maxima", "ultima", "withdrawer-chess"])
def test_greedy_beats_random_over_twenty_games(variant):
    result = run_match("random", "greedy", 20, variant, Limits(depth=1), seed=0)
    assert sum(result.scores) < 10, result.summary()


def _cli(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "maxima_board.cli.main", *args], capture_output=True, text=True,
                          timeout=timeout)


def test_match_command_prints_games_summary_and_writes_records(tmp_path):
    records = tmp_path / "games.pgn"
    out = _cli("match", "greedy", "minimax2", "--games", "2", "--variant", "ultima", "--depth", "2",
               "--max-plies", "40", "--records", str(records))
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("game 1: greedy (White) - minimax2: ")
    assert lines[-1].startswith("greedy vs minimax2 (ultima, 2 games): ") and "Elo" in lines[-1]
    texts = records.read_text().split("\n\n[")
    assert len(texts) == 2
    for n, text in enumerate(texts):
        record = GameRecord.from_text(text if n == 0 else "[" + text)
        assert record.variant.name == "ultima" and len(record.moves) <= 40
        record.replay()


def test_O4_match_from_a_given_start_plays_every_game_from_it(tmp_path):
    """--fen: every game starts from the given position (here an Optima start of random forces, O4),
    its random openings follow it, and the records carry it as their FEN tag and replay."""
    made = _cli("new-optima", "--forces", "random", "--seed", "5", "--board", "9x9")
    assert made.returncode == 0, made.stderr
    start = made.stdout.strip()
    assert start != Position("start", "optima-9x9").fen()
    records = tmp_path / "games.pgn"
    out = _cli("match", "greedy", "random", "--games", "2", "--variant", "optima-9x9", "--fen", start,
               "--max-plies", "30", "--records", str(records), "--quiet")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("greedy vs random (optima-9x9, 2 games): ")
    texts = records.read_text().split("\n\n[")
    assert len(texts) == 2
    firsts = set()
    for n, text in enumerate(texts):
        record = GameRecord.from_text(text if n == 0 else "[" + text)
        assert record.tags["FEN"] == start
        firsts.add(record.moves[0])
        assert Position(start, "optima-9x9").is_legal(Position(start, "optima-9x9").parse_move(record.moves[0]))
        record.replay()
    assert len(firsts) == 1   # one opening, played with both colours


def test_openings_follow_the_given_start():
    start = "4k3/8/8/8/8/8/8/4K3 w 0"
    p = Position(start, "ultima")
    for line in openings("ultima", 5, 2, seed=3, start_fen=p.fen()):
        q = p.copy()
        for move in line:
            q.push(move)   # raises if a move is not legal there
        assert len(line) == 2


def test_best_command_prints_a_legal_move_and_a_score():
    out = _cli("best", "start", "--variant", "ultima", "--engine", "minimax2", "--depth", "2")
    assert out.returncode == 0, out.stderr
    move, score = out.stdout.split()[:2]
    p = Position("start", "ultima")
    assert p.is_legal(p.parse_move(move)) and score.startswith(("+", "-"))


@pytest.mark.parametrize("args, words", [
    (["best", "nonsense"], "bad FEN"),
    (["best", "start", "--engine", "/no/such/engine"], "no such file"),
    (["match", "random", "greedy", "--games", "1"], "--games must be a whole number from 2"),
    (["match", "random", "greedy", "--variant", "chess"], "chess"),
    (["match", "random", "greedy", "--fen", "nonsense"], "--fen: FEN needs 3 fields"),
    (["match", "random", "greedy", "--variant", "optima", "--fen", "10/10 w - - 0"], "--fen: "),
])
def test_bad_input_is_one_line_and_exit_2(args, words):
    out = _cli(*args)
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and words in out.stderr, out.stderr


def test_engine_command_without_the_binary_says_how_to_build_it(tmp_path, monkeypatch, capsys):
    """Whether or not this checkout has built it: a missing binary is one line, exit 2."""
    from maxima_board.cli.main import main
    from maxima_board.opponent import specs

    monkeypatch.setattr(specs, "INSTALLED", tmp_path / "bin" / "maxima-engine")
    monkeypatch.setattr(specs, "NOT_BUILT", tmp_path / "bin" / "NOT-BUILT")
    monkeypatch.setattr(specs, "BUILTIN", tmp_path / "maxima-engine")
    assert main(["engine"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "make -C engine" in err and "build-essential" in err
    assert main(["engine", "--check"]) == 2


def test_engine_command_prefers_the_installed_binary_and_says_why_there_is_none(tmp_path, monkeypatch, capsys):
    """The install's binary (opponent/bin, setup.py) comes before the checkout's; without
    either, the reason the install wrote (NOT-BUILT) is the one line."""
    from maxima_board.cli.main import main
    from maxima_board.opponent import specs

    installed, checkout = tmp_path / "bin" / "maxima-engine", tmp_path / "engine" / "maxima-engine"
    for path in (installed, checkout):
        path.parent.mkdir()
        path.write_text("#!/bin/sh\n")
        path.chmod(0o755)
    monkeypatch.setattr(specs, "INSTALLED", installed)
    monkeypatch.setattr(specs, "NOT_BUILT", installed.parent / "NOT-BUILT")
    monkeypatch.setattr(specs, "BUILTIN", checkout)
    assert main(["engine", "--check"]) == 0 and capsys.readouterr().out == f"{installed}\n"
    installed.unlink()
    assert main(["engine", "--check"]) == 0 and capsys.readouterr().out == f"{checkout}\n"
    checkout.unlink()
    (installed.parent / "NOT-BUILT").write_text("no gcc and make (apt-get install build-essential)\n")
    assert main(["engine", "--check"]) == 2
    assert capsys.readouterr().err == ("maxima-board engine: the built-in engine is not built: "
                                       "no gcc and make (apt-get install build-essential)\n")


def test_baseline_command_speaks_uci():
    out = subprocess.run([sys.executable, "-m", "maxima_board.cli.main", "baseline", "greedy"],
                         input="uci\nisready\nposition startpos\ngo depth 1\nquit\n",
                         capture_output=True, text=True, timeout=60)
    lines = out.stdout.splitlines()
    assert out.returncode == 0 and "uciok" in lines and "readyok" in lines and lines[-1].startswith("bestmove ")
