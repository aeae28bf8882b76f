"""Edges of the controller's modes (board/modes/) that mutation testing found
unpinned (issue 35): in set-up, a legal first move starts the game as soon
as the board shows it under way, whatever kind it is (controller.md point 9)."""
from __future__ import annotations

import pytest

from maxima_board.board.settings import Settings
from maxima_board.service.script import Runner

PINCER = "xxx2xxx/4k3/p7/8/8/1Pp1pP2/8/8/3P4/4K3/xxx2xxx w 0"        # M4: d2-d5xc5,e5
KING2 = "xxx2xxx/4k3/p7/8/8/8/8/3p1p2/P7/4K3/xxx2xxx w 0"            # M3: e1-d3xd3, e1-f3xf3
FROZEN = "xxx2xxx/4k3/p7/8/8/8/8/2m5/2N5/4K3/xxx2xxx w 0"           # M9/M10: the Leaper c2 may commit suicide
CASTLE_8 = "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R w KQkq - 0 1"
PROMOTION = "9k/4P5/10/10/10/10/10/K9 w - - 0 1"
TENX8 = "coordinator-chess-10x8"

FIRST_MOVES = {   # kind of match -> (game, position, hand steps)
    "remove": (None, PINCER, [("lift", "d2"), ("place", "d5")]),
    "ambiguous": (None, KING2, [("lift", "d3"), ("lift", "f3"), ("lift", "e1"), ("place", "d3"), ("place", "f3")]),
    "suicide": (None, FROZEN, [("lift", "c2")]),
    "partial": (TENX8, CASTLE_8, [("lift", "f1"), ("lift", "j1"), ("place", "i1")]),
    "early": (TENX8, CASTLE_8, [("lift", "j1"), ("place", "h1")]),
    "promote": (TENX8, PROMOTION, [("lift", "e7"), ("place", "e8")]),
}


@pytest.mark.parametrize("kind", sorted(FIRST_MOVES))
def test_9_setup_a_first_move_under_way_starts_the_game_whatever_its_kind(kind):
    """Point 9: "the game starts on OK/NEW once the board matches, or with a
    legal first move": a move whose captured pieces still stand, a choice
    between moves, a suicide counting down, half a castling, a Rook move
    that may begin one and a Pawn waiting for its promotion piece all start it."""
    game, fen, steps = FIRST_MOVES[kind]
    settings = Settings(board_kind="10x10") if game else Settings()
    runner = Runner(settings, variant=game)
    c = runner.controller
    c.new_game(runner.now, fen=fen, setup=True, variant=game)
    runner.set_board(c.expected_squares)
    runner.wait(400)
    assert c.mode == "setup"
    for op, square in steps:
        getattr(runner, op)(square)
    runner.wait(400)
    assert c.mode == "play" and c.moves == []
    assert c.match().kind == kind


def test_9_setup_a_board_never_set_up_starts_no_game_though_it_shows_a_move():
    """Point 9: only a board once set up as the start counts its next change
    as the first move; pieces put out anyhow, looking like d2-d5xc5,e5, start nothing."""
    runner = Runner(Settings())
    c = runner.controller
    c.new_game(runner.now, fen=PINCER, setup=True)
    runner.set_board((set(c.expected_squares) - {"d2"}) | {"d5"})
    runner.wait(400)
    assert c.mode == "setup"
    runner.set_board(c.expected_squares)
    runner.wait(400)
    runner.lift("d2")
    runner.place("d5")
    runner.wait(400)
    assert c.mode == "play"


# ---------------------------------------------------------------- the MENU (modes/menu.py)
def answered(name: str, log: list[str]):
    return lambda now: log.append(name) or [{"type": "answered", "item": name, "at": now}]


