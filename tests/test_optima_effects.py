"""Optima Section B: proximity, rifle, stop rule (O9.5-O9.7), immobilization (O10),
conversion (O11) and the units of O12.8-O12.17.

Reference positions of optima.md (R8 … R31) are checked exactly; hand-made
positions cover the units the R-positions do not; a naive second
implementation written from the rules text (bottom of this file, no call into
engine/optima/effects.py) is compared with the engine on random positions.
"""
from __future__ import annotations

import random

import pytest

from maxima_board.rules import Position
from maxima_board.rules.optima.tables import SWAP, Options, Tables
from maxima_board.rules.optima.text import move_text, parse_board
from maxima_board.rules.optima.units import ROYAL, TYPE_MASK
from maxima_board.rules.variants.optima import OPTIMA, OPTIMA_9X9
from maxima_board.rules.variants.optima_units import BY_TOKEN, SECTION_B, UNITS


def setup(board: str, options: Options = Options()):
    n, b = parse_board(board, BY_TOKEN)
    return Tables(OPTIMA if n == 10 else OPTIMA_9X9, options), b


def moves_of(board: str, square: str, options: Options = Options(), colour: int = 1) -> list[str]:
    """Every legal move (O15 text, byte order) of the unit on ``square``."""
    T, b = setup(board, options)
    s = T.geometry.index[square]
    return sorted(move_text(m, T) for m in T.board_moves(b, colour) if m[0] == s)


def frozen_names(board: str, colour: int, options: Options = Options()) -> list[str]:
    T, b = setup(board, options)
    return sorted(T.geometry.names[q] for q in T.frozen(b, colour))


def listed(text: str) -> list[str]:
    """A move list as optima.md writes it: moves separated by ', ' (a move's own
    square lists use ',' without a space)."""
    return sorted(text.split(", "))


# --------------------------------------------------------------------------- reference positions

def test_O9_6_rifle_vs_armored_guard_R8():
    board = "9vr*/10/10/4gd1pn3/10/1qu2AR5/4gd5/10/10/9VR*"
    expected = listed("e5-b2, e5-b5xb5, e5-b8, e5-c3, e5-c5, e5-c7, e5-d4, e5-d5, e5-d6, e5-e4xe4, "
                      "e5-e5xb5, e5-e5xg7, e5-e6, e5-e7xe7, e5-f4, e5-f5, e5-f6, e5-g3, e5-g5, e5-g7xg7, "
                      "e5-h2, e5-h5")
    assert moves_of(board, "e5") == expected
    assert len(expected) == 22


def test_O9_6_O14_rifle_with_gna_R8():
    board = "9vr*/10/10/4gd1pn3/10/1qu2AR5/4gd5/10/10/9VR*"
    expected = listed("e5-b2, e5-b5xb5, e5-b8, e5-c3, e5-c5, e5-c7, e5-d4, e5-d5, e5-d6, e5-e4xe4, "
                      "e5-e5xb5, e5-e5xg7, e5-e6, e5-e7xe7, e5-f4, e5-f5, e5-f6, e5-g3, e5-g5, e5-g7xg7, "
                      "e5-h2, e5-h5, e5-e5xe4, e5-e5xe7")
    assert moves_of(board, "e5", Options(gna=True)) == expected
    assert len(expected) == 24


R9 = "9vr*/10/10/2maarpn5/6gd3/10/3CG2pn3/5pn4/4PN5/VR*9"


def test_O9_5_proximity_shielded_pawns_shp_R9():
    assert moves_of(R9, "d4", Options(shp=True)) == listed(
        "d4-b3, d4-b5, d4-c2, d4-c6xd7, d4-e6xd7, d4-f5xg6")


def test_O9_5_proximity_without_shp_R9():
    moves = moves_of(R9, "d4")
    assert moves == listed("d4-b3, d4-b5, d4-c2, d4-c6xd7, d4-e6xd7,e7, d4-f5xg4,g6")
    assert not any("c7" in m for m in moves)          # the shielded Marshal is never taken
    assert not any(m.startswith(("d4-e2", "d4-f3")) for m in moves)


def test_O10_immobilized_immobilizers_still_immobilize_R11():
    board = "9vr*/10/10/10/3VR*6/4me5/4CH2sp2/10/10/10"
    T, b = setup(board)
    assert frozen_names(board, 1) == ["d6", "e4"]          # the Medusa freezes d6 and the Chimaera
    assert frozen_names(board, -1) == ["e5", "h4"]         # the Chimaera freezes the Medusa and h4
    assert T.board_moves(b, 1) == []                       # O13: White has no legal move
    black = {T.geometry.names[m[0]] for m in T.board_moves(b, -1)}
    assert black == {"j10"}                                # Spearman h4 and Medusa e5: none


def test_O10_archer_next_to_medusa_R10():
    board = "9vr*/10/10/10/10/10/3pn6/10/ARme8/JU1gd6VR*"
    assert "a2" in frozen_names(board, 1)
    assert "a1" not in frozen_names(board, 1)              # the Juggernaut is resolute
    assert moves_of(board, "a2") == []


