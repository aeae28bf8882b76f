"""The piece model (maxima_board.rules.pieces) and the game registry (maxima_board.rules.variants):
pieces are data composed from primitives, games are data, and a new game
plays without touching the generator."""
import pytest

from maxima_board.rules import Position, variants
from maxima_board.rules.geometry import Geometry
from maxima_board.rules.pieces import (ALL, DIAG, KING_STEPS, KNIGHT, ORTH, TYPES, Approach, Leap, PieceType,
                                       Slide, Withdrawal)
from maxima_board.rules.variants.base import Variant

# A made-up game built only from existing primitives: an 8x8 board with a
# King, an "Archbishop" (knight leap + bishop slide) and a "Pushme" that
# withdraws and approaches. Codes above 100 stay clear of the real games.
KING = PieceType(101, "King", "k", (Leap(KING_STEPS),), royal=True)
ARCHBISHOP = PieceType(102, "Archbishop", "a", (Leap(KNIGHT), Slide(DIAG)))
PUSHME = PieceType(103, "Pushme", "u", (Slide(ALL, False, (Withdrawal(), Approach())),))
TOY = Variant(name="toy", title="Toy", summary="test game", geometry=Geometry(8, range(1, 9), lambda f, r: True),
              start_fen="k7/8/8/8/8/8/8/K7 w 0", types=(KING, ARCHBISHOP, PUSHME), family="ultima")


def moves_of(p, square):
    s = p.geometry.square(square)
    return sorted(str(m) for m in p.legal_moves if m.from_square == s)


def test_a_new_game_is_data_composed_of_primitives():
    p = Position("k7/8/8/8/3A4/8/8/K7 w 0", TOY)
    leaps = {"d4-b3", "d4-b5", "d4-c2", "d4-c6", "d4-e2", "d4-e6", "d4-f3", "d4-f5"}
    diagonal = {"d4-a7", "d4-b6", "d4-c5", "d4-e5", "d4-f6", "d4-g7", "d4-h8", "d4-c3", "d4-b2", "d4-e3",
                "d4-f2", "d4-g1"}
    assert set(moves_of(p, "d4")) == leaps | diagonal
    # the Archbishop gives check by either primitive; Black must step out
    p = Position("8/8/8/8/1k6/8/2A5/K7 b 0", TOY)
    assert p.is_check()
    assert Position("8/8/8/8/8/8/2A5/K6k b 0", TOY).is_check() is False


def test_effects_compose_withdrawal_and_approach_in_one_move():
    p = Position("k7/8/8/8/a2U1a2/8/8/K7 w 0", TOY)
    assert "d4-e4xf4" in moves_of(p, "d4")  # a4 is not adjacent: no withdrawal
    p = Position("k7/8/8/8/1aU2a2/8/8/K7 w 0", TOY)
    assert "c4-e4xb4,f4" in moves_of(p, "c4") and "c4-d4xb4" in moves_of(p, "c4")


def test_leap_wraps_files_only_when_told_M3():
    maxima = Position("xxx2xxx/8/8/8/8/8/8/8/8/8/xxxKkxxx w 0", validate=False)
    rules = maxima._rules
    wrap = Leap(KNIGHT, wrap=True)
    plain = Leap(KNIGHT)
    a5 = maxima.geometry.square("a5")
    names = maxima.geometry.names
    assert sorted(names[t] for t in rules.leaps(wrap)[a5]) == ["b3", "b7", "c4", "c6", "g4", "g6", "h3", "h7"]
    assert sorted(names[t] for t in rules.leaps(plain)[a5]) == ["b3", "b7", "c4", "c6"]


def test_piece_codes_are_unique_across_games():
    with pytest.raises(ValueError):
        PieceType(1, "Impostor", "z")
    seen = {}
    for v in variants.all_variants():
        for t in v.types:
            assert TYPES[t.code] is t
            assert seen.setdefault(t.code, t) is t


def test_variant_registry_names_and_titles():
    names = variants.names()
    assert names[:3] == ["maxima", "ultima", "ultima-pure"]
    stems = ["coordinator", "immobilizer", "withdrawer", "long-leaper", "advancer", "pushme-pullyu",
             "swapper", "mimotaur"]
    assert names[3:-2] == [n for s in stems for n in (f"{s}-chess", f"{s}-chess-10x8")]
    assert names[-2:] == ["optima", "optima-9x9"]
    assert variants.get("swapper-chess-10x8").title == "Swapper Chess 10x8"
    assert variants.get("ultima-pure").title == "Ultima (pure)"
    with pytest.raises(ValueError, match="unknown variant 'x' \\(known: maxima, ultima"):
        variants.get("x")
    for v in variants.all_variants():
        assert Position("start", v.name).fen() == v.start_fen
        assert v.summary and "\n" not in v.summary


def test_deckle_armies_share_orthodox_pieces_and_add_one():
    for v in variants.all_variants():
        if v.family == "deckle":
            letters = sorted(t.letter for t in v.types)
            assert len(letters) == 7 and {"k", "q", "r", "b", "n", "p"} <= set(letters)
            assert v.promotion[:4] == "QRBN" and v.promotion[4].lower() in letters


def test_piece_at_names_pieces_of_every_game():
    p = Position("start", "pushme-pullyu-chess")
    assert p.piece_at("c1").name == "Pushme-Pullyu" and p.piece_at("c1").letter == "U"
    assert p.piece_at("h10").letter == "u"
    q = Position("start", "ultima")
    assert q.piece_at("a1").name == "Immobilizer" and q.piece_at("b8").name == "Long Leaper"
    assert ORTH != DIAG
