"""Reference perft counts of maxima.md ("Reference counts"), from the start
position of M2 under rules M1-M13 (game end ignored)."""
import pytest

from maxima_board.rules import Position


@pytest.mark.parametrize("depth, leaves", [(0, 1), (1, 41), (2, 1_643), (3, 78_930)])
def test_M2_perft_from_start(depth, leaves):
    assert Position().perft(depth) == leaves


@pytest.mark.slow
def test_M2_perft_from_start_depth_4():
    assert Position().perft(4) == 3_694_617


def test_M2_divide_sums_to_perft_and_names_every_legal_move():
    p = Position()
    counts = p.divide(2)
    assert list(counts) == [str(m) for m in p.legal_moves]
    assert sum(counts.values()) == 1_643
    # Each root move's subtree equals perft(1) after playing it.
    for move, n in list(counts.items())[:5]:
        p.push(move)
        assert p.perft(1) == n == len(p.legal_moves)
        p.pop()


def test_M2_perft_leaves_the_position_unchanged():
    p = Position()
    fen = p.fen()
    p.perft(2)
    assert p.fen() == fen and len(p.legal_moves) == 41
