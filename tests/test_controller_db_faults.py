"""The games database under faults (issue 13): two processes on one
database, a full disk, a file-size limit, a database the board's user may
read but not write. Each is reported as what it is, nothing is moved aside,
no acknowledged move is lost, and the game resumes once the fault is gone."""
from __future__ import annotations

import json
import os
import resource
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from maxima_board.board.core import Controller
from maxima_board.service.script import Runner
from maxima_board.board.settings import Settings
from maxima_board.storage.store import GameStore
from maxima_board.storage.storefile import Conflict, InUse, StoreError
from maxima_board.rules import START_FEN
from tests.test_controller_crash import ACK, STARTED, Sim
from tests.test_hw_board_cmds import matrix, recorder  # noqa: F401  (fixtures)

ROOT = Path(__file__).resolve().parent.parent


def cli(*args: str, stdin: str = "", **kwargs) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([kwargs.pop("python", sys.executable), "-m", "maxima_board.cli.main", *args], input=stdin,
                          text=True, capture_output=True, cwd=ROOT, env=env, timeout=60, **kwargs)


def our_game(path: Path, moves=("d3-d4",)) -> None:
    store = GameStore(path)
    gid = store.new_game(START_FEN)
    for i, m in enumerate(moves):
        store.append_move(gid, i, m, "fen")
    store.close()


def files(directory: Path) -> dict[str, bytes]:
    """The files that matter: our database and anything moved aside, by
    content (the -wal/-shm/lock files SQLite and the lock keep are left out)."""
    return {p.name: p.read_bytes() for p in directory.iterdir()
            if p.is_file() and not p.name.endswith(("-wal", "-shm", ".lock"))}


# ---------------------------------------------------------------- two processes
def test_a_second_board_process_is_refused_while_readers_work(tmp_path):
    db = tmp_path / "games.db"
    first = Sim(db)
    seen: list[str] = []
    try:
        first.expect(STARTED, 10, seen)
        first.send("lift d3\nplace d4\nwait 400\n")
        assert first.expect(ACK, 10, seen).group(2) == "d3-d4"

        second = cli("sim", "--db", str(db), stdin="lift d7\nplace d6\nwait 400\npress back\npress back\n")
        assert second.returncode == 2 and second.stdout == ""
        assert second.stderr == (f"maxima-board sim: database {db} is in use by another board "
                                 f"process (pid {first.proc.pid})\n")
        # readers work while the board runs, and see its move
        games = cli("games", "--db", str(db))
        assert games.returncode == 0 and "1 plies  playing" in games.stdout, games.stderr
        export = cli("export", "--db", str(db))
        assert export.returncode == 0 and "1. Pd3-d4 *" in export.stdout

        first.send("lift d7\nplace d6\nwait 400\n")
        assert first.expect(ACK, 10, seen).group(2) == "d7-d6"
        assert GameStore(db, readonly=True).moves(1) == ["d3-d4", "d7-d6"]
        first.send("quit\n")
        assert first.proc.wait(timeout=10) == 0
    finally:
        if first.proc.poll() is None:
            first.kill()
    # once the first has ended, the next board takes over the game
    third = cli("sim", "--db", str(db), stdin="quit\n")
    assert third.returncode == 0 and "game 1 resumed after 2 moves" in third.stdout


def test_the_lock_dies_with_a_killed_board_process(tmp_path):
    db = tmp_path / "games.db"
    first = Sim(db)
    first.expect(STARTED, 10, [])
    first.kill()
    again = cli("sim", "--db", str(db), stdin="quit\n")
    assert again.returncode == 0 and "game 1 resumed after 0 moves" in again.stdout, again.stderr


def test_the_lock_is_taken_only_for_a_file_that_is_ours(tmp_path):
    db = tmp_path / "notes.txt"
    db.write_text("not a game\n")
    with pytest.raises(StoreError, match="not a maxima-board database"):
        GameStore(db, lock=True)
    assert sorted(os.listdir(tmp_path)) == ["notes.txt"]


