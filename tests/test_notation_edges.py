"""FEN and move notation edges that mutation testing found untested
(issue 35): every error a user reads is checked word for word (M14 for the
Maxima and Ultima FEN, D3/D7/D18 for Deckle's, U13/D17 for moves), Deckle's
castling field for each side alone, multi-digit runs, and the move kinds
a parsed move carries."""
from __future__ import annotations

import itertools

import pytest

from maxima_board.rules import Position, variants
from maxima_board.rules.notation import FenError, Move, MoveError, parse_fen, parse_move
from maxima_board.rules.move_forms import UNITS as OPTIMA

W = "rnwbqkbwnr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RNWBQKBWNR"
S = "rnsbqkbsnr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RNSBQKBSNR"
M = "xxx2xxx/1g1qk1g1/1bnmrnb1/dppppppd/8/8/8/DPPPPPPD/1BNMRNB1/1G1QK1G1/xxx2xxx"


def maxima_row6(row: str) -> str:
    return M.replace("/8/8/8/", f"/{row}/8/8/") + " w 0"


def withdrawer_rows(rank9to2: str, rest: str = " w KQkq - 0 1") -> str:
    return W.replace("/10/10/10/10/10/10/", f"/{rank9to2}/") + rest


ERRORS = [
    # M14: three fields, one digit per run, the side to move, a counter without leading zeros
    ("maxima", M + " w", "FEN needs 3 fields (rows, side to move, half-moves), got 2"),
    ("maxima", maxima_row6("44"), "two digits in a row in rank 6: '44'"),
    ("maxima", maxima_row6("10"), "two digits in a row in rank 6: '10'"),
    ("maxima", maxima_row6("9"), "row for rank 6 is too long: '9'"),
    ("maxima", maxima_row6("8p"), "row for rank 6 is too long: '8p'"),
    ("maxima", maxima_row6("08"), "empty run of 0 in rank 6: '08'"),
    ("maxima", maxima_row6("7s"), "unknown letter 's' in rank 6: '7s'"),
    ("maxima", maxima_row6("7?"), "unknown letter '?' in rank 6: '7?'"),
    ("maxima", M + " x 0", "side to move must be 'w' or 'b', got 'x'"),
    ("maxima", M + " w 01", "half-move number must be a whole number from 0 to 1000000 "
                            "(digits 0-9, no leading zero), got '01'"),
    ("maxima", M + " w " + "1" * 24, "half-move number must be a whole number from 0 to 1000000 "
                                     "(digits 0-9, no leading zero), got '111111111111111111111111'"),
    ("maxima", M + " w " + "1" * 25, "half-move number must be a whole number from 0 to 1000000 "
                                     "(digits 0-9, no leading zero), got '111111111111111111111111'... (25 characters)"),
    # D3: six fields (seven with Swapper's swap-back), 10 or 8 rows, multi-digit runs
    ("withdrawer-chess", W + " w KQkq - 0",
     "FEN needs 6 fields for Withdrawer Chess (rows, side, castling, en passant, half-moves, move number), got 5"),
    ("withdrawer-chess-10x8", "rnwbqkbwnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNWBQKBWNR w KQkq -",
     "FEN needs 6 fields for Withdrawer Chess (rows, side, castling, en passant, half-moves, move number), got 4"),
    ("swapper-chess", S + " w KQkq - 0 1",
     "FEN needs 7 fields for Swapper Chess (rows, side, castling, en passant, half-moves, move number, swap-back), "
     "got 6"),
    ("withdrawer-chess", "10/" + W + " w KQkq - 0 1", "FEN has 11 rows, expected 10 (10x10 board) or 8 (10x8 board)"),
    ("withdrawer-chess", W + " x KQkq - 0 1", "side to move must be 'w' or 'b', got 'x'"),
    ("withdrawer-chess", withdrawer_rows("10/10/10/05P4/10/10"), "empty run of 05 in rank 5: '05P4'"),
    ("withdrawer-chess", withdrawer_rows("10/10/10/11/10/10"), "row for rank 5 is too long: '11'"),
    ("withdrawer-chess", withdrawer_rows("10/10/10/2c7/10/10"),
     "letter 'c' in rank 5 belongs to another game (Coordinator Chess), not to Withdrawer Chess"),
    ("withdrawer-chess", "P9/" + W.split("/", 1)[1] + " w - - 0 1",
     "Pawn on a10: no Pawn may stand on rank 1 or 10 (D7)"),
    ("withdrawer-chess", W + " w QK - 0 1", "castling field must be '-' or a subset of 'KQkq' in that order, got 'QK'"),
    ("withdrawer-chess", W.replace("RNWBQKBWNR", "RNWBQ1BWNR") + " w K - 0 1",
     "castling right 'K': White's King is not on f1"),
    ("withdrawer-chess", W.replace("rnwbqkbwnr", "rnwbq1bwnr") + " w k - 0 1",
     "castling right 'k': Black's King is not on f10"),
    ("withdrawer-chess", W.replace("RNWBQKBWNR", "RNWBQKBWN1") + " w K - 0 1",
     "castling right 'K': White's Rook is not on j1"),
    ("withdrawer-chess", W.replace("rnwbqkbwnr", "1nwbqkbwnr") + " w q - 0 1",
     "castling right 'q': Black's Rook is not on a10"),
    ("withdrawer-chess", W + " w KQkq - 0 0",
     "move number must be a whole number from 1 to 1000000 (digits 0-9, no leading zero), got '0'"),
    ("withdrawer-chess", W + " w KQkq - 00 1",
     "half-move clock must be a whole number from 0 to 1000000 (digits 0-9, no leading zero), got '00'"),
    # D3: the en-passant field
    ("withdrawer-chess", W + " w KQkq z9 0 1", "en-passant field must be '-' or squares like 'e3' or 'e3,e4', got 'z9'"),
    ("withdrawer-chess", W + " w KQkq e3,e5 0 1",
     "en-passant field 'e3,e5' is impossible: its squares must be consecutive on one file, lowest rank first"),
    ("withdrawer-chess", W + " w KQkq e3,e4,e5 0 1",
     "en-passant field 'e3,e4,e5' is impossible: at most 2 squares on this board"),
    ("withdrawer-chess-10x8", "rnwbqkbwnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNWBQKBWNR b KQkq e3,e4 0 1",
     "en-passant field 'e3,e4' is impossible: at most 1 square on this board"),
    ("withdrawer-chess", W + " b KQkq e4 0 1",
     "en-passant field 'e4' is impossible: the squares must start next to the second rank of the side that just moved"),
    ("withdrawer-chess", W + " b KQkq e3 0 1",
     "en-passant field 'e3' is impossible: no Pawn of the side that just moved stands after it"),
    ("withdrawer-chess", withdrawer_rows("10/10/10/10/10/4P5", " b KQkq e3 0 1").replace("PPPPPPPPPP/", "PPPP1PPPPP/"),
     "en-passant field 'e3' is impossible: its squares must be empty"),
    ("withdrawer-chess", withdrawer_rows("10/10/10/10/4P5/10", " b KQkq e3 0 1"),
     "en-passant field 'e3' is impossible: the Pawn's second-rank square e2 is not empty"),
    ("withdrawer-chess", W.replace("pppppppppp/10/10/10/10/10/10/", "pppp1ppppp/10/10/4p5/10/10/10/") + " w KQkq e8 0 1",
     "en-passant field 'e8' is impossible: no Pawn of the side that just moved stands after it"),
    # D18: Swapper's swap-back field
    ("swapper-chess", S + " w KQkq - 0 1 zz", "swap-back field must be '-' or 'X<>Y', got 'zz'"),
    ("swapper-chess", S + " w KQkq - 0 1 c2<>c9",
     "swap-back field 'c2<>c9': the side to move's Swapper must stand on c2 and the other side's on c9"),
    ("swapper-chess", S + " w KQkq - 0 1 c1<>c10",
     "swap-back field 'c1<>c10': c1 and c10 are not on one line with only empty squares between"),
]


