"""The OLED's lines break between phrases (issue 32, finding 5): a button's
words ("OK = yes,", "MENU = the pieces.", "BACK done") stay on one line,
an "=" never ends or starts one; in every menu and page of the 21 games."""
from __future__ import annotations

import re

import pytest

from maxima_board.board import guidance as g
from maxima_board.board.chooser import first_page, rows
from maxima_board.board.settings import Settings
from maxima_board.devices.boards import games_for
from maxima_board.rules import variants
from maxima_board.service.script import Runner

BUTTONS = ("OK", "MENU", "BACK", "NEW")


def button_phrases(text: str) -> list[str]:
    """Each button's phrase of ``text``: from the button's name through the
    word ending in a comma or stop ("OK = yes,", "OK or NEW to start.")."""
    words = text.split()
    out = []
    for i, word in enumerate(words):
        if word in BUTTONS:
            end = next((j for j in range(i, len(words)) if words[j][-1] in ",.;:?!"), len(words) - 1)
            out.append(" ".join(words[i:end + 1]))
    return out


def broken_phrases(lines: list[str]) -> list[str]:
    """What is wrong with ``lines`` (the rows under a screen's first two): a
    row ending in "=" or starting with "=", a button's phrase that fits a
    row cut over two."""
    wrong = [row for row in lines if row.rstrip().endswith("=") or row.startswith("=")]
    for phrase in button_phrases(" ".join(lines)):
        if len(phrase) <= g.WIDTH and not any(phrase in row for row in lines):
            wrong.append(phrase)
    return wrong


@pytest.mark.parametrize("text", [
    "Abandon game 1? OK = yes, BACK = cancel.",
    "Place: Chimaera? MENU = next, OK = yes, BACK = cancel.",
    "Promote to: Chameleon. MENU = next, OK = yes, BACK = cancel.",
    "Agree draw? OK = yes, MENU = next, BACK = cancel.",
    "Board set up. OK or NEW to start.",
    "Pawn a2-a4 in 3 s. OK = now; or go on castling.",
])
def test_wrap_breaks_lines_between_phrases_never_inside_one(text):
    lines = g.wrap(text, 6)
    assert not broken_phrases(lines), lines
    assert " ".join(lines) == text             # nothing lost or reworded by the wrapping


def test_the_issues_examples_break_after_the_question():
    assert g.wrap("Abandon game 1? OK = yes, BACK = cancel.") == ["Abandon game 1?", "OK = yes,", "BACK = cancel."]
    assert g.wrap("Place: Chimaera? MENU = next, OK = yes, BACK = cancel.", 4) == [
        "Place: Chimaera?", "MENU = next,", "OK = yes,", "BACK = cancel."]


def test_a_question_takes_the_shorter_button_words_when_the_full_ones_do_not_fit():
    text = g.ask("Place: Chimaera?", ("MENU = next, OK = yes, BACK = cancel.", "MENU = next, OK = yes, BACK = no."))
    assert g.wrap(text) == ["Place: Chimaera?", "MENU = next,", "OK = yes, BACK = no."]


def _board(game: str) -> str:
    return next(kind for kind in ("maxima", "10x10") if game in games_for(kind))


def _texts(display: list[str]) -> list[str]:
    """The rows a screen's text is wrapped into (under its first two)."""
    return display[2:]


def _walk(game: str) -> list[list[str]]:
    """The screens of ``game``'s menu and pages: every MENU question, NEW's
    question, Optima's choosing and placing of each unit, the set-up's
    pages (the chooser's MENU row on, then each MENU)."""
    seen: list[list[str]] = []
    runner = Runner(Settings(variant=game, board_kind=_board(game)), variant=game)
    c = runner.controller
    runner.wait(1000)
    for _ in range(8):                           # the chooser, then each question of the menu
        runner.press("menu"), runner.wait(100)
        seen.append(list(c.display))
    runner.wait(30_000)
    runner.press("new"), runner.wait(100)        # "New game?"
    seen.append(list(c.display))
    runner.press("back"), runner.wait(30_000)
    if getattr(c.position, "phase", None) == "placement":
        square = next(sq for sq in c.position.geometry.names if sq.endswith("1") and sq not in runner.board)
        runner.place(square), runner.wait(1000)
        for _ in range(12):                      # each unit offered on the square: "Place: …?"
            seen.append(list(c.display))
            runner.press("menu"), runner.wait(100)
        runner.lift(square), runner.wait(30_000)
    runner.setup("start", game), runner.wait(1000)
    for _ in range(6):                           # set-up: the chooser, its MENU row on, the pages after it
        seen.append(list(c.display))
        runner.press("menu"), runner.wait(100)
    return seen


@pytest.mark.parametrize("game", variants.names())
def test_every_menu_and_page_of_the_game_breaks_between_phrases(game):
    screens = _walk(game)
    assert any("OK = yes" in " ".join(s) for s in screens)     # the walk reached the questions
    for display in screens:
        if not display[0].startswith("Choose a game"):   # the chooser: one row per button (below)
            assert not broken_phrases(_texts(display)), display
        assert all(len(row) <= g.WIDTH for row in display), display


def test_a_group_of_games_in_the_chooser_is_labelled_with_a_space_before_its_arrow():
    for kind in ("maxima", "10x10"):
        for row in rows(first_page(kind, "Resign, draw >")):
            assert not re.search(r"\S>$", row), row
    assert "BACK Coordinator +3 >" in rows(first_page("10x10", "Resign, draw >"))


@pytest.mark.parametrize("game, board", [("optima", None), ("optima", "10x10"), ("optima-9x9", None)])
def test_show_lines_up_each_unit_under_its_files_letter(game, board):
    """``show`` (sim, replay): a square's letters, Optima's two-letter units
    too, start in its file letter's column, on every rank."""
    runner = Runner(Settings(variant=game, board_kind=_board(game)), variant=game, board=board)
    runner.wait(1000)
    grid = runner.show()[0]["text"].split("\n\n")[0].splitlines()
    columns = {m.start() for m in re.finditer(r"[a-z]", grid[-1])}
    assert len(columns) >= 9
    assert any(re.search(r"\bGD\b", row) for row in grid)
    for row in grid[:-1]:
        starts = {m.start() for m in re.finditer(r"(?<= )[^ ]", row[3:])}
        assert {start + 3 for start in starts} <= columns, (row, grid[-1])
