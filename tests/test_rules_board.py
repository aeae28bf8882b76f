"""M1 board, M2 pieces and set-up, M3 King (shared/rules/maxima.md)."""
import pytest

from maxima_board.rules import BLACK, WHITE, FenError, Piece, Position, START_FEN
from maxima_board.rules.variant import (CHAMELEON, COORDINATOR, GUARD, IMMOBILIZER, KING, LEAPER, MAGE, PAWN,
                                        WITHDRAWER)
from tests.conftest import GEOMETRY, moves_from, pos, targets

# ---------------------------------------------------------------- M1 board


def test_M1_board_has_72_squares_plus_four_goal_squares():
    names = set(GEOMETRY.names)
    assert len(names) == 76
    assert {"d0", "e0", "d10", "e10"} <= names
    assert {f"{f}{r}" for f in "abcdefgh" for r in range(1, 10)} <= names
    for cell in ("a0", "c0", "f0", "h0", "a10", "c10", "f10", "h10"):
        assert cell not in names


def test_M1_goal_square_d0_touches_c1_d1_e1_e0():
    # A Guard steps to every adjacent square (M2).
    p = pos({"d0": "D", "a9": "K", "h9": "k"})
    assert targets(moves_from(p, "d0")) == {"c1", "d1", "e1", "e0"}
    p = pos({"e10": "d", "a1": "K", "h2": "k"}, "b")
    assert targets(moves_from(p, "e10")) == {"d10", "d9", "e9", "f9"}


def test_M1_lines_run_onto_goal_squares_and_end_there():
    # A Withdrawer slides down the d-file and stops at the latest on d0.
    p = pos({"d4": "Q", "a5": "K", "h9": "k"})
    assert {"d4-d3", "d4-d2", "d4-d1", "d4-d0"} <= moves_from(p, "d4")
    # An Immobilizer on e0 (north blocked by its own Pawn): west the line is
    # d0 and ends; east and south nothing exists; the diagonals run normally.
    p = pos({"e0": "M", "e1": "P", "a5": "K", "h9": "k"})
    assert targets(moves_from(p, "e0")) == {"d0", "d1", "c2", "b3", "a4", "f1", "g2", "h3"}


def test_M1_no_jump_over_the_edge_of_a_goal_square():
    # A Long Leaper on f2 looks south-west: e1, then d0, then nothing: it
    # cannot jump the Black piece on d0 because no square lies beyond it.
    p = pos({"f2": "N", "d0": "p", "a5": "K", "h9": "k"})
    moves = moves_from(p, "f2")
    assert "f2-e1" in moves
    assert not any("xd0" in m for m in moves)
    # Nor westward along rank 0 from e0 (every other way is blocked).
    p = pos({"e0": "N", "d0": "p", "d1": "P", "e1": "P", "f1": "P", "a5": "K", "h9": "k"})
    assert moves_from(p, "e0") == set()


def test_M1_pieces_are_captured_on_goal_squares():
    # Withdrawal from a piece on d0: d1 withdraws north, away from d0.
    p = pos({"d1": "Q", "d0": "p", "a5": "K", "h9": "k"})
    assert "d1-d4xd0" in moves_from(p, "d1")
    # Coordination: King d5, Coordinator stops on e0: corners (e,5) and (d,0).
    p = pos({"e3": "R", "d5": "K", "d0": "p", "e5": "p", "h9": "k"})
    assert "e3-e0xd0,e5" in moves_from(p, "e3")
    # Replacement by a Guard.
    p = pos({"e1": "D", "d0": "p", "a5": "K", "h9": "k"})
    assert "e1-d0xd0" in moves_from(p, "e1")


# ------------------------------------------------------- M2 pieces, set-up

START = "xxx2xxx/1g1qk1g1/1bnmrnb1/dppppppd/8/8/8/DPPPPPPD/1BNMRNB1/1G1QK1G1/xxx2xxx w 0"


def test_M2_start_position_is_as_described():
    assert START_FEN == START
    p = Position()
    assert p.fen() == START
    assert p.turn == WHITE and p.ply == 0
    white = {"b1": MAGE, "g1": MAGE, "d1": WITHDRAWER, "e1": KING, "b2": CHAMELEON, "g2": CHAMELEON,
             "c2": LEAPER, "f2": LEAPER, "d2": IMMOBILIZER, "e2": COORDINATOR, "a3": GUARD, "h3": GUARD}
    white.update({f"{f}3": PAWN for f in "bcdefg"})
    expected = {}
    for name, code in white.items():
        expected[name] = Piece(code, WHITE)
        expected[f"{name[0]}{10 - int(name[1:])}"] = Piece(code, BLACK)  # mirrored on 9, 8, 7
    actual = {GEOMETRY.names[s]: piece for s, piece in p.pieces()}
    assert actual == expected


def test_M2_fen_letters_name_the_pieces():
    p = pos({"a1": "K", "h9": "k", "b1": "G", "c1": "D", "d1": "Q", "e1": "R", "f1": "N",
             "g1": "B", "h1": "M", "a2": "P", "b9": "g", "c9": "d", "d9": "q", "e9": "r",
             "f9": "n", "g9": "b", "h8": "m", "a8": "p"})
    got = {GEOMETRY.names[s]: (piece.name, piece.color) for s, piece in p.pieces()}
    assert got["b1"] == ("Mage", WHITE) and got["b9"] == ("Mage", BLACK)
    assert got["c1"] == ("Guard", WHITE) and got["c9"] == ("Guard", BLACK)
    assert got["d1"] == ("Withdrawer", WHITE) and got["d9"] == ("Withdrawer", BLACK)
    assert got["e1"] == ("Coordinator", WHITE) and got["e9"] == ("Coordinator", BLACK)
    assert got["f1"] == ("Leaper", WHITE) and got["f9"] == ("Leaper", BLACK)
    assert got["g1"] == ("Chameleon", WHITE) and got["g9"] == ("Chameleon", BLACK)
    assert got["h1"] == ("Immobilizer", WHITE) and got["h8"] == ("Immobilizer", BLACK)
    assert got["a2"] == ("Pawn", WHITE) and got["a8"] == ("Pawn", BLACK)
    assert got["a1"] == ("King", WHITE) and got["h9"] == ("King", BLACK)


