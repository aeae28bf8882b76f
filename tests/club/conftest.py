"""Fixtures of the club tests: a real Mosquitto broker on a free loopback
port, headless Chromium driven by Selenium (Debian's chromium and
chromedriver, no downloads), and games to play on simulated boards.

Where the machine has no Mosquitto or no Chromium (``./run-tests`` installs
them when it runs as root on Debian), the tests that need them are skipped
with a message saying what is missing.
"""
from __future__ import annotations

import getpass
import os
import random
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine import Position

CHROMIUM = ("/usr/bin/chromium", "/usr/bin/chromium-browser")
CHROMEDRIVER = ("/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver")
MAXIMA_BOARD = [sys.executable, "-m", "controller.cli"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port: int, timeout: float = 10.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise TimeoutError(f"nothing listens on 127.0.0.1:{port}")


def wait_for(predicate, timeout: float = 15.0, what: str = "condition"):
    """The first true value of ``predicate()``, polled every 50 ms. A page
    element replaced while it was read (the live pages redraw) counts as
    not yet."""
    end = time.monotonic() + timeout
    while True:
        try:
            value = predicate()
        except Exception as exc:
            if type(exc).__name__ != "StaleElementReferenceException":
                raise
            value = None
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def club_broker_files() -> tuple[str, str]:
    """The ACL and the Mosquitto configuration docs/club.md gives a club."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "club.md").read_text(encoding="utf-8")
    blocks = []
    for title in ("`/etc/mosquitto/maxima-board.acl` (club `club`):", "`/etc/mosquitto/conf.d/maxima-board.conf`:"):
        after = text.split(title, 1)[1].split("\n\n", 1)[1]
        block = []
        for line in after.splitlines():
            if line and not line.startswith("    "):
                break
            block.append(line[4:])
        blocks.append("\n".join(block).strip() + "\n")
    return blocks[0], blocks[1]


class Broker:
    """Mosquitto with a generated configuration, on 127.0.0.1:``port``.
    Open (anonymous clients welcome), or ``secure``: the ACL and the
    configuration docs/club.md gives a club, read from it (a password file,
    an ACL that lets a board write only its own table's topics, user name =
    table name, and the dashboard only read, message_size_limit,
    max_connections), with our own listener and no persistence."""

    DASHBOARD = "dashboard"

    def __init__(self, binary: str, directory: Path, secure: bool = False, tables=(), club: str = "round"):
        self.binary = binary
        self.directory = directory
        self.port = free_port()
        self.conf = directory / "mosquitto.conf"
        self.secure = secure
        lines = [f"listener {self.port} 127.0.0.1", "persistence false",
                 f"log_dest file {directory / 'mosquitto.log'}",
                 f"user {getpass.getuser()}"]        # as root, stay root: the files are in our temporary folder
        if secure:
            passwd, acl = directory / "passwd", directory / "acl"
            passwd.write_text("")
            for user in [self.DASHBOARD, *tables]:
                self.add_user(user)
            docs_acl, docs_conf = club_broker_files()
            acl.write_text(docs_acl.replace("maxima-board/club/", f"maxima-board/{club}/"))
            for line in docs_conf.splitlines():
                key = line.split(" ", 1)[0]
                if key in ("listener", "persistence"):
                    continue                                  # ours: loopback, a free port, no files
                lines.append({"password_file": f"password_file {passwd}",
                              "acl_file": f"acl_file {acl}"}.get(key, line))
        else:
            lines.append("allow_anonymous true")
        self.conf.write_text("\n".join(lines) + "\n")
        self.process: subprocess.Popen | None = None

    def add_user(self, user: str) -> None:
        """A user with a random password, kept in ``password_file(user)``."""
        password = f"pw-{user}-{random.randrange(10**9)}"
        self.password_file(user).write_text(password + "\n")
        subprocess.run(["mosquitto_passwd", "-b", str(self.directory / "passwd"), user, password],
                       check=True, capture_output=True)

    def password_file(self, user: str) -> Path:
        return self.directory / f"password-{user}"

    def login(self, user: str) -> list[str]:
        """The command-line options that log ``user`` in."""
        return ["--username", user, "--password-file", str(self.password_file(user))]

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def start(self) -> None:
        self.process = subprocess.Popen([self.binary, "-c", str(self.conf)],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_port(self.port)

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(10)
            self.process = None


def mosquitto_binary() -> str:
    binary = shutil.which("mosquitto") or next((p for p in ("/usr/sbin/mosquitto",) if os.path.exists(p)), None)
    if binary is None or not shutil.which("mosquitto_passwd"):
        pytest.skip("mosquitto is not installed (./run-tests installs it as root: apt-get install mosquitto)")
    return binary


@pytest.fixture(scope="session")
def broker(tmp_path_factory):
    b = Broker(mosquitto_binary(), tmp_path_factory.mktemp("mosquitto"))
    b.start()
    yield b
    b.stop()


SECURE_TABLES = [str(n) for n in range(1, 21)] + ["live", "run"]


@pytest.fixture(scope="session")
def secure_broker(tmp_path_factory):
    """Mosquitto as docs/club.md sets it up for club ``round``: users
    ``dashboard`` (reads) and one per table of SECURE_TABLES (writes its own)."""
    b = Broker(mosquitto_binary(), tmp_path_factory.mktemp("mosquitto-secure"), secure=True,
               tables=SECURE_TABLES, club="round")
    b.start()
    yield b
    b.stop()


@pytest.fixture(scope="session")
def browser():
    chromium = next((p for p in CHROMIUM if os.path.exists(p)), None)
    driver_path = next((p for p in CHROMEDRIVER if os.path.exists(p)), None)
    if chromium is None or driver_path is None:
        pytest.skip("chromium and chromium-driver are not installed "
                    "(./run-tests installs them as root: apt-get install chromium chromium-driver)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=420,900", "--no-first-run", "--disable-extensions"):
        options.add_argument(arg)
    driver = webdriver.Chrome(options=options, service=Service(executable_path=driver_path))
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


def quiet_game(seed: int, plies: int) -> list[str]:
    """A random game of ``plies`` legal moves without captures that does
    not end the game (canonical moves)."""
    rng = random.Random(seed)
    position = Position()
    moves = []
    for _ in range(plies):
        options = [m for m in position.legal_moves if m.kind == "move" and not m.captures]
        rng.shuffle(options)
        for move in options:
            position.push(move)
            if position.outcome() is None:
                moves.append(str(move))
                break
            position.pop()
        else:
            break
    return moves


def script_of(moves: list[str], wait_ms: int = 400) -> str:
    """The board script that plays ``moves`` (no captures)."""
    lines = []
    for move in moves:
        a, b = move.split("-")
        lines += [f"lift {a}", f"place {b}", f"wait {wait_ms}"]
    return "\n".join(lines) + "\n"
