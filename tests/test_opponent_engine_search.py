"""The compiled engine's search (issue 11): its best move is legal in random
positions of every game, and it finds mates in 1 and 2 and palace invasions.
Every position's solution is verified with the Python engine in the test."""
from __future__ import annotations

import pytest

from maxima_board.rules import Position, variants

from .opponent_engine import Uci, engine_binary  # noqa: F401 (fixture)
from .opponent_positions import forced_win, playout_positions, wins_after, won


@pytest.fixture(scope="module")
def uci(engine_binary):
    u = Uci(engine_binary)
    u.send("uci")
    u.expect("uciok")
    yield u
    u.close()


@pytest.mark.parametrize("variant", variants.names())
def test_best_move_is_legal_in_200_random_positions(uci, variant):
    if variants.get(variant).family == "optima":
        pytest.skip("Optima: tests/test_opponent_engine_optima_search.py")
    uci.send(f"setoption name UCI_Variant value {variant}")
    uci.send("ucinewgame")
    for fen, legal in playout_positions(variant, 200, seed=3, plies=120):
        best, _ = uci.bestmove(f"position fen {fen}", "go depth 2")
        if not legal:
            assert best == "(none)", fen
            continue
        p = Position(fen, variant)
        assert str(p.parse_move(best)) in legal, (fen, best)


MATES = [
    # (rule, variant, FEN, moves to win, won by palace)
    ("M12 palace invasion in 1: Guard to d10 with the e-file open", "maxima",
     "xxx2xxx/3D4/8/8/8/k7/4Q3/8/1p6/2M1K3/xxx2xxx w 0", 1, True),
    ("M12 palace invasion in 2", "maxima",
     "xxx2xxx/8/3D4/8/8/k7/4Q3/8/1p6/2M1K3/xxx2xxx w 0", 2, True),
    ("U11 mate in 1: frozen King, Withdrawer lands next to it", "ultima",
     "6Ik/8/8/8/p7/8/8/4K1W1 w 0", 1, False),
    ("U11 mate in 2", "ultima", "6Ik/8/8/8/p7/8/5W2/4K3 w 0", 2, False),
    ("D5 back-rank mate in 1", "coordinator-chess-10x8", "5k4/4ppp3/10/10/10/10/10/R4K4 w - - 0 1", 1, False),
    ("D5 two-Rook mate in 2", "coordinator-chess-10x8", "5k4/10/10/10/10/10/1R8/R4K4 w - - 0 1", 2, False),
    ("D5 two-Rook mate in 2 (10x10)", "swapper-chess", "5k4/10/10/10/10/10/10/10/1R8/R4K4 w - - 0 1 -", 2, False),
]


@pytest.mark.parametrize("rule,variant,fen,n,palace", MATES, ids=[m[0] for m in MATES])
def test_finds_mate(uci, rule, variant, fen, n, palace):
    p = Position(fen, variant)
    assert forced_win(p, n) and (n == 1 or not forced_win(p, n - 1)), "the position is not what it claims"
    uci.send(f"setoption name UCI_Variant value {variant}")
    uci.send("ucinewgame")
    best, info = uci.bestmove(f"position fen {fen}", "go depth 6")
    mover = p.turn
    p.push(best)
    if n == 1:
        assert won(p, mover), best
    else:
        assert p.outcome() is None and all(wins_after(p, r, n - 1) for r in p.legal_moves), best
    if palace:
        for reply in p.legal_moves[:3] if n > 1 else []:
            q = p.copy()
            q.push(reply)
            second, _ = uci.bestmove(f"position fen {q.fen()}", "go depth 4")
            q.push(second)
            assert won(q, mover), (reply, second)
            assert q.outcome().reason == "palace invaded" or q.check_info().palace, "won by the palace (M12)"
        if n == 1:
            assert p.is_check() and p.check_info().palace, "the win is the palace invasion (M12)"
    scores = [line for line in info if " score " in line]
    assert f"score mate {n}" in scores[-1]
