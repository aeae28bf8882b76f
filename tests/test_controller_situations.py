"""The ten situations of shared/design/controller.md, each driven by a board
script through the replay runner (the contract of ``maxima-board replay``)."""
from __future__ import annotations

import textwrap

import pytest

from maxima_board.service.script import parse_script, replay
from maxima_board.board.settings import Settings
from maxima_board.rules import START_FEN, Position

PINCER = "xxx2xxx/4k3/p7/8/8/1Pp1pP2/8/8/3P4/4K3/xxx2xxx w 0"        # d2-d5xc5,e5
BARE = "xxx2xxx/4k3/8/8/8/1Pp1pP2/8/8/3P4/4K3/xxx2xxx w 0"           # d2-d5xc5,e5 bares the King
LEAPER = "xxx2xxx/4k3/p7/8/8/2p5/8/8/2N5/4K3/xxx2xxx w 0"           # c2-c6xc5 ... c2-c9xc5
KING2 = "xxx2xxx/4k3/p7/8/8/8/8/3p1p2/P7/4K3/xxx2xxx w 0"            # e1-d3xd3, e1-f3xf3
FROZEN = "xxx2xxx/4k3/p7/8/8/8/8/2m5/2N5/4K3/xxx2xxx w 0"           # Leaper c2 immobilized: c2-S
MATE = "xxx2xxx/1g1b1m2/b2p1nM1/2p3kg/1dqp1pd1/N1p5/D6D/3R1PP1/1QP1P1K1/n2BN1G1/xxx2xxx w 90"  # d3-a6xg6#


def run(script: str, fen: str | None = None, **settings) -> tuple[list[dict], dict]:
    """The events of a script and its final line; every OLED frame shown on
    the way must fit the screen."""
    events = list(replay(parse_script(textwrap.dedent(script).splitlines()), Settings(**settings), fen))
    for e in events:
        lines = e.get("lines") if e["type"] == "display" else e.get("display")
        if lines is not None:
            assert len(lines) <= 5 and all(len(line) <= 21 for line in lines), lines
    return events[:-1], events[-1]


def moves(events: list[dict]) -> list[str]:
    return [e["move"] for e in events if e["type"] == "move"]


def words(lines: list[str]) -> str:
    return " ".join(lines)


def fen_after(fen: str, *played: str) -> str:
    p = Position(fen)
    for m in played:
        p.push(m)
    return p.fen()


# ------------------------------------------------------------------ 1. plain move
def test_1_plain_move_commits_after_the_settle_time_only():
    events, final = run("""
        lift d3
        place d4
        wait 299
    """)
    assert moves(events) == []
    events, final = run("""
        lift d3
        place d4
        wait 300
    """)
    assert moves(events) == ["d3-d4"]
    move = next(e for e in events if e["type"] == "move")
    assert move == {"type": "move", "move": "d3-d4", "fen": fen_after(START_FEN, "d3-d4")}
    assert final["fen"] == fen_after(START_FEN, "d3-d4")
    assert final["leds"] == {"d3": "last-from", "d4": "last-to"}
    assert "Black to move" in final["display"][0]
    assert "Pawn d3-d4" in words(final["display"])


def test_1_last_move_is_lit_for_a_while_only():
    _, final = run("""
        lift d3
        place d4
        wait 300
        wait 2999
    """)
    assert final["leds"] == {"d3": "last-from", "d4": "last-to"}
    _, final = run("""
        lift d3
        place d4
        wait 300
        wait 3000
    """)
    assert final["leds"] == {}
    assert "Pawn d3-d4" in words(final["display"])   # the OLED keeps it


def test_1_both_sides_play_in_turn():
    events, final = run("""
        lift d3
        place d5
        wait 400
        lift e7
        place e6
        wait 400
        lift c2
        place d3
        lift d3
        place e4
        wait 400
    """)
    assert moves(events) == ["d3-d5", "e7-e6", "c2-e4"]
    assert final["fen"] == fen_after(START_FEN, "d3-d5", "e7-e6", "c2-e4")


