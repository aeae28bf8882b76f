"""Deckle's eight games on 10x10 and 10x8: every rule D1-D18 of
../shared/rules/deckle.md, its reference positions R1-R22 and its
FEN-after-move examples, written from the rules file."""
from __future__ import annotations

import pytest

from maxima_board.rules import BLACK, WHITE, FenError, MoveError, Position, variants
from tests.test_variants_support import (DECKLE_GAMES, DECKLE_LETTER, deck, deckle_id, legal,
                                         moves_of)

TITLES = {"coordinator": "Coordinator Chess", "immobilizer": "Immobilizer Chess",
          "withdrawer": "Withdrawer Chess", "long-leaper": "Long Leaper Chess",
          "advancer": "Advancer Chess", "pushme-pullyu": "Pushme-Pullyu Chess",
          "swapper": "Swapper Chess", "mimotaur": "Mimotaur Chess"}
PIECE_NAMES = {"coordinator": "Coordinator", "immobilizer": "Immobilizer", "withdrawer": "Withdrawer",
               "long-leaper": "Long Leaper", "advancer": "Advancer", "pushme-pullyu": "Pushme-Pullyu",
               "swapper": "Swapper", "mimotaur": "Mimotaur"}
GAMES = pytest.mark.parametrize("game", DECKLE_GAMES)
BOARDS = pytest.mark.parametrize("ranks", [10, 8])


def at(fen: str, game: str, ranks: int = 10) -> Position:
    return Position(fen, variant=deckle_id(game, ranks))


def start_fen(game: str, ranks: int) -> str:
    x = DECKLE_LETTER[game]
    back = f"rn{x}bqkb{x}nr"
    middle = "/".join(["10"] * (ranks - 4))
    fen = f"{back}/pppppppppp/{middle}/PPPPPPPPPP/{back.upper()} w KQkq - 0 1"
    return fen + (" -" if game == "swapper" else "")


def check_piece_moves(fen, game, square, expected, ranks=10):
    p = at(fen, game, ranks)
    assert moves_of(p, square) == sorted(expected), fen


# ------------------------------------------------------------------ D1 boards, games, set-up


def test_D1_the_two_rules_file_start_fens_spelled_out():
    assert start_fen("coordinator", 10) == \
        "rncbqkbcnr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RNCBQKBCNR w KQkq - 0 1"
    assert start_fen("swapper", 8) == \
        "rnsbqkbsnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNSBQKBSNR w KQkq - 0 1 -"


@GAMES
@BOARDS
def test_D1_start_position_title_and_board(game, ranks):
    v = variants.get(deckle_id(game, ranks))
    assert v.name == deckle_id(game, ranks)
    assert v.title == TITLES[game] + (" 10x8" if ranks == 8 else "")
    assert v.start_fen == start_fen(game, ranks)
    assert v.geometry.size == 10 * ranks
    assert {v.geometry.name(s) for s in range(v.geometry.size)} == \
        {f"{f}{r}" for f in "abcdefghij" for r in range(1, ranks + 1)}
    p = Position("start", variant=v.name)
    assert p.fen() == start_fen(game, ranks) and p.turn == WHITE


@GAMES
def test_D1_the_fens_row_count_says_which_board(game):
    small = deck({"f1": "K", "f8": "k"}, game=game, ranks=8)
    big = deck({"f1": "K", "f10": "k"}, game=game, ranks=10)
    assert at(small, game, 10).variant.name == deckle_id(game, 8)
    assert at(big, game, 8).variant.name == deckle_id(game, 10)
    assert at(small, game, 10).fen() == small and at(big, game, 8).fen() == big


def test_D1_variant_ids_in_order():
    expected = ["maxima", "ultima", "ultima-pure"]
    for game in DECKLE_GAMES:
        expected += [f"{game}-chess", f"{game}-chess-10x8"]
    assert list(variants.names()) == expected + ["optima", "optima-9x9"]


def test_D1_unknown_variant_is_a_value_error_naming_it():
    with pytest.raises(ValueError) as exc:
        variants.get("knightmare-chess")
    assert "knightmare-chess" in str(exc.value) and "swapper-chess-10x8" in str(exc.value)


# ------------------------------------------------------------------ D2 pieces


@GAMES
@BOARDS
def test_D2_start_pieces_and_names(game, ranks):
    p = Position("start", variant=deckle_id(game, ranks))
    x = DECKLE_LETTER[game].upper()
    row = ["R", "N", x, "B", "Q", "K", "B", x, "N", "R"]
    for f, letter in zip("abcdefghij", row):
        assert p.piece_at(f"{f}1").letter == letter
        assert p.piece_at(f"{f}{ranks}").letter == letter.lower()
        assert p.piece_at(f"{f}2").letter == "P" and p.piece_at(f"{f}{ranks - 1}").letter == "p"
    assert p.piece_at("c1").name == PIECE_NAMES[game]
    assert p.piece_at("h1").name == PIECE_NAMES[game]
    chess = {"a1": "Rook", "b1": "Knight", "d1": "Bishop", "e1": "Queen", "f1": "King", "a2": "Pawn"}
    for sq, name in chess.items():
        assert p.piece_at(sq).name == name


@GAMES
def test_D2_chess_pieces_move_as_in_chess(game):
    # Qe4 on an empty board with Kings f1/f10: 8 directions.
    p = at(deck({"f1": "K", "f10": "k", "e4": "Q"}, game=game), game)
    # north 6, south 3, east 5, west 4, NE 5, NW 4, SE 3, SW 3
    assert len(moves_of(p, "e4")) == 33
    p = at(deck({"f1": "K", "f10": "k", "e4": "N"}, game=game), game)
    assert moves_of(p, "e4") == ["e4-c3", "e4-c5", "e4-d2", "e4-d6", "e4-f2", "e4-f6", "e4-g3", "e4-g5"]


# ------------------------------------------------------------------ D3 FEN


def test_D3_coordinator_start_after_e2_e5_lists_both_crossed_squares():
    p = Position("start", variant="coordinator-chess")
    p.push("e2-e5")
    assert p.fen() == "rncbqkbcnr/pppppppppp/10/10/10/4P5/10/10/PPPP1PPPPP/RNCBQKBCNR b KQkq e3,e4 0 1"


