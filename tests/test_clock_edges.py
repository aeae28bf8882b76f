"""The chess clock's edges that mutation testing found untested (issue 35):
Black to move first, the bounds of a time control, resuming after an even
number of plies, the flag itself, a pause, three stages, Optima's flag fall."""
from __future__ import annotations

import pytest

from maxima_board.board.clock import (MAX_MINUTES, MAX_MOVES, MAX_SECONDS, Clock, Stage, TimeControl, TimeControlError,
                                      flag_result,
                                      parse_time_control)
from maxima_board.rules import BLACK, WHITE, Position, variants


def test_a_game_started_with_black_to_move_runs_blacks_clock():
    clock = Clock.start(parse_time_control("10"), BLACK).run(0)
    assert clock.remaining(BLACK, 4_000) == 596_000
    assert clock.remaining(WHITE, 4_000) == 600_000
    after = clock.press(4_000, 4_000)
    assert after.turn == WHITE and after.moves_made(BLACK) == 1 and after.moves_made(WHITE) == 0
    assert after.remaining(WHITE, 9_000) == 595_000 and after.remaining(BLACK, 9_000) == 596_000


@pytest.mark.parametrize("text, stages", [
    ("1/10,5", ((1, 10), (None, 5))),                            # a one-move stage
    (f"{MAX_MOVES}/1,1", ((MAX_MOVES, 1), (None, 1))),
    (str(MAX_MINUTES), ((None, MAX_MINUTES),)),                  # a 600-minute control
    ("1", ((None, 1),)),
])
def test_the_bounds_of_a_time_control_are_accepted(text, stages):
    control = parse_time_control(text)
    assert tuple((s.moves, s.minutes) for s in control.stages) == stages
    assert str(control) == text


@pytest.mark.parametrize("text, why", [
    ("0/10,5", f'time control "0/10,5": moves must be 1 to {MAX_MOVES}, got 0'),
    (f"{MAX_MOVES + 1}/10,5", f'time control "{MAX_MOVES + 1}/10,5": moves must be 1 to {MAX_MOVES}, '
                              f'got {MAX_MOVES + 1}'),
    ("0", f'time control "0": minutes must be 1 to {MAX_MINUTES}, got 0'),
    (str(MAX_MINUTES + 1), f'time control "{MAX_MINUTES + 1}": minutes must be 1 to {MAX_MINUTES}, '
                           f'got {MAX_MINUTES + 1}'),
    (f"5+{MAX_SECONDS + 1}", f'time control "5+{MAX_SECONDS + 1}": increment must be 0 to {MAX_SECONDS} seconds, '
                             f'got {MAX_SECONDS + 1}'),
    (f"5d{MAX_SECONDS + 1}", f'time control "5d{MAX_SECONDS + 1}": delay must be 0 to {MAX_SECONDS} seconds, '
                             f'got {MAX_SECONDS + 1}'),
    ("40/90", 'time control "40/90": the last stage is for the rest of the game and has no move count '
              '(e.g. "40/90,30")'),
    ("90,30", 'time control "90,30": stage "90" needs a move count, MOVES/MINUTES (only the last stage has none)'),
])
def test_a_time_control_out_of_bounds_says_exactly_why(text, why):
    with pytest.raises(TimeControlError) as refused:
        parse_time_control(text)
    assert str(refused.value) == why


def test_the_largest_increment_and_delay_are_accepted():
    assert parse_time_control(f"5+{MAX_SECONDS}").stages[0].increment_s == MAX_SECONDS
    assert parse_time_control(f"5d{MAX_SECONDS}").stages[0].delay_s == MAX_SECONDS


@pytest.mark.parametrize("plies, turn, white, black", [
    (4, WHITE, 2, 2), (3, BLACK, 2, 1),        # White moved first
    (2, BLACK, 1, 1), (3, WHITE, 1, 2),        # Black moved first
    (0, BLACK, 0, 0),
])
def test_a_resumed_clock_counts_each_sides_moves(plies, turn, white, black):
    clock = Clock.resume(parse_time_control("2/10,5"), 1_000, 2_000, turn, plies)
    assert (clock.moves_made(WHITE), clock.moves_made(BLACK), clock.turn) == (white, black, turn)
    assert (clock.white_ms, clock.black_ms, clock.running) == (1_000, 2_000, False)


def test_a_resumed_clock_after_an_even_number_of_plies_adds_the_next_stage_in_time():
    """White has made one of its two moves of the first stage: its next
    move completes the stage and gets the second stage's 5 minutes."""
    clock = Clock.resume(parse_time_control("2/10,5"), 60_000, 60_000, WHITE, 2).run(0)
    after = clock.press(1_000, 1_000)
    assert after.remaining(WHITE, 1_000) == 59_000 + 300_000


def test_at_the_flag_there_is_no_next_change_and_just_before_it_the_flag_is_next():
    clock = Clock.start(parse_time_control("1")).run(0)
    flag = clock.flag_time()
    assert flag == 60_000
    assert clock.next_change(flag - 1) == flag
    assert clock.next_change(flag) is None
    assert not clock.flagged(flag - 1) and clock.flagged(flag)


def test_the_flag_time_after_a_pause_and_a_resume():
    clock = Clock.start(parse_time_control("1")).run(1_000).pause(4_000)
    assert clock.flag_time() is None and clock.next_change(5_000) is None
    resumed = clock.run(10_000)
    assert resumed.flag_time() == 10_000 + 60_000 - 3_000
    assert resumed.remaining(WHITE, 12_000) == 55_000


