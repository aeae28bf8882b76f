"""The board's stored games, as the web page reads them: through a
read-only SQLite connection of its own (``GameStore(readonly=True)``, a
``mode=ro`` URI), in the web server's reading thread, never through the
board's loop. What was read is kept until the database changes (``PRAGMA
data_version``), so a page refreshed in a loop costs a counter look-up.

The games list comes in pages (:meth:`GameReader.page_json`): at most
``PAGE`` games, newest first, read by their number (``WHERE id < ? ORDER
BY id DESC LIMIT ?`` on the table's key), so a phone's request costs the
same with 30 games stored as with 900.
"""
from __future__ import annotations

import json
import os
from collections import OrderedDict
from typing import Mapping
from dataclasses import asdict

from maxima_board.rules import variants
from maxima_board.service.review import annotated_text, reviewed
from maxima_board.storage.store import GameRow, GameStore
from maxima_board.storage.storefile import StoreError

PGN_CACHE = 2048    # game records kept (a few hundred bytes to a few kB each)
PAGE = 20           # games in a page of the list ...
MAX_PAGE = 100      # ... and at most, when asked for more
PAGE_CACHE = 64     # pages kept while the database does not change
REVIEW_CACHE = 256  # game pages (a game at a position) kept


def page_query(query: Mapping[str, str]) -> tuple[int | None, int, bool]:
    """``before``, ``limit`` and whether the limit was given, of a games-list
    request's query (``?before=ID&limit=K``); ValueError says what is wrong."""
    before = limit = None
    if "before" in query:
        before = _whole(query["before"], "before", 1, 2**63 - 1)
    if "limit" in query:
        limit = _whole(query["limit"], "limit", 1, MAX_PAGE)
    return before, limit or PAGE, limit is not None


def _whole(text: str, name: str, low: int, high: int) -> int:
    if not (text.isascii() and text.isdigit() and len(text) <= 19) or not low <= int(text) <= high:
        raise ValueError(f"{name}: a whole number from {low} to {high}")
    return int(text)


def page_of(rows: list[GameRow], limit: int, given_limit: bool) -> bytes:
    """The JSON of a page: ``{"games": [...], "next": URL or null}`` from
    ``rows`` (read with one more than ``limit``: that one tells whether
    there is a next page)."""
    games = rows[:limit]
    following = None
    if len(rows) > limit and games:
        following = f"/api/games?before={games[-1].id}" + (f"&limit={limit}" if given_limit else "")
    return json.dumps({"games": [{**asdict(g), "title": game_title(g.variant)} for g in games],
                       "next": following}).encode()


def game_title(variant: str) -> str:
    """The name a person reads for the game ``variant`` (its id when this
    version does not know it)."""
    try:
        return variants.get(variant).title
    except ValueError:
        return variant


class GameReader:
    """Reads the games of ``db_path``; one instance per reading thread
    (a SQLite connection stays in the thread that made it). A record is
    kept per game as it was (its row: moves, result), so a move in the game
    being played leaves the records of every other game where they are."""

    def __init__(self, db_path: str):
        self.db_path = db_path
        self._store: GameStore | None = None
        self._version: int | None = None
        self._rows: OrderedDict[int, GameRow] = OrderedDict()     # rows read at this version
        self._pages: OrderedDict[tuple[int | None, int, bool], bytes] = OrderedDict()
        self._records: OrderedDict[tuple[GameRow, int], str] = OrderedDict()
        self._counts: dict[int, int] = {}        # reviewed positions per game, at this version
        self._views: OrderedDict[tuple[GameRow, int, int | None], bytes] = OrderedDict()
        self._opened: tuple[int, int] | None = None

    def _identity(self) -> tuple[int, int] | None:
        try:
            st = os.stat(self.db_path)
        except OSError:
            return None
        return st.st_dev, st.st_ino

    def _fresh(self) -> GameStore | None:
        """The store, what was read forgotten if the database changed;
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
            self._version = version
            self._rows.clear()
            self._pages.clear()
            self._counts.clear()
        return self._store

    def page_json(self, before: int | None = None, limit: int = PAGE, given_limit: bool = False) -> bytes:
        """``/api/games``: a page of at most ``limit`` stored games
        (``GameRow`` fields) numbered below ``before`` (None: the newest),
        newest first, and the address of the next page (``page_of``);
        ``given_limit``: the request named the limit (the next page's
        address names it too)."""
        key = (before, limit, given_limit)
        store = self._fresh()
        if store is None:
            return page_of([], limit, given_limit)
        page = self._pages.get(key)
        if page is None:
            rows = store.games_page(before, limit + 1)
            self._remember(rows[:limit])
            page = self._pages[key] = page_of(rows, limit, given_limit)
            while len(self._pages) > PAGE_CACHE:
                self._pages.popitem(last=False)
        return page

    def _remember(self, rows: list[GameRow]) -> None:
        for row in rows:
            self._rows[row.id] = row
            self._rows.move_to_end(row.id)
        while len(self._rows) > PGN_CACHE:
            self._rows.popitem(last=False)

    def _row(self, game_id: int) -> tuple[GameStore, GameRow, int]:
        """The store, game ``game_id``'s row and its reviewed positions, as
        of this version of the database; ValueError if there is no such game."""
        store = self._fresh()
        if store is None:
            raise ValueError(f"no game {game_id}")
        row = self._rows.get(game_id)
        if row is None:
            try:
                row = store.game(game_id)
            except ValueError:
                raise ValueError(f"no game {game_id}") from None
            self._remember([row])
        count = self._counts.get(game_id)
        if count is None:
            count = self._counts[game_id] = store.reviewed_count(game_id)
        return store, row, count

    def record_text(self, game_id: int) -> str:
        """Game ``game_id``'s record (PGN-style, with its review where there
        is one); ValueError if there is none."""
        store, row, count = self._row(game_id)
        key = (row, count)
        text = self._records.get(key)
        if text is None:
            text = annotated_text(store, row)
            self._records[key] = text
            while len(self._records) > PGN_CACHE:
                self._records.popitem(last=False)
        else:
            self._records.move_to_end(key)
        return text

    def review_page(self, game_id: int, ply: int | None) -> bytes:
        """``/games/N``: game ``game_id``'s page at position ``ply`` (None:
        the end); made again only when the game or its review changed."""
        from .review_page import clamp_ply, review_html

        store, row, count = self._row(game_id)
        key = (row, count, None if ply is None else min(ply, row.plies))
        page = self._views.get(key)
        if page is None:
            view = reviewed(store, row)
            page = self._views[key] = review_html(view, clamp_ply(view, ply), game_id).encode("utf-8")
            while len(self._views) > REVIEW_CACHE:
                self._views.popitem(last=False)
        else:
            self._views.move_to_end(key)
        return page

    def close(self) -> None:
        if self._store is not None:
            self._store.close()
            self._store = None
            self._version = None
            self._records.clear()
            self._views.clear()


__all__ = ["GameReader", "MAX_PAGE", "PAGE", "StoreError", "page_of", "page_query"]
