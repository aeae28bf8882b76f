"""What an idle ``maxima-board sim`` costs: CPU and wake-ups while nobody
types.

    python bench/sim_idle.py [--tree PATH] [--seconds S] [--terminal]

Starts ``python -m maxima_board.cli.main sim`` from ``--tree`` (default: this
checkout; a ``git archive`` of another commit compares) on a fresh games
database, makes one move (d3-d4), waits 5 s (the move settles, its LEDs go
out after 3 s), then measures for ``S`` seconds with nothing typed: CPU (the
sum of every thread's ``/proc/<pid>/task/*/schedstat`` run time, in % of one
core) and wake-ups per second (every thread's context switches). Input is a
pipe, or with ``--terminal`` a pseudo-terminal (the readline console).
"""
from __future__ import annotations

import argparse
import fcntl
import os
import pty
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE / "src"))

from bench.idle import sample  # noqa: E402


def totals(pid: int) -> tuple[int, int]:
    """(ns on CPU, context switches) summed over every thread of ``pid``."""
    threads = sample(pid).values()
    return sum(t[0] for t in threads), sum(t[1] for t in threads)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", type=Path, default=HERE, help="source tree to run (default: this checkout)")
    parser.add_argument("--seconds", type=float, default=10.0, help="idle window")
    parser.add_argument("--terminal", action="store_true", help="on a pseudo-terminal (the readline console)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="maxima-sim-idle-") as tmp:
        env = dict(os.environ, PYTHONPATH=str(args.tree.resolve() / "src"), TERM="xterm", XDG_STATE_HOME=tmp,
                   PYTHONDONTWRITEBYTECODE="1")
        command = [sys.executable, "-m", "maxima_board.cli.main", "sim", "--db", f"{tmp}/games.db"]
        if args.terminal:
            master, slave = pty.openpty()
            proc = subprocess.Popen(command, stdin=slave, stdout=slave, stderr=slave, cwd=tmp, env=env,
                                    start_new_session=True,
                                    preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0))

            def typed(data: bytes) -> None:
                os.write(master, data.replace(b"\n", b"\r"))
        else:
            proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL, cwd=tmp, env=env)

            def typed(data: bytes) -> None:
                proc.stdin.write(data)
                proc.stdin.flush()
        try:
            time.sleep(2.0)
            typed(b"lift d3\nplace d4\n")
            time.sleep(5.0)
            t0, (ns0, sw0) = time.monotonic(), totals(proc.pid)
            time.sleep(args.seconds)
            t1, (ns1, sw1) = time.monotonic(), totals(proc.pid)
            typed(b"quit\n")
            proc.wait(10)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            if args.terminal:
                os.close(master)
                os.close(slave)
    span = t1 - t0
    print(f"tree {args.tree}; input {'a terminal' if args.terminal else 'a pipe'}; {args.seconds:.0f} s idle: "
          f"CPU {(ns1 - ns0) / 1e9 / span * 100:.3f} % of a core, {(sw1 - sw0) / span:.1f} wake-ups/s; "
          f"load {' '.join(open('/proc/loadavg').read().split()[:3])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
