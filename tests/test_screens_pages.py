"""The screens around play, each built from an explicit View (issue 35,
found untested by mutation testing): who owns the OLED (the screen's
rank), the set-up's pages, the guidance after a take-back or a resumed
game, pieces outside the game, a refused press, the game chooser, the end
of a Deckle game."""
from __future__ import annotations

import dataclasses

from maxima_board.board import guidance as g
from maxima_board.board.composer import Rank
from maxima_board.board.reconstruct import MoveTable
from maxima_board.board.records import Setup, Sync
from maxima_board.board.screens import render
from maxima_board.board.settings import Settings
from maxima_board.rules import START_FEN, Position

from tests.test_screens_edges import view
from tests.test_screens_play import KING2, PROMOTION, at


def text(v) -> str:
    lines = render(v).lines
    assert all(len(line) <= g.WIDTH for line in lines), lines
    return " ".join(lines[2:])


MENU = ("Menu 3/6  20s", "Agree draw?", ("OK = yes, BACK = cancel.",))


# ------------------------------------------------------------------ who owns the OLED
def ambiguous(**changes):
    return at(KING2, "maxima", lift=["e1", "d3", "f3"], put=["d3", "f3"], **changes)


def test_a_menu_question_and_which_move_are_pages_the_players_answer():
    assert render(view(menu=MENU)).rank == Rank.PAGE
    assert render(ambiguous()).rank == Rank.PAGE
    assert render(ambiguous(now=200, raw_since=0)).rank == Rank.GAME     # not settled yet: no question


def test_the_game_screen_is_shown_in_play_without_a_question():
    assert render(view()).rank == Rank.GAME
    assert render(at(PROMOTION, "coordinator-chess-10x8", lift=["e7"], put=["e8"])).rank == Rank.GAME


def test_without_a_board_in_set_up_or_after_the_game_a_menu_is_no_page():
    assert render(view(menu=MENU, link_ok=False)).rank == Rank.GAME
    assert render(view(menu=MENU, raw=None)).rank == Rank.GAME
    assert render(view(menu=MENU, mode="ended", result="1-0", reason="checkmate")).rank == Rank.GAME
    assert render(setup_view("maxima", menu=MENU)).rank == Rank.GAME


def test_a_store_failure_is_shown_on_the_game_screen_with_the_last_move():
    v = ambiguous(failure="Could not save the move.", game_id=5)
    screen = render(v)
    assert screen.rank == Rank.GAME
    assert screen.lines[1] == "Game 5: Maxima" and " ".join(screen.lines[2:]) == "Could not save the move."


def test_take_back_guidance_owns_the_oled_a_resumed_game_does_not():
    assert render(synced("takeback")).rank == Rank.GUIDANCE
    assert render(synced("resume")).rank == Rank.GAME


# ------------------------------------------------------------------ waiting, refused, chooser, outside squares
def test_in_play_before_the_first_frame_the_screen_waits_for_the_board():
    assert lines_of(view(raw=None, game_id=3)) == [
        "White to move      1.", "Game 3: Maxima", "Waiting for the", "board."]


def lines_of(v):
    return render(v).lines


def test_a_refused_press_says_why_instead_of_the_text():
    assert text(view(refused="Set up the board first.")) == "Set up the board first."


def test_the_chooser_is_shown_as_its_rows_and_keeps_the_move_offered():
    rows = ["Games 1/3", "> Maxima", "  Ultima"]
    v = dataclasses.replace(ambiguous(), chooser=rows)
    screen = render(v)
    assert screen.lines == rows and screen.rank == Rank.PAGE
    assert screen.pick == ((v.raw, v.lifted), 0)
    assert render(dataclasses.replace(v, link_ok=False)).lines[0] == "Board link lost"


def test_a_board_square_outside_the_game_is_lit_and_named():
    """Ultima's 8x8 on the 10x10 board: a piece on the board's i9 is outside the game."""
    v = at("7k/8/8/8/8/8/8/4K3 w 0", "ultima", outside=frozenset({"i9"}))
    screen = render(v)
    assert screen.leds == {"i9": "error-extra"}
    assert " ".join(screen.lines[2:]) == "Clear square i9: it is not part of the game."


def test_a_board_square_named_like_a_game_square_is_left_to_the_board_view():
    v = dataclasses.replace(view(), outside=frozenset({"a5"}))      # a5 is a Maxima square: not lit here
    assert "a5" not in render(v).leds


