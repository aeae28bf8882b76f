"""The compiled engine plays Optima (issue 11): over UCI with ``UCI_Variant optima``
/ ``optima-9x9`` its best move is legal in hundreds of random positions
(placement and movement phase), it captures a royal unit whenever it can
(O13: that wins at once, Optima's mate in 1), and it answers ``(none)`` when
the side to move has no move (R11). Every answer is checked with the Python engine."""
from __future__ import annotations

import pytest

from maxima_board.rules import Position

from .opponent_engine import Uci, engine_binary  # noqa: F401 (fixture)
from .opponent_optima_positions import game_positions, zoo_positions
from .opponent_positions import forced_win, wins_after


@pytest.fixture(scope="module")
def uci(engine_binary):
    u = Uci(engine_binary)
    u.send("uci")
    line, seen = u.expect("uciok")
    assert any("var optima var optima-9x9" in s for s in seen)
    yield u
    u.close()


def _royal_captures(p: Position) -> list[str]:
    royal = {sq for sq, unit in p.pieces() if unit.royal and unit.color != p.turn}
    return [str(m) for m in p.legal_moves if royal & set(m.captures)]


@pytest.mark.parametrize("variant", ["optima", "optima-9x9"])
def test_O13_best_move_is_legal_in_300_random_positions(uci, variant):
    """O5, O6: `go movetime` answers a legal move (placements included) in 300 positions per board."""
    uci.send(f"setoption name UCI_Variant value {variant}")
    uci.send("ucinewgame")
    pos = game_positions(variant, 200, seed=5, plies=90) + zoo_positions(variant, 100, seed=5)
    for fen, legal in pos:
        best, _ = uci.bestmove(f"position fen {fen}", "go movetime 15")
        if not legal:
            assert best == "(none)", fen
            continue
        assert best in legal, (fen, best)


@pytest.mark.parametrize("variant", ["optima", "optima-9x9"])
def test_O13_takes_a_royal_when_it_can(uci, variant):
    """O13: capturing a royal unit wins; the engine does it in every position where it can
    (random boards with all 56 unit types, 40 such positions per board)."""
    uci.send(f"setoption name UCI_Variant value {variant}")
    uci.send("ucinewgame")
    found = 0
    for fen, _ in zoo_positions(variant, 600, seed=7):
        p = Position(fen, variant)
        wins = _royal_captures(p)
        if not wins:
            continue
        best, info = uci.bestmove(f"position fen {fen}", "go depth 3")
        assert best in wins, (fen, best, wins)
        assert "score mate 1" in [line for line in info if " score " in line][-1]
        found += 1
        if found == 40:
            break
    assert found == 40


def test_O13_no_moves_R11(uci):
    """R11: White has no legal move (both immobilizers frozen): bestmove (none); with Black to
    move the engine moves a unit that is not frozen."""
    uci.send("setoption name UCI_Variant value optima")
    fen = "9vr*/10/10/10/3VR*6/4me5/4CH2sp2/10/10/10 w - - 0"
    best, _ = uci.bestmove(f"position fen {fen}", "go depth 2")
    assert best == "(none)"
    black = fen.replace(" w ", " b ")
    best, _ = uci.bestmove(f"position fen {black}", "go movetime 50")
    assert best in [str(m) for m in Position(black, "optima").legal_moves]


def test_position_moves_and_startpos_play_through_placement(uci):
    """`position startpos moves …` with placements and board moves; the FEN (`d`) is Python's."""
    uci.send("setoption name UCI_Variant value optima-9x9")
    p = Position("start", "optima-9x9")
    played = []
    for _ in range(14):
        best, _ = uci.bestmove("position startpos" + (" moves " + " ".join(played) if played else ""),
                               "go movetime 20")
        assert best in [str(m) for m in p.legal_moves]
        p.push(best)
        played.append(best)
        if p.outcome() is not None:
            break
    uci.send("position startpos moves " + " ".join(played))
    uci.send("d")
    line, _ = uci.expect("info string fen")
    assert line.split("fen ", 1)[1] == p.fen()


def _cli(*args: str):
    import subprocess
    import sys
    return subprocess.run([sys.executable, "-m", "maxima_board.cli.main", *args], capture_output=True, text=True,
                          timeout=300)


def test_best_command_plays_optima(engine_binary):
    """`maxima-board best FEN --variant optima`: a legal move and a score from the compiled engine;
    on a board where a royal can be taken (O13) it is taken."""
    fen = ("vr*requmakejufachcear/gdgdgdgdgdgdgdgdgdgd/pnpnpnpnpnpnpnpnpnpn/10/10/10/10/PNPNPNPNPNPNPNPNPNPN/"
           "GDGDGDGDGDGDGDGDGDGD/ARCECHFAJUKEMAQUREVR* w - - 20")
    out = _cli("best", fen, "--variant", "optima", "--movetime", "200")
    assert out.returncode == 0, out.stderr
    move, score = out.stdout.split()[:2]
    assert move in [str(m) for m in Position(fen, "optima").legal_moves] and score.startswith(("+", "-"))
    r16 = "10/10/9gd/8pn1/10/6ar3/10/4qu5/1vr*1PN6/2AG6VR* w - - 0"   # the Agent c1 takes the royal b2
    out = _cli("best", r16, "--variant", "optima", "--movetime", "200")
    assert out.returncode == 0, out.stderr
    assert out.stdout.split()[0] == "c1-a3xb2"


def test_match_command_plays_optima(engine_binary):
    """`maxima-board match builtin:level=3 random --games 2 --variant optima` plays two whole games
    refereed by the Python engine and prints the score."""
    out = _cli("match", "builtin:level=3", "random", "--games", "2", "--variant", "optima", "--max-plies", "300")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert len(lines) == 3 and lines[0].startswith("game 1: builtin:level=3 (White) - random: ")
    assert lines[-1].startswith("builtin:level=3 vs random (optima, 2 games): ")


# 9x9 positions found by a seeded random search and checked by brute force below:
# White wins in 2 (royal captured or no moves, O13) and not in 1.
MATES_IN_2 = [
    "9/9/8CR/3CH*5/9/9/8me*/3IN5/3ke5 w - - 30",
    "7CV*1/9/9/8IN/6BA2/9/9/9/3in3ba*1 w - - 30",
    "2SL*6/9/7CY1/4ge4/9/9/8AG/9/2da*6 w - - 30",
]


@pytest.mark.parametrize("fen", MATES_IN_2)
def test_O13_finds_a_win_in_2(uci, fen):
    """O13: the engine plays a move after which every reply loses in 1, and reports mate 2."""
    p = Position(fen, "optima-9x9")
    assert forced_win(p, 2) and not forced_win(p, 1), "the position is not what it claims"
    uci.send("setoption name UCI_Variant value optima-9x9")
    uci.send("ucinewgame")
    best, info = uci.bestmove(f"position fen {fen}", "go depth 5")
    p.push(best)
    assert p.outcome() is None and all(wins_after(p, r, 1) for r in p.legal_moves), best
    assert "score mate 2" in [line for line in info if " score " in line][-1]
