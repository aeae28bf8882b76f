"""Ultima, both rule sets: every rule U1-U15 of ../shared/rules/ultima.md and
its reference positions R1-R14, written from the rules file.

``BOTH`` runs a test under the standard (``ultima``) and the pure
(``ultima-pure``) rule set; tests of rules that differ (U8-U10, U15) spell
out both answers.
"""
from __future__ import annotations

import pytest

from maxima_board.rules import BLACK, WHITE, FenError, Position, variants
from tests.test_variants_support import legal, moves_of, ult

BOTH = pytest.mark.parametrize("rules", ["ultima", "ultima-pure"])
START = "clhwkhli/pppppppp/8/8/8/8/PPPPPPPP/ILHKWHLC w 0"


def at(fen: str, rules: str) -> Position:
    return Position(fen, variant=rules)


def names(position: Position, squares) -> list[str]:
    geometry = variants.get("ultima").geometry
    return [geometry.name(s) for s in squares]


def check_piece_moves(fen, rules, square, expected):
    p = at(fen, rules)
    assert moves_of(p, square) == sorted(expected), (rules, fen)


# ------------------------------------------------------------------ U1 board


def test_U1_board_is_8x8_files_a_to_h_ranks_1_to_8():
    g = variants.get("ultima").geometry
    assert g.size == 64
    assert {g.name(s) for s in range(64)} == {f"{f}{r}" for f in "abcdefgh" for r in range(1, 9)}
    for bad in ("i1", "a9", "a0", "d10"):
        with pytest.raises(ValueError):
            g.square(bad)


@BOTH
def test_U1_captures_are_automatic_and_never_take_a_friendly_piece(rules):
    # Pawn h5 stops on e5 between its own Withdrawer e6 and Pawn e7: no capture.
    p = at(ult({"a1": "K", "h8": "k", "h5": "P", "e6": "W", "e7": "P", "e4": "P"}), rules)
    assert "h5-e5" in moves_of(p, "h5")
    assert all("x" not in m for m in moves_of(p, "h5"))
    # R12: the one move a4-d4 takes all three; input without captures names it.
    q = at("7k/8/3K4/3p2i1/P3lW2/3c4/3P4/8 w 0", rules)
    assert [m for m in moves_of(q, "a4") if m.startswith("a4-d4")] == ["a4-d4xd3,e4,d5"]
    assert str(q.parse_move("a4-d4")) == "a4-d4xd3,e4,d5"


@BOTH
def test_U1_no_promotion_a_pawn_on_the_last_rank_stays_a_pawn(rules):
    p = at(ult({"a1": "K", "h8": "k", "a7": "P"}), rules)
    move = p.parse_move("a7-a8")
    assert move.promotion is None
    p.push(move)
    assert p.piece_at("a8").letter == "P"


# ------------------------------------------------------------------ U2 pieces, set-up


@BOTH
def test_U2_start_position_and_white_moves_first(rules):
    v = variants.get(rules)
    assert v.start_fen == START
    p = Position("start", variant=rules)
    assert p.fen() == START and p.turn == WHITE
    letters = {"a1": "I", "b1": "L", "c1": "H", "d1": "K", "e1": "W", "f1": "H", "g1": "L", "h1": "C",
               "a8": "c", "b8": "l", "c8": "h", "d8": "w", "e8": "k", "f8": "h", "g8": "l", "h8": "i"}
    for f in "abcdefgh":
        letters[f + "2"], letters[f + "7"] = "P", "p"
    for name, letter in letters.items():
        assert p.piece_at(name).letter == letter, name
        assert p.piece_at(name).color == (WHITE if letter.isupper() else BLACK)
    assert sum(1 for s in range(64) if p.piece_at(s)) == 32


def test_U2_titles():
    assert variants.get("ultima").title == "Ultima"
    assert variants.get("ultima-pure").title == "Ultima (pure)"