# ------------------------------------------------------------------ 2. slides
def test_2_slide_over_intermediate_squares_counts_only_the_final_square():
    events, final = run("""
        lift d3
        place d4
        wait 150
        lift d4
        place d5
        wait 290
        lift d5
        place d6
        wait 400
    """)
    assert moves(events) == ["d3-d6"]
    assert final["fen"] == fen_after(START_FEN, "d3-d6")


def test_2_a_rest_on_the_way_that_reaches_the_settle_time_is_a_move():
    events, _ = run("""
        lift d3
        place d4
        wait 300
        lift d4
        place d5
        wait 400
    """, settle_ms=300)
    # The first rest was long enough: d3-d4 is played, and moving the Pawn
    # again is then Black's turn taken by White.
    assert moves(events) == ["d3-d4"]


def test_2_settle_time_is_a_setting():
    events, _ = run("""
        lift d3
        place d4
        wait 300
        lift d4
        place d5
        wait 500
    """, settle_ms=500)
    assert moves(events) == ["d3-d5"]


# ------------------------------------------------------------------ 3. captures elsewhere
def test_3_pincer_captures_removed_after_placing_are_lit_remove():
    events, final = run("""
        lift d2
        place d3
        lift d3
        place d5
        wait 300
    """, fen=PINCER)
    assert moves(events) == []
    assert final["leds"] == {"c5": "remove", "e5": "remove"}
    assert "Remove: Pawn c5, e5" in words(final["display"])

    events, final = run("""
        lift d2
        place d5
        wait 300
        lift c5
        wait 300
    """, fen=PINCER)
    assert moves(events) == []
    assert final["leds"] == {"e5": "remove"}
    assert "Remove: Pawn e5" in words(final["display"])

    events, final = run("""
        lift d2
        place d5
        wait 300
        lift c5
        wait 500
        lift e5
        wait 300
    """, fen=PINCER)
    assert moves(events) == ["d2-d5xc5,e5"]
    assert final["fen"] == fen_after(PINCER, "d2-d5xc5,e5")
    assert final["leds"] == {"d2": "last-from", "d5": "last-to"}


def test_3_pincer_captures_removed_before_placing():
    events, final = run("""
        lift c5
        lift e5
        wait 2000
        lift d2
        wait 800
        place d5
        wait 300
    """, fen=PINCER)
    assert moves(events) == ["d2-d5xc5,e5"]
    # no error was shown while the pieces were in hand
    assert not [e for e in events if e["type"] == "error"]


def test_3_leaper_capture_with_the_captured_piece_removed_after():
    events, final = run("""
        lift c2
        place c4
        lift c4
        place c7
        wait 300
    """, fen=LEAPER)
    assert final["leds"] == {"c5": "remove"}
    events, final = run("""
        lift c2
        place c7
        wait 300
        lift c5
        wait 300
    """, fen=LEAPER)
    assert moves(events) == ["c2-c7xc5"]


# ------------------------------------------------------------------ 4. replacement
def test_4_replacement_capture_captured_piece_lifted_first():
    events, final = run("""
        lift f3
        wait 500
        lift e1
        place f3
        wait 300
    """, fen=KING2)
    assert moves(events) == ["e1-f3xf3"]
    assert final["fen"] == fen_after(KING2, "e1-f3xf3")


def test_4_replacement_capture_mover_lifted_first():
    events, final = run("""
        lift e1
        wait 2000
        lift d3
        place d3
        wait 300
    """, fen=KING2)
    assert moves(events) == ["e1-d3xd3"]
    # Holding the King in the air matches the occupancy of both captures;
    # nothing was committed or called an error meanwhile.
    assert not [e for e in events if e["type"] == "error"]


def test_4_two_replacements_with_the_same_occupancy_are_told_apart_by_lifts():
    for target in ("d3", "f3"):
        events, _ = run(f"""
            lift {target}
            lift e1
            place {target}
            wait 300
        """, fen=KING2)
        assert moves(events) == [f"e1-{target}x{target}"]


