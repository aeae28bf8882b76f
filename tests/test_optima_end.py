"""O13 (royal units, the end of the game), O6 (what a move is, equal moves are
one move), O10 as the position reports it, and the move kinds of O15.

Movement-phase moves come from the toy game of tests/optima_support.py, so
these rules are pinned whatever the state of the real unit definitions."""
from __future__ import annotations

import pytest

from maxima_board.rules import Position
from maxima_board.rules.variants.base import BLACK, WHITE
from tests.optima_support import TOY, TOY_9X9


def toy(fen: str, **kw) -> Position:
    return Position(fen, TOY if fen.count("/") == 9 else TOY_9X9, **kw)


def moves(p: Position) -> list[str]:
    return [str(m) for m in p.legal_moves]


# ------------------------------------------------------------------ O13 royal captured
def test_O13_capturing_the_royal_wins():
    p = toy("10/10/10/10/10/10/10/10/vr*9/QU8VR* w - - 0")
    p.push("a1-a2xa2")
    out = p.outcome()
    assert (out.result, out.reason, out.winner) == ("1-0", "royal captured", WHITE)


def test_O13_with_two_royals_capturing_one_is_enough():
    p = toy("10/10/10/10/10/10/10/vr*9/qu*9/AR8VR* b - - 0".replace("b - - 0", "w - - 0"))
    assert p.royals == {WHITE: 1, BLACK: 2}
    p.push("a1-a1xa3")                     # the toy Archer shoots two squares away: a shot, t == s
    assert p.move_stack[-1].kind == "shot"
    out = p.outcome()
    assert (out.result, out.reason) == ("1-0", "royal captured")
    p.pop()
    assert p.outcome() is None


def test_O13_O16_started_royals_are_game_state_not_fen():
    """A FEN with one royal left cannot say the side began with two: the game decides."""
    fen = "10/10/10/10/10/10/10/10/qu*9/AR8VR* b - - 0"
    assert toy(fen).outcome() is None
    out = toy(fen, royals=2).outcome()
    assert (out.result, out.reason, out.winner) == ("1-0", "royal captured", WHITE)


def test_O13_O11_converting_a_royal_captures_it_and_wins():
    p = toy("10/10/10/10/10/10/10/10/1vr*8/CR8VR* w - - 0")
    assert "a1-b2xb2" in moves(p)                # the royal is captured instead of converted
    p.push("a1-b2xb2")
    assert p.outcome().reason == "royal captured"


# ------------------------------------------------------------------ O13 no moves, repetition
def test_O13_no_moves_loses():
    p = toy("vr*9/10/10/10/10/10/10/10/10/8GDMA* w - - 0")   # the toy Guard and Marshal have no moves
    for q in (p,):
        assert q.legal_moves == []
        out = q.outcome()
        assert (out.result, out.reason, out.winner) == ("0-1", "no moves", BLACK)


def test_O13_threefold_repetition_is_a_draw_on_the_third_occurrence():
    p = toy("vr*9/10/10/10/10/10/10/10/10/9VR* w - - 0")
    shuffle = ["j1-j2", "a10-a9", "j2-j1", "a9-a10"]
    for i, move in enumerate(shuffle * 2):
        assert p.outcome() is None, i
        p.push(move)
    out = p.outcome()
    assert (out.result, out.reason, out.winner) == ("1/2-1/2", "threefold repetition", None)
    assert p.repetitions() == 3
    p.pop()
    assert p.outcome() is None


def test_O13_no_check_moving_a_royal_into_capture_is_legal():
    """O6/O13: no move is illegal for a royal's safety; royal_attacked() only informs."""
    p = toy("10/10/10/10/10/10/10/10/2qu7/VR*8vr* w - - 0")
    assert "a1-b1" in moves(p) and "a1-b2" in moves(p)     # b2 and b1 are attacked by the Queen c2
    p.push("a1-b2")
    assert p.outcome() is None
    p.pop()
    p2 = toy("10/10/10/10/10/10/10/10/10/VR*1qu6vr* w - - 0")
    assert p2.royal_attacked() == [0] and p2.is_check()
    assert toy("10/10/10/10/10/10/10/10/2qu7/VR*8vr* w - - 0").royal_attacked() == []


# ------------------------------------------------------------------ O6, O15 kinds
def test_O6_two_ways_to_the_same_move_are_one_move():
    """The toy pawn emits its step twice; it is listed once."""
    p = toy("vr*9/10/10/10/10/10/10/10/4PN5/9VR* w - - 0")
    assert moves(p).count("e2-e3") == 1
    assert len(p.legal_moves) == len(set(p.legal_moves))


def test_O6_O15_a_move_is_start_destination_captures_conversions_promotion():
    p = toy("vr*2pn6/4PN5/10/10/10/10/10/10/10/CR2ar5VR* w - - 0")
    kinds = {str(m): m.kind for m in p.legal_moves}
    assert kinds["e9-e10=WI"] == "move" and kinds["e9-d10xd10=WI"] == "replacement"
    promo = p.parse_move("e9-e10=WI")
    assert promo.promotion == "WI" and p.parse_move("e9-e10") == promo      # O7: compulsory, so implied
    p.push(promo)
    assert p.piece_at("e10").token == "WI"
    p.pop()
    q = toy("10/10/10/10/10/10/10/10/1ar8/CR8VR*vr* w - - 0".replace("VR*vr*", "VR*").replace("10/10/10/10/10/10/10/10/1ar8", "9vr*/10/10/10/10/10/10/10/1ar8"))
    swap = q.parse_move("a1-b2^b2")
    assert swap.kind == "swap conversion" and swap.converts == (q.geometry.index["b2"],)
    sig = q.signature(swap)
    assert sig.replaced == {q.geometry.index["a1"], q.geometry.index["b2"]} and not sig.filled and not sig.vacated
    q.push(swap)
    assert q.piece_at("a1").token == "AR" and q.piece_at("b2").token == "CR"


def test_O6_parse_move_accepts_a_unit_token_and_a_unique_short_form():
    p = toy("10/10/10/10/10/10/10/vr*9/10/AR8VR* w - - 0")
    assert str(p.parse_move("ARa1-a1xa3")) == "a1-a1xa3"
    assert str(p.parse_move("a1-a2")) == "a1-a2"
    assert str(p.parse_move("a1-a1")) == "a1-a1xa3"       # the only move from a1 to a1
    two = toy("10/10/10/10/10/10/10/vr*9/10/AR1ar6VR* w - - 0")
    with pytest.raises(ValueError, match="illegal move 'a1-a1'"):
        two.parse_move("a1-a1")                             # two shots: the text must name the target


def test_O10_immobilized_units_are_reported_none_while_placing():
    assert Position("start", "optima").immobilized() == []
    p = toy("vr*9/10/10/10/10/10/10/10/10/9VR* w - - 0")
    assert p.immobilized() == sorted(p.tables.frozen(p.board, WHITE) | p.tables.frozen(p.board, BLACK))
