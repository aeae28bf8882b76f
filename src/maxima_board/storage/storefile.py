"""The games database as a file: what a path holds before anything is
written to it, the lock a board process holds on it, and its faults in
words a user can act on.

Our databases carry ``PRAGMA application_id`` = :data:`APPLICATION_ID` from
their first byte on (it is set before anything else), and ``user_version``
= the schema version. Databases written before the application id existed
(schema 1) are recognised by holding exactly our two tables with our
columns. Anything else is another program's file and is never opened for
writing, moved or given a lock file.

This package (``storefile``, ``opening``, ``store``) owns the database file and the
``-wal`` and ``-shm`` files SQLite keeps beside it; nothing else in a
board process may open them except through SQLite (``os.stat`` is fine).
The reason is POSIX record locks: they belong to a process, not to a
descriptor, and closing *any* descriptor of a file drops every lock the
process holds on it. A plain ``open(db).close()`` in the web page's thread
once dropped the board's own SQLite locks; the next outside connection to
close then believed it was the last one, checkpointed and deleted the
write-ahead log, and the board went on committing acknowledged moves into
a deleted file. SQLite's own connections share one descriptor per file
within a process and never close it while another connection holds a
lock, so ``identify`` reads the header through SQLite (``immutable=1``:
nothing written, nothing created). The board lock (:class:`BoardLock`) is
a ``flock`` on its own ``.lock`` file, which closing another descriptor
does not release; copies of a live database are made with
``maxima-board backup`` (SQLite's online backup), never by copying files.
"""
from __future__ import annotations

import errno
import fcntl
import os
import resource
import sqlite3
import stat
from dataclasses import dataclass
from pathlib import Path

APPLICATION_ID = 0x4D784264          # "MxBd"

# Schema 1 as written before the application id: exactly these tables, at
# least these columns. Fixed forever; later schemas carry the application id.
LEGACY_TABLES = {
    "games": ("id", "start_fen", "created", "event", "site", "date", "round", "white", "black",
              "result", "reason", "finished"),
    "moves": ("game_id", "ply", "move", "fen", "created"),
}

# SQLite primary result codes (sqlite3.h); extended codes keep them in the low byte.
_PERM, _BUSY, _LOCKED, _READONLY, _IOERR, _CORRUPT, _FULL, _CANTOPEN, _AUTH, _NOTADB = \
    3, 5, 6, 8, 10, 11, 13, 14, 23, 26


class StoreError(OSError):
    """The games database cannot be used as asked. The message is one line;
    nothing was moved or deleted."""


class NotOurs(StoreError):
    """The path holds something that is not a maxima-board database."""


class InUse(StoreError):
    """Another board process holds the database."""


class Conflict(StoreError):
    """The stored game is not what this process believes: another process
    changed it. Nothing was written."""


@dataclass(frozen=True)
class Found:
    """What a database path holds: ``kind`` is ``"ours"``, ``"empty"`` (a
    0-byte file), ``"missing"`` or ``"no-parent"`` (its directory is
    missing too). ``legacy``: ours, from before the application id."""

    kind: str
    legacy: bool = False


