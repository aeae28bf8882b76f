"""What an idle board costs: CPU, wake-ups, start-up time and move latency
of the real ``maxima-board run`` process, for both topologies.

    python bench/idle.py [--tree PATH] [--topology pico|direct|both] [--runs N]
                         [--seconds S] [--no-web] [--opponent SIDE] [--broadcast]
                         [--settle-us N] [--threads] [--unplugged]

Each run starts ``python -m maxima_board.cli.main run`` from ``--tree`` (default:
this checkout; give a copy of another commit, e.g. ``git archive main``, to
compare) with a config in a temporary folder: the web page on 127.0.0.1
(unless ``--no-web``), the computer opponent on ``--opponent`` (default
black: it is White's move, the engine is not asked), the OLED on luma's
dummy device, a fresh games database (with ``--broadcast``: publishing to a
Mosquitto started on loopback), and ``NOTIFY_SOCKET`` set to a unix
datagram socket this script reads (``WATCHDOG_USEC`` = 10 s, as the unit's
``WatchdogSec``), so:

- start-up: from starting the process to its ``READY=1``;
- move latency: the start position is on the board; White's first move
  starts the game: d3 lifted, d5 placed 400 ms later, and the time from the
  placement to ``STATUS=Black to move`` (the status bar changes in the pass
  that commits the move). The target is the settle time (300 ms) + 50 ms;
- then the computer (Black by default) answers and its move is shown; 5 s
  after the commit, for ``S`` seconds with no event at all: CPU (the sum of
  every thread's ``/proc/<pid>/task/*/schedstat`` run time, in % of one
  core) and wake-ups per second (every thread's voluntary + involuntary
  context switches, ``/proc/<pid>/task/*/status``), each thread listed with
  the system call it sleeps in (and its timeout, when it polls).

Topologies: ``pico`` — a simulated Pico (maxima_board.devices.pico_sim: the firmware's
own logic) on a pty, run in this script's process, not the measured one;
``direct`` — the gpiozero matrix scanner on MockFactory pins wired to a
simulated reed matrix (maxima_board.devices.mock_matrix) inside the board process, LEDs
on luma's no-op MAX7219, rows settling ``--settle-us`` (the product's 10 µs,
a busy wait: 100 µs a scan). The machine's load average is printed with every
run: other work on the machine shows in the figures.

``--unplugged`` (pico only): the configured device does not exist (a path
in the run's temporary folder), so the board waits for a Pico to be plugged
in; no move is made (no move latency), the idle window starts 3 s after
``READY=1`` (the link is reported lost after 1 s).
"""
from __future__ import annotations

import argparse
import os
import select
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE / "src"))

from maxima_board.rules import Position  # noqa: E402
from maxima_board.devices.matrix_map import MatrixMap  # noqa: E402

SYSCALLS = {"0": "read", "7": "poll", "23": "select", "202": "futex", "232": "epoll_wait",
            "271": "ppoll", "281": "epoll_pwait", "35": "nanosleep", "230": "clock_nanosleep",
            "270": "pselect6", "441": "epoll_pwait2", "61": "wait4", "247": "waitid"}

# The direct topology's board process: the reed matrix and its pins are
# installed before ``run`` builds the scanner (choose_pin_factory keeps a
# factory already set); lines on stdin ("d3 0", "d5 1") open and close switches.
DIRECT_DRIVER = r"""
import sys, threading
from gpiozero import Device
from maxima_board.cli.config import DEFAULT_COLUMNS, DEFAULT_ROWS
from maxima_board.devices.mock_matrix import ReedMatrix, matrix_factory
matrix = ReedMatrix(DEFAULT_ROWS, DEFAULT_COLUMNS)
matrix.set_squares(sys.argv[1].split(","))
Device.pin_factory = matrix_factory(matrix)
def control():
    for line in sys.stdin:
        name, closed = line.split()
        matrix.set_name(name, closed == "1")
threading.Thread(target=control, daemon=True).start()
from maxima_board.cli.main import main
sys.exit(main(sys.argv[2:]))
"""