def test_4_still_ambiguous_the_oled_asks_and_ok_or_back_picks():
    script = """
        lift e1
        lift d3
        place d3
        lift f3
        place f3
        wait 300
    """
    events, final = run(script, fen=KING2)
    assert moves(events) == []
    assert "Which move? 1/2: King e1-d3xd3" in words(final["display"])
    events, _ = run(script + "press ok\n", fen=KING2)
    assert moves(events) == ["e1-d3xd3"]
    events, final = run(script + "press back\n", fen=KING2)
    assert moves(events) == []
    assert "Which move? 2/2: King e1-f3xf3" in words(final["display"])
    events, _ = run(script + "press back\npress ok\n", fen=KING2)
    assert moves(events) == ["e1-f3xf3"]


# ------------------------------------------------------------------ 5. suicide
def test_5_suicide_commits_after_the_suicide_time_with_a_countdown():
    events, final = run("""
        lift c2
        wait 2999
    """, fen=FROZEN)
    assert moves(events) == []
    countdown = [words(e["lines"]) for e in events if e["type"] == "display" and "suicide" in words(e["lines"])]
    assert [c.split("suicide in ")[1][:3] for c in countdown] == ["3 s", "2 s", "1 s"]
    events, final = run("""
        lift c2
        wait 3000
    """, fen=FROZEN)
    assert moves(events) == ["c2-S"]
    assert final["fen"] == fen_after(FROZEN, "c2-S")
    assert final["leds"] == {"c2": "last-from"}


def test_5_suicide_commits_at_once_with_ok():
    events, _ = run("""
        lift c2
        wait 100
        press ok
    """, fen=FROZEN)
    assert moves(events) == ["c2-S"]


def test_5_lifting_a_frozen_piece_to_look_at_it_is_not_a_suicide():
    events, final = run("""
        lift c2
        wait 2500
        place c2
        wait 10000
        press ok
    """, fen=FROZEN)
    assert moves(events) == []
    assert final["leds"] == {"c2": "immobilized"}


def test_5_suicide_time_is_a_setting():
    events, _ = run("""
        lift c2
        wait 1000
    """, fen=FROZEN, suicide_ms=1000)
    assert moves(events) == ["c2-S"]


# ------------------------------------------------------------------ 6. change of mind
def test_6_lift_put_back_and_move_another_piece():
    events, final = run("""
        lift c2
        wait 1000
        place c2
        wait 1000
        lift d3
        place d4
        wait 200
        lift d4
        place d3
        wait 500
        lift c3
        place c5
        wait 300
    """)
    assert moves(events) == ["c3-c5"]
    assert final["fen"] == fen_after(START_FEN, "c3-c5")


def test_6_a_replacement_begun_and_abandoned_then_the_other():
    events, _ = run("""
        lift d3
        wait 300
        place d3
        wait 300
        lift f3
        lift e1
        place f3
        wait 300
    """, fen=KING2)
    assert moves(events) == ["e1-f3xf3"]


# ------------------------------------------------------------------ 7. wrong states
def test_7_illegal_move_is_shown_after_the_grace_time_and_recovers():
    events, final = run("""
        lift d3
        place e4
        wait 1499
    """)
    assert final["leds"] == {}
    events, final = run("""
        lift d3
        place e4
        wait 1500
    """)
    assert moves(events) == []
    assert final["leds"] == {"d3": "error-missing", "e4": "error-extra"}
    text = words(final["display"])
    assert "Pawn d3 cannot move to e4." in text and "Put the Pawn back on d3" in text
    errors = [e for e in events if e["type"] == "error"]
    assert errors and errors[-1]["missing"] == ["d3"] and errors[-1]["extra"] == ["e4"]
    events, final = run("""
        lift d3
        place e4
        wait 1500
        lift e4
        place d3
        wait 300
    """)
    assert final["leds"] == {} and "Put" not in words(final["display"])
    events, final = run("""
        lift d3
        place e4
        wait 1500
        lift e4
        place d4
        wait 300
    """)
    assert moves(events) == ["d3-d4"]   # play resumes by itself on a legal result


