"""M14 notation (FEN, canonical moves, sorting) and M15 valid positions."""
import pytest

from maxima_board.rules import FenError, Move, MoveError, Position, parse_move
from tests.conftest import GEOMETRY, fen_of, legal, pos, sq

START = "xxx2xxx/1g1qk1g1/1bnmrnb1/dppppppd/8/8/8/DPPPPPPD/1BNMRNB1/1G1QK1G1/xxx2xxx w 0"

# ------------------------------------------------------------ M14 FEN


@pytest.mark.parametrize("fen", [
    START,
    "xxx2xxx/1g1qk1g1/1bnmrnb1/dppppppd/8/8/3P4/DPP1PPPD/1BNMRNB1/1G1QK1G1/xxx2xxx b 1",
    "xxxD1xxx/8/8/8/4k3/8/8/8/8/K7/xxx1pxxx b 117",
    "xxxDNxxx/8/8/8/7k/8/8/8/8/K6p/xxx2xxx b 9",
    "xxx1kxxx/8/8/8/8/8/8/8/8/8/xxxK1xxx w 0",
])
def test_M14_fen_round_trips_exactly(fen):
    assert Position(fen).fen() == fen
    assert str(Position(fen)) == fen


def test_M14_fen_rows_run_from_rank_10_to_rank_0():
    p = Position("xxx1kxxx/8/8/8/8/8/8/8/8/7P/xxxK1xxx w 0")
    assert p.piece_at("e10").letter == "k"
    assert p.piece_at("d0").letter == "K"
    assert p.piece_at("h1").letter == "P"
    assert p.turn == 1 and p.ply == 0


def test_M14_fen_after_moves_counts_half_moves():
    p = Position()
    p.push("d3-d5")
    assert p.fen() == "xxx2xxx/1g1qk1g1/1bnmrnb1/dppppppd/8/3P4/8/DPP1PPPD/1BNMRNB1/1G1QK1G1/xxx2xxx b 1"
    p.push("e7-e6")
    assert p.fen().endswith(" w 2")
    p.pop()
    p.pop()
    assert p.fen() == START


def test_M14_fen_helper_matches_engine():
    pieces = {"d0": "D", "e10": "k", "a1": "K", "h9": "p"}
    assert pos(pieces).fen() == fen_of(pieces) == "xxx1kxxx/7p/8/8/8/8/8/8/8/K7/xxxD1xxx w 0"


# -------------------------------------------------- M14 canonical moves


@pytest.mark.parametrize("text, frm, to, caps", [
    ("d3-d5", "d3", "d5", ()),
    ("b4-c5xc5", "b4", "c5", ("c5",)),
    ("e2-e5xd5,f5,e6", "e2", "e5", ("d5", "f5", "e6")),
    ("c9-d10", "c9", "d10", ()),
    ("h5-e5xe0,d5", "h5", "e5", ("e0", "d5")),
    ("e4-S", "e4", None, ()),
])
def test_M14_canonical_move_parses_and_formats(text, frm, to, caps):
    move = parse_move(text, GEOMETRY)
    assert move.from_square == sq(frm)
    assert move.to_square == (None if to is None else sq(to))
    assert move.captures == tuple(sq(c) for c in caps)
    assert str(move) == text


def test_M14_captures_are_written_by_rank_then_file():
    move = Move(sq("e2"), sq("e5"), (sq("d5"), sq("f5"), sq("e6")), GEOMETRY)
    assert str(move) == "e2-e5xd5,f5,e6"          # not the plain string order d5,e6,f5
    assert sorted(GEOMETRY.names, key=lambda n: (int(n[1:]), n[0])) == GEOMETRY.names


def test_M14_piece_letter_prefix_is_accepted():
    move = parse_move("Qd1-d4xd5", GEOMETRY)
    assert str(move) == "d1-d4xd5"
    p = Position()
    assert p.piece_letter(p.parse_move("Pd3-d5")) == "P"


@pytest.mark.parametrize("text", ["d3d5", "d3-", "d3-d5x", "d3-d5xd6,", "z3-d5", "d3-d11",
                                  "d3-d5xd6,d6", "c0-c1", "", "d3 - d5"])
def test_M14_malformed_moves_are_rejected(text):
    with pytest.raises(MoveError):
        parse_move(text, GEOMETRY)


def test_M14_move_lists_are_sorted_in_plain_string_order():
    moves = legal(pos({"d10": "D", "d1": "Q", "f2": "P", "a1": "K", "h9": "k"}))
    assert moves == sorted(moves)
    # d1-... sorts before d10-... ('-' < '0') in plain string order.
    assert max(i for i, m in enumerate(moves) if m.startswith("d1-")) < \
        min(i for i, m in enumerate(moves) if m.startswith("d10-"))
    start = legal(Position())
    assert start == sorted(start) and len(start) == 41


def test_M14_push_accepts_the_canonical_string_of_each_legal_move():
    p = pos({"e2": "P", "c5": "D", "g5": "D", "e7": "D", "a1": "K", "d5": "q", "f5": "n",
             "e6": "d", "h9": "k"})
    for move in p.legal_moves:
        q = Position(p.fen())
        assert str(q.push(str(move))) == str(move)
    with pytest.raises(MoveError):
        p.push("e2-e5xd5")                   # incomplete capture list
    with pytest.raises(MoveError):
        p.push("e2-e9")                      # not legal


