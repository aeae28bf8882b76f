"""Edges of move reconstruction (board/reconstruct.py) that mutation testing
found unpinned (issue 35): hints for a square whose piece has no move,
castling (controller.md point 11; deckle.md D9) finished with a stray piece
on a square it emptied, half a mutual destruction (point 14; D14), the
order of promotion pieces (point 13), what a wrong board is measured
against, and a swap conversion of a unit of the mover's own type (point 15;
optima.md O11).

Expected values come from the rules (the position's legal moves and their
physical signatures), not from the table under test."""
from __future__ import annotations

import textwrap

from maxima_board.board.reconstruct import MoveTable, bits
from maxima_board.board.settings import Settings
from maxima_board.rules import Position
from maxima_board.service.script import Runner, parse_script, replay

KING2 = "xxx2xxx/4k3/p7/8/8/8/8/3p1p2/P7/4K3/xxx2xxx w 0"       # Maxima: e1-d3xd3, e1-f3xf3 (King, M3)
CASTLE_8 = "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R w KQkq - 0 1"   # f1-i1 (Rook j1-h1), f1-c1 (a1-d1)
SWAPPER = "9k/10/10/10/4n5/4S5/10/K9 w - - 0 1 -"             # Swapper e3 beside a Black Knight e4
PROMOTION = "9k/4P5/10/10/10/10/10/K9 w - - 0 1"              # Pawn e7 promotes on e8
TENX8 = "coordinator-chess-10x8"
# optima.md: a Black Ambassador g8 beside... a White one on g6 (g8-g6^g6); R18: the Keep d2 (d2-d1^d1, d2-d4^d5)
AMBASSADORS = "4gdengd1cecm*/2pn2gd1gdgdgd/6am3/9pn/1gd4AM3/10/10/1PNGD2PNGD1PNPN/GDGDCM*4GD1GD/CEEN3LE4 b - - 97"
KEEP = "10/10/10/10/10/3ar6/10/4pn5/qu2KE2vr*3/3pn5VR* w - - 0"


def mask(position: Position, *names: str) -> int:
    index = position.geometry.index
    return sum(1 << index[n] for n in names)


def named(position: Position, squares: int) -> list[str]:
    return [position.geometry.names[s] for s in bits(squares)]


def run(variant: str | None, fen: str, script: str, **settings) -> list[dict]:
    steps = parse_script(textwrap.dedent(script).strip().splitlines(), variant)
    return list(replay(steps, Settings(**settings), fen, variant=variant))


def moves(events: list[dict]) -> list[str]:
    return [e["move"] for e in events if e["type"] == "move"]


# ---------------------------------------------------------------- hints (point 4 with hints on)
def test_hints_of_a_square_whose_piece_has_no_move_are_none():
    """M3: the Black Pawn f3 is White's King's victim; White to move, it has no move of its own."""
    p = Position(KING2)
    table = MoveTable(p)
    f3 = p.geometry.index["f3"]
    assert not any(m.from_square == f3 for m in p.legal_moves)
    assert table.hints(f3) == []
    e1 = p.geometry.index["e1"]
    assert sorted(table.hints(e1)) == sorted(m.to_square for m in p.legal_moves if m.from_square == e1)


def test_hints_on_lifting_the_captured_piece_first_lights_nothing_and_the_capture_goes_on():
    """Point 4 (M3 replacement capture), captured piece lifted first, with hints on."""
    runner = Runner(Settings(hints=True), fen=KING2)
    runner.lift("f3")
    runner.wait(300)
    c = runner.controller
    assert "hint" not in c.leds.values()
    assert "In hand: Black Pawn f3." == " ".join(c.display[2:])
    runner.lift("e1")
    runner.place("f3")
    runner.wait(300)
    assert c.moves == ["e1-f3xf3"]


# ---------------------------------------------------------------- 11 castling
def castling(table: MoveTable, text: str):
    return next(e for e in table.castles if str(e.move) == text)


def test_11_castling_entry_names_king_and_rook_and_needs_both_lifted():
    """D9: f1-i1 moves the King f1 to i1 and the Rook j1 to h1; it captures nothing."""
    p = Position(CASTLE_8, TENX8)
    table = MoveTable(p)
    ix = p.geometry.index
    assert sorted(str(e.move) for e in table.castles) == sorted(str(m) for m in p.legal_moves if m.kind == "castle")
    short = castling(table, "f1-i1")
    assert short.parts == ((ix["f1"], ix["i1"]), (ix["j1"], ix["h1"]))
    assert short.lifts == mask(p, "f1", "j1") and short.gone == 0
    assert short.result == p.occupancy_after(short.move)
    assert castling(table, "f1-c1").parts == ((ix["f1"], ix["c1"]), (ix["a1"], ix["d1"]))