def test_the_flag_time_with_a_delay_and_time_used():
    clock = Clock.start(parse_time_control("1d5")).run(0).pause(2_000).run(3_000)
    assert clock.flag_time() == 3_000 - 2_000 + 5_000 + 60_000


def test_a_time_control_of_three_stages():
    control = parse_time_control("40/90,20/60,30+30")
    assert [(s.moves, s.minutes, s.increment_s) for s in control.stages] == [(40, 90, 0), (20, 60, 0), (None, 30, 30)]
    assert str(control) == "40/90,20/60,30+30"
    assert control.pgn() == "40/5400:20/3600:1800+30"
    assert [control.stage(n).minutes for n in (0, 39, 40, 59, 60, 200)] == [90, 90, 60, 60, 30, 30]
    assert [control.added_after(n) for n in (39, 40, 41, 59, 60, 61)] == [0, 3_600_000, 0, 0, 1_800_000, 0]


def test_three_stages_on_the_clock():
    clock = Clock.start(parse_time_control("1/10,1/5,2+1")).run(0)
    clock = clock.press(1_000, 1_000)                    # White's first move ends stage 1: + 5 minutes
    assert clock.remaining(WHITE, 1_000) == 599_000 + 300_000
    clock = clock.press(2_000, 2_000).press(3_000, 3_000)   # Black's, then White's second: + 2 minutes
    assert clock.remaining(WHITE, 3_000) == 898_000 + 120_000
    clock = clock.press(4_000, 4_000).press(5_000, 5_000)   # the last stage: + 1 s a move
    assert clock.remaining(WHITE, 5_000) == 1_017_000 + 1_000


def test_a_flag_fall_in_optima_wins_for_the_other_side():
    """Optima has no King: any unit left is "more than a King" (the default rule)."""
    optima = variants.get("optima")
    position = Position(optima.start_fen, optima.name)
    assert flag_result(position, WHITE) == "0-1"
    assert flag_result(position, BLACK) == "1-0"


def test_four_stages_count_every_stage_before():
    control = parse_time_control("1/10,1/5,1/3,2")
    assert [control.stage(n).minutes for n in range(5)] == [10, 5, 3, 2, 2]


def test_a_control_of_counted_stages_only_stays_in_its_last():
    control = TimeControl((Stage(1, 10), Stage(1, 5), Stage(1, 3)))
    assert [control.stage(n).minutes for n in range(6)] == [10, 5, 3, 3, 3, 3]


def test_a_time_control_that_is_not_text_is_refused_in_words():
    with pytest.raises(TimeControlError) as refused:
        parse_time_control(90)
    assert str(refused.value) == 'time control 90: expected text such as "90+30"'


def test_the_side_to_moves_own_stage_sets_its_delay():
    """Black moved first: White to move has made 1 move (stage 1, no delay),
    Black 2 (stage 2, 3 s delay). White's clock runs from the first ms."""
    clock = Clock.resume(parse_time_control("2/10,5d3"), 50_000, 40_000, WHITE, 3).run(0)
    assert clock.remaining(WHITE, 2_000) == 48_000
    assert clock.flag_time() == 50_000
    black = clock.press(2_000, 2_000)          # Black's third move: stage 2, its delay
    assert black.remaining(BLACK, 4_000) == 40_000
    assert black.flag_time() == 2_000 + 3_000 + 40_000


def test_the_next_change_waits_out_the_delay():
    clock = Clock.start(parse_time_control("1d5")).run(0)
    assert clock.next_change(0) == 6_000
    assert clock.next_change(2_500) == 6_000
    assert clock.next_change(5_500) == 6_000
    assert clock.next_change(6_000) == 7_000


def test_a_move_made_on_a_stopped_clock_charges_nothing_and_leaves_it_stopped():
    clock = Clock.start(parse_time_control("10+2"))
    after = clock.press(5_000, 5_000)
    assert not after.running and after.turn == BLACK
    assert after.remaining(WHITE, 9_000) == 602_000 and after.remaining(BLACK, 9_000) == 600_000


def test_a_move_completes_the_movers_own_stage():
    """White (to move, one move made; Black has made two) completes the first stage."""
    clock = Clock.resume(parse_time_control("2/10,5"), 50_000, 40_000, WHITE, 3).run(0)
    after = clock.press(1_000, 1_000)
    assert after.moves_made(WHITE) == 2 and after.remaining(WHITE, 1_000) == 49_000 + 300_000


def test_time_used_before_a_pause_is_not_charged_to_the_next_turn():
    clock = Clock.start(parse_time_control("10")).run(0).pause(3_000).run(10_000)
    black = clock.press(12_000, 12_000)
    assert black.remaining(WHITE, 12_000) == 595_000
    assert black.remaining(BLACK, 14_000) == 598_000


def test_a_carried_reading_sets_that_side_alone():
    """A remote game's move carries its mover's clock (Clock.with_left): that
    side's time is set, the other's stays as it was."""
    clock = Clock.start(parse_time_control("5+0"))
    assert clock.with_left(WHITE, 1234).readings(0) == {"white": 1234, "black": 300_000}
    assert clock.with_left(BLACK, 4321).readings(0) == {"white": 300_000, "black": 4321}