def test_O12_9_ranger_R14():
    assert moves_of("9vr*/10/10/10/5ar4/3gd6/2PNRA6/10/10/9VR*", "d4") == listed(
        "d4-a1, d4-b1, d4-b2, d4-c2, d4-c3, d4-d3, d4-d5xd5, d4-e2, d4-e3, d4-e4, d4-e5, d4-f1, d4-f2, "
        "d4-f3, d4-f5, d4-f6xf6, d4-g1, d4-g2, d4-h1")


def test_O12_8_chamberlain_R15():
    assert moves_of("9vr*/10/10/10/10/10/10/1PN8/1CMpn7/9VR*", "b2") == listed(
        "b2-a1, b2-a2, b2-a2xc2, b2-a3, b2-a4, b2-b1, b2-c1, b2-c1xc2, b2-c2xc2, b2-c3xc2, b2-c4xc2, "
        "b2-d1, b2-d2xc2, b2-e2xc2")


def test_O12_14_agent_R16():
    assert moves_of("10/10/9gd/8pn1/10/6ar3/10/4qu5/1vr*1PN6/2AG6VR*", "c1") == listed(
        "c1-a3xb2, c1-b1, c1-c2, c1-d1, c1-h6^g5")


def test_O12_15_crusader_R17():
    assert moves_of("10/10/10/10/4arquvr*3/3PNCR5/10/10/10/9VR*", "e5") == listed(
        "e5-c4, e5-c6, e5-d3, e5-d4, e5-d6, e5-d7, e5-e4, e5-e6^e6, e5-f3, e5-f4, e5-f5, e5-f7, e5-g4, "
        "e5-g6xg6")


def test_O12_16_keep_R18():
    assert moves_of("10/10/10/10/10/3ar6/10/4pn5/qu2KE2vr*3/3gd5VR*", "d2") == listed(
        "d2-b2, d2-c1, d2-c2, d2-c3, d2-d1^d1, d2-d3, d2-d4^d5, d2-e1, d2-e2, d2-f2xg2")


def test_O12_16_diplomat_R19():
    assert moves_of("10/10/10/10/10/4qu*5/ar9/10/10/DI2vr*5VR*", "a1") == listed(
        "a1-a2, a1-a3^a4, a1-b1, a1-b2, a1-c1xd1, a1-c3, a1-d4")


def test_O12_17_envoy_R20():
    assert moves_of("10/10/10/10/3arvr*qu4/10/4EN5/6pn3/3gd6/9VR*", "e4") == listed(
        "e4-c2, e4-c4, e4-c6, e4-d3, e4-d4, e4-d5, e4-e2, e4-e3^d2, e4-e5xe6^d6, e4-f3, e4-f4^g3, "
        "e4-f5, e4-g2, e4-g4, e4-g6")


def test_O9_7_citadel_stop_rule_R22():
    assert moves_of("9vr*/10/10/10/10/4ar5/10/10/pn5ma3/3CT5VR*", "d1") == listed(
        "d1-b1xa2, d1-c1, d1-d2, d1-d3, d1-d4xe5, d1-e1, d1-f1")


def test_O12_8_viceroy_capture_and_return_R23():
    assert moves_of("9vr*/10/10/10/10/10/10/2gd7/PNpn8/VRGD7VR*", "a1") == listed(
        "a1-a1xb2, a1-a3xb2, a1-b2xb2, a1-b3xb2, a1-c1xb2, a1-c2xb2, a1-c3xb2,c3")


def test_O12_9_scout_R28():
    assert moves_of("9vr*/10/10/10/10/10/10/4pn5/7PN2/4SC4VR*", "e1") == listed(
        "e1-a1, e1-b2, e1-c1, e1-d1, e1-d2, e1-e2, e1-e3xe3, e1-f1, e1-f2, e1-g1")


def test_O12_13_wizard_R29():
    assert moves_of("vr*9/10/10/10/10/10/10/pngd8/2ma7/WI3ar4VR*", "a1") == listed(
        "a1-a2xa3,b3, a1-a3xa3, a1-b1, a1-b2xa3,b3, a1-c1, a1-c3, a1-d1, a1-d4, a1-e1xe1, a1-e5, a1-f6, "
        "a1-g7, a1-h8, a1-i9, a1-j10")


def test_O12_11_swordsman_R30():
    assert moves_of("9vr*/10/10/10/5ar4/3pn6/3SW6/10/1gd8/9VR*", "d4") == listed(
        "d4-a7, d4-b2xb2, d4-b6, d4-c3, d4-c4, d4-c5, d4-d3, d4-d4xf6, d4-d5xd5, d4-e3, d4-e4, d4-e5, "
        "d4-f2, d4-f6xf6, d4-g1")


def test_O13_no_check_viceroy_R31():
    assert moves_of("1sp7vr*/10/10/10/10/10/10/10/PN9/VR*9", "a1") == listed(
        "a1-a3, a1-b1, a1-b2, a1-b3, a1-c1, a1-c2, a1-c3")