@BOTH
def test_U2_start_moves_are_the_32_pawn_slides(rules):
    p = Position("start", variant=rules)
    expected = sorted(f"{f}2-{f}{r}" for f in "abcdefgh" for r in range(3, 7))
    assert legal(p) == expected


# ------------------------------------------------------------------ U3 King


@BOTH
def test_U3_king_steps_to_empty_or_enemy_squares_capturing_by_replacement(rules):
    p = at(ult({"d4": "K", "h8": "k", "e5": "p", "c3": "P"}), rules)
    assert moves_of(p, "d4") == ["d4-c4", "d4-c5", "d4-d3", "d4-d5", "d4-e3", "d4-e4", "d4-e5xe5"]
    p.push("d4-e5")
    assert p.piece_at("e5").letter == "K" and p.piece_at("d4") is None


# ------------------------------------------------------------------ U4 Pawn


@BOTH
def test_U4_R12_pawn_pincers_up_to_three_with_king_frozen_piece_and_pawn_as_anvils(rules):
    check_piece_moves("7k/8/3K4/3p2i1/P3lW2/3c4/3P4/8 w 0", rules, "a4",
                      ["a4-a1", "a4-a2", "a4-a3", "a4-a5", "a4-a6", "a4-a7", "a4-a8", "a4-b4",
                       "a4-c4", "a4-d4xd3,e4,d5"])


@BOTH
def test_U4_R12_fen_after_the_triple_pincer(rules):
    p = at("7k/8/3K4/3p2i1/P3lW2/3c4/3P4/8 w 0", rules)
    p.push("a4-d4")
    assert p.fen() == "7k/8/3K4/6i1/3P1W2/8/3P4/8 b 1"


@BOTH
def test_U4_a_piece_arriving_as_the_anvil_captures_nothing(rules):
    # Withdrawer h3-d3 lands beside pd4 with Pd5 beyond: only a Pawn pincers.
    p = at(ult({"a1": "K", "h8": "k", "d5": "P", "d4": "p", "h3": "W"}), rules)
    assert "h3-d3" in moves_of(p, "h3")
    # and the Pawn arriving on d3 does.
    q = at(ult({"a1": "K", "h8": "k", "d5": "P", "d4": "p", "h3": "P"}), rules)
    assert "h3-d3xd4" in moves_of(q, "h3")


@BOTH
def test_U4_pawn_pincers_only_orthogonally(rules):
    # Pawn e1-e3: pd4 and pf4 are diagonal to e3 with Pc5, Pg5 beyond: not taken.
    p = at(ult({"a1": "K", "h8": "k", "e1": "P", "d4": "p", "c5": "P", "f4": "p", "g5": "P"}), rules)
    assert "e1-e3" in moves_of(p, "e1")


# ------------------------------------------------------------------ U5 Withdrawer


@BOTH
def test_U5_R8_withdrawer(rules):
    check_piece_moves("7k/8/8/8/8/1pl5/1Wp5/K7 w 0", rules, "b2",
                      ["b2-a2xc2", "b2-a3", "b2-b1xb3", "b2-c1"])


@BOTH
def test_U5_withdrawal_takes_one_piece_only_the_one_it_leaves(rules):
    # Wd4 withdraws east from pc4; landing on g4 beside ph4 does not take h4.
    p = at(ult({"a1": "K", "h8": "k", "c4": "p", "d4": "W", "h4": "p"}), rules)
    ms = moves_of(p, "d4")
    assert {"d4-e4xc4", "d4-f4xc4", "d4-g4xc4"} <= set(ms)
    assert [m for m in ms if "x" in m] == ["d4-e4xc4", "d4-f4xc4", "d4-g4xc4"]


# ------------------------------------------------------------------ U6 Coordinator


@BOTH
def test_U6_R7_coordinator(rules):
    check_piece_moves("k5PC/7P/8/1p6/8/8/1K2p3/8 w 0", rules, "h8",
                      ["h8-c3", "h8-d4", "h8-e5xe2,b5", "h8-f6", "h8-g7"])


