"""Optima Section A moves (optima.md O3, O6, O7, O8, O9.1-O9.4, O12.1-O12.7, O12.12 moves).

Each test lists every move of one unit, by hand from the rules text (the
reference positions R5-R32 of optima.md verbatim, the rest hand-made), and
``test_O3_O12_against_naive_reading`` compares the whole generator with a second,
deliberately naive reading of O3/O7/O8/O12 written below on (x, y)
coordinates, on a few hundred random positions.
"""
from __future__ import annotations

import random

import pytest

from maxima_board.rules import Position
from maxima_board.rules.optima.tables import Options, Tables
from maxima_board.rules.optima.text import move_text, parse_board
from maxima_board.rules.variants.optima import OPTIMA, OPTIMA_9X9
from maxima_board.rules.variants.optima_units import BY_TOKEN, SECTION_A

FILES = "abcdefghij"


def board_field(pieces: dict[str, str], n: int = 10) -> str:
    """The FEN board field (O15) of ``pieces`` ({square: token}) on an n×n board."""
    for name in pieces:
        assert name[0] in FILES[:n] and 1 <= int(name[1:]) <= n, name
    rows = []
    for rank in range(n, 0, -1):
        row, run = "", 0
        for file in FILES[:n]:
            token = pieces.get(f"{file}{rank}")
            if token is None:
                run += 1
                continue
            row += (str(run) if run else "") + token
            run = 0
        rows.append(row + (str(run) if run else ""))
    return "/".join(rows)


def options_of(rules: str) -> Options:
    if rules == "-":
        return Options()
    parts = rules.split(",")
    arm = next((p[4:] for p in parts if p.startswith("arm=")), "")
    return Options(shp="shp" in parts, gna="gna" in parts,
                   arm=tuple(arm[i:i + 2] for i in range(0, len(arm), 2)))


def moves_of(fen: str, square: str) -> list[str]:
    """Every legal move (the public API: Position(fen, "optima")) of the unit on ``square``, sorted (O15)."""
    p = Position(fen, "optima" if fen.count("/") == 9 else "optima-9x9")
    s = p.geometry.square(square)
    assert p.board[s] * p.turn > 0, f"no unit of the side to move on {square}"
    return [str(m) for m in p.legal_moves if m.from_square == s]


def moves_in(pieces: dict[str, str], square: str, side: str = "w", rules: str = "-", n: int = 10) -> list[str]:
    return moves_of(f"{board_field(pieces, n)} {side} - {rules} 0", square)


def with_from(square: str, targets: str) -> list[str]:
    """``"b2 c3xc3"`` -> ``["e5-b2", "e5-c3xc3"]`` for square e5, sorted."""
    return sorted(f"{square}-{t}" for t in targets.split())


# --------------------------------------------------------------------------- reference positions

def test_O7_pawn_R5():
    fen = "vr*2ar6/4PNPN4/3pn6/4gd5/10/10/10/10/10/9VR* w - - 0"
    assert moves_of(fen, "e9") == ["e9-c9", "e9-d10xd10=WI", "e9-d8xd8", "e9-d9", "e9-e10=WI", "e9-e8"]


def test_O7_pawn_on_last_rank_R6():
    fen = "1PN7vr*/pn1gd7/10/10/10/10/10/10/10/9VR* w - - 0"
    assert moves_of(fen, "b10") == ["b10-a10=WI", "b10-a9xa9", "b10-b8", "b10-b9", "b10-c10=WI",
                                    "b10-c9xc9", "b10-d10=WI"]


def test_O8_guard_R7():
    fen = "9vr*/10/10/10/10/10/2pnPN6/2GD7/1gd8/9VR* w - - 0"
    assert moves_of(fen, "c3") == ["c3-a3", "c3-a5", "c3-b2xb2", "c3-b3", "c3-b4", "c3-c1", "c3-c2", "c3-c4xc4",
                                   "c3-d2", "c3-d3", "c3-e1", "c3-e3"]


def test_O12_3_juggernaut_R10():
    """O9.2 path capture; the Juggernaut is not stopped by the armored guard c1 (decision 15)."""
    fen = "9vr*/10/10/10/10/10/3pn6/10/ARme8/JU1gd6VR* w - - 0"
    assert moves_of(fen, "a1") == ["a1-b1", "a1-b2xb2", "a1-c1xc1", "a1-c3xb2", "a1-d1xc1", "a1-d4xb2,d4"]