# --------------------------------------------------------------------------- through the public Position

REFERENCE = {  # name: (FEN, square, moves as optima.md lists them)
    "R8": ("9vr*/10/10/4gd1pn3/10/1qu2AR5/4gd5/10/10/9VR* w - gna 0", "e5",
           "e5-b2, e5-b5xb5, e5-b8, e5-c3, e5-c5, e5-c7, e5-d4, e5-d5, e5-d6, e5-e4xe4, e5-e5xb5, e5-e5xg7, "
           "e5-e6, e5-e7xe7, e5-f4, e5-f5, e5-f6, e5-g3, e5-g5, e5-g7xg7, e5-h2, e5-h5, e5-e5xe4, e5-e5xe7"),
    "R9": (R9 + " w - shp 0", "d4", "d4-b3, d4-b5, d4-c2, d4-c6xd7, d4-e6xd7, d4-f5xg6"),
    "R16": ("10/10/9gd/8pn1/10/6ar3/10/4qu5/1vr*1PN6/2AG6VR* w - - 0", "c1",
            "c1-a3xb2, c1-b1, c1-c2, c1-d1, c1-h6^g5"),
    "R17": ("10/10/10/10/4arquvr*3/3PNCR5/10/10/10/9VR* w - - 0", "e5",
            "e5-c4, e5-c6, e5-d3, e5-d4, e5-d6, e5-d7, e5-e4, e5-e6^e6, e5-f3, e5-f4, e5-f5, e5-f7, e5-g4, "
            "e5-g6xg6"),
    "R20": ("10/10/10/10/3arvr*qu4/10/4EN5/6pn3/3gd6/9VR* w - - 0", "e4",
            "e4-c2, e4-c4, e4-c6, e4-d3, e4-d4, e4-d5, e4-e2, e4-e3^d2, e4-e5xe6^d6, e4-f3, e4-f4^g3, e4-f5, "
            "e4-g2, e4-g4, e4-g6"),
    "R23": ("9vr*/10/10/10/10/10/10/2gd7/PNpn8/VRGD7VR* w - - 0", "a1",
            "a1-a1xb2, a1-a3xb2, a1-b2xb2, a1-b3xb2, a1-c1xb2, a1-c2xb2, a1-c3xb2,c3"),
    "R31": ("1sp7vr*/10/10/10/10/10/10/10/PN9/VR*9 w - - 0", "a1",
            "a1-a3, a1-b1, a1-b2, a1-b3, a1-c1, a1-c2, a1-c3"),
}


@pytest.mark.parametrize("name", sorted(REFERENCE))
def test_O6_O15_reference_positions_through_Position(name):
    fen, square, expected = REFERENCE[name]
    p = Position(fen, "optima")
    moves = [str(m) for m in p.legal_moves if p.geometry.names[m.from_square] == square]
    assert moves == sorted(expected.split(", "))


def test_O10_O13_no_moves_R11():
    p = Position("9vr*/10/10/10/3VR*6/4me5/4CH2sp2/10/10/10 w - - 0", "optima")
    assert p.legal_moves == []
    outcome = p.outcome()
    assert (outcome.result, outcome.reason) == ("0-1", "no moves")
    assert [p.geometry.names[q] for q in p.immobilized()] == ["e4", "h4", "e5", "d6"]
    q = Position("9vr*/10/10/10/3VR*6/4me5/4CH2sp2/10/10/10 b - - 0", "optima")
    assert {q.geometry.names[m.from_square] for m in q.legal_moves} == {"j10"}


def test_O11_O13_conversion_that_takes_a_royal_ends_the_game_R20():
    p = Position("10/10/10/10/3arvr*qu4/10/4EN5/6pn3/3gd6/9VR* w - - 0", "optima")
    p.push("e4-e5xe6^d6")
    assert p.piece_at("d6").token == "AR" and p.piece_at("f6").token == "qu"
    assert p.outcome().reason == "royal captured"


def test_O9_6_rifle_shot_leaves_the_archer_on_its_square_R8():
    p = Position("9vr*/10/10/4gd1pn3/10/1qu2AR5/4gd5/10/10/9VR* w - - 0", "optima")
    p.push("e5-e5xg7")
    assert p.piece_at("e5").token == "AR" and p.piece_at("g7") is None
    p.pop()
    assert p.piece_at("g7").token == "pn"


# --------------------------------------------------------------------------- hand-made positions

def test_O9_7_O6_stop_rule_ignores_enemies_next_to_the_start():
    """c1 touches the Citadel's start d1: that does not matter (O9.7); d2 touches c1
    and is the last stop northwards, e1 does not, so the whole first rank is open."""
    assert moves_of("VR*8vr*/10/10/10/10/10/10/10/10/2pnCT6", "d1") == listed(
        "d1-d2xc1, d1-e1, d1-f1, d1-g1, d1-h1, d1-i1, d1-j1")


