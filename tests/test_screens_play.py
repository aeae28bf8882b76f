"""The screens of a move under way, each built from an explicit View of a
real position and board (issue 35, found untested by mutation testing):
the countdowns, castling, promotion, Optima's placement and conversion,
"Which move?", a piece in hand with teaching, a wrong board."""
from __future__ import annotations

import dataclasses

from maxima_board.board import guidance as g
from maxima_board.board.composer import Rank
from maxima_board.board.modes.placement import Choice
from maxima_board.board.reconstruct import MoveTable
from maxima_board.board.records import LastMove
from maxima_board.board.screens import View, convert_text, move_words, piece_move, render, wrong_text
from maxima_board.board.settings import Settings
from maxima_board.board.sizes import printed_names
from maxima_board.rules import BLACK, START_FEN, WHITE, Position

SWAPPER = "9k/10/10/10/4n5/4S5/10/K9 w - - 0 1 -"              # Swapper e3 beside a Black Knight e4
CASTLE = "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R w KQkq - 0 1"
PROMOTION = "9k/4P5/10/10/10/10/10/K9 w - - 0 1"
OPTIMA = Position("start", "optima").fen()
AGENT = "10/10/9gd/8pn1/10/6ar3/10/4qu5/1vr*1PN6/2AG6VR* w - - 0"     # optima.md R16: c1-h6^g5
KEEP = "10/10/10/10/10/3ar6/10/4pn5/qu2KE2vr*3/3pn5VR* w - - 0"        # R18, a Pawn on d1: d2-d1^d1
ENVOY = "10/10/10/10/2ar1vr*5/10/3EN6/10/10/qu8VR* w - - 0"             # d4-d5xe6^c6
KING2 = "xxx2xxx/4k3/p7/8/8/8/8/3p1p2/P7/4K3/xxx2xxx w 0"              # e1-d3xd3, e1-f3xf3


def at(fen: str | Position, variant: str = "", lift=(), put=(), **changes) -> View:
    """The game ``fen`` (or a position) in play, the squares ``lift`` lifted
    (off the board) and pieces set on ``put``; 10 s after the board last changed."""
    p = fen if isinstance(fen, Position) else Position(fen, variant)
    table = MoveTable(p)
    index = p.geometry.index
    occ, lifted = p.occupancy(), 0
    for sq in lift:
        occ &= ~(1 << index[sq])
        lifted |= 1 << index[sq]
    for sq in put:
        occ |= 1 << index[sq]
    fields = dict(now=10_000, settings=Settings(), mode="play", link_ok=True, position=p, table=table,
                  check=[], frozen={WHITE: [], BLACK: []}, raw=occ, raw_since=0, lifted=lifted,
                  match=table.match(occ, lifted), pick=None, last=None, game_id=None, result="*", reason=None,
                  note=None, menu=None, failure=None, sync=None, setup=None)
    fields.update(changes)
    return View(**fields)


def text(v: View) -> str:
    """The words under the status bar and the second line, as one sentence."""
    lines = render(v).lines
    assert all(len(line) <= g.WIDTH for line in lines), lines
    return " ".join(lines[2:])


# ------------------------------------------------------------------ countdowns
def test_D14_mutual_destruction_names_both_pieces_and_counts_down_whole_seconds():
    v = at(SWAPPER, "swapper-chess-10x8", lift=["e3", "e4"])
    assert text(dataclasses.replace(v, now=1_200)) == "Swapper e3, Knight e4 off in 2 s. OK = now."
    assert text(dataclasses.replace(v, now=999)) == "Swapper e3, Knight e4 off in 3 s. OK = now."   # 2.001 s: 3
    assert text(dataclasses.replace(v, now=3_500)) == "Swapper e3, Knight e4 off in 0 s. OK = now."  # never below 0


def test_D6_a_rook_move_that_may_begin_a_castling_offers_to_go_on():
    v = at(CASTLE, "coordinator-chess-10x8", lift=["j1"], put=["h1"], now=1_200)
    assert v.match.kind == "early"
    assert text(v) == "Rook j1-h1 in 2 s. OK = now; or go on castling."


