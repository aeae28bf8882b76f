"""The feed's snapshots put only new moves in words; what they carry is
always the whole game in words, after moves, take-backs and a new game."""
from __future__ import annotations

from maxima_board.service.feed import BoardFeed
from maxima_board.service.script import Runner
from maxima_board.board.settings import Settings
from maxima_board.rules.words import move_texts


def _check(feed: BoardFeed, runner: Runner) -> dict:
    snapshot = feed.update(runner.controller)
    assert snapshot["move_texts"] == move_texts(snapshot["variant"], snapshot["sans"])
    return snapshot


def test_move_texts_follow_moves_takebacks_and_new_games():
    runner = Runner(Settings())
    feed = BoardFeed()
    _check(feed, runner)
    for _ in range(3):   # quiet moves (the move's text names no capture), whichever the rules allow
        position = runner.controller.position
        names = position.geometry.names
        move = next(m for m in position.legal_moves
                    if m.to_square is not None and position.piece_at(m.to_square) is None
                    and str(m) == f"{names[m.from_square]}-{names[m.to_square]}")
        runner.lift(names[move.from_square])
        runner.place(names[move.to_square])
        runner.wait(400)
        _check(feed, runner)
    played = len(runner.controller.moves)
    assert played == 3
    runner.press("back")                      # a take-back: the words of the moves left
    snapshot = _check(feed, runner)
    assert len(snapshot["move_texts"]) == played - 1
    runner.fen("start")
    assert _check(feed, runner)["move_texts"] == []
