"""A board's publisher: its snapshots, as retained messages, to the broker.

Nothing is lost while the broker is away. Every topic's newest payload is
kept; a topic is *pending* until the broker has acknowledged (QoS 1) that
payload. While disconnected, updates only replace pending payloads, so a
long outage costs no memory beyond one message per topic, and each message
is complete (the move list is whole). On reconnect, once the messages that
were in flight when the link dropped have gone out again (paho resends
them), every topic is republished, newest last, so the broker's retained
copy is the latest even if the broker lost its own on restart.

``update`` never blocks the board's loop: a sender thread does the work.
The board starts whether or not the broker (or the network, or the name
server) is up: paho's thread retries until it connects, resolving a host
name through the system resolver on every try.
"""
from __future__ import annotations

import secrets
import threading
import time

from .connection import BrokerAuth, make_client, say_refusal
from .topics import base_topic, parse_broker, status_payload, table_messages, topic_word

RESYNC_WAIT_S = 5.0     # longest wait for the old in-flight messages after a reconnect


class BoardPublisher:
    """Publishes one board (``club``/``table``) to ``broker`` ("host:port"),
    logged in with ``auth``; ``boot`` is the board's start count (maxima_board.club.boots)."""

    def __init__(self, broker: str, club: str, table: str, *, keepalive: int = 10,
                 reconnect_s: tuple[int, int] = (1, 2), auth: BrokerAuth | None = None, boot: int = 0):
        host, port = parse_broker(broker)
        self.club, self.table = topic_word(club, "club"), topic_word(table, "table")
        self.base = base_topic(self.club, self.table)
        self.boot = boot
        self._cond = threading.Condition()
        self._latest: dict[str, bytes] = {}
        self._pending: dict[str, None] = {}           # topics to (re)publish, in order
        self._inflight: dict[int, str] = {}          # message id → topic, until the broker acknowledges
        self._acked: set[int] = set()
        self._connected = False
        self._resync: set[int] | None = None
        self._resync_since = 0.0
        self._closing = False
        self._offline = False                           # close() has begun: stay "offline"
        self.connects = 0                               # how often the broker was reached
        self.refused: str | None = None                 # why the broker last refused us (bad log-in)
        client = make_client(f"maxima-board-{self.club}-{self.table}-{secrets.token_hex(3)}", auth)
        client.will_set(f"{self.base}/status", status_payload(False, boot), qos=1, retain=True)
        client.reconnect_delay_set(*reconnect_s)
        client.max_inflight_messages_set(50)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_publish = self._on_publish
        self._client = client
        client.connect_async(host, port, keepalive)
        client.loop_start()
        self._sender = threading.Thread(target=self._send_loop, name=f"broadcast {self.table}", daemon=True)
        self._sender.start()

    # -- the board's side -----------------------------------------------------
    def update(self, snapshot: dict) -> None:
        """The board's new state (a maxima_board.service.feed snapshot)."""
        messages = table_messages(self.club, self.table, snapshot, self.boot)
        with self._cond:
            for topic, payload in messages.items():
                if self._latest.get(topic) != payload:
                    self._latest[topic] = payload
                    self._pending[topic] = None
            self._cond.notify_all()

    __call__ = update      # a feed listener

    @property
    def connected(self) -> bool:
        with self._cond:
            return self._connected

    def pending(self) -> int:
        """Messages the broker has not acknowledged yet."""
        with self._cond:
            self._reap()
            return len(self._pending) + len(self._inflight)

    def flush(self, timeout: float) -> bool:
        """Wait until the broker has acknowledged everything; False on timeout."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.pending() == 0 and self.connected:
                return True
            time.sleep(0.02)
        return False

    def close(self, timeout: float = 3.0) -> bool:
        """Say offline, send what is pending (up to ``timeout`` s), disconnect.
        False if something could not be delivered in time."""
        with self._cond:
            self._offline = True
            self._latest[f"{self.base}/status"] = status_payload(False, self.boot)
            self._pending[f"{self.base}/status"] = None
            self._cond.notify_all()
        delivered = self.flush(timeout)
        with self._cond:
            self._closing = True
            self._cond.notify_all()
        self._sender.join(2.0)
        self._client.disconnect()
        self._client.loop_stop()
        return delivered

    # -- paho's network thread ------------------------------------------------
    def _on_connect(self, client, userdata, flags, reason_code, properties) -> None:
        if reason_code.is_failure:
            self.refused = say_refusal(f"broadcast {self.base}", self.refused, str(reason_code))
            return
        with self._cond:
            self.refused = None
            self._connected = True
            self.connects += 1
            # paho resends what was in flight; republish everything after it.
            self._resync = set(self._inflight)
            self._resync_since = time.monotonic()
            if not self._offline:
                self._latest[f"{self.base}/status"] = status_payload(True, self.boot)
            self._cond.notify_all()

    def _on_disconnect(self, client, userdata, flags, reason_code, properties) -> None:
        with self._cond:
            self._connected = False
            self._cond.notify_all()

    def _on_publish(self, client, userdata, mid, reason_code, properties) -> None:
        with self._cond:
            self._acked.add(mid)
            self._cond.notify_all()

    # -- the sender thread ----------------------------------------------------
    def _reap(self) -> None:
        for mid in self._acked & self._inflight.keys():
            del self._inflight[mid]
            self._acked.discard(mid)

    def _send_loop(self) -> None:
        while True:
            with self._cond:
                while True:   # sleeps until there is something to send (every change notifies)
                    if self._closing:
                        return
                    self._reap()
                    if self._connected and self._resync is not None:
                        waiting = self._resync & self._inflight.keys()
                        left = RESYNC_WAIT_S - (time.monotonic() - self._resync_since)
                        if waiting and left > 0:
                            self._resync = waiting
                            self._cond.wait(left)
                            continue
                        self._resync = None
                        for topic in self._latest:          # the broker may have lost its copies
                            self._pending[topic] = None
                    if self._connected and self._pending:
                        break
                    self._cond.wait()
                batch = [(topic, self._latest[topic]) for topic in self._pending]
                self._pending.clear()
            sent = {}
            for topic, payload in batch:   # a message not sent now stays with paho, which resends it
                sent[self._client.publish(topic, payload, qos=1, retain=True).mid] = topic
            with self._cond:
                self._inflight.update(sent)
