"""Edges of set-up (board/modes/setup.py) that mutation testing found
unpinned (issue 35): Deckle's size following the pieces on a board of
another kind, at an offset and only from its start (D1); the size page's
MENU and NEW; Optima's forces page (O4); the clock page with a time control
that is no preset; OK ending the walk through the pieces; NEW in a set-up
from a FEN."""
from __future__ import annotations

from maxima_board.board.settings import Settings
from maxima_board.devices.boards import place
from maxima_board.rules import Position
from maxima_board.service.script import Runner

BIG, SMALL = "coordinator-chess", "coordinator-chess-10x8"
CASTLE_8 = "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R w KQkq - 0 1"
PINCER = "xxx2xxx/4k3/p7/8/8/1Pp1pP2/8/8/3P4/4K3/xxx2xxx w 0"


def said(c) -> str:
    return " ".join(" ".join(c.display[1:]).split())


def start_on(game: str, offset: str | None = None) -> list[str]:
    """The 10×10 board's squares under ``game``'s start (at ``offset``)."""
    start = Position("start", game)
    placement = place(game, "10x10", offset)
    return sorted(placement.board_of[start.geometry.names[sq]] for sq, _ in start.pieces())


def set_up(settings: Settings, game: str, fen: str | None = None) -> Runner:
    runner = Runner(settings)
    runner.controller.new_game(runner.now, fen=fen, setup=True, variant=game)
    return runner


def test_D1_the_size_follows_the_pieces_on_a_game_given_without_its_board():
    """A Deckle game run on its own (``sim --variant``, the settings' board
    the Maxima board): its board is the 10×10 one all the same, and the
    pieces choose the size."""
    runner = set_up(Settings(), BIG)
    c = runner.controller
    runner.set_board(start_on(SMALL))
    runner.wait(400)
    assert c.variant == SMALL and c.mode == "setup"


def test_D1_the_size_follows_the_pieces_at_the_boards_offset():
    """board_offset a1: the 10×8 game stands on a1…j8 instead of a2…j9."""
    runner = set_up(Settings(board_kind="10x10", board_offset="a1"), BIG)
    c = runner.controller
    runner.set_board(start_on(SMALL))            # a2…j9: not where the 10×8 game stands here
    runner.wait(400)
    assert c.variant == BIG
    runner.set_board(start_on(SMALL, "a1"))
    runner.wait(400)
    assert c.variant == SMALL
    runner.set_board(start_on(BIG))                  # a1…j8 are the 10×8 game's own names here
    runner.wait(400)
    assert c.variant == BIG


def test_D1_a_set_up_from_a_fen_keeps_its_size_whatever_the_board_shows():
    """Only the start follows the pieces: a 10×8 position set up from a FEN
    stays 10×8 on a board showing the 10×10 start (the board's own squares)."""
    runner = Runner(Settings(board_kind="10x10"), board="10x10")
    c = runner.controller
    c.new_game(runner.now, fen=CASTLE_8, setup=True, variant=SMALL)
    runner.set_board(start_on(BIG))
    runner.wait(400)
    assert c.variant == SMALL and c.mode == "setup" and c.position.fen() == Position(CASTLE_8, SMALL).fen()
    c.new_game(runner.now, setup=True, variant=SMALL)              # its start, by contrast, switches
    runner.set_board(start_on(SMALL))
    runner.wait(400)
    runner.set_board(start_on(BIG))
    runner.wait(400)
    assert c.variant == BIG


def test_9_a_deckle_start_once_set_up_starts_with_its_first_move():
    """Point 9 for a game of two sizes: its start set up, a legal first move
    starts it in that size, however long the move takes to settle."""
    runner = set_up(Settings(board_kind="10x10"), SMALL)
    c = runner.controller
    runner.set_board(c.expected_squares)
    runner.wait(400)
    runner.lift("a2")
    runner.wait(400)
    runner.place("a4")
    runner.wait(400)
    assert c.mode == "play" and c.variant == SMALL and c.moves == ["a2-a4"]


def choose_big(runner: Runner) -> None:
    """The chooser's Coordinator (10×10): its size page is shown."""
    runner.press("menu"), runner.press("back"), runner.press("ok")
    assert runner.controller.variant == BIG and "Other size 10x8: OK" in said(runner.controller)


def test_D1_menu_on_the_size_page_goes_on_to_the_clock():
    runner = set_up(Settings(board_kind="10x10"), "ultima")
    c = runner.controller
    choose_big(runner)
    runner.press("menu")
    assert c.display[1].startswith("Clock:") and c.variant == BIG


def test_D1_new_on_the_size_page_keeps_the_size_page():
    runner = set_up(Settings(board_kind="10x10"), "ultima")
    c = runner.controller
    choose_big(runner)
    runner.press("new")
    assert "Other size 10x8: OK" in said(c) and c.variant == BIG
    runner.press("ok")
    assert c.variant == SMALL