def test_O10_O12_3_R10_archer_next_to_the_medusa_is_immobilized():
    """R10's other half: the resolute Juggernaut moves, the Archer a2 next to the Medusa b2 does not."""
    fen = "9vr*/10/10/10/10/10/3pn6/10/ARme8/JU1gd6VR* w - - 0"
    p = Position(fen, "optima")
    assert sorted({str(m).split("-")[0] for m in p.legal_moves}) == ["a1", "j1"]
    assert moves_of(fen, "a1") and not [m for m in p.legal_moves if str(m).startswith("a2-")]


def test_O6_O7_O12_5_pushed_moves_do_what_their_text_says():
    """The Kite's line-hop removes its run (O12.5); the pawn reaching its last rank becomes a Wizard (O7)."""
    p = Position("vr*9/8pn1/10/6gd3/5PN4/10/3ar6/2pn7/1KIgd7/9VR* w - - 0", "optima")
    p.push("b2-e5xc3,d4")
    assert [p.piece_at(q) for q in ("c3", "d4", "b2")] == [None, None, None]
    assert p.piece_at("e5").token == "KI"
    p = Position("vr*2ar6/4PNPN4/3pn6/4gd5/10/10/10/10/10/9VR* w - - 0", "optima")
    p.push("e9-d10xd10=WI")
    assert p.piece_at("d10").token == "WI" and p.piece_at("e9") is None


def test_O12_3_legion_R12():
    """O9.2 path capture; the Legion stops on the armored guard d6, a friendly unit closes the line (decision 14)."""
    fen = "9vr*/10/10/10/3gd6/10/3pn6/1arpnLE1PN4/10/9VR* w - - 0"
    assert moves_of(fen, "d3") == ["d3-a3xb3,c3", "d3-b3xb3,c3", "d3-c3xc3", "d3-d1", "d3-d2", "d3-d4xd4",
                                   "d3-d5xd4", "d3-d6xd4,d6", "d3-e3"]


def test_O12_5_kite_R13():
    """O9.3 line-hop: the run behind t ends at s, an empty or a friendly square; automatic (decision 12)."""
    fen = "vr*9/8pn1/10/6gd3/5PN4/10/3ar6/2pn7/1KIgd7/9VR* w - - 0"
    assert moves_of(fen, "b2") == ["b2-a1", "b2-a2", "b2-a3", "b2-b1", "b2-b3", "b2-c1", "b2-c2xc2", "b2-c3xc3",
                                   "b2-e5xc3,d4", "b2-h8xg7", "b2-j10xi9"]


def test_O12_5_falcon_R21():
    """O9.3 hop capture: only the unit just behind t (a1-e1 takes d1, not c1)."""
    fen = "10/10/10/10/10/gd9/PN9/2vr*7/pn9/FA1arqu5VR* w - - 0"
    assert moves_of(fen, "a1") == ["a1-a10", "a1-a3xa2", "a1-a6xa5", "a1-a7", "a1-a8", "a1-a9", "a1-b1", "a1-b2",
                                   "a1-d4xc3", "a1-e1xd1", "a1-e5", "a1-f1", "a1-f6", "a1-g1", "a1-g7", "a1-h1",
                                   "a1-h8", "a1-i1", "a1-i9", "a1-j10"]


def test_O12_6_tower_R24():
    fen = "9vr*/10/10/10/1PN8/10/PN9/4gd5/2pn7/TO2PN5VR* w - - 0"
    assert moves_of(fen, "a1") == ["a1-b2", "a1-b3", "a1-b4", "a1-b5", "a1-c2xc2", "a1-c3", "a1-d3", "a1-e3xe3"]


def test_O12_6_battlement_R25():
    """Any clear path suffices; the capture is by replacement at the end (decision 10)."""
    fen = "9vr*/10/10/10/10/1PN8/10/PN9/4gd5/BT2pn5VR* w - - 0"
    assert moves_of(fen, "a1") == ["a1-a2", "a1-b1", "a1-b2", "a1-b3", "a1-b4", "a1-c1", "a1-c2", "a1-d1xd1",
                                   "a1-d2", "a1-e2xe2"]