def test_D3_castling_fens_after_f1_i1_and_f1_c1():
    p = at("5k4/10/10/10/10/10/10/10/10/R4K3R w KQ - 0 1", "immobilizer")
    p.push("f1-i1")
    assert p.fen() == "5k4/10/10/10/10/10/10/10/10/R6RK1 b - - 1 1"
    p.pop()
    p.push("f1-c1")
    assert p.fen() == "5k4/10/10/10/10/10/10/10/10/2KR5R b - - 1 1"


def test_D3_swap_fen_shows_the_swap_back_ban():
    p = at("k9/10/10/10/1ppp6/1pS4s2/1ppp6/10/10/9K w - - 0 1 -", "swapper")
    p.push("c5<>h5")
    assert p.fen() == "k9/10/10/10/1ppp6/1ps4S2/1ppp6/10/10/9K b - - 1 1 c5<>h5"


def test_D3_mutual_destruction_fen():
    p = at("9k/10/10/10/10/10/7b2/2N1P4K/10/r3Sn4 w - - 0 1 -", "swapper")
    p.push("e1-Sxf1")
    assert p.fen() == "9k/10/10/10/10/10/7b2/2N1P4K/10/r9 b - - 0 1 -"


def test_D3_10x8_double_step_and_10x10_single_step_fens():
    p = Position("start", variant="coordinator-chess-10x8")
    p.push("e2-e4")
    assert p.fen() == "rncbqkbcnr/pppppppppp/10/10/4P5/10/PPPP1PPPPP/RNCBQKBCNR b KQkq e3 0 1"
    p.push("d7-d6")
    assert p.fen() == "rncbqkbcnr/ppp1pppppp/3p6/10/4P5/10/PPPP1PPPPP/RNCBQKBCNR w KQkq - 0 2"
    q = Position("start", variant="withdrawer-chess")
    q.push("e2-e3")
    assert q.fen() == "rnwbqkbwnr/pppppppppp/10/10/10/10/10/4P5/PPPP1PPPPP/RNWBQKBWNR b KQkq - 0 1"
    q.push("b10-c8")
    assert q.fen() == "r1wbqkbwnr/pppppppppp/2n7/10/10/10/10/4P5/PPPP1PPPPP/RNWBQKBWNR w KQkq - 1 2"


@GAMES
@BOARDS
def test_D3_fens_round_trip(game, ranks):
    for fen in (start_fen(game, ranks),
                deck({"f1": "K", "f10" if ranks == 10 else "f8": "k", "a1": "R"}, castling="Q",
                     half=37, full=90, game=game, ranks=ranks)):
        assert at(fen, game, ranks).fen() == fen


# ------------------------------------------------------------------ D4 movement in general


def test_D4_added_pieces_never_end_on_an_occupied_square():
    p = at(deck({"f1": "K", "f10": "k", "e4": "C", "e5": "p", "d4": "P"}), "coordinator")
    targets = {m.split("-")[1].split("x")[0] for m in moves_of(p, "e4")}
    assert "e5" not in targets and "d4" not in targets and "e6" not in targets
    assert "e3" in targets and "f5" in targets


@pytest.mark.parametrize("fen, game, square", [
    ("9k/10/10/10/3P1p4/3PWP4/4nP4/10/10/9K w - - 0 1", "withdrawer", "e5"),
    ("9k/10/10/2b7/5r4/10/10/1nAP6/1PPP6/9K w - - 0 1", "advancer", "c3"),
    ("9k/10/10/10/10/3PPP4/3nU2r2/3PPP4/10/K9 w - - 0 1", "pushme-pullyu", "e4"),
])
def test_D4_captures_are_automatic_one_move_per_destination(fen, game, square):
    p = at(fen, game)
    destinations = [m.split("x")[0] for m in moves_of(p, square)]
    assert len(destinations) == len(set(destinations))
    for m in moves_of(p, square):
        assert str(p.parse_move(m.split("x")[0])) == m


# ------------------------------------------------------------------ D5 attack, check


def test_D5_D8_R10_coordinator_gives_check_and_guards_squares():
    p = at("10/10/1k8/10/10/4C5/10/10/1K8/10 b - - 0 1", "coordinator")
    assert p.is_check()
    assert moves_of(p, "b8") == ["b8-a7", "b8-a8", "b8-a9", "b8-c7", "b8-c8", "b8-c9"]


def test_D5_D11_R16_advancer_attacks_at_a_distance_never_next_to_it():
    p = at("10/10/4k5/4A5/10/10/10/10/10/4K5 b - - 0 1", "advancer")
    assert moves_of(p, "e8") == ["e8-d7", "e8-d8", "e8-d9", "e8-e7xe7", "e8-f7", "e8-f8", "e8-f9"]
    assert not p.is_check()


def test_D5_D14_R21_swapper_attacks_its_neighbours():
    p = at("10/10/4k5/10/4S5/10/10/10/10/4K5 b - - 0 1 -", "swapper")
    assert moves_of(p, "e8") == ["e8-d8", "e8-d9", "e8-e9", "e8-f8", "e8-f9"]
    assert not p.is_check()


