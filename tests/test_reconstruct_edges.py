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


def test_11_half_a_castling_is_partial_with_its_entry():
    """Point 11: the King on i1, the Rook still on j1."""
    p = Position(CASTLE_8, TENX8)
    table = MoveTable(p)
    m = table.match(table.expected & ~mask(p, "f1") | mask(p, "i1"), mask(p, "f1"))
    assert m.kind == "move" or m.kind in ("early", "partial")
    m = table.match(table.expected & ~mask(p, "f1", "j1") | mask(p, "i1"), mask(p, "f1", "j1"))
    assert m.kind == "partial" and str(m.entry.move) == "f1-i1"


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
    fen = "4gdengd1cecm*/2pn2gd1gdgdgd/6am3/9pn/1gd4AM3/10/10/1PNGD2PNGD1PNPN/GDGDCM*4GD1GD/CEEN3LE4 b - - 97"
    p = Position(fen, "optima")
    table = MoveTable(p)
    swap = next(e for e in table.entries if str(e.move) == "g8-g6^g6")
    assert swap.lifts == mask(p, "g8", "g6") and swap.result == table.expected
    events = run("optima", fen, "lift g8\nwait 500\nplace g8\nwait 4000")
    assert moves(events) == []
    events = run("optima", fen, "lift g8\nlift g6\nplace g6\nplace g8\nwait 400")
    assert moves(events) == ["g8-g6^g6"]