def test_11_a_stray_piece_on_the_kings_or_rooks_square_after_castling_is_wrong_not_to_remove():
    """D9: castling captures nothing, so a piece on f1 or j1 after f1-i1 is an
    extra piece of a wrong board (lit as extra), never a captured piece to remove."""
    p = Position(CASTLE_8, TENX8)
    table = MoveTable(p)
    done = castling(table, "f1-i1").result
    for stray in ("f1", "j1"):
        m = table.match(done | mask(p, stray), mask(p, "f1", "j1"))
        assert (m.kind, named(p, m.extra), m.remove, m.missing) == ("wrong", [stray], 0, 0), stray
        assert str(m.entry.move) == "f1-i1"


def test_11_a_stray_piece_on_the_kings_square_after_castling_is_lit_as_an_error():
    events = run(TENX8, CASTLE_8, """
        lift f1
        place i1
        lift j1
        place h1
        wait 300
        place f1
        wait 1500
    """)
    assert moves(events) == ["f1-i1"]
    errors = [e for e in events if e["type"] == "error"]
    assert errors and (errors[-1]["extra"], errors[-1]["remove"], errors[-1]["missing"]) == (["f1"], [], [])
    assert events[-1]["leds"].get("f1") == "error-extra"


def test_11_half_a_castling_is_partial_with_its_entry_whichever_piece_arrived():
    """Point 11: King or Rook on its square, the other in hand."""
    p = Position(CASTLE_8, TENX8)
    table = MoveTable(p)
    lifted = mask(p, "f1", "j1")
    for arrived in ("i1", "h1"):
        m = table.match(table.expected & ~lifted | mask(p, arrived), lifted)
        assert m.kind == "partial" and str(m.entry.move) == "f1-i1", arrived


def test_11_a_board_where_more_than_king_and_rook_changed_is_no_half_castling():
    """Point 11 / point 7: the King on i1 with the other Rook a1 (square 0) in hand,
    or the Rook on h1 and a piece on i1 while the King still stands on f1: wrong boards."""
    p = Position(CASTLE_8, TENX8)
    table = MoveTable(p)
    m = table.match(table.expected & ~mask(p, "f1", "j1", "a1") | mask(p, "i1"), mask(p, "f1", "j1", "a1"))
    assert m.kind == "wrong" and "a1" in named(p, m.missing)
    m = table.match(table.expected & ~mask(p, "j1") | mask(p, "h1", "i1"), mask(p, "j1"))
    assert m.kind == "wrong"


# ---------------------------------------------------------------- 14 mutual destruction
def test_14_half_a_mutual_destruction_is_a_piece_in_hand_with_nothing_to_remove():
    """D14: e3-Sxe4 removes the Swapper and the Knight. With only one of them
    off the board the move may still be a swap or a move of the Swapper:
    the piece is in hand, and no piece is lit to be removed."""
    p = Position(SWAPPER, "swapper-chess-10x8")
    table = MoveTable(p)
    destruction = next(e for e in table.entries if e.move.kind == "destruction")
    assert (str(destruction.move), destruction.gone) == ("e3-Sxe4", 0)
    for off in ("e3", "e4"):
        m = table.match(table.expected & ~mask(p, off), mask(p, off))
        assert (m.kind, named(p, m.missing), m.remove, m.entries) == ("lifted", [off], 0, ()), off
    events = run("swapper-chess-10x8", SWAPPER, "lift e3\nwait 2000")
    assert moves(events) == [] and not [e for e in events if e["type"] == "error"]
    assert "remove" not in events[-1]["leds"].values()


# ---------------------------------------------------------------- 13 promotion
def test_13_promotion_pieces_are_offered_in_the_games_order():
    """Point 13: Queen first, then Rook, Bishop, Knight, the game's added piece (deckle.md)."""
    p = Position(PROMOTION, TENX8)
    table = MoveTable(p)
    m = table.match(table.expected & ~mask(p, "e7") | mask(p, "e8"), mask(p, "e7"))
    assert m.kind == "promote"
    assert [e.move.promotion for e in m.entries] == list(p.variant.promotion)
    assert {str(e.move) for e in m.entries} == {str(x) for x in p.legal_moves if x.promotion}


def test_13_a_cancelled_promotion_is_measured_against_the_position():
    """Point 13: BACK before OK: the Pawn goes back to e7, the square e8 is extra."""
    p = Position(PROMOTION, TENX8)
    table = MoveTable(p)
    m = table.wrong(table.expected & ~mask(p, "e7") | mask(p, "e8"))
    assert (m.kind, named(p, m.missing), named(p, m.extra), m.entries) == ("wrong", ["e7"], ["e8"], ())


