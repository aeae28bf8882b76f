"""The game records the dashboard keeps, each with its PGN-style text made
once, when the record is taken (replayed from where the last record of the
same game stopped), and the rounds' files made once per change: a
spectator's ``GET /round/R.pgn`` joins texts, it replays nothing.

At most ``games_per_table`` records per table (the lowest numbers go
first) and ``table_plies`` plies in a table's records (a record past that
is dropped, "too-many-plies", before any of it is replayed). Not
thread-safe: its owner (maxima_board.club.tables.ClubTables) calls it
under its lock, except ``replay``, which runs on its own.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator

from . import schema
from .replaying import Cursor, best_cursor, steps_kept, text_of

GAMES_PER_TABLE = 64
TABLE_PLIES = 20_000


def natural_key(name: str) -> tuple:
    """Names in natural order: 2 before 10."""
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in re.split(r"(\d+)", name) if p)


@dataclass
class Kept:
    """A record taken: its data as sent, text, round (its Round tag) and
    the replay that made it (for the next record of the same game)."""

    record: dict
    text: str
    round: str
    plies: int
    cursor: Cursor


class RecordBook:
    """The records of every table (module docstring)."""

    def __init__(self, games_per_table: int = GAMES_PER_TABLE, table_plies: int = TABLE_PLIES):
        self.games_per_table, self.table_plies = games_per_table, table_plies
        self._kept: dict[tuple[str, int], Kept] = {}
        self._plies: dict[str, int] = {}
        self._working: dict[tuple[str, int], Cursor] = {}   # a replay a newer message cut short
        self.version = 0
        self._cache: dict[str | None, tuple[int, object]] = {}  # round (None: the rounds) -> (version, value)

    def __len__(self) -> int:
        return len(self._kept)

    def tables(self) -> set[str]:
        return {table for table, _ in self._kept}

    def room(self, table: str, number: int, plies: int) -> str | None:
        """Why a record of ``plies`` cannot be kept as game ``number`` of
        ``table`` (None: it can)."""
        old = self._kept.get((table, number))
        total = self._plies.get(table, 0) - (old.plies if old else 0) + plies
        if total > self.table_plies:
            return f"a table's records hold at most {self.table_plies} plies"
        return None

    def start(self, table: str, record: schema.Record) -> Cursor:
        """The cursor to replay ``record`` from (call under the lock)."""
        key = (table, record.game)
        old = self._kept.get(key)
        return best_cursor(record.variant, record.start_fen, record.moves,
                           old.cursor if old else None, self._working.pop(key, None), words=True)

    def replay(self, table: str, record: schema.Record, cursor: Cursor) -> Iterator[None]:
        """Replays ``record`` on ``cursor``, a slice per step; when it is
        cut short, what is done waits for the next record of its key."""
        yield from steps_kept(cursor, record.moves, self._working, (table, record.game))

    def keep(self, table: str, data: dict, cursor: Cursor) -> list[int]:
        """Keeps the replayed record ``data``; the numbers of the table's
        records given up for it (games_per_table)."""
        number = data["game"]
        text = text_of(table, data, cursor)
        self._forget((table, number))
        self._kept[(table, number)] = Kept(data, text, str((data.get("tags") or {}).get("Round", "-")),
                                           len(cursor.moves), cursor)
        self._plies[table] = self._plies.get(table, 0) + len(cursor.moves)
        mine = sorted(n for t, n in self._kept if t == table)
        gone = mine[:max(0, len(mine) - self.games_per_table)]
        for n in gone:
            self._forget((table, n))
        self.changed()
        return gone

    def drop(self, table: str, number: int) -> bool:
        """Forgets a record (deleted by its board); whether there was one."""
        self._working.pop((table, number), None)
        if self._forget((table, number)):
            self.changed()
            return True
        return False

    def _forget(self, key: tuple[str, int]) -> bool:
        old = self._kept.pop(key, None)
        if old is None:
            return False
        left = self._plies[key[0]] - old.plies
        if left:
            self._plies[key[0]] = left
        else:
            del self._plies[key[0]]
        return True

    def changed(self) -> None:
        """What the rounds show has changed (a record, or a table's game)."""
        self.version += 1
        self._cache.clear()

    def _shown(self, current: dict[str, int | None]) -> list[tuple[str, int, Kept]]:
        """The records worth showing: a table's games up to the one its
        board plays now (``current``: table -> game number; a record
        numbered beyond it is not the board's)."""
        out = []
        for (table, number), kept in self._kept.items():
            game = current.get(table)
            if game is None or number <= game:
                out.append((table, number, kept))
        return out

    def rounds(self, current: dict[str, int | None]) -> list[str]:
        """The rounds of the records shown, in natural order; made once per change."""
        cached = self._cache.get(None)
        if cached is None:
            cached = self._cache[None] = (self.version, sorted({k.round for _, _, k in self._shown(current)},
                                                               key=natural_key))
        return list(cached[1])      # type: ignore[arg-type]

    def round_text(self, name: str, current: dict[str, int | None]) -> str:
        """Every game of round ``name``, table by table, as one PGN-style
        file ("" when none); made once per change, of texts made once per record."""
        cached = self._cache.get(name)
        if cached is None:
            games = sorted(((t, n, k) for t, n, k in self._shown(current) if k.round == name),
                           key=lambda g: (natural_key(g[0]), g[1]))
            text = "\n".join(k.text for _, _, k in games)
            if not text:
                return ""           # not cached: a request may name any round
            cached = self._cache[name] = (self.version, text)
        return cached[1]            # type: ignore[return-value]