# ------------------------------------------------------ M15 valid positions

VALID_ROWS = START.split()[0].split("/")


def _with_row(index, row, turn="w"):
    rows = list(VALID_ROWS)
    rows[index] = row
    return "/".join(rows) + f" {turn} 0"


@pytest.mark.parametrize("fen, reason", [
    (_with_row(5, "7"), r"rank 5.*(7 cells|expected 8)"),                 # row too short
    (_with_row(5, "9"), r"rank 5.*(too long|expected 8)"),                # row too long
    (_with_row(5, "4p4"), r"rank 5.*(too long|expected 8)"),
    (_with_row(1, "1g1qk1g"), r"rank 9"),
    (_with_row(5, "3z4"), r"unknown letter 'z'"),
    (_with_row(5, "3X4"), r"unknown letter 'X'"),
    (_with_row(10, "Kxx2xxx"), r"a0.*not exist"),                         # piece on a missing cell
    (_with_row(0, "xxx3xx"), r"f10.*not exist"),                          # run over a missing cell
    (_with_row(0, "8"), r"a10.*not exist"),
    (_with_row(10, "xxxxxxxx"), r"'x' on square d0"),
])
def test_M15_rejects_malformed_rows_with_the_reason(fen, reason):
    with pytest.raises(FenError, match=reason):
        Position(fen)


@pytest.mark.parametrize("fen, reason", [
    (START.replace(" w 0", ""), r"3 fields"),
    (START.replace(" w ", " x "), r"side to move"),
    (START.replace(" w 0", " w -1"), r"half-move"),
    (START.replace(" w 0", " w 01"), r"half-move"),                      # would not round-trip
    (START.replace(" w 0", " w \u0663"), r"half-move"),                  # Arabic-Indic 3
    (START.replace("/8/8/8/", "/8/8/\u00b2/"), r"unknown letter"),       # superscript two
    ("/".join(VALID_ROWS[:10]) + " w 0", r"rows"),
])
def test_M15_rejects_bad_fields_with_the_reason(fen, reason):
    with pytest.raises(FenError, match=reason):
        Position(fen)


@pytest.mark.parametrize("pieces, turn, reason", [
    ({"e9": "k"}, "w", r"White has no King"),
    ({"e1": "K"}, "b", r"Black has no King"),
    ({"e1": "K", "a1": "K", "e9": "k"}, "w", r"White has 2 Kings"),
    ({"e1": "K", "e9": "k", "a9": "k", "h9": "k"}, "b", r"Black has 3 Kings"),
    ({"e1": "K", "e9": "k", "d0": "D", "e0": "P"}, "b", r"White's own palace"),
    ({"e1": "K", "e9": "k", "d10": "m", "e10": "n"}, "w", r"Black's own palace"),
    ({"e1": "K", "e9": "k", "e8": "D"}, "w", r"Black, not to move, is in check"),
    ({"e1": "K", "e9": "k", "e2": "b"}, "b", r"White, not to move, is in check"),
    # the side not to move is in check by an invasion threat
    ({"e1": "K", "a9": "k", "d10": "D", "e2": "P"}, "w", r"Black, not to move, is in check"),
    # White to move although White already holds Black's palace
    ({"e1": "K", "a9": "k", "d10": "D", "e10": "D"}, "w", r"Black, not to move, is in check"),
])
def test_M15_rejects_impossible_positions_with_the_reason(pieces, turn, reason):
    with pytest.raises(FenError, match=reason):
        pos(pieces, turn)


def test_M15_finished_game_may_leave_the_side_not_to_move_in_check():
    # Black has invaded White's palace; White to move could take Black's King.
    p = pos({"d0": "q", "e0": "p", "e8": "D", "e1": "K", "e9": "k"})
    assert p.outcome().reason == "palace invaded"


def test_M15_any_number_of_other_pieces_is_allowed():
    pieces = {"a1": "K", "h9": "k"}
    pieces.update({f"{f}4": "M" for f in "abcdefgh"})
    pieces.update({f"{f}6": "g" for f in "abcdefgh"})
    pieces.update({"a2": "N", "b2": "N", "c2": "N", "d2": "N", "f8": "r", "g8": "r", "h8": "r"})
    p = pos(pieces)
    assert p.fen() == fen_of(pieces)


def test_M15_one_own_piece_in_the_own_palace_is_allowed():
    assert pos({"e1": "K", "e9": "k", "d0": "D", "e10": "q"}).fen()
    assert pos({"e1": "K", "e9": "k", "d0": "D", "e0": "p"}).fen()


@pytest.mark.parametrize("variant", ["maxima", "ultima", "withdrawer-chess", "optima"])
@pytest.mark.parametrize("space", ["\u00a0", "\u2003", "\u3000"])
def test_M14_U13_D3_O15_a_unicode_space_between_fields_is_named_not_split_on(variant, space):
    """The compiled engine reads the same FEN bytes and splits on ASCII spaces
    only, so the Python parser names a Unicode space instead of accepting it."""
    from maxima_board.rules import variants
    v = variants.get(variant)
    fen = v.start_fen.replace(" ", space, 1)
    with pytest.raises(FenError) as err:
        Position(fen, variant)
    where = fen.index(space) + 1
    assert f"U+{ord(space):04X} at position {where}" in str(err.value)
    Position(v.start_fen, variant)   # the same FEN with its ASCII space is read
