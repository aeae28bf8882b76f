"""The OLED's words at their edges, found untested by mutation testing
(issue 35): the several-squares sentences, pieces named from the other
side, a word longer than a line, a text cut with "…", an overflowing
status bar, the reason "not in this game" kept only while it fits."""
from __future__ import annotations

from maxima_board.board import guidance as g
from maxima_board.devices.interfaces import LED_STATES
from maxima_board.rules import BLACK, WHITE
from maxima_board.rules.position import Piece

KING, MAGE, GUARD, WITHDRAWER, PAWN = 1, 2, 3, 4, 9      # maxima_board.rules.pieces codes


def piece(code: int, color: int) -> Piece:
    return Piece(code, color)


def fits_the_oled(lines: list[str]) -> bool:
    return all(len(line) <= g.WIDTH for line in lines)


# ------------------------------------------------------------------ the LEDs
def test_where_layers_overlap_the_state_listed_first_wins_whatever_the_layer_order():
    first, later = LED_STATES[0], LED_STATES[-1]           # "error-extra" before "hint"
    assert g.compose_leds([(later, ["d4"]), (first, ["d4"])]) == {"d4": first}
    assert g.compose_leds([(first, ["d4"]), (later, ["d4"])]) == {"d4": first}


def test_a_square_lit_by_one_layer_only_keeps_its_state():
    leds = g.compose_leds([("hint", ["e5", "a1"]), ("check", ["e9"]), ("hint", ["e5"])])
    assert leds == {"a1": "hint", "e5": "hint", "e9": "check"}


def test_the_led_map_lists_its_squares_in_name_order():
    leds = g.compose_leds([("last-to", ["h8"]), ("last-from", ["b2", "a1"])])
    assert list(leds) == ["a1", "b2", "h8"]


def test_no_layers_light_nothing():
    assert g.compose_leds([]) == {}


# ------------------------------------------------------------------ pieces in words
def test_a_piece_of_the_side_to_move_is_named_without_its_colour():
    assert g.piece_name(piece(PAWN, WHITE), WHITE) == "Pawn"
    assert g.piece_name(piece(MAGE, BLACK), BLACK) == "Mage"


def test_a_piece_of_the_other_side_is_named_with_its_own_colour():
    assert g.piece_name(piece(PAWN, WHITE), BLACK) == "White Pawn"     # not "Black Pawn"
    assert g.piece_name(piece(PAWN, BLACK), WHITE) == "Black Pawn"


def test_a_list_writes_a_name_repeated_in_a_row_once_and_again_after_another():
    items = [("Black Pawn", "c5"), ("Black Pawn", "e5"), ("Guard", "d7"), ("Black Pawn", "f5")]
    assert g.listing(items) == "Black Pawn c5, e5, Guard d7, Black Pawn f5"


def test_putting_back_one_piece_or_several():
    assert g.put_back([]) == ""
    assert g.put_back([("Leaper", "c2")]) == "Put the Leaper back on c2."
    assert g.put_back([("Pawn", "c3"), ("Pawn", "d3"), ("Guard", "a3")]) == "Put back: Pawn c3, d3, Guard a3."


def test_taking_off_one_unknown_piece_or_several():
    assert g.take_off([]) == ""
    assert g.take_off(["a1"]) == "Take the piece off a1."
    assert g.take_off(["a1", "b2"]) == "Take off: a1, b2."
    assert g.take_off(["a1", "b2", "h8"]) == "Take off: a1, b2, h8."


def test_removing_captured_pieces():
    assert g.remove([]) == ""
    assert g.remove([("Pawn", "c5"), ("Pawn", "e5")]) == "Remove: Pawn c5, e5."


def test_a_piece_astray_and_a_move_taken_back_name_both_squares():
    assert g.astray("Leaper", "c2", "c4") == "Put the Leaper back on c2 from c4."
    assert g.move_back("Guard", "a7", "a6") == "Guard a6 back to a7."


# ------------------------------------------------------------------ squares off the game
def test_unknown_pieces_off_the_game_are_squares_to_clear():
    assert g.not_in_game(["a0"]) == "Clear square a0: it is not part of the game."
    assert g.not_in_game(["a0", "j9"]) == "Clear squares a0, j9: they are not part of the game."
    assert g.not_in_game(["a0", "j9"], [None, None]) == "Clear squares a0, j9: they are not part of the game."


def test_one_known_piece_off_the_game_is_named_with_the_reason():
    assert g.not_in_game(["b9"], [piece(MAGE, BLACK)]) == "Take off Black Mage b9. It is not in this game."


def test_known_pieces_off_the_game_are_named_by_colour_once_per_run():
    text = g.not_in_game(["b9", "e9", "a0"], [piece(MAGE, BLACK), piece(KING, BLACK), piece(GUARD, WHITE)])
    assert text == "Take off Black Mage b9, King e9, White Guard a0."   # the reason would not fit (below)