def test_an_open_menu_stays_readable_over_pieces_outside_the_game():
    v = view(menu=MENU, outside=frozenset({"z9"}))
    assert " ".join(render(v).lines[2:]) == "Agree draw? OK = yes, BACK = cancel."
    assert render(v).leds == {"z9": "error-extra"}


def test_in_set_up_pieces_outside_the_game_are_asked_off_even_with_a_menu():
    v = setup_view("maxima", menu=MENU, outside=frozenset({"z9"}))
    assert text(v) == "Clear square z9: it is not part of the game."


# ------------------------------------------------------------------ set-up
def setup_view(variant: str, raw="start", control: str = "none", walk=None, on_clock=False, on_game=False,
               on_forces=False, **changes):
    p = Position("start", variant)
    squares = [sq for sq in range(len(p.geometry.names)) if p.board[sq]]
    setup = Setup(p, MoveTable(p), squares, walk=walk, on_clock=on_clock, on_game=on_game, on_forces=on_forces)
    v = view(mode="setup", setup=setup, control=control, **changes)
    return dataclasses.replace(v, raw=p.occupancy() if raw == "start" else raw)


def test_set_up_ready_names_the_clock_when_there_is_one():
    assert lines_of(setup_view("maxima"))[1:] == ["Ready", "Board set up.", "OK or NEW to start."]
    assert lines_of(setup_view("maxima", control="90+30"))[1] == "Ready, clock 90+30"
    assert lines_of(setup_view("maxima", control="40/90+30"))[1] == "Ready, clock 40/90+30"    # a full row
    assert lines_of(setup_view("maxima", control="40/5400+30"))[1] == "Ready, 40/5400+30"      # "clock" left out


def test_set_up_without_a_board_waits_for_it():
    assert lines_of(setup_view("maxima", raw=None))[1:] == ["", "Waiting for the", "board."]


def test_set_up_says_how_many_squares_to_place_and_clear():
    v = setup_view("maxima", raw=0)
    assert lines_of(v)[1] == "Place 36, clear 0"
    assert text(v) == "Lit squares: place or clear. MENU: piece by piece."


def test_set_up_puts_a_note_before_its_guidance():
    v = setup_view("maxima", raw=0, note="Taken back.")
    assert lines_of(v)[2:] == ["Taken back. Lit", "squares: place or", "clear. MENU: piece b…"]


def test_set_up_shows_a_store_failure():
    assert lines_of(setup_view("maxima", raw=0, failure="Could not save."))[1:] == ["", "Could not save."]


def test_set_up_walks_the_pieces_one_by_one_counting_them():
    v = setup_view("maxima", raw=0, walk=0)
    assert lines_of(v)[1] == "Piece 1/36  OK=done"
    assert text(v) == "White Mage on b1. MENU next, BACK previous."
    assert lines_of(setup_view("maxima", raw=0, walk=35))[1] == "Piece 36/36  OK=done"


def test_set_up_forces_and_clock_pages_name_their_buttons():
    assert lines_of(setup_view("maxima", raw=0, on_forces=True))[1:] == [
        "Forces: eq", "OK = other forces.", "MENU = clock.", "BACK = done."]
    assert lines_of(setup_view("maxima", raw=0, on_clock=True, control="90+30"))[1:] == [
        "Clock: 90+30", "OK = other clock.", "MENU = the pieces.", "BACK = done."]


def test_D1_a_deckle_games_page_names_the_game_and_offers_the_other_size():
    ten = Settings(board_kind="10x10")
    assert lines_of(setup_view("coordinator-chess", raw=0, on_game=True, settings=ten))[1:] == [
        "Coordinator 10x10", "Other size 10x8: OK", "or set up its start.", "MENU clock, BACK done"]
    assert lines_of(setup_view("withdrawer-chess-10x8", raw=0, on_game=True, settings=ten))[1] == (
        "Game: Withdrawer 10x8")                                                         # just fits a row
    assert lines_of(setup_view("coordinator-chess", raw=0, settings=ten))[1:] == [
        "Place 40, clear 0", "Lit: place or clear.", "Or set up 10x8 start.", "MENU: more."]


# ------------------------------------------------------------------ take-back and resume
def synced(reason: str, board: str = "", raw=None, moves=None, required: int = 0, lifted: int = 0):
    """Maxima after 1. Pawn d3-d4 taken back (``reason`` "takeback"), or a
    game resumed at the start; the board ``raw`` (the position's own by default)."""
    p = Position(START_FEN)
    move = next(m for m in p.legal_moves if str(m) == "d3-d4")
    sync = Sync(reason, ["Pawn d3-d4"] if reason == "takeback" else [],
                [move] if moves is None else moves, required)
    v = view(mode="sync", sync=sync, game_id=4, lifted=lifted)
    return dataclasses.replace(v, raw=p.occupancy() if raw is None else raw)