@pytest.mark.parametrize("variant, fen, message", ERRORS, ids=[f"{v}:{m[:40]}" for v, _, m in ERRORS])
def test_a_fen_error_says_exactly_what_is_wrong(variant, fen, message):
    """M14, D3, D7, D18: the error a user reads names the field and the text."""
    with pytest.raises(FenError) as refused:
        parse_fen(fen, variants.get(variant))
    assert str(refused.value) == message


def test_a_fen_that_is_not_text_is_refused_in_words():
    with pytest.raises(FenError) as refused:
        parse_fen(17, variants.get("maxima"))
    assert str(refused.value) == "FEN must be text"


@pytest.mark.parametrize("rights", ["".join(c) for n in range(1, 5) for c in itertools.combinations("KQkq", n)])
def test_d3_each_castling_right_is_its_sides_own(rights):
    """D3: a castling field of Black's rights alone gives White none (and the other way round)."""
    fen = f"{W} w {rights} - 0 1"
    assert Position(fen, "withdrawer-chess").fen() == fen


def test_d3_multi_digit_runs_fill_a_row_and_a_leading_zero_is_refused():
    fen = withdrawer_rows("10/10/10/4P5/10/10").replace("PPPPPPPPPP/", "PPPP1PPPPP/")
    assert Position(fen, "withdrawer-chess").fen() == fen
    with pytest.raises(FenError, match="empty run of 05"):
        parse_fen(withdrawer_rows("10/10/10/05P4/10/10"), variants.get("withdrawer-chess"))


