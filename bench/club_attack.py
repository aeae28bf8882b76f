"""The board's loop while spectators flood its web page (issue 22, finding 1).

    python bench/club_attack.py [--games 500] [--clients 4] [--seconds 30]
    python bench/club_attack.py --attack pins [--seconds 60] [--guessers 8]
    python bench/club_attack.py --attack dashboard [--source CHECKOUT]

Runs ``maxima-board run`` as its own process, as the service does: the Pico
topology against a simulated Pico (hardware/pico_sim.py: the firmware's own
logic on a pty, in this process), the web page on 127.0.0.1, a games
database holding ``--games`` finished games of 40 moves and the game in
play. The board believes it runs under systemd: ``$NOTIFY_SOCKET`` is a
socket of this script and ``$WATCHDOG_USEC`` asks for a ping every 20 ms,
so the gaps between pings are the gaps between the loop's passes.

First a quiet phase (no client: what the machine's load alone does), then ``--clients`` processes flood
``/api/games`` and ``/games/N.pgn`` (N random) for ``--seconds`` (at nice
10: they stand for phones, which do not share the Pi's cores). In both,
a move is made on the board every 1.5 s (lift, 300 ms, place); its commit
is the moment the move is in the database (read-only polling, every 5 ms).
Prints per phase: the loop's longest gap, late pings (more than 100 ms
apart), moves and their latency from the piece placed to the move stored,
and the clients' requests by status.

Targets (issue 22): longest gap <= 100 ms, no late ping, every move stored
within settle time + 50 ms.

    python bench/club_attack.py --attack connections [--heads-kb 480] [--sources 16]

Issue 31, finding 5 instead (:func:`connections_attack`): ``maxima-board
serve`` as its own process, 256 connections from ``--sources`` loopback
addresses each sending ``--heads-kb`` kB of request headers that never end;
prints the server's memory (VmRSS, VmHWM) before and after, how many of the
connections it kept open, and whether another device still gets the page.
"""
from __future__ import annotations

import argparse
import http.client
import multiprocessing
import os
import random
import re
import socket
import sqlite3
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

from bench._club import quiet_moves  # noqa: E402
from tests.club.games import long_game  # noqa: E402
from maxima_board.board.settings import Settings  # noqa: E402
from maxima_board.storage.store import GameStore  # noqa: E402
from maxima_board.rules import Position  # noqa: E402
from maxima_board.devices.boards import MAXIMA_BOARD  # noqa: E402
from maxima_board.devices.matrix_map import MatrixMap  # noqa: E402
from maxima_board.devices.pico_sim import SimMatrix, SimPico  # noqa: E402

PING_US = 40_000          # WATCHDOG_USEC: the loop pings every 20 ms
LATE_MS = 100.0
MOVE_EVERY_S = 1.5