def test_O9_5_replacement_does_not_trigger_proximity():
    moves = moves_of("9vr*/10/10/10/10/10/10/2pnpnpn5/3FR6/9VR*", "d2")
    assert [m for m in moves if m.startswith("d2-d3")] == ["d2-d3xd3"]
    assert "d2-c2xc3" in moves and "d2-e2xe3" in moves


def test_O6_two_ways_to_the_same_result_are_one_move():
    """R15: b2-c2xc2 is both a one-part move and part 1 to a2 then part 2 over b2."""
    T, b = setup("9vr*/10/10/10/10/10/10/1PN8/1CMpn7/9VR*")
    s = T.geometry.index["b2"]
    emitted = []
    for prim in T.type_of[b[s]].moves:
        prim.unit_moves(T, b, 1, s, lambda t, caps=(), convs=(), flags=0: emitted.append((t, tuple(sorted(caps)))))
    assert len(emitted) > len(set(emitted))
    moves = [m for m in T.board_moves(b, 1) if m[0] == s]
    assert len(moves) == len(set(moves)) == len(set(emitted)) == 14


def test_O12_8_minister_two_diagonal_parts_and_wazir():
    """Part 2 passes over the start c3 (d4 -> b2 is blocked by the friendly b2 only)."""
    assert moves_of("9vr*/10/10/10/10/10/3pn6/2MI7/1PN8/9VR*", "c3") == listed(
        "c3-a3, c3-a5, c3-b3, c3-b4, c3-b6, c3-b6xd4, c3-c1, c3-c2, c3-c4, c3-c5, c3-c5xd4, c3-c7, "
        "c3-d2, c3-d3, c3-d4xd4, c3-d6, c3-e1, c3-e3, c3-e3xd4, c3-e5xd4, c3-f2, c3-f2xd4, c3-f4, "
        "c3-f6xd4, c3-g3")


def test_O12_8_two_part_never_stops_on_start():
    moves = moves_of("9vr*/10/10/10/10/10/3pn6/2MI7/1PN8/9VR*", "c3")
    assert not any(m.startswith("c3-c3") for m in moves)


def test_O12_10_O9_5_charger_takes_a_royal_by_proximity():
    """Knight moves to empty squares only (d4 and e3 hold enemies); proximity 8."""
    assert moves_of("9vr*/10/10/10/10/2ag*7/3pn6/4ma5/2CG2pn4/VR*9", "c2") == listed(
        "c2-a3, c2-b4xc5, c2-e1xf2")


def test_O12_10_dragoon():
    assert moves_of("9vr*/10/10/10/4pn1gd3/4DR5/2ma2PN4/10/10/VR*9", "e5") == listed(
        "e5-c5, e5-d5xe6, e5-e3, e5-e4, e5-e7xe6, e5-f5xe6,g6, e5-g5xg6")


def test_O12_10_O9_7_regent_stop_rule_range_3():
    assert moves_of("9vr*/10/10/2ma7/10/10/3RE2pn3/10/3PN6/VR*9", "d4") == listed(
        "d4-a4, d4-b2, d4-b4, d4-b6, d4-c3, d4-c4, d4-c5, d4-d3, d4-d5, d4-d6, d4-e3, d4-e4, d4-e5, "
        "d4-f2, d4-f4xg4, d4-f6, d4-g1, d4-g7")


def test_O12_10_O9_7_inquisitor_wazir_step_has_no_proximity():
    assert moves_of("9vr*/10/10/10/10/5pn4/2ag*7/2IN7/10/VR*9", "c3") == listed(
        "c3-b2, c3-b3, c3-b4xc4, c3-c2, c3-d2, c3-d3, c3-d4xc4, c3-e1")


def test_O12_10_frigate_orthogonal_proximity():
    assert moves_of("9vr*/10/10/3pn6/10/5gd4/3FR6/1ma8/10/VR*2pn6", "d4") == listed(
        "d4-a4, d4-b4, d4-c4, d4-d1xd1, d4-d2xd1, d4-d3, d4-d5, d4-d6xd7, d4-d7xd7, d4-e4, d4-f4xf5, "
        "d4-g4, d4-h4, d4-i4, d4-j4")


def test_O12_10_sloop_diagonal_proximity_not_on_wazir():
    assert moves_of("9vr*/10/10/10/3gd1pn4/10/3SLpn5/10/10/VR*9", "d4") == listed(
        "d4-a7, d4-b2, d4-b6, d4-c3, d4-c4, d4-c5xd6, d4-d3, d4-d5, d4-e3, d4-e4xe4, d4-e5xd6,f6, "
        "d4-f2, d4-f6xf6, d4-g1")


def test_O12_10_chaplain_wazir_without_proximity():
    assert moves_of("9vr*/10/10/10/10/3pnpn5/3CP6/10/10/9VR*", "d4") == listed(
        "d4-b2, d4-b6, d4-c3, d4-c4, d4-c5xd5, d4-d3, d4-e3, d4-e4, d4-f2, d4-f6xe5")


LANCER = "9vr*/10/10/10/10/10/10/1magdpn6/1LA8/9VR*"


