"""Optima's forces (O4) and placement phase (O5), reference positions R1-R4."""
from __future__ import annotations

import random

import pytest

from maxima_board.rules import MoveError, Position
from maxima_board.rules.optima.forces import start_fen
from maxima_board.rules.optima.placement import schedule, side_at
from maxima_board.rules.variants.base import BLACK, WHITE
from maxima_board.rules.variants.optima import BY_TOKEN, E9, E10, PIECE_TOKENS

PAWNS_10 = "gdgdgdgdgdgdgdgdgdgd/pnpnpnpnpnpnpnpnpnpn/10/10/10/10/PNPNPNPNPNPNPNPNPNPN/GDGDGDGDGDGDGDGDGDGD"
PAWNS_9 = "gdgdgdgdgdgdgdgdgd/pnpnpnpnpnpnpnpnpn/9/9/9/PNPNPNPNPNPNPNPNPN/GDGDGDGDGDGDGDGDGD"


def legal(p: Position) -> list[str]:
    return [str(m) for m in p.legal_moves]


# ------------------------------------------------------------------ R1-R4
def test_O5_R1_royals_first_u1_9x9_black_must_place_the_other_royal():
    p = Position(f"9/{PAWNS_9}/4CR*4 b u1:ARCHCR*FAJUKEQURESY - 1", "optima")
    assert legal(p) == ["CR*@a9", "CR*@b9", "CR*@c9", "CR*@d9", "CR*@e9", "CR*@f9", "CR*@g9", "CR*@h9", "CR*@i9"]
    assert p.placeable() == ("CR*",)


def test_O5_R2_last_placement_of_u1_9x9_then_white_moves():
    fen = f"2faqucr*ju3/{PAWNS_9}/CHKE1RECR*AR3 b u1:SY - 9"
    p = Position(fen, "optima")
    assert legal(p) == ["SY@a9", "SY@b9", "SY@g9", "SY@h9", "SY@i9"]
    for move in p.legal_moves:
        p.push(move)
        assert p.turn == WHITE and p.phase == "movement" and p.fen().split()[1:] == ["w", "-", "-", "10"]
        p.pop()
        assert p.fen() == fen


def test_O5_R3_u2_white_places_the_last_royal_then_places_again():
    """R3 as printed in optima.md has 11 White pawns (see test_optima_fen); this is its 10x10 board."""
    p = Position(f"4ke*vr*4/{PAWNS_10}/4VR*5 w u2:AGAMARBACECHDAFAGEHEJUKE*MAQURESPTO - 3", "optima")
    assert legal(p) == [f"KE*@{f}1" for f in "abcdfghij"]
    p.push("KE*@a1")
    assert p.turn == WHITE and len(p.placeable()) == 16 and len(p.legal_moves) == 16 * 8
    assert "KE*" not in p.placeable()


def test_O5_R4_eq_9x9_index_6():
    p = Position(f"3quvr*3ch/{PAWNS_9}/CH2QUVR*4 w eq:FAREfare - 6", "optima")
    assert legal(p) == ["FA@b1", "FA@c1", "FA@f1", "FA@g1", "FA@h1", "FA@i1",
                        "RE@b1", "RE@c1", "RE@f1", "RE@g1", "RE@h1", "RE@i1"]


# ------------------------------------------------------------------ O5 schedule
def test_O5_u1_u2_schedule_exactly():
    """O5: W, BB, WW, ..., W on 10x10; W, BB, WW, BB, WW, B on 9x9; eq alternates."""
    def text(kind, n):
        return "".join("W" if c == WHITE else "B" for c in schedule(kind, n))
    assert text("u1", 10) == text("u2", 10) == "W" + "BBWW" * 4 + "BBW"
    assert text("u1", 9) == "WBBWWBBWWB"
    assert text("eq", 10) == "WB" * 10 and text("eq", 9) == "WB" * 5
    assert [side_at("u1", i) for i in range(4)] == [WHITE, BLACK, BLACK, WHITE]


@pytest.mark.parametrize("variant, forces", [("optima", "eq"), ("optima", "u1"), ("optima", "u2"),
                                             ("optima-9x9", "eq"), ("optima-9x9", "u1")])
def test_O5_a_whole_placement_phase_follows_the_schedule(variant, forces):
    """O5: the side of each placement, its own first rank, royals first, then White moves."""
    rng = random.Random(f"{variant}{forces}")
    p = Position(start_fen(variant, forces), variant)
    n = p.geometry.files
    order = schedule(forces, n)
    royals_total = sum(1 for t in p.hand(WHITE) + (p.hand(BLACK) if forces == "eq" else ()) if t.endswith("*"))
    for i, side in enumerate(order):
        assert p.phase == "placement" and p.turn == side and p.ply == i
        moves = p.legal_moves
        assert moves and all(m.kind == "placement" for m in moves)
        home = 1 if side == WHITE else n
        assert all(p.geometry.rank_of[m.to_square] == home and p.board[m.to_square] == 0 for m in moves)
        if forces != "eq" and i < royals_total:
            assert all(m.placed.endswith("*") for m in moves), i
        move = rng.choice(moves)
        p.push(move)
        unit = p.piece_at(move.to_square)
        assert unit.color == side and unit.token.upper() == move.placed
    assert p.phase == "movement" and p.turn == WHITE and p.reserve == () and p.placeable() == ()
    assert p.fen().split()[2] == "-" and p.ply == len(order)
    while p.move_stack:
        p.pop()
    assert p.fen() == start_fen(variant, forces)