def test_menu_steps_with_menu_closes_past_the_last_question_and_ok_answers_and_closes():
    from maxima_board.board.modes import Menu, MenuItem
    log: list[str] = []
    menu = Menu([MenuItem("Resign White?", answered("resign", log)), MenuItem("Agree draw?", answered("draw", log))], 0)
    assert menu.heading(0).startswith("Menu 1/2") and menu.shown(0)[1] == "Resign White?"
    assert menu.press("menu", 10) == (True, []) and menu.current.text == "Agree draw?"
    assert menu.heading(10).startswith("Menu 2/2")
    assert menu.press("menu", 20) == (False, []) and log == []
    menu = Menu([MenuItem("Resign White?", answered("resign", log)), MenuItem("Agree draw?", answered("draw", log))], 0)
    assert menu.press("ok", 30) == (False, [{"type": "answered", "item": "resign", "at": 30}])
    assert menu.press("back", 40) == (False, []) and log == ["resign"]


def test_menu_new_steps_to_new_game_and_answers_it():
    from maxima_board.board.modes import Menu, MenuItem
    log: list[str] = []
    menu = Menu([MenuItem("Agree draw?", answered("draw", log)), MenuItem("New game?", answered("new", log), key="new")], 0)
    assert menu.press("new", 10) == (True, []) and menu.current.text == "New game?"
    assert menu.press("new", 20) == (False, [{"type": "answered", "item": "new", "at": 20}]) and log == ["new"]


def test_menu_a_single_question_is_titled_alone_with_the_short_keys():
    from maxima_board.board.modes import Menu, MenuItem
    from maxima_board.board.modes.menu import CONFIRM, KEYS, KEYS_ALONE
    alone = Menu.question(MenuItem("New game?", lambda now: []), 0)
    assert alone.heading(0).split()[0] == CONFIRM and "/" not in alone.heading(0)
    assert alone.shown(0)[2] == KEYS_ALONE
    two = Menu([MenuItem("Resign White?", lambda now: []), MenuItem("Agree draw?", lambda now: [])], 0)
    assert two.shown(0)[2] == KEYS


# ---------------------------------------------------------------- ended (modes/ended.py)
def test_10_back_after_an_agreed_draw_reopens_the_game_keeping_its_moves():
    """Point 10: a draw agreed by the menu is undone by BACK: the game goes on
    from where it stood (its last move is not taken back)."""
    runner = Runner(Settings())
    c = runner.controller
    runner.lift("d3")
    runner.place("d4")
    runner.wait(300)
    for button in ("menu", "menu", "menu", "menu", "ok"):   # the game, Resign x2, Agree draw?
        runner.press(button)
    assert c.mode == "ended"
    events = runner.press("back")
    assert [e["type"] for e in events if e["type"] in ("reopened", "takeback")] == ["reopened"]
    assert c.mode == "play" and c.moves == ["d3-d4"]


# ---------------------------------------------------------------- set-up's pages (modes/setup.py)
def test_9_setup_new_on_the_clock_page_starts_the_game_set_up():
    """Point 9: NEW starts the game once the board matches, whatever set-up
    page is shown (the clock page's OK and MENU are its own)."""
    runner = Runner(Settings())
    c = runner.controller
    c.new_game(runner.now, setup=True)
    runner.set_board(c.expected_squares)
    runner.wait(400)
    runner.press("menu")                 # the game chooser
    runner.press("menu")                 # its MENU row: the clock page
    assert c.display[1].startswith("Clock:") and c.mode == "setup"
    runner.press("new")
    assert c.mode == "play" and c.moves == []


def test_9_setup_ok_on_the_clock_page_takes_the_next_clock_and_stays_on_it():
    runner = Runner(Settings())
    c = runner.controller
    c.new_game(runner.now, setup=True)
    runner.set_board(c.expected_squares)
    runner.wait(400)
    runner.press("menu")
    runner.press("menu")
    first = c.display[1]
    runner.press("ok")
    assert c.mode == "setup" and c.display[1].startswith("Clock:") and c.display[1] != first


# ---------------------------------------------------------------- the game's menu (modes/choice.py)
def said(c) -> str:
    """The OLED below its status bar, as one sentence."""
    return " ".join(" ".join(c.display[1:]).split())