def test_O12_11_lancer_rifle_on_king_and_knight_squares():
    assert moves_of(LANCER, "b2") == listed(
        "b2-a1, b2-a2, b2-a3, b2-a4, b2-b1, b2-b2xb3, b2-b2xd3, b2-b3xb3, b2-c1, b2-c2, b2-c3xc3, "
        "b2-c4, b2-d1, b2-d3xd3")


def test_O12_11_O14_lancer_shoots_guards_under_gna():
    assert "b2-b2xc3" in moves_of(LANCER, "b2", Options(gna=True))
    assert "b2-b2xc3" not in moves_of(LANCER, "b2")


def test_O14_arm_option_makes_a_piece_armored_against_rifles():
    assert "b2-b2xb3" not in moves_of(LANCER, "b2", Options(arm=("MA",)))


def test_O12_11_spearman_rook_lines_only():
    assert moves_of("9vr*/10/10/3gd6/10/4pn5/3SP1pn4/3PN6/10/9VR*", "d4") == listed(
        "d4-a4, d4-b4, d4-c4, d4-d4xf4, d4-d5, d4-d6, d4-d7xd7, d4-e4, d4-f4xf4")


def test_O12_14_spy_orthogonal_leaping_conversion():
    """Over a friendly unit (b4), over a loyal Queen and an empty square (g4), a
    royal captured (d8); the loyal Queen e4 itself cannot be leapt as the victim."""
    assert moves_of("9vr*/10/3ag*6/10/3pn6/10/1pnPNSYqu1ma3/10/10/9VR*", "d4") == listed(
        "d4-a4^b4, d4-d1, d4-d2, d4-d3, d4-d5, d4-d7^d6, d4-d9xd8, d4-h4^g4")


def test_O12_14_O1_spy_cannot_leap_off_the_9x9_board():
    """A unit on the last square of a line cannot be leapt (s+(k+1)d must exist)."""
    edge = moves_of("pn7vr*/9/9/9/9/9/9/9/SY7VR*", "a1")
    assert len(edge) == 14 and not any("^" in m or "x" in m for m in edge)
    inner = moves_of("8vr*/pn8/9/9/9/9/9/9/SY7VR*", "a1")
    assert "a1-a9^a8" in inner and len(inner) == 14


AMBASSADOR = "9vr*/10/10/10/3pn1qu4/3ma6/3AM1PN4/10/1ag*8/9VR*"


def test_O12_15_ambassador_swap_conversion():
    assert moves_of(AMBASSADOR, "d4") == listed(
        "d4-a1, d4-a4, d4-a7, d4-b2xb2, d4-b4, d4-b6, d4-d1, d4-d2, d4-d6^d6, d4-d7, d4-f2, d4-g1, "
        "d4-g4, d4-g7")


def test_O11_swap_puts_the_converted_unit_on_the_start_square():
    T, b = setup(AMBASSADOR)
    idx = T.geometry.index
    swap = next(m for m in T.board_moves(b, 1) if m[0] == idx["d4"] and m[1] == idx["d6"])
    assert swap[4] & SWAP
    before = list(b)
    undo = T.make(b, swap)
    assert b[idx["d6"]] == BY_TOKEN["AM"].code
    assert b[idx["d4"]] == BY_TOKEN["PN"].code             # the Black pawn, now White, on s
    royal = next(m for m in T.board_moves(before, 1) if m[0] == idx["d4"] and m[1] == idx["b2"])
    assert royal[2] == (idx["b2"],) and not royal[4] & SWAP  # O11.2: royal captured, s stays empty
    T.unmake(b, swap, undo)
    assert b == before


def test_O12_16_vicar_diagonal_approach_and_swap():
    """e3 holds a loyal Queen: no swap; the wazir steps never approach (d5 next to d6)."""
    assert moves_of("9vr*/10/10/ag*9/3pn1pn4/10/3VIma5/2pn1qu5/10/9VR*", "d4") == listed(
        "d4-b6xa7, d4-c3^c3, d4-c4, d4-c5, d4-d3, d4-d5, d4-e5^f6")


def test_O11_loyal_untouched_by_envoy_and_approach():
    """R20's loyal Queen f6 stays Black after the Envoy's e5 move; R19's loyal royal
    Queen is approached without effect."""
    T, b = setup("10/10/10/10/3arvr*qu4/10/4EN5/6pn3/3gd6/9VR*")
    idx = T.geometry.index
    m = next(m for m in T.board_moves(b, 1) if m[0] == idx["e4"] and m[1] == idx["e5"])
    assert idx["f6"] not in m[2] + m[3]
    T.make(b, m)
    assert b[idx["f6"]] == -BY_TOKEN["QU"].code and b[idx["d6"]] == BY_TOKEN["AR"].code and b[idx["e6"]] == 0


def test_O12_13_wizard_immobilizes_adjacent_enemies_only():
    board = "9vr*/10/10/10/10/3pnPN5/3WIpn5/3PN6/10/9VR*"
    assert frozen_names(board, -1) == ["d5", "e4"]
    assert frozen_names(board, 1) == []