# ---------------------------------------------------------------- 3 captures, wrong boards
def test_3_a_capture_made_with_its_victims_standing_names_the_move_and_the_victims():
    """M4 pincer: d2-d5 captures c5 and e5; the mover placed, the victims still stand."""
    fen = "xxx2xxx/4k3/p7/8/8/1Pp1pP2/8/8/3P4/4K3/xxx2xxx w 0"
    p = Position(fen)
    table = MoveTable(p)
    occ = table.expected & ~mask(p, "d2") | mask(p, "d5")
    m = table.match(occ, mask(p, "d2"))
    assert m.kind == "remove" and str(m.entry.move) == "d2-d5xc5,e5"
    assert named(p, m.remove) == ["c5", "e5"]
    # one victim off, a stray piece on d6: the nearest right board is the capture's
    m = table.match(occ & ~mask(p, "c5") | mask(p, "d6"), mask(p, "d2", "c5"))
    assert m.kind == "wrong" and str(m.entry.move) == "d2-d5xc5,e5"
    assert (named(p, m.extra), named(p, m.remove), m.missing) == (["d6"], ["e5"], 0)


# ---------------------------------------------------------------- 15 swap conversion
def test_15_O11_a_swap_conversion_onto_a_unit_of_the_movers_type_needs_both_squares_lifted():
    """O11/O12.15: the Black Ambassador g8 swaps with the White Ambassador g6;
    g8 ends with a Black Ambassador again, so the occupancy never changes:
    lifting the mover alone and setting it back is no move."""
    fen = AMBASSADORS
    p = Position(fen, "optima")
    table = MoveTable(p)
    swap = next(e for e in table.entries if str(e.move) == "g8-g6^g6")
    assert swap.lifts == mask(p, "g8", "g6") and swap.result == table.expected
    events = run("optima", fen, "lift g8\nwait 500\nplace g8\nwait 4000")
    assert moves(events) == []
    events = run("optima", fen, "lift g8\nlift g6\nplace g6\nplace g8\nwait 400")
    assert moves(events) == ["g8-g6^g6"]


def test_14_each_piece_of_a_swap_lifted_and_set_back_in_turn_is_no_swap():
    """D14: a swap exchanges two pieces; lifting one and setting it back,
    then the other, exchanges nothing (here the Swapper c3 and the King a1, square 0)."""
    fen = "9k/10/10/10/10/10/10/2S7/10/K9 w - - 0 1 -"
    assert "c3<>a1" in [str(m) for m in Position(fen, "swapper-chess").legal_moves]
    events = run("swapper-chess", fen, "lift a1\nwait 300\nplace a1\nwait 300\nlift c3\nwait 300\nplace c3\nwait 1000")
    assert moves(events) == []
    events = run("swapper-chess", fen, "lift a1\nlift c3\nplace a1\nplace c3\nwait 300")
    assert moves(events) == ["c3<>a1"]


# ---------------------------------------------------------------- 17 placement
def test_17_O5_units_for_a_square_are_offered_in_placeables_order_plain_before_royal():
    """O5/O15: the units offered follow Position.placeable() (canonical order:
    by letters, a plain unit before the royal one of its type), not the moves' text order."""
    start = Position("start", "optima").fen()
    fen = start.replace("eq:ARCECHFAJUKEMAQUREVR*arcechfajukemaqurevr*", "eq:ARCECHFAJUKEMAQUVRVR*arcechfajukemaquvrvr*")
    p = Position(fen, "optima")
    assert p.placeable()[-2:] == ("VR", "VR*")
    table = MoveTable(p)
    m = table.match(table.expected | mask(p, "e1"), 0)
    assert m.kind == "place" and [e.move.placed for e in m.entries] == list(p.placeable())
    assert {e.move.to_square for e in m.entries} == {p.geometry.index["e1"]}


# ---------------------------------------------------------------- 15 conversion
def test_15_O11_an_approach_conversion_is_guided_whatever_other_conversions_the_position_has():
    """O12.16 (R18): the Keep d2 may swap-convert the Pawn d1 or approach the
    Archer d5 by d2-d4; after d2-d4 the board asks for the Archer d5 to be
    exchanged, and the move commits once it is."""
    fen = KEEP
    p = Position(fen, "optima")
    table = MoveTable(p)
    assert [str(e.move) for e in table.conversions] == ["d2-d1^d1", "d2-d4^d5"]
    m = table.match(table.expected & ~mask(p, "d2") | mask(p, "d4"), mask(p, "d2"))
    assert m.kind == "convert" and str(m.entry.move) == "d2-d4^d5"
    assert (named(p, m.extra), m.missing, m.remove) == (["d5"], 0, 0)
    events = run("optima", fen, "lift d2\nplace d4\nwait 2000\nlift d5\nplace d5\nwait 400")
    assert moves(events) == ["d2-d4^d5"]