@BOTH
def test_U6_coordinator_works_with_a_frozen_king(rules):
    # Ka1 frozen by ib2; Coordinator h2-e5 still takes e1 and a5.
    p = at(ult({"a1": "K", "b2": "i", "h8": "k", "e1": "p", "a5": "p", "h2": "C"}), rules)
    assert "h2-e5xe1,a5" in moves_of(p, "h2")
    assert moves_of(p, "a1") == []


# ------------------------------------------------------------------ U7 Long Leaper


@BOTH
def test_U7_R9_long_leaper_multiple_jumps(rules):
    check_piece_moves("c6k/8/8/w7/8/p7/1P6/LK6 w 0", rules, "a1",
                      ["a1-a2", "a1-a4xa3", "a1-a6xa3,a5", "a1-a7xa3,a5"])


@BOTH
def test_U7_long_leaper_never_jumps_two_in_a_row_or_a_friend(rules):
    p = at(ult({"a1": "L", "h1": "K", "h8": "k", "a3": "p", "a4": "p", "c3": "P"}), rules)
    assert moves_of(p, "a1") == ["a1-a2", "a1-b1", "a1-b2", "a1-c1", "a1-d1", "a1-e1", "a1-f1", "a1-g1"]


@BOTH
def test_U7_U9_long_leaper_takes_an_immobilizer_chameleon_does_not(rules):
    p = at(ult({"a1": "L", "h1": "K", "h8": "k", "a4": "i"}), rules)
    assert {"a1-a5xa4", "a1-a8xa4"} <= set(moves_of(p, "a1"))
    q = at(ult({"a1": "H", "h1": "K", "h8": "k", "a4": "i"}), rules)
    assert [m for m in moves_of(q, "a1") if m[3] == "a"] == ["a1-a2", "a1-a3"]
    assert all("x" not in m for m in moves_of(q, "a1"))


# ------------------------------------------------------------------ U8 Chameleon


R1 = "7k/P7/p7/1pP1c3/8/lP6/HP6/wP2K3 w 0"


def test_U8_R1_standard_chameleon_combines_every_capture():
    check_piece_moves(R1, "ultima", "a2", ["a2-a4xa1,a3", "a2-a5xa1,a3,b5,e5,a6"])


def test_U8_R1_pure_chameleon_leap_takes_only_leapers():
    check_piece_moves(R1, "ultima-pure", "a2", ["a2-a4xa3", "a2-a5xa3"])


@BOTH
def test_U8_R2_chameleon_without_leap_withdraws_pincers_coordinates(rules):
    check_piece_moves("7k/P7/p7/1pP1c3/8/1P6/HP6/wP2K3 w 0", rules, "a2",
                      ["a2-a3xa1", "a2-a4xa1", "a2-a5xa1,b5,e5,a6"])


@BOTH
def test_U8_R13_chameleon_pincers_only_orthogonally_and_only_pawns(rules):
    check_piece_moves("3k4/8/7P/7h/p5P1/c4Pp1/8/K5PH w 0", rules, "h1",
                      ["h1-g2", "h1-h2", "h1-h3xa3,g3", "h1-h4"])


@BOTH
def test_U8_chameleon_never_captures_a_chameleon(rules):
    # Hd4 leaves hc4 (no withdrawal), cannot leap hd6, and pincers nothing.
    p = at(ult({"a1": "K", "h8": "k", "c4": "h", "d4": "H", "d6": "h", "d8": "P"}), rules)
    ms = moves_of(p, "d4")
    assert "d4-e4" in ms and "d4-d5" in ms and "d4-h4" in ms
    assert not any(m.startswith(("d4-d6", "d4-d7", "d4-c4")) for m in ms)
    assert all("x" not in m for m in ms)


@BOTH
def test_U8_R11_chameleon_next_to_the_king_gives_check_by_one_step(rules):
    p = at("8/8/5w2/4h3/3K4/8/8/7k w 0", rules)
    assert p.is_check()
    assert "e5-d4xd4" in [str(m) for m in p.pseudo_moves(BLACK)]


