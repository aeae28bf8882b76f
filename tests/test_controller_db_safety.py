"""The games database never damages what is not ours (issue 13): ``--db``
naming a directory, a text file, another program's SQLite database, a file
that cannot be read, a path whose directory is missing; our identity
(application id, user_version, schema); moving aside only our damaged
database, only by a command that writes."""
from __future__ import annotations

import io
import os
import sqlite3
from pathlib import Path

import pytest

from maxima_board.cli.main import main
from maxima_board.storage.opening import SCHEMA_VERSION
from maxima_board.storage.store import GameStore
from maxima_board.storage.storefile import APPLICATION_ID, LEGACY_TABLES, NotOurs, StoreError
from maxima_board.rules import START_FEN


def snapshot(directory: Path) -> dict[str, tuple[bytes, int]]:
    """Every file under ``directory``: its bytes and mtime."""
    found = {}
    for root, dirs, files in os.walk(directory):
        for name in dirs + files:
            p = Path(root, name)
            found[str(p.relative_to(directory))] = (b"" if p.is_dir() else p.read_bytes(), p.stat().st_mtime_ns)
    return found


def main_file(directory: Path) -> dict[str, tuple[bytes, int]]:
    """The snapshot without the files SQLite and the board lock keep beside
    our own database (-wal, -shm, .lock)."""
    return {k: v for k, v in snapshot(directory).items() if not k.endswith(("-wal", "-shm", ".lock"))}


def run(capsys, monkeypatch, *args: str, stdin: str = "quit\n") -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


COMMANDS = (("sim",), ("games",), ("export",), ("export", "1"))


def refused_everywhere(capsys, monkeypatch, tmp_path: Path, db: Path, reason: str) -> None:
    """Every command refuses ``db`` with one line and exit 2, and nothing
    under ``tmp_path`` changes (bytes, mtimes, no new file)."""
    before = snapshot(tmp_path)
    for command in COMMANDS:
        code, out, err = run(capsys, monkeypatch, *command, "--db", str(db))
        assert code == 2, (command, out, err)
        assert err == f"maxima-board {command[0]}: --db {db}: not a maxima-board database ({reason})\n", command
        assert snapshot(tmp_path) == before, command
    with pytest.raises(NotOurs):
        GameStore(db)                       # the library refuses as well
    assert snapshot(tmp_path) == before


def our_game(path: Path, moves=("d3-d4", "d7-d6")) -> int:
    store = GameStore(path)
    gid = store.new_game(START_FEN)
    for i, m in enumerate(moves):
        store.append_move(gid, i, m, "fen")
    store.close()
    return gid


# ---------------------------------------------------------------- not ours
def test_a_directory_is_refused_and_left_alone(tmp_path, capsys, monkeypatch):
    db = tmp_path / "games.db"
    db.mkdir()
    (db / "inside.txt").write_text("mine")
    refused_everywhere(capsys, monkeypatch, tmp_path, db, "a directory")


def test_a_text_file_is_refused_and_left_alone(tmp_path, capsys, monkeypatch):
    db = tmp_path / "notes.txt"
    db.write_text("shopping: milk, eggs\n" * 20)
    refused_everywhere(capsys, monkeypatch, tmp_path, db, "not an SQLite database")


def test_a_short_binary_file_is_refused_and_left_alone(tmp_path, capsys, monkeypatch):
    db = tmp_path / "games.db"
    db.write_bytes(b"SQLite format")            # shorter than a header
    refused_everywhere(capsys, monkeypatch, tmp_path, db, "not an SQLite database")


@pytest.mark.parametrize("journal", ["delete", "wal"])
def test_another_programs_sqlite_database_with_its_application_id_is_refused(tmp_path, capsys, monkeypatch,
                                                                            journal):
    db = tmp_path / "photos.sqlite"
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("PRAGMA application_id=0x0f055112")
    conn.execute(f"PRAGMA journal_mode={journal}")
    conn.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT)")
    conn.execute("INSERT INTO photos (name) VALUES ('beach')")
    conn.close()
    refused_everywhere(capsys, monkeypatch, tmp_path, db,
                       "another program's SQLite database, application id 0x0f055112")


def test_an_sqlite_database_with_other_tables_is_refused(tmp_path, capsys, monkeypatch):
    db = tmp_path / "app.db"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
    conn.execute("CREATE TABLE tags (name TEXT)")
    conn.commit()
    conn.close()
    refused_everywhere(capsys, monkeypatch, tmp_path, db, "an SQLite database with other tables: notes, tags")


def test_an_sqlite_database_with_our_tables_and_more_is_refused(tmp_path, capsys, monkeypatch):
    """Our two table names in someone's database do not make it ours."""
    db = tmp_path / "mixed.db"
    conn = sqlite3.connect(db)
    for table, columns in LEGACY_TABLES.items():
        conn.execute(f"CREATE TABLE {table} ({', '.join(columns)})")
    conn.execute("CREATE TABLE accounts (id INTEGER)")
    conn.commit()
    conn.close()
    refused_everywhere(capsys, monkeypatch, tmp_path, db, "an SQLite database with other tables: accounts")


