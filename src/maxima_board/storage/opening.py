"""Opening the games database: what the path holds (``storefile.identify``),
the board lock, a new database made ours, an older schema upgraded, a
damaged one moved aside (never deleted). :class:`~maxima_board.storage.store.GameStore`
opens through :class:`Opener` and then reads and writes games."""
from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path

from .storefile import (APPLICATION_ID, BoardLock, Found, StoreError, describe, identify, is_corrupt,
                        unwritable)

SCHEMA_VERSION = 4   # 2: the clocks table; 3: games.variant; 4: the reviews table

_REVIEWS = """CREATE TABLE IF NOT EXISTS reviews (
    game_id INTEGER NOT NULL REFERENCES games(id),
    ply INTEGER NOT NULL,          -- the position after this many moves (0: the start)
    score_cp INTEGER,              -- the engine's score, the side to move's view (UCI "score cp")
    mate INTEGER,                  -- or mate in N moves, the side to move's view (0: it has lost)
    best TEXT,                     -- the engine's best move (canonical), NULL when the game is over
    nodes INTEGER NOT NULL,
    search TEXT NOT NULL,          -- the search asked for: "level 8", "nodes 100000"
    PRIMARY KEY (game_id, ply)
)"""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    start_fen TEXT NOT NULL,
    created TEXT NOT NULL,
    event TEXT NOT NULL,
    site TEXT NOT NULL,
    date TEXT NOT NULL,
    round TEXT NOT NULL,
    white TEXT NOT NULL,
    black TEXT NOT NULL,
    result TEXT NOT NULL DEFAULT '*',
    reason TEXT,
    finished INTEGER NOT NULL DEFAULT 0,
    variant TEXT NOT NULL DEFAULT 'maxima'
);
CREATE TABLE IF NOT EXISTS moves (
    game_id INTEGER NOT NULL REFERENCES games(id),
    ply INTEGER NOT NULL,
    move TEXT NOT NULL,
    fen TEXT NOT NULL,
    created TEXT NOT NULL,
    PRIMARY KEY (game_id, ply)
);
CREATE TABLE IF NOT EXISTS clocks (
    game_id INTEGER NOT NULL REFERENCES games(id),
    ply INTEGER NOT NULL,          -- moves played when the clocks stood so (0: the start)
    control TEXT NOT NULL,
    white_ms INTEGER NOT NULL,
    black_ms INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
);
""" + _REVIEWS + ";\n"

# Statements that take a stored schema N to N + 1, run in one transaction
# by the first writing store that opens it.
_UPGRADES: dict[int, tuple[str, ...]] = {
    1: ("""CREATE TABLE IF NOT EXISTS clocks (
            game_id INTEGER NOT NULL REFERENCES games(id),
            ply INTEGER NOT NULL,
            control TEXT NOT NULL,
            white_ms INTEGER NOT NULL,
            black_ms INTEGER NOT NULL,
            PRIMARY KEY (game_id, ply))""",),
    2: ("ALTER TABLE games ADD COLUMN variant TEXT NOT NULL DEFAULT 'maxima'",),   # games stored before: Maxima
    3: (_REVIEWS,),    # no game is reviewed yet
}



class _Damaged(Exception):
    """Our database, but SQLite finds its content damaged."""


class Opener:
    """Opens the database at ``path`` (named ``label`` in messages). After
    :meth:`open_writer`, ``lock`` is the board lock taken (or None),
    ``message`` and ``moved_to`` say where a damaged database went."""

    def __init__(self, path: str, label: str) -> None:
        self.path = path
        self.label = label
        self.lock: BoardLock | None = None
        self.message: str | None = None
        self.moved_to: str | None = None

    def open_readonly(self) -> sqlite3.Connection:
        found = identify(self.path, self.label)
        if found.kind in ("missing", "no-parent"):
            raise ValueError(f"no games stored: {self.path} does not exist")
        if found.kind == "empty":
            raise ValueError(f"no games stored: {self.path} is empty")
        uri = Path(self.path).absolute().as_uri()
        try:
            conn = sqlite3.connect(uri + "?mode=ro", uri=True, timeout=5.0, isolation_level=None)
            try:
                conn.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()
            except sqlite3.Error:
                conn.close()
                # SQLite could not make the files a WAL reader needs (-shm) beside a
                # file we may not write. With no -wal, everything is in the main file.
                if os.path.exists(self.path + "-wal") or not unwritable(self.path):
                    raise
                conn = sqlite3.connect(uri + "?immutable=1", uri=True, isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(f"{self.label}: {describe(exc, self.path)}") from None
        try:
            conn.execute("PRAGMA query_only=ON")
            check = conn.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                raise _Damaged(f"integrity check failed: {check}")
            self._check_schema(conn, found, upgrade=False)
        except (sqlite3.Error, _Damaged) as exc:
            conn.close()
            if isinstance(exc, _Damaged) or is_corrupt(exc):
                raise StoreError(f"{self.label}: damaged ({exc}); nothing was changed "
                                 f"(a board process, run or sim, moves it aside)") from None
            raise StoreError(f"{self.label}: {describe(exc, self.path)}") from None
        except BaseException:
            conn.close()
            raise
        return conn

    def open_writer(self, lock: bool, create_parent: bool) -> sqlite3.Connection:
        found = identify(self.path, self.label)
        if found.kind == "no-parent":
            parent = os.path.dirname(os.path.abspath(self.path))
            if not create_parent:
                raise StoreError(f"{self.label}: directory {parent} does not exist")
            try:
                Path(parent).mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(f"{self.label}: cannot create directory {parent}: "
                                 f"{describe(exc, self.path)}") from None
        self._refuse_unwritable(found)
        if lock:
            self.lock = BoardLock(self.path)
            found = identify(self.path, self.label)     # as it is now that no other board can change it
            self._refuse_unwritable(found)
        try:
            return self._connect(found)
        except _Damaged as exc:
            self.moved_to = self._move_aside()
            self.message = (f"the game database {self.path} was damaged ({exc}); "
                            f"it was moved to {self.moved_to} and a new one started")
            return self._connect(Found("missing"))

    def _refuse_unwritable(self, found: Found) -> None:
        problem = unwritable(self.path) if found.kind == "ours" else None
        if problem:
            raise StoreError(f"{self.label}: {problem}; nothing was changed")

    def _connect(self, found: Found) -> sqlite3.Connection:
        """A writing connection; raises _Damaged only for a file that is ours."""
        try:
            conn = sqlite3.connect(self.path, timeout=5.0, isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(f"{self.label}: {describe(exc, self.path)}") from None
        try:
            if found.kind == "ours":
                self._check(conn, found)
            else:
                self.create(conn)
        except sqlite3.Error as exc:
            conn.close()
            if found.kind == "ours" and is_corrupt(exc):
                raise _Damaged(str(exc)) from None
            raise StoreError(f"{self.label}: {describe(exc, self.path)}; nothing was changed") from None
        except BaseException:
            conn.close()
            raise
        return conn

    def create(self, conn: sqlite3.Connection) -> None:
        """Make a new (empty) database ours: the application id first, so
        that the file is recognisably ours from its first byte on."""
        conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
        self._set_modes(conn)
        transaction(conn, lambda: self._make_schema(conn))

    def _check(self, conn: sqlite3.Connection, found: Found) -> None:
        """Our existing database: WAL, intact, a schema we know. Writes only
        to upgrade an older schema."""
        self._set_modes(conn)
        check = conn.execute("PRAGMA quick_check").fetchone()[0]
        if check != "ok":
            raise _Damaged(f"integrity check failed: {check}")
        self._check_schema(conn, found, upgrade=True)

    def _set_modes(self, conn: sqlite3.Connection) -> None:
        if self.path != ":memory:":
            mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise StoreError(f"{self.label}: cannot use write-ahead logging (journal mode is {mode})")
        conn.execute("PRAGMA synchronous=FULL")

    def _check_schema(self, conn: sqlite3.Connection, found: Found, upgrade: bool) -> None:
        """Our schema, or an older one of ours: a writer upgrades it (one
        transaction), a reader reads it as it is."""
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise StoreError(f"{self.label}: written by a newer maxima-board (schema version {version}, "
                             f"this one knows {SCHEMA_VERSION}); nothing was changed")
        if found.legacy or version < SCHEMA_VERSION:
            if upgrade:
                transaction(conn, lambda: self._make_schema(conn))
            elif version == 0 and not found.legacy:
                raise ValueError(f"no games stored in {self.path} yet")   # ours, being created
            return
        missing = _missing_schema(conn)
        if missing:
            raise StoreError(f"{self.label}: a maxima-board database without its {missing}; "
                             f"nothing was changed")

    @staticmethod
    def _make_schema(conn: sqlite3.Connection) -> None:
        """Inside a transaction: the current schema, made from nothing or
        upgraded step by step (``_UPGRADES``) from the one stored."""
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        stored = conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'games'").fetchone() is not None
        if not stored:
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    conn.execute(statement)
        else:
            for step in range(max(version, 1), SCHEMA_VERSION):
                for statement in _UPGRADES[step]:
                    conn.execute(statement)
        conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
        conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    def _move_aside(self) -> str:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        target = f"{self.path}.unreadable-{stamp}"
        n = 1
        while os.path.exists(target):
            target = f"{self.path}.unreadable-{stamp}-{n}"
            n += 1
        try:
            os.replace(self.path, target)
            for suffix in ("-wal", "-shm"):
                if os.path.exists(self.path + suffix):
                    os.replace(self.path + suffix, target + suffix)
        except OSError as exc:
            raise StoreError(f"{self.label}: damaged, and it cannot be moved aside: "
                             f"{describe(exc, self.path)}") from None
        return target


def transaction(conn: sqlite3.Connection, body):
    """Run ``body`` in one IMMEDIATE transaction. A failed COMMIT (disk
    full) is reported as itself, not as the failing ROLLBACK after it."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        result = body()
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            try:
                conn.execute("ROLLBACK")
            except sqlite3.Error:
                pass
        raise
    return result


def _missing_schema(conn: sqlite3.Connection) -> str | None:
    """What of our schema's tables and columns ``conn`` lacks, in words; None
    when it has them all."""
    want = sqlite3.connect(":memory:")
    try:
        want.executescript(_SCHEMA)
        tables = [n for (n,) in want.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        for table in tables:
            have = {row[1] for row in conn.execute("SELECT * FROM pragma_table_info(?)", (table,))}
            if not have:
                return f"table {table}"
            for (column,) in want.execute("SELECT name FROM pragma_table_info(?)", (table,)):
                if column not in have:
                    return f"column {table}.{column}"
        return None
    finally:
        want.close()