def test_7_grace_time_is_a_setting():
    _, final = run("""
        lift d3
        place e4
        wait 500
    """, grace_ms=500)
    assert final["leds"] == {"d3": "error-missing", "e4": "error-extra"}


def test_7_a_piece_of_the_wrong_side():
    events, final = run("""
        lift c7
        place c6
        wait 1500
    """)
    assert moves(events) == []
    assert final["leds"] == {"c7": "error-missing", "c6": "error-extra"}
    text = words(final["display"])
    assert "White to move." in text and "Put the Black Pawn back on c7" in text
    events, _ = run("""
        lift c7
        place c6
        wait 1500
        lift c6
        place c7
        wait 300
        lift c3
        place c4
        wait 300
    """)
    assert moves(events) == ["c3-c4"]


def test_7_the_wrong_piece_removed_after_a_capture():
    script = """
        lift d2
        place d5
        wait 300
        lift c5
        lift f5
        wait 1500
    """
    events, final = run(script, fen=PINCER)
    assert moves(events) == []
    assert final["leds"] == {"f5": "error-missing", "e5": "remove"}
    text = words(final["display"])
    assert "Put the Pawn back on f5" in text and "Remove: Pawn e5" in text
    events, final = run(script + """
        place f5
        wait 300
        lift e5
        wait 300
    """, fen=PINCER)
    assert moves(events) == ["d2-d5xc5,e5"]


def test_7_pieces_knocked_off_the_board():
    _, final = run("""
        lift b3
        lift c3
        wait 1500
    """)
    assert final["leds"] == {"b3": "error-missing", "c3": "error-missing"}
    assert "Put back: Pawn b3, c3" in words(final["display"])


def test_7_nothing_commits_while_the_board_is_wrong():
    events, _ = run("""
        lift d3
        place d4
        place h5
        wait 5000
    """)
    assert moves(events) == []


# ------------------------------------------------------------------ 8. take-back
def test_8_take_back_names_the_captured_pieces_to_put_back():
    script = """
        lift d2
        place d5
        lift c5
        lift e5
        wait 300
        press back
    """
    events, final = run(script, fen=PINCER)
    assert [e["move"] for e in events if e["type"] == "takeback"] == ["d2-d5xc5,e5"]
    assert final["moves"] == [] and final["fen"] == PINCER
    assert final["leds"] == {"c5": "error-missing", "e5": "error-missing",
                             "d2": "error-missing", "d5": "error-extra"}
    text = words(final["display"])
    assert "Pawn d5 back to d2." in text and "Put back: Black Pawn c5, e5." in text
    events, final = run(script + """
        lift d5
        place d2
        place c5
        wait 300
    """, fen=PINCER)
    assert final["leds"] == {"e5": "error-missing"}
    assert "Put the Black Pawn back on e5." in words(final["display"])
    events, final = run(script + """
        lift d5
        place d2
        place c5
        place e5
        wait 300
        lift d2
        place d5
        wait 300
    """, fen=PINCER)
    assert final["leds"] == {"c5": "remove", "e5": "remove"}   # the same move again, from the top


def test_8_no_move_commits_until_the_take_back_is_done():
    events, final = run("""
        lift d3
        place d4
        wait 300
        press back
        wait 300
        lift e7
        place e6
        wait 1000
    """)
    assert moves(events) == ["d3-d4"]
    assert final["moves"] == []


def test_8_take_back_of_a_replacement_asks_for_the_captured_piece_on_its_square():
    script = """
        lift d3
        lift e1
        place d3
        wait 300
        press back
        wait 300
    """
    events, final = run(script, fen=KING2)
    assert final["leds"] == {"e1": "error-missing", "d3": "error-extra"}
    assert "Put back: King e1, Black Pawn d3." in words(final["display"])
    # Putting a piece on e1 does not finish: the King must leave d3.
    _, final = run(script + "place e1\nwait 300\n", fen=KING2)
    assert final["leds"] == {"d3": "error-extra"}
    events, final = run(script + """
        lift d3
        place e1
        place d3
        wait 300
    """, fen=KING2)
    assert final["leds"] == {}
    assert any(e["type"] == "sync" for e in events)
    assert "Taken back." in words(final["display"])


