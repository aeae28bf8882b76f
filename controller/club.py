"""The club parts a board runs beside its loop: the web page and the
broadcast, fed by one ``controller.feed.BoardFeed``."""
from __future__ import annotations

import sys
from typing import Any, TextIO

from .feed import BoardFeed


class ClubServices:
    """The web page server and the broadcast publisher of one board."""

    def __init__(self, feed: BoardFeed, server: Any = None, publisher: Any = None, pin: str | None = None):
        self.feed = feed
        self.server = server
        self.publisher = publisher
        self.pin = pin

    def attach(self, controller: Any) -> None:
        """Let the board's MENU show the web PIN."""
        if self.pin is not None:
            controller.web_pin = self.pin

    def close(self) -> None:
        if self.server is not None:
            self.server.close()
        if self.publisher is not None and not self.publisher.close():
            print("maxima-board: broadcast: the broker did not take every message before the board stopped",
                  file=sys.stderr, flush=True)


def start_club(db_path: str, *, web_bind: str | None = None, web_port: int = 8080,
               broker: str | None = None, club: str = "club", table: str = "1",
               auth: Any = None, log: TextIO | None = None) -> ClubServices:
    """Start the web page (when ``web_bind`` is given) and the broadcast
    (when ``broker`` is given, logged in with ``auth``, a
    broadcast.connection.BrokerAuth) for the board whose games are in ``db_path``.
    OSError or ValueError when a part cannot start (nothing is left running)."""
    log = log or sys.stderr
    feed = BoardFeed()
    server = publisher = pin = None
    if web_bind is not None:
        from webpage.pin import board_pin
        from webpage.server import board_server

        pin = board_pin(db_path)
        server = board_server(feed, pin, web_bind, web_port)
    if broker is not None:
        from broadcast.boots import next_boot
        from broadcast.publisher import BoardPublisher

        try:
            publisher = BoardPublisher(broker, club, table, auth=auth, boot=next_boot(db_path))
        except (ValueError, OSError):
            if server is not None:
                server.httpd.server_close()
            raise
        feed.listeners.append(publisher)
    if server is not None:
        server.start()
        print(f"maxima-board: web page on http://{web_bind}:{server.port}/ "
              f"(PIN on the board: MENU, Show web PIN?)", file=log, flush=True)
    if publisher is not None:
        print(f"maxima-board: broadcasting to {broker} as {publisher.base}", file=log, flush=True)
    return ClubServices(feed, server, publisher, pin)
