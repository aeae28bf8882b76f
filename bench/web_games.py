"""What a phone's read of the board's games list costs as the season's games pile up (issue 31).

    python bench/web_games.py [--games 30,870] [--reads 40]

For each count of ``--games`` (finished games of 40 moves each, in a new
database), serves the board's web page in this process (``board_server``
with the database, as ``serve`` and ``run`` do) and times ``GET /api/games``
from a plain HTTP client on loopback (keep-alive), ``--reads`` times each:

* cold: after another connection wrote to the database (a move stored:
  what the page's reader had read is no longer current, so it reads again);
* warm: the database unchanged since the last read (the reader's copy).

Prints the median and the largest per count, and the reply's size and
number of games. Works with the list as it was before issue 31 (every game,
a JSON array) and with the paged one (``{"games": [...], "next": ...}``).
"""
from __future__ import annotations

import argparse
import http.client
import json
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "src"))

from maxima_board.rules import Position  # noqa: E402
from maxima_board.service.feed import BoardFeed  # noqa: E402
from maxima_board.storage.store import GameStore  # noqa: E402
from maxima_board.web.server import board_server  # noqa: E402

PLIES = 40


def make_database(path: str, games: int) -> None:
    """``games`` finished games of ``PLIES`` moves each."""
    GameStore(path).close()                  # our schema, our application id
    start = Position().fen()
    conn = sqlite3.connect(path)
    with conn:
        for n in range(games):
            game = conn.execute("INSERT INTO games (start_fen, created, event, site, date, round, white, black, "
                                "result, reason, finished) VALUES (?, '2025-05-01T19:00:00', 'Club night', 'Club', "
                                "'2025.05.01', ?, ?, ?, '1-0', 'resignation', 1)",
                                (start, str(n // 10 + 1), f"White {n}", f"Black {n}")).lastrowid
            conn.executemany("INSERT INTO moves (game_id, ply, move, fen, created) VALUES (?, ?, 'd3-d4', ?, '')",
                             [(game, ply, start) for ply in range(PLIES)])
    conn.close()


def read(conn: http.client.HTTPConnection) -> tuple[float, int, int]:
    """One GET /api/games: ms, bytes, games in the reply."""
    began = time.perf_counter()
    conn.request("GET", "/api/games")
    response = conn.getresponse()
    body = response.read()
    took = (time.perf_counter() - began) * 1000
    assert response.status == 200, (response.status, body[:200])
    data = json.loads(body)
    return took, len(body), len(data["games"] if isinstance(data, dict) else data)


def measure(games: int, reads: int) -> None:
    work = Path(tempfile.mkdtemp(prefix="web-games-"))
    db = str(work / "games.db")
    make_database(db, games)
    server = board_server(BoardFeed(), "123456", "127.0.0.1", 0, db_path=db).start()
    writer = sqlite3.connect(db)
    try:
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        read(conn)                                   # the reader's connection opened
        cold, warm = [], []
        size = shown = 0
        for n in range(reads):
            with writer:                             # a move stored by the board
                writer.execute("UPDATE moves SET created = ? WHERE game_id = 1 AND ply = 0", (str(n),))
            took, size, shown = read(conn)
            cold.append(took)
            warm.append(read(conn)[0])
            time.sleep(0.02)                         # within the request rate (50 a second)
        conn.close()
        print(f"{games} games stored: /api/games {size} bytes, {shown} games; "
              f"cold median {statistics.median(cold):.1f} ms (max {max(cold):.1f}), "
              f"warm median {statistics.median(warm):.2f} ms (max {max(warm):.2f}); {reads} reads each")
    finally:
        writer.close()
        server.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="30,870", help="counts of stored games, comma-separated")
    parser.add_argument("--reads", type=int, default=40)
    args = parser.parse_args()
    for count in (int(x) for x in args.games.split(",")):
        measure(count, args.reads)
    return 0


if __name__ == "__main__":
    sys.exit(main())