def test_tables_named_like_ours_with_other_columns_are_refused(tmp_path, capsys, monkeypatch):
    db = tmp_path / "chess.db"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, pgn TEXT)")
    conn.execute("CREATE TABLE moves (game INTEGER, san TEXT)")
    conn.execute("PRAGMA user_version=1")
    conn.commit()
    conn.close()
    refused_everywhere(capsys, monkeypatch, tmp_path, db, "its table games has no column start_fen")


def test_an_empty_sqlite_database_of_no_one_is_refused(tmp_path, capsys, monkeypatch):
    db = tmp_path / "blank.db"
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA user_version=7")       # forces a header page to be written
    conn.close()
    assert db.stat().st_size > 0
    refused_everywhere(capsys, monkeypatch, tmp_path, db, "an SQLite database without our tables")


def test_a_path_through_a_file_is_refused_and_nothing_is_created(tmp_path, capsys, monkeypatch):
    (tmp_path / "file").write_text("x")
    db = tmp_path / "file" / "games.db"
    before = snapshot(tmp_path)
    for command in COMMANDS:
        code, _, err = run(capsys, monkeypatch, *command, "--db", str(db))
        assert code == 2 and err.count("\n") == 1 and str(db) in err, (command, err)
    assert snapshot(tmp_path) == before


# ---------------------------------------------------------------- missing, empty
def test_a_missing_directory_is_not_created_for_an_explicit_path(tmp_path, capsys, monkeypatch):
    db = tmp_path / "typo" / "deeper" / "games.db"
    code, _, err = run(capsys, monkeypatch, "sim", "--db", str(db))
    assert code == 2
    assert err == f"maxima-board sim: --db {db}: directory {db.parent} does not exist\n"
    for command in (("games",), ("export",)):
        code, _, err = run(capsys, monkeypatch, *command, "--db", str(db))
        assert code == 2 and err == f"maxima-board {command[0]}: no games stored: {db} does not exist\n"
    assert os.listdir(tmp_path) == []


