"""The broker set-ups of docs/remote.md, run on loopback with real
Mosquitto and two simulated boards (``maxima-board sim --remote``), each its
own process. The ACL and configuration blocks are read out of the docs
(tests/club/mosquitto.py), so what the docs say is what runs here:

(a) one club's broker, the club's ACL and the remote lines: two boards play,
    a third member's board writes into the game (refused by the board: not
    signed, bad signature; an old genuine message changes nothing) and the
    game goes on; the dashboard, a topic beside the sides' and anonymous
    clients are kept out by the broker;
(b) two clubs' brokers bridged over TLS (certificates made by openssl now):
    a board on each; only the remote tree crosses;
(c) one broker on the internet: TLS and passwords only.
"""
from __future__ import annotations

import re
import shutil
import threading

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from maxima_board.rules import Position
from maxima_board.service import remote_wire as w

from .conftest import mosquitto_binary, wait_for
from .games import quiet_game
from .mosquitto import (Broker, certificates, internet_broker, remote_acl, remote_bridge, remote_tls_listener)
from .sim_process import SimProcess

NAME = "test-0f3a9c51e27d4b86a1c5"       # the game's name: its secret
TOPIC = f"maxima-board/remote/{w.game_id(NAME)}"


class Client:
    """A raw paho client logged in as ``user`` (None: anonymous) at ``port``:
    publishes and waits for the broker's ack; keeps what it reads."""

    def __init__(self, broker: Broker, user: str | None, port: int | None = None):
        self.connected = threading.Event()
        self.result: str | None = None
        self.messages: list[tuple[str, bytes]] = []
        self.retained: list[str] = []        # the topics of the retained messages read
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
        if user is not None:
            self.client.username_pw_set(user, broker.password_file(user).read_text().strip())
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        self.client.connect("127.0.0.1", port or broker.port)
        self.client.loop_start()

    def _on_connect(self, client, userdata, flags, reason_code, properties):
        self.result = str(reason_code)
        self.connected.set()

    def _on_message(self, client, userdata, message):
        self.messages.append((message.topic, bytes(message.payload)))
        if message.retain:
            self.retained.append(message.topic)

    def accepted(self) -> bool:
        assert self.connected.wait(10), "the broker did not answer"
        return self.result == "Success"

    def subscribe(self, topic: str) -> None:
        self.client.subscribe(topic, qos=1)

    def publish(self, topic: str, payload: bytes) -> None:
        self.client.publish(topic, payload, qos=1, retain=True).wait_for_publish(10)

    def topics(self) -> list[str]:
        return [t for t, _ in list(self.messages)]

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def play(white: SimProcess, black: SimProcess, moves: list[str], first: int = 0) -> None:
    """Plies ``first`` on of ``moves``, in turn: the mover makes its move, the
    other board prints ``remote MOVE`` and makes it too."""
    for ply in range(first, len(moves)):
        move = moves[ply]
        mover, other = (white, black) if ply % 2 == 0 else (black, white)
        mover.make(move)
        mover.wait_for(f"move {ply + 1} {move} ")
        other.wait_for(f"remote {move}")
        other.make(move)
        other.wait_for(f"move {ply + 1} {move} ")


def boards(tmp_path, white_broker: str, black_broker: str, white_login: list[str], black_login: list[str]):
    white = SimProcess(tmp_path / "white.db", white_broker, NAME, "white", *white_login)
    black = SimProcess(tmp_path / "black.db", black_broker, NAME, "black", *black_login)
    return white, black


def stop(*sims: SimProcess) -> None:
    for sim in sims:
        sim.close()


def need_openssl() -> None:
    if not shutil.which("openssl"):
        pytest.skip("openssl is not installed")


# -- (a) one club ---------------------------------------------------------------------------
def forged(moves: list[str], key: bytes, seq: int) -> bytes:
    """Black's message with ``moves`` (the game so far and one more), signed with ``key``."""
    position = Position()
    entries = [w.Entry(m) for m in moves]
    return w.encode(w.State("black", 1, seq, "maxima", position.fen(), None, len(moves), len(moves), 0, entries),
                    key)