def identify(path: str, label: str) -> Found:
    """What ``path`` holds, found without writing anything and without
    creating any file. Raises :class:`NotOurs` for anything that is not
    ours, :class:`StoreError` when the file cannot be looked at."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        parent = os.path.dirname(os.path.abspath(path))
        return Found("missing" if os.path.isdir(parent) else "no-parent")
    except NotADirectoryError:
        raise StoreError(f"{label}: a part of the path is a file, not a directory") from None
    except OSError as exc:
        raise StoreError(f"{label}: cannot look at it: {_os_reason(exc)}") from None
    if stat.S_ISDIR(st.st_mode):
        raise NotOurs(f"{label}: not a maxima-board database (a directory)")
    if not stat.S_ISREG(st.st_mode):
        raise NotOurs(f"{label}: not a maxima-board database (not a regular file)")
    if st.st_size == 0:
        if _size(path + "-wal"):
            raise NotOurs(f"{label}: not a maxima-board database "
                          f"(an empty file beside a write-ahead log that is not ours)")
        return Found("empty")
    app_id, version, tables = _header(path, label)
    if app_id == APPLICATION_ID:
        return Found("ours")
    if app_id != 0:
        raise NotOurs(f"{label}: not a maxima-board database "
                      f"(another program's SQLite database, application id {app_id:#010x})")
    names = set(tables)
    if names != set(LEGACY_TABLES) or version not in (0, 1):
        other = sorted(names - set(LEGACY_TABLES))
        if other:
            shown = ", ".join(other[:4]) + (", …" if len(other) > 4 else "")
            detail = f"an SQLite database with other tables: {shown}"
        elif names:
            detail = f"an SQLite database with user_version {version}"
        else:
            detail = "an SQLite database without our tables"
        raise NotOurs(f"{label}: not a maxima-board database ({detail})")
    for table, columns in LEGACY_TABLES.items():
        missing = [c for c in columns if c not in tables[table]]
        if missing:
            raise NotOurs(f"{label}: not a maxima-board database "
                          f"(its table {table} has no column {missing[0]})")
    return Found("ours", legacy=True)


def _header(path: str, label: str) -> tuple[int, int, dict[str, list[str]]]:
    """The file's application id, user_version and tables (name → columns),
    read through SQLite without writing or creating a file: from the main
    file alone (``immutable``), or, when that holds no table but a
    write-ahead log lies beside it, through a read-only connection."""
    if not os.access(path, os.R_OK):
        raise StoreError(f"{label}: cannot read it: permission denied")
    uri = Path(path).absolute().as_uri()
    found = _read_header(uri + "?immutable=1", label)
    if not found[2] and _size(path + "-wal"):
        found = _read_header(uri + "?mode=ro", label)
    return found


def _read_header(uri: str, label: str) -> tuple[int, int, dict[str, list[str]]]:
    try:
        conn = sqlite3.connect(uri, uri=True, isolation_level=None)
    except sqlite3.Error as exc:
        raise StoreError(f"{label}: cannot open it: {exc}") from None
    try:
        try:
            app_id = conn.execute("PRAGMA application_id").fetchone()[0]
            version = conn.execute("PRAGMA user_version").fetchone()[0]
        except sqlite3.Error as exc:
            if _primary(exc) == _NOTADB:
                raise NotOurs(f"{label}: not a maxima-board database (not an SQLite database)") from None
            raise StoreError(f"{label}: cannot read it: {exc}") from None
        if app_id == APPLICATION_ID:
            return app_id, version, {}
        try:
            names = [n for (n,) in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
            tables = {n: [row[1] for row in conn.execute("SELECT * FROM pragma_table_info(?)", (n,))]
                      for n in names}
        except sqlite3.Error as exc:
            raise NotOurs(f"{label}: not a maxima-board database "
                          f"(an SQLite file that cannot be read: {exc})") from None
        return app_id, version, tables
    finally:
        conn.close()


def _size(path: str) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


# ---------------------------------------------------------------- the lock
class BoardLock:
    """An exclusive ``flock`` on ``<db>.lock``, held by one board process
    for its lifetime.

    A lock file rather than an exclusive SQLite lock: SQLite's exclusive
    locking mode would keep ``games`` and ``export`` out while the board
    runs, whereas a flock on a separate file leaves the database to SQLite's
    own WAL locking, so readers work. The kernel drops the flock when the
    process ends, even by SIGKILL or a power cut, so a stale lock never
    blocks a restart; the file itself (it holds the holder's pid) stays.
    """

    def __init__(self, db_path: str):
        self.path = db_path + ".lock"
        try:
            try:
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
            except PermissionError:     # another user's lock file: flock needs no write access
                fd = os.open(self.path, os.O_RDONLY | os.O_CLOEXEC)
        except OSError as exc:
            raise StoreError(f"database {db_path}: cannot create its lock file {self.path}: "
                             f"{_os_reason(exc)}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "unknown"
            os.close(fd)
            raise InUse(f"database {db_path} is in use by another board process (pid {holder})") from None
        except OSError as exc:
            os.close(fd)
            raise StoreError(f"database {db_path}: cannot lock {self.path}: {_os_reason(exc)}") from None
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        except OSError:
            pass            # the pid is a courtesy; the flock is the lock
        self._fd: int | None = fd

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)          # closing drops the flock
            self._fd = None


# ---------------------------------------------------------------- faults
def is_corrupt(exc: sqlite3.Error) -> bool:
    """SQLite says the file's content is damaged (not: cannot be written)."""
    return _primary(exc) in (_CORRUPT, _NOTADB)


def describe(exc: BaseException, path: str) -> str:
    """Why a database operation failed, in a user's words: disk full, file
    too large, read-only, permission denied, busy, damaged, I/O error."""
    text = str(exc) if not isinstance(exc, OSError) or isinstance(exc, StoreError) else _os_reason(exc)
    code = _primary(exc) if isinstance(exc, sqlite3.Error) else None
    if code in (_CORRUPT, _NOTADB):
        return f"damaged ({text})"
    if code in (_BUSY, _LOCKED):
        return f"busy: another process is writing to it ({text})"
    if code == _FULL:
        return f"disk full ({text})"
    if code in (_PERM, _AUTH, _READONLY, _IOERR, _CANTOPEN) or isinstance(exc, OSError):
        found = _diagnose(path, text)
        if found.startswith("I/O error") and code == _READONLY:
            return f"read-only ({text})"
        if found.startswith("I/O error") and code in (_PERM, _AUTH):
            return f"permission denied ({text})"
        return found
    return text


def unwritable(path: str) -> str | None:
    """Why this process cannot write the database at ``path`` (and the
    files SQLite keeps beside it), or None when nothing stands in the way."""
    directory = os.path.dirname(os.path.abspath(path))
    try:
        if os.statvfs(directory).f_flag & os.ST_RDONLY:
            return "read-only file system"
    except OSError:
        pass
    for name in (path, path + "-wal", path + "-shm"):
        if os.path.exists(name) and not os.access(name, os.W_OK):
            return f"read-only: permission denied, this user may not write {name}"
    if not os.access(directory, os.W_OK | os.X_OK):
        return f"permission denied: this user may not write in {directory}"
    return None


def _diagnose(path: str, text: str) -> str:
    """Look at the file system for the cause of an I/O failure: SQLite's
    own text ("disk I/O error") does not say it."""
    if path == ":memory:":
        return text
    directory = os.path.dirname(os.path.abspath(path))
    problem = unwritable(path)
    if problem:
        return f"{problem} ({text})"
    try:
        if os.statvfs(directory).f_bavail == 0:
            return f"disk full ({text})"
    except OSError:
        pass
    limit = resource.getrlimit(resource.RLIMIT_FSIZE)[0]
    if limit != resource.RLIM_INFINITY:
        biggest = max(_size(path), _size(path + "-wal"), 32768)     # 32 KiB: the -shm file
        if biggest + 65536 > limit:
            return f"file too large: the file-size limit (RLIMIT_FSIZE) is {limit} bytes ({text})"
    if os.path.exists(path) and not os.access(path, os.R_OK):
        return f"permission denied: this user may not read it ({text})"
    return f"I/O error ({text})"


def _primary(exc: sqlite3.Error) -> int | None:
    code = getattr(exc, "sqlite_errorcode", None)
    return None if code is None else code & 0xFF


def _os_reason(exc: OSError) -> str:
    words = {errno.ENOSPC: "disk full", errno.EFBIG: "file too large", errno.EROFS: "read-only file system",
             errno.EACCES: "permission denied", errno.EPERM: "permission denied"}
    reason = words.get(exc.errno or 0)
    detail = exc.strerror or str(exc)
    if not reason:
        return detail
    return reason if reason == detail.lower() else f"{reason} ({detail})"