@pytest.mark.parametrize("game, pieces, expected", [
    ("withdrawer", {"e4": "K", "e5": "w"}, True),
    ("withdrawer", {"e4": "K", "e5": "w", "e6": "p"}, False),          # no room to withdraw
    ("advancer", {"e1": "K", "e5": "a"}, True),
    ("advancer", {"e1": "K", "e2": "a"}, False),                       # adjacent: never
    ("advancer", {"e1": "K", "e5": "a", "e3": "P"}, False),            # a piece between
    ("pushme-pullyu", {"e4": "K", "e5": "u"}, True),                   # by withdrawal
    ("pushme-pullyu", {"e1": "K", "e5": "u"}, True),                   # by approach
    ("pushme-pullyu", {"e4": "K", "e5": "u", "e6": "p"}, False),
    ("long-leaper", {"e2": "K", "e5": "l"}, True),
    ("long-leaper", {"e1": "K", "e5": "l"}, False),                    # no square beyond
    ("long-leaper", {"e2": "K", "e4": "P", "e6": "l"}, True),          # jumps e4, then e2
    ("long-leaper", {"e2": "K", "e4": "P", "e5": "l"}, True),          # starts next to e4: e3, then e1
    ("long-leaper", {"e2": "K", "e3": "P", "e6": "l"}, False),         # two in a row
    ("long-leaper", {"e2": "K", "e4": "p", "e6": "l"}, False),         # never jumps a friend
    ("coordinator", {"e2": "K", "a4": "k", "h1": "c"}, False),          # Ke2 on neither rank 4 nor file a
    ("coordinator", {"e2": "K", "a2": "k", "h1": "c"}, True),           # h1-e1: corner (e-file, rank 2)
    ("mimotaur", {"e1": "K", "e2": "m"}, True),
    ("mimotaur", {"e1": "K", "e3": "m"}, False),
    ("swapper", {"e1": "K", "e2": "s"}, True),
    ("swapper", {"e1": "K", "e3": "s"}, False),                        # a swap attacks nothing
    ("immobilizer", {"e1": "K", "e2": "i"}, False),                    # frozen is not check
])
def test_D5_attack_by_each_added_piece(game, pieces, expected):
    pieces = dict(pieces)
    if "k" not in pieces.values():
        pieces["j10"] = "k"
    p = at(deck(pieces, game=game), game)
    assert p.is_check() == expected


def test_D5_a_frozen_king_that_is_attacked_is_in_check_and_can_be_mated():
    # R12: ie2 freezes Ke1, the rook a1 attacks it.
    p = at("9k/10/10/10/10/10/10/3N6/4i5/r3K5 w - - 0 1", "immobilizer")
    assert p.is_check()


# ------------------------------------------------------------------ D6 castling


R1_CASTLE = "5k4/10/10/10/10/10/10/10/10/R4K3R w KQ - 0 1"


def test_D6_R1_castling_both_ways():
    check_piece_moves(R1_CASTLE, "immobilizer", "f1",
                      ["f1-c1", "f1-e1", "f1-e2", "f1-f2", "f1-g1", "f1-g2", "f1-i1"])


def test_D6_R2_king_may_not_cross_or_land_on_an_attacked_square():
    check_piece_moves("5k1r2/9b/10/10/10/10/10/10/10/R4K3R w KQ - 0 1", "immobilizer", "f1",
                      ["f1-c1", "f1-e1", "f1-e2", "f1-f2", "f1-g1", "f1-g2"])


def test_D6_D9_R3_a_frozen_rook_cannot_castle():
    check_piece_moves("5k4/10/10/10/10/10/10/10/9i/R4K3R w KQ - 0 1", "immobilizer", "f1",
                      ["f1-c1", "f1-e1", "f1-e2", "f1-f2", "f1-g1", "f1-g2"])


def test_D6_R4_black_castles_on_10x8():
    check_piece_moves("r4k3r/10/10/10/10/10/10/5K4 b kq - 0 1", "coordinator", "f8",
                      ["f8-c8", "f8-e7", "f8-e8", "f8-f7", "f8-g7", "f8-g8", "f8-i8"], ranks=8)


def test_D6_castling_moves_the_rook_and_is_a_castle():
    p = at(R1_CASTLE, "immobilizer")
    move = p.parse_move("f1-i1")
    assert move.kind == "castle" and move.captures == ()
    p.push(move)
    assert p.piece_at("h1").letter == "R" and p.piece_at("j1") is None and p.piece_at("i1").letter == "K"


def test_D6_no_castling_out_of_check_or_without_the_right():
    # Black rook f5 checks Kf1.
    p = at(deck({"a1": "R", "f1": "K", "j1": "R", "f10": "k", "f5": "r"}, castling="KQ"), "immobilizer")
    assert p.is_check()
    assert not any(m in ("f1-i1", "f1-c1") for m in moves_of(p, "f1"))
    q = at(deck({"a1": "R", "f1": "K", "j1": "R", "f10": "k"}, castling="K"), "immobilizer")
    assert "f1-i1" in moves_of(q, "f1") and "f1-c1" not in moves_of(q, "f1")
    r = at(deck({"a1": "R", "f1": "K", "j1": "R", "f10": "k", "c1": "N"}, castling="KQ"), "immobilizer")
    assert "f1-c1" not in moves_of(r, "f1")      # b c d e must be empty


def test_D6_rights_lost_when_king_or_rook_leaves():
    p = at(R1_CASTLE, "immobilizer")
    p.push("f1-f2")
    assert p.fen() == "5k4/10/10/10/10/10/10/10/5K4/R8R b - - 1 1"
    p.pop()
    p.push("a1-a2")
    assert p.fen() == "5k4/10/10/10/10/10/10/10/R9/5K3R b K - 1 1"


def test_D6_rights_lost_when_a_rook_is_captured_on_its_home_square():
    fen = deck({"a1": "R", "f1": "K", "j1": "R", "a10": "r", "f10": "k", "j10": "r"}, castling="KQkq")
    p = at(fen, "coordinator")
    p.push("a1-a10")
    assert p.fen() == deck({"a10": "R", "f1": "K", "j1": "R", "f10": "k", "j10": "r"},
                           turn="b", castling="Kk")


def test_D6_rights_lost_when_a_rook_is_withdrawn_from_its_home_square():
    fen = deck({"a1": "R", "f1": "K", "j1": "R", "i2": "w", "f10": "k"}, turn="b", castling="KQ", game="withdrawer")
    p = at(fen, "withdrawer")
    p.push("i2-h3")
    assert p.fen() == deck({"a1": "R", "f1": "K", "h3": "w", "f10": "k"}, turn="w", castling="Q", full=2,
                           game="withdrawer")


def test_D6_D14_rights_lost_when_a_rook_is_swapped_off_its_home_square():
    fen = deck({"a1": "R", "f1": "K", "j1": "R", "a5": "S", "f10": "k"}, castling="KQ", game="swapper")
    p = at(fen, "swapper")
    p.push("a5<>a1")
    assert p.fen() == deck({"a1": "S", "a5": "R", "f1": "K", "j1": "R", "f10": "k"}, turn="b",
                           castling="K", half=1, game="swapper")