def squares(*names: str) -> int:
    index = Position(START_FEN).geometry.index
    return sum(1 << index[n] for n in names)


def test_a_take_back_asks_to_move_the_piece_back_and_says_what_is_undone():
    after = Position(START_FEN)
    after.push("d3-d4")
    v = synced("takeback", raw=after.occupancy())
    assert lines_of(v)[1] == "Undo Pawn d3-d4"
    assert text(v) == "Pawn d4 back to d3."
    assert render(v).leds == {"d3": "error-missing", "d4": "error-extra"}
    two = dataclasses.replace(v, sync=dataclasses.replace(v.sync, undone=["Pawn d3-d4", "Pawn d7-d6"]))
    assert lines_of(two)[1] == "Undo Pawn d3-d4, Paw…"


def test_a_take_back_done_leaves_no_words_a_resumed_game_says_the_board_matches():
    assert lines_of(synced("takeback"))[1:] == ["Undo Pawn d3-d4"]
    assert lines_of(synced("resume"))[1:] == ["Resumed game 4", "Board matches."]


def test_a_resumed_game_names_a_piece_gone_astray():
    v = synced("resume", raw=Position(START_FEN).occupancy() & ~squares("d3") | squares("d5"), moves=[])
    assert text(v) == "Put the Pawn back on d3 from d5."


def test_a_resumed_game_with_two_pieces_off_asks_for_both_and_clears_the_square():
    v = synced("resume", raw=Position(START_FEN).occupancy() & ~squares("d3", "e3") | squares("d5"), moves=[])
    assert text(v) == "Put back: Pawn d3, e3. Take the piece off d5."
    v = synced("resume", raw=Position(START_FEN).occupancy() & ~squares("d3") | squares("d5", "e5"), moves=[])
    assert text(v) == "Put the Pawn back on d3. Take off: d5, e5."


def test_a_resumed_game_on_an_empty_board_asks_for_every_piece():
    v = synced("resume", raw=0, moves=[])
    assert render(v).leds.get("b1") == "error-missing"
    assert set(render(v).leds.values()) == {"error-missing"}                  # nothing to take off
    assert text(v).startswith("Put back: Mage b1, Withdrawer d1, King e1")


def test_a_swap_taken_back_lights_the_pieces_still_to_exchange():
    """The squares the take-back must see lifted (a swap's), standing and
    not yet lifted, are lit to take off and named to put back."""
    v = synced("takeback", moves=[], required=squares("d3", "e3"))
    assert render(v).leds == {"d3": "error-extra", "e3": "error-extra"}
    assert text(v) == "Put back: Pawn d3, e3."
    one = synced("takeback", moves=[], required=squares("d3"), raw=Position(START_FEN).occupancy() | squares("d5"))
    assert text(one) == "Put the Pawn back on d3. Take the piece off d5."


def test_a_black_piece_astray_is_named_with_its_colour():
    v = synced("resume", raw=Position(START_FEN).occupancy() & ~squares("d7") | squares("d5"), moves=[])
    assert text(v) == "Put the Black Pawn back on d7 from d5."


# ------------------------------------------------------------------ the end of a Deckle or Optima game
def test_D16_O13_a_draw_written_half_each_is_said_as_a_draw_with_its_reason():
    """Deckle and Optima write a draw 1/2-1/2 (deckle.md, optima.md)."""
    assert text(view(mode="ended", result="1/2-1/2", reason="stalemate")) == (
        "Draw: stalemate. Set up the start, then NEW.")


def test_D1_a_deckle_game_set_up_off_the_boards_corner_offers_no_other_size():
    """The 10x8 game set up one rank up the 10x10 board (offset a2): its 10x10
    form would not fit there, so the set-up does not offer it."""
    raised = Settings(board_kind="10x10", board_offset="a2")
    assert text(setup_view("coordinator-chess-10x8", raw=0, settings=raised)) == (
        "Lit squares: place or clear. MENU: piece by piece.")
    assert text(setup_view("coordinator-chess-10x8", raw=0, settings=Settings(board_kind="10x10"))) == (
        "Lit: place or clear. Or set up 10x10 start. MENU: more.")