@BOTH
def test_U8_chameleon_step_onto_the_king_captures_nothing_else(rules):
    # hd5 steps onto Kd4 away from Wd6: in the standard set a step is no withdrawal either.
    p = at(ult({"d4": "K", "d5": "h", "d6": "W", "h8": "k"}), rules)
    steps = [str(m) for m in p.pseudo_moves(BLACK) if str(m).startswith("d5-d4")]
    assert steps == ["d5-d4xd4"]


# ------------------------------------------------------------------ U9 immobilization


R3 = "6Hi/6PH/6P1/8/8/7K/8/k7 w 0"
R4 = "6Ii/6PP/8/8/8/7K/8/k7 w 0"
R14 = "7k/8/1H6/2iPi3/8/8/8/K7 w 0"


def test_U9_U10_R3_standard_two_chameleons_are_frozen_and_may_suicide():
    p = at(R3, "ultima")
    assert moves_of(p, "h7") == ["h7-S"]
    assert names(p, p.immobilized()) == ["g7", "h7", "g8", "h8"]


def test_U9_U10_R3_pure_two_chameleons_beside_the_immobilizer_free_its_neighbours():
    p = at(R3, "ultima-pure")
    assert moves_of(p, "h7") == ["h7-h4", "h7-h5", "h7-h6"]
    assert names(p, p.immobilized()) == ["h8"]


def test_U9_U10_R4_standard_facing_immobilizers_freeze_each_other_and_their_neighbours():
    p = at(R4, "ultima")
    assert moves_of(p, "h7") == ["h7-S"]
    assert names(p, p.immobilized()) == ["g7", "h7", "g8", "h8"]


def test_U9_U10_R4_pure_facing_immobilizers_stay_frozen_but_free_their_neighbours():
    p = at(R4, "ultima-pure")
    assert moves_of(p, "h7") == ["h7-h4", "h7-h5", "h7-h6"]
    assert moves_of(p, "g8") == []
    assert names(p, p.immobilized()) == ["g8", "h8"]


def test_U9_U10_R14_standard_pawn_between_two_immobilizers_may_only_suicide():
    p = at(R14, "ultima")
    assert moves_of(p, "d5") == ["d5-S"]
    assert names(p, p.immobilized()) == ["c5", "d5", "b6"]


def test_U9_U10_R14_pure_each_adjacent_immobilizer_is_tested_on_its_own():
    p = at(R14, "ultima-pure")
    assert moves_of(p, "d5") == []
    assert names(p, p.immobilized()) == ["c5", "d5", "b6"]


@BOTH
def test_U9_sliding_past_an_immobilizer_is_free_status_is_judged_before_the_move(rules):
    p = at("7k/8/8/P2pP3/2i5/W7/8/K7 w 0", rules)
    ms = moves_of(p, "a3")
    assert "a3-h3" in ms and "a3-d3" in ms and "a3-c3" in ms
    assert "a5-c5xd5" in moves_of(p, "a5")     # ends beside ic4 and still pincers


@BOTH
def test_U9_immobilizer_captures_nothing(rules):
    p = at(ult({"a1": "K", "h8": "k", "d4": "I", "d6": "p", "c5": "p", "e3": "p", "f4": "P"}), rules)
    ms = moves_of(p, "d4")
    assert ms and all("x" not in m for m in ms)


@BOTH
def test_U9_frozen_pieces_give_no_check_and_a_frozen_king_can_be_mated(rules):
    # R6 after c7-b8: Kb8 stands next to the frozen ka8, which cannot take it.
    p = at("k7/1IK5/4w3/8/8/8/8/8 w 0", rules)
    assert not p.is_check()
    p.push("c7-b8")
    assert p.is_check()
    assert legal(p) == []


# ------------------------------------------------------------------ U10 suicide


@BOTH
def test_U10_an_immobilized_king_has_no_move_not_even_suicide(rules):
    p = at(ult({"a1": "K", "b2": "i", "h8": "k"}), rules)
    assert moves_of(p, "a1") == []
    assert legal(p) == []


