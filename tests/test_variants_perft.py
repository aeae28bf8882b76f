"""perft of every game from its start, against the reference counts of the
rules files (maxima.md, ultima.md, deckle.md), and colour-mirror symmetry of
perft/divide from positions where automatic captures happen at once.

Maxima's own start counts live in test_rules_perft.py (M2); here Maxima only
takes part in the symmetry tests.
"""
from __future__ import annotations

import pytest

from maxima_board.rules import Position
from tests.test_variants_support import (DECKLE_GAMES, deckle_id, mirror_fen, mirror_move,
                                         rank_span)

# (depth 1, depth 2, depth 3) from the rules files' "Reference counts".
START_COUNTS = {
    "ultima": (32, 944, 42_762),
    "ultima-pure": (32, 944, 42_762),
}
_DECKLE = {  # deckle.md: (10x10, 10x8)
    "coordinator": ((34, 1_156, 43_344), (24, 576, 15_994)),
    "immobilizer": ((34, 1_156, 43_344), (24, 576, 15_994)),
    "withdrawer": ((34, 1_156, 43_344), (24, 576, 15_994)),
    "long-leaper": ((34, 1_156, 43_362), (24, 576, 15_998)),
    "advancer": ((34, 1_156, 43_344), (24, 576, 15_994)),
    "swapper": ((38, 1_444, 59_398), (28, 784, 24_498)),
    "pushme-pullyu": ((34, 1_156, 43_344), (24, 576, 15_994)),
    "mimotaur": ((34, 1_156, 43_344), (24, 576, 15_994)),
}
for _game, (_big, _small) in _DECKLE.items():
    START_COUNTS[deckle_id(_game, 10)] = _big
    START_COUNTS[deckle_id(_game, 8)] = _small
assert len(START_COUNTS) == 18 and all(deckle_id(g) in START_COUNTS for g in DECKLE_GAMES)

CASES = [(name, depth, counts[depth - 1]) for name, counts in START_COUNTS.items() for depth in (1, 2, 3)]


@pytest.mark.parametrize("name, depth, leaves", CASES)
def test_U1_D1_perft_from_the_start(name, depth, leaves):
    assert Position("start", variant=name).perft(depth) == leaves


MIRRORED = [(name, 2) for name in sorted(START_COUNTS)] + [
    pytest.param(name, 3, marks=pytest.mark.slow) for name in sorted(START_COUNTS)]


@pytest.mark.parametrize("name, depth", MIRRORED)
def test_perft_from_the_colour_mirrored_start(name, depth):
    """The start turned upside down with colours swapped and Black to move
    has the same tree: checks Black's pawn directions, Black's castling and
    the FEN fields of the other colour."""
    low, high = rank_span(name)
    start = Position("start", variant=name)
    mirrored = Position(mirror_fen(start.fen(), low, high), variant=name)
    assert mirrored.perft(depth) == START_COUNTS[name][depth - 1]


def test_divide_sums_to_perft_and_leaves_the_position_unchanged():
    for name in ("ultima", "swapper-chess-10x8", "long-leaper-chess"):
        p = Position("start", variant=name)
        fen = p.fen()
        split = p.divide(2)
        assert sorted(split) == [str(m) for m in p.legal_moves]
        assert sum(split.values()) == START_COUNTS[name][1] == p.perft(2)
        assert p.fen() == fen


