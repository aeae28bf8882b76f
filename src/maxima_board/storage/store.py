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
from typing import Iterable

from .opening import Opener, transaction
from .storefile import BoardLock, Conflict, StoreError, describe

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


@dataclass(frozen=True)
class ReviewRow:
    """The engine's look at the position after ``ply`` moves of a game:
    ``score_cp`` or ``mate`` (in moves; 0: the side to move has lost) from
    the side to move's view, as UCI reports them; ``best``: its best move
    (canonical; None when the game is over there); ``search``: the search
    asked for ("level 8", "nodes 100000")."""

    ply: int
    score_cp: int | None
    mate: int | None
    best: str | None
    nodes: int
    search: str


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
        opener = Opener(self.path, self.label)
        if self.path == ":memory:":
            self._conn = sqlite3.connect(self.path, isolation_level=None)
            opener.create(self._conn)
        elif readonly:
            self._conn = opener.open_readonly()
        else:
            try:
                self._conn = opener.open_writer(lock, create_parent)
            except BaseException:
                if opener.lock is not None:
                    opener.lock.release()
                raise
            self._lock, self.message, self.moved_to = opener.lock, opener.message, opener.moved_to

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
        placed = False
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
            placed = True
        except (sqlite3.Error, OSError) as exc:
            raise StoreError(f"backup {dest}: {describe(exc, dest)}; nothing was replaced") from None
        finally:
            if not placed:
                target.close()
                _remove(tmp)
        return count

    def _release(self) -> None:
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    # ------------------------------------------------------------ writes
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
            return transaction(conn, body)
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
                    ("DELETE FROM reviews WHERE game_id = ? AND ply > ?", (game_id, ply)),
                    game_id=game_id, plies=ply + 1)
        self._plies[game_id] = ply

    def set_players(self, game_id: int, white: str, black: str) -> None:
        """The players' names of a game (the computer's side is named by its
        engine and level once it plays it)."""
        self._write("UPDATE games SET white = ?, black = ? WHERE id = ?", (white, black, game_id),
                    game_id=game_id, plies=self._plies.get(game_id))

    def set_event(self, game_id: int, event: str) -> None:
        """The game's Event tag (a remote game's: "Remote game <id>")."""
        self._write("UPDATE games SET event = ? WHERE id = ?", (event, game_id),
                    game_id=game_id, plies=self._plies.get(game_id))

    def finish(self, game_id: int, result: str, reason: str | None) -> None:
        """Record the game's end; it will not be resumed."""
        self._write("UPDATE games SET result = ?, reason = ?, finished = 1 WHERE id = ?",
                    (result, reason, game_id), game_id=game_id, plies=self._plies.get(game_id))

    def reopen(self, game_id: int) -> None:
        """Undo ``finish`` (a take-back after the game ended)."""
        self._write("UPDATE games SET result = '*', reason = NULL, finished = 0 WHERE id = ?", (game_id,),
                    game_id=game_id, plies=self._plies.get(game_id))

    def store_review(self, game_id: int, plies: int, rows: Iterable[ReviewRow]) -> None:
        """Store the review ``rows`` of a game beside it (a row of the same
        position is replaced); durable on return. Only if the game still has
        ``plies`` moves (a take-back since the review began: nothing is written)."""
        rows = list(rows)
        if not rows:
            return
        first, *more = [("INSERT OR REPLACE INTO reviews (game_id, ply, score_cp, mate, best, nodes, search) "
                         "VALUES (?, ?, ?, ?, ?, ?, ?)",
                         (game_id, r.ply, r.score_cp, r.mate, r.best, r.nodes, r.search)) for r in rows]
        self._write(*first, *more, game_id=game_id, plies=plies)

    def forget_review(self, game_id: int) -> None:
        """Forget a game's review (before one with another search)."""
        self._write("DELETE FROM reviews WHERE game_id = ?", (game_id,), game_id=game_id)

    # ------------------------------------------------------------ reads
    def _rows(self, where: str = "", params: tuple = (), order: str = "ORDER BY id") -> list[GameRow]:
        variant = _VARIANT_COLUMN if self._has_variant() else "'maxima'"
        rows = self._conn.execute(
            f"SELECT {_GAME_COLUMNS}, (SELECT COUNT(*) FROM moves WHERE game_id = games.id), {variant} "
            f"FROM games {where} {order}", params).fetchall()
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

    def games_page(self, before: int | None, limit: int) -> list[GameRow]:
        """At most ``limit`` games numbered below ``before`` (None: the
        newest), newest first: the rows' key (``id``) bounds the read, so a
        page costs the same whatever the number of games stored."""
        if before is None:
            return self._rows("", (limit,), "ORDER BY id DESC LIMIT ?")
        return self._rows("WHERE id < ?", (before, limit), "ORDER BY id DESC LIMIT ?")

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

    def _has_reviews(self) -> bool:
        return self._conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'reviews'").fetchone() is not None

    def review(self, game_id: int) -> list[ReviewRow]:
        """The stored review of a game, by position (empty for a game not
        reviewed, or a database from before reviews, opened for reading)."""
        if not self._has_reviews():
            return []
        return [ReviewRow(*row) for row in self._conn.execute(
            "SELECT ply, score_cp, mate, best, nodes, search FROM reviews WHERE game_id = ? ORDER BY ply",
            (game_id,))]

    def reviewed_count(self, game_id: int) -> int:
        """How many of a game's positions are reviewed (one indexed count)."""
        if not self._has_reviews():
            return 0
        return int(self._conn.execute("SELECT COUNT(*) FROM reviews WHERE game_id = ?", (game_id,)).fetchone()[0])

    def unreviewed(self) -> list[int]:
        """The finished games, oldest first, of which some position (the
        start and one after each move) has no review yet."""
        if not self._has_reviews():
            return []
        return [gid for (gid,) in self._conn.execute(
            "SELECT id FROM games WHERE finished = 1 AND "
            "(SELECT COUNT(*) FROM reviews WHERE game_id = games.id) < "
            "(SELECT COUNT(*) FROM moves WHERE game_id = games.id) + 1 ORDER BY id")]

    def moves(self, game_id: int) -> list[str]:
        """The game's moves in canonical form, in order."""
        moves = [m for (m,) in self._conn.execute(
            "SELECT move FROM moves WHERE game_id = ? ORDER BY ply", (game_id,))]
        self._plies[game_id] = len(moves)
        return moves


def _remove(path: str) -> None:
    for name in (path, path + "-journal", path + "-wal", path + "-shm"):
        try:
            os.unlink(name)
        except OSError:
            pass
