"""Broadcast latency: a move committed on a board → visible on the club
dashboard, with twenty boards playing at once.

    python bench/club_latency.py [--boards 20] [--plies 15] [--interval 1.0]

Starts Mosquitto on a free loopback port (generated configuration) and
``maxima-board dashboard`` as its own process. Twenty boards (a controller,
its feed and its MQTT publisher each, in this process, one thread per board)
each play a game, one move every ``--interval`` seconds, staggered. The
time is taken when the controller has committed a move and handed the new
state to the publisher, and again when the dashboard's server-sent event
stream (what its page listens to) shows that move. Prints p50, p99 and max.

Target (issue 12): p99 ≤ 500 ms with twenty boards.
"""
from __future__ import annotations

import argparse
import http.client
import json
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "src"))

from bench._club import MOSQUITTO, Broker, quiet_moves, start_dashboard  # noqa: E402
from maxima_board.club.publisher import BoardPublisher  # noqa: E402
from maxima_board.service.feed import BoardFeed  # noqa: E402
from maxima_board.service.script import Runner  # noqa: E402
from maxima_board.board.settings import Settings  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", type=int, default=20)
    parser.add_argument("--plies", type=int, default=15)
    parser.add_argument("--interval", type=float, default=1.0, help="seconds between a board's moves")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="club-bench-"))
    broker = Broker(MOSQUITTO, work)
    broker.start()
    address = broker.address
    dash, url = start_dashboard(address, "bench")
    dash_port = int(url.rsplit(":", 1)[1].rstrip("/"))
    committed: dict[tuple[str, int], float] = {}
    seen: dict[tuple[str, int], float] = {}
    done = threading.Event()

    def watch() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", dash_port, timeout=60)
        conn.request("GET", "/events")
        response = conn.getresponse()
        while not done.is_set():
            line = response.readline()
            if not line:
                break
            if line.startswith(b"data: "):
                now = time.monotonic()
                for table in json.loads(line[6:])["tables"]:
                    seen.setdefault((table["table"], len(table.get("moves") or [])), now)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    time.sleep(0.5)

    def board(n: int, moves: list[str]) -> None:
        table = str(n)
        runner = Runner(Settings())
        feed = BoardFeed()
        publisher = BoardPublisher(address, "bench", table)
        feed.listeners.append(publisher)
        feed.update(runner.controller)
        publisher.flush(10)
        time.sleep(args.interval * n / args.boards)          # staggered
        for ply, move in enumerate(moves, 1):
            start = time.monotonic()
            a, b = move.split("-")
            runner.lift(a), runner.place(b)
            runner.wait(400)                                   # the settle time passes: the move commits
            committed[(table, ply)] = time.monotonic()
            feed.update(runner.controller)
            time.sleep(max(0.0, args.interval - (time.monotonic() - start)))
        publisher.close(10)

    games = [[move for move, _ in quiet_moves(1000 + n, args.plies)] for n in range(args.boards)]
    threads = [threading.Thread(target=board, args=(n, games[n])) for n in range(args.boards)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    time.sleep(1.0)
    done.set()
    dash.terminate()
    dash.wait(10)
    broker.stop()
    shutil.rmtree(work, ignore_errors=True)
    latencies = sorted((seen[key] - t) * 1000 for key, t in committed.items() if key in seen)
    missing = len(committed) - len(latencies)
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
    print(f"boards {args.boards}, moves {len(committed)} (one per {args.interval:.1f} s per board), "
          f"not seen {missing}")
    print(f"commit -> dashboard event: p50 {statistics.median(latencies):.1f} ms, p99 {p99:.1f} ms, "
          f"max {latencies[-1]:.1f} ms  (target p99 <= 500 ms)")
    return 0 if missing == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