def test_the_default_location_is_created_by_a_writer_only(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("MAXIMA_BOARD_DB", raising=False)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    code, _, err = run(capsys, monkeypatch, "games")
    assert code == 2 and "no games stored" in err and not (tmp_path / "state").exists()
    code, out, _ = run(capsys, monkeypatch, "sim", stdin="lift d3\nplace d4\nwait 400\nquit\n")
    assert code == 0 and "move 1 d3-d4" in out
    assert GameStore(tmp_path / "state" / "maxima-board" / "games.db", readonly=True).moves(1) == ["d3-d4"]


def test_readers_on_a_missing_database_create_nothing(tmp_path, capsys, monkeypatch):
    db = tmp_path / "none.db"
    for command in COMMANDS[1:]:
        code, _, err = run(capsys, monkeypatch, *command, "--db", str(db))
        assert code == 2 and err == f"maxima-board {command[0]}: no games stored: {db} does not exist\n"
    assert os.listdir(tmp_path) == []


def test_an_empty_file_is_made_ours_by_a_writer_only(tmp_path, capsys, monkeypatch):
    db = tmp_path / "games.db"
    db.touch()
    for command in COMMANDS[1:]:
        code, _, err = run(capsys, monkeypatch, *command, "--db", str(db))
        assert code == 2 and err == f"maxima-board {command[0]}: no games stored: {db} is empty\n"
    assert db.stat().st_size == 0 and sorted(os.listdir(tmp_path)) == ["games.db"]
    code, out, _ = run(capsys, monkeypatch, "sim", "--db", str(db), stdin="lift d3\nplace d4\nwait 400\n")
    assert code == 0 and "move 1 d3-d4" in out
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    conn.close()


# ---------------------------------------------------------------- ours
def test_our_database_carries_our_application_id_and_schema_version(tmp_path):
    db = tmp_path / "games.db"
    our_game(db)
    header = db.read_bytes()[:100]
    assert int.from_bytes(header[68:72], "big") == APPLICATION_ID == 0x4D784264
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    conn.close()


def test_the_application_id_is_on_disk_before_anything_else(tmp_path):
    """A database killed right after creation is still recognisably ours:
    the id is written to the main file before the write-ahead log is used."""
    db = tmp_path / "games.db"
    store = GameStore(db)
    header = db.read_bytes()[:100]     # the store is open; nothing checkpointed
    assert int.from_bytes(header[68:72], "big") == APPLICATION_ID
    store.close()


def _legacy_database(path: Path) -> None:
    """A database as written before the application id: schema 1, WAL."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, start_fen TEXT NOT NULL, created TEXT NOT NULL,"
                 " event TEXT NOT NULL, site TEXT NOT NULL, date TEXT NOT NULL, round TEXT NOT NULL,"
                 " white TEXT NOT NULL, black TEXT NOT NULL, result TEXT NOT NULL DEFAULT '*', reason TEXT,"
                 " finished INTEGER NOT NULL DEFAULT 0)")
    conn.execute("CREATE TABLE moves (game_id INTEGER NOT NULL REFERENCES games(id), ply INTEGER NOT NULL,"
                 " move TEXT NOT NULL, fen TEXT NOT NULL, created TEXT NOT NULL, PRIMARY KEY (game_id, ply))")
    conn.execute("PRAGMA user_version=1")
    conn.execute("INSERT INTO games (start_fen, created, event, site, date, round, white, black) "
                 f"VALUES ('{START_FEN}', 'now', 'e', 's', 'd', 'r', 'W', 'B')")
    conn.execute("INSERT INTO moves VALUES (1, 0, 'd3-d4', 'f', 'now')")
    conn.close()


def test_a_database_from_before_the_application_id_is_read_as_is_and_upgraded_by_a_writer(
        tmp_path, capsys, monkeypatch):
    db = tmp_path / "games.db"
    _legacy_database(db)
    before = db.read_bytes()
    code, out, _ = run(capsys, monkeypatch, "games", "--db", str(db))
    assert code == 0 and "1 plies  playing" in out
    code, out, _ = run(capsys, monkeypatch, "export", "--db", str(db))
    assert code == 0 and "1. Pd3-d4 *" in out
    assert db.read_bytes() == before                    # readers wrote nothing
    code, out, _ = run(capsys, monkeypatch, "sim", "--db", str(db), stdin="lift d7\nplace d6\nwait 400\n")
    assert code == 0 and "game 1 resumed after 1 moves" in out and "move 2 d7-d6" in out
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    conn.close()


def test_a_newer_schema_is_refused_and_left_alone(tmp_path, capsys, monkeypatch):
    db = tmp_path / "games.db"
    our_game(db)
    conn = sqlite3.connect(db)
    conn.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    conn.close()
    before = main_file(tmp_path)
    for command in COMMANDS:
        code, _, err = run(capsys, monkeypatch, *command, "--db", str(db))
        assert code == 2 and "written by a newer maxima-board" in err and err.count("\n") == 1
    assert main_file(tmp_path) == before


def test_our_database_without_its_moves_table_is_refused_not_moved(tmp_path, capsys, monkeypatch):
    db = tmp_path / "games.db"
    our_game(db)
    conn = sqlite3.connect(db)
    conn.execute("DROP TABLE moves")
    conn.close()
    before = main_file(tmp_path)
    code, _, err = run(capsys, monkeypatch, "sim", "--db", str(db))
    assert code == 2 and "a maxima-board database without its table moves" in err
    code, _, err = run(capsys, monkeypatch, "games", "--db", str(db))
    assert code == 2 and "without its table moves" in err
    assert main_file(tmp_path) == before


def _damage(db: Path) -> bytes:
    store = GameStore(db)
    gid = store.new_game(START_FEN)
    for i in range(200):
        store.append_move(gid, i, f"m{i:04d}" + "x" * 100, "fen")
    store._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()
    data = bytearray(db.read_bytes())
    data[4096:8192] = b"\xba\xad\xf0\x0d" * 1024
    db.write_bytes(bytes(data))
    return bytes(data)


def test_our_damaged_database_is_moved_aside_by_sim_but_never_by_games_or_export(tmp_path, capsys, monkeypatch):
    db = tmp_path / "games.db"
    damaged = _damage(db)
    for command in COMMANDS[1:]:
        code, _, err = run(capsys, monkeypatch, *command, "--db", str(db))
        assert code == 2 and "damaged" in err and "nothing was changed" in err and err.count("\n") == 1
    assert db.read_bytes() == damaged and not list(tmp_path.glob("*unreadable*"))
    code, out, _ = run(capsys, monkeypatch, "sim", "--db", str(db), stdin="lift d3\nplace d4\nwait 400\n")
    assert code == 0 and "was damaged" in out and "move 1 d3-d4" in out
    (aside,) = tmp_path.glob("games.db.unreadable-*[0-9]")
    assert aside.read_bytes() == damaged                  # moved, never deleted
    assert GameStore(db, readonly=True).moves(1) == ["d3-d4"]


def test_our_database_opens_without_writing_anything(tmp_path):
    """Start-up must not write (a full disk would fail it): opening and
    closing a healthy database leaves its bytes as they were."""
    db = tmp_path / "games.db"
    our_game(db)
    before = db.read_bytes()
    for _ in range(2):
        store = GameStore(db, lock=True)
        assert store.moves(1) == ["d3-d4", "d7-d6"]
        store.close()
    assert db.read_bytes() == before


def test_a_reader_cannot_write(tmp_path):
    db = tmp_path / "games.db"
    our_game(db)
    store = GameStore(db, readonly=True)
    with pytest.raises(StoreError, match="reading only"):
        store.append_move(1, 2, "c3-c4", "f")
    with pytest.raises(sqlite3.OperationalError, match="readonly|read-only|query_only"):
        store._conn.execute("DELETE FROM moves")
    store.close()
    assert GameStore(db, readonly=True).moves(1) == ["d3-d4", "d7-d6"]