def test_8_take_back_by_restoring_the_previous_position():
    events, final = run("""
        lift d3
        place d4
        wait 300
        lift d4
        place d3
        wait 300
    """)
    assert [e["move"] for e in events if e["type"] == "takeback"] == ["d3-d4"]
    assert final["moves"] == [] and final["fen"] == START_FEN
    events, _ = run("""
        lift d3
        place d4
        wait 300
        lift d4
        place d3
        wait 300
    """, takeback_by_restore=False)
    assert not [e for e in events if e["type"] == "takeback"]


def test_8_back_with_no_move_says_so():
    _, final = run("press back\n")
    assert "Nothing to take back." in words(final["display"])


def test_8_two_moves_taken_back():
    events, final = run("""
        lift d3
        place d4
        wait 300
        lift c7
        place c5
        wait 300
        press back
        press back
        lift c5
        place c7
        lift d4
        place d3
        wait 300
    """)
    assert [e["move"] for e in events if e["type"] == "takeback"] == ["c7-c5", "d3-d4"]
    assert final["fen"] == START_FEN and final["leds"] == {}


# ------------------------------------------------------------------ 9. set-up
def test_9_setup_of_the_start_position():
    script = """
        board empty
        setup start
        wait 300
    """
    events, final = run(script)
    assert final["moves"] == [] and final["fen"] == START_FEN
    start_squares = {Position().geometry.names[sq] for sq, _ in Position().pieces()}
    assert final["leds"] == {sq: "setup-missing" for sq in start_squares}
    assert "Place 36, clear 0" in words(final["display"])
    # a stray piece is to be cleared, placed pieces go dark
    _, final = run(script + "place e5\nplace d1\nwait 300\n")
    assert final["leds"]["e5"] == "error-extra" and "d1" not in final["leds"]
    # MENU offers the game (18), then the clock, then walks through the pieces by name
    _, final = run(script + "press menu\n")
    assert "OK   Maxima*" in final["display"] and final["display"][0].startswith("Choose a game")
    _, final = run(script + "press menu\npress menu\n")
    assert "Clock: none" in words(final["display"])
    _, final = run(script + "press menu\npress menu\npress menu\n")
    assert final["leds"] == {"b1": "setup-missing"}
    assert "White Mage on b1" in words(final["display"])
    _, final = run(script + "press menu\npress menu\npress menu\npress menu\npress menu\n")
    assert "White King on e1" in words(final["display"])
    _, final = run(script + "press menu\npress menu\npress menu\npress back\n")
    assert "Black Mage on g9" in words(final["display"])
    # nothing starts before the board is right, OK starts once it is
    events, final = run(script + "press ok\n")
    assert not [e for e in events if e["type"] == "new_game" and e["game"] != 1]
    events, final = run(script + "board start\nwait 300\n")
    assert "OK or NEW to start" in words(final["display"])
    events, final = run(script + "board start\nwait 300\npress ok\nlift d3\nplace d4\nwait 300\n")
    assert [e["fen"] for e in events if e["type"] == "new_game"][-1] == START_FEN
    assert moves(events) == ["d3-d4"]


def test_9_a_first_move_on_a_set_up_board_starts_the_game():
    events, _ = run("""
        board empty
        setup start
        board start
        wait 300
        lift d3
        place d4
        wait 300
    """)
    assert [e["game"] for e in events if e["type"] == "new_game"] == [1, 2]
    assert moves(events) == ["d3-d4"]


