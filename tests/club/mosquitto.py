"""Mosquitto on a free loopback port with a generated configuration: the
club tests' broker (conftest.py) and the club benches' (bench/_club.py).
No pytest here, so that a bench can use it."""
from __future__ import annotations

import getpass
import random
import socket
import subprocess
import time
from pathlib import Path


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


def club_firewall() -> str:
    """The nftables rules docs/club.md puts in front of the club's broker."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "club.md").read_text(encoding="utf-8")
    after = text.split("loaded with `nft -f`):", 1)[1].split("\n\n", 1)[1]
    block = []
    for line in after.splitlines():
        if line and not line.startswith("      "):
            break
        block.append(line[6:])
    return "\n".join(block).strip() + "\n"


class Broker:
    """Mosquitto with a generated configuration, on 127.0.0.1:``port``.
    Open (anonymous clients welcome), or ``secure``: the ACL and the
    configuration docs/club.md gives a club, read from it (a password file,
    an ACL that lets a board write only its own table's topics, user name =
    table name, and the dashboard only read, max_packet_size, queue bounds,
    max_connections), with our own listener and no persistence; and a
    user of the tests' own, ``WATCHER``, that reads everything."""

    DASHBOARD = "dashboard"
    WATCHER = "test-watcher"      # a user of the tests' own (secure): reads everything, writes nothing

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
            for user in [self.DASHBOARD, self.WATCHER, *tables]:
                self.add_user(user)
            docs_acl, docs_conf = club_broker_files()
            acl.write_text(docs_acl.replace("maxima-board/club/", f"maxima-board/{club}/")
                           + f"\n# the tests' own: sees every message kept\nuser {self.WATCHER}\ntopic read maxima-board/#\n")
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