def test_O12_2_bastion_R26():
    """Slipping dabbabarider: a2 empty, landings a4, a6, a8 (decision 19); b1 friendly closes the file."""
    fen = "9vr*/10/gd9/10/10/pn9/10/10/9VR*/BSPN8 w - - 0"
    assert moves_of(fen, "a1") == ["a1-a3", "a1-a4", "a1-a5xa5", "a1-a6", "a1-a8xa8", "a1-b2", "a1-c1", "a1-e1",
                                   "a1-g1", "a1-i1"]


def test_O12_4_general_R27():
    """O9.4 screen: exactly one screen, cannon style (decision 13); the royal e5 is taken over c3."""
    fen = "10/10/10/10/10/pn3vr*5/ar9/2PN7/PN9/GEpngd6VR* w - - 0"
    assert moves_of(fen, "a1") == ["a1-a10", "a1-a3", "a1-a4xa4", "a1-a6", "a1-a7", "a1-a8", "a1-a9", "a1-b1xb1",
                                   "a1-b2", "a1-c1xc1", "a1-d1", "a1-d4", "a1-e1", "a1-e5xe5", "a1-f1", "a1-f6",
                                   "a1-g1", "a1-g7", "a1-h1", "a1-h8", "a1-i1", "a1-i9", "a1-j10"]


def test_O12_7_cavalry_R32():
    fen = "9vr*/10/10/10/10/10/10/1PN2pn5/10/CV8VR* w - - 0"
    assert moves_of(fen, "a1") == ["a1-a3", "a1-b4", "a1-c2", "a1-d4", "a1-e1", "a1-e3xe3"]


# --------------------------------------------------------------------------- hand-made positions

KINGS = {"j1": "VR*", "j10": "vr*"}


def test_O12_1_hero_leaps_1_2_3():
    pieces = {"e5": "HE", "e6": "PN", "g7": "pn", "b5": "gd", "h8": "PN", "a1": "VR*", "j10": "vr*"}
    assert moves_in(pieces, "e5") == with_from(
        "e5", "b2 b5xb5 b8 c3 c5 c7 d4 d5 d6 e2 e3 e4 e7 e8 f4 f5 f6 g3 g5 g7xg7 h2 h5")


def test_O12_1_myrmidon_W_F_N_C():
    pieces = {"b2": "MY", "c5": "pn", "d3": "PN", "a2": "gd", "e1": "pn", **KINGS}
    assert moves_in(pieces, "b2") == with_from(
        "b2", "a1 a2xa2 a3 a4 a5 b1 b3 c1 c2 c3 c4 c5xc5 d1 e1xe1 e3")


def test_O12_1_nomad_riders_jumped_squares_do_not_matter():
    """O3 rider; O9.1: the royal j1 is taken like any unit."""
    pieces = {"d4": "NO", "f8": "pn", "h6": "PN", "d6": "gd", "h4": "PN", "h8": "pn", "e5": "PN", "e4": "pn",
              "a1": "VR*", "j1": "vr*"}
    assert moves_in(pieces, "d4") == with_from(
        "d4", "e6 f8xf8 f5 f3 h2 j1xj1 e2 c2 b3 b5 c6 b8 a10 d6xd6 f4 d2 b4 f6 h8xh8 f2 b2 b6")


def test_O12_1_prince_knight_and_queen_range_3():
    pieces = {"e5": "PR", "e7": "PN", "g7": "pn", "b5": "pn", "f4": "PN", "g6": "pn", "d3": "PN",
              "a1": "VR*", "j10": "vr*"}
    assert moves_in(pieces, "e5") == with_from(
        "e5", "e6 f6 g7xg7 f5 g5 h5 e4 e3 e2 d4 c3 b2 d5 c5 b5xb5 d6 c7 b8 f7 g6xg6 g4 f3 c4 c6 d7")


def test_O12_1_centaur_knight_bishop_wazir():
    pieces = {"e5": "CE", "g7": "pn", "c3": "PN", "e6": "gd", "d5": "PN", "d7": "pn", "f3": "PN",
              "a1": "VR*", "j1": "vr*"}
    assert moves_in(pieces, "e5") == with_from(
        "e5", "e6xe6 f5 e4 f6 g7xg7 f4 g3 h2 i1 d4 d6 c7 b8 a9 f7 g6 g4 d7xd7 d3 c4 c6")