# Positions where automatic captures (and castling, en passant, promotion,
# swaps, suicide) happen at depth 1 and 2: the reference positions of the
# rules files. Their trees must be mirror images move for move.
CAPTURE_POSITIONS = [
    ("ultima", "7k/P7/p7/1pP1c3/8/lP6/HP6/wP2K3 w 0"),                 # U8 R1
    ("ultima-pure", "7k/P7/p7/1pP1c3/8/lP6/HP6/wP2K3 w 0"),
    ("ultima", "6Hi/6PH/6P1/8/8/7K/8/k7 w 0"),                          # U9 R3 (suicide)
    ("ultima-pure", "7k/8/1H6/2iPi3/8/8/8/K7 w 0"),                    # U9 R14
    ("ultima", "7k/8/1H6/2iPi3/8/8/8/K7 w 0"),
    ("ultima", "7k/8/3K4/3p2i1/P3lW2/3c4/3P4/8 w 0"),                   # U4 R12
    ("ultima", "c6k/8/8/w7/8/p7/1P6/LK6 w 0"),                          # U7 R9
    ("coordinator-chess", "9k/PPP7/PCP7/bP8/10/10/10/K1n7/10/10 w - - 0 1"),        # D8 R9
    ("immobilizer-chess", "5k1r2/9b/10/10/10/10/10/10/10/R4K3R w KQ - 0 1"),      # D6 R2
    ("withdrawer-chess", "9k/10/10/10/3P1p4/3PWP4/4nP4/10/10/9K w - - 0 1"),      # D10 R14
    ("withdrawer-chess", "3r1k4/2P7/10/10/10/10/10/10/10/5K4 w - - 0 1"),         # D7 R7
    ("long-leaper-chess", "5k4/10/10/10/10/4Pp4/3p6/10/10/5K4 b - e3,e4 0 1"),    # D7 R6
    ("long-leaper-chess", "9k/10/10/10/10/4r5/1p1b6/1p8/1L1p1n2P1/2n6K w - - 0 1"),  # D13 R18
    ("advancer-chess", "9k/10/10/2b7/5r4/10/10/1nAP6/1PPP6/9K w - - 0 1"),        # D11 R15
    ("pushme-pullyu-chess", "9k/10/10/10/10/3PPP4/3nU2r2/3PPP4/10/K9 w - - 0 1"),  # D12 R17
    ("swapper-chess", "9k/10/10/10/10/10/7b2/2N1P4K/10/r3Sn4 w - - 0 1 -"),       # D14 R19
    ("swapper-chess", "k9/10/10/10/1ppp6/1ps4S2/1ppp6/10/10/9K b - - 0 1 c5<>h5"),  # D14 R20
    ("mimotaur-chess", "9k/10/10/6b3/3bn5/2p7/1n1M2r3/4p5/1m1q6/9K w - - 0 1"),    # D15 R22
    ("long-leaper-chess-10x8", "3r1k4/2P7/10/10/10/10/10/5K4 w - - 0 1"),         # D7 R8
    ("coordinator-chess-10x8", "r4k3r/10/10/10/10/10/10/5K4 b kq - 0 1"),          # D6 R4
]


@pytest.mark.parametrize("name, fen", CAPTURE_POSITIONS)
def test_divide_depth_2_is_colour_symmetric_where_captures_happen(name, fen):
    low, high = rank_span(name)
    p = Position(fen, variant=name)
    q = Position(mirror_fen(fen, low, high), variant=name)
    assert mirror_fen(q.fen(), low, high) == fen
    split = p.divide(2)
    assert {mirror_move(m, low, high): n for m, n in split.items()} == q.divide(2)


@pytest.mark.slow
@pytest.mark.parametrize("name, fen", CAPTURE_POSITIONS)
def test_divide_depth_3_is_colour_symmetric_where_captures_happen(name, fen):
    low, high = rank_span(name)
    p = Position(fen, variant=name)
    q = Position(mirror_fen(fen, low, high), variant=name)
    split = p.divide(3)
    assert {mirror_move(m, low, high): n for m, n in split.items()} == q.divide(3)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["ultima", "ultima-pure", "coordinator-chess-10x8", "swapper-chess-10x8",
                                  "long-leaper-chess-10x8", "immobilizer-chess-10x8"])
def test_perft_depth_4_from_the_start_equals_the_mirrored_start_move_for_move(name):
    """Depth 4 sees automatic captures from the start; no rules file gives the
    count, so the tree is compared with its colour mirror, root move by root move."""
    low, high = rank_span(name)
    p = Position("start", variant=name)
    q = Position(mirror_fen(p.fen(), low, high), variant=name)
    split = p.divide(4)
    assert {mirror_move(m, low, high): n for m, n in split.items()} == q.divide(4)
    assert sum(split.values()) > START_COUNTS[name][2] * 20
