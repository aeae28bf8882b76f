"""How a board or the dashboard logs in to the club's broker: user name,
a password read from a file, TLS with the club's CA (and optionally a
client certificate). One paho client, made the same way for both sides.

The broker is named as ``host:port``; a host name goes through the system
resolver each time paho connects, so a broker that is not resolvable or not
up yet is simply retried until it is.
"""
from __future__ import annotations

import ssl
import sys
from dataclasses import dataclass

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

MAX_PASSWORD = 1024


@dataclass(frozen=True)
class BrokerAuth:
    """The log-in of one client; all empty: anonymous, no TLS."""

    username: str | None = None
    password_file: str | None = None
    tls_ca: str | None = None           # the CA that signed the broker's certificate
    tls_cert: str | None = None         # a client certificate (needs tls_ca) ...
    tls_key: str | None = None          # ... and its key (None: in the certificate file)

    def check(self) -> "BrokerAuth":
        """Self, or ValueError saying what does not fit together."""
        if self.password_file and not self.username:
            raise ValueError("password_file: a password needs a username")
        if (self.tls_cert or self.tls_key) and not self.tls_ca:
            raise ValueError("tls: a client certificate needs the CA file (tls ca)")
        if self.tls_key and not self.tls_cert:
            raise ValueError("tls: a key needs its certificate (tls cert)")
        return self

    def password(self) -> str | None:
        """The password: the first line of ``password_file``. OSError or
        ValueError (one line, naming the file) when it cannot be read."""
        if not self.password_file:
            return None
        try:
            with open(self.password_file, encoding="utf-8") as f:
                text = f.read(MAX_PASSWORD + 1)
        except OSError as exc:
            raise OSError(f"password_file {self.password_file}: {exc.strerror or exc}") from None
        except UnicodeDecodeError:
            raise ValueError(f"password_file {self.password_file}: not UTF-8 text") from None
        line = text.split("\n", 1)[0].rstrip("\r")
        if not line or len(text) > MAX_PASSWORD:
            raise ValueError(f"password_file {self.password_file}: expected the password on its first line")
        return line


def make_client(client_id: str, auth: BrokerAuth | None, *, v5: bool = False) -> mqtt.Client:
    """A paho client with ``auth``'s log-in and TLS: MQTT 3.1.1 with a clean
    session, or with ``v5`` MQTT 5 (connect with ``connect_properties``)."""
    auth = (auth or BrokerAuth()).check()
    if v5:
        client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv5)
    else:
        client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=True)
    client.suppress_exceptions = True       # a failing callback is logged, never kills the thread
    if auth.username:
        client.username_pw_set(auth.username, auth.password())
    if auth.tls_ca:
        try:
            client.tls_set(ca_certs=auth.tls_ca, certfile=auth.tls_cert, keyfile=auth.tls_key,
                           cert_reqs=ssl.CERT_REQUIRED, tls_version=ssl.PROTOCOL_TLS_CLIENT)
        except (OSError, ssl.SSLError) as exc:
            raise OSError(f"tls: cannot load {auth.tls_ca}"
                          f"{' / ' + auth.tls_cert if auth.tls_cert else ''}: {exc}") from None
    return client


def connect_properties(max_packet: int) -> Properties:
    """MQTT 5 CONNECT properties: the broker must not send us a packet
    bigger than ``max_packet`` bytes (it drops such a message for us), so a
    huge retained message never even reaches our memory."""
    properties = Properties(PacketTypes.CONNECT)
    properties.MaximumPacketSize = max_packet
    return properties


def say_refusal(who: str, before: str | None, reason: str) -> str:
    """Print (once per change of reason) why the broker refused ``who``; the new reason."""
    if reason != before:
        print(f"maxima-board: {who}: the broker refused the connection: {reason} "
              f"(check username, password_file, tls)", file=sys.stderr, flush=True)
    return reason