def test_a_second_lock_in_the_same_process_is_refused_too(tmp_path):
    db = tmp_path / "games.db"
    holder = GameStore(db, lock=True)
    with pytest.raises(InUse, match=rf"database {db} is in use by another board process \(pid {os.getpid()}\)"):
        GameStore(db, lock=True)
    # The refused attempt opened and closed the lock file in this process: the
    # flock (per open file, unlike POSIX record locks) still holds for others.
    other = subprocess.run([sys.executable, "-c", "import fcntl, sys; f = open(sys.argv[1], 'a');"
                            "fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)", f"{db}.lock"],
                           capture_output=True, text=True, timeout=30)
    assert other.returncode != 0 and "BlockingIOError" in other.stderr
    holder.close()
    GameStore(db, lock=True).close()


def test_writes_from_a_stale_view_change_nothing(tmp_path):
    """Every write checks the game's stored move count: a process that
    missed another's moves gets a clear error, not "UNIQUE constraint
    failed", and deletes nothing."""
    db = tmp_path / "games.db"
    a = GameStore(db)
    gid = a.new_game(START_FEN)
    a.append_move(gid, 0, "d3-d4", "f")
    b = GameStore(db)
    assert b.moves(gid) == ["d3-d4"]                        # b believes: 1 move
    for ply, move in enumerate(("d7-d6", "c3-c4", "c7-c6"), 1):
        a.append_move(gid, ply, move, "f")
    expected = rf"game {gid} has 4 moves stored, this board expected 1: another process has changed it"
    with pytest.raises(Conflict, match=expected):
        b.take_back(gid, 0)
    with pytest.raises(Conflict, match=r"has 4 moves stored, this board expected 1"):
        b.append_move(gid, 1, "e3-e4", "f")
    with pytest.raises(Conflict, match=expected):
        b.finish(gid, "1-0", "resignation")
    with pytest.raises(Conflict, match=r"has 4 moves stored, this board expected 3"):
        a.take_back(gid, 2)                                # not the last move
    assert a.moves(gid) == ["d3-d4", "d7-d6", "c3-c4", "c7-c6"]
    assert not a.game(gid).finished
    with pytest.raises(Conflict, match="game 99 is not stored"):
        a.append_move(99, 0, "d3-d4", "f")


def test_a_board_with_a_stale_view_cannot_take_back_anothers_moves(tmp_path):
    """The measured fault: a second board resumed the first one's game and
    its BACK deleted moves the first had acknowledged."""
    db = tmp_path / "games.db"
    first = Runner(Settings(), store=GameStore(db))
    first.lift("d3"), first.place("d4"), first.wait(400)
    resumed = Controller(Settings(), GameStore(db), now_ms=0)      # resumes game 1 after d3-d4
    second = Runner.attach(resumed, set(resumed.expected_squares), 0)
    second.wait(400)
    assert resumed.mode == "play" and resumed.moves == ["d3-d4"]
    for lifts, place in ((("d7",), "d6"), (("c3",), "c4"), (("c7",), "c6")):
        for sq in lifts:
            first.lift(sq)
        first.place(place)
        first.wait(400)
    events = second.press("back")
    assert not [e for e in events if e["type"] == "takeback"]
    assert any(e["type"] == "error" and "another process has changed it" in e["text"] for e in events)
    assert "game 1 has 4 moves" in " ".join(resumed.display)
    assert GameStore(db, readonly=True).moves(1) == ["d3-d4", "d7-d6", "c3-c4", "c7-c6"]


# ---------------------------------------------------------------- a full disk
def test_a_full_database_says_disk_full_not_cannot_rollback(tmp_path):
    db = tmp_path / "games.db"
    store = GameStore(db)
    gid = store.new_game(START_FEN)
    pages = store._conn.execute("PRAGMA page_count").fetchone()[0]
    store._conn.execute(f"PRAGMA max_page_count={pages}")     # SQLite's own "disk full"
    stored = 0
    with pytest.raises(StoreError) as failure:
        for stored in range(1000):
            store.append_move(gid, stored, f"move{stored:03d}" + "x" * 200, "fen")
    message = str(failure.value)
    assert "disk full" in message and "cannot rollback" not in message
    assert message.startswith("disk full") and message.endswith(f"(game database {db})")
    store._conn.execute("PRAGMA max_page_count=1000000")     # space returns
    store.append_move(gid, stored, "after", "fen")
    store.close()
    assert GameStore(db, readonly=True).moves(gid)[-2:] == [f"move{stored - 1:03d}" + "x" * 200, "after"]
    assert files(tmp_path).keys() == {"games.db"}