def test_D6_D8_castling_and_king_steps_never_coordinate():
    fen = deck({"a1": "R", "f1": "K", "j1": "R", "b10": "k", "d5": "C", "i5": "p", "g5": "p"}, castling="KQ")
    p = at(fen, "coordinator")
    ms = moves_of(p, "f1")
    assert "f1-i1" in ms and "f1-g2" in ms
    p.push("f1-i1")
    assert p.piece_at("i5").letter == "p"


# ------------------------------------------------------------------ D7 pawns


def test_D7_R5_pawn_steps_and_captures_blocked_triple_step():
    check_piece_moves("5k4/10/10/10/10/4r5/10/3n6/4P5/5K4 w - - 0 1", "long-leaper", "e2",
                      ["e2-d3xd3", "e2-e3", "e2-e4"])


R6_EP = "5k4/10/10/10/10/4Pp4/3p6/10/10/5K4 b - e3,e4 0 1"


def test_D7_R6_en_passant_on_either_crossed_square():
    p = at(R6_EP, "long-leaper")
    assert moves_of(p, "d4") == ["d4-d3", "d4-e3xe5"]
    assert moves_of(p, "f5") == ["f5-e4xe5", "f5-f4"]
    move = p.parse_move("d4-e3")
    assert move.kind == "en passant" and str(move) == "d4-e3xe5"
    p.push(move)
    assert p.fen() == "5k4/10/10/10/10/5p4/10/4p5/10/5K4 w - - 0 2"


def test_D7_en_passant_only_on_the_next_move():
    p = at(R6_EP, "long-leaper")
    p.push("f10-f9")
    p.push("f1-e1")
    assert moves_of(p, "d4") == ["d4-d3"]
    assert moves_of(p, "f5") == ["f5-f4"]


def test_D7_R7_promotion_choices_10x10():
    check_piece_moves("3r1k4/2P7/10/10/10/10/10/10/10/5K4 w - - 0 1", "withdrawer", "c9",
                      ["c9-c10=B", "c9-c10=N", "c9-c10=Q", "c9-c10=R", "c9-c10=W", "c9-d10xd10=B",
                       "c9-d10xd10=N", "c9-d10xd10=Q", "c9-d10xd10=R", "c9-d10xd10=W"])


def test_D7_R8_promotion_choices_10x8():
    check_piece_moves("3r1k4/2P7/10/10/10/10/10/5K4 w - - 0 1", "long-leaper", "c7",
                      ["c7-c8=B", "c7-c8=L", "c7-c8=N", "c7-c8=Q", "c7-c8=R", "c7-d8xd8=B", "c7-d8xd8=L",
                       "c7-d8xd8=N", "c7-d8xd8=Q", "c7-d8xd8=R"], ranks=8)


def test_D7_promotion_fen_and_move_fields():
    p = at("3r1k4/2P7/10/10/10/10/10/10/10/5K4 w - - 0 1", "withdrawer")
    move = p.parse_move("c9-d10xd10=W")
    assert move.promotion == "W"
    p.push(move)
    assert p.fen() == "3W1k4/10/10/10/10/10/10/10/10/5K4 b - - 0 1"
    p.pop()
    for bad in ("c9-c10=K", "c9-c10=P", "c9-c10=C", "c9-c10"):
        with pytest.raises(MoveError):
            p.parse_move(bad)


@pytest.mark.parametrize("ranks, pawn, expected", [
    (10, "e9", ["e9-e6", "e9-e7", "e9-e8"]),
    (8, "e7", ["e7-e5", "e7-e6"]),
])
def test_D7_black_initial_advance_depends_on_the_board(ranks, pawn, expected):
    top = "f10" if ranks == 10 else "f8"
    p = at(deck({"f1": "K", top: "k", pawn: "p"}, turn="b", ranks=ranks), "coordinator", ranks)
    assert moves_of(p, pawn) == expected


def test_D7_initial_advance_crosses_and_reaches_empty_squares_only():
    p = at(deck({"f1": "K", "f10": "k", "b2": "P", "b3": "p"}), "coordinator")
    assert moves_of(p, "b2") == []                       # blocked: no jumping
    q = at(deck({"f1": "K", "f10": "k", "c2": "P", "c5": "p"}), "coordinator")
    assert moves_of(q, "c2") == ["c2-c3", "c2-c4"]


# ------------------------------------------------------------------ D8 Coordinator


def test_D8_R9_coordinator():
    check_piece_moves("9k/PPP7/PCP7/bP8/10/10/10/K1n7/10/10 w - - 0 1", "coordinator", "b8",
                      ["b8-c7xc3,a7", "b8-d6", "b8-e5", "b8-f4", "b8-g3", "b8-h2", "b8-i1"])


# ------------------------------------------------------------------ D9 Immobilizer


def test_D9_R11_frozen_knight_may_suicide_frozen_king_has_no_move():
    p = at("9k/10/10/10/10/10/10/3N6/4i2P2/4K5 w - - 0 1", "immobilizer")
    assert not p.is_check()
    assert moves_of(p, "d3") == ["d3-S"]
    assert moves_of(p, "e1") == []
    names = [variants.get("immobilizer-chess").geometry.name(s) for s in p.immobilized()]
    assert names == ["e1", "d3"]


def test_D9_D16_R12_suicide_would_not_help_checkmate():
    p = at("9k/10/10/10/10/10/10/3N6/4i5/r3K5 w - - 0 1", "immobilizer")
    assert moves_of(p, "d3") == []
    assert legal(p) == []
    outcome = p.outcome()
    assert (outcome.result, outcome.reason, outcome.winner) == ("0-1", "checkmate", BLACK)


def test_D5_D9_R13_frozen_queen_gives_no_check():
    p = at("9k/qI8/10/10/10/10/10/10/10/K9 w - - 0 1", "immobilizer")
    assert not p.is_check()
    assert moves_of(p, "b9") == ["b9-a10", "b9-a8", "b9-b10", "b9-b8"]


