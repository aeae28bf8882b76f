"""A tab closed while the server writes its reply (issue 32, finding 5):
``serve`` logged "Error handling request … ClientConnectionResetError" each
time. A client gone is no error: at most a debug line. A real board page
server (``start_club``, as ``serve`` starts it) on 127.0.0.1, a client
that asks for a big reply, does not read it and resets its connection."""
from __future__ import annotations

import logging
import socket
import struct
import time

from .conftest import wait_for
from .test_club_web_attacks import LoopBoard


def reset(s: socket.socket) -> None:
    """Close ``s`` as a browser tab closed mid-reply: at once, with a reset."""
    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    s.close()


def test_a_client_that_goes_mid_reply_leaves_no_warning_or_error_in_the_log(tmp_path, monkeypatch, caplog):
    from maxima_board.web import games

    monkeypatch.setattr(games.GameReader, "page_json", lambda self, *args: b"[" + b"0," * 5_000_000 + b"0]")
    caplog.set_level(logging.DEBUG)
    board = LoopBoard(tmp_path, 1)
    try:
        server = board.services.server
        for _ in range(3):
            s = socket.create_connection(("127.0.0.1", board.port), 10)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            s.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert s.recv(64).startswith(b"HTTP/1.1 200")    # the reply is being written ...
            reset(s)                                        # ... when the tab closes
            wait_for(lambda: server.connections == 0, timeout=10, what="the connection to be closed")
        s = socket.create_connection(("127.0.0.1", board.port), 10)   # the live stream, tab closed mid-stream
        s.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert s.recv(64).startswith(b"HTTP/1.1 200")
        time.sleep(0.2)
        reset(s)
        wait_for(lambda: server.connections == 0, timeout=10, what="the stream's connection to be closed")
        time.sleep(0.3)
    finally:
        board.close()
    loud = [r for r in caplog.records if r.levelno >= logging.WARNING and r.name.startswith(("webpage", "aiohttp"))]
    assert not loud, [r.getMessage() for r in loud]
    assert any("went before its reply" in r.getMessage() for r in caplog.records if r.levelno == logging.DEBUG)