def test_O10_basilisk_knight_squares_resolute_immune():
    # ba e5; White PN d3 and QU g6 on knight squares (frozen), CE f7 resolute, PN e6 adjacent only
    board = "9vr*/10/10/5CE4/4PN1QU3/4ba5/2pn7/3PN6/10/9VR*"
    assert frozen_names(board, 1) == ["d3", "g6"]
    assert frozen_names(board, -1) == []                   # c4 is Black's own


def test_O10_gorgona_first_unit_hides_the_rest():
    # go e5: e7 PN first on N (e8 behind it free); h8 QU first on NE; c5 pn (Black) hides a5;
    # e3 FA resolute hides e2; c3 PN first on SW
    board = "9vr*/10/4PN2QU2/4PN5/10/PN1pn1go5/10/2PN1FA5/4PN5/9VR*"
    assert frozen_names(board, 1) == ["c3", "e7", "h8"]


def test_O10_cyclops_diagonals_only_and_chimaera_orthogonals_only():
    cyclops = "9vr*/10/10/4PN1PN3/10/4cy5/10/10/10/9VR*"
    assert frozen_names(cyclops, 1) == ["g7"]
    chimaera = "9vr*/10/10/4PN1PN3/10/4ch5/10/10/10/9VR*"
    assert frozen_names(chimaera, 1) == ["e7"]


def test_O10_resolute_units_next_to_a_medusa():
    # me e5 with all six resolute types around it, and a Queen and a Guard
    board = "9vr*/10/10/10/3CEFAHE4/3JUmeNO4/3SCQUGD4/10/10/9VR*"
    assert frozen_names(board, 1) == ["e4", "f4"]
    T, b = setup(board)
    movers = {T.geometry.names[m[0]] for m in T.board_moves(b, 1)}
    assert {"d6", "e6", "f6", "d5", "f5", "d4"} <= movers
    assert not movers & {"e4", "f4"}


def test_O10_immobilization_is_for_the_side_to_move_only():
    """A Black Chimaera frozen by a White Medusa still freezes White's Queen."""
    board = "9vr*/10/10/10/10/4ME5/4ch2QU2/10/10/9VR*"
    assert frozen_names(board, 1) == ["e5", "h4"]
    assert frozen_names(board, -1) == ["e4"]


# --------------------------------------------------------------------------- naive second implementation
# Written from optima.md directly, on (x, y) coordinates: no call into effects.py or Tables' generator.

SHIELDED = {"BS", "GE", "MA", "MY"}
RESOLUTE = {"CE", "FA", "HE", "JU", "NO", "SC"}
LOYAL = {"CM", "DA", "MI", "PR", "QU"}
ORTH_V = [(0, 1), (1, 0), (0, -1), (-1, 0)]
DIAG_V = [(1, 1), (1, -1), (-1, -1), (-1, 1)]
ALL_V = ORTH_V + DIAG_V
KNIGHT_V = [(a, b) for a in (-2, -1, 1, 2) for b in (-2, -1, 1, 2) if abs(a) != abs(b)]
TOKEN_OF = {u.code: u.token for u in UNITS}