def make_database(path: str, games: int) -> int:
    """``games`` finished games of 40 moves, then an unfinished one at the
    start (the game the board resumes); returns its number."""
    GameStore(path).close()            # our schema, our application id
    record = quiet_moves(7, 40)
    conn = sqlite3.connect(path)
    start = Position().fen()
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S")
    with conn:
        for n in range(games):
            cur = conn.execute("INSERT INTO games (start_fen, created, event, site, date, round, white, black, "
                               "result, reason, finished) VALUES (?, ?, 'Club night', 'Club', ?, ?, ?, ?, "
                               "'1-0', 'resignation', 1)",
                               (start, stamp, time.strftime("%Y.%m.%d"), str(n // 10 + 1), f"White {n}", f"Black {n}"))
            conn.executemany("INSERT INTO moves (game_id, ply, move, fen, created) VALUES (?, ?, ?, ?, ?)",
                             [(cur.lastrowid, ply, move, fen, stamp) for ply, (move, fen) in enumerate(record)])
        cur = conn.execute("INSERT INTO games (start_fen, created, event, site, date, round, white, black) "
                           "VALUES (?, ?, 'Bench', '', ?, '-', 'White', 'Black')",
                           (start, stamp, time.strftime("%Y.%m.%d")))
    conn.close()
    return int(cur.lastrowid)


def flood(port: int, seconds: float, games: int, seed: int, out) -> None:
    """One client: /api/games and /games/N.pgn in turn, as fast as answered.
    At nice 10: on a real board the phones are not on the Pi; here they
    share its cores, and the board (nice 0) should get them first."""
    os.nice(10)
    rng = random.Random(seed)
    counts: dict[str, int] = {}
    end = time.monotonic() + seconds
    conn = None
    n = 0
    while time.monotonic() < end:
        path = "/api/games" if n % 2 == 0 else f"/games/{rng.randint(1, games)}.pgn"
        n += 1
        try:
            if conn is None:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            conn.request("GET", path)
            response = conn.getresponse()
            response.read()
            key = str(response.status)
            if response.getheader("Connection", "").lower() == "close":
                conn.close()
                conn = None
        except (OSError, http.client.HTTPException) as exc:
            key = type(exc).__name__
            if conn is not None:
                conn.close()
            conn = None
            time.sleep(0.05)
        counts[key] = counts.get(key, 0) + 1
    out.put(counts)


class Pings:
    """The board's notify messages, as systemd would get them."""

    def __init__(self, path: str):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(path)
        self.times: list[float] = []
        self.ready = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        while True:
            data = self.sock.recv(4096)
            now = time.monotonic()
            if b"READY=1" in data:
                self.ready.set()
            if b"WATCHDOG=1" in data:
                self.times.append(now)

    def between(self, start: float, end: float) -> tuple[float, float, int, int]:
        """Longest gap and 99th percentile (ms), late pings, pings within [start, end]."""
        times = [t for t in self.times if start <= t <= end]
        gaps = sorted((b - a) * 1000 for a, b in zip(times, times[1:]))
        if not gaps:
            return float("nan"), float("nan"), 0, len(times)
        return gaps[-1], gaps[int(len(gaps) * 0.99)], sum(g > LATE_MS for g in gaps), len(times)


class Player:
    """Makes moves on the simulated board; times each until it is stored."""

    def __init__(self, sim: SimPico, db: str, game_id: int):
        self.sim = sim
        self.map = MatrixMap()
        self.db = db
        self.game_id = game_id
        self.position = Position()
        names = self.position.geometry.names
        occupancy = self.position.occupancy()
        self.squares = {names[i] for i in range(len(names)) if occupancy >> i & 1}
        self.moves = [m for m, _ in quiet_moves(11, 60)]
        self.ply = 0
        self.set_matrix()

    def set_matrix(self) -> None:
        self.sim.matrix.set({self.map.position_of[sq] for sq in self.squares})

    def stored(self) -> int:
        conn = sqlite3.connect(Path(self.db).absolute().as_uri() + "?mode=ro", uri=True, timeout=5)
        try:
            return conn.execute("SELECT COUNT(*) FROM moves WHERE game_id = ?", (self.game_id,)).fetchone()[0]
        finally:
            conn.close()

    def move(self) -> float | None:
        """One move; ms from the piece placed to the move stored (None: not in 10 s)."""
        a, b = self.moves[self.ply].split("-")
        self.squares.discard(a)
        self.set_matrix()
        time.sleep(0.3)
        self.squares.add(b)
        self.set_matrix()
        placed = time.monotonic()
        self.ply += 1
        while time.monotonic() - placed < 10:
            if self.stored() >= self.ply:
                return (time.monotonic() - placed) * 1000
            time.sleep(0.005)
        return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--quiet", type=float, default=None,
                        help="seconds of the quiet phase (default: as long as the flood; the machine's own noise)")
    parser.add_argument("--attack", choices=("flood", "connections", "pins", "dashboard"), default="flood",
                        help="flood: the game list flooded while moves are made (issue 22, the default); "
                             "connections: huge request heads on every connection; "
                             "pins: wrong PINs from rotating addresses; "
                             "dashboard: the club dashboard's round files and long records (issue 31)")
    parser.add_argument("--guessers", type=int, default=8, help="--attack pins: threads posting PINs")
    parser.add_argument("--heads-kb", type=int, default=480, help="--attack connections: kB of headers sent on each")
    parser.add_argument("--sources", type=int, default=16, help="--attack connections: loopback addresses used")
    parser.add_argument("--source", default=str(ROOT), help="--attack dashboard: the checkout whose dashboard runs")
    args = parser.parse_args()
    if args.attack == "connections":
        return connections_attack(args.heads_kb, args.sources)
    if args.attack == "pins":
        return pin_guesses(args.seconds, args.guessers)
    if args.attack == "dashboard":
        return dashboard_attack(Path(args.source))
    work = Path(tempfile.mkdtemp(prefix="club-attack-"))
    db = str(work / "games.db")
    game_id = make_database(db, args.games)
    sim = SimPico(SimMatrix(MAXIMA_BOARD.rows, MAXIMA_BOARD.columns))
    player = Player(sim, db, game_id)
    sim.start()
    config = work / "board.toml"
    config.write_text(f'hardware = "pico"\n[pico]\ndevice = "{sim.path}"\n[oled]\ndriver = "none"\n'
                      f'[database]\npath = "{db}"\n[web]\nenabled = true\nport = 0\nbind = "127.0.0.1"\n')
    pings = Pings(str(work / "notify"))
    env = dict(os.environ, NOTIFY_SOCKET=str(work / "notify"), WATCHDOG_USEC=str(PING_US), PYTHONPATH=str(ROOT))
    env.pop("WATCHDOG_PID", None)
    board = subprocess.Popen([sys.executable, "-m", "maxima_board.cli.main", "run", "--config", str(config)],
                             cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True)
    port = None
    for _ in range(20):
        line = board.stderr.readline()
        m = re.search(r"web page on http://127\.0\.0\.1:(\d+)/", line)
        if m:
            port = int(m.group(1))
            break
    if port is None or not pings.ready.wait(20):
        print("the board did not start", file=sys.stderr)
        board.kill()
        return 1
    threading.Thread(target=lambda: [None for _ in board.stderr], daemon=True).start()
    time.sleep(2.0)          # the link up, the game resumed
    settle = Settings().settle_ms

    def phase(name: str, seconds: float, clients: int) -> None:
        ctx = multiprocessing.get_context("spawn")
        results = ctx.Queue()
        workers = [ctx.Process(target=flood, args=(port, seconds, args.games, n, results)) for n in range(clients)]
        for w in workers:
            w.start()
        time.sleep(1.0 if clients else 0.0)      # the clients under way
        start = time.monotonic()
        latencies: list[float | None] = []
        while time.monotonic() - start < seconds - (1.0 if clients else 0.0) - MOVE_EVERY_S:
            began = time.monotonic()
            latencies.append(player.move())
            time.sleep(max(0.0, MOVE_EVERY_S - (time.monotonic() - began)))
        end = time.monotonic()
        counts: dict[str, int] = {}
        for w in workers:
            for key, n in results.get(timeout=60).items():
                counts[key] = counts.get(key, 0) + n
        for w in workers:
            w.join(30)
        gap, p99, late, n_pings = pings.between(start, end)
        done = sorted(x for x in latencies if x is not None)
        lost = len(latencies) - len(done)
        over = sum(x > settle + 50 for x in done) + lost
        print(f"{name}: {end - start:.0f} s, {clients} clients"
              + (f", requests {sum(counts.values())} ({', '.join(f'{k}: {v}' for k, v in sorted(counts.items()))})"
                 if clients else ""))
        print(f"  board loop: longest gap {gap:.0f} ms (target <= {LATE_MS:.0f}), p99 {p99:.0f} ms, late pings {late} "
              f"of {n_pings} (> {LATE_MS:.0f} ms apart)")
        if done:
            print(f"  moves: {len(latencies)}, placed -> stored: median {statistics.median(done):.0f} ms, "
                  f"max {done[-1]:.0f} ms, over settle {settle} + 50 ms: {over}"
                  + (f", not stored within 10 s: {lost}" if lost else ""))
        else:
            print(f"  moves: {len(latencies)}, none stored within 10 s")

    try:
        phase("quiet", args.seconds if args.quiet is None else args.quiet, 0)
        phase("flood", args.seconds, args.clients)
    finally:
        board.terminate()
        try:
            board.wait(15)
        except subprocess.TimeoutExpired:
            board.kill()
        sim.stop()
        sim.close()
    load = os.getloadavg()
    print(f"machine: {os.cpu_count()} cores, load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
    return 0


# -- issue 31, finding 2: PIN guesses from rotating addresses -------------------------------
def pin_guesses(seconds: float, threads: int) -> int:
    """``maxima-board serve`` on a fresh database; ``threads`` guessers post
    wrong PINs as fast as the board answers, each post from the next of
    4,000 loopback addresses. Prints how many PINs the board checked (403)
    and refused unchecked (429) per minute."""
    import json as _json

    work = Path(tempfile.mkdtemp(prefix="club-pins-"))
    board = subprocess.Popen([sys.executable, "-m", "maxima_board.cli.main", "serve", "--port", "0",
                              "--bind", "127.0.0.1", "--db", str(work / "games.db")],
                             cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT / "src")),
                             stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    port = pin = None
    for _ in range(20):
        m = re.search(r"serve: http://127\.0\.0\.1:(\d+)/\s+web PIN (\d+)", board.stderr.readline())
        if m:
            port, pin = int(m.group(1)), m.group(2)
            break
    if port is None:
        board.kill()
        print("serve did not start", file=sys.stderr)
        return 1
    threading.Thread(target=lambda: [None for _ in board.stderr], daemon=True).start()
    counts: dict[int, int] = {}
    lock = threading.Lock()
    end = time.monotonic() + seconds

    def guesser(n: int) -> None:
        rng = random.Random(n)
        k = n
        while time.monotonic() < end:
            k += threads
            source = f"127.{1 + (k // 250) % 16}.{k % 250 + 1}.{n + 2}"
            guess = f"{rng.randrange(10 ** 6):06d}"
            if guess == pin:
                continue
            body = _json.dumps({"pin": guess}).encode()
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(source, 0))
                conn.request("POST", "/api/new-game", body, {"Content-Type": "application/json"})
                status = conn.getresponse().status
                conn.close()
            except OSError:
                status = 0
            with lock:
                counts[status] = counts.get(status, 0) + 1

    workers = [threading.Thread(target=guesser, args=(n,)) for n in range(threads)]
    began = time.monotonic()
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    took = time.monotonic() - began
    board.terminate()
    board.wait(15)
    per_minute = {status: n * 60.0 / took for status, n in counts.items()}
    print(f"PIN guesses for {took:.0f} s from rotating loopback addresses, {threads} guessers: "
          f"{sum(counts.values())} posts ({', '.join(f'{s}: {n}' for s, n in sorted(counts.items()))})")
    print(f"  checked (403): {per_minute.get(403, 0.0):.1f} a minute; refused unchecked (429): "
          f"{per_minute.get(429, 0.0):.0f} a minute")
    return 0


# -- --attack connections (issue 31, finding 5) ----------------------------------------------
def _memory_kb(pid: int) -> dict[str, int]:
    """VmRSS and VmHWM (peak) of process ``pid``, in kB."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmRSS", "VmHWM"):
            fields[name] = int(value.split()[0])
    return fields


def _still_open(sock: socket.socket) -> bool:
    """True while the server has neither closed ``sock`` nor answered on it
    (it answers a head it refuses, then closes)."""
    sock.setblocking(False)
    try:
        sock.recv(65536)
        return False
    except BlockingIOError:
        return True
    except OSError:
        return False


def connections_attack(heads_kb: int, sources: int, connections: int = 256) -> int:
    """``connections`` connections from ``sources`` loopback addresses, each
    sending ``heads_kb`` kB of header fields (8,000 bytes each) of a request
    head that never ends, against ``maxima-board serve``; prints its memory
    and whether a newcomer still gets the page."""
    work = Path(tempfile.mkdtemp(prefix="club-attack-connections-"))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join((str(ROOT / "src"), str(ROOT))))
    board = subprocess.Popen([sys.executable, "-m", "maxima_board.cli.main", "serve", "--port", "0", "--bind",
                              "127.0.0.1", "--db", str(work / "games.db")], cwd=ROOT, env=env,
                             stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    port = None
    for _ in range(20):
        m = re.search(r"serve: http://127\.0\.0\.1:(\d+)/", board.stderr.readline())
        if m:
            port = int(m.group(1))
            break
    if port is None:
        print("serve did not start", file=sys.stderr)
        board.kill()
        return 1
    threading.Thread(target=lambda: [None for _ in board.stderr], daemon=True).start()

    def get_page(source: str) -> tuple[int | str, float]:
        began = time.monotonic()
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(source, 0))
        try:
            conn.request("GET", "/")
            response = conn.getresponse()
            response.read()
            return response.status, (time.monotonic() - began) * 1000
        except (OSError, http.client.HTTPException) as exc:
            return type(exc).__name__, (time.monotonic() - began) * 1000
        finally:
            conn.close()
    try:
        time.sleep(1.0)
        get_page("127.0.0.1")
        before = _memory_kb(board.pid)
        socks: list[socket.socket] = []
        refused = 0
        for n in range(connections):
            try:
                s = socket.create_connection(("127.0.0.1", port), 5,
                                             source_address=(f"127.0.10.{n % sources + 1}", 0))
                s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                socks.append(s)
            except OSError:
                refused += 1
        field = b"y" * 7980
        sent = 0
        began = time.monotonic()
        for line in range(heads_kb * 1000 // 8000):
            for s in socks:
                try:
                    s.settimeout(2)
                    s.sendall(b"X-Big-%03d: %s\r\n" % (line, field))
                    sent += 8000
                except OSError:
                    pass
        took = time.monotonic() - began
        time.sleep(1.0)
        after = _memory_kb(board.pid)
        open_now = sum(_still_open(s) for s in socks)
        status, ms = get_page("127.0.11.1")
        print(f"connections: {len(socks)} opened from {sources} addresses ({refused} refused at connect), "
              f"{sent / 1e6:.1f} MB of headers sent in {took:.1f} s, up to {heads_kb} kB on each")
        print(f"  server memory: VmRSS {before['VmRSS'] / 1024:.0f} MB before, {after['VmRSS'] / 1024:.0f} MB after; "
              f"peak (VmHWM) {after['VmHWM'] / 1024:.0f} MB")
        print(f"  connections the server kept open: {open_now} of {len(socks)}; "
              f"another device's GET /: {status} in {ms:.0f} ms")
        for s in socks:
            s.close()
    finally:
        board.terminate()
        try:
            board.wait(15)
        except subprocess.TimeoutExpired:
            board.kill()
    return 0


# -- --attack dashboard: issue 31, findings 3 and 4 ----------------------------------------------------
# python bench/club_attack.py --attack dashboard [--source CHECKOUT]
# A Mosquitto broker of its own and ``maxima-board dashboard`` of CHECKOUT (default: this one; a
# ``git archive`` of an older commit measures it before a change). Prints the time of GET /round/R.pgn
# for a round of 20 games x 120 plies and of 10 games x ~2,000 plies (one board's), then how late
# another table's state reaches /api/tables after one board published 40 records of ~2,000 plies.

def _publish(broker, messages: list[tuple[str, bytes]]) -> None:
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion
    client = mqtt.Client(CallbackAPIVersion.VERSION2)
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    try:
        for topic, payload in messages:
            client.publish(topic, payload, qos=1, retain=True).wait_for_publish(30)
    finally:
        client.disconnect()
        client.loop_stop()


def _get(url: str, timeout: float = 300.0) -> tuple[int, bytes, float]:
    """(status, body, seconds) of one GET."""
    import urllib.error
    import urllib.request
    began = time.monotonic()
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            return r.status, r.read(), time.monotonic() - began
    except urllib.error.HTTPError as exc:
        return exc.code, b"", time.monotonic() - began


def _record(game: int, moves: list[str], round_name: str) -> bytes:
    import json
    return json.dumps({"game": game, "tags": {"Round": round_name, "White": "W", "Black": "B"},
                       "start_fen": Position().fen(), "variant": "maxima", "title": "Maxima",
                       "moves": moves, "result": "*", "reason": None}).encode()


def _round_cost(url: str, name: str, games: int, times: int) -> str:
    deadline = time.monotonic() + 600
    while True:                      # every game in (a fast dashboard replays them while we wait)
        status, body, _ = _get(f"{url}round/{name}.pgn")
        if status == 200 and body.count(b"[Event ") == games:
            break
        if time.monotonic() > deadline:
            return f"round {name}: not all {games} games within 600 s (status {status})"
        time.sleep(0.5)
    seconds = sorted(_get(f"{url}round/{name}.pgn")[2] for _ in range(times))
    return (f"GET /round/{name}.pgn ({games} games, {len(body) // 1024} kB): median {statistics.median(seconds) * 1000:.1f} ms, "
            f"max {seconds[-1] * 1000:.1f} ms over {times} requests")


def dashboard_attack(source: Path) -> int:
    import json
    from bench._club import MOSQUITTO, Broker, start_dashboard
    broker = Broker(MOSQUITTO, Path(tempfile.mkdtemp(prefix="club-attack-dashboard-")))
    broker.start()
    print(f"dashboard of {source}")
    long = long_game(1, 2000)
    try:
        _publish(broker, [(f"maxima-board/rounds/{t}/games/1", _record(1, [m for m, _ in quiet_moves(t, 120)], "R"))
                          for t in range(1, 21)]
                 + [(f"maxima-board/rounds/long/games/{n}", _record(n, long, "L")) for n in range(1, 11)])
        dashboard, url = start_dashboard(broker.address, "rounds", source=source)
        threading.Thread(target=lambda: [None for _ in dashboard.stderr], daemon=True).start()
        try:
            print("  " + _round_cost(url, "R", 20, 5))
            print("  " + _round_cost(url, "L", 10, 3))
        finally:
            dashboard.terminate()
            dashboard.wait(15)
        dashboard, url = start_dashboard(broker.address, "flood", source=source)
        threading.Thread(target=lambda: [None for _ in dashboard.stderr], daemon=True).start()
        try:
            time.sleep(1.0)
            state = json.dumps({"fen": Position().fen(), "turn": "white", "table": "other", "boot": 1, "seq": 1,
                                "variant": "maxima"}).encode()
            began = time.monotonic()
            _publish(broker, [(f"maxima-board/flood/f/games/{n}", _record(n, long, "F")) for n in range(1, 41)])
            flooded = time.monotonic()
            _publish(broker, [("maxima-board/flood/other/state", state)])
            sent = time.monotonic()
            late = None
            while time.monotonic() - sent < 300:
                status, body, _ = _get(f"{url}api/tables")
                if status == 200 and any(t["table"] == "other" for t in json.loads(body)):
                    late = time.monotonic() - sent
                    break
                time.sleep(0.02)
            print(f"  40 records of {len(long)} plies from table f (published in {flooded - began:.2f} s), "
                  f"then table other's state: on /api/tables "
                  + (f"{late:.2f} s after it was published" if late is not None else "not within 300 s"))
        finally:
            dashboard.terminate()
            dashboard.wait(15)
    finally:
        broker.stop()
    load = os.getloadavg()
    print(f"machine: {os.cpu_count()} cores, load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