def asks(c, question: str) -> bool:
    """Whether an OLED line begins with ``question`` (then the buttons' words, if any)."""
    return any(line == question or line.startswith(question + " ") for line in c.display)


def walk_menu(runner: Runner, question: str, most: int = 8) -> None:
    """MENU (the game chooser), then MENU until ``question`` is asked."""
    c = runner.controller
    runner.press("menu")
    for _ in range(most):
        runner.press("menu")
        if question in said(c):
            return
    raise AssertionError(f"{question!r} never asked: {c.display}")


def test_10_new_then_new_again_answers_new_game_and_sets_up_the_start():
    """Point 10: NEW asks "New game?" on its own; NEW again answers it, as OK
    does (the question's "new" key), and set-up of the start begins."""
    runner = Runner(Settings())
    c = runner.controller
    runner.lift("d3"), runner.place("d4"), runner.wait(400)
    runner.press("new")
    assert asks(c, "New game?") and c.display[1].startswith("Confirm")
    runner.press("new")
    assert c.mode == "setup" and c.moves == [] and "New game?" not in said(c)


def test_10_resign_the_side_not_to_move_from_the_second_question():
    """Point 10: the menu offers the side to move's resignation first, then
    the other's: with Black to move, "Resign White?" second, and Black wins."""
    runner = Runner(Settings())
    c = runner.controller
    runner.lift("d3"), runner.place("d4"), runner.wait(400)
    runner.press("menu"), runner.press("menu")
    assert "Resign Black?" in said(c)
    runner.press("menu")
    assert "Resign White?" in said(c)
    runner.press("ok")
    assert (c.mode, c.result, c.reason) == ("ended", "0-1", "resignation")


def test_10_the_draw_question_reads_agree_draw():
    runner = Runner(Settings())
    c = runner.controller
    walk_menu(runner, "Agree draw?")
    assert said(c).startswith("Menu 3/5") and "Agree draw? OK = yes" in said(c)
    runner.press("ok")
    assert (c.result, c.reason) == ("1/2", "agreement")


def test_menu_show_web_pin_comes_after_new_game_and_shows_the_pin():
    runner = Runner(Settings())
    c = runner.controller
    c.web_pin = "4711"
    walk_menu(runner, "New game?")
    runner.press("menu")
    assert asks(c, "Show web PIN?") and said(c).startswith("Menu 5/6")
    runner.press("ok")
    assert "Web PIN: 4711" in said(c) and c.mode == "play"


def test_menu_teaching_on_then_off_is_the_last_question():
    """MENU's last question turns teaching on ("Teaching on?") and, asked
    again, off ("Teaching off?")."""
    runner = Runner(Settings())
    c = runner.controller
    assert not c.settings.teach
    walk_menu(runner, "Teaching on?")
    assert said(c).startswith("Menu 5/5")
    runner.press("ok")
    assert c.settings.teach and c.mode == "play"
    walk_menu(runner, "Teaching off?")
    runner.press("ok")
    assert not c.settings.teach


def test_choosing_another_game_while_a_take_back_is_put_back_asks_to_abandon_it():
    """The chooser in sync (a move taken back, the board being put back) with
    moves played: another game is set up only after "Abandon game N?" (OK)."""
    runner = Runner(Settings())
    c = runner.controller
    for frm, to in (("d3", "d4"), ("d7", "d6")):
        runner.lift(frm), runner.place(to), runner.wait(400)
    runner.press("back")
    assert c.mode == "sync" and c.moves == ["d3-d4"]
    runner.press("menu"), runner.press("back")                  # BACK: Ultima
    assert f"Abandon game {c.game_id}?" in said(c) and c.mode == "sync"
    runner.press("ok")
    assert c.mode == "setup" and c.variant == "ultima"