def test_D9_kings_and_pawns_never_capture_an_immobilizer_others_do():
    # ie2 freezes Kf1 and Rd1: the King cannot take it.
    p = at(deck({"f1": "K", "f10": "k", "e2": "i", "d1": "R"}), "immobilizer")
    assert moves_of(p, "f1") == [] and moves_of(p, "d1") == ["d1-S"]
    q = at(deck({"f1": "K", "f10": "k", "e5": "i", "d4": "P", "e9": "R"}), "immobilizer")
    assert moves_of(q, "d4") == ["d4-S"]               # frozen: no capture e5
    assert "e9-e5xe5" in moves_of(q, "e9")              # a rook from afar takes it


def test_D9_passing_next_to_an_immobilizer_does_not_stop_a_slide():
    p = at(deck({"f1": "K", "f10": "k", "a3": "R", "e4": "i"}), "immobilizer")
    assert {"a3-d3", "a3-e3", "a3-f3", "a3-j3"} <= set(moves_of(p, "a3"))


def test_D9_a_frozen_pawn_does_not_promote():
    p = at(deck({"f1": "K", "f10": "k", "c9": "P", "b10": "i"}), "immobilizer")
    assert moves_of(p, "c9") == ["c9-S"]


# ------------------------------------------------------------------ D10 Withdrawer


def test_D10_R14_withdrawer():
    check_piece_moves("9k/10/10/10/3P1p4/3PWP4/4nP4/10/10/9K w - - 0 1", "withdrawer", "e5",
                      ["e5-a1xf6", "e5-b2xf6", "e5-c3xf6", "e5-d4xf6", "e5-e10xe4", "e5-e6xe4", "e5-e7xe4",
                       "e5-e8xe4", "e5-e9xe4"])


# ------------------------------------------------------------------ D11 Advancer


def test_D11_R15_advancer():
    check_piece_moves("9k/10/10/2b7/5r4/10/10/1nAP6/1PPP6/9K w - - 0 1", "advancer", "c3",
                      ["c3-a5", "c3-b4", "c3-c4", "c3-c5", "c3-c6xc7", "c3-d4", "c3-e5xf6"])


# ------------------------------------------------------------------ D12 Pushme-Pullyu


def test_D12_R17_pushme_pullyu_withdraws_and_approaches():
    check_piece_moves("9k/10/10/10/10/3PPP4/3nU2r2/3PPP4/10/K9 w - - 0 1", "pushme-pullyu", "e4",
                      ["e4-f4xd4", "e4-g4xd4,h4"])


# ------------------------------------------------------------------ D13 Long Leaper


def test_D13_R18_long_leaper():
    check_piece_moves("9k/10/10/10/10/4r5/1p1b6/1p8/1L1p1n2P1/2n6K w - - 0 1", "long-leaper", "b2",
                      ["b2-a1", "b2-a2", "b2-a3", "b2-b1", "b2-c2", "b2-c3", "b2-e2xd2", "b2-g2xd2,f2",
                       "b2-h2xd2,f2"])


# ------------------------------------------------------------------ D14 Swapper


R19 = "9k/10/10/10/10/10/7b2/2N1P4K/10/r3Sn4 w - - 0 1 -"


def test_D14_R19_swapper_slides_swaps_and_destroys():
    check_piece_moves(R19, "swapper", "e1",
                      ["e1-Sxf1", "e1-b1", "e1-c1", "e1-d1", "e1-d2", "e1-e2", "e1-f2", "e1-g3", "e1<>a1",
                       "e1<>c3", "e1<>f1", "e1<>h4"])


def test_D14_R20_no_swap_back():
    check_piece_moves("k9/10/10/10/1ppp6/1ps4S2/1ppp6/10/10/9K b - - 0 1 c5<>h5", "swapper", "c5",
                      ["c5-d5", "c5-e5", "c5-f5", "c5-g5", "c5<>b4", "c5<>b5", "c5<>b6", "c5<>c4",
                       "c5<>c6", "c5<>d4", "c5<>d6"])


def test_D14_swap_back_ban_lasts_one_move_and_only_after_a_swapper_swap():
    p = at("k9/10/10/10/1ppp6/1pS4s2/1ppp6/10/10/9K w - - 0 1 -", "swapper")
    assert "c5<>h5" in moves_of(p, "c5")
    p.push("c5<>h5")
    assert "c5<>h5" not in moves_of(p, "c5")
    p.push("a10-a9")
    p.push("j1-j2")
    assert "c5<>h5" in moves_of(p, "c5")
    assert p.fen().endswith(" -")


def test_D14_move_kinds_and_notation():
    p = at(R19, "swapper")
    assert p.parse_move("e1<>a1").kind == "swap"
    destruction = p.parse_move("e1-Sxf1")
    assert destruction.kind == "destruction" and destruction.to_square is None
    assert [variants.get("swapper-chess").geometry.name(s) for s in destruction.captures] == ["f1"]


def test_D14_no_swap_with_a_friendly_swapper_and_no_destruction_of_a_friend():
    p = at(deck({"f1": "K", "f10": "k", "e4": "S", "e6": "S", "d4": "P"}, game="swapper"), "swapper")
    ms = moves_of(p, "e4")
    assert "e4<>e6" not in ms
    assert "e4<>d4" in ms
    assert not any("-S" in m for m in ms)


def test_D14_no_swap_puts_a_pawn_on_rank_1_or_the_last_rank():
    p = at(deck({"f2": "K", "j5": "k", "e1": "S", "e5": "P", "c10": "S", "c6": "p"}, game="swapper"), "swapper")
    assert "e1<>e5" not in moves_of(p, "e1")          # White Pawn to rank 1
    assert "e1-e4" in moves_of(p, "e1")
    assert "c10<>c6" not in moves_of(p, "c10")        # Black Pawn to rank 10
    q = at(deck({"f2": "K", "j5": "k", "e10": "S", "e5": "P"}, game="swapper"), "swapper")
    assert "e10<>e5" not in moves_of(q, "e10")        # White Pawn to rank 10
    r = at(deck({"f2": "K", "j5": "k", "e9": "S", "e5": "P"}, game="swapper"), "swapper")
    assert "e9<>e5" in moves_of(r, "e9")              # next-to-last rank is fine