def test_9_setup_from_a_fen():
    pincer = Position(PINCER)
    squares = " ".join(pincer.geometry.names[sq] for sq, _ in pincer.pieces())
    script = """
        setup xxx2xxx/4k3/p7/8/8/1Pp1pP2/8/8/3P4/4K3/xxx2xxx w 0
        wait 300
    """
    _, final = run(script)
    assert final["fen"] == PINCER
    assert final["leds"]["c5"] == "setup-missing" and final["leds"]["d3"] == "error-extra"
    assert "Set-up" in final["display"][0] and "FEN" in final["display"][0]
    events, final = run(script + f"board {squares}\nwait 300\npress new\n"
                        "lift d2\nplace d5\nlift c5\nlift e5\nwait 300\n")
    assert [e["fen"] for e in events if e["type"] == "new_game"][-1] == PINCER
    assert moves(events) == ["d2-d5xc5,e5"]


# ------------------------------------------------------------------ 10. game end
def test_10_game_end_is_shown_and_a_new_game_starts_on_the_start_position_and_new():
    script = """
        lift d2
        place d5
        lift c5
        lift e5
        wait 300
    """
    events, final = run(script, fen=BARE)
    assert {"type": "game_end", "result": "1-0", "reason": "bare king"} in events
    assert final["result"] == "1-0" and final["reason"] == "bare king"
    assert "Game over" in final["display"][0] and "White wins: bare king." in words(final["display"])
    # moves after the end are not played
    events, final = run(script + "lift e9\nplace e8\nwait 2000\n", fen=BARE)
    assert moves(events) == ["d2-d5xc5,e5"]
    # NEW on the set-up start position starts a new game at once
    events, final = run(script + "board start\nwait 300\npress new\n", fen=BARE)
    assert [e["fen"] for e in events if e["type"] == "new_game"][-1] == START_FEN
    assert final["result"] == "*" and final["moves"] == [] and final["fen"] == START_FEN
    # OK elsewhere begins the set-up; the game starts when it is done and OK is pressed
    events, final = run(script + "press ok\nwait 300\n", fen=BARE)
    assert "Set-up" in final["display"][0]
    events, final = run(script + "press ok\nboard start\nwait 300\npress ok\n", fen=BARE)
    assert final["fen"] == START_FEN and "White to move" in final["display"][0]


def test_10_checkmate_lights_the_mated_king():
    events, final = run("""
        lift d3
        place a6
        lift g6
        wait 300
    """, fen=MATE)
    assert moves(events) == ["d3-a6xg6"]
    assert final["result"] == "1-0" and final["reason"] == "checkmate"
    assert final["leds"]["g7"] == "check"
    assert "White wins: checkmate." in words(final["display"])


@pytest.mark.parametrize("presses, result, reason, said", [
    ("menu menu ok", "0-1", "resignation", "White resigned."),      # the first item is the game (issue 21)
    ("menu menu menu ok", "1-0", "resignation", "Black resigned."),
    ("menu menu menu menu ok", "1/2", "agreement", "Draw by agreement."),
])
def test_10_resignation_and_agreed_draw_by_the_menu(presses, result, reason, said):
    script = "".join(f"press {b}\n" for b in presses.split())
    events, final = run(script)
    assert {"type": "game_end", "result": result, "reason": reason} in events
    assert final["result"] == result and final["reason"] == reason
    assert said in words(final["display"])


def test_10_menu_is_cancelled_with_back_and_new_asks_first():
    _, final = run("press menu\npress back\n")
    assert final["result"] == "*" and "Resign" not in words(final["display"])
    _, final = run("press new\n")
    assert "New game?" in words(final["display"]) and final["result"] == "*"
    events, final = run("lift d3\nplace d4\nwait 300\npress new\npress ok\n")
    assert "Set-up" in final["display"][0] and final["moves"] == []


def test_10_back_after_a_resignation_reopens_the_game():
    events, final = run("press menu\npress menu\npress ok\npress back\nlift d3\nplace d4\nwait 300\n")
    assert final["result"] == "*" and moves(events) == ["d3-d4"]


def test_10_take_back_after_the_end_reopens_the_game():
    events, final = run("""
        lift d2
        place d5
        lift c5
        lift e5
        wait 300
        press back
    """, fen=BARE)
    assert final["result"] == "*" and final["fen"] == BARE