# ---------------------------------------------------------------- sync (modes/sync.py)
def test_a_resumed_game_in_sync_says_board_in_sync_and_reports_its_position():
    from maxima_board.board.core import Controller
    from maxima_board.storage.store import GameStore
    store = GameStore(":memory:")
    runner = Runner(Settings(), store=store)
    runner.lift("d3"), runner.place("d4"), runner.wait(400)
    fen = runner.controller.position.fen()
    c = Controller(Settings(), store, now_ms=0)
    assert c.mode == "sync"
    events = Runner.attach(c, None, 0).events
    assert {"type": "sync", "fen": fen} in events
    assert c.mode == "play" and asks(c, "Board in sync.") and "Taken back." not in said(c)


def test_a_move_taken_back_and_put_back_says_taken_back():
    runner = Runner(Settings())
    c = runner.controller
    runner.lift("d3"), runner.place("d4"), runner.wait(400)
    runner.press("back")
    events = runner.lift("d4") + runner.place("d3") + runner.wait(400)
    assert [e for e in events if e["type"] == "sync"] == [{"type": "sync", "fen": c.position.fen()}]
    assert c.mode == "play" and asks(c, "Taken back.") and "Board in sync." not in said(c)


def test_back_in_sync_with_no_move_played_takes_nothing_back():
    """A game resumed before its first move, the board not yet in sync: BACK
    has nothing to take back, and the board is still guided back."""
    from maxima_board.board.core import Controller
    from maxima_board.storage.store import GameStore
    store = GameStore(":memory:")
    Runner(Settings(), store=store)
    c = Controller(Settings(), store, now_ms=0)
    runner = Runner.attach(c, set(c.expected_squares) - {"d3"}, 0)
    assert c.mode == "sync"
    events = runner.press("back")
    assert not [e for e in events if e["type"] in ("takeback", "error")]
    assert c.mode == "sync" and "Put the Pawn back on d3." in said(c)


# ---------------------------------------------------------------- ended (modes/ended.py)
def test_10_back_after_a_flag_fall_before_any_move_takes_nothing_back_and_the_game_stays_over():
    runner = Runner(Settings(time_control="1"))
    c = runner.controller
    runner.wait(60_000)
    assert (c.mode, c.reason) == ("ended", "time")
    events = runner.press("back")
    assert not [e for e in events if e["type"] in ("takeback", "reopened", "error")]
    assert (c.mode, c.result) == ("ended", "0-1") and "Black wins: time." in said(c)


def _menu_answer(runner: Runner, label: str) -> None:
    """MENU to the game's menu, on to ``label``, then OK."""
    c = runner.controller
    runner.press("menu")
    for _ in range(12):
        runner.press("menu")
        if label in " ".join(c.display):
            runner.press("ok")
            return
    raise AssertionError(f"no {label!r}: {c.display}")


@pytest.mark.parametrize("label, asked", [("Resign White?", ("resign", 1)), ("Resign Black?", ("resign", -1)),
                                          ("Agree draw?", ("draw", 1))])
def test_routed_resignations_and_draws_are_asked_not_ended(label, asked):
    """A remote game routes MENU's resignations and draw offer (Controller.
    route_agreements): the route is told what, for which side, and when, and
    the game goes on; without a route the same question ends the game."""
    runner = Runner(Settings())
    c = runner.controller
    runner.wait(1234)
    calls: list[tuple] = []
    c.route_agreements(lambda what, side, now: calls.append((what, side, now)) or [])
    _menu_answer(runner, label)
    assert calls == [(*asked, runner.now)] and c.result == "*" and c.mode == "play"
    c.route_agreements(None)
    _menu_answer(runner, label)
    assert c.result != "*" and len(calls) == 1


def test_a_board_calls_only_the_flags_it_judges():
    """A remote game: each board calls its own side's flag only (the other
    board calls the other's); judged by both (None), either flag falls."""
    runner = Runner(Settings(time_control="1+0"))
    c = runner.controller
    c.judge_flags(frozenset({-1}))           # this board plays Black: White's flag is not its to call
    runner.wait(61_000)
    assert c.result == "*"
    c.judge_flags(frozenset({1}))
    runner.wait(10)
    assert c.result == "0-1" and c.reason == "time"