def test_D14_a_swap_never_promotes_nor_makes_en_passant_and_a_pawn_swapped_home_may_advance():
    p = at(deck({"f1": "K", "f10": "k", "e2": "S", "e6": "P", "d5": "p"}, game="swapper"), "swapper")
    p.push("e2<>e6")
    assert p.fen() == deck({"f1": "K", "f10": "k", "e6": "S", "e2": "P", "d5": "p"}, turn="b", half=1,
                           game="swapper")
    assert moves_of(p, "d5") == ["d5-d4"]                 # no en passant
    p.push("f10-f9")
    assert moves_of(p, "e2") == ["e2-e3", "e2-e4", "e2-e5"]


def test_D14_swaps_with_either_king():
    p = at(deck({"e1": "K", "e4": "S", "e8": "k"}, game="swapper"), "swapper")
    ms = moves_of(p, "e4")
    assert "e4<>e8" in ms and "e4<>e1" in ms
    p.push("e4<>e8")
    assert p.piece_at("e4").letter == "k" and p.piece_at("e8").letter == "S"


# ------------------------------------------------------------------ D15 Mimotaur


def test_D15_R22_mimotaur_captures_the_way_its_victim_does():
    check_piece_moves("9k/10/10/6b3/3bn5/2p7/1n1M2r3/4p5/1m1q6/9K w - - 0 1", "mimotaur", "d4",
                      ["d4-c3", "d4-c4", "d4-c5xc5", "d4-d2xd2", "d4-d3", "d4-d5", "d4-e4", "d4-e5",
                       "d4-e6xe6", "d4-f4", "d4-f6", "d4-g4xg4", "d4-g7xg7"])


def test_D15_mimotaur_never_takes_en_passant():
    p = at(deck({"f1": "K", "f10": "k", "d6": "M", "e6": "p"}, ep="e7,e8", game="mimotaur"), "mimotaur")
    ms = moves_of(p, "d6")
    assert "d6-e7" in ms and not any(m.startswith("d6-e7x") for m in ms)


# ------------------------------------------------------------------ D16 end of the game


def test_D16_checkmate_white_wins():
    p = at("k9/1Q8/2K7/10/10/10/10/10/10/10 b - - 0 1", "coordinator")
    assert p.is_check() and legal(p) == []
    outcome = p.outcome()
    assert (outcome.result, outcome.reason, outcome.winner) == ("1-0", "checkmate", WHITE)


def test_D16_stalemate_is_a_draw():
    p = at("k9/2Q7/10/10/10/10/10/10/10/5K4 b - - 0 1", "coordinator")
    assert not p.is_check() and legal(p) == []
    outcome = p.outcome()
    assert (outcome.result, outcome.reason, outcome.winner) == ("1/2-1/2", "stalemate", None)


def test_D16_two_bare_kings_is_insufficient_material():
    p = at(deck({"f1": "K", "f10": "k"}), "coordinator")
    outcome = p.outcome()
    assert (outcome.result, outcome.reason) == ("1/2-1/2", "insufficient material")
    assert at(deck({"f1": "K", "f10": "k", "a2": "P"}), "coordinator").outcome() is None


def test_D16_insufficient_material_after_a_capture():
    p = at(deck({"f1": "K", "f10": "k", "f2": "q"}, turn="w"), "coordinator")
    p.push("f1-f2")
    assert p.outcome().reason == "insufficient material"


def test_D16_fifty_moves_after_a_move_and_on_a_loaded_fen():
    p = at(deck({"f1": "K", "f10": "k", "a1": "R"}, half=99, full=80), "coordinator")
    assert p.outcome() is None
    p.push("a1-a2")
    assert p.fen().split()[4] == "100"
    outcome = p.outcome()
    assert (outcome.result, outcome.reason) == ("1/2-1/2", "fifty moves")
    q = at(deck({"f1": "K", "f10": "k", "a1": "R"}, half=100, full=80), "coordinator")
    assert q.outcome().reason == "fifty moves"


def test_D16_order_checkmate_before_fifty_moves_and_bare_kings_before_fifty_moves():
    p = at("k9/1Q8/2K7/10/10/10/10/10/10/10 b - - 100 90", "coordinator")
    assert p.outcome().reason == "checkmate"
    q = at(deck({"f1": "K", "f10": "k"}, half=120), "coordinator")
    assert q.outcome().reason == "insufficient material"


def test_D16_clock_resets_on_pawn_moves_captures_suicide_and_destruction_counts_swaps():
    p = at(deck({"f1": "K", "f10": "k", "a2": "P", "b1": "N"}, half=7), "coordinator")
    p.push("a2-a3")
    assert p.fen().split()[4] == "0"
    p.push("f10-f9")
    assert p.fen().split()[4] == "1"
    q = at("9k/10/10/10/10/10/10/3N6/4i2P2/4K5 w - - 5 1", "immobilizer")
    q.push("d3-S")
    assert q.fen() == "9k/10/10/10/10/10/10/10/4i2P2/4K5 b - - 0 1"
    r = at(R19.replace(" 0 1 -", " 9 1 -"), "swapper")
    r.push("e1<>c3")
    assert r.fen().split()[4] == "10"
    r.pop()
    r.push("e1-Sxf1")
    assert r.fen().split()[4] == "0"


def test_D16_threefold_repetition_ignores_an_en_passant_field_no_move_depends_on():
    p = at(deck({"f1": "K", "b1": "N", "e2": "P", "f10": "k", "b10": "n"}), "coordinator")
    p.push("e2-e5")
    assert " e3,e4 " in p.fen()
    p.push("b10-c8")
    p.push("b1-c3")
    p.push("c8-b10")
    p.push("c3-b1")       # the position after e2-e5 again, now written with "-"
    assert p.outcome() is None
    _knight_cycle_black_first(p)
    outcome = p.outcome()
    assert outcome is not None and (outcome.result, outcome.reason) == ("1/2-1/2", "repetition")


def _knight_cycle_black_first(p):
    for m in ("b10-c8", "b1-c3", "c8-b10", "c3-b1"):
        p.push(m)


