"""``maxima-board replay SCRIPT --broadcast HOST:PORT --table N``: a board
script played headless, published as a board would publish it.

The JSON Lines output is the same as without ``--broadcast``. With
``realtime`` the script's waits take real time (a demonstration board, or
many boards playing at once); otherwise the script runs at once and the
broker gets the states as fast as it takes them. Before exiting, the
publisher waits for the broker to acknowledge everything; if it cannot
within ``timeout`` seconds, the command fails (exit code 2).
"""
from __future__ import annotations

import json
import time
from typing import TextIO

from maxima_board.service.feed import BoardFeed
from maxima_board.service.script import ScriptRun, Step
from maxima_board.board.settings import Settings
from maxima_board.storage.store import GameStore

from maxima_board.club.connection import BrokerAuth
from maxima_board.club.publisher import BoardPublisher


def broadcast_replay(steps: list[Step], settings: Settings, fen: str | None, out: TextIO, *,
                     broker: str, club: str, table: str, realtime: bool = False,
                     timeout: float = 30.0, auth: BrokerAuth | None = None, engine: str = "builtin",
                     board: str | None = None) -> ScriptRun:
    """The script run as ``replay`` runs it (the same game, board, clock
    and engine: :class:`ScriptRun`), each change published; the run, whose
    ``wrong`` says whether it ended with the board standing wrong."""
    # A replay keeps nothing between runs, so its start count is the clock's
    # seconds: a demonstration replayed again on the same table is newer.
    publisher = BoardPublisher(broker, club, table, auth=auth, boot=int(time.time()))
    feed = BoardFeed()
    feed.listeners.append(publisher)
    store = GameStore(":memory:")
    delivered = False
    started = time.monotonic()

    def pace(at_ms: int) -> None:   # with ``realtime``: every deadline on the way, at its real time
        time.sleep(max(0.0, started + at_ms / 1000 - time.monotonic()))

    try:
        run = ScriptRun(steps, settings, fen, store, engine=engine, board=board, pace=pace if realtime else None)
        started = time.monotonic() - run.runner.now / 1000
        first = True
        for events in run:
            for event in events:
                out.write(json.dumps(event) + "\n")
            if events:
                out.flush()
            if events or first:
                feed.update(run.runner.controller)
            first = False
        out.flush()
    finally:
        delivered = publisher.close(timeout)
        store.close()
    if not delivered:
        raise OSError(f"broker {broker}: not every message was acknowledged within {timeout:.0f} s")
    return run
