"""Movement and capture of each piece: M4 Pawn, M5 Withdrawer, M6 Coordinator,
M7 Long Leaper, M8 Chameleon (shared/rules/maxima.md)."""
import pytest

from tests.conftest import moves_from, pos, sq

# ---------------------------------------------------------------- M4 Pawn


def test_M4_pawn_slides_like_a_rook_to_empty_squares():
    p = pos({"d4": "P", "d7": "p", "f4": "D", "a1": "K", "h9": "k"})
    assert moves_from(p, "d4") == {"d4-d5", "d4-d6", "d4-d3", "d4-d2", "d4-d1", "d4-d0",
                                   "d4-e4", "d4-c4", "d4-b4", "d4-a4"}


def test_M4_pawn_captures_several_pieces_in_one_move():
    # e2-e5: d5 is pinned against c5, f5 against g5, e6 against e7. The Black
    # Pawn on d6 is only diagonally adjacent and survives.
    p = pos({"e2": "P", "c5": "D", "g5": "D", "e7": "D", "a1": "K",
             "d5": "q", "f5": "n", "e6": "d", "d6": "p", "h9": "k"})
    moves = moves_from(p, "e2")
    assert "e2-e5xd5,f5,e6" in moves
    assert {"e2-e3", "e2-e4"} <= moves


def test_M4_king_and_immobilized_pieces_serve_as_anvils():
    # d7-d5: d4 is pinned against the White King on d3; e5 against the White
    # Guard on f5, which the Black Immobilizer on g6 freezes. c5 has nothing
    # beyond it on b5 and survives.
    p = pos({"d7": "P", "d3": "K", "f5": "D", "d4": "p", "e5": "p", "c5": "p", "g6": "m", "h9": "k"})
    assert sq("f5") in p.immobilized()
    assert "d7-d5xd4,e5" in moves_from(p, "d7")


def test_M4_no_capture_without_a_friendly_piece_directly_beyond():
    # b2-b5: a5 has the board edge beyond, c5 a Black piece, b6 an empty
    # square; c6 is diagonal to b5 (a White piece on d7 does not matter).
    p = pos({"b2": "P", "d7": "D", "h1": "K", "a5": "p", "c5": "p", "d5": "p", "b6": "p",
             "c6": "p", "h9": "k"})
    moves = moves_from(p, "b2")
    assert "b2-b5" in moves
    assert not any("x" in m for m in moves)


# ---------------------------------------------------------- M5 Withdrawer


def test_M5_withdrawer_captures_by_moving_directly_away():
    p = pos({"d4": "Q", "a1": "K", "d5": "p", "c3": "p", "h9": "k"})
    expected = {f"d4-{t}xd5" for t in ("d3", "d2", "d1", "d0")}        # away from d5
    expected |= {f"d4-{t}xc3" for t in ("e5", "f6", "g7", "h8")}       # away from c3
    expected |= {f"d4-{t}" for t in ("e4", "f4", "g4", "h4", "c4", "b4", "a4",
                                     "c5", "b6", "a7", "e3", "f2", "g1")}
    assert moves_from(p, "d4") == expected


def test_M5_withdrawer_must_start_next_to_its_victim():
    p = pos({"d4": "Q", "a1": "K", "d6": "p", "h9": "k"})
    moves = moves_from(p, "d4")
    assert "d4-d3" in moves and "d4-d1" in moves
    assert not any("x" in m for m in moves)


# --------------------------------------------------------- M6 Coordinator


def test_M6_coordinator_captures_on_both_corners():
    p = pos({"h6": "R", "b2": "K", "e2": "d", "b6": "q", "h9": "k"})
    moves = moves_from(p, "h6")
    assert "h6-e6xe2,b6" in moves                       # corners (e,2) and (b,6)
    assert {"h6-g6xb6", "h6-f6xb6", "h6-d6xb6", "h6-c6xb6"} <= moves
    assert {"h6-h7", "h6-h8", "h6-h5", "h6-h4", "h6-h3", "h6-h1"} <= moves


