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


DOCS = Path(__file__).resolve().parents[2] / "docs"


def docs_block(doc: str, title: str, indent: int = 4) -> str:
    """The indented block that follows the line ``title`` in docs/``doc``
    (after one blank line): a configuration the docs give, as the tests run it."""
    text = (DOCS / doc).read_text(encoding="utf-8")
    if title not in text:
        raise KeyError(f"docs/{doc} has no block titled {title!r}")
    after = text.split(title, 1)[1].split("\n\n", 1)[1]
    block = []
    for line in after.splitlines():
        if line and not line.startswith(" " * indent):
            break
        block.append(line[indent:])
    return "\n".join(block).strip() + "\n"


def club_broker_files() -> tuple[str, str]:
    """The ACL and the Mosquitto configuration docs/club.md gives a club."""
    return (docs_block("club.md", "`/etc/mosquitto/maxima-board.acl` (club `club`):"),
            docs_block("club.md", "`/etc/mosquitto/conf.d/maxima-board.conf`:"))


def remote_acl() -> str:
    """The ACL lines docs/remote.md adds for remote games."""
    return docs_block("remote.md", "`/etc/mosquitto/maxima-board.acl`, remote games (after the club's lines):")


def remote_tls_listener() -> str:
    """The TLS listener docs/remote.md gives the broker a bridge connects to."""
    return docs_block("remote.md", "`/etc/mosquitto/conf.d/maxima-board-tls.conf` on club B's broker:")


def remote_bridge() -> str:
    """The bridge docs/remote.md gives club A's broker."""
    return docs_block("remote.md", "`/etc/mosquitto/conf.d/maxima-board-bridge.conf` on club A's broker:")


def internet_broker() -> str:
    """The configuration docs/remote.md gives a broker on the internet."""
    return docs_block("remote.md", "`/etc/mosquitto/conf.d/maxima-board.conf` on a server on the internet:")


def certificates(folder: Path, names=(("broker", "127.0.0.1"), ("board", "tls"))) -> None:
    """With ``openssl``: a CA (``ca.crt``/``ca.key``), a stranger's CA
    (``other-ca.crt``), and for each (name, CN) of ``names`` a certificate
    signed by the CA (``broker``'s for the address 127.0.0.1)."""
    def run(*args: str) -> None:
        subprocess.run(["openssl", *args], cwd=folder, check=True, capture_output=True)

    for ca in ("ca", "other-ca"):
        run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", f"{ca}.key", "-out", f"{ca}.crt",
            "-days", "2", "-subj", f"/CN=maxima-board test {ca}")
    (folder / "san.ext").write_text("subjectAltName=IP:127.0.0.1\n")
    for name, cn in names:
        run("req", "-newkey", "rsa:2048", "-nodes", "-keyout", f"{name}.key", "-out", f"{name}.csr",
            "-subj", f"/CN={cn}")
        run("x509", "-req", "-in", f"{name}.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
            "-out", f"{name}.crt", "-days", "2", *(["-extfile", "san.ext"] if name == "broker" else []))


def club_firewall() -> str:
    """The nftables rules docs/club.md puts in front of the club's broker."""
    text = (DOCS / "club.md").read_text(encoding="utf-8")
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
    user of the tests' own, ``WATCHER``, that reads everything.

    ``acl_extra``: more ACL lines (docs/remote.md's); ``acl``: an ACL
    instead of the club's; ``conf``: a configuration block instead of the
    club's (its listener and persistence are ours, its ``files``' lines, as
    {"certfile": path}, name our files); ``users``: more users than the
    tables. Before :meth:`start`, :meth:`add_tls_listener` adds a second
    listener with TLS and :meth:`bridge_to` a bridge to another broker."""

    DASHBOARD = "dashboard"
    WATCHER = "test-watcher"      # a user of the tests' own (secure): reads everything, writes nothing

    def __init__(self, binary: str, directory: Path, secure: bool = False, tables=(), club: str = "round", *,
                 users=(), acl: str | None = None, acl_extra: str = "", conf: str | None = None,
                 files: dict[str, str] | None = None):
        self.binary = binary
        self.directory = directory
        directory.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.tls_port: int | None = None
        self.conf = directory / "mosquitto.conf"
        self.secure = secure
        lines = [f"listener {self.port} 127.0.0.1", "persistence false",
                 f"log_dest file {directory / 'mosquitto.log'}",
                 f"user {getpass.getuser()}"]        # as root, stay root: the files are in our temporary folder
        if secure:
            passwd, acl_path = directory / "passwd", directory / "acl"
            passwd.write_text("")
            for user in [self.DASHBOARD, self.WATCHER, *tables, *users]:
                self.add_user(user)
            docs_acl, docs_conf = club_broker_files()
            if acl is None:
                acl = docs_acl.replace("maxima-board/club/", f"maxima-board/{club}/")
            acl_path.write_text(acl + ("\n" + acl_extra if acl_extra else "")
                                + f"\n# the tests' own: sees every message kept\nuser {self.WATCHER}\n"
                                  f"topic read maxima-board/#\n")
            ours = {"password_file": f"password_file {passwd}", "acl_file": f"acl_file {acl_path}",
                    **{key: f"{key} {value}" for key, value in (files or {}).items()}}
            for line in (docs_conf if conf is None else conf).splitlines():
                key = line.split(" ", 1)[0]
                if key in ("listener", "persistence"):
                    continue                                  # ours: loopback, a free port, no files
                lines.append(ours.get(key, line))
        else:
            lines.append("allow_anonymous true")
        self._lines = lines
        self._bridge: list[str] = []
        self._write()
        self.process: subprocess.Popen | None = None

    def _write(self) -> None:
        self.conf.write_text("\n".join(self._lines + self._bridge) + "\n")

    def add_tls_listener(self, block: str, cert: Path, key: Path) -> int:
        """A second listener on a free loopback port, as ``block`` (docs:
        ``listener``, ``certfile``, ``keyfile``) says with our certificate
        and key; returns its port."""
        self.tls_port = free_port()
        files = {"listener": f"listener {self.tls_port} 127.0.0.1", "certfile": f"certfile {cert}",
                 "keyfile": f"keyfile {key}"}
        self._lines += [files.get(line.split(" ", 1)[0], line) for line in block.splitlines() if line.strip()]
        self._write()
        return self.tls_port

    def bridge_to(self, other: "Broker", block: str, user: str, cafile: Path | None = None) -> None:
        """The bridge ``block`` (docs: a ``connection``) to ``other``'s TLS
        listener (its plain one without ``cafile``), logged in there as
        ``user`` with its password."""
        port = other.tls_port if cafile is not None else other.port
        ours = {"address": f"address 127.0.0.1:{port}",
                "remote_password": f"remote_password {other.password_file(user).read_text().strip()}"}
        if cafile is not None:
            ours["bridge_cafile"] = f"bridge_cafile {cafile}"
        lines = []
        for line in block.splitlines():
            key = line.split(" ", 1)[0]
            if key == "bridge_cafile" and cafile is None:
                continue
            lines.append(ours.get(key, line))
        self._bridge = lines
        self._write()

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
        if self.tls_port is not None:
            wait_port(self.tls_port)

    def kill(self) -> None:
        """SIGKILL: gone at once, nothing saved (for the benches' soaks)."""
        if self.process is not None:
            self.process.kill()
            self.process.wait(10)
            self.process = None

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(10)
            self.process = None
