"""The dashboard under a flood of fake tables (issue 22, finding 6).

    python bench/club_flood.py [--tables 2000] [--big-mb 20] [--source DIR] [--secure]

Starts Mosquitto on a free loopback port and ``maxima-board dashboard`` as
its own process (from ``--source``, a checkout of another version, to
compare; default this one). Then, as an anonymous client, publishes one
retained, well-formed ``state`` for each of ``--tables`` fake tables (a
real board's state after 40 plies, about 2 kB) and one retained message of
``--big-mb`` MB. Prints the dashboard's resident memory (VmRSS, and its peak
VmHWM, from /proc) before and after, the size of ``/api/tables`` and the
CPU time the dashboard took meanwhile.

Open broker (default): what the dashboard itself holds. ``--secure``: the
broker as docs/club.md sets it up (password file, ACL, message_size_limit);
the anonymous flood is refused there.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "src"))

import paho.mqtt.client as mqtt  # noqa: E402
from paho.mqtt.enums import CallbackAPIVersion  # noqa: E402

from bench._club import MOSQUITTO, Broker, quiet_game, start_dashboard  # noqa: E402
from maxima_board.club.topics import table_messages  # noqa: E402
from maxima_board.service.feed import BoardFeed  # noqa: E402
from maxima_board.service.script import Runner  # noqa: E402
from maxima_board.board.settings import Settings  # noqa: E402


def memory_kb(pid: int) -> tuple[int, int]:
    """(VmRSS, VmHWM) of ``pid`` in kB."""
    fields = dict(re.findall(r"^(Vm\w+):\s+(\d+) kB", Path(f"/proc/{pid}/status").read_text(), re.M))
    return int(fields["VmRSS"]), int(fields["VmHWM"])


def cpu_s(pid: int) -> float:
    """User + system CPU seconds of ``pid`` so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def a_state(plies: int) -> dict:
    """A real board's snapshot after ``plies`` quiet moves."""
    runner = Runner(Settings())
    for move in quiet_game(1, plies):
        a, b = move.split("-")
        runner.lift(a), runner.place(b), runner.wait(400)
    return BoardFeed().update(runner.controller)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=2000)
    parser.add_argument("--big-mb", type=int, default=20)
    parser.add_argument("--source", default=str(ROOT), help="the checkout whose dashboard runs")
    parser.add_argument("--secure", action="store_true", help="the broker as docs/club.md sets it up")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="club-flood-"))
    # --secure: users and ACL as docs/club.md gives them (read from it), for club "flood"
    broker = Broker(MOSQUITTO, work, secure=args.secure, club="flood")
    login = broker.login(Broker.DASHBOARD) if args.secure else []
    port = broker.port
    dashboard = None
    try:
        broker.start()
        dashboard, url = start_dashboard(broker.address, "flood", *login, source=args.source,
                                         stdout=subprocess.DEVNULL)
        time.sleep(2.0)
        before, cpu_before = memory_kb(dashboard.pid), cpu_s(dashboard.pid)
        snapshot = a_state(40)
        refused = None
        client = mqtt.Client(CallbackAPIVersion.VERSION2)
        client.on_connect = lambda c, u, f, rc, p: None
        client.connect("127.0.0.1", port)
        client.loop_start()
        time.sleep(0.5)
        sent = state_size = 0
        for n in range(args.tables):
            for topic, payload in table_messages("flood", f"fake{n}", snapshot, 1).items():
                if topic.endswith("/state"):
                    info = client.publish(topic, payload, qos=1, retain=True)
                    sent, state_size = sent + len(payload), len(payload)
        info.wait_for_publish(60) if client.is_connected() else None
        big = client.publish("maxima-board/flood/big/state", b"[" + b"1," * (args.big_mb << 19) + b"1]",
                             qos=1, retain=True)
        if client.is_connected():
            try:
                big.wait_for_publish(60)
            except (RuntimeError, ValueError) as exc:
                refused = str(exc)
        else:
            refused = "not connected (refused)"
        client.disconnect()
        client.loop_stop()
        last, settled = -1, 0
        for _ in range(120):              # until /api/tables stops growing for 2 s
            time.sleep(0.5)
            with urllib.request.urlopen(url + "api/tables", timeout=30) as r:
                body = r.read()
            count = len(json.loads(body))
            settled = settled + 1 if count == last else 0
            last = count
            if settled >= 4:
                break
        after, cpu = memory_kb(dashboard.pid), cpu_s(dashboard.pid) - cpu_before
        print(f"club_flood: source {args.source}, broker {'secure' if args.secure else 'open'}")
        print(f"  flood: {args.tables} fake tables x {state_size} B states ({sent / 1e6:.1f} MB) "
              f"+ one {args.big_mb} MB retained message{'; ' + refused if refused else ''}")
        print(f"  dashboard RSS before {before[0] / 1024:.1f} MB, after {after[0] / 1024:.1f} MB "
              f"(peak {after[1] / 1024:.1f} MB)")
        print(f"  /api/tables: {last} tables, {len(body) / 1e6:.2f} MB; dashboard CPU for the flood "
              f"(and the polls) {cpu:.1f} s")
    finally:
        if dashboard is not None:
            dashboard.terminate()
            dashboard.wait(10)
        broker.stop()
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
