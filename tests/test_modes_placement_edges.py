"""Edges of Optima's placement phase (board/modes/placement.py; optima.md
O5, controller.md point 17) that mutation testing found unpinned (issue
35): BACK and NEW while choosing first, NEW while a placed unit waits for
its choice, MENU before the first frame, a chosen unit's commit (its
clock and its light), and what the next ply forgets of the last one's choice."""
from __future__ import annotations

from maxima_board.board.core import Controller
from maxima_board.board.settings import Settings
from maxima_board.service.script import Runner

OPTIMA = dict(variant="optima", board_kind="10x10")


def said(c) -> str:
    return " ".join(" ".join(c.display[1:]).split())


def optima(**settings) -> Runner:
    return Runner(Settings(**OPTIMA, **settings), variant="optima")


def test_O5_back_while_choosing_first_cancels_the_choice_and_menu_starts_it_again():
    runner = optima()
    c = runner.controller
    runner.press("menu"), runner.press("menu")
    assert "Choose: Centaur?" in said(c)
    runner.press("back")
    assert "Choose:" not in said(c) and "White: set a piece on rank 1." in said(c) and c.mode == "play"
    runner.press("menu")
    assert "Choose: Archer?" in said(c)


def test_O5_new_while_choosing_first_asks_new_game():
    runner = optima()
    c = runner.controller
    runner.press("menu")
    runner.press("new")
    assert "New game?" in said(c) and "Choose:" not in said(c)
    runner.press("back")
    assert "Choose:" not in said(c) and "White: set a piece on rank 1." in said(c)


def test_O5_ok_on_the_unit_offered_for_a_placed_square_commits_it_lit():
    runner = optima()
    c = runner.controller
    runner.place("a1")
    runner.wait(400)
    runner.press("menu")
    assert "Place: Centaur?" in said(c)
    runner.press("ok")
    assert c.moves == ["CE@a1"] and c.leds == {"a1": "last-to"}


def test_O5_new_while_a_placed_unit_waits_for_its_choice_asks_new_game():
    runner = optima()
    c = runner.controller
    runner.place("a1")
    runner.wait(400)
    assert "Place: Archer?" in said(c)
    runner.press("new")
    assert "New game?" in said(c) and c.moves == []
    runner.press("new")
    assert c.mode == "setup" and c.moves == []


def test_O5_menu_before_the_first_frame_chooses_first():
    c = Controller(Settings(**OPTIMA), fen="start")
    c.on_button(0, "menu")
    Runner.attach(c, None, 10)
    assert "Choose: Archer?" in said(c) and not c.display[0].startswith("Choose a game")


def test_O5_back_before_any_placement_takes_nothing_back():
    runner = optima()
    c = runner.controller
    events = runner.press("back")
    assert not [e for e in events if e["type"] in ("takeback", "error")] and c.mode == "play"
    assert "White: set a piece on rank 1." in said(c)


def test_O5_a_chosen_unit_commits_on_the_clock_of_when_it_was_set_down_and_is_lit():
    runner = optima(time_control="5")
    c = runner.controller
    runner.press("menu"), runner.press("ok")        # Archer chosen
    runner.wait(1_000)
    runner.place("e1")
    events = runner.wait(400)
    assert [e["move"] for e in events if e["type"] == "move"] == ["AR@e1"]
    assert c.clocks["white"] == 5 * 60_000 - 1_000
    assert c.leds == {"e1": "last-to"}


def test_O5_the_next_side_is_not_choosing_after_a_placement_made_while_a_unit_was_offered():
    runner = optima()
    c = runner.controller
    runner.press("menu")                             # "Choose: Archer?" shown …
    runner.place("a1")                               # … and a unit set down instead: asked which
    runner.wait(400)
    runner.press("ok")
    assert c.moves == ["AR@a1"]
    assert "Choose:" not in said(c) and "Black: set a piece on rank 10." in said(c)
    runner.press("menu")
    assert "Choose: Archer?" in said(c)


def test_O5_a_unit_chosen_for_one_ply_is_not_chosen_for_the_next():
    runner = optima()
    c = runner.controller
    runner.press("menu"), runner.press("ok")
    runner.place("e1")
    runner.wait(400)
    assert c.moves == ["AR@e1"]
    assert "Black: set a piece on rank 10." in said(c) and "Archer" not in said(c).split("rank 10.")[1]
    runner.place("e10")
    runner.wait(400)
    assert "Place: Archer?" in said(c) and c.moves == ["AR@e1"]


def test_O5_after_the_placement_phase_the_placement_mode_plays_as_play_does():
    """The mode that played the last placement stays on for the movement
    phase and behaves exactly as play: OK plays a rifle shot (O9.6, R30:
    Swordsman d4 shoots f6) at once, lit as the last move."""
    from maxima_board.board.modes.placement import PlacementMode
    fen = "9vr*/10/10/10/5ar4/3pn6/3SW6/10/1gd8/9VR* w - - 0"
    runner = Runner(Settings(**OPTIMA), variant="optima", fen=fen)
    c = runner.controller
    mode = PlacementMode(c.current_mode.session)
    runner.lift("f6")
    runner.wait(400)
    assert c.match().kind == "early"
    events = mode.press("ok", runner.now)
    assert [e["move"] for e in events if e["type"] == "move"] == ["d4-d4xf6"]
    runner.wait(1)
    assert c.leds.get("d4") == "last-from"