def test_D16_repetition_counts_an_en_passant_field_a_move_depends_on():
    # Black Pawn d5 can take en passant on e4: the first position differs.
    p = at(deck({"f1": "K", "b1": "N", "e2": "P", "f10": "k", "b10": "n", "d5": "p"}), "coordinator")
    p.push("e2-e5")
    assert "d5-e4xe5" in legal(p)
    _knight_cycle_black_first(p)
    _knight_cycle_black_first(p)
    assert p.outcome() is None               # only the second time without the en-passant right
    _knight_cycle_black_first(p)
    assert p.outcome().reason == "repetition"


def test_D16_repetition_counts_a_swap_back_ban_a_move_depends_on():
    p = at(deck({"j1": "K", "b1": "N", "c5": "S", "h5": "s", "a10": "k", "b10": "n"}, game="swapper"), "swapper")
    p.push("c5<>h5")
    assert p.fen().endswith(" c5<>h5")          # Black's c5<>h5 would be legal without the ban
    for _ in range(2):
        _knight_cycle_black_first(p)
    assert p.fen().endswith(" -")
    assert p.outcome() is None                  # the ban-free position stands only twice
    _knight_cycle_black_first(p)
    assert p.outcome().reason == "repetition"


def test_D16_repetition_is_not_judged_on_a_loaded_fen():
    p = at(deck({"f1": "K", "b1": "N", "f10": "k", "b10": "n"}), "coordinator")
    assert p.outcome() is None and p.repetitions() == 1


# ------------------------------------------------------------------ D17 notation


def test_D17_move_lists_sort_in_byte_order_and_kinds():
    for fen, game in ((R19, "swapper"), (R6_EP, "long-leaper"), (R1_CASTLE, "immobilizer"),
                      ("3r1k4/2P7/10/10/10/10/10/10/10/5K4 w - - 0 1", "withdrawer")):
        ms = legal(at(fen, game))
        assert ms == sorted(ms, key=lambda s: s.encode())
    p = at(R1_CASTLE, "immobilizer")
    assert p.parse_move("f1-g1").kind == "move"
    q = at("5k4/10/10/10/10/10/10/3n6/4P5/5K4 w - - 0 1", "coordinator")
    assert q.parse_move("e2-d3").kind == "replacement"
    assert str(q.parse_move("e2-d3")) == "e2-d3xd3"
    r = at("9k/10/10/10/10/10/10/3N6/4i2P2/4K5 w - - 0 1", "immobilizer")
    assert r.parse_move("d3-S").kind == "suicide" and r.parse_move("d3-S").to_square is None


def test_D17_ten_file_square_names():
    p = at(deck({"j10": "k", "a1": "K", "j2": "P"}), "coordinator")
    assert p.piece_at("j10").letter == "k"
    assert moves_of(p, "j2") == ["j2-j3", "j2-j4", "j2-j5"]


# ------------------------------------------------------------------ D18 valid positions


BASE = "5k4/10/10/10/10/10/10/10/10/R4K3R w KQ - 0 1"
D18_BAD = {
    "five fields": ("coordinator", "5k4/10/10/10/10/10/10/10/10/R4K3R w KQ - 0"),
    "seven fields outside Swapper Chess": ("coordinator", BASE + " -"),
    "Swapper Chess without its seventh field": ("swapper", BASE),
    "nine rows": ("coordinator", "5k4/10/10/10/10/10/10/10/R4K3R w KQ - 0 1"),
    "eleven rows": ("coordinator", "5k4/10/10/10/10/10/10/10/10/10/R4K3R w KQ - 0 1"),
    "row of nine files": ("coordinator", "5k3/10/10/10/10/10/10/10/10/R4K3R w KQ - 0 1"),
    "row of eleven files": ("coordinator", "5k5/10/10/10/10/10/10/10/10/R4K3R w KQ - 0 1"),
    "unknown letter": ("coordinator", "5k3x/10/10/10/10/10/10/10/10/R4K3R w KQ - 0 1"),
    "letter of another game": ("coordinator", "5k3w/10/10/10/10/10/10/10/10/R4K3R w KQ - 0 1"),
    "letter of another game (Swapper)": ("swapper", "5k3c/10/10/10/10/10/10/10/10/R4K3R w KQ - 0 1 -"),
    "Ultima letter": ("coordinator", "5k3h/10/10/10/10/10/10/10/10/R4K3R w KQ - 0 1"),
    "no white King": ("coordinator", "5k4/10/10/10/10/10/10/10/10/R8R w - - 0 1"),
    "two white Kings": ("coordinator", "5k4/10/10/10/10/10/10/10/10/RK3K3R w - - 0 1"),
    "two black Kings": ("coordinator", "k4k4/10/10/10/10/10/10/10/10/R4K3R w KQ - 0 1"),
    "white Pawn on rank 1": ("coordinator", "5k4/10/10/10/10/10/10/10/10/R4K2PR w - - 0 1"),
    "black Pawn on rank 1": ("coordinator", "5k4/10/10/10/10/10/10/10/10/R4K2pR w - - 0 1"),
    "white Pawn on the last rank": ("coordinator", "5k3P/10/10/10/10/10/10/10/10/R4K3R w KQ - 0 1"),
    "black Pawn on the last rank (10x8)": ("coordinator-10x8", "5k3p/10/10/10/10/10/10/R4K3R w KQ - 0 1"),
    "castling out of order": ("coordinator", "5k4/10/10/10/10/10/10/10/10/R4K3R w QK - 0 1"),
    "castling repeated": ("coordinator", "5k4/10/10/10/10/10/10/10/10/R4K3R w KK - 0 1"),
    "castling letter": ("coordinator", "5k4/10/10/10/10/10/10/10/10/R4K3R w x - 0 1"),
    "castling empty dash mix": ("coordinator", "5k4/10/10/10/10/10/10/10/10/R4K3R w K- - 0 1"),
    "castling without the j Rook": ("coordinator", "5k4/10/10/10/10/10/10/10/10/R4K4 w KQ - 0 1"),
    "castling without the King at home": ("coordinator", "5k4/10/10/10/10/10/10/10/10/R3K4R w KQ - 0 1"),
    "black castling without the a Rook": ("coordinator", "5k3r/10/10/10/10/10/10/10/10/R4K3R w KQkq - 0 1"),
    "en passant malformed": ("coordinator", "5k4/10/10/10/10/10/4p5/10/10/4K5 w - e9x 0 1"),
    "en passant square off the board": ("coordinator", "5k4/10/10/10/10/10/10/10/10/4K5 w - k8 0 1"),
    "en passant wrong rank": ("coordinator", "5k4/10/10/10/10/4p5/10/10/10/4K5 w - e7 0 1"),
    "en passant not consecutive": ("coordinator", "5k4/10/10/10/10/4p5/10/10/10/4K5 w - e6,e8 0 1"),
    "en passant high rank first": ("coordinator", "5k4/10/10/10/4p5/10/10/10/10/4K5 w - e8,e7 0 1"),
    "en passant three squares": ("coordinator", "5k4/10/10/10/4P5/10/10/10/10/4K5 b - e3,e4,e5 0 1"),
    "en passant two squares on 10x8": ("coordinator-10x8", "5k4/10/10/4P5/10/10/10/4K5 b - e3,e4 0 1"),
    "en passant square occupied": ("coordinator", "5k4/10/10/10/10/4P5/10/4N5/10/4K5 b - e3,e4 0 1"),
    "en passant not followed by a Pawn": ("coordinator", "5k4/10/10/10/10/10/10/10/10/4K5 b - e3,e4 0 1"),
    "en passant second rank occupied": ("coordinator", "5k4/10/10/10/10/4P5/10/10/4P5/4K5 b - e3,e4 0 1"),
    "en passant for the side to move": ("coordinator", "5k4/10/10/10/10/4P5/10/10/10/4K5 w - e3,e4 0 1"),
    "en passant on two files": ("coordinator", "5k4/10/10/10/10/4P5/10/10/10/4K5 b - e3,f4 0 1"),
    "half-move clock negative": ("coordinator", "5k4/10/10/10/10/10/10/10/10/R4K3R w KQ - -1 1"),
    "half-move clock not a number": ("coordinator", "5k4/10/10/10/10/10/10/10/10/R4K3R w KQ - x 1"),
    "full-move number zero": ("coordinator", "5k4/10/10/10/10/10/10/10/10/R4K3R w KQ - 0 0"),
    "full-move number not a number": ("coordinator", "5k4/10/10/10/10/10/10/10/10/R4K3R w KQ - 0 one"),
    "side to move": ("coordinator", "5k4/10/10/10/10/10/10/10/10/R4K3R x KQ - 0 1"),
    "swap-back field malformed": ("swapper", "k9/10/10/10/1ppp6/1ps4S2/1ppp6/10/10/9K b - - 1 1 c5-h5"),
    "swap-back field reversed": ("swapper", "k9/10/10/10/1ppp6/1ps4S2/1ppp6/10/10/9K b - - 1 1 h5<>c5"),
    "swap-back field with a piece between": (
        "swapper", "k9/10/10/10/1ppp6/1ps1N2S2/1ppp6/10/10/9K b - - 1 1 c5<>h5"),
    "swap-back field without Swappers": ("swapper", "k9/10/10/10/1ppp6/1pn4S2/1ppp6/10/10/9K b - - 1 1 c5<>h5"),
    "side not to move in check": ("coordinator", "5k4/10/10/10/10/5R4/10/10/10/4K5 w - - 0 1"),
}


