"""The screen composer (``maxima_board.board.composer``): the highest-ranked
screen is shown; words ranked above it go with it, under the game screen
or in the rows a page leaves free; a page is never overwritten, and the
guard's fault screen wins over every offer. (On the board:
tests/test_opponent_board_pages.py.)"""
from __future__ import annotations

from maxima_board.board.composer import Offer, Rank, compose
from maxima_board.service.guard import FAULT_LINES

GAME = Offer(Rank.GAME, ("White to move      1.", "1. Pawn c3-c4", "In hand: Pawn c3."))
CHOOSER = Offer(Rank.PAGE, ("Choose a game     20s", "OK   Maxima*", "BACK Ultima", "MENU Resign, draw >",
                            "NEW  Ultima (pure)"))
QUESTION = Offer(Rank.PAGE, ("Black to move      1.", "Menu 1/5          20s", "Resign Black? OK =",
                             "yes, MENU = next"))
MOVE = Offer(Rank.OPPONENT, text="Computer: Pawn e7-e6. Make it on the board.", short="Computer: Pawn e7-e6")
NOTE = Offer(Rank.NOTE, text="Computer restarting.", short="Computer restarting")


def test_the_computers_move_goes_under_the_game_screen():
    assert compose([GAME, MOVE]) == list(GAME.lines) + ["Computer: Pawn e7-e6"]
    bare = Offer(Rank.GAME, GAME.lines[:2])
    assert compose([bare, MOVE]) == list(bare.lines) + ["Computer: Pawn e7-e6.", "Make it on the board."]
    astray = Offer(Rank.OPPONENT, text="Computer: Pawn e7-e6. Put the Pawn on e6 from e5.", replaces=True)
    assert compose([GAME, astray]) == list(bare.lines) + ["Computer: Pawn e7-e6.", "Put the Pawn on e6",
                                                          "from e5."]


def test_a_page_is_never_overwritten_and_the_computers_move_waits():
    assert compose([CHOOSER, MOVE]) == list(CHOOSER.lines)
    assert compose([QUESTION, MOVE]) == list(QUESTION.lines)
    assert compose([CHOOSER, NOTE]) == list(CHOOSER.lines)                         # no row free
    assert compose([QUESTION, NOTE]) == list(QUESTION.lines) + ["Computer restarting"]   # a free row


def test_the_fault_screen_wins_over_every_offer():
    fault = Offer(Rank.FAULT, tuple(FAULT_LINES))
    for offers in ([GAME, MOVE, NOTE, fault], [fault, CHOOSER, NOTE], [QUESTION, fault, MOVE]):
        assert compose(offers) == FAULT_LINES