def _limit(size: int):
    return lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (size, resource.RLIM_INFINITY))


def test_a_file_size_limit_at_start_up_moves_nothing_and_the_game_resumes_later(tmp_path):
    db = tmp_path / "games.db"
    our_game(db, ("d3-d4", "d7-d6"))
    before = files(tmp_path)
    r = cli("sim", "--db", str(db), stdin="lift c3\nplace c4\nwait 400\n", preexec_fn=_limit(4096))
    assert r.returncode == 2 and r.stdout == "" and r.stderr.count("\n") == 1, r.stderr
    assert "file too large" in r.stderr and "nothing was changed" in r.stderr and "Traceback" not in r.stderr
    assert files(tmp_path) == before                        # nothing moved aside, nothing changed
    r = cli("sim", "--db", str(db), stdin="lift c3\nplace c4\nwait 400\n")
    assert "game 1 resumed after 2 moves" in r.stdout and "move 3 c3-c4" in r.stdout
    assert GameStore(db, readonly=True).moves(1) == ["d3-d4", "d7-d6", "c3-c4"]


MID_GAME = r"""
import json, random, resource, sys
from maxima_board.board.core import Controller
from maxima_board.service.script import Runner
from maxima_board.board.settings import Settings
from maxima_board.storage.store import GameStore
from maxima_board.rules import Position
from tests.test_controller_crash import _hands

db = sys.argv[1]
store = GameStore(db, lock=True)
runner = Runner(Settings(), store=store)
position = Position()
acked, errors = [], []
rng = random.Random(7)
sizes = [__import__("os").path.getsize(db + s) for s in ("", "-wal", "-shm")]
resource.setrlimit(resource.RLIMIT_FSIZE, (max(sizes), resource.RLIM_INFINITY))
for _ in range(60):
    move = rng.choice(position.legal_moves)
    events = []
    for step in _hands(position, move).splitlines():
        word, arg = step.split()
        events += getattr(runner, word)(int(arg) if word == "wait" else arg)
    if [e for e in events if e["type"] == "move"]:
        acked.append(str(move))
        position.push(move)
        continue
    errors = [e["text"] for e in events if e["type"] == "error"]
    break
display = " ".join(runner.controller.display)
resource.setrlimit(resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))   # space returns
events = runner.press("ok") + runner.wait(400)
after = [e["move"] for e in events if e["type"] == "move"]
store.close()
print(json.dumps({"acked": acked, "errors": errors, "display": display, "after": after}))
"""


def test_a_file_size_limit_mid_game_is_reported_and_the_move_is_stored_when_it_is_lifted(tmp_path):
    db = tmp_path / "games.db"
    GameStore(db).close()
    script = tmp_path / "mid_game.py"
    script.write_text(MID_GAME)
    r = subprocess.run([sys.executable, str(script), str(db)], text=True, capture_output=True, cwd=ROOT,
                       env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=120)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["errors"], "the limit was never reached"
    assert any("file too large" in e for e in out["errors"]), out["errors"]
    assert "Cannot save the move" in out["display"]          # the board says so
    assert len(out["after"]) == 1                             # stored once the limit was lifted
    assert GameStore(db, readonly=True).moves(1) == out["acked"] + out["after"]
    assert files(tmp_path).keys() == {"games.db", "mid_game.py"}