@BOTH
def test_U10_U11_R5_suicide_is_subject_to_check(rules):
    expected = {"ultima": [], "ultima-pure": ["d3-d5xd6"]}[rules]
    check_piece_moves("7k/3P4/3l4/8/4iH2/3P4/3K4/8 w 0", rules, "d3", expected)


def test_U10_suicide_fen_and_notation_standard():
    p = at(R3, "ultima")
    move = p.parse_move("h7-S")
    assert move.to_square is None and move.kind == "suicide" and str(move) == "h7-S"
    p.push(move)
    assert p.fen() == "6Hi/6P1/6P1/8/8/7K/8/k7 b 1"
    p.pop()
    assert p.fen() == R3


def test_U10_pure_has_no_suicide_anywhere():
    for fen in (R3, R4, R14, "7k/3P4/3l4/8/4iH2/3P4/3K4/8 w 0"):
        assert not any(m.endswith("-S") for m in legal(at(fen, "ultima-pure")))


# ------------------------------------------------------------------ U11 check, legal moves


@BOTH
def test_U11_R6_king_moves_next_to_a_frozen_king_not_into_withdrawal(rules):
    p = at("k7/1IK5/4w3/8/8/8/8/8 w 0", rules)
    assert moves_of(p, "c7") == ["c7-b6", "c7-b8", "c7-c6", "c7-c8", "c7-d8"]
    assert names(p, p.immobilized()) == ["a8"]


@BOTH
def test_U11_U6_R10_coordinator_threats_and_pincer_are_check(rules):
    p = at("k3K3/5p2/8/8/8/7c/8/3p4 w 0", rules)
    assert p.is_check()
    assert moves_of(p, "e8") == ["e8-d7", "e8-f7xf7"]


@BOTH
def test_U11_U8_R11_king_in_check_from_a_chameleon(rules):
    check_piece_moves("8/8/5w2/4h3/3K4/8/8/7k w 0", rules, "d4",
                      ["d4-c3", "d4-c4", "d4-c5", "d4-d3", "d4-e3"])


@BOTH
def test_U11_R5_pawn_moves_that_open_the_leaper_line_are_illegal(rules):
    p = at("7k/3P4/3l4/8/4iH2/3P4/3K4/8 w 0", rules)
    assert not p.is_check()
    assert "d3-d4xe4" not in moves_of(p, "d3")


@BOTH
def test_U11_check_by_each_method(rules):
    cases = {
        # King step: ke5 free, Kd4 frozen by ic3 (so Black is not in check)
        ult({"d4": "K", "e5": "k", "c3": "i"}, "w"): True,
        # pincer: pawn arrives at d5 with pd3 beyond Kd4
        ult({"d4": "K", "d3": "p", "d8": "p", "h8": "k"}, "w"): True,
        # withdrawal: wd5 moves away north
        ult({"d4": "K", "d5": "w", "h8": "k"}, "w"): True,
        # withdrawal impossible: the square beyond is occupied by a friend
        ult({"d4": "K", "d5": "w", "d6": "p", "c6": "p", "e6": "p", "h8": "k"}, "w"): False,
        # Coordinator g1-d1: corner (d-file, rank of ka4) is Kd4
        ult({"d4": "K", "a4": "k", "g1": "c"}, "w"): True,
        # Long Leaper single jump
        ult({"d4": "K", "d7": "l", "h8": "k"}, "w"): True,
        # Long Leaper double jump over Pd4 and Kd2
        ult({"d2": "K", "d4": "P", "d6": "l", "h8": "k"}, "w"): True,
        # Leaper blocked: no square beyond
        ult({"d1": "K", "d6": "l", "h8": "k"}, "w"): False,
    }
    for fen, expected in cases.items():
        assert at(fen, rules).is_check() == expected, fen