def test_M2_mage_steps_diagonally_then_slides_away_from_its_start():
    p = pos({"b2": "G", "e0": "K", "e10": "k"})
    expected = {"c3", *(f"c{r}" for r in range(4, 10)), *(f"{f}3" for f in "defgh"),  # NE, then N or E
                "c1", *(f"{f}1" for f in "defgh"),                                   # SE, then E (no c0)
                "a1",                                                                # SW, nothing further
                "a3", *(f"a{r}" for r in range(4, 10))}                              # NW, then N
    assert targets(moves_from(p, "b2")) == expected
    assert len(moves_from(p, "b2")) == 26


def test_M2_mage_replaces_on_the_diagonal_square_or_at_the_end_of_the_slide():
    p = pos({"d4": "G", "c5": "P", "e5": "p", "f3": "p", "d5": "p", "a1": "K", "h9": "k"})
    moves = moves_from(p, "d4")
    assert "d4-e5xe5" in moves            # replacement on the diagonal square
    assert "d4-f3xf3" in moves            # SE step to e3, slide east, replace on f3
    assert {"d4-e3", "d4-e2", "d4-e1", "d4-e0"} <= moves  # slide south off e3, onto e0
    assert "d4-c3" in moves and "d4-c1" in moves and "d4-a3" in moves
    blocked = {"e6", "e7", "f5", "g5", "g3", "h3", "c5", "c6", "b5", "a5"}
    assert not targets(moves) & blocked   # no slide past a capture, nor from an own piece
    assert "d4-d5xd5" not in moves        # no orthogonal replacement


def test_M2_guard_steps_and_replaces():
    p = pos({"d4": "D", "d5": "p", "c3": "P", "a1": "K", "h9": "k"})
    assert moves_from(p, "d4") == {"d4-c4", "d4-c5", "d4-d3", "d4-d5xd5", "d4-e3", "d4-e4", "d4-e5"}


def test_M2_sliders_move_to_empty_squares_only_and_immobilizer_captures_nothing():
    p = pos({"d4": "M", "d6": "p", "f4": "p", "a1": "K", "h9": "k"})
    moves = moves_from(p, "d4")
    assert "d4-d5" in moves and "d4-e4" in moves
    assert not targets(moves) & {"d6", "d7", "f4", "g4"}
    assert not any("x" in m for m in moves)


# ---------------------------------------------------------------- M3 King


@pytest.mark.parametrize("king, expected", [
    ("a5", {"b3", "b7", "c4", "c6", "g4", "g6", "h3", "h7"}),   # the example of M3
    ("b5", {"a3", "a7", "c3", "c7", "d4", "d6", "h4", "h6"}),
    ("h5", {"a3", "a7", "b4", "b6", "f4", "f6", "g3", "g7"}),
    ("g5", {"a4", "a6", "e4", "e6", "f3", "f7", "h3", "h7"}),
])
def test_M3_king_wraps_from_a_and_b_files_and_back(king, expected):
    p = pos({king: "K", "e10": "k"})
    assert targets(moves_from(p, king)) == expected


def test_M3_king_wraps_from_a_file_in_both_colours():
    p = pos({"a5": "k", "e0": "K"}, "b")
    assert targets(moves_from(p, "a5")) == {"b3", "b7", "c4", "c6", "g4", "g6", "h3", "h7"}


def test_M3_ranks_do_not_wrap():
    p = pos({"a1": "K", "e10": "k"})
    assert targets(moves_from(p, "a1")) == {"b3", "c2", "g2", "h3"}
    p = pos({"h9": "k", "e0": "K"}, "b")
    assert targets(moves_from(p, "h9")) == {"a7", "b8", "f8", "g7"}


def test_M3_king_reaches_goal_squares():
    p = pos({"c2": "K", "e10": "k"})
    assert targets(moves_from(p, "c2")) == {"a1", "a3", "b4", "d0", "d4", "e1", "e3"}
    p = pos({"c8": "k", "e0": "K"}, "b")
    assert "c8-d10" in moves_from(p, "c8")


def test_M3_king_captures_across_the_edge():
    p = pos({"a5": "K", "h7": "d", "e10": "k"})
    assert "a5-h7xh7" in moves_from(p, "a5")


@pytest.mark.parametrize("pieces, turn", [
    ({"a5": "K", "g4": "k"}, "w"),
    ({"b5": "K", "h4": "k"}, "b"),
    ({"a5": "k", "h3": "K"}, "w"),
])
def test_M3_kings_a_wrapped_leap_apart_is_an_impossible_position(pieces, turn):
    # The side not to move would be in check across the edge (M12, M15).
    with pytest.raises(FenError, match="check"):
        pos(pieces, turn)


def test_M3_only_the_king_wraps():
    p = pos({"a5": "D", "h1": "K", "e10": "k"})
    assert targets(moves_from(p, "a5")) == {"a4", "a6", "b4", "b5", "b6"}
    # A Long Leaper on a5 cannot jump westward over the edge onto h5.
    p = pos({"a5": "N", "h5": "p", "h1": "K", "e10": "k"})
    assert not any("h5" in m for m in moves_from(p, "a5"))