def test_a_square_of_unknown_piece_among_known_ones_breaks_the_colour_run():
    text = g.not_in_game(["b9", "c9", "e9"], [piece(MAGE, BLACK), None, piece(KING, BLACK)])
    assert text == "Take off Black Mage b9, piece c9, Black King e9."


def test_pieces_beyond_those_known_count_as_unknown():
    text = g.not_in_game(["b9", "c9"], [piece(MAGE, BLACK)])
    assert text == "Take off Black Mage b9, piece c9. They are not in this game."


def test_the_reason_is_left_out_when_the_whole_would_not_fit_the_screen():
    squares = ["a0", "b0", "c0", "h0", "i0", "j0"]
    pieces = [piece(WITHDRAWER, WHITE), piece(GUARD, BLACK), piece(WITHDRAWER, WHITE),
              piece(GUARD, BLACK), piece(WITHDRAWER, WHITE), piece(GUARD, BLACK)]
    text = g.not_in_game(squares, pieces)
    assert text == ("Take off White Withdrawer a0, Black Guard b0, White Withdrawer c0, Black Guard h0, "
                    "White Withdrawer i0, Black Guard j0.")


def test_the_reason_is_kept_when_it_just_fits_the_screen():
    text = g.not_in_game(["b9", "e9"], [piece(MAGE, BLACK), piece(KING, BLACK)])
    assert text == "Take off Black Mage b9, King e9. They are not in this game."
    assert g.wrap(text) == ["Take off Black Mage", "b9, King e9. They are", "not in this game."]


def test_the_reason_is_left_out_when_it_would_take_a_fourth_line():
    text = g.not_in_game(["a0", "b0"], [piece(MAGE, WHITE), piece(MAGE, BLACK)])
    assert text == "Take off White Mage a0, Black Mage b0."
    assert len(g.wrap(text + " They are not in this game.", 9)) == g.TEXT_LINES + 1


# ------------------------------------------------------------------ one line
def test_the_status_bar_puts_its_right_text_flush_right():
    line = g.status_line("White to move", "12.")
    assert line == "White to move" + " " * 5 + "12." and len(line) == g.WIDTH


def test_the_status_bar_keeps_at_least_one_space_between_its_texts():
    left = "x" * (g.WIDTH - 4)                              # 17 + a space + 3: exactly a line
    assert g.status_line(left, "12.") == left + " 12."
    left = "x" * (g.WIDTH - 3)                              # no room for the space: one text, cut
    assert g.status_line(left, "12.") == left + " 1…"


def test_an_overflowing_status_bar_is_cut_with_an_ellipsis():
    line = g.status_line("Black: check! Black", "130.")
    assert line == "Black: check! Black …"[:g.WIDTH - 1] + "…" and len(line) == g.WIDTH
    assert g.status_line("Set-up Ultima chess variant") == "Set-up Ultima chess …"


def test_a_status_bar_without_a_right_text_is_the_left_text_alone():
    assert g.status_line("Game over") == "Game over"


def test_a_line_of_exactly_the_width_is_kept_and_one_more_character_is_cut():
    assert g.fit("x" * g.WIDTH) == "x" * g.WIDTH
    assert g.fit("x" * (g.WIDTH + 1)) == "x" * (g.WIDTH - 1) + "…"


# ------------------------------------------------------------------ wrapping
def test_a_button_phrase_is_one_piece_and_other_words_are_pieces_of_their_own():
    assert g.phrases("Agree draw? OK = yes, BACK = cancel.") == ["Agree", "draw?", "OK = yes,", "BACK = cancel."]
    assert g.phrases("Board set up. OK or NEW to start.") == ["Board", "set", "up.", "OK or NEW to start."]


def test_a_button_phrase_without_an_end_runs_to_the_end_of_the_text():
    assert g.phrases("Then press OK to go on") == ["Then", "press", "OK to go on"]


def test_a_button_phrase_ends_at_the_first_word_ending_a_sentence():
    assert g.phrases("OK now. Then wait.") == ["OK now.", "Then", "wait."]


def test_a_button_phrase_of_exactly_a_line_is_one_piece():
    assert g.phrases("OK to start the game.") == ["OK to start the game."]     # 21 characters


def test_a_button_name_ending_a_sentence_starts_no_phrase():
    assert g.phrases("Press OK. Then wait,") == ["Press", "OK.", "Then", "wait,"]
    assert g.phrases("MENU: more.") == ["MENU:", "more."]


def test_a_button_phrase_too_long_for_a_line_is_cut_into_words():
    text = "OK = start the game with these pieces."
    assert g.phrases(text) == ["OK = start", "the", "game", "with", "these", "pieces."]


