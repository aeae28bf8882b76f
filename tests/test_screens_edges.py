"""The screens at their edges, found untested by mutation testing (issue 35):
the board link's screens, the end of a game in words, the clocks in the
status bar, a long game number, ... each built from an explicit View."""
from __future__ import annotations

from maxima_board.board import guidance as g
from maxima_board.board.reconstruct import Match, MoveTable
from maxima_board.board.screens import View, move_text, move_words, offered, piece_move, render, unit_title
from maxima_board.board.sizes import printed_names
from maxima_board.board.settings import Settings
from maxima_board.rules import BLACK, START_FEN, WHITE, Position


def view(fen: str = START_FEN, **changes) -> View:
    """A game in play, its board standing as the position, nothing lifted."""
    p = Position(fen)
    fields = dict(now=10_000, settings=Settings(), mode="play", link_ok=True, position=p, table=MoveTable(p),
                  check=[], frozen={WHITE: [], BLACK: []}, raw=p.occupancy(), raw_since=0, lifted=0,
                  match=Match("idle"), pick=None, last=None, game_id=None, result="*", reason=None, note=None,
                  menu=None, failure=None, sync=None, setup=None)
    fields.update(changes)
    return View(**fields)


def lines(v: View) -> list[str]:
    shown = render(v).lines
    assert all(len(line) <= g.WIDTH for line in shown), shown
    return shown


# ------------------------------------------------------------------ the board link
def test_a_link_lost_after_frames_asks_to_wait_before_moving():
    assert lines(view(link_ok=False)) == ["Board link lost", "", "Reconnecting. Wait", "before you move."]


def test_a_board_never_found_asks_to_check_the_cable():
    assert lines(view(link_ok=False, raw=None)) == [
        "Board link lost", "", "Retrying. No board", "found: check the", "Pico's USB cable."]


def test_a_named_link_problem_is_said_with_the_cable_to_check():
    shown = lines(view(link_ok=False, link_problem="No board at /dev/x"))
    assert shown[:2] == ["Board link lost", ""]
    assert " ".join(shown[2:]) == "Retrying. No board at /dev/x: check the Pico's USB cable."


def test_a_long_device_path_still_says_it_is_retrying():
    """A path longer than a row is cut at the end: "Retrying." comes first, so it stays."""
    shown = lines(view(link_ok=False, link_problem="No board at /dev/serial/by-id/usb-Raspberry_Pi_Pico_E6614C-if00"))
    assert shown[2] == "Retrying. No board at" and shown[-1].endswith("…") and len(shown) == 5


def test_a_board_of_another_matrix_is_a_wrong_board():
    assert lines(view(link_ok=False, link_problem="Board has 8x8 squares")) == [
        "Wrong board", "", "Board has 8x8 squares"]


# ------------------------------------------------------------------ the end of a game
def test_a_won_game_says_who_won_and_why():
    assert lines(view(mode="ended", result="1-0", reason="checkmate")) == [
        "Game over         1-0", "", "White wins:", "checkmate. Set up the", "start, then NEW."]
    assert " ".join(lines(view(mode="ended", result="0-1", reason="checkmate"))[2:]) == (
        "Black wins: checkmate. Set up the start, then NEW.")


def test_a_resignation_names_the_side_that_resigned():
    assert lines(view(mode="ended", result="0-1", reason="resignation"))[2].startswith("White resigned. ")
    assert lines(view(mode="ended", result="1-0", reason="resignation"))[2].startswith("Black resigned. ")


def test_a_draw_by_agreement_and_a_draw_for_another_reason():
    assert " ".join(lines(view(mode="ended", result="1/2", reason="agreement"))[2:]) == (
        "Draw by agreement. Set up the start, then NEW.")
    assert " ".join(lines(view(mode="ended", result="1/2", reason="stalemate"))[2:]) == (
        "Draw: stalemate. Set up the start, then NEW.")


def test_with_the_next_start_standing_ok_or_new_starts_a_new_game():
    shown = lines(view(mode="ended", result="0-1", reason="resignation", start_standing=True, game_id=7))
    assert shown == ["Game over         0-1", "Game 7: Maxima", "White resigned.", "OK or NEW: new game."]


