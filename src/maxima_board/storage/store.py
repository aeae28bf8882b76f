"""Stored games: one SQLite database (stdlib sqlite3, WAL, synchronous FULL).

Every write is its own transaction and is on disk when the method returns,
so a move the controller acknowledges survives a crash or a power cut.
Every write that changes a game first checks, in the same transaction,
that the game has as many moves as this process believes; otherwise
nothing is written (:class:`~maxima_board.storage.storefile.Conflict`).

Only our own database is ever opened for writing (``maxima_board.storage.storefile``
tells what a path holds): anything else is refused with one line
(:class:`~maxima_board.storage.storefile.NotOurs`), untouched. A writing store moves
our database aside, never deletes it, only when SQLite finds it damaged;
``GameStore.message`` then says so. Disk full, file too large, read-only
and permission faults are raised as :class:`~maxima_board.storage.storefile.StoreError`
saying so; nothing is moved.
"""
from __future__ import annotations

import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from .storefile import (APPLICATION_ID, BoardLock, Conflict, Found, StoreError, describe, identify, is_corrupt, unwritable)

SCHEMA_VERSION = 3   # 2: the clocks table; 3: games.variant

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
"""

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
}

_GAME_COLUMNS = "id, start_fen, created, event, site, date, round, white, black, result, reason, finished"
_VARIANT_COLUMN = "variant"   # schema 3; a database of schema 1-2 opened for reading holds Maxima only


def default_db_path() -> str:
    """``$MAXIMA_BOARD_DB``, else ``$XDG_STATE_HOME/maxima-board/games.db``
    (``~/.local/state/maxima-board/games.db`` when XDG_STATE_HOME is unset)."""
    explicit = os.environ.get("MAXIMA_BOARD_DB")
    if explicit:
        return explicit
    state = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return os.path.join(state, "maxima-board", "games.db")


@dataclass(frozen=True)
class ClockRow:
    """A game's clocks after ``ply`` moves (0: at the start), under ``control``."""

    control: str
    ply: int
    white_ms: int
    black_ms: int


@dataclass(frozen=True)
class GameRow:
    """One stored game; ``plies`` is the number of stored moves."""

    id: int
    start_fen: str
    created: str
    event: str
    site: str
    date: str
    round: str
    white: str
    black: str
    result: str
    reason: str | None
    finished: bool
    plies: int
    variant: str = "maxima"   # the game's id (maxima_board.rules.variants)


class _Damaged(Exception):
    """Our database, but SQLite finds its content damaged."""


def board_store(db_path: str | None, label: str | None = None) -> "GameStore":
    """The store of a board process (``run``, ``sim``): ``db_path``, else
    :func:`default_db_path`, locked for the process's lifetime. Only the
    built-in default location has its directory created."""
    default = db_path is None and not os.environ.get("MAXIMA_BOARD_DB")
    return GameStore(db_path or default_db_path(), lock=True, create_parent=default, label=label)


