"""A Maxima game replayed on the simulated board into a games database, for
the review's tests (tests/test_review*.py)."""
from __future__ import annotations

import random

from maxima_board.board.hands import hand_lines, pick_move
from maxima_board.board.settings import Settings
from maxima_board.service.script import Runner, parse_script
from maxima_board.storage.store import GameStore


def replayed_game(db: str, plies: int = 16, seed: int = 3, variant: str = "maxima",
                  finish: bool = True) -> list[str]:
    """Play ``plies`` moves chosen by ``pick_move`` (seeded) by hand on the
    simulated board, stored in ``db`` (game 1, or the next); with
    ``finish``, the game then ends as a draw. The moves, canonical."""
    rng = random.Random(seed)
    store = GameStore(db)
    try:
        settings = Settings(variant=variant)
        runner = Runner(settings, store=store, variant=variant)
        core = runner.controller
        for _ in range(plies):
            p = core.position
            move = pick_move(p, rng)
            for step in parse_script(hand_lines(p, move, rng, settings.settle_ms, core.table), variant):
                runner.do(step)
        moves = list(core.moves)
        assert len(moves) == plies, moves
        if finish:
            store.finish(core.game_id, "1/2", "agreed")
    finally:
        store.close()
    return moves