class Naive:
    def __init__(self, n, b, opts: Options):
        self.n, self.opts = n, opts
        self.units = {}                       # (x, y) -> (colour, token, royal)
        for i, v in enumerate(b):
            if v:
                self.units[(i % n + 1, i // n + 1)] = (1 if v > 0 else -1, TOKEN_OF[abs(v) & TYPE_MASK],
                                                       bool(abs(v) & ROYAL))

    def on(self, p):
        return 1 <= p[0] <= self.n and 1 <= p[1] <= self.n

    def index(self, p):
        return (p[1] - 1) * self.n + p[0] - 1

    def shielded(self, tok):
        return tok in SHIELDED or (tok == "PN" and self.opts.shp)

    def armored(self, tok):
        return (tok == "GD" and not self.opts.gna) or tok in self.opts.arm

    # O10
    def frozen(self, c):
        out = set()
        for q, (col, tok, _) in self.units.items():
            if col == c:
                continue
            squares = []
            if tok == "BA":
                squares = [(q[0] + a, q[1] + b) for a, b in KNIGHT_V]
            elif tok in ("ME", "WI"):
                squares = [(q[0] + a, q[1] + b) for a, b in ALL_V]
            elif tok in ("CH", "CY", "GO"):
                vs = {"CH": ORTH_V, "CY": DIAG_V, "GO": ALL_V}[tok]
                for a, b in vs:
                    p = (q[0] + a, q[1] + b)
                    while self.on(p) and p not in self.units:
                        p = (p[0] + a, p[1] + b)
                    if self.on(p):
                        squares.append(p)
            for p in squares:
                u = self.units.get(p)
                if u and u[0] == c and u[1] not in RESOLUTE:
                    out.add(self.index(p))
        return out

    # O11 on one enemy unit at p: "loyal" / "captured" / "converted"
    def conversion(self, p, c):
        col, tok, royal = self.units[p]
        if tok in LOYAL:
            return "loyal"
        return "captured" if royal else "converted"

    def moves(self, s, c):
        """The moves of colour c's Section B unit on s, as raw tuples."""
        tok = self.units[s][1]
        mover = self.units.pop(s)             # O6: lifted off s
        out = set()
        try:
            self._moves(tok, s, c, out)
        finally:
            self.units[s] = mover
        return {(self.index(s), self.index(t), tuple(sorted(self.index(p) for p in caps)),
                 tuple(sorted(self.index(p) for p in convs)), flags) for t, caps, convs, flags in out}

    def enemy(self, p, c):
        return p in self.units and self.units[p][0] != c

    def line(self, s, v, limit=None):
        k = 1
        while limit is None or k <= limit:
            p = (s[0] + k * v[0], s[1] + k * v[1])
            if not self.on(p):
                return
            yield p
            k += 1

    def slide(self, s, vs, c, limit=None, capture=True):
        """(t, captured square or None)"""
        for v in vs:
            for p in self.line(s, v, limit):
                if p not in self.units:
                    yield p, None
                    continue
                if capture and self.enemy(p, c):
                    yield p, p
                break

    def leap(self, s, vs, c, capture=True):
        for a, b in vs:
            p = (s[0] + a, s[1] + b)
            if not self.on(p):
                continue
            if p not in self.units:
                yield p, None
            elif capture and self.enemy(p, c):
                yield p, p

    def proximity(self, t, c, vs):
        return frozenset(p for p in ((t[0] + a, t[1] + b) for a, b in vs)
                         if self.enemy(p, c) and not self.shielded(self.units[p][1]))

    def stop_slide(self, s, vs, c, limit=None):
        for v in vs:
            for p in self.line(s, v, limit):
                if p in self.units:
                    break
                yield p
                if any(self.enemy((p[0] + a, p[1] + b), c) for a, b in ALL_V):
                    break

    def _moves(self, tok, s, c, out):
        add = lambda t, caps=(), convs=(), flags=0: out.add((t, frozenset(caps), frozenset(convs), flags))
        plain = lambda gen: [add(t, [x] if x else []) for t, x in gen]
        if tok in ("CM", "MI", "VR"):
            part = {"CM": lambda p, cc: self.slide(p, ORTH_V, cc, 2), "MI": lambda p, cc: self.slide(p, DIAG_V, cc, 2),
                    "VR": lambda p, cc: self.leap(p, ALL_V, cc)}[tok]
            for m, x in list(part(s, c)):
                add(m, [x] if x else [])
                saved = self.units.pop(m, None)
                self.units[m] = (c, tok, False)
                for t, y in list(part(m, c)):
                    if t == s and not (tok == "VR" and x):
                        continue
                    add(t, [q for q in (x, y) if q])
                del self.units[m]
                if saved:
                    self.units[m] = saved
            if tok == "MI":
                plain(self.leap(s, ORTH_V, c))
        elif tok in ("RA", "SC"):
            pairs = ([(a, b) for a in ((1, 0), (-1, 0)) for b in ((0, 1), (0, -1))] if tok == "RA" else
                     [((1, 1), (-1, 1)), ((1, 1), (1, -1)), ((1, -1), (-1, -1)), ((-1, 1), (-1, -1))])
            for a, b in pairs:
                for seq in ((a, b), (b, a)):
                    p, i = s, 0
                    while True:
                        v = seq[i % 2]
                        p = (p[0] + v[0], p[1] + v[1])
                        if not self.on(p):
                            break
                        if p in self.units:
                            if self.enemy(p, c):
                                add(p, [p])
                            break
                        add(p)
                        i += 1
            if tok == "SC":
                plain(self.leap(s, ORTH_V, c))
        elif tok in ("CP", "CG", "DR"):
            vs = {"CP": DIAG_V + [(2 * a, 2 * b) for a, b in DIAG_V], "CG": KNIGHT_V,
                  "DR": ORTH_V + [(2 * a, 2 * b) for a, b in ORTH_V]}[tok]
            for t, _ in self.leap(s, vs, c, capture=False):
                add(t, self.proximity(t, c, ALL_V))
            if tok == "CP":
                plain(self.leap(s, ORTH_V, c, capture=False))
        elif tok in ("CT", "RE", "IN"):
            vs, limit = {"CT": (ORTH_V, None), "RE": (ALL_V, 3), "IN": (DIAG_V, None)}[tok]
            for t in self.stop_slide(s, vs, c, limit):
                add(t, self.proximity(t, c, ALL_V))
            if tok == "IN":
                plain(self.leap(s, ORTH_V, c, capture=False))
        elif tok in ("FR", "SL"):
            vs = ORTH_V if tok == "FR" else DIAG_V
            for t, x in self.slide(s, vs, c):
                add(t, [x] if x else self.proximity(t, c, vs))
            if tok == "SL":
                plain(self.leap(s, ORTH_V, c))
        elif tok in ("AR", "LA", "SP", "SW"):
            if tok == "AR":
                gen = list(self.slide(s, ALL_V, c, 3))
            elif tok == "LA":
                gen = list(self.leap(s, ALL_V + KNIGHT_V, c))
            elif tok == "SP":
                gen = list(self.slide(s, ORTH_V, c))
            else:
                gen = list(self.slide(s, DIAG_V, c))
                plain(self.leap(s, ORTH_V, c))
            plain(gen)
            for t, x in gen:
                if x and not self.armored(self.units[x][1]):
                    add(s, [x])                       # O9.6 rifle: t == s
        elif tok == "WI":
            for t, x in self.slide(s, ALL_V, c):
                one = max(abs(t[0] - s[0]), abs(t[1] - s[1])) == 1
                add(t, [x] if x else (self.proximity(t, c, ALL_V) if one else []))
        elif tok in ("AG", "SY"):
            vs = DIAG_V if tok == "AG" else ORTH_V
            plain(self.slide(s, vs, c, capture=False))
            if tok == "AG":
                plain(self.leap(s, ORTH_V, c, capture=False))
            for v in vs:
                for u in self.line(s, v):
                    t = (u[0] + v[0], u[1] + v[1])
                    if self.enemy(u, c) and self.on(t) and t not in self.units:
                        what = self.conversion(u, c)
                        if what == "captured":
                            add(t, [u])
                        elif what == "converted":
                            add(t, (), [u])
        elif tok in ("AM", "CR", "KE", "VI"):
            swaps = {"AM": [(k * a, k * b) for k in (2, 3) for a, b in ALL_V], "CR": ALL_V + KNIGHT_V,
                     "KE": ORTH_V, "VI": DIAG_V}[tok]
            for a, b in swaps:
                t = (s[0] + a, s[1] + b)
                if not self.on(t):
                    continue
                if t not in self.units:
                    if tok in ("AM", "CR"):
                        add(t)
                elif self.enemy(t, c):
                    what = self.conversion(t, c)
                    if what == "captured":
                        add(t, [t])
                    elif what == "converted":
                        add(t, (), [t], SWAP)
            if tok in ("KE", "VI"):
                steps = DIAG_V if tok == "KE" else ORTH_V  # the K steps that are not approach moves
                plain(self.leap(s, steps, c, capture=False))
                self.approach(s, ORTH_V if tok == "KE" else DIAG_V, c, None, add)
        elif tok == "DI":
            self.approach(s, ALL_V, c, 3, add)
        elif tok == "EN":
            for v in ALL_V:
                for t in self.line(s, v, 2):
                    if t in self.units:
                        break
                    caps, convs = [], []
                    if v in ORTH_V and t == (s[0] + v[0], s[1] + v[1]):
                        for a, b in ALL_V:
                            u = (t[0] + a, t[1] + b)
                            if self.enemy(u, c):
                                what = self.conversion(u, c)
                                (caps if what == "captured" else convs if what == "converted" else []).append(u)
                    add(t, caps, convs)

    def approach(self, s, vs, c, limit, add):
        for v in vs:
            for t in self.line(s, v, limit):
                if t in self.units:
                    break
                u = (t[0] + v[0], t[1] + v[1])
                caps, convs = [], []
                if self.enemy(u, c):
                    what = self.conversion(u, c)
                    if what == "captured":
                        caps = [u]
                    elif what == "converted":
                        convs = [u]
                add(t, caps, convs)


B_TOKENS = {u.token for u in SECTION_B}
IMMOBILIZERS = ["BA", "CH", "CY", "GO", "ME", "WI"]


def random_board(rng: random.Random, n: int) -> list[int]:
    b = [0] * (n * n)
    squares = rng.sample(range(n * n), rng.randint(8, 30))
    for i, q in enumerate(squares):
        if i < 4:
            u = BY_TOKEN[rng.choice(sorted(B_TOKENS))]
        elif i < 6:
            u = BY_TOKEN[rng.choice(IMMOBILIZERS)]
        else:
            u = rng.choice(UNITS)
        code = u.code | (ROYAL if u.kind == "piece" and rng.random() < 0.25 else 0)
        b[q] = code if rng.random() < 0.5 else -code
    return b


@pytest.mark.parametrize("seed", range(300))
def test_O9_O10_O11_O12_engine_matches_naive_rules_on_random_positions(seed):
    rng = random.Random(seed)
    n = rng.choice((10, 9))
    opts = Options(shp=rng.random() < 0.3, gna=rng.random() < 0.3, arm=("MA",) if rng.random() < 0.2 else ())
    T = Tables(OPTIMA if n == 10 else OPTIMA_9X9, opts)
    b = random_board(rng, n)
    naive = Naive(n, b, opts)
    for c in (1, -1):
        frozen = T.frozen(b, c)
        assert frozen == naive.frozen(c), (seed, c)
        engine = {m for m in T.board_moves(b, c) if T.type_of[abs(b[m[0]])].token in B_TOKENS}
        expected = set()
        for p, (col, tok, _) in list(naive.units.items()):
            if col == c and tok in B_TOKENS and naive.index(p) not in frozen:
                expected |= naive.moves(p, c)
        assert engine == expected, (seed, c, sorted(move_text(m, T) for m in engine ^ expected))
