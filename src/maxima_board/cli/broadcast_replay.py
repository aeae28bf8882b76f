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
from maxima_board.service.script import Runner, Step
from maxima_board.board.settings import Settings
from maxima_board.storage.store import GameStore

from maxima_board.club.connection import BrokerAuth
from maxima_board.club.publisher import BoardPublisher


def broadcast_replay(steps: list[Step], settings: Settings, fen: str | None, out: TextIO, *,
                     broker: str, club: str, table: str, realtime: bool = False,
                     timeout: float = 30.0, auth: BrokerAuth | None = None) -> int:
    # A replay keeps nothing between runs, so its start count is the clock's
    # seconds: a demonstration replayed again on the same table is newer.
    publisher = BoardPublisher(broker, club, table, auth=auth, boot=int(time.time()))
    feed = BoardFeed()
    feed.listeners.append(publisher)
    store = GameStore(":memory:")
    delivered = False
    try:
        if steps and steps[0].op == "fen":
            fen = str(steps[0].arg)
            steps = steps[1:]
        runner = Runner(settings, fen, store)
        started = time.monotonic() - runner.now / 1000

        def emit(events: list[dict]) -> None:
            for event in events:
                out.write(json.dumps(event) + "\n")
            if events:
                out.flush()
                feed.update(runner.controller)

        emit(runner.events)
        feed.update(runner.controller)
        for step in steps:
            if realtime and step.op == "wait":
                target = runner.now + int(step.arg)     # type: ignore[arg-type]
                while True:   # every deadline on the way, at its real time
                    deadline = runner.controller.next_deadline()
                    at = target if deadline is None or deadline > target or deadline <= runner.now else deadline
                    time.sleep(max(0.0, started + at / 1000 - time.monotonic()))
                    emit(runner.advance_to(at))
                    if at >= target:
                        break
                continue
            emit(runner.do(step))
        out.write(json.dumps(runner.final()) + "\n")
        out.flush()
    finally:
        delivered = publisher.close(timeout)
        store.close()
    if not delivered:
        raise OSError(f"broker {broker}: not every message was acknowledged within {timeout:.0f} s")
    return 0