class GameStore:
    """The games database at ``path`` (``":memory:"`` for a throw-away one).

    ``readonly``: open it for reading only; a missing or empty file is a
    ValueError ("no games stored"), nothing is created or changed. Else
    the store writes: a missing or empty file becomes a new database, and
    ``lock`` takes the board lock (:class:`~maxima_board.storage.storefile.BoardLock`)
    first. ``label`` names the path in messages (``"--db PATH"``).
    """

    def __init__(self, path: str | os.PathLike[str], *, readonly: bool = False, lock: bool = False,
                 create_parent: bool = True, label: str | None = None):
        self.path = str(path)
        self.label = label or f"game database {self.path}"
        self.readonly = readonly
        self.message: str | None = None
        self.moved_to: str | None = None
        self._lock: BoardLock | None = None
        self._plies: dict[int, int] = {}      # game → number of moves, as this process knows it
        if self.path == ":memory:":
            self._conn = sqlite3.connect(self.path, isolation_level=None)
            self._create(self._conn)
        elif readonly:
            self._conn = self._open_readonly()
        else:
            try:
                self._conn = self._open_writer(lock, create_parent)
            except BaseException:
                self._release()
                raise

    # ------------------------------------------------------------ opening
    def _open_readonly(self) -> sqlite3.Connection:
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

    def _open_writer(self, lock: bool, create_parent: bool) -> sqlite3.Connection:
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
            self._lock = BoardLock(self.path)
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
                self._create(conn)
        except sqlite3.Error as exc:
            conn.close()
            if found.kind == "ours" and is_corrupt(exc):
                raise _Damaged(str(exc)) from None
            raise StoreError(f"{self.label}: {describe(exc, self.path)}; nothing was changed") from None
        except BaseException:
            conn.close()
            raise
        return conn

    def _create(self, conn: sqlite3.Connection) -> None:
        """Make a new (empty) database ours: the application id first, so
        that the file is recognisably ours from its first byte on."""
        conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
        self._set_modes(conn)
        self._transaction(conn, lambda: self._make_schema(conn))

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
                self._transaction(conn, lambda: self._make_schema(conn))
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

    def close(self) -> None:
        """Close the database. A writer first checkpoints the write-ahead log
        into the main file and empties it, so that ``games.db`` alone holds
        every game after a clean stop (even while a reader, the web page,
        keeps its own connection and SQLite would not checkpoint by itself)."""
        try:
            conn = getattr(self, "_conn", None)
            if conn is not None:
                if not self.readonly and self.path != ":memory:":
                    try:
                        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
                    except sqlite3.Error:
                        pass        # everything stays in the log; SQLite replays it on the next open
                conn.close()
        finally:
            self._release()

    def backup(self, dest: str) -> int:
        """Copy the database to ``dest`` through SQLite's online backup (one
        consistent snapshot, while the board goes on writing); the number of
        games copied. The copy is written beside ``dest`` under another name,
        checked, and then renamed into place, so ``dest`` is never half
        written. ``dest`` must be a new file or a maxima-board database."""
        tmp = f"{dest}.tmp-{os.getpid()}"
        try:
            target = sqlite3.connect(tmp, isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(f"backup {dest}: {describe(exc, dest)}") from None
        try:
            self._conn.backup(target)
            target.execute("PRAGMA journal_mode=DELETE")
            check = target.execute("PRAGMA integrity_check").fetchone()[0]
            if check != "ok":
                raise StoreError(f"backup {dest}: the copy does not check ({check}); nothing was replaced")
            count = target.execute("SELECT count(*) FROM games").fetchone()[0]
            target.close()
            with open(tmp, "rb+") as f:     # our own new file, no connection on it: safe to open
                os.fsync(f.fileno())
            os.replace(tmp, dest)
        except (sqlite3.Error, OSError) as exc:
            target.close()
            _remove(tmp)
            raise StoreError(f"backup {dest}: {describe(exc, dest)}; nothing was replaced") from None
        except BaseException:
            target.close()
            _remove(tmp)
            raise
        return count

    def _release(self) -> None:
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    # ------------------------------------------------------------ writes
    def _transaction(self, conn: sqlite3.Connection, body):
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

    def _write(self, sql: str, params: tuple, *more: tuple[str, tuple], game_id: int | None = None,
               plies: int | None = None) -> sqlite3.Cursor:
        """``sql`` and the ``more`` statements in one transaction, the cursor
        of the first; with ``game_id``, only if that game exists and
        (``plies`` given) has that many moves."""
        if self.readonly:
            raise StoreError(f"opened for reading only ({self.label})")
        conn = self._conn

        def body() -> sqlite3.Cursor:
            if game_id is not None:
                self._expect(game_id, plies)
            cur = conn.execute(sql, params)
            for other in more:
                conn.execute(*other)
            return cur

        try:
            return self._transaction(conn, body)
        except sqlite3.Error as exc:       # the reason first: the OLED shows the start of it
            raise StoreError(f"{describe(exc, self.path)} ({self.label})") from None

    def _expect(self, game_id: int, plies: int | None) -> None:
        row = self._conn.execute("SELECT (SELECT COUNT(*) FROM moves WHERE game_id = ?) FROM games WHERE id = ?",
                                 (game_id, game_id)).fetchone()
        if row is None:
            raise Conflict(f"game {game_id} is not stored: another process has changed the database; "
                           f"nothing was written ({self.label})")
        if plies is not None and row[0] != plies:
            raise Conflict(f"game {game_id} has {row[0]} moves stored, this board expected {plies}: "
                           f"another process has changed it; nothing was written ({self.label})")

    def new_game(self, start_fen: str, event: str = "Casual game", site: str = "", round: str = "-",
                 white: str = "White", black: str = "Black",
                 clock: tuple[str, int, int] | None = None, variant: str = "maxima") -> int:
        """Store a new unfinished game of ``variant`` and return its number;
        ``clock``: (time control, White's ms, Black's ms) at the start, if it has one."""
        created = time.strftime("%Y-%m-%dT%H:%M:%S")
        more = [] if clock is None else [
            ("INSERT INTO clocks (game_id, ply, control, white_ms, black_ms) "
             "VALUES (last_insert_rowid(), 0, ?, ?, ?)", clock)]
        cur = self._write(
            "INSERT INTO games (start_fen, created, event, site, date, round, white, black, variant) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (start_fen, created, event, site, time.strftime("%Y.%m.%d"), round, white, black, variant), *more)
        game_id = int(cur.lastrowid)
        self._plies[game_id] = 0
        return game_id

    def append_move(self, game_id: int, ply: int, move: str, fen: str,
                    clock: tuple[str, int, int] | None = None) -> None:
        """Store move number ``ply`` (0 = the game's first move) and the
        clocks after it (time control, White's ms, Black's ms); durable on
        return. Only if the game has exactly ``ply`` moves stored."""
        more = [] if clock is None else [
            ("INSERT OR REPLACE INTO clocks (game_id, ply, control, white_ms, black_ms) VALUES (?, ?, ?, ?, ?)",
             (game_id, ply + 1, *clock))]
        self._write("INSERT INTO moves (game_id, ply, move, fen, created) VALUES (?, ?, ?, ?, ?)",
                    (game_id, ply, move, fen, time.strftime("%Y-%m-%dT%H:%M:%S")), *more,
                    game_id=game_id, plies=ply)
        self._plies[game_id] = ply + 1

    def take_back(self, game_id: int, ply: int) -> None:
        """Forget move ``ply`` of the game, its last one, and the clocks after
        it; durable on return. Only if the game has exactly ``ply + 1`` moves stored."""
        self._write("DELETE FROM moves WHERE game_id = ? AND ply = ?", (game_id, ply),
                    ("DELETE FROM clocks WHERE game_id = ? AND ply > ?", (game_id, ply)),
                    game_id=game_id, plies=ply + 1)
        self._plies[game_id] = ply

    def set_players(self, game_id: int, white: str, black: str) -> None:
        """The players' names of a game (the computer's side is named by its
        engine and level once it plays it)."""
        self._write("UPDATE games SET white = ?, black = ? WHERE id = ?", (white, black, game_id),
                    game_id=game_id, plies=self._plies.get(game_id))

    def finish(self, game_id: int, result: str, reason: str | None) -> None:
        """Record the game's end; it will not be resumed."""
        self._write("UPDATE games SET result = ?, reason = ?, finished = 1 WHERE id = ?",
                    (result, reason, game_id), game_id=game_id, plies=self._plies.get(game_id))

    def reopen(self, game_id: int) -> None:
        """Undo ``finish`` (a take-back after the game ended)."""
        self._write("UPDATE games SET result = '*', reason = NULL, finished = 0 WHERE id = ?", (game_id,),
                    game_id=game_id, plies=self._plies.get(game_id))

    # ------------------------------------------------------------ reads
    def _rows(self, where: str = "", params: tuple = ()) -> list[GameRow]:
        variant = _VARIANT_COLUMN if self._has_variant() else "'maxima'"
        rows = self._conn.execute(
            f"SELECT {_GAME_COLUMNS}, (SELECT COUNT(*) FROM moves WHERE game_id = games.id), {variant} "
            f"FROM games {where} ORDER BY id", params).fetchall()
        games = [GameRow(*row[:11], bool(row[11]), row[12], row[13]) for row in rows]
        self._plies.update((g.id, g.plies) for g in games)
        return games

    def _has_variant(self) -> bool:
        found = getattr(self, "_variant_known", None)
        if found is None:
            found = self._variant_known = any(
                row[1] == "variant" for row in self._conn.execute("SELECT * FROM pragma_table_info('games')"))
        return found

    def data_version(self) -> int:
        """A number that changes when another connection has written to the
        database since this one last asked (SQLite's ``PRAGMA data_version``):
        a reader knows when what it read before is still current."""
        return int(self._conn.execute("PRAGMA data_version").fetchone()[0])

    def games(self) -> list[GameRow]:
        """All stored games, oldest first."""
        return self._rows()

    def game(self, game_id: int) -> GameRow:
        """One game by number; ValueError if there is none."""
        rows = self._rows("WHERE id = ?", (game_id,))
        if not rows:
            raise ValueError(f"no game {game_id} in {self.path}")
        return rows[0]

    def unfinished(self) -> GameRow | None:
        """The newest game that has not ended, if any."""
        rows = self._rows("WHERE finished = 0")
        return rows[-1] if rows else None

    def newest_variant(self, names: Iterable[str]) -> str | None:
        """Which of the games ``names`` the newest stored game of any of
        them was (Deckle's ``swapper-chess`` or ``swapper-chess-10x8``);
        None when none is stored."""
        names = tuple(names)
        if not names or not self._has_variant():
            return None
        row = self._conn.execute(
            f"SELECT variant FROM games WHERE variant IN ({', '.join('?' * len(names))}) ORDER BY id DESC LIMIT 1",
            names).fetchone()
        return row[0] if row is not None else None

    def clock(self, game_id: int) -> ClockRow | None:
        """The game's latest stored clocks; None for a game without a clock
        (or a database from before clocks, opened for reading)."""
        if self._conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'clocks'").fetchone() is None:
            return None
        row = self._conn.execute(
            "SELECT control, ply, white_ms, black_ms FROM clocks WHERE game_id = ? ORDER BY ply DESC LIMIT 1",
            (game_id,)).fetchone()
        return ClockRow(*row) if row is not None else None

    def moves(self, game_id: int) -> list[str]:
        """The game's moves in canonical form, in order."""
        moves = [m for (m,) in self._conn.execute(
            "SELECT move FROM moves WHERE game_id = ? ORDER BY ply", (game_id,))]
        self._plies[game_id] = len(moves)
        return moves


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


def _remove(path: str) -> None:
    for name in (path, path + "-journal", path + "-wal", path + "-shm"):
        try:
            os.unlink(name)
        except OSError:
            pass