def test_club_broker_acl_keeps_a_game_its_players_own(tmp_path):
    b = Broker(mosquitto_binary(), tmp_path / "broker", secure=True, tables=["5", "7", "9"], club="round",
               acl_extra=remote_acl())
    b.start()
    moves = quiet_game(5, 6)
    white, black = boards(tmp_path, b.address, b.address, b.login("5"), b.login("7"))
    watcher, member, dashboard = Client(b, b.WATCHER), Client(b, "9"), Client(b, b.DASHBOARD)
    try:
        assert watcher.accepted() and member.accepted() and dashboard.accepted()
        watcher.subscribe("maxima-board/#")
        white.wait_for("remote game ")
        play(white, black, moves[:3])
        genuine = wait_for(lambda: [p for t, p in watcher.messages if t == f"{TOPIC}/black"],
                           what="black's message")[-1]

        # the broker keeps out the dashboard, a topic beside the sides' and anonymous clients
        mark = len(watcher.messages)
        dashboards = forged(moves[:4], w.game_key(NAME), 99)
        dashboard.publish(f"{TOPIC}/black", dashboards)
        member.publish(f"{TOPIC}/grey", b"x")
        member.publish(TOPIC, b"x")
        member.publish(f"{TOPIC}/black/more", b"x")
        member.publish("maxima-board/remote/sentinel/white", b"sentinel")      # allowed: the ACL's own
        wait_for(lambda: "maxima-board/remote/sentinel/white" in watcher.topics()[mark:], what="the sentinel")
        seen = watcher.messages[mark:]
        assert (f"{TOPIC}/black", dashboards) not in seen
        assert {t for t, _ in seen} <= {f"{TOPIC}/white", f"{TOPIC}/black", "maxima-board/remote/sentinel/white"}
        anonymous = Client(b, None)
        try:
            assert not anonymous.accepted()
        finally:
            anonymous.close()

        # another member's board may write into the game: the board refuses it, the game goes on
        start = len(white.lines)
        member.publish(f"{TOPIC}/black", forged(moves[:4], b"", 99).rpartition(b"\n")[0])      # unsigned
        white.wait_for("error remote: refused a message: not signed", start=start)
        member.publish(f"{TOPIC}/black", forged(moves[:4], w.game_key("another-game-name"), 99))
        white.wait_for("error remote: refused a message: bad signature", start=start)
        member.publish(f"{TOPIC}/black", genuine)          # an old genuine message: nothing new
        play(white, black, moves, first=3)
        said = white.texts(start)
        arrived = [line for line in said if re.match(r"remote [a-z]+\d+-", line)]
        assert arrived == [f"remote {moves[3]}", f"remote {moves[5]}"], said
        assert sum(line.startswith("error remote") for line in said) == 2, said
    finally:
        stop(white, black)
        for client in (watcher, member, dashboard):
            client.close()
        b.stop()


# -- (b) two clubs, bridged -------------------------------------------------------------------
def test_two_clubs_play_through_a_bridge_over_tls(tmp_path):
    need_openssl()
    certificates(tmp_path)
    club_b = Broker(mosquitto_binary(), tmp_path / "b", secure=True, tables=["12"], users=["club-a"],
                    acl_extra=remote_acl())
    club_b.add_tls_listener(remote_tls_listener(), tmp_path / "broker.crt", tmp_path / "broker.key")
    club_a = Broker(mosquitto_binary(), tmp_path / "a", secure=True, tables=["5"], acl_extra=remote_acl())
    club_a.bridge_to(club_b, remote_bridge(), "club-a", cafile=tmp_path / "ca.crt")
    assert "bridge_cafile" in club_a.conf.read_text() and "remote_username club-a" in club_a.conf.read_text()
    club_b.start()
    club_a.start()
    white, black = boards(tmp_path, club_a.address, club_b.address, club_a.login("5"), club_b.login("12"))
    table, far = Client(club_a, "5"), Client(club_b, club_b.WATCHER)
    try:
        assert table.accepted() and far.accepted()
        far.subscribe("maxima-board/#")
        play(white, black, quiet_game(11, 4))
        # only the remote tree crosses: club A's table stays at club A
        table.publish("maxima-board/round/5/state", b"{}")
        table.publish("maxima-board/remote/sentinel/white", b"sentinel")
        wait_for(lambda: "maxima-board/remote/sentinel/white" in far.topics(), what="the sentinel across the bridge")
        assert "maxima-board/round/5/state" not in far.topics()
        # White's message is retained at club B too: a board of B that comes back reads it at once
        late = Client(club_b, "12")
        try:
            assert late.accepted()
            late.subscribe(f"{TOPIC}/white")
            wait_for(lambda: f"{TOPIC}/white" in late.retained, what="white's retained message at club B")
        finally:
            late.close()
    finally:
        stop(white, black)
        table.close()
        far.close()
        club_a.stop()
        club_b.stop()


# -- (c) one broker on the internet -----------------------------------------------------------------
def test_internet_broker_with_tls_and_passwords(tmp_path):
    need_openssl()
    certificates(tmp_path)
    b = Broker(mosquitto_binary(), tmp_path / "broker", secure=True, users=["alice", "bob"], acl=remote_acl(),
               conf=internet_broker(), files={"certfile": str(tmp_path / "broker.crt"),
                                              "keyfile": str(tmp_path / "broker.key")})
    assert "certfile" in b.conf.read_text() and "allow_anonymous false" in b.conf.read_text()
    b.start()
    tls = ["--tls-ca", str(tmp_path / "ca.crt")]
    white, black = boards(tmp_path, b.address, b.address, b.login("alice") + tls, b.login("bob") + tls)
    plain = Client(b, "alice")          # no TLS: no log-in
    try:
        play(white, black, quiet_game(3, 3))
        assert not plain.connected.wait(2) or plain.result != "Success"
    finally:
        plain.close()
        stop(white, black)
        b.stop()