def test_a_maxima_fen_keeps_its_game():
    data = parse_fen(M + " w 3", variants.get("maxima"))
    assert data.variant is variants.get("maxima") and data.ply == 3


def test_a_deckle_fen_has_no_ply_count_of_its_own():
    data = parse_fen(W + " b - - 4 9", variants.get("withdrawer-chess"))
    assert (data.ply, data.halfmove, data.fullmove, data.castling, data.ban) == (0, 4, 9, 0, None)


def test_a_swapper_fen_without_a_ban_has_none():
    assert parse_fen(S + " w KQkq - 0 1 -", variants.get("swapper-chess")).ban is None


# -- moves (U13, D17, O15) ---------------------------------------------------------------------
GEOMETRY = variants.get("ultima").geometry


def test_a_move_without_geometry_cannot_be_written():
    move = Move(0, 9)
    with pytest.raises(ValueError) as refused:
        move.canonical()
    assert str(refused.value) == "a Move without geometry needs one to be written"
    assert repr(move) == "Move(0, 9, ())"
    assert repr(parse_move("a1-b2", GEOMETRY)) == "Move('a1-b2')"


def test_a_move_that_is_not_text_is_no_move():
    with pytest.raises(MoveError) as refused:
        parse_move(None, GEOMETRY)
    assert str(refused.value) == ("not a move: '' (expected FROM-TO, FROM-TOxC1,C2, FROM-S, FROM-SxC, FROM<>TO, "
                                  "optionally =L)")


def test_u13_the_kinds_a_written_move_carries():
    swap = parse_move("d4<>d6", GEOMETRY)
    assert (swap.kind, swap.captures, str(swap)) == ("swap", (), "d4<>d6")
    destruction = parse_move("d4-Sxd6", GEOMETRY)
    assert (destruction.kind, destruction.to_square, str(destruction)) == ("destruction", None, "d4-Sxd6")
    assert parse_move("d4-S", GEOMETRY).kind == "suicide"
    assert parse_move("d4-d6", GEOMETRY).kind == "move"
    assert parse_move("d4-d6xd6", GEOMETRY).kind == "replacement"
    assert parse_move("Qd4-d6", GEOMETRY) == parse_move("d4-d6", GEOMETRY)


def test_o15_a_placement_is_on_its_square():
    geometry = variants.get("optima").geometry
    placed = parse_move("AR@e5", geometry, OPTIMA)
    e5 = geometry.square("e5")
    assert (placed.from_square, placed.to_square, placed.kind, placed.placed, placed.captures, placed.converts) == \
        (e5, e5, "placement", "AR", (), ())
    assert str(placed) == "AR@e5"


def test_a_lone_capital_letter_is_no_move():
    with pytest.raises(MoveError, match="not a move: 'Q'"):
        parse_move("Q", GEOMETRY)


def test_a_square_named_twice_says_how():
    with pytest.raises(MoveError) as twice:
        parse_move("d4-d6xc6,c6", GEOMETRY)
    assert str(twice.value) == "a square is captured twice in move 'd4-d6xc6,c6'"
    geometry = variants.get("optima").geometry
    with pytest.raises(MoveError) as converted:
        parse_move("e5-e7^f7,f7", geometry, OPTIMA)
    assert str(converted.value) == "a square is converted twice in move 'e5-e7^f7,f7'"
    with pytest.raises(MoveError) as off:
        parse_move("d4-z9", GEOMETRY)
    assert str(off.value).endswith(" in move 'd4-z9'") and "z9" in str(off.value)
