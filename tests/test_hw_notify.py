"""systemd notify over a real unix datagram socket (no systemd needed)."""
from __future__ import annotations

import os
import socket
import uuid

import pytest

from maxima_board.devices.notify import Notifier


@pytest.fixture
def listener(tmp_path):
    path = str(tmp_path / "notify.sock")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(2)
    yield path, sock
    sock.close()


def test_without_notify_socket_nothing_happens():
    notifier = Notifier.from_env({})
    assert not notifier.enabled
    assert notifier.ready("x") is False and notifier.watchdog() is False
    assert notifier.watchdog_interval_ms is None


def test_messages_reach_the_socket(listener):
    path, sock = listener
    notifier = Notifier.from_env({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "10000000"})
    assert notifier.watchdog_interval_ms == 5000
    assert notifier.ready("White to move")
    assert sock.recv(4096) == b"READY=1\nSTATUS=White to move"
    assert notifier.watchdog()
    assert sock.recv(4096) == b"WATCHDOG=1"
    assert notifier.set_status("Black   to move")
    assert sock.recv(4096) == b"STATUS=Black to move"
    assert notifier.set_status("Black to move") is False          # unchanged: not resent
    assert notifier.stopping()
    assert sock.recv(4096) == b"STOPPING=1"
    notifier.close()


def test_abstract_socket_address():
    name = f"maxima-board-test-{uuid.uuid4().hex}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind("\0" + name)
    sock.settimeout(2)
    try:
        assert Notifier(f"@{name}").ready()
        assert sock.recv(4096) == b"READY=1"
    finally:
        sock.close()


def test_watchdog_for_another_process_is_ignored(listener):
    path, _ = listener
    notifier = Notifier.from_env({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "4000000",
                                  "WATCHDOG_PID": str(os.getpid() + 1)})
    assert notifier.watchdog_interval_ms is None


def test_a_vanished_socket_is_not_an_error(tmp_path):
    assert Notifier(str(tmp_path / "gone.sock")).ready() is False