def start_squares() -> list[str]:
    position = Position()
    names = position.geometry.names
    occ = position.occupancy()
    return [names[i] for i in range(len(names)) if occ >> i & 1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class NotifyListener:
    """The NOTIFY_SOCKET end: every datagram with its arrival time."""

    def __init__(self, path: str):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(path)
        self.messages: list[tuple[float, str]] = []
        self._cond = threading.Condition()
        self._thread = threading.Thread(target=self._listen, daemon=True)
        self._thread.start()

    def _listen(self) -> None:
        while True:
            try:
                data = self.sock.recv(4096)
            except OSError:
                return
            with self._cond:
                self.messages.append((time.monotonic(), data.decode("utf-8", "replace")))
                self._cond.notify_all()

    def wait(self, predicate, timeout: float, after: float = 0.0) -> float | None:
        """The arrival time of the first message after ``after`` for which
        ``predicate(text)`` holds."""
        end = time.monotonic() + timeout
        with self._cond:
            while True:
                for at, text in self.messages:
                    if at >= after and predicate(text):
                        return at
                left = end - time.monotonic()
                if left <= 0:
                    return None
                self._cond.wait(left)

    def close(self) -> None:
        self.sock.close()


def status_is(prefix: str):
    return lambda text: any(line.startswith("STATUS=" + prefix) for line in text.splitlines())


def sample(pid: int) -> dict[int, tuple[int, int, str]]:
    """tid -> (ns on CPU, context switches, system call it is in)."""
    out = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        base = f"/proc/{pid}/task/{tid}"
        try:
            ns = int(open(f"{base}/schedstat").read().split()[0])
            switches = 0
            for line in open(f"{base}/status"):
                if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                    switches += int(line.split()[1])
            call = open(f"{base}/syscall").read().split()
            name = SYSCALLS.get(call[0], call[0]) if call else "?"
            at = {"7": 3, "232": 4, "281": 4}.get(call[0]) if call else None   # poll's 3rd argument, epoll's 4th
            if at is not None and len(call) > at:
                timeout = int(call[at], 16)
                name += f"(timeout {'none' if timeout >= 2**31 else str(timeout) + ' ms'})"
        except (OSError, IndexError, ValueError):
            continue
        out[int(tid)] = (ns, switches, name)
    return out


def start_broker(folder: Path) -> tuple[subprocess.Popen, int]:
    """A Mosquitto on a free loopback port (anonymous, as on a bench)."""
    port = free_port()
    conf = folder / "mosquitto.conf"
    conf.write_text(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\n")
    proc = subprocess.Popen(["mosquitto", "-c", str(conf)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    end = time.monotonic() + 10
    while time.monotonic() < end:
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return proc, port
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise RuntimeError("mosquitto did not start")


def write_config(folder: Path, topology: str, device: str | None, web: bool, opponent: str,
                 engine: str, broker: int | None = None, settle_us: int = 10) -> Path:
    lines = [f'hardware = "{topology}"', ""]
    if topology == "pico":
        lines += ["[pico]", f'device = "{device}"', ""]
    else:
        lines += ["[matrix]", 'pin_factory = "mock"', f"row_settle_us = {settle_us}", "",
                  "[leds]", 'driver = "max7219"', 'interface = "noop"', ""]
    lines += ["[oled]", 'driver = "dummy"', "", "[database]", f'path = "{folder / "games.db"}"', ""]
    if web:
        lines += ["[web]", "enabled = true", f"port = {free_port()}", 'bind = "127.0.0.1"', ""]
    if broker is not None:
        lines += ["[broadcast]", f'broker = "127.0.0.1:{broker}"', 'club = "bench"', 'table = "1"', ""]
    lines += ["[opponent]", f'side = "{opponent}"', f'engine = "{engine}"', ""]
    path = folder / "board.toml"
    path.write_text("\n".join(lines))
    return path


def one_run(tree: Path, topology: str, seconds: float, web: bool, opponent: str, engine: str,
            broadcast: bool = False, settle_us: int = 10, unplugged: bool = False) -> dict:
    squares = start_squares()
    sim = None
    result: dict = {"load_before": open("/proc/loadavg").read().split()[:3]}
    with tempfile.TemporaryDirectory(prefix="maxima-idle-") as tmp:
        folder = Path(tmp)
        if topology == "pico" and not unplugged:
            from maxima_board.devices.pico_sim import SimPico

            sim = SimPico()
            m = MatrixMap()
            closed = {m.position_of[s] for s in squares}
            sim.matrix.set(closed)
            sim.start()
        broker = start_broker(folder) if broadcast else None
        device = sim.path if sim else str(folder / "no-pico-here" / "maxima-pico")
        config = write_config(folder, topology, device, web, opponent, engine,
                              broker[1] if broker else None, settle_us)
        notify = NotifyListener(str(folder / "notify"))
        env = dict(os.environ, PYTHONPATH=str(tree / "src"), NOTIFY_SOCKET=str(folder / "notify"),
                   WATCHDOG_USEC="10000000", MAXIMA_BOARD_DB=str(folder / "games.db"),
                   PYTHONDONTWRITEBYTECODE="1")
        env.pop("WATCHDOG_PID", None)
        if topology == "pico":
            args = [sys.executable, "-m", "maxima_board.cli.main", "run", "--config", str(config)]
        else:
            args = [sys.executable, "-c", DIRECT_DRIVER, ",".join(squares), "run", "--config", str(config)]
        started = time.monotonic()
        proc = subprocess.Popen(args, cwd=folder, env=env, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                stderr=open(folder / "stderr", "w"), text=True)
        try:
            ready = notify.wait(lambda t: "READY=1" in t.splitlines(), 30)
            if ready is None:
                raise RuntimeError(f"no READY=1 within 30 s: {(folder / 'stderr').read_text()[-500:]}")
            result["startup_s"] = ready - started
            if unplugged:                     # no Pico: nothing to move; the link is reported lost after 1 s
                result["move_ms"] = None
                time.sleep(3.0)
            else:
                result["move_ms"] = make_first_move(proc, sim, notify, folder)
            t0, a = time.monotonic(), sample(proc.pid)
            time.sleep(seconds)
            t1, b = time.monotonic(), sample(proc.pid)
            span = t1 - t0
            threads = []
            for tid, (ns, sw, call) in sorted(b.items()):
                ns0, sw0, _ = a.get(tid, (0, 0, ""))
                threads.append((tid, (ns - ns0) / 1e9 / span * 100, (sw - sw0) / span, call))
            result["cpu_pct"] = sum(t[1] for t in threads)
            result["wakeups_s"] = sum(t[2] for t in threads)
            result["threads"] = [(("main" if tid == proc.pid else str(tid)), cpu, w, call)
                                 for tid, cpu, w, call in threads]
            result["load_after"] = open("/proc/loadavg").read().split()[:3]
            result["status"] = [t for _, t in notify.messages if t.startswith("STATUS=")][-1:]
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            notify.close()
            if sim is not None:
                sim.close()
            if broker is not None:
                broker[0].terminate()
                broker[0].wait(10)
    return result


def make_first_move(proc: subprocess.Popen, sim, notify: "NotifyListener", folder: Path) -> float:
    """White's first move on the board; the ms from its placement to the
    commit. Returns once the board waits for the player again."""
    time.sleep(2.0)                   # the link comes up, the set-up is seen

    def act(name: str, closed: bool) -> None:
        if sim is not None:
            pos = MatrixMap().position_of[name]
            current = set(sim.matrix.closed)
            sim.matrix.set(current | {pos} if closed else current - {pos})
        else:
            proc.stdin.write(f"{name} {int(closed)}\n")
            proc.stdin.flush()

    # White's first move starts the game: d3 lifted, d5 placed 400 ms later
    act("d3", False)
    time.sleep(0.4)
    placed = time.monotonic()
    act("d5", True)
    committed = notify.wait(status_is("Black to move"), 10, after=placed)
    if committed is None:
        raise RuntimeError(f"the move was not committed: {notify.messages[-4:]} "
                           + (folder / "stderr").read_text()[-500:])
    move_ms = (committed - placed) * 1000
    # the computer answers and shows its move; the last move's LEDs go out
    # after 3 s: from then on the board waits for the player, with no event
    time.sleep(5.0)
    return move_ms


def snapshot_figures(plies: tuple[int, ...] = (0, 40, 200), repeat: int = 200) -> list[tuple[int, float, float]]:
    """(plies, µs of ``BoardFeed.update`` after one more move, µs of a
    snapshot of an unchanged game): what the loop pays per change for the
    web page and the broadcast."""
    import random

    from maxima_board.board.core import Controller
    from maxima_board.service.feed import BoardFeed
    from maxima_board.board.settings import Settings
    from maxima_board.storage.store import GameStore

    out = []
    for n in plies:
        controller = Controller(Settings(), GameStore(":memory:"), fen="start", now_ms=0)
        rnd = random.Random(n)
        position = controller.position
        for _ in range(n):
            legal = sorted((m for m in position.legal_moves if m.kind != "suicide"), key=str)
            if not legal:
                break
            position.push(rnd.choice(legal))
        feed = BoardFeed()
        feed.update(controller)
        started = time.process_time()
        for _ in range(repeat):
            feed.update(controller)
        same = (time.process_time() - started) / repeat * 1e6
        full = feed.latest
        shorter = dict(full, moves=full["moves"][:-1], sans=full["sans"][:-1])
        spent = 0.0
        for _ in range(repeat):      # the snapshot before holds one move less: labels one move
            feed._latest = shorter
            started = time.process_time()
            feed.update(controller)
            spent += time.process_time() - started
        one_more = spent / repeat * 1e6
        out.append((len(position.move_stack), one_more, same))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", type=Path, default=HERE, help="source tree to run (default: this checkout)")
    parser.add_argument("--topology", choices=("pico", "direct", "both"), default="both")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=20.0, help="idle window per run")
    parser.add_argument("--no-web", action="store_true", help="without the web page")
    parser.add_argument("--opponent", default="black", choices=("white", "black", "none"))
    parser.add_argument("--engine", default=str(HERE / "engine" / "maxima-engine"),
                        help="the opponent's engine (default: this checkout's built engine, for every tree)")
    parser.add_argument("--broadcast", action="store_true",
                        help="with the broadcast to a Mosquitto started on loopback (needs mosquitto)")
    parser.add_argument("--settle-us", type=int, default=10,
                        help="direct: the row settle wait, busy (default 10 µs, the product's)")
    parser.add_argument("--threads", action="store_true", help="list every thread of every run")
    parser.add_argument("--unplugged", action="store_true",
                        help="pico: the configured device does not exist (the board waits for it); no move")
    args = parser.parse_args()
    topologies = ("pico", "direct") if args.topology == "both" else (args.topology,)
    if args.unplugged:
        if args.topology == "direct":
            parser.error("--unplugged is for the pico topology")
        topologies = ("pico",)
    print(f"tree {args.tree}; web page {'off' if args.no_web else 'on'}; opponent {args.opponent}; "
          f"broadcast {'on' if args.broadcast else 'off'}; {'Pico unplugged; ' if args.unplugged else ''}"
          f"{args.runs} runs x {args.seconds:.0f} s idle; {os.cpu_count()} cores")
    for topology in topologies:
        runs = []
        for n in range(args.runs):
            r = one_run(args.tree.resolve(), topology, args.seconds, not args.no_web, args.opponent, args.engine,
                        args.broadcast, args.settle_us, args.unplugged)
            runs.append(r)
            move = "-" if r["move_ms"] is None else f"{r['move_ms']:.0f} ms"
            print(f"{topology:6} run {n + 1}: CPU {r['cpu_pct']:.2f} % of a core, {r['wakeups_s']:.1f} wake-ups/s, "
                  f"start-up to READY=1 {r['startup_s']:.2f} s, move placed -> committed {move}; "
                  f"load {' '.join(r['load_before'])} -> {' '.join(r['load_after'])}")
            if args.threads or n == 0:
                for name, cpu, wakes, call in sorted(r["threads"], key=lambda t: -t[2]):
                    print(f"           thread {name:>8}: {cpu:5.2f} %  {wakes:6.1f} wake-ups/s  sleeps in {call}")
                print(f"           status bar: {r['status']}")
        cpu = [r["cpu_pct"] for r in runs]
        wakes = [r["wakeups_s"] for r in runs]
        moves = [r["move_ms"] for r in runs if r["move_ms"] is not None]
        print(f"{topology:6} median: CPU {statistics.median(cpu):.2f} % (min {min(cpu):.2f}), "
              f"{statistics.median(wakes):.1f} wake-ups/s (min {min(wakes):.1f}), start-up "
              f"{statistics.median(r['startup_s'] for r in runs):.2f} s, move latency "
              f"{'-' if not moves else f'{statistics.median(moves):.0f} ms (max {max(moves):.0f})'}")
    for plies, one_more, same in snapshot_figures():
        print(f"snapshot (BoardFeed.update) at {plies:3} plies: {one_more:6.0f} µs after a move, "
              f"{same:6.0f} µs for an unchanged game (CPU time, this process)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
