"""``maxima-board replay SCRIPT --remote HOST:PORT --remote-game NAME
--side white|black``: a board script played as one side of a remote game.

The script's waits take real time, and a move of the other side that
arrives during one is taken at once (its ``remote_move`` line printed
then), so a script can wait for it and then make it on the board: ``wait
5000``, ``lift d3``, ``place d5``. The output is ``replay``'s JSON Lines.
Before exiting, the board's last message is handed to the broker.
"""
from __future__ import annotations

import json
import threading
import time
from typing import Any, TextIO

from maxima_board.board.settings import Settings
from maxima_board.service.script import ScriptRun, Step
from maxima_board.storage.store import GameStore

from .remote import RemoteGame


def remote_replay(steps: list[Step], settings: Settings, fen: str | None, out: TextIO, remote: RemoteGame,
                  *, engine: str = "builtin", board: str | None = None) -> ScriptRun:
    """The script run (:class:`ScriptRun`) with the remote layer around its
    controller, paced in real time and woken by the other side's messages."""
    woke = threading.Event()
    store = GameStore(":memory:")
    started = time.monotonic()

    def wrap(controller: Any) -> Any:
        layer = remote.wrap(controller)
        layer.set_waker(woke.set)
        return layer

    def pace(at_ms: int) -> int:
        while True:
            now_ms = int((time.monotonic() - started) * 1000)
            if now_ms >= at_ms:
                return at_ms
            if woke.wait((at_ms - now_ms) / 1000):
                woke.clear()
                return max(now_ms, int((time.monotonic() - started) * 1000))

    try:
        run = ScriptRun(steps, settings, fen, store, engine=engine, board=board, pace=pace, wrap=wrap)
        started = time.monotonic() - run.runner.now / 1000
        for events in run:
            for event in events:
                out.write(json.dumps(event) + "\n")
            if events:
                out.flush()
    finally:
        store.close()
    return run
