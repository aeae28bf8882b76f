"""CPU of the board's web page server at one page refresh per second.

    python bench/web_cpu.py [--seconds 30] [--client browser|http]

Runs ``maxima-board serve`` (the simulated board with its web page) as its
own process, with a move typed on its board every 3 s throughout. The
process's CPU time (utime + stime from /proc) is measured over ``--seconds``
twice: with no page open, then with the page reloaded once per second — by
headless Chromium (Debian's, via Selenium) when it is installed, else by a
plain HTTP client fetching what the page fetches (the page, its CSS and
scripts, the game list, the variants, and one second of the event stream).
Prints both, and their difference as a share of one core and of this
machine (all cores).

Target (issue 12): the web server adds < 5% CPU of this machine.
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "src"))

from maxima_board.rules import Position  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def moves() -> list[str]:
    position, out = Position(), []
    for _ in range(200):
        options = [m for m in position.legal_moves if not m.captures and m.to_square is not None]
        for move in options[len(out) % 7:] + options:
            position.push(move)
            if position.outcome() is None:
                out.append(str(move))
                break
            position.pop()
    return out


class Refresher:
    def __init__(self, url: str, kind: str):
        self.url, self.kind, self.driver = url, kind, None
        if kind == "browser":
            from selenium import webdriver
            from selenium.webdriver.chrome.service import Service

            options = webdriver.ChromeOptions()
            options.binary_location = "/usr/bin/chromium"
            for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
                options.add_argument(arg)
            self.driver = webdriver.Chrome(options=options, service=Service(executable_path="/usr/bin/chromedriver"))

    def refresh(self) -> None:
        if self.driver is not None:
            self.driver.get(self.url)
            return
        for path in ("", "static/style.css", "static/common.js", "static/board.js", "api/variants", "api/games"):
            with urllib.request.urlopen(self.url + path, timeout=10) as r:
                r.read()
        with urllib.request.urlopen(self.url + "events", timeout=10) as r:
            r.readline()

    def close(self) -> None:
        if self.driver is not None:
            self.driver.quit()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--client", choices=("browser", "http"),
                        default="browser" if os.path.exists("/usr/bin/chromedriver") else "http")
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="web-cpu-")
    serve = subprocess.Popen([sys.executable, "-m", "maxima_board.cli.main", "serve", "--port", "0", "--bind", "127.0.0.1",
                              "--db", os.path.join(work, "games.db")], cwd=ROOT, text=True,
                             stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = re.search(r"(http://\S+/)", serve.stderr.readline() + serve.stderr.readline()).group(1)
    stop = threading.Event()

    def play() -> None:
        for move in moves():
            a, b = move.split("-")
            serve.stdin.write(f"lift {a}\nplace {b}\nwait 400\n")
            serve.stdin.flush()
            if stop.wait(3.0):
                return

    player = threading.Thread(target=play, daemon=True)
    player.start()
    time.sleep(2.0)
    refresher = Refresher(url, args.client)

    def measure(refresh: bool) -> float:
        start_cpu, start = cpu_seconds(serve.pid), time.monotonic()
        next_at = start
        while time.monotonic() - start < args.seconds:
            if refresh:
                refresher.refresh()
            next_at += 1.0
            time.sleep(max(0.0, next_at - time.monotonic()))
        return (cpu_seconds(serve.pid) - start_cpu) / (time.monotonic() - start)

    idle = measure(False)
    busy = measure(True)
    stop.set()
    refresher.close()
    serve.terminate()
    serve.wait(10)
    cores = os.cpu_count() or 1
    added = busy - idle
    print(f"maxima-board serve process, {args.seconds:.0f} s each, a move every 3 s, client: {args.client}")
    print(f"no page open:           {idle * 100:.2f}% of one core")
    print(f"page reloaded every 1 s: {busy * 100:.2f}% of one core")
    print(f"added by the web page:  {added * 100:.2f}% of one core = {added * 100 / cores:.2f}% of this machine "
          f"({cores} cores)  (target < 5%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