def test_M6_nothing_captured_on_the_kings_rank_or_file():
    # h6-h2 stops on the King's rank, next to a Black piece on g2; the Black
    # pieces on c2 and e2 are on that rank too. Nothing is captured.
    p = pos({"h6": "R", "b2": "K", "c2": "p", "e2": "p", "g2": "p", "h9": "k"})
    moves = moves_from(p, "h6")
    assert "h6-h2" in moves
    assert not any(m.startswith("h6-h2x") for m in moves)
    # Likewise on the King's file: b9 shares the b-file with the King.
    p = pos({"h9": "R", "b2": "K", "b8": "p", "a9": "p", "e10": "k"})
    assert "h9-b9" in moves_from(p, "h9")


def test_M6_only_the_coordinators_move_captures():
    # After b2-d3 the Black Pawn on d6 stands on a corner (d, 6) of the
    # Coordinator on h6 and the King on d3, but a King's move captures nothing.
    p = pos({"h6": "R", "b2": "K", "d6": "p", "h3": "p", "h9": "k"})
    assert "b2-d3" in moves_from(p, "b2")
    p.push("b2-d3")
    assert p.piece_at("d6") is not None and p.piece_at("h3") is not None


def test_M6_coordinator_with_its_king_on_a_goal_square():
    # King d0: for a stop on t the corners are (t-file, 0), which exists only
    # on the e-file (e0), and (d, t-rank).
    p = pos({"d0": "K", "h5": "R", "e0": "p", "d5": "n", "a9": "k"})
    assert moves_from(p, "h5") == {
        "h5-g5xd5", "h5-f5xd5", "h5-e5xe0,d5",                  # west along rank 5
        "h5-h6", "h5-h7", "h5-h8", "h5-h9",                     # corners h0 do not exist
        "h5-h4", "h5-h3", "h5-h2", "h5-h1",
        "h5-g6", "h5-f7", "h5-e8xe0", "h5-d9",                  # d9: the King's file
        "h5-g4", "h5-f3", "h5-e2xe0", "h5-d1",
    }


# --------------------------------------------------------- M7 Long Leaper


def test_M7_leaper_double_jump():
    p = pos({"a4": "N", "c4": "d", "e4": "p", "e0": "K", "e10": "k"})
    east = {m for m in moves_from(p, "a4") if m.split("-")[1][1:].split("x")[0] == "4"}
    assert east == {"a4-b4", "a4-d4xc4", "a4-f4xc4,e4", "a4-g4xc4,e4", "a4-h4xc4,e4"}


@pytest.mark.parametrize("blockers", [
    {"c4": "d", "d4": "p"},   # two pieces in a row
    {"c4": "D"},              # a friendly piece
    {"c4": "d", "d4": "P"},   # landing square taken by a friendly piece
])
def test_M7_leaper_cannot_jump_friends_or_two_in_a_row(blockers):
    p = pos({"a4": "N", "e0": "K", "e10": "k", **blockers})
    east = {m for m in moves_from(p, "a4") if m.split("-")[1][1:].split("x")[0] == "4"}
    assert east == {"a4-b4"}


def test_M7_leaper_jumps_diagonally_too():
    p = pos({"b2": "N", "c3": "q", "e5": "g", "a1": "K", "h9": "k"})
    moves = moves_from(p, "b2")
    assert {"b2-d4xc3", "b2-f6xc3,e5", "b2-g7xc3,e5", "b2-h8xc3,e5"} <= moves


# --------------------------------------------------------- M8 Chameleon


def test_M8_chameleon_combines_every_capture_of_one_move():
    # b5-d5 (orthogonal): withdraws from the Withdrawer a5, leaps the Leaper
    # c5, pincers the Pawn d6 against d7 and coordinates the Coordinator d2
    # with its King h2.
    p = pos({"b5": "B", "d7": "D", "h2": "K", "a5": "q", "c5": "n", "d6": "p", "d2": "r", "a9": "k"})
    moves = moves_from(p, "b5")
    assert "b5-d5xd2,a5,c5,d6" in moves
    assert {"b5-e5xa5,c5", "b5-f5xa5,c5", "b5-g5xa5,c5", "b5-h5xa5,c5"} <= moves