# ------------------------------------------------------------------ the status bar and second line
def test_the_status_bar_says_whose_move_and_the_move_number():
    assert lines(view())[0] == "White to move      1."
    black = "xxx2xxx/1g1qk1g1/1bnmrnb1/dppppppd/8/8/3P4/DPP1PPPD/1BNMRNB1/1G1QK1G1/xxx2xxx b 1"
    assert lines(view(black))[0] == "Black to move      1."


def test_the_status_bar_says_check():
    assert lines(view(check=[5]))[0] == "White: check!      1."


def test_the_clocks_mark_the_side_to_move_and_a_check():
    clocks = {"white": 5_399_000, "black": 5_400_000}
    assert lines(view(clocks=clocks))[0] == "*W 1:29:59  B 1:30:00"
    assert lines(view(clocks=clocks, check=[5]))[0] == "!W 1:29:59  B 1:30:00"
    black = "xxx2xxx/1g1qk1g1/1bnmrnb1/dppppppd/8/8/3P4/DPP1PPPD/1BNMRNB1/1G1QK1G1/xxx2xxx b 1"
    assert lines(view(black, clocks=clocks))[0] == "W 1:29:59  *B 1:30:00"


def test_the_second_line_names_the_game_and_a_long_number_briefly():
    assert lines(view(game_id=12))[1] == "Game 12: Maxima"
    assert lines(view(game_id=123456789012))[1] == "#123456789012 Maxima"


# ------------------------------------------------------------------ moves in words
def _move(p: Position, text: str):
    return next(m for m in p.legal_moves if str(m) == text)


def test_a_move_is_numbered_with_a_stop_for_white_and_three_for_black():
    p = Position("start", "ultima")
    assert move_words(p, _move(p, "e2-e3")) == "1. Pawn e2-e3"
    p.push(_move(p, "e2-e3"))
    assert move_words(p, _move(p, "e7-e4")) == "1... Pawn e7-e4"
    p.push(_move(p, "e7-e4"))
    assert move_words(p, _move(p, "d2-d3")) == "2. Pawn d2-d3"


def test_a_move_is_said_in_the_boards_printed_names():
    p = Position("start", "ultima")
    names = printed_names(p, ("10x10", ""))                     # Ultima's e2 is f3 on the 10x10 board
    move = _move(p, "e2-e3")
    assert move_words(p, move, names) == "1. Pawn f3-f4"
    assert piece_move(p, move, names=names) == "Pawn f3-f4"
    assert piece_move(p, move, 5, names) == "Pawn f3-f4"       # the compact form, renamed too
    assert move_text(p, move, names) == "f3-f4"
    assert move_text(p, move) == "e2-e3"


def test_a_placement_too_long_for_its_room_is_said_compactly_without_the_royal_mark():
    p = Position("start", "optima")
    move = _move(p, "AR@a1")
    assert piece_move(p, move) == "Places Archer on a1"
    assert piece_move(p, move, 5) == "Archer AR@a1"
    vr = next(m for m in p.legal_moves if getattr(m, "placed", None) == "VR*")
    assert piece_move(p, vr, 5) == f"Viceroy {vr}"


def test_an_optima_token_in_words_with_the_royal_mark():
    assert unit_title("VR*") == "Viceroy (royal)"
    assert unit_title("vr*") == "Viceroy (royal)"
    assert unit_title("VR*", royal=False) == "Viceroy"
    assert unit_title("VR") == "Viceroy"
    assert unit_title("AR") == "Archer"


def test_the_move_offered_is_kept_on_the_very_board_it_was_picked_on_only():
    picked = ((0b1011, 0b1), 1)
    assert offered(picked, 0b1011, 0b1) == picked
    assert offered(picked, 0b1011, 0) == ((0b1011, 0), 0)        # another lift: the first again
    assert offered(picked, 0b1111, 0b1) == ((0b1111, 0b1), 0)
    assert offered(None, None, 0) == ((0, 0), 0)                   # no board yet: as an empty one
    assert offered(((0, 0), 2), None, 0) == ((0, 0), 2)