def test_O5_eq_each_side_places_from_its_own_hand():
    p = Position("start", "optima-9x9")
    assert p.hand(WHITE) == p.hand(BLACK) == ("CH", "FA", "QU", "RE", "VR*") == p.reserve
    p.push("QU@e1")
    assert p.hand(WHITE) == ("CH", "FA", "RE", "VR*") and p.reserve == p.hand(BLACK) == ("CH", "FA", "QU", "RE", "VR*")
    p.push("QU@e9")
    assert p.piece_at("e9").token == "qu" and p.hand(BLACK) == ("CH", "FA", "RE", "VR*")
    with pytest.raises(MoveError):
        p.push("QU@d1")                 # none left in White's hand
    with pytest.raises(MoveError):
        p.push("CH@e1")                 # occupied
    with pytest.raises(MoveError):
        p.push("CH@d2")                 # not the first rank


def test_O5_placement_captures_nothing_and_nothing_is_immobilized():
    p = Position(f"3ch6/{PAWNS_10}/3CH6 w eq:ARCEFAJUKEMAQUREVR*arcefajukemaqurevr* - 2", "optima")
    assert p.immobilized() == [] and not p.is_check() and p.outcome() is None
    sig = p.signature(p.parse_move("CE@e1"))
    assert (sig.vacated, sig.replaced, sig.filled, sig.choice) == (frozenset(), frozenset(),
                                                                    frozenset({p.geometry.index["e1"]}), True)


def test_O5_bad_placements_are_refused():
    p = Position("start", "optima")
    for text in ("VR@e1", "WI@e1", "PN@e1", "vr*@e1", "VR*@e2", "VR*@e10", "e2-e4"):
        with pytest.raises(MoveError) as info:
            p.push(text)
        assert "\n" not in str(info.value)
    assert p.ply == 0


# ------------------------------------------------------------------ O4 forces
def test_O4_equal_forces_default_sets():
    assert E10 == ("AR", "CE", "CH", "FA", "JU", "KE", "MA", "QU", "RE", "VR*")
    assert E9 == ("CH", "FA", "QU", "RE", "VR*")
    p = Position(start_fen("optima", "eq"), "optima")
    assert p.forces == "eq" and p.hand(WHITE) == p.hand(BLACK) == E10 and p.royals == {WHITE: 1, BLACK: 1}


@pytest.mark.parametrize("variant, forces, size, royals", [
    ("optima", "u1", 20, 2), ("optima", "u2", 20, 4), ("optima-9x9", "u1", 10, 2)])
def test_O4_unequal_pools_size_and_royals(variant, forces, size, royals):
    for seed in (None, 1, 2, 3):
        p = Position(start_fen(variant, forces, seed=seed), variant)
        pool = p.reserve
        assert p.forces == forces and len(pool) == size and sum(t.endswith("*") for t in pool) == royals
        assert "WI" not in {t.rstrip("*") for t in pool}
        assert p.royals == {WHITE: royals // 2, BLACK: royals // 2}


@pytest.mark.parametrize("variant, n, size", [("optima", 10, 10), ("optima-9x9", 9, 5)])
def test_O4_random_forces_distinct_types_rotated_and_seedable(variant, n, size):
    for seed in range(8):
        royals = 1 + seed % 2 if n == 10 else 1
        fen = start_fen(variant, "random", seed=seed, royals=royals)
        assert fen == start_fen(variant, "random", seed=seed, royals=royals)
        p = Position(fen, variant, forces="random")
        assert p.phase == "movement" and p.forces == "random" and fen.endswith(" w - - 0")
        white = {x: p.piece_at(p.geometry.at(x, 1)) for x in range(n)}
        placed = {x: u for x, u in white.items() if u is not None}
        assert len(placed) == size
        tokens = [u.token.rstrip("*") for u in placed.values()]
        assert len(set(tokens)) == size and set(tokens) <= set(PIECE_TOKENS)
        assert sum(u.royal for u in placed.values()) == royals == p.royals[WHITE]
        for x in range(n):
            black = p.piece_at(p.geometry.at(n - 1 - x, n))
            if x in placed:
                assert black.color == BLACK and black.token == placed[x].token.lower()
            else:
                assert black is None
    assert len({start_fen(variant, "random", seed=s) for s in range(8)}) == 8


def test_O4_sets_and_pools_are_parameters():
    with pytest.raises(ValueError, match="never placed"):
        start_fen("optima-9x9", "eq", pool=("AM", "WI", "QU", "RE", "VR*"))
    fen = start_fen("optima-9x9", "eq", pool=("QU", "QU", "AM", "RE", "VR*"))
    assert " eq:AMQUQUREVR*amququrevr* " in fen
    with pytest.raises(ValueError, match="royal"):
        start_fen("optima-9x9", "eq", pool=("QU", "QU", "AM", "RE*", "VR*"))
    with pytest.raises(ValueError, match="is not 20"):
        start_fen("optima", "u1", pool=("QU*", "VR*"))
    assert BY_TOKEN["WI"].kind == "wizard"


def test_O4_O12_13_the_wizard_is_never_placed():
    """O4: the Wizard is never among the pieces; O12.13: it arises only by promotion."""
    with pytest.raises(ValueError, match="never placed"):
        start_fen("optima", "u1", pool=["WI"] * 18 + ["VR*", "VR*"])
    with pytest.raises(Exception, match="never placed"):
        Position(f"10/{PAWNS_10}/10 w eq:WIWI - 0", "optima")
    assert all(t != "WI" for t in PIECE_TOKENS)