def test_D6_a_move_under_way_is_said_in_the_boards_printed_names():
    v = at(CASTLE, "coordinator-chess-10x8", lift=["j1"], put=["h1"], now=1_200,
           board=("10x10", "a2"))
    names = v.names(v.position)
    assert text(v) == f"Rook {names[v.position.geometry.index['j1']]}-{names[v.position.geometry.index['h1']]} " \
                      "in 2 s. OK = now; or go on castling."
    assert names[v.position.geometry.index["j1"]] != "j1"


# ------------------------------------------------------------------ castling, promotion
def test_D6_half_a_castling_names_the_rooks_move_and_lights_its_square():
    v = at(CASTLE, "coordinator-chess-10x8", lift=["f1"], put=["i1"])
    screen = render(v)
    assert v.match.kind == "partial"
    assert text(v) == "Castling: Rook j1 to h1."
    assert screen.leds == {"h1": "setup-missing"}


def test_D6_half_a_castling_rook_first_names_the_kings_move():
    v = at(CASTLE, "coordinator-chess-10x8", lift=["j1", "f1"], put=["h1"])
    assert text(v) == "Castling: King f1 to i1."
    assert render(v).leds == {"i1": "setup-missing"}


def test_D7_promotion_asks_for_the_piece_offered_and_marks_the_pawn():
    v = at(PROMOTION, "coordinator-chess-10x8", lift=["e7"], put=["e8"])
    screen = render(v)
    assert " ".join(screen.lines[2:]) == "Promote to: Queen. MENU = next, OK = yes, BACK = no."
    assert screen.leds == {"e8": "setup-missing"}
    assert screen.pick == ((v.raw, v.lifted), 0)


def test_D7_promotion_offers_the_piece_picked_before_on_the_same_board():
    v = at(PROMOTION, "coordinator-chess-10x8", lift=["e7"], put=["e8"])
    picked = dataclasses.replace(v, pick=((v.raw, v.lifted), 2))
    assert render(picked).pick == ((v.raw, v.lifted), 2)
    assert text(picked).startswith("Promote to: Bishop.")
    elsewhere = dataclasses.replace(v, pick=((v.raw, 0), 2))     # picked on another lift: the first again
    assert text(elsewhere).startswith("Promote to: Queen.")


# ------------------------------------------------------------------ Optima: placement (O5)
def test_O5_several_units_for_one_square_ask_which_one():
    v = at(OPTIMA, "optima", put=["a1"])
    screen = render(v)
    assert " ".join(screen.lines[2:]) == "Place: Archer? MENU = next, OK = yes, BACK = no."
    assert screen.pick == ((v.raw, 0), 0)
    later = dataclasses.replace(v, pick=((v.raw, 0), 1))
    assert text(later).startswith("Place: Centaur?")


def test_O5_the_unit_chosen_first_is_set_without_asking():
    chosen = Choice(chosen="CE", ply=0)
    assert text(at(OPTIMA, "optima", put=["a1"], placement=chosen)) == "Centaur set on a1."
    other_ply = Choice(chosen="CE", ply=1)                         # chosen for another ply: asked again
    assert text(at(OPTIMA, "optima", put=["a1"], placement=other_ply)).startswith("Place: Archer?")


def test_O5_the_placement_phase_says_whose_turn_and_which_rank():
    assert text(at(OPTIMA, "optima", placement=None)) == "White: set a piece on rank 1. MENU = choose first."
    assert text(at(OPTIMA, "optima", placement=Choice())) == "White: set a piece on rank 1. MENU = choose first."
    assert text(at(OPTIMA, "optima", placement=Choice(chosen="CE", ply=0))) == "White: set the Centaur on rank 1."
    black = Position(OPTIMA, "optima")
    black.push(next(m for m in black.legal_moves if m.placed == "AR"))
    assert text(at(black.fen(), "optima")) == "Black: set a piece on rank 10. MENU = choose first."