def test_M8_chameleon_leaps_leapers_and_pincers_pawns_in_one_orthogonal_move():
    p = pos({"a4": "B", "g4": "D", "c4": "n", "f4": "p", "h1": "K", "h9": "k"})
    east = {m for m in moves_from(p, "a4") if m.split("-")[1][1:].split("x")[0] == "4"}
    # e4: leaps c4, pins f4 against g4. The Pawn f4 itself cannot be leapt.
    assert east == {"a4-b4", "a4-d4xc4", "a4-e4xc4,f4"}


def test_M8_chameleon_pincers_only_on_an_orthogonal_move():
    orthogonal = pos({"b4": "B", "d6": "D", "d5": "p", "a1": "K", "h9": "k"})
    assert "b4-d4xd5" in moves_from(orthogonal, "b4")
    diagonal = pos({"b2": "B", "d6": "D", "d5": "p", "a1": "K", "h9": "k"})
    assert "b2-d4" in moves_from(diagonal, "b2")
    assert not any("x" in m for m in moves_from(diagonal, "b2"))


def test_M8_chameleon_replaces_only_guard_mage_or_king_by_a_step():
    # Neighbours of d4: Guard d5, Mage e5, Pawn c5, Chameleon c3, Withdrawer e3,
    # Coordinator d3, Leaper c4. It slides east through e4, or leaps the
    # Leaper westward; no other neighbour is taken.
    p = pos({"d4": "B", "a1": "K", "d5": "d", "e5": "g", "c5": "p", "c3": "b", "e3": "q",
             "d3": "r", "c4": "n", "h9": "k"})
    assert moves_from(p, "d4") == {"d4-d5xd5", "d4-e5xe5", "d4-e4", "d4-f4", "d4-g4", "d4-h4",
                                   "d4-b4xc4", "d4-a4xc4"}


def test_M8_chameleon_step_replacement_captures_nothing_else():
    # Stepping onto the Guard d5 moves away from the Withdrawer d3 and stops
    # next to the Pawn d6 pinned by d7, yet only d5 is taken.
    p = pos({"d4": "B", "d7": "D", "a1": "K", "d5": "d", "d3": "q", "d6": "p", "h9": "k"})
    moves = moves_from(p, "d4")
    assert "d4-d5xd5" in moves
    assert not any(m.startswith("d4-d5x") and m != "d4-d5xd5" for m in moves)


def test_M8_chameleon_withdraws_only_from_withdrawers():
    p = pos({"d4": "B", "a1": "K", "e5": "q", "c4": "p", "h9": "k"})
    moves = moves_from(p, "d4")
    assert {"d4-c3xe5", "d4-b2xe5"} <= moves            # away from the Withdrawer
    assert {"d4-e4", "d4-f4"} <= moves                    # away from the Pawn: nothing
    assert "d4-e5xe5" not in moves


def test_M8_chameleon_coordinates_only_coordinators():
    # As in the Coordinator test, but the Withdrawer on b6 is not captured.
    p = pos({"h6": "B", "b2": "K", "e2": "r", "b6": "q", "h9": "k"})
    moves = moves_from(p, "h6")
    assert "h6-e6xe2" in moves
    assert not any("b6" in m for m in moves)


@pytest.mark.parametrize("black, expected_captures", [
    ({"d5": "b", "e1": "m", "a3": "b"}, set()),                      # never Chameleon / Immobilizer
    ({"d5": "q", "e1": "r", "a3": "r"}, {"d4-d3xa3,d5", "d4-e4xe1"}),  # control: same squares
])
def test_M8_chameleon_never_captures_chameleon_or_immobilizer(black, expected_captures):
    # Withdrawing from d5, coordinating with the King a1 onto corners e1 / a3.
    p = pos({"d4": "B", "a1": "K", "h9": "k", **black})
    captures = {m for m in moves_from(p, "d4") if "x" in m}
    assert captures >= expected_captures
    if not expected_captures:
        assert captures == set()
