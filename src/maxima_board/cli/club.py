"""The club parts a board runs beside its loop: the web page and the
broadcast, fed by one ``maxima_board.service.feed.BoardFeed``."""
from __future__ import annotations

import sys
from typing import Any, TextIO

from maxima_board.service.feed import BoardFeed


class ClubServices:
    """The web page server and the broadcast publisher of one board."""

    def __init__(self, feed: BoardFeed, server: Any = None, publisher: Any = None, pin: str | None = None,
                 db_path: str | None = None, reviewer: Any = None):
        self.feed = feed
        self.server = server
        self.publisher = publisher
        self.pin = pin
        self.db_path = db_path
        self.reviewer = reviewer            # the background reviewer (maxima_board.service.review)

    def attach(self, controller: Any) -> None:
        """Let the board's MENU show the web PIN, and make a new one
        ("New web PIN?": the old one, and every lock-out, stops at once)."""
        if self.pin is None:
            return
        controller.web_pin = self.pin
        add = getattr(controller, "add_menu_item", None)
        if add is not None:
            add("New web PIN?", lambda now: self._new_pin(controller, now))

    def _new_pin(self, controller: Any, now_ms: int) -> list[dict]:
        """In the board's loop: a new PIN, stored, given to the page, shown."""
        from maxima_board.web.pin import replace_pin

        try:
            pin = replace_pin(self.db_path or ":memory:")
        except OSError as exc:
            return [{"type": "error", "text": f"New web PIN not stored: {exc.strerror or exc}"}]
        self.pin = controller.web_pin = pin
        page = getattr(self.server, "page", None)
        if page is not None:
            page.set_pin(pin)
        show = getattr(controller, "show_web_pin", None)    # the OLED note "Show web PIN?" gives
        return show(now_ms) if show is not None else [{"type": "show", "text": f"Web PIN: {pin}"}]

    def close(self) -> None:
        if self.reviewer is not None:
            self.reviewer.close()
        if self.server is not None:
            self.server.close()
        if self.publisher is not None and not self.publisher.close():
            print("maxima-board: broadcast: the broker did not take every message before the board stopped",
                  file=sys.stderr, flush=True)


def start_club(db_path: str, *, web_bind: str | None = None, web_port: int = 8080,
               web_hosts: tuple[str, ...] = (), broker: str | None = None, club: str = "club",
               table: str = "1", auth: Any = None, log: TextIO | None = None,
               review: bool = False) -> ClubServices:
    """Start the web page (when ``web_bind`` is given) and the broadcast
    (when ``broker`` is given, logged in with ``auth``, a
    maxima_board.club.connection.BrokerAuth) for the board whose games are in ``db_path``;
    with ``review`` (``[review] background``), the background reviewer of
    finished games (``maxima_board.service.review``).
    OSError or ValueError when a part cannot start (nothing is left running)."""
    log = log or sys.stderr
    feed = BoardFeed()
    server = publisher = pin = None
    if web_bind is not None:
        from maxima_board.web.pin import board_pin
        from maxima_board.web.server import board_server

        pin = board_pin(db_path)
        server = board_server(feed, pin, web_bind, web_port, db_path=db_path, hosts=web_hosts)
    if broker is not None:
        from maxima_board.club.boots import next_boot
        from maxima_board.club.publisher import BoardPublisher

        try:
            publisher = BoardPublisher(broker, club, table, auth=auth, boot=next_boot(db_path))
        except (ValueError, OSError):
            if server is not None:
                server.close()
            raise
        feed.listeners.append(publisher)
    if server is not None:
        server.start()
        server.page.phone.resume()      # a phone's game goes on after a restart
        print(f"maxima-board: web page on http://{web_bind}:{server.port}/ "
              f"(PIN on the board: MENU, Show web PIN?)", file=log, flush=True)
    if publisher is not None:
        print(f"maxima-board: broadcasting to {broker} as {publisher.base}", file=log, flush=True)
    reviewer = None
    if review and db_path != ":memory:" and not db_path.startswith("file::memory:"):
        from maxima_board.service.review import BackgroundReviewer

        reviewer = BackgroundReviewer(db_path, log=log)     # nice 19, its own engine: never the loop's time
    return ClubServices(feed, server, publisher, pin, db_path, reviewer)
