"""The board's stored games, as the web page reads them: through a
read-only SQLite connection of its own (``GameStore(readonly=True)``, a
``mode=ro`` URI), in the web server's reading thread, never through the
board's loop. What was read is kept until the database changes (``PRAGMA
data_version``), so a page refreshed in a loop costs a counter look-up.
"""
from __future__ import annotations

import json
import os
from collections import OrderedDict
from dataclasses import asdict

from maxima_board.service.record import game_record
from maxima_board.storage.store import GameRow, GameStore
from maxima_board.storage.storefile import StoreError

PGN_CACHE = 2048    # game records kept (a few hundred bytes to a few kB each)


class GameReader:
    """Reads the games of ``db_path``; one instance per reading thread
    (a SQLite connection stays in the thread that made it). A record is
    kept per game as it was (its row: moves, result), so a move in the game
    being played leaves the records of every other game where they are."""

    def __init__(self, db_path: str):
        self.db_path = db_path
        self._store: GameStore | None = None
        self._version: int | None = None
        self._rows: dict[int, GameRow] = {}
        self._list = b"[]"
        self._records: OrderedDict[GameRow, str] = OrderedDict()
        self._opened: tuple[int, int] | None = None

    def _identity(self) -> tuple[int, int] | None:
        try:
            st = os.stat(self.db_path)
        except OSError:
            return None
        return st.st_dev, st.st_ino

    def _fresh(self) -> GameStore | None:
        """The store, the game list read again if the database changed;
        None while the board has not made its database yet."""
        if self._store is not None and self._identity() != self._opened:
            self.close()           # the board moved a damaged database aside and began a new one
        if self._store is None:
            self._opened = self._identity()
            try:
                self._store = GameStore(self.db_path, readonly=True, label=f"game database {self.db_path}")
            except ValueError:        # not made yet ("no games stored")
                return None
        version = self._store.data_version()
        if version != self._version:
            games = self._store.games()
            self._version = version
            self._rows = {g.id: g for g in games}
            self._list = json.dumps([asdict(g) for g in games]).encode()
        return self._store

    def games_json(self) -> bytes:
        """``/api/games``: every stored game (``GameRow`` fields), oldest first."""
        self._fresh()
        return self._list

    def record_text(self, game_id: int) -> str:
        """Game ``game_id``'s record (PGN-style); ValueError if there is none."""
        store = self._fresh()
        row = self._rows.get(game_id)
        if store is None or row is None:
            raise ValueError(f"no game {game_id}")
        text = self._records.get(row)
        if text is None:
            text = game_record(store, row).to_text()
            self._records[row] = text
            while len(self._records) > PGN_CACHE:
                self._records.popitem(last=False)
        else:
            self._records.move_to_end(row)
        return text

    def close(self) -> None:
        if self._store is not None:
            self._store.close()
            self._store = None
            self._version = None
            self._records.clear()


__all__ = ["GameReader", "StoreError"]