@BOTH
def test_U11_moving_into_check_is_illegal(rules):
    # Kd4 may not step to c5/e5 next to the free kd6.
    p = at(ult({"d4": "K", "d6": "k"}), rules)
    assert moves_of(p, "d4") == ["d4-c3", "d4-c4", "d4-d3", "d4-e3", "d4-e4"]


# ------------------------------------------------------------------ U12 end


@BOTH
def test_U12_checkmate_the_mover_wins(rules):
    p = at("k7/1IK5/4w3/8/8/8/8/8 w 0", rules)
    p.push("c7-b8")
    outcome = p.outcome()
    assert (outcome.result, outcome.reason, outcome.winner) == ("1-0", "checkmate", WHITE)


@BOTH
def test_U12_stalemate_the_mover_wins(rules):
    p = at(ult({"a1": "K", "b2": "i", "h8": "k"}), rules)
    assert not p.is_check()
    outcome = p.outcome()
    assert (outcome.result, outcome.reason, outcome.winner) == ("0-1", "stalemate", BLACK)


@BOTH
def test_U12_no_bare_king_no_fifty_moves_no_repetition_rule(rules):
    p = at(ult({"a1": "K", "h8": "k"}, ply=500), rules)
    assert p.outcome() is None
    for _ in range(3):
        for m in ("a1-a2", "h8-h7", "a2-a1", "h7-h8"):
            p.push(m)
    assert p.repetitions() >= 3
    assert p.outcome() is None
    assert p.fen() == ult({"a1": "K", "h8": "k"}, ply=512)


@BOTH
def test_U12_outcome_is_none_while_moves_remain(rules):
    assert Position("start", variant=rules).outcome() is None


# ------------------------------------------------------------------ U13 notation


@BOTH
def test_U13_fen_round_trips_and_ply_counts_half_moves(rules):
    for fen in (START, R1, R3, R14, "P6k/8/8/8/8/8/8/K6p b 17"):
        assert at(fen, rules).fen() == fen
    p = Position("start", variant=rules)
    p.push("e2-e4")
    assert p.fen() == "clhwkhli/pppppppp/8/8/4P3/8/PPPP1PPP/ILHKWHLC b 1"
    p.push("a7-a6")
    assert p.fen() == "clhwkhli/1ppppppp/p7/8/4P3/8/PPPP1PPP/ILHKWHLC w 2"


@BOTH
def test_U13_captures_listed_by_rank_then_file_and_moves_sorted_in_string_order(rules):
    p = at(R1 if rules == "ultima" else "7k/P7/p7/1pP1c3/8/1P6/HP6/wP2K3 w 0", rules)
    move = p.parse_move("a2-a5")
    caps = [variants.get(rules).geometry.name(s) for s in move.captures]
    assert caps == sorted(caps, key=lambda n: (int(n[1:]), n[0]))
    assert legal(p) == sorted(legal(p))


@BOTH
def test_U13_a_move_with_wrong_captures_is_rejected(rules):
    from maxima_board.rules import MoveError
    p = at("7k/8/3K4/3p2i1/P3lW2/3c4/3P4/8 w 0", rules)
    with pytest.raises(MoveError):
        p.parse_move("a4-d4xd3")


# ------------------------------------------------------------------ U14 valid positions


