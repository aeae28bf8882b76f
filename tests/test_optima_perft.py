"""optima.md "Reference counts": placement perft from E10 and E9 (O5), the
29 moves after the E10 placement, and perft against a brute-force count
through the public push/pop API (movement phase from the toy game)."""
from __future__ import annotations

import pytest

from maxima_board.rules import Position
from maxima_board.rules.variants.optima_units import FALCON, PAWN
from tests.optima_support import TOY

AFTER_E10 = ("vr*requmakejufachcear/gdgdgdgdgdgdgdgdgdgd/pnpnpnpnpnpnpnpnpnpn/10/10/10/10/PNPNPNPNPNPNPNPNPNPN/"
             "GDGDGDGDGDGDGDGDGDGD/ARCECHFAJUKEMAQUREVR* w - - 20")


def brute_force(p: Position, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for move in p.legal_moves:
        p.push(move)
        total += brute_force(p, depth - 1)
        p.pop()
    return total


@pytest.mark.parametrize("depth, count", [(1, 100), (2, 10_000), (3, 810_000)])
def test_O5_placement_perft_E10(depth, count):
    p = Position("start", "optima")
    assert p.perft(depth) == count
    assert p.fen() == Position("start", "optima").fen()


@pytest.mark.slow
def test_O5_placement_perft_E10_depth_4():
    assert Position("start", "optima").perft(4) == 65_610_000


@pytest.mark.parametrize("depth, count", [(1, 45), (2, 2_025), (3, 64_800), (4, 2_073_600)])
def test_O5_placement_perft_E9(depth, count):
    assert Position("start", "optima-9x9").perft(depth) == count


def test_O5_perft_equals_brute_force_through_push_and_pop():
    p = Position("start", "optima-9x9")
    assert brute_force(p, 2) == p.perft(2) == 2_025
    u1 = Position("9/gdgdgdgdgdgdgdgdgd/pnpnpnpnpnpnpnpnpn/9/9/9/PNPNPNPNPNPNPNPNPN/GDGDGDGDGDGDGDGDGD/4CR*4 b "
                  "u1:ARCHCR*FAJUKEQURESY - 1", "optima")
    assert brute_force(u1, 3) == u1.perft(3) == 9 * (8 * 8) * (7 * 8)


def test_O5_divide_sums_to_perft_and_lists_every_move():
    p = Position("start", "optima")
    counts = p.divide(2)
    assert list(counts) == [str(m) for m in p.legal_moves] and sum(counts.values()) == 10_000
    assert set(counts.values()) == {100}
    assert p.fen() == Position("start", "optima").fen()


def test_O6_movement_perft_equals_brute_force_in_the_toy_game():
    p = Position("vr*3qu5/4ar5/10/10/10/10/10/10/1cr8/AR3QU4VR* w - - 0", TOY)
    for depth in (1, 2, 3):
        assert p.perft(depth) == brute_force(p, depth)
    assert sum(p.divide(2).values()) == p.perft(2)


def test_O5_O7_O12_5_twenty_nine_moves_after_the_E10_placement():
    """20 pawn moves and 9 Falcon flights (needs units-A's pawn and Falcon)."""
    if not FALCON.moves or not PAWN.moves:
        pytest.skip("waiting for units-A: the Falcon's and the pawns' moves are not defined on this branch")
    p = Position(AFTER_E10, "optima")
    moves = [str(m) for m in p.legal_moves]
    assert len(moves) == 29 and p.perft(1) == 29
    names = p.geometry.names
    falcon = [str(m) for m in p.legal_moves if names[m.from_square] == "d1"]
    assert falcon == ["d1-a4", "d1-d4", "d1-d5", "d1-d6", "d1-d7", "d1-g4", "d1-h5", "d1-i6", "d1-j7"]
    assert all(p.piece_at(m.from_square).token == "PN" for m in p.legal_moves if names[m.from_square] != "d1")