def test_15_O11_lifting_either_unit_of_an_own_type_swap_conversion_alone_is_a_piece_in_hand():
    """O11: g8-g6^g6 needs both the mover and the converted unit lifted; one alone is in hand."""
    p = Position(AMBASSADORS, "optima")
    table = MoveTable(p)
    for square in ("g8", "g6"):
        m = table.match(table.expected & ~mask(p, square), mask(p, square))
        assert (m.kind, named(p, m.missing)) == ("lifted", [square]), square


def test_15_O11_units_lifted_and_set_back_one_after_the_other_are_no_swap_conversion():
    """O11 like D14's swaps: each unit lifted and set back before the other is lifted exchanges nothing."""
    events = run("optima", AMBASSADORS, "lift g8\nwait 300\nplace g8\nwait 300\nlift g6\nwait 300\nplace g6\nwait 4000")
    assert moves(events) == []
    events = run("optima", KEEP, "lift d1\nwait 300\nplace d1\nwait 300\nlift d2\nwait 300\nplace d2\nwait 4000")
    assert moves(events) == []


def test_15_O11_a_converted_unit_exchanged_first_counts_whatever_other_conversions_wait():
    """O11: two Agents may convert (c1-h6^g5, f10-j6^i7); the Archer g5
    exchanged before the Agent c1 moves, the move commits when it lands."""
    fen = "5AG4/10/9gd/8pn1/10/6ar3/10/4qu5/1vr*1PN6/2AG6VR* w - - 0"
    assert {"c1-h6^g5", "f10-j6^i7"} <= {str(m) for m in Position(fen, "optima").legal_moves}
    events = run("optima", fen, "lift g5\nwait 400\nplace g5\nwait 400\nlift c1\nplace h6\nwait 400")
    assert moves(events) == ["c1-h6^g5"]


def test_15_O11_a_conversion_that_captures_a_royal_lights_it_to_remove():
    """O11/O12.17: the Envoy d4-d5 converts the Archer c6 and captures the royal Viceroy e6
    (conversion captures a royal unit); the Envoy landed, both still stand."""
    fen = "10/10/10/10/2ar1vr*5/10/3EN6/10/10/qu8VR* w - - 0"
    p = Position(fen, "optima")
    table = MoveTable(p)
    m = table.match(table.expected & ~mask(p, "d4") | mask(p, "d5"), mask(p, "d4"))
    assert m.kind == "convert" and str(m.entry.move) == "d4-d5xe6^c6"
    assert (named(p, m.remove), named(p, m.extra), m.missing) == (["e6"], ["c6"], 0)


def test_7_a_wrong_board_is_measured_against_the_result_needing_the_fewest_pieces_handled():
    """Point 7: the Pawn d2 lifted, pieces on d5 and d7. As d2-d7 one piece
    (d5) is to be taken off; as the pincer d2-d5xc5,e5 three (d7, c5, e5)
    are: the board is shown as d2-d7 gone astray."""
    fen = "xxx2xxx/4k3/p7/8/8/1Pp1pP2/8/8/3P4/4K3/xxx2xxx w 0"
    p = Position(fen)
    table = MoveTable(p)
    assert {"d2-d7", "d2-d5xc5,e5"} <= {str(m) for m in p.legal_moves}
    m = table.match(table.expected & ~mask(p, "d2") | mask(p, "d5", "d7"), mask(p, "d2"))
    assert m.kind == "wrong" and str(m.entry.move) == "d2-d7"
    assert (named(p, m.extra), m.missing, m.remove) == (["d5"], 0, 0)


def test_15_O11_a_swap_conversion_under_way_is_guided_when_the_mover_has_another_target():
    """O12.15 (after R17): the Crusader e5 may swap-convert the Archer d6 or
    the Archer e6. The Archer e6 lifted, the Crusader set on e6: the board
    asks for the converted Archer on e5, though e5-d6^d6 comes first."""
    fen = "10/10/10/10/3arar1vr*3/3PNCR5/10/10/10/9VR* w - - 0"
    p = Position(fen, "optima")
    table = MoveTable(p)
    assert [str(e.move) for e in table.conversions] == ["e5-d6^d6", "e5-e6^e6"]
    m = table.match(table.expected & ~mask(p, "e5"), mask(p, "e5", "e6"))
    assert m.kind == "convert" and str(m.entry.move) == "e5-e6^e6"
    assert (named(p, m.missing), m.extra, m.remove) == (["e5"], 0, 0)
