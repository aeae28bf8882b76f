"""The club's broker behind the firewall docs/club.md gives it, in a network
namespace of its own (run as ``unshare -n python -m tests.club.firewall_run
MOSQUITTO DIR``; test_club_broker.py does): loopback up, the nftables rules
loaded for the broker's port, Mosquitto as docs/club.md sets it up. Then an
attacker's idle connections from 127.0.0.2, a real board's log-in from
127.0.0.3, and quick reconnects (password guesses) from 127.0.0.4. Prints
one JSON line of what happened; no pytest here."""
from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from .mosquitto import Broker, club_firewall


def connect_from(source: str, port: int, timeout: float = 2.0) -> socket.socket | None:
    """A TCP connection from ``source``, or None when it is refused (or not answered in ``timeout``)."""
    sock = socket.socket()
    sock.settimeout(timeout)
    sock.bind((source, 0))
    try:
        sock.connect(("127.0.0.1", port))
    except OSError:
        sock.close()
        return None
    return sock


def log_in(broker: Broker, user: str, source: str, password: str | None = None) -> str:
    """What the broker answers ``user`` logging in from ``source``."""
    done, said = threading.Event(), []
    client = mqtt.Client(CallbackAPIVersion.VERSION2)
    client.username_pw_set(user, password or broker.password_file(user).read_text().strip())
    client.on_connect = lambda c, u, f, rc, p: (said.append(str(rc)), done.set())
    try:
        client.connect("127.0.0.1", broker.port, bind_address=source)
    except OSError as exc:
        return f"refused: {type(exc).__name__}"
    client.loop_start()
    try:
        return said[0] if done.wait(5) else "no answer"
    finally:
        client.disconnect()
        client.loop_stop()


def main() -> int:
    binary, directory = sys.argv[1], Path(sys.argv[2])
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
    broker = Broker(binary, directory, secure=True, tables=["1"], club="club")
    rules = club_firewall().replace("{ 1883, 8883 }", str(broker.port))
    (directory / "club.nft").write_text(rules)
    subprocess.run(["nft", "-f", str(directory / "club.nft")], check=True)
    broker.start()
    try:
        idle = [connect_from("127.0.0.2", broker.port) for _ in range(10)]
        held = [s for s in idle if s is not None]
        time.sleep(0.5)
        board = log_in(broker, "1", "127.0.0.3")
        wrong = log_in(broker, "1", "127.0.0.4", password="a guess")
        opened = 1
        began = time.monotonic()
        for _ in range(40):                     # more guesses: each a new connection
            sock = connect_from("127.0.0.4", broker.port, timeout=0.3)
            if sock is not None:
                opened += 1
                sock.close()
        for sock in held:
            sock.close()
        print(json.dumps({"idle_held": len(held), "board": board, "wrong_password": wrong,
                          "guess_connections": opened, "tried": 41,
                          "seconds": round(time.monotonic() - began, 1)}))
    finally:
        broker.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