def test_O12_1_marshal_rook_knight_ferz():
    pieces = {"d4": "MA", "d7": "pn", "g4": "PN", "b5": "pn", "e2": "PN", "c5": "pn", "e3": "PN", **KINGS}
    assert moves_in(pieces, "d4") == with_from(
        "d4", "d5 d6 d7xd7 e4 f4 d3 d2 d1 c4 b4 a4 e6 f5 f3 c2 b3 b5xb5 c6 e5 c3 c5xc5")


def test_O12_1_queen_takes_a_royal_O9_1():
    pieces = {"a1": "QU", "a3": "PN", "c1": "gd", "d4": "vr*", "j5": "VR*"}
    assert moves_in(pieces, "a1") == with_from("a1", "a2 b1 c1xc1 b2 c3 d4xd4")


def test_O12_4_deacon_fly_diagonal_screen_0_or_1_wazir():
    """O9.4: a friendly unit screens as well as an enemy (f6 screens g7); two screens do not (i9)."""
    pieces = {"e5": "DE", "f6": "PN", "g7": "pn", "i9": "pn", "f4": "gd", "h2": "pn", "c7": "pn", "e6": "pn",
              "f5": "PN", "j5": "VR*", "a10": "vr*"}
    assert moves_in(pieces, "e5") == with_from(
        "e5", "h8 j10 g7xg7 g3 i1 f4xf4 h2xh2 d4 c3 b2 a1 d6 b8 a9 c7xc7 e6xe6 e4 d5")


def test_O12_4_parapet_fly_orthogonal_screen_0_or_1():
    pieces = {"d4": "PA", "d5": "pn", "d7": "pn", "d9": "gd", "e4": "PN", "f4": "pn", "a4": "pn",
              "a1": "VR*", "j10": "vr*"}
    assert moves_in(pieces, "d4") == with_from(
        "d4", "d5xd5 d6 d7xd7 d8 d10 f4xf4 g4 h4 i4 j4 d3 d2 d1 c4 b4 a4xa4")


def test_O12_4_dauphin_slide_and_exactly_one_screen():
    pieces = {"e5": "DA", "e6": "PN", "e7": "pn", "g7": "pn", "h8": "pn", "f5": "gd", "h5": "PN", "i5": "pn",
              "a1": "VR*", "c5": "pn", "a5": "pn", "j9": "vr*"}
    assert moves_in(pieces, "e5") == with_from(
        "e5", "e7xe7 f6 g7xg7 h8xh8 f5xf5 f4 g3 h2 i1 e4 e3 e2 e1 d4 c3 b2 d5 c5xc5 a5xa5 d6 c7 b8 a9")


def test_O12_5_owl_line_hop_runs_and_adjacent_replacement():
    pieces = {"d4": "OW", "d5": "pn", "d6": "pn", "d8": "PN", "f4": "gd", "i4": "pn", "c4": "pn", "e5": "pn",
              "c3": "PN", "a1": "VR*", "a10": "vr*"}
    assert moves_in(pieces, "d4") == with_from(
        "d4", "d5xd5 d7xd5,d6 d9 d10 e4 g4xf4 h4 j4xi4 d3 d2 d1 b4xc4 a4 c4xc4 e5xe5")


def test_O12_6_patriarch_bent_bishop_and_wazir():
    pieces = {"a1": "PT", "d4": "PN", "b4": "pn", "a2": "gd", **KINGS}
    assert moves_in(pieces, "a1") == with_from("a1", "a3 c1 b4xb4 d2 e1 a2xa2 b1")


def test_O12_6_prelate_bishop_bent_paths_and_wazir():
    pieces = {"a1": "PL", "d4": "PN", "b4": "pn", "a2": "gd", **KINGS}
    assert moves_in(pieces, "a1") == with_from("a1", "b2 c3 a3 c1 b4xb4 d2 a2xa2 b1")


PHALANX = {"d4": "PH", "e5": "pn", "g7": "gd", "f2": "PN", "c3": "pn", "b2": "pn", "d5": "gd", "d3": "PN",
           "j1": "VR*", "a10": "vr*"}


