"""Stored games: one SQLite database (stdlib sqlite3, WAL, synchronous FULL).

Every write is its own transaction and is on disk when the method returns,
so a move the controller acknowledges survives a crash or a power cut.
A database that cannot be read is moved aside, never deleted, and a new one
is started; ``GameStore.message`` then says what happened.
"""
from __future__ import annotations

import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

SCHEMA_VERSION = 2   # 2: the clocks table (a version-1 database gains it on opening)

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
    finished INTEGER NOT NULL DEFAULT 0
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

_GAME_COLUMNS = "id, start_fen, created, event, site, date, round, white, black, result, reason, finished"


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


class _Unreadable(Exception):
    """The database file exists but is not a game database we can use."""


class GameStore:
    """The games database at ``path`` (``":memory:"`` for a throw-away one)."""

    def __init__(self, path: str | os.PathLike[str]):
        self.path = str(path)
        self.message: str | None = None
        self.moved_to: str | None = None
        try:
            self._conn = self._open()
        except _Unreadable as exc:
            self.moved_to = self._move_aside()
            self.message = (f"the game database {self.path} could not be read ({exc}); "
                            f"it was moved to {self.moved_to} and a new one started")
            self._conn = self._open()

    # ------------------------------------------------------------ opening
    def _open(self) -> sqlite3.Connection:
        memory = self.path == ":memory:"
        if not memory:
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        try:
            conn = sqlite3.connect(self.path, timeout=5.0, isolation_level=None)
        except sqlite3.OperationalError as exc:
            if os.path.exists(self.path):
                raise _Unreadable(str(exc)) from None
            raise OSError(f"cannot open the game database {self.path}: {exc}") from None
        try:
            if not memory:
                mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
                if str(mode).lower() != "wal":
                    raise sqlite3.DatabaseError(f"journal mode is {mode}, not WAL")
            conn.execute("PRAGMA synchronous=FULL")
            check = conn.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                raise sqlite3.DatabaseError(f"integrity check failed: {check}")
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise sqlite3.DatabaseError(f"schema version {version} is newer than this program's")
            conn.executescript(_SCHEMA)
            conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            conn.execute(f"SELECT {_GAME_COLUMNS} FROM games LIMIT 0").fetchall()
            conn.execute("SELECT game_id, ply, move, fen, created FROM moves LIMIT 0").fetchall()
            conn.execute("SELECT game_id, ply, control, white_ms, black_ms FROM clocks LIMIT 0").fetchall()
        except sqlite3.DatabaseError as exc:
            conn.close()
            if _busy(exc):
                raise OSError(f"the game database {self.path} is busy: {exc}") from None
            raise _Unreadable(str(exc)) from None
        return conn

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
            raise OSError(f"the game database {self.path} cannot be read and cannot be moved aside: "
                          f"{exc.strerror or exc}") from None
        return target

    def close(self) -> None:
        self._conn.close()

    # ------------------------------------------------------------ writes
    def _write(self, sql: str, params: tuple, *more: tuple[str, tuple]) -> sqlite3.Cursor:
        """``sql`` and ``more`` statements in one transaction; the cursor of the first."""
        conn = self._conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            cur = conn.execute(sql, params)
            for other in more:
                conn.execute(*other)
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        return cur

    def new_game(self, start_fen: str, event: str = "Casual game", site: str = "", round: str = "-",
                 white: str = "White", black: str = "Black",
                 clock: tuple[str, int, int] | None = None) -> int:
        """Store a new unfinished game and return its number; ``clock``:
        (time control, White's ms, Black's ms) at the start, if it has one."""
        created = time.strftime("%Y-%m-%dT%H:%M:%S")
        more = [] if clock is None else [
            ("INSERT INTO clocks (game_id, ply, control, white_ms, black_ms) "
             "VALUES (last_insert_rowid(), 0, ?, ?, ?)", clock)]
        cur = self._write(
            "INSERT INTO games (start_fen, created, event, site, date, round, white, black) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (start_fen, created, event, site, time.strftime("%Y.%m.%d"), round, white, black), *more)
        return int(cur.lastrowid)

    def append_move(self, game_id: int, ply: int, move: str, fen: str,
                    clock: tuple[str, int, int] | None = None) -> None:
        """Store move number ``ply`` (0 = the game's first move) and the
        clocks after it (time control, White's ms, Black's ms); durable on return."""
        more = [] if clock is None else [
            ("INSERT OR REPLACE INTO clocks (game_id, ply, control, white_ms, black_ms) VALUES (?, ?, ?, ?, ?)",
             (game_id, ply + 1, *clock))]
        self._write("INSERT INTO moves (game_id, ply, move, fen, created) VALUES (?, ?, ?, ?, ?)",
                    (game_id, ply, move, fen, time.strftime("%Y-%m-%dT%H:%M:%S")), *more)

    def take_back(self, game_id: int, ply: int) -> None:
        """Forget move ``ply`` of the game (the last one) and the clocks
        after it; durable on return."""
        self._write("DELETE FROM moves WHERE game_id = ? AND ply >= ?", (game_id, ply),
                    ("DELETE FROM clocks WHERE game_id = ? AND ply > ?", (game_id, ply)))

    def finish(self, game_id: int, result: str, reason: str | None) -> None:
        """Record the game's end; it will not be resumed."""
        self._write("UPDATE games SET result = ?, reason = ?, finished = 1 WHERE id = ?",
                    (result, reason, game_id))

    def reopen(self, game_id: int) -> None:
        """Undo ``finish`` (a take-back after the game ended)."""
        self._write("UPDATE games SET result = '*', reason = NULL, finished = 0 WHERE id = ?", (game_id,))

    # ------------------------------------------------------------ reads
    def _rows(self, where: str = "", params: tuple = ()) -> list[GameRow]:
        rows = self._conn.execute(
            f"SELECT {_GAME_COLUMNS}, (SELECT COUNT(*) FROM moves WHERE game_id = games.id) "
            f"FROM games {where} ORDER BY id", params).fetchall()
        return [GameRow(*row[:11], bool(row[11]), row[12]) for row in rows]

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

    def clock(self, game_id: int) -> ClockRow | None:
        """The game's latest stored clocks; None for a game without a clock."""
        row = self._conn.execute(
            "SELECT control, ply, white_ms, black_ms FROM clocks WHERE game_id = ? ORDER BY ply DESC LIMIT 1",
            (game_id,)).fetchone()
        return ClockRow(*row) if row is not None else None

    def moves(self, game_id: int) -> list[str]:
        """The game's moves in canonical form, in order."""
        return [m for (m,) in self._conn.execute(
            "SELECT move FROM moves WHERE game_id = ? ORDER BY ply", (game_id,))]


def _busy(exc: sqlite3.DatabaseError) -> bool:
    text = str(exc).lower()
    return "locked" in text or "busy" in text
