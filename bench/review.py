"""The review (issue 34): how long the engine takes over a game, and what a
review beside a game does to the board's loop.

    python bench/review.py [--plies 120] [--level 8 | --nodes N] [--families maxima,ultima,...]
                           [--loop-seconds 30] [--no-loop]

1. For each family (Maxima, Ultima, a Deckle game: Swapper Chess, Optima) a
   game of ``--plies`` moves (120 plies: a 60-move game) of seeded random
   legal moves is reviewed as ``maxima-board review`` does it
   (``maxima_board.service.review``'s engine loop, the default search:
   level 8, 250,000 nodes a position): wall seconds, nodes searched and
   nodes/s here, and an estimate for a Raspberry Pi 4 = nodes / the Pi 4's
   nodes/s. The Pi 4's speed is not measured (docs/opponent-engine.md,
   "Not measured"); the estimate is given for 0.3 M and 0.9 M nodes/s:
   0.9 M from docs/opponent.md (300,000 nodes "about a third of a second on
   a Pi 4"), 0.3 M a pessimistic figure between the Pi Zero 2 W (0.09-0.18 M)
   and the Pi 5 (0.8-1.1 M) of docs/opponent-engine.md.
2. The board's loop (``maxima-board run`` on a simulated Pico, bench/club_attack.py's
   set-up: 500 finished games of 40 moves and a game being played, a move
   every 1.5 s) twice: with the background reviewer off
   (``[review] background = false``) and on (it reviews the 500 finished games
   at nice 19 all the while): the loop's longest gap between watchdog pings
   (``$WATCHDOG_USEC``), late pings (> 100 ms apart) and the moves' latency.
"""
from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "src"))

from maxima_board.opponent.review import Search, review_game  # noqa: E402
from maxima_board.opponent.supervisor import Supervisor  # noqa: E402
from maxima_board.rules import Position, variants  # noqa: E402

FAMILIES = {"maxima": "maxima", "ultima": "ultima", "deckle": "swapper-chess", "optima": "optima"}
PI4_NPS = (300_000, 900_000)


def random_game(variant: str, plies: int, seed: int) -> tuple[str, list[str]]:
    """A game of ``plies`` seeded random legal moves that the rules do not end before."""
    for attempt in range(200):
        rng = random.Random(seed * 1000 + attempt)
        position = Position(variants.get(variant).start_fen, variant)
        start = position.fen()
        moves: list[str] = []
        while len(moves) < plies and position.outcome() is None:
            legal = position.legal_moves
            if not legal:
                break
            move = rng.choice(legal)
            moves.append(str(move))
            position.push(move)
        if len(moves) == plies:
            return start, moves
    raise SystemExit(f"no random game of {plies} plies in {variant}")


def time_reviews(families: list[str], plies: int, search: Search) -> None:
    print(f"review of a {plies}-ply game ({plies // 2} moves), search {search.text}:")
    for family in families:
        variant = FAMILIES[family]
        start, moves = random_game(variant, plies, 1)
        nodes = [0]

        def keep(found) -> None:
            nodes[0] += sum(f.nodes for f in found)

        engine = Supervisor("builtin", variant, search.engine_level())
        try:
            engine.new_game()
            t0 = time.monotonic()
            looked = review_game(engine, start, variant, moves, search, [], keep)
            seconds = time.monotonic() - t0
        finally:
            engine.close()
        pi = " - ".join(f"{nodes[0] / nps:.0f}" for nps in reversed(PI4_NPS))
        print(f"  {family:<7} ({variant}): {looked} positions, {seconds:.1f} s here, {nodes[0]:,} nodes "
              f"({nodes[0] / seconds / 1e6:.2f} M nodes/s); Pi 4 estimate {pi} s "
              f"(at {PI4_NPS[1] / 1e6:g} - {PI4_NPS[0] / 1e6:g} M nodes/s)")


def loop_gaps(seconds: float) -> None:
    from bench.club_attack import PING_US, Pings, Player, make_database
    from maxima_board.devices.boards import MAXIMA_BOARD
    from maxima_board.devices.pico_sim import SimMatrix, SimPico

    for review in ("off", "on"):
        work = Path(tempfile.mkdtemp(prefix="review-loop-"))
        db = str(work / "games.db")
        game_id = make_database(db, 500)
        sim = SimPico(SimMatrix(MAXIMA_BOARD.rows, MAXIMA_BOARD.columns))
        player = Player(sim, db, game_id)
        sim.start()
        config = work / "board.toml"
        config.write_text(f'hardware = "pico"\n[pico]\ndevice = "{sim.path}"\n[oled]\ndriver = "none"\n'
                          f'[database]\npath = "{db}"\n[web]\nenabled = true\nport = 0\nbind = "127.0.0.1"\n'
                          f'[review]\nbackground = {"true" if review == "on" else "false"}\n')
        pings = Pings(str(work / "notify"))
        env = dict(os.environ, NOTIFY_SOCKET=str(work / "notify"), WATCHDOG_USEC=str(PING_US),
                   PYTHONPATH=str(ROOT))
        env.pop("WATCHDOG_PID", None)
        board = subprocess.Popen([sys.executable, "-m", "maxima_board.cli.main", "run", "--config", str(config)],
                                 cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.PIPE, text=True)
        try:
            for _ in range(20):
                if re.search(r"web page on", board.stderr.readline()):
                    break
            if not pings.ready.wait(20):
                print("the board did not start", file=sys.stderr)
                return
            threading.Thread(target=lambda: [None for _ in board.stderr], daemon=True).start()
            time.sleep(2.0)
            start = time.monotonic()
            latencies = []
            while time.monotonic() - start < seconds:
                began = time.monotonic()
                latencies.append(player.move())
                time.sleep(max(0.0, 1.5 - (time.monotonic() - began)))
            end = time.monotonic()
            reviewed = _reviewed(db)
        finally:
            board.terminate()
            try:
                board.wait(15)
            except subprocess.TimeoutExpired:
                board.kill()
            sim.stop()
            sim.close()
        gap, p99, late, n = pings.between(start, end)
        done = sorted(x for x in latencies if x is not None)
        print(f"board loop, review {review}: {end - start:.0f} s, longest gap {gap:.0f} ms, p99 {p99:.0f} ms, "
              f"late pings {late} of {n}; moves {len(latencies)}, placed -> stored median "
              f"{statistics.median(done):.0f} ms, max {done[-1]:.0f} ms, not stored {len(latencies) - len(done)}; "
              f"positions reviewed meanwhile: {reviewed}")


def _reviewed(db: str) -> int:
    import sqlite3
    conn = sqlite3.connect(Path(db).absolute().as_uri() + "?mode=ro", uri=True, timeout=5)
    try:
        return conn.execute("SELECT COUNT(*) FROM reviews").fetchone()[0]
    finally:
        conn.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plies", type=int, default=120)
    parser.add_argument("--level", type=int)
    parser.add_argument("--nodes", type=int)
    parser.add_argument("--families", default=",".join(FAMILIES))
    parser.add_argument("--loop-seconds", type=float, default=30.0)
    parser.add_argument("--no-loop", action="store_true")
    parser.add_argument("--no-reviews", action="store_true")
    args = parser.parse_args()
    if not args.no_reviews:
        time_reviews(args.families.split(","), args.plies, Search(level=args.level, nodes=args.nodes))
    if not args.no_loop:
        loop_gaps(args.loop_seconds)
    load = os.getloadavg()
    print(f"machine: {os.cpu_count()} cores, load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