def test_O5_the_unit_offered_is_asked_only_in_its_ply():
    assert text(at(OPTIMA, "optima", placement=Choice(offer=2, offer_ply=0))) == (
        "Choose: Chimaera? OK = yes, MENU = next.")
    last = len(Position(OPTIMA, "optima").placeable()) - 1
    assert text(at(OPTIMA, "optima", placement=Choice(offer=last, offer_ply=0))).startswith("Choose: Viceroy (royal)?")
    assert text(at(OPTIMA, "optima", placement=Choice(offer=last + 1, offer_ply=0))).startswith("White: set a piece")
    assert text(at(OPTIMA, "optima", placement=Choice(offer=2, offer_ply=1))).startswith("White: set a piece")


def test_O5_hints_light_the_squares_a_unit_may_be_set_on():
    v = at(OPTIMA, "optima", settings=Settings(hints=True))
    assert set(render(v).leds) == {f"{f}1" for f in "abcdefghij"}
    assert set(render(v).leds.values()) == {"hint"}
    assert render(at(OPTIMA, "optima")).leds == {}


# ------------------------------------------------------------------ Optima: conversion (O11)
def test_O11_a_conversion_under_way_asks_to_convert_then_to_put_the_unit():
    v = at(AGENT, "optima", lift=["c1"], put=["h6"])
    assert text(v) == "Convert to White: Archer g5."
    assert render(v).leds == {"g5": "setup-missing"}
    exchanged = at(AGENT, "optima", lift=["c1", "g5"], put=["h6"])
    assert text(exchanged) == "Put a White Archer on g5."
    assert render(exchanged).leds == {"g5": "setup-missing"}


def test_O11_a_swap_conversion_puts_the_mover_and_the_converted_unit():
    """R18 with a Pawn on d1: the Keep d2 swaps with the Pawn: the Keep to d1,
    a White Pawn to d2."""
    v = at(KEEP, "optima", lift=["d1", "d2"])
    assert text(v) == "Put a White Keep on d1. Put a White Pawn on d2."
    assert render(v).leds == {"d1": "setup-missing", "d2": "setup-missing"}
    assert text(at(KEEP, "optima", lift=["d1", "d2"], put=["d1"])) == "Put a White Pawn on d2."


def test_O11_a_conversion_that_captures_lights_the_victim_to_remove():
    v = at(ENVOY, "optima", lift=["d4"], put=["d5"])
    assert text(v) == "Convert to White: Archer c6. Remove: Viceroy e6."
    assert render(v).leds == {"c6": "setup-missing", "e6": "remove"}


def test_O11_convert_text_names_squares_by_the_names_given_else_the_games():
    v = at(ENVOY, "optima", lift=["d4"], put=["d5"])
    p = v.position
    assert convert_text(p, v.match).startswith("Convert to White: Archer c6.")
    printed = [f"{name}'" for name in p.geometry.names]
    assert convert_text(p, v.match, printed).startswith("Convert to White: Archer c6'.")
    assert "e6'." in convert_text(p, v.match, printed)


# ------------------------------------------------------------------ Wizard promotion (O7)
def test_O7_a_pawn_promoted_to_wizard_asks_for_the_wizard_on_its_square():
    p = Position("9vr*/4PN5/10/10/10/10/10/10/10/VR*9 w - - 0", "optima")
    move = next(m for m in p.legal_moves if m.promotion == "WI")        # e9-e10=WI
    p.push(move)
    v = at(p, last=LastMove(move, "1. Pawn e9-e10=WI", None))
    assert text(v) == "Pawn becomes Wizard: put a Wizard on e10."
    assert render(v).leds == {"e10": "setup-missing"}
    fresh = at(p.fen(), "optima", last=LastMove(move, "1. Pawn e9-e10=WI", None))   # no move made here: nothing to put
    assert "Wizard" not in text(fresh)


# ------------------------------------------------------------------ which move?
def test_M3_two_king_captures_for_one_board_ask_which_one_counting_them():
    v = at(KING2, "maxima", lift=["e1", "d3", "f3"], put=["d3", "f3"])
    assert v.match.kind == "ambiguous"
    screen = render(v)
    assert " ".join(screen.lines[2:]) == "Which move? 1/2: King e1-d3xd3. OK = yes, BACK = next."
    assert screen.rank == Rank.PAGE and screen.pick == ((v.raw, v.lifted), 0)
    second = dataclasses.replace(v, pick=((v.raw, v.lifted), 1))
    assert text(second) == "Which move? 2/2: King e1-f3xf3. OK = yes, BACK = next."