DISK_FULL = r"""
import json, os, subprocess, sys
from maxima_board.storage.store import GameStore
from maxima_board.rules import START_FEN

directory, python = sys.argv[1], sys.argv[2]
db = os.path.join(directory, "games.db")
store = GameStore(db)
gid = store.new_game(START_FEN)
store.append_move(gid, 0, "d3-d4", "fen")
store.close()
healthy = open(db, "rb").read()
fd = os.open(os.path.join(directory, "filler"), os.O_WRONLY | os.O_CREAT)   # fill the disk
try:
    while True:
        os.write(fd, b"\0" * 4096)
except OSError:
    os.close(fd)
def sim(stdin):
    return subprocess.run([python, "-m", "maxima_board.cli.main", "sim", "--db", db], input=stdin, text=True,
                          capture_output=True, timeout=60)
full = sim("lift d7\nplace d6\nwait 400\n")
names_full = sorted(os.listdir(directory))
unchanged = open(db, "rb").read() == healthy
os.remove(os.path.join(directory, "filler"))                  # space returns
later = sim("lift d7\nplace d6\nwait 400\n")
moves = GameStore(db, readonly=True).moves(gid)
print(json.dumps({"full": [full.returncode, full.stdout, full.stderr], "names_full": names_full,
                  "unchanged": unchanged, "later": [later.returncode, later.stdout, later.stderr],
                  "moves": moves}))
"""


def test_a_full_disk_at_start_up_moves_nothing_and_the_game_resumes_later(tmp_path):
    """A real full file system: a small tmpfs mounted in a user namespace."""
    out = _in_a_tmpfs(tmp_path, DISK_FULL)
    code, stdout, stderr = out["full"]
    assert code == 2 and stderr.count("\n") == 1 and "disk full" in stderr, stderr
    assert "nothing was changed" in stderr and "Traceback" not in stderr
    assert out["unchanged"] and not [n for n in out["names_full"] if "unreadable" in n]
    code, stdout, stderr = out["later"]
    assert code == 0 and "game 1 resumed after 1 moves" in stdout and "move 2 d7-d6" in stdout, stderr
    assert out["moves"] == ["d3-d4", "d7-d6"]


READ_ONLY_FS = r"""
import json, os, subprocess, sys
from maxima_board.storage.store import GameStore
from maxima_board.rules import START_FEN

directory, python = sys.argv[1], sys.argv[2]
db = os.path.join(directory, "games.db")
store = GameStore(db)
store.append_move(store.new_game(START_FEN), 0, "d3-d4", "fen")
store.close()
subprocess.run(["mount", "-o", "remount,ro", directory], check=True)
def cli(*args):
    r = subprocess.run([python, "-m", "maxima_board.cli.main", *args, "--db", db], input="quit\n", text=True,
                       capture_output=True, timeout=60)
    return [r.returncode, r.stdout, r.stderr]
print(json.dumps({"sim": cli("sim"), "games": cli("games"), "names": sorted(os.listdir(directory))}))
"""


def _in_a_tmpfs(tmp_path: Path, driver: str) -> dict:
    """Run ``driver`` (Python source) with a fresh small tmpfs as its first
    argument, in a user and mount namespace; its JSON output."""
    unshare = shutil.which("unshare")
    if unshare is None:
        pytest.skip("needs unshare(1) to mount a small tmpfs")
    mount = tmp_path / "disk"
    mount.mkdir()
    script = tmp_path / "driver.py"
    script.write_text(driver)
    probe = subprocess.run([unshare, "-rm", "sh", "-c", f"mount -t tmpfs -o size=256k tmpfs {mount}"],
                           capture_output=True, text=True)
    if probe.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs in a user namespace here: {probe.stderr.strip()}")
    r = subprocess.run([unshare, "-rm", "sh", "-c",
                        'mount -t tmpfs -o size=256k tmpfs "$1" && exec "$2" "$3" "$1" "$2"',
                        "sh", str(mount), sys.executable, str(script)],
                       text=True, capture_output=True, cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)),
                       timeout=180)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_a_read_only_file_system_is_named_and_games_still_reads(tmp_path):
    out = _in_a_tmpfs(tmp_path, READ_ONLY_FS)
    code, stdout, stderr = out["sim"]
    assert code == 2 and stdout == "" and stderr.count("\n") == 1 and "read-only file system" in stderr, stderr
    code, stdout, stderr = out["games"]
    assert code == 0 and "1 plies  playing" in stdout, stderr
    assert not [n for n in out["names"] if "unreadable" in n]


