"""Remote play through real Mosquitto on loopback (issue 33): latency, and
a soak with the broker and the boards killed.

    python bench/remote.py [--moves 200] [--soak-moves 60] [--kill-every 3] [--seed 1]
    python bench/remote.py --only latency|soak

Two simulated boards (``maxima-board sim --remote``, each its own process,
tests/club/sim_process.py) play a random game of quiet moves (no capture:
lift, place), White on one board and Black on the other; each board makes
the other's move when its ``remote MOVE`` line comes, then plays its own.
The brokers are set up as docs/remote.md says (tests/club/mosquitto.py
reads its blocks): the club's broker with its ACL and the remote lines,
and for the bridged figures two such brokers, club A's bridged to club B's
over TLS (certificates made by ``openssl`` now; a plain bridge without it).

**Latency**, with one broker and with two bridged: from the moment the
``place`` line of a move is typed into the mover's ``sim`` (the last switch
of the move) to the other board's ``remote MOVE`` line, p50 and p99 over
``--moves`` moves. The mover's settle time (300 ms of real time: the sim
waits for it as a board does) is part of it; the second pair of figures
starts at the mover's ``move N`` line (the move stored) instead.

**Soak** (one broker, no persistence: its retained messages die with it):
every ``--kill-every`` moves, at a random moment (0-5, 0-20 or 0-60 ms) after the move's
``place``, the broker and one board (White's and Black's in turn, whether
mover or not) are killed with SIGKILL and started again. Counts the moves
lost (stored on the mover, never shown on the other board), the moves shown
twice by one board's process, and compares both boards' stored games at the
end (the ``moves`` table, read-only). Expected: 0 lost, 0 doubled, identical.
"""
from __future__ import annotations

import argparse
import random
import re
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "src"))

from bench._club import MOSQUITTO  # noqa: E402
from maxima_board.service import remote_wire as w  # noqa: E402
from tests.club.games import quiet_game  # noqa: E402
from tests.club.mosquitto import Broker, certificates, remote_acl, remote_bridge, remote_tls_listener  # noqa: E402
from tests.club.sim_process import SimProcess  # noqa: E402

NAME = "bench-5d0c27a1f9e84b3c"
MOVE_S = 30.0          # a move not shown on the other board within this is lost
MOVE_LINE = re.compile(r"^remote [a-z]+\d+-[a-z]+\d+$")        # the other side's move shown


def club_broker(folder: Path, *users: str) -> Broker:
    return Broker(MOSQUITTO, folder, secure=True, tables=users, acl_extra=remote_acl())


def pct(values: list[float], q: int) -> float:
    if len(values) < 2:
        return values[0] if values else float("nan")
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


# -- latency ------------------------------------------------------------------------------------------
def latency(folder: Path, moves: list[str], bridged: bool) -> tuple[list[float], list[float]]:
    """(place -> remote, stored -> remote) of each move, in ms."""
    folder.mkdir(parents=True, exist_ok=True)
    if bridged:
        tls = shutil.which("openssl") is not None
        if tls:
            certificates(folder)
        far = club_broker(folder / "b", "12", "club-a")
        if tls:
            far.add_tls_listener(remote_tls_listener(), folder / "broker.crt", folder / "broker.key")
        near = club_broker(folder / "a", "5")
        near.bridge_to(far, remote_bridge(), "club-a", cafile=(folder / "ca.crt") if tls else None)
        brokers, (wb, wu), (bb, bu) = [far, near], (near, "5"), (far, "12")
    else:
        one = club_broker(folder / "one", "5", "12")
        brokers, (wb, wu), (bb, bu) = [one], (one, "5"), (one, "12")
    for b in brokers:
        b.start()
    white = SimProcess(folder / "white.db", wb.address, NAME, "white", *wb.login(wu))
    black = SimProcess(folder / "black.db", bb.address, NAME, "black", *bb.login(bu))
    place_ms, stored_ms = [], []
    try:
        cursor = {id(white): white.wait_for("remote game ")[0], id(black): black.wait_for("remote game ")[0]}
        time.sleep(1.0)                                       # both connected (the bridge too)
        for ply, move in enumerate(moves):
            mover, other = (white, black) if ply % 2 == 0 else (black, white)
            placed = mover.make(move, wait_ms=None)           # the sim waits out the settle time, as a board
            i, stored, _ = mover.wait_for(f"move {ply + 1} {move} ", start=cursor[id(mover)])
            cursor[id(mover)] = i + 1
            j, shown, _ = other.wait_for(f"remote {move}", timeout=MOVE_S, start=cursor[id(other)])
            place_ms.append((shown - placed) * 1000)
            stored_ms.append((shown - stored) * 1000)
            other.make(move)
            k, _, _ = other.wait_for(f"move {ply + 1} {move} ", start=j)
            cursor[id(other)] = k + 1
    finally:
        white.close()
        black.close()
        for b in brokers:
            b.stop()
    return place_ms, stored_ms