# ---------------------------------------------------------------- Optima's forces (O4)
def forces_page(settings: Settings) -> Runner:
    runner = Runner(settings, variant=settings.variant)
    c = runner.controller
    c.new_game(runner.now, setup=True)
    runner.set_board(c.expected_squares)
    runner.wait(400)
    runner.press("menu"), runner.press("menu")
    assert c.display[1].startswith("Forces:"), c.display
    return runner


def test_O4_ok_on_the_forces_page_steps_on_from_the_kind_chosen():
    runner = forces_page(Settings(variant="optima", board_kind="10x10"))
    c = runner.controller
    runner.press("ok"), runner.press("ok")
    assert c.display[1] == "Forces: u2" and c.settings.forces == "u2"


def test_O4_forces_the_smaller_game_does_not_offer_step_on_from_its_first():
    """u2 is not offered on 9×9 (O4): OK there steps from the first kind."""
    runner = forces_page(Settings(variant="optima-9x9", board_kind="10x10", forces="u2"))
    c = runner.controller
    kinds = c.position.variant.forces
    assert "u2" not in kinds
    runner.press("ok")
    assert c.settings.forces == kinds[1] and c.display[1] == f"Forces: {kinds[1]}"


def test_O4_ok_on_the_forces_page_keeps_the_seed():
    runner = forces_page(Settings(variant="optima", board_kind="10x10", seed=7))
    c = runner.controller
    runner.press("ok")
    assert c.settings.forces == "u1" and c.settings.seed == 7


def test_9_O4_new_on_the_forces_page_starts_the_game_set_up():
    runner = forces_page(Settings(variant="optima", board_kind="10x10"))
    c = runner.controller
    runner.press("new")
    assert c.mode == "play" and c.moves == []


# ---------------------------------------------------------------- the clock page, the walk, NEW
def test_9_ok_on_the_clock_page_from_a_time_control_no_preset_takes_the_first_preset():
    from maxima_board.board.clock import PRESETS
    runner = Runner(Settings(time_control="7+2"))
    c = runner.controller
    c.new_game(runner.now, setup=True)
    runner.set_board(c.expected_squares)
    runner.wait(400)
    runner.press("menu"), runner.press("menu")
    assert c.display[1].startswith("Clock:")
    assert c.display[1] == "Clock: 7+2"
    runner.press("ok")
    assert c.display[1] == f"Clock: {PRESETS[0]}"
    runner.press("ok")
    assert c.display[1] == f"Clock: {PRESETS[1]}"


def test_9_ok_ends_the_walk_through_the_pieces():
    runner = Runner(Settings())
    c = runner.controller
    c.new_game(runner.now, setup=True)
    runner.lift("d3")                                                  # not ready: OK starts nothing
    runner.press("menu"), runner.press("menu"), runner.press("menu")   # the chooser, the clock, the pieces
    assert "Piece 1/" in said(c)
    runner.press("ok")
    assert "Piece " not in said(c) and c.mode == "setup"
    runner.press("menu")
    assert c.display[0].startswith("Choose a game")


def test_9_new_in_a_set_up_from_a_fen_sets_up_the_start_instead():
    runner = Runner(Settings())
    c = runner.controller
    c.new_game(runner.now, fen=PINCER, setup=True)
    before = set(c.expected_squares)
    runner.press("new")
    assert c.mode == "setup" and set(c.expected_squares) != before
    assert set(c.expected_squares) == {Position().geometry.names[sq] for sq, _ in Position().pieces()}


def test_9_with_no_settle_time_a_first_move_still_starts_the_game():
    """settle_ms 0: every frame has settled as it arrives, and a legal first
    move still starts the game, in a game of one size and in a Deckle start."""
    for game, settings, frm, to, played in (("maxima", Settings(settle_ms=0), "d3", "d4", "d3-d4"),
                                            (SMALL, Settings(board_kind="10x10", settle_ms=0), "a2", "a4", "a2-a4")):
        runner = set_up(settings, game)
        c = runner.controller
        runner.set_board(c.expected_squares)
        runner.wait(10)
        runner.lift(frm)
        runner.place(to)
        runner.wait(10)
        assert c.mode == "play" and c.variant == game and c.moves == [played], game


def test_D1_no_size_page_when_the_other_size_cannot_stand_at_the_boards_offset():
    """board_offset a3: the 10×8 game stands on a3…j10, where the 10×10 one
    cannot. Coordinator chosen (its 10×8 size, the newest stored) shows no
    size page, and OK switches nothing."""
    runner = Runner(Settings(board_kind="10x10", board_offset="a3"), variant=SMALL, board="10x10")
    c = runner.controller
    runner.press("menu"), runner.press("ok"), runner.press("ok")      # Ultima, set up
    runner.lift("a4")                                                # a board that stands as no start
    runner.press("menu"), runner.press("back"), runner.press("ok")   # Coordinator: 10×8, as last played
    assert c.variant == SMALL and "Other size" not in said(c)
    runner.press("ok")
    assert c.variant == SMALL and c.mode == "setup"