def test_an_equals_sign_stays_between_its_neighbours():
    assert g.phrases("Lit: x = y") == ["Lit:", "x = y"]
    assert g.phrases("= first") == ["=", "first"]                 # nothing before it to glue to
    assert g.phrases("last =") == ["last", "="]                   # nothing after it


def test_an_equals_sign_is_not_glued_when_the_three_words_overflow_a_line():
    long = "x" * 10
    assert g.phrases(f"{long} = {long}") == [long, "=", long]
    short = "x" * 9                                             # 9 + 3 + 9: exactly a line
    assert g.phrases(f"{short} = {short}") == [f"{short} = {short}"]


def test_a_word_longer_than_a_line_is_broken_over_lines():
    word = "Abcdefghijklmnopqrstuvwxyz"                         # 26 characters
    assert g.wrap(word) == [word[:g.WIDTH], word[g.WIDTH:]]
    assert g.wrap(f"Set {word} up") == ["Set", word[:g.WIDTH], word[g.WIDTH:] + " up"]


def test_a_word_of_two_lines_exactly_fills_both():
    word = "y" * (2 * g.WIDTH)
    assert g.wrap(f"{word} z") == ["y" * g.WIDTH, "y" * g.WIDTH, "z"]


def test_words_that_exactly_fill_a_line_stay_on_it():
    assert g.wrap("x" * 10 + " " + "y" * 10 + " z") == ["x" * 10 + " " + "y" * 10, "z"]


def test_a_text_longer_than_the_screen_ends_in_an_ellipsis_after_a_space():
    text = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen"
    lines = g.wrap(text)
    assert lines == ["one two three four", "five six seven eight", "nine ten eleven …"]


def test_a_cut_text_whose_last_line_is_full_ends_in_an_ellipsis_in_its_last_column():
    full = "x" * g.WIDTH
    assert g.wrap(f"{full} {full} {full} more") == [full, full, full[:-1] + "…"]
    nearly = "y" * (g.WIDTH - 1)                                # no room for " …": the "…" takes the last column
    assert g.wrap(f"{full} {full} {nearly} more") == [full, full, nearly + "…"]


def test_a_text_of_exactly_the_lines_allowed_is_not_cut():
    assert g.wrap("a b c", 1) == ["a b c"]
    full = "x" * g.WIDTH
    assert g.wrap(f"{full} {full}", 2) == [full, full]
    assert g.wrap(f"{full} {full} z", 2) == [full, full[:-1] + "…"]
    assert g.wrap(f"{full} z y", 2) == [full, "z y"]
    assert g.wrap(f"{full} z y {full}", 2) == [full, "z y …"]


KEYS = ("OK = yes, MENU = next, BACK = cancel.", "OK = yes, BACK = no, MENU = next.", "OK = yes, MENU = next")


def test_a_question_takes_the_fullest_button_words_that_fit():
    # "Agree draw? OK = yes," / "MENU = next," / "BACK = cancel.": exactly the three lines
    assert g.ask("Agree draw?", KEYS) == "Agree draw? OK = yes, MENU = next, BACK = cancel."
    assert g.wrap(g.ask("Agree draw?", KEYS)) == ["Agree draw? OK = yes,", "MENU = next,", "BACK = cancel."]


def test_a_question_takes_shorter_button_words_when_the_fullest_need_one_line_more():
    question = "Abandon game 12 now?"
    assert len(g.wrap(f"{question} {KEYS[0]}", 9)) == 4
    assert g.ask(question, KEYS) == f"{question} {KEYS[1]}"


def test_a_question_too_long_for_any_wording_takes_the_last():
    question = "Abandon the game with these many words said?"
    assert g.ask(question, KEYS) == f"{question} OK = yes, MENU = next"
    assert len(g.wrap(f"{question} {KEYS[-1]}", g.TEXT_LINES + 1)) > g.TEXT_LINES


def test_the_screen_is_the_status_bar_the_second_line_then_the_text_wrapped():
    lines = g.screen("White to move", "1. Pawn d3-d4", "Put the Leaper back on c2.")
    assert lines == ["White to move", "1. Pawn d3-d4", "Put the Leaper back", "on c2."]


def test_the_screen_cuts_its_first_two_lines_to_the_width():
    lines = g.screen("s" * 30, "t" * 30, "")
    assert lines == ["s" * (g.WIDTH - 1) + "…", "t" * (g.WIDTH - 1) + "…"]


def test_the_screen_drops_trailing_empty_lines_only():
    assert g.screen("Board link lost", "", "") == ["Board link lost"]
    assert g.screen("Board link lost", "", "Retrying.") == ["Board link lost", "", "Retrying."]
    assert g.screen("", "", "") == []