# ---------------------------------------------------------------- read-only
def _as_other_user() -> tuple[str, dict]:
    """A Python and subprocess options to run as a user who may not write
    a root-owned 0444 file: this user if not root, else ``nobody``."""
    if os.geteuid() != 0:
        return sys.executable, {}
    options = {"user": 65534, "group": 65534, "extra_groups": []}
    for python in dict.fromkeys((sys.executable, os.path.realpath(sys.executable), "/usr/bin/python3")):
        try:
            probe = subprocess.run([python, "-c", "import controller.cli"], cwd=ROOT, capture_output=True,
                                   env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=60, **options)
        except OSError:
            continue
        if probe.returncode == 0:
            return python, options
    pytest.skip("running as root (who may write any file) and user nobody can run no Python "
                f"with this checkout ({ROOT}) on its path")


def test_a_database_the_user_may_read_but_not_write_is_never_moved(tmp_path):
    python, options = _as_other_user()
    directory = Path(tempfile.mkdtemp(prefix="maxima-ro-")) if options else tmp_path
    try:
        directory.chmod(0o755)
        db = directory / "games.db"
        our_game(db, ("d3-d4", "d7-d6"))
        db.chmod(0o444)
        before = files(directory)
        r = cli("games", "--db", str(db), python=python, **options)
        assert r.returncode == 0 and "2 plies  playing" in r.stdout, r.stderr
        r = cli("export", "--db", str(db), python=python, **options)
        assert r.returncode == 0 and "1. Pd3-d4 Pd7-d6 *" in r.stdout, r.stderr
        r = cli("sim", "--db", str(db), stdin="lift c3\nplace c4\nwait 400\n", python=python, **options)
        assert r.returncode == 2 and r.stdout == "" and r.stderr.count("\n") == 1, r.stderr
        assert "read-only: permission denied" in r.stderr and "nothing was changed" in r.stderr
        assert files(directory) == before
    finally:
        if options:
            shutil.rmtree(directory)


def test_a_database_the_user_may_not_read_is_reported_not_moved(tmp_path):
    python, options = _as_other_user()
    directory = Path(tempfile.mkdtemp(prefix="maxima-noread-")) if options else tmp_path
    try:
        directory.chmod(0o777 if options else 0o755)
        db = directory / "games.db"
        our_game(db)
        db.chmod(0o000)
        before = {p.name: p.stat().st_mtime_ns for p in directory.iterdir()}
        for command in ("games", "export", "sim"):
            r = cli(command, "--db", str(db), stdin="quit\n", python=python, **options)
            assert r.returncode == 2 and r.stderr.count("\n") == 1, (command, r.stderr)
            assert "permission denied" in r.stderr, (command, r.stderr)
        after = {p.name: p.stat().st_mtime_ns for p in directory.iterdir() if not p.name.endswith(".lock")}
        assert after == before
    finally:
        if options:
            shutil.rmtree(directory)


def test_sqlite_read_only_faults_are_named(tmp_path):
    """SQLite's own read-only refusal (a ``mode=ro`` connection, as a file
    system that refuses writes would give) is reported as read-only."""
    db = tmp_path / "games.db"
    our_game(db)
    store = GameStore(db)
    store._conn.close()
    store._conn = sqlite3.connect(db.absolute().as_uri() + "?mode=ro", uri=True, isolation_level=None)
    with pytest.raises(StoreError, match=r"read-only \(attempt to write a readonly database\)") as failure:
        store.append_move(1, 1, "d7-d6", "f")
    assert "cannot rollback" not in str(failure.value)
    store.close()


# ---------------------------------------------------------------- the board says so
def test_run_on_the_board_shows_a_database_it_cannot_use_and_exits_2(tmp_path, monkeypatch, matrix, recorder,
                                                                    capsys):
    from maxima_board.cli.main import main
    from tests.test_hw_board_cmds import _config

    (tmp_path / "games.db").mkdir()              # the config's [database] path is a directory
    monkeypatch.chdir(tmp_path)
    assert main(["run", "--config", str(_config(tmp_path)), "--seconds", "1"]) == 2
    err = capsys.readouterr().err
    assert err == (f"maxima-board run: game database {tmp_path / 'games.db'}: "
                   f"not a maxima-board database (a directory)\n")
    assert ["Game database", "cannot be used:", "not a maxima-board", "database (a"] in recorder.lines
    assert sorted(os.listdir(tmp_path)) == ["board.toml", "games.db"] and not os.listdir(tmp_path / "games.db")