def test_O12_3_phalanx_stops_on_armored_guard():
    assert moves_in(PHALANX, "d4") == with_from(
        "d4", "e5xe5 f6xe5 g7xe5,g7 e3 c3xc3 b2xb2,c3 a1xb2,c3 c5 b6 a7 d5xd5 e4 c4")


def test_O12_3_O14_gna_phalanx_plows_through_guard():
    assert moves_in(PHALANX, "d4", rules="gna") == with_from(
        "d4", "e5xe5 f6xe5 g7xe5,g7 h8xe5,g7 i9xe5,g7 j10xe5,g7 e3 c3xc3 b2xb2,c3 a1xb2,c3 c5 b6 a7 d5xd5 e4 c4")


def test_O12_3_O14_legion_R12_board_with_gna():
    fen = "9vr*/10/10/10/3gd6/10/3pn6/1arpnLE1PN4/10/9VR* w - gna 0"
    assert moves_of(fen, "d3") == sorted([
        "d3-a3xb3,c3", "d3-b3xb3,c3", "d3-c3xc3", "d3-d1", "d3-d2", "d3-d4xd4", "d3-d5xd4", "d3-d6xd4,d6",
        "d3-d7xd4,d6", "d3-d8xd4,d6", "d3-d9xd4,d6", "d3-d10xd4,d6", "d3-e3"])


def test_O12_3_O14_arm_makes_a_piece_stop_the_legion():
    pieces = {"a1": "LE", "a3": "qu", "a5": "pn", "b1": "PN", "j1": "VR*", "j10": "vr*"}
    assert moves_in(pieces, "a1") == with_from("a1", "a2 a3xa3 a4xa3 a5xa3,a5 a6xa3,a5 a7xa3,a5 a8xa3,a5 "
                                                     "a9xa3,a5 a10xa3,a5")
    assert moves_in(pieces, "a1", rules="arm=QU") == with_from("a1", "a2 a3xa3")


def test_O12_12_basilisk_king_and_knight():
    pieces = {"e5": "BA", "f6": "pn", "e4": "PN", "g6": "gd", "c6": "PN", **KINGS}
    assert moves_in(pieces, "e5") == with_from("e5", "e6 f6xf6 f5 f4 d4 d5 d6 f7 g6xg6 g4 f3 d3 c4 d7")


def test_O12_12_chimaera_rook():
    pieces = {"e5": "CH", "e7": "pn", "f5": "PN", "b5": "gd", **KINGS}
    assert moves_in(pieces, "e5") == with_from("e5", "e6 e7xe7 e4 e3 e2 e1 d5 c5 b5xb5")


def test_O12_12_cyclops_bishop_captures_wazir_only_to_empty():
    pieces = {"e5": "CY", "g7": "pn", "f4": "PN", "e6": "pn", "d5": "PN", "j5": "VR*", "j10": "vr*"}
    assert moves_in(pieces, "e5") == with_from("e5", "f6 g7xg7 d4 c3 b2 a1 d6 c7 b8 a9 f5 e4")


def test_O12_12_gorgona_never_captures():
    pieces = {"e5": "GO", "e6": "pn", "g7": "PN", "f4": "gd", "j5": "VR*", "a9": "vr*"}
    assert moves_in(pieces, "e5") == with_from(
        "e5", "f6 f5 g5 h5 i5 e4 e3 e2 e1 d4 c3 b2 a1 d5 c5 b5 a5 d6 c7 b8")


def test_O12_12_medusa_slides_to_empty_leap_captures_at_1_or_2():
    pieces = {"e5": "ME", "e6": "pn", "e7": "gd", "g7": "pn", "f5": "PN", "g5": "pn", "e2": "pn", "c3": "PN",
              "j1": "VR*", "a9": "vr*"}
    assert moves_in(pieces, "e5") == with_from(
        "e5", "e6xe6 e7xe7 f6 g7xg7 g5xg5 f4 g3 h2 i1 e4 e3 d4 d5 c5 b5 a5 d6 c7 b8")


