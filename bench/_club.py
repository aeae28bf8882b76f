"""What the club benches share: a Mosquitto broker (the club tests' own,
tests/club/mosquitto.py), the club dashboard as its own process, and quiet
games to play on the boards."""
from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

from maxima_board.rules import Position
from tests.club.games import quiet_game
from tests.club.mosquitto import Broker, free_port, wait_port

__all__ = ["Broker", "MOSQUITTO", "ROOT", "free_port", "quiet_game", "quiet_moves", "start_dashboard", "wait_port"]

ROOT = Path(__file__).resolve().parent.parent
MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"


def quiet_moves(seed: int, plies: int) -> list[tuple[str, str]]:
    """(move, FEN after it) of a random Maxima game without captures that
    does not end the game: any move with a destination (``quiet_game``, the
    tests', only plain moves)."""
    rng = random.Random(seed)
    position, out = Position(), []
    for _ in range(plies):
        options = [m for m in position.legal_moves if not m.captures and m.to_square is not None]
        rng.shuffle(options)
        for move in options:
            position.push(move)
            if position.outcome() is None:
                out.append((str(move), position.fen()))
                break
            position.pop()
    return out


def start_dashboard(broker: str, club: str, *options: str, source: Path | str = ROOT,
                    **popen) -> tuple[subprocess.Popen, str]:
    """``maxima-board dashboard`` of the checkout ``source`` on a free
    loopback port, its own process; returns it and its URL (``http://127.0.0.1:PORT/``)."""
    env = dict(os.environ, PYTHONPATH=f"{Path(source) / 'src'}{os.pathsep}{source}")     # its own package (a src layout)
    dashboard = subprocess.Popen([sys.executable, "-m", "maxima_board.cli.main", "dashboard", "--broker", broker,
                                  "--club", club, "--port", "0", "--bind", "127.0.0.1", *options],
                                 cwd=source, env=env, stderr=subprocess.PIPE, text=True, **popen)
    found = re.search(r"(http://127\.0\.0\.1:\d+/)", dashboard.stderr.readline())
    if found is None:
        dashboard.kill()
        raise SystemExit(f"the dashboard of {source} did not start")
    return dashboard, found.group(1)