def _variant(key: str) -> str:
    """"coordinator" -> coordinator-chess, "coordinator-10x8" -> coordinator-chess-10x8."""
    return deckle_id(key.removesuffix("-10x8"), 8 if key.endswith("-10x8") else 10)


@pytest.mark.parametrize("fault", sorted(D18_BAD))
def test_D18_invalid_fen_is_rejected(fault):
    key, fen = D18_BAD[fault]
    with pytest.raises(FenError) as exc:
        Position(fen, variant=_variant(key))
    assert str(exc.value)


@pytest.mark.parametrize("key, fen", [
    ("coordinator", BASE),
    ("coordinator", "5k4/10/10/10/10/10/10/10/10/R4K3R w - - 0 1"),
    ("coordinator", "5k4/10/10/10/10/4P5/10/10/10/4K5 b - e3,e4 0 1"),
    ("coordinator", "5k4/10/10/10/10/10/4P5/10/10/4K5 b - e3 0 1"),
    ("coordinator", "5k4/10/10/10/4p5/10/10/10/10/4K5 w - e7,e8 0 1"),
    ("coordinator-10x8", "5k4/10/10/10/4P5/10/10/4K5 b - e3 0 1"),
    ("coordinator-10x8", "5k4/10/10/4p5/10/10/10/4K5 w - e6 0 1"),
    ("swapper", "k9/10/10/10/1ppp6/1ps4S2/1ppp6/10/10/9K b - - 1 1 c5<>h5"),
    ("coordinator", "5k4/10/10/10/10/5R4/10/10/10/4K5 b - - 0 1"),
])
def test_D18_valid_fens_are_accepted_and_round_trip(key, fen):
    assert Position(fen, variant=_variant(key)).fen() == fen


# ------------------------------------------------------------------ reference counts


PERFT = {  # deckle.md, Reference counts: (10x10, 10x8) for depths 1, 2, 3
    "coordinator": ((34, 1156, 43344), (24, 576, 15994)),
    "immobilizer": ((34, 1156, 43344), (24, 576, 15994)),
    "withdrawer": ((34, 1156, 43344), (24, 576, 15994)),
    "long-leaper": ((34, 1156, 43362), (24, 576, 15998)),
    "advancer": ((34, 1156, 43344), (24, 576, 15994)),
    "swapper": ((38, 1444, 59398), (28, 784, 24498)),
    "pushme-pullyu": ((34, 1156, 43344), (24, 576, 15994)),
    "mimotaur": ((34, 1156, 43344), (24, 576, 15994)),
}


@GAMES
@BOARDS
@pytest.mark.parametrize("depth", [1, 2])
def test_D1_D7_perft_from_the_start_shallow(game, ranks, depth):
    expected = PERFT[game][0 if ranks == 10 else 1][depth - 1]
    assert Position("start", variant=deckle_id(game, ranks)).perft(depth) == expected