def test_O7_black_pawn_promotes_on_rank_1():
    pieces = {"d2": "pn", "c1": "PN", "e3": "GD", "f2": "PN", "j10": "vr*", "a10": "VR*"}
    assert moves_in(pieces, "d2", side="b") == with_from("d2", "d1=WI d3 d4 e2 c2 b2 c1xc1=WI e3xe3")


def test_O7_pawn_promotes_on_rank_9_of_9x9():
    pieces = {"e8": "PN", "d9": "pn", "f7": "pn", "a9": "vr*", "a1": "VR*"}
    assert moves_in(pieces, "e8", n=9) == with_from("e8", "e9=WI e7 e6 f8 g8 d8 c8 d9xd9=WI f7xf7")


def test_O7_converted_pawn_promotes_on_its_new_owners_last_rank():
    """A black pawn (e.g. just converted) standing on rank 10 is on Black's first rank:
    its moves along rank 10 do not promote; its move to rank 1 would."""
    pieces = {"e10": "pn", "e9": "GD", "d9": "PN", "a1": "VR*", "j1": "vr*"}
    assert moves_in(pieces, "e10", side="b") == with_from("e10", "c10 d10 f10 g10 d9xd9")


def test_O6_one_move_per_destination_and_capture_set():
    """O6: the Battlement a1 reaches b2 by four paths of O12.6 (two bends, two slide-and-steps);
    each destination is one move."""
    pieces = {"a1": "BT", "j1": "VR*", "j10": "vr*"}
    n, b = parse_board(board_field(pieces), BY_TOKEN)
    T = Tables(OPTIMA)
    texts = [move_text(m, T) for m in T.board_moves(b, 1) if m[0] == T.geometry.square("a1")]
    assert texts.count("a1-b2") == 1
    assert len(texts) == len(set(texts)) == 17 + 9 + 8   # a2-a10 b1-i1; b2-j2; b3-b10


# --------------------------------------------------------------------------- the naive reading

ORTH_V = [(0, 1), (1, 0), (0, -1), (-1, 0)]
DIAG_V = [(1, 1), (1, -1), (-1, -1), (-1, 1)]
ALL_V = ORTH_V + DIAG_V
KNIGHT_V = [(a, b) for a in (-2, -1, 1, 2) for b in (-2, -1, 1, 2) if abs(a) != abs(b)]
CAMEL_V = [(a, b) for a in (-3, -1, 1, 3) for b in (-3, -1, 1, 3) if abs(a) != abs(b)]