def test_U3_which_move_says_the_squares_in_the_boards_printed_names():
    """Ultima's 8x8 on the 10x10 board: its e2 is the board's f3."""
    v = at("7k/8/8/8/8/3p1p2/4K3/8 w 0", "ultima", lift=["e2", "d3", "f3"], put=["d3", "f3"],
           board=("10x10", ""))
    assert text(v) == "Which move? 1/2: King f3-e4xe4. OK = yes, BACK = next."


# ------------------------------------------------------------------ in hand, teaching
def test_U8_U9_teaching_says_what_a_chameleon_can_take_and_freeze():
    fen = "7k/8/8/8/3w4/3H4/8/i3K3 w 0"        # the Chameleon d3: takes the Withdrawer d4, freezes the Immobilizer a1
    v = at(fen, "ultima", lift=["d3"], settings=Settings(teach=True))
    screen = render(v)
    # "In hand: Chameleon d3. It can take Withdrawer d4. It can freeze Immobilizer a1.", cut to three rows
    assert screen.lines[2:] == ["In hand: Chameleon", "d3. It can take", "Withdrawer d4. It ca…"]
    assert screen.leds["d4"] == "captures" and screen.leds["a1"] == "captures"
    assert "hint" in screen.leds.values()


def test_U9_teaching_names_what_an_immobilizer_would_freeze():
    v = at("7k/8/8/3p4/8/3I4/8/4K3 w 0", "ultima", lift=["d3"], settings=Settings(teach=True))
    assert text(v) == "In hand: Immobilizer d3. It can freeze Pawn d5, King h8."


def test_teaching_is_said_only_for_one_piece_in_hand():
    fen = "7k/8/8/8/3w4/3H4/8/i3K3 w 0"
    assert text(at(fen, "ultima", lift=["d3"])) == "In hand: Chameleon d3."             # teaching off
    two = at(fen, "ultima", lift=["d3", "d4"], settings=Settings(teach=True))
    assert text(two) == "In hand: Chameleon d3, Black Withdrawer d4."
    assert "captures" not in render(two).leds.values()


# ------------------------------------------------------------------ a wrong board
def test_a_wrong_board_is_shown_after_the_grace_time_only():
    v = at(START_FEN, "maxima", lift=["d3"], put=["h5"])
    assert v.match.kind == "wrong"
    assert text(dataclasses.replace(v, now=1_499, raw_since=0)) == ""
    assert text(dataclasses.replace(v, now=11_499, raw_since=10_000)) == ""
    assert text(dataclasses.replace(v, now=1_500, raw_since=0)) != ""


def test_wrong_text_names_the_games_squares_when_no_names_are_given():
    v = at(START_FEN, "maxima", lift=["d3"], put=["h5"])
    assert wrong_text(v.position, v.match, v.raw, v.lifted) == wrong_text(
        v.position, v.match, v.raw, v.lifted, v.position.geometry.names)
    assert "d3" in wrong_text(v.position, v.match, v.raw, v.lifted)


def test_wrong_text_takes_nothing_as_lifted_by_default():
    """Ultima's Pawn e2 set on h5: the one piece astray, when no square is said
    to have been lifted (the Immobilizer a1 among them would make it two)."""
    v = at("start", "ultima", lift=["e2"], put=["h5"])
    assert wrong_text(v.position, v.match, v.raw) == "Pawn e2 cannot move to h5. Put the Pawn back on e2 from h5."


# ------------------------------------------------------------------ a wrong board, what it says
FROZEN = "xxx2xxx/4k3/p7/8/8/8/8/2m5/2N5/4K3/xxx2xxx w 0"      # M9: the Leaper c2 frozen by the Immobilizer c3


def said(v: View) -> str:
    """The whole sentence for a wrong board (the OLED cuts it to three rows)."""
    assert v.match.kind == "wrong"
    return wrong_text(v.position, v.match, v.raw, v.lifted)