# -- soak ---------------------------------------------------------------------------------------------
def stored_moves(db: Path) -> list[str]:
    """The remote game's moves as ``db`` stores them (read-only)."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
    try:
        row = conn.execute("SELECT id FROM games WHERE event = ? ORDER BY id DESC LIMIT 1",
                           (f"Remote game {w.game_id(NAME)}",)).fetchone()
        if row is None:
            return []
        return [m for (m,) in conn.execute("SELECT move FROM moves WHERE game_id = ? ORDER BY ply", (row[0],))]
    finally:
        conn.close()


class Board:
    """One side's board across its restarts: the live process and the dead ones."""

    def __init__(self, folder: Path, broker: Broker, side: str, user: str):
        self.db, self.broker, self.side, self.user = folder / f"{side}.db", broker, side, user
        self.dead: list[SimProcess] = []
        self.sim = self._start()
        self.cursor = 0

    def _start(self) -> SimProcess:
        sim = SimProcess(self.db, self.broker.address, NAME, self.side, *self.broker.login(self.user))
        sim.wait_for("remote game ")
        return sim

    def kill(self) -> None:
        self.sim.kill()
        self.dead.append(self.sim)

    def restart(self) -> None:
        self.sim = self._start()
        self.cursor = 0

    def processes(self) -> list[SimProcess]:
        return self.dead + [self.sim]


def doubled_in(sim: SimProcess) -> int:
    """Moves one process showed twice: the other side's moves (no captures)
    never repeat one after the other, so a line equal to the one before is one."""
    shown = [line for line in sim.texts() if MOVE_LINE.match(line)]
    return sum(a == b for a, b in zip(shown, shown[1:]))


def soak(folder: Path, moves: list[str], kill_every: int, rng: random.Random) -> dict:
    folder.mkdir(parents=True, exist_ok=True)
    broker = club_broker(folder / "broker", "5", "12")
    broker.start()
    boards = {"white": Board(folder, broker, "white", "5"), "black": Board(folder, broker, "black", "12")}
    kills = lost = remade = 0
    played = 0
    victim = "white"
    last_kill = -1
    try:
        ply = 0
        while ply < len(moves):
            move = moves[ply]
            mover, other = (boards["white"], boards["black"]) if ply % 2 == 0 else (boards["black"], boards["white"])
            mover.sim.make(move)
            killed = None
            if ply % kill_every == kill_every - 1 and ply != last_kill:
                last_kill = ply
                time.sleep(rng.uniform(0, rng.choice((0.005, 0.02, 0.06))))   # on its way: stored or not, sent or not
                broker.kill()
                boards[victim].kill()
                killed, victim = victim, ("black" if victim == "white" else "white")
                kills += 1
                time.sleep(0.2)
                broker.start()
                boards[killed].restart()
            if killed == mover.side:
                if len(stored_moves(mover.db)) == ply:      # killed before it stored the move: made again
                    remade += 1
                    continue
            else:
                i, _, _ = mover.sim.wait_for(f"move {ply + 1} {move} ", start=mover.cursor)
                mover.cursor = i + 1
            try:
                j, _, _ = other.sim.wait_for(f"remote {move}", timeout=MOVE_S, start=other.cursor)
            except TimeoutError:
                lost += 1
                print(f"  move {ply + 1} {move} never shown on {other.side}'s board: the soak stops", flush=True)
                break
            other.sim.make(move)
            k, _, _ = other.sim.wait_for(f"move {ply + 1} {move} ", start=j)
            other.cursor = k + 1
            played += 1
            ply += 1
    finally:
        for board in boards.values():
            board.sim.close()
        broker.stop()
    white, black = stored_moves(boards["white"].db), stored_moves(boards["black"].db)
    return {"moves": played, "kills": kills, "remade": remade, "lost": lost,
            "doubled": sum(doubled_in(s) for b in boards.values() for s in b.processes()),
            "identical": white == black and len(white) == played, "stored": (len(white), len(black))}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    p.add_argument("--moves", type=int, default=200, help="moves timed with each set-up (default 200)")
    p.add_argument("--soak-moves", type=int, default=60, help="moves of the soak (default 60)")
    p.add_argument("--kill-every", type=int, default=3, help="the soak kills every N moves (default 3)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--only", choices=("latency", "soak"))
    args = p.parse_args()
    if not Path(MOSQUITTO).exists():
        raise SystemExit("mosquitto is not installed (apt-get install mosquitto)")
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="bench-remote-") as tmp:
        folder = Path(tmp)
        if args.only != "soak":
            moves = quiet_game(args.seed, args.moves)
            for bridged in (False, True):
                what = "two brokers bridged" + (" over TLS" if shutil.which("openssl") else "") if bridged \
                    else "one broker"
                place, stored = latency(folder / ("bridged" if bridged else "one"), moves, bridged)
                print(f"{what}: {len(place)} moves; place -> remote p50 {pct(place, 50):.1f} ms, "
                      f"p99 {pct(place, 99):.1f} ms (max {max(place):.1f}); stored -> remote "
                      f"p50 {pct(stored, 50):.1f} ms, p99 {pct(stored, 99):.1f} ms (max {max(stored):.1f})",
                      flush=True)
        if args.only != "latency":
            result = soak(folder / "soak", quiet_game(args.seed + 1, args.soak_moves), args.kill_every, rng)
            print(f"soak: {result['moves']} moves, {result['kills']} kills of the broker and a board "
                  f"({result['remade']} moves made again: killed before stored); lost {result['lost']}, "
                  f"doubled {result['doubled']}; stored games identical: {'yes' if result['identical'] else 'NO'} "
                  f"({result['stored'][0]} and {result['stored'][1]} moves)", flush=True)
            return 0 if result["identical"] and not result["lost"] and not result["doubled"] else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