def naive_moves(pieces: dict[tuple[int, int], str], n: int, white: bool, armored_tokens: set[str]) -> set[str]:
    """Every move of the side to move, read directly from O3/O7/O8/O12 on (x, y) squares.
    ``pieces``: {(x, y): token}, upper case White; ``armored_tokens``: upper-case types armored."""
    out: set[str] = set()

    def name(sq):
        return f"{FILES[sq[0] - 1]}{sq[1]}"

    for s, token in pieces.items():
        if token[:2].isupper() != white:
            continue
        kind = token[:2].upper()
        others = {q: u for q, u in pieces.items() if q != s}      # O6: the mover is lifted off s

        def on(q):
            return 1 <= q[0] <= n and 1 <= q[1] <= n

        def mine(q):
            return q in others and others[q][:2].isupper() == white

        def theirs(q):
            return q in others and others[q][:2].isupper() != white

        def free(q):
            return on(q) and q not in others

        def add(t, caps=(), promo=False):
            text = f"{name(s)}-{name(t)}"
            if caps:
                text += "x" + ",".join(name(q) for q in sorted(set(caps), key=lambda q: (q[1], q[0])))
            out.add(text + ("=WI" if promo else ""))

        def plus(q, v, k=1):
            return (q[0] + k * v[0], q[1] + k * v[1])

        def leap(vs, move=True, take=True):
            for v in vs:
                t = plus(s, v)
                if move and free(t):
                    add(t)
                if take and on(t) and theirs(t):
                    add(t, [t])

        def slide(vs, most=99, take=True):
            for v in vs:
                for k in range(1, most + 1):
                    t = plus(s, v, k)
                    if not on(t):
                        break
                    if free(t):
                        add(t)
                        continue
                    if take and theirs(t):
                        add(t, [t])
                    break

        def rider(vs, start=None):
            for v in vs:
                base = s if start is None else start(v)
                if base is None:
                    continue
                k = 1
                while on(plus(base, v, k)):
                    t = plus(base, v, k)
                    if free(t):
                        add(t)
                    elif theirs(t):
                        add(t, [t])
                        break
                    else:
                        break
                    k += 1

        def fly(vs):
            for v in vs:
                for k in range(1, n + 1):
                    if free(plus(s, v, k)):
                        add(plus(s, v, k))

        def sigma(v, k):
            return sum(1 for j in range(1, k) if plus(s, v, j) in others)

        def screen(vs, allowed):
            for v in vs:
                for k in range(1, n + 1):
                    t = plus(s, v, k)
                    if on(t) and theirs(t) and sigma(v, k) in allowed:
                        add(t, [t])

        def hopper(vs, run):
            for v in vs:
                for k in range(1, n + 1):
                    t = plus(s, v, k)
                    if not free(t):
                        continue
                    caps = []
                    for j in range(1, k):
                        q = plus(t, v, -j)
                        if not theirs(q) or (run == 1 and caps):
                            break
                        caps.append(q)
                    add(t, caps)

        def plow(vs, most, armor_stops):
            for v in vs:
                for k in range(1, most + 1):
                    path = [plus(s, v, j) for j in range(1, k + 1)]
                    if not all(on(q) for q in path) or any(mine(q) for q in path):
                        break
                    if armor_stops and any(theirs(q) and others[q][:2].upper() in armored_tokens
                                           for q in path[:-1]):
                        break
                    add(path[-1], [q for q in path if theirs(q)])

        def bent(vs, first_max, second_max):
            for d in vs:
                for e in vs:
                    if d[0] * e[0] + d[1] * e[1] != 0:
                        continue
                    for j in range(1, first_max + 1):
                        if not all(free(plus(s, d, i)) for i in range(1, j + 1)):
                            break
                        c = plus(s, d, j)
                        for k in range(1, second_max + 1):
                            t = plus(c, e, k)
                            if not on(t) or not all(free(plus(c, e, i)) for i in range(1, k)):
                                break
                            if free(t):
                                add(t)
                            elif theirs(t):
                                add(t, [t])

        def pawn():
            last = n if white else 1
            for v in ORTH_V:
                for k in (1, 2):
                    if all(free(plus(s, v, i)) for i in range(1, k + 1)):
                        add(plus(s, v, k), promo=plus(s, v, k)[1] == last)
            for v in DIAG_V:
                t = plus(s, v)
                if on(t) and theirs(t):
                    add(t, [t], promo=t[1] == last)

        if kind == "CE":
            leap(KNIGHT_V), slide(DIAG_V), leap(ORTH_V)
        elif kind == "HE":
            leap([(k * x, k * y) for x, y in ALL_V for k in (1, 2, 3)])
        elif kind == "MA":
            slide(ORTH_V), leap(KNIGHT_V), leap(DIAG_V)
        elif kind == "MY":
            leap(ORTH_V + DIAG_V + KNIGHT_V + CAMEL_V)
        elif kind == "NO":
            rider(KNIGHT_V + [(2 * x, 2 * y) for x, y in ALL_V])
        elif kind == "PR":
            leap(KNIGHT_V), slide(ALL_V, 3)
        elif kind == "QU":
            slide(ALL_V)
        elif kind == "BS":
            leap(DIAG_V)
            rider([(2 * x, 2 * y) for x, y in ORTH_V])
            rider([(2 * x, 2 * y) for x, y in ORTH_V],
                  start=lambda v: (s[0] + v[0] // 2, s[1] + v[1] // 2) if free((s[0] + v[0] // 2, s[1] + v[1] // 2))
                  else None)
        elif kind == "JU":
            plow(ALL_V, 3, False)
        elif kind == "LE":
            plow(ORTH_V, n, True)
        elif kind == "PH":
            plow(DIAG_V, n, True), leap(ORTH_V)
        elif kind == "DA":
            slide(ALL_V), screen(ALL_V, {1})
        elif kind == "DE":
            fly(DIAG_V), leap(ORTH_V), screen(DIAG_V, {0, 1})
        elif kind == "PA":
            fly(ORTH_V), screen(ORTH_V, {0, 1})
        elif kind == "GE":
            fly(ALL_V), screen(ALL_V, {1}), leap(ALL_V, move=False)
        elif kind == "FA":
            hopper(ALL_V, 1)
        elif kind == "KI":
            hopper(DIAG_V, None), leap(ORTH_V, take=False), leap(ALL_V, move=False)
        elif kind == "OW":
            hopper(ORTH_V, None), leap(ALL_V, move=False)
        elif kind == "TO":
            bent(ORTH_V, n, n)
        elif kind == "PT":
            bent(DIAG_V, n, n), leap(ORTH_V)
        elif kind == "BT":
            slide(ORTH_V), bent(ORTH_V, 1, n), bent(ORTH_V, n, 1)
        elif kind == "PL":
            slide(DIAG_V), bent(DIAG_V, 1, n), bent(DIAG_V, n, 1), leap(ORTH_V)
        elif kind == "CV":
            leap(KNIGHT_V)
            for v in KNIGHT_V:
                m = plus(s, v)
                if not free(m):
                    continue
                for w in KNIGHT_V:
                    t = plus(m, w)
                    if t == s or not on(t):
                        continue
                    if free(t):
                        add(t)
                    elif theirs(t):
                        add(t, [t])
        elif kind == "BA":
            leap(ALL_V + KNIGHT_V)
        elif kind == "CH":
            slide(ORTH_V)
        elif kind == "CY":
            slide(DIAG_V), leap(ORTH_V, take=False)
        elif kind == "GO":
            slide(ALL_V, take=False)
        elif kind == "ME":
            slide(ALL_V, take=False), leap(ALL_V + [(2 * x, 2 * y) for x, y in ALL_V], move=False)
        elif kind == "PN":
            pawn()
        elif kind == "GD":
            slide(ALL_V, 2)
        else:
            raise AssertionError(f"not a Section A unit: {token}")
    return out


SECTION_A_TOKENS = sorted(u.token for u in SECTION_A)


def random_position(rng: random.Random) -> tuple[int, dict[tuple[int, int], str], str]:
    n = rng.choice((10, 9))
    density = rng.choice((0.1, 0.25, 0.4, 0.6))
    pieces = {}
    for x in range(1, n + 1):
        for y in range(1, n + 1):
            if rng.random() < density:
                token = rng.choice(SECTION_A_TOKENS)
                token = token if rng.random() < 0.5 else token.lower()
                if token.upper() not in ("PN", "GD") and rng.random() < 0.1:
                    token += "*"
                pieces[x, y] = token
    rules = rng.choice(("-", "-", "gna", "arm=QU", "arm=JULE", "arm=PNQU,gna"))
    return n, pieces, rules


def test_O3_O12_against_naive_reading():
    """O3/O7/O8/O12.1-O12.7/O12.12: on 400 random positions of Section A units (both boards,
    both sides, options gna/arm), the generator equals the naive reading above, move for move.
    Immobilization (O10, units-B) is switched off on both sides of the comparison."""
    rng = random.Random(20261123)
    compared = 0
    for _ in range(400):
        n, pieces, rules = random_position(rng)
        white = rng.random() < 0.5
        text = board_field({f"{FILES[x - 1]}{y}": t for (x, y), t in pieces.items()}, n)
        _, b = parse_board(text, BY_TOKEN)
        options = options_of(rules)
        T = Tables(OPTIMA if n == 10 else OPTIMA_9X9, options)
        T.frozen = lambda board, colour: set()
        got = sorted(move_text(m, T) for m in T.board_moves(b, 1 if white else -1))
        armored = set(options.arm) | (set() if options.gna else {"GD"})
        want = sorted(naive_moves(pieces, n, white, armored))
        assert got == want, (text, "w" if white else "b", rules,
                             sorted(set(got) - set(want)), sorted(set(want) - set(got)))
        compared += len(got)
    assert compared > 10000          # the sample is not trivially small


@pytest.mark.parametrize("token", SECTION_A_TOKENS)
def test_O12_every_section_A_unit_has_moves_on_an_empty_board(token):
    """O2/O12: every Section A unit moves (its primitives are filled in)."""
    square = "e5"
    pieces = {square: token, "a1": "VR*", "j10": "vr*"}
    assert moves_in(pieces, square)