def test_a_piece_set_on_a_square_off_the_game_only_is_asked_off():
    assert said(at(START_FEN, "maxima", put=["h5"])) == "Take the piece off h5."


def test_two_pieces_lifted_and_one_set_elsewhere_is_not_a_legal_move():
    assert said(at(START_FEN, "maxima", lift=["d3", "e3"], put=["h5"])) == (
        "Not a legal move. Put back: Pawn d3, e3. Take the piece off h5.")


def test_M9_a_frozen_piece_moved_says_why_though_its_suicide_is_nearest():
    v = at(FROZEN, "maxima", lift=["c2"], put=["c4"])
    assert said(v) == "Leaper c2 is frozen by the Immobilizer on c3. Take the piece off c4."
    assert wrong_text(v.position, v.match) == "Take the piece off c4."     # the board unknown: no reason


def test_a_legal_move_with_an_enemy_piece_off_asks_only_for_that_piece():
    """Pawn d3-d4 is legal: no reason to give; the Black Pawn d7 is off."""
    assert said(at(START_FEN, "maxima", lift=["d3", "d7"], put=["d4"])) == "Put the Black Pawn back on d7."


def test_M3_a_king_gone_astray_from_its_capture_is_put_on_the_captured_square():
    """The King e1 takes d3 by replacement, but lands on f4: d3 is the square to fill (the captured
    Pawn there is no piece to put back), so the King is the one piece astray."""
    assert said(at(KING2, "maxima", lift=["e1", "d3"], put=["f4"])) == (
        "King e1 cannot move to f4. Put the King back on d3 from f4.")


def test_a_piece_put_back_and_another_astray_is_no_single_stray():
    """d3 and e3 lifted, e3 set back, a piece on h5: two Pawns were handled,
    so the board cannot tell which stands on h5."""
    assert said(at(START_FEN, "maxima", lift=["d3", "e3"], put=["e3", "h5"])) == (
        "Pawn d3 cannot move to h5. Put the Pawn back on d3. Take the piece off h5.")


def test_O11_a_wrong_board_near_a_conversion_asks_for_the_converted_unit():
    """The Agent on h6, the Archer g5 lifted to be converted, a piece on a10:
    g5 is to hold the White Archer (the mover's own: named without colour)."""
    assert said(at(AGENT, "optima", lift=["c1", "g5"], put=["h6", "a10"])) == (
        "Put the Archer back on g5. Take the piece off a10.")


# ------------------------------------------------------------------ moves in words, at the edge of a row
def test_a_move_that_fills_the_row_exactly_keeps_its_number():
    p = Position(OPTIMA, "optima")
    move = next(m for m in p.legal_moves if str(m) == "QU@a1")
    assert move_words(p, move) == "1. Places Queen on a1"                   # 21 characters
    assert piece_move(p, move, room=len("Places Queen on a1")) == "Places Queen on a1"
    assert piece_move(p, move, room=len("Places Queen on a1") - 1) == "Queen QU@a1"


def test_a_move_too_long_in_words_is_said_compactly_with_its_number():
    p = Position(OPTIMA, "optima")
    move = next(m for m in p.legal_moves if str(m) == "JU@a1")
    assert move_words(p, move) == "1. Juggernaut JU@a1"


def test_D14_a_swap_said_compactly_names_the_boards_squares():
    p = Position("start", "swapper-chess-10x8")
    move = next(m for m in p.legal_moves if str(m) == "c1<>b1")
    names = printed_names(p, ("10x10", "a2"))                              # the game's a1 on the board's a2
    assert move_words(p, move) == "1. Swapper c1<>b1"
    assert move_words(p, move, names) == "1. Swapper c2<>b2"


def test_the_status_bar_numbers_the_move_after_both_sides_played():
    p = Position(START_FEN)
    for move in ("d3-d4", "d7-d6", "e3-e4", "e7-e6"):
        p.push(move)
    assert render(at(p)).lines[0] == "White to move      3."


def test_a_game_number_that_just_fits_is_written_in_full():
    assert render(at(START_FEN, "maxima", game_id=12345678)).lines[1] == "Game 12345678: Maxima"   # 21 characters
