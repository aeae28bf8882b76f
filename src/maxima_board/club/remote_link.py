"""A remote game's messages through an MQTT broker: the peer of
``maxima_board.service.remote_layer`` between two boards.

Each board publishes its state (``maxima_board.service.remote_wire``),
retained with QoS 1, to ``maxima-board/remote/<game id>/<its side>`` and
reads the other side's topic. Only the newest message counts: while the
broker is away, a newer state replaces the one not yet sent, and on every
(re)connect the newest is published again, so a broker that lost its
retained copy gets it back. What arrives is checked here first (size,
signature, form): the loop is handed the newest sound message, and the
first few unsound ones (for its log), never a queue that grows.

Nothing here blocks the board's loop: ``publish`` hands the bytes to a
sender thread, and ``received`` only takes what paho's thread left.
"""
from __future__ import annotations

import logging
import secrets
import threading
from typing import Callable

from maxima_board.service import remote_wire as w

from .connection import BrokerAuth, connect_properties, make_client, say_refusal
from .topics import ROOT, parse_broker

log = logging.getLogger("maxima_board.remote")

MAX_UNSOUND = 8      # unsound messages handed on per call (the rest are counted)


def remote_topic(name: str, side: str) -> str:
    """The topic of ``side``'s messages in the game ``name`` (by its public id)."""
    return f"{ROOT}/remote/{w.game_id(name)}/{side}"


class RemoteLink:
    """The MQTT peer of one board in the remote game ``name``, playing
    ``side``, through ``broker`` ("host:port") logged in with ``auth``."""

    def __init__(self, broker: str, name: str, side: str, *, secret: str = "", auth: BrokerAuth | None = None,
                 keepalive: int = 10, reconnect_s: tuple[int, int] = (1, 2)):
        host, port = parse_broker(broker)
        if side not in w.SIDES:
            raise ValueError(f"--side: expected white or black, not {side!r}")
        self.side = side
        self.other = "black" if side == "white" else "white"
        self.mine, self.theirs = remote_topic(name, side), remote_topic(name, self.other)
        self._key = w.game_key(name, secret)
        self._cond = threading.Condition()
        self._latest: bytes | None = None          # our newest message
        self._unsent = False                       # ... not yet handed to paho since it changed or we reconnected
        self._newest: tuple[tuple[int, int], bytes] | None = None   # the other's newest sound message, unread
        self._heard: tuple[int, int] | None = None  # the order of the newest sound message seen
        self._unsound: list[bytes] = []
        self._dropped = 0
        self._wake: Callable[[], None] | None = None
        self._connected = False
        self._closing = False
        self._last_sent = None                     # paho's MessageInfo of our newest message
        self.connects = 0
        self.refused: str | None = None
        client = make_client(f"maxima-board-remote-{side}-{secrets.token_hex(4)}", auth, v5=True)
        client.reconnect_delay_set(*reconnect_s)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        self._client = client
        client.connect_async(host, port, keepalive, clean_start=True,
                             properties=connect_properties(w.MAX_BYTES + 4096))
        client.loop_start()
        self._sender = threading.Thread(target=self._send_loop, name="remote game", daemon=True)
        self._sender.start()

    # -- the board's loop -----------------------------------------------------
    def publish(self, payload: bytes) -> None:
        with self._cond:
            self._latest, self._unsent = bytes(payload), True
            self._cond.notify_all()

    def received(self) -> list[bytes]:
        """The other's newest sound message since the last call (if any),
        after the unsound ones that came (at most ``MAX_UNSOUND``)."""
        with self._cond:
            out, self._unsound = self._unsound, []
            if self._dropped:
                log.warning("remote game: %d more unsound messages dropped", self._dropped)
                self._dropped = 0
            if self._newest is not None:
                out.append(self._newest[1])
                self._newest = None
            return out

    def set_waker(self, wake: Callable[[], None]) -> None:
        self._wake = wake

    @property
    def connected(self) -> bool:
        with self._cond:
            return self._connected

    def close(self, timeout: float = 3.0) -> None:
        """Hand the broker our newest message (up to ``timeout`` s), disconnect."""
        with self._cond:
            self._cond.wait_for(lambda: not (self._connected and self._unsent), timeout)
            sent = self._last_sent
            self._closing = True
            self._cond.notify_all()
        if sent is not None:
            try:
                sent.wait_for_publish(timeout)
            except (RuntimeError, ValueError):
                pass     # not connected: the other board catches up when we are back
        self._sender.join(timeout)
        self._client.disconnect()
        self._client.loop_stop()

    # -- paho's thread --------------------------------------------------------
    def _on_connect(self, client, userdata, flags, reason_code, properties) -> None:
        if reason_code.is_failure:
            self.refused = say_refusal(f"remote game {self.side}", self.refused, str(reason_code))
            return
        self.refused = None
        client.subscribe(self.theirs, qos=1)
        with self._cond:
            self._connected = True
            self.connects += 1
            self._unsent = self._latest is not None    # the broker may have lost our retained copy
            self._cond.notify_all()

    def _on_disconnect(self, client, userdata, flags, reason_code, properties) -> None:
        with self._cond:
            self._connected = False

    def _on_message(self, client, userdata, message) -> None:
        if message.topic != self.theirs:
            return
        payload = bytes(message.payload)
        try:
            state = w.decode(payload, self._key, self.other)
        except w.WireError:
            with self._cond:
                idle = self._idle()
                if len(self._unsound) < MAX_UNSOUND:
                    self._unsound.append(payload[:w.MAX_BYTES])
                else:
                    self._dropped += 1
            if idle:
                self._poke()
            return
        with self._cond:
            if self._heard is not None and state.order <= self._heard:
                return     # a copy, or older than what we have
            if self._heard is not None and state.boot != self._heard[0] and self._latest is not None:
                # the other board started again: the broker may have handed it an older copy of ours
                # (a replay kept in our place) than the one we sent; ours again
                self._unsent = True
                self._cond.notify_all()
            idle = self._idle()
            self._heard = state.order
            self._newest = (state.order, payload)
        if idle:
            self._poke()

    def _idle(self) -> bool:
        """Nothing waits for the loop (then a new message wakes it; more
        messages before it comes wake it no more: a flood costs the loop one wake-up)."""
        return self._newest is None and not self._unsound and not self._dropped

    def _poke(self) -> None:
        wake = self._wake
        if wake is not None:
            wake()

    # -- the sender thread ----------------------------------------------------
    def _send_loop(self) -> None:
        while True:
            with self._cond:
                while not self._closing and not (self._connected and self._unsent):
                    self._cond.wait()
                if self._closing:
                    return
                payload, self._unsent = self._latest, False
            if payload is not None:
                info = self._client.publish(self.mine, payload, qos=1, retain=True)
                with self._cond:
                    self._last_sent = info
                    self._cond.notify_all()