VALID = "7k/8/8/8/8/8/8/K7 w 0"
U14_BAD = {
    "two fields": "7k/8/8/8/8/8/8/K7 w",
    "four fields": "7k/8/8/8/8/8/8/K7 w 0 1",
    "seven rows": "7k/8/8/8/8/8/K7 w 0",
    "nine rows": "7k/8/8/8/8/8/8/8/K7 w 0",
    "row of nine": "7k/8/8/8/8/8/8/K8 w 0",
    "row of seven": "7k/8/8/8/8/8/8/K6 w 0",
    "unknown letter q": "7k/8/8/8/8/8/8/K5q1 w 0",
    "unknown letter n": "7k/8/8/8/8/8/8/K5n1 w 0",
    "unknown letter x": "7k/8/8/8/8/8/8/K5x1 w 0",
    "digit run not maximal": "7k/8/8/8/8/8/8/K33 w 0",
    "digit run not maximal (44)": "7k/8/44/8/8/8/8/K7 w 0",
    "side x": "7k/8/8/8/8/8/8/K7 x 0",
    "side W": "7k/8/8/8/8/8/8/K7 W 0",
    "count negative": "7k/8/8/8/8/8/8/K7 w -1",
    "count not a number": "7k/8/8/8/8/8/8/K7 w a",
    "count fraction": "7k/8/8/8/8/8/8/K7 w 1.5",
    "no white king": "7k/8/8/8/8/8/8/8 w 0",
    "no black king": "8/8/8/8/8/8/8/K7 w 0",
    "two white kings": "7k/8/8/8/8/8/8/K6K w 0",
    "two black kings": "k6k/8/8/8/8/8/8/K7 w 0",
    "side not to move in check (withdrawer)": "7k/6W1/8/8/8/8/8/K7 w 0",
    "side not to move in check (kings adjacent)": "8/8/8/8/8/8/1k6/K7 w 0",
}


@BOTH
@pytest.mark.parametrize("fault", sorted(U14_BAD))
def test_U14_invalid_fen_is_rejected(rules, fault):
    with pytest.raises(FenError) as exc:
        Position(U14_BAD[fault], variant=rules)
    assert str(exc.value)


@BOTH
def test_U14_allowed_positions(rules):
    for fen in (VALID, "P6k/8/8/8/8/8/8/K6p w 0", "PPPPPPPk/8/8/8/8/8/8/Kppppppp b 3",
                "7k/6W1/8/8/8/8/8/K7 b 0"):
        assert at(fen, rules).fen() == fen
    assert at("7k/6W1/8/8/8/8/8/K7 b 0", rules).is_check()


def test_U9_U11_U14_U15_a_withdrawer_freed_by_neutralization_gives_check_only_in_the_pure_set():
    # Wg7 beside kh8, ig6 beside Wg7, Hf5 beside ig6: frozen in the standard set,
    # free in the pure set (Hf5 neutralizes ig6), where g7-f6 would take kh8.
    white_to_move = "7k/6W1/6i1/5H2/8/8/8/K7 w 0"
    black_to_move = "7k/6W1/6i1/5H2/8/8/8/K7 b 0"
    assert at(white_to_move, "ultima").fen() == white_to_move
    with pytest.raises(FenError):
        Position(white_to_move, variant="ultima-pure")
    assert not at(black_to_move, "ultima").is_check()
    assert at(black_to_move, "ultima-pure").is_check()


def test_U10_U12_a_frozen_pawn_may_suicide_in_the_standard_set_pure_is_stalemate():
    fen = ult({"a1": "K", "b2": "i", "c3": "P", "h8": "k"})
    standard = at(fen, "ultima")
    assert legal(standard) == ["c3-S"] and standard.outcome() is None
    pure = at(fen, "ultima-pure")
    assert legal(pure) == []
    outcome = pure.outcome()
    assert (outcome.result, outcome.reason, outcome.winner) == ("0-1", "stalemate", BLACK)


# ------------------------------------------------------------------ U15 rule sets


def test_U15_the_two_rule_sets_differ_exactly_where_the_table_says():
    for fen, square in ((R1, "a2"), (R3, "h7"), (R4, "h7"), (R14, "d5")):
        assert moves_of(at(fen, "ultima"), square) != moves_of(at(fen, "ultima-pure"), square)
    # R2 (no leap): the same in both sets.
    r2 = "7k/P7/p7/1pP1c3/8/1P6/HP6/wP2K3 w 0"
    assert legal(at(r2, "ultima")) == legal(at(r2, "ultima-pure"))


# ------------------------------------------------------------------ reference counts


@BOTH
@pytest.mark.parametrize("depth, count", [(1, 32), (2, 944), (3, 42_762)])
def test_U1_U15_perft_from_the_start(rules, depth, count):
    assert Position("start", variant=rules).perft(depth) == count
