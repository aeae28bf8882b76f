"""Issue 34: a stored game reviewed by the engine (``maxima-board review``):
the CLI on a replayed Maxima game, the schema's migration, the PGN with
``[%eval]``, NAGs and variations, lichess's classes, and the background
reviewer resuming after a restart."""
from __future__ import annotations

import os
import re
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from maxima_board.opponent.review import Search, eval_text, judge, win_chance
from maxima_board.rules.record import GameRecord
from maxima_board.service.review import BackgroundReviewer, export_annotated, review_stored
from maxima_board.storage.opening import SCHEMA_VERSION
from maxima_board.storage.store import GameStore, ReviewRow

from .review_support import replayed_game

ROOT = Path(__file__).resolve().parent.parent
FAST = ["--nodes", "3000"]          # the tests' search: small, the same every run


def cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "maxima_board.cli.main", *args], capture_output=True,
                          text=True, cwd=ROOT, env=env, timeout=timeout)


@pytest.fixture(scope="module")
def game_db(tmp_path_factory) -> tuple[str, list[str]]:
    db = str(tmp_path_factory.mktemp("review") / "games.db")
    return db, replayed_game(db, plies=16)


# ---------------------------------------------------------------- lichess's classes
def test_win_chance_and_classes_are_lichess_s():
    assert win_chance(0) == 50
    assert win_chance(100) == pytest.approx(59.1, abs=0.05)      # lichess: +1 is about 59 %
    assert win_chance(-100) == pytest.approx(100 - win_chance(100))
    assert win_chance(5000) == win_chance(1000)                   # clamped at ±1000
    assert judge(9.99) is None
    assert judge(10)[:2] == ("inaccuracy", "$6")
    assert judge(20)[:2] == ("mistake", "$2")
    assert judge(30)[:2] == ("blunder", "$4")


def test_eval_text_is_white_s_view_and_mates_as_lichess_writes_them():
    row = ReviewRow(1, 17, None, None, 0, "")
    assert eval_text(row, True) == "0.17" and eval_text(row, False) == "-0.17"
    mate = ReviewRow(1, None, 3, "d3-d5", 0, "")
    assert eval_text(mate, True) == "#3" and eval_text(mate, False) == "#-3"
    assert eval_text(ReviewRow(1, None, 0, None, 0, ""), False) == "#0"


# ---------------------------------------------------------------- the command
def test_review_command_on_a_replayed_maxima_game(game_db):
    db, moves = game_db
    done = cli("review", "1", "--db", db, *FAST)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("game 1:") and "nodes 3000" in lines[0]
    assert lines[1].startswith("start")
    assert len(lines) == 2 + len(moves)
    for line, move in zip(lines[2:], moves):
        assert move in line and re.search(r"\s(-?\d+\.\d\d|#-?\d+)(\s|$)", line), line
    store = GameStore(db, readonly=True)
    try:
        rows = store.review(1)
        assert [r.ply for r in rows] == list(range(len(moves) + 1))
        assert all(r.search == "nodes 3000" and (r.score_cp is not None or r.mate is not None) for r in rows)
        assert all(r.best for r in rows[:-1])
    finally:
        store.close()
    marked = [line for line in lines[2:] if re.search(r"inaccuracy|mistake|blunder", line)]
    assert all("(better " in line for line in marked)


def test_exported_pgn_carries_an_eval_after_every_move(game_db):
    db, moves = game_db
    assert cli("review", "1", "--db", db, *FAST).returncode == 0
    done = cli("export", "1", "--db", db)
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert len(re.findall(r"\{\[%eval (-?\d+\.\d\d|#-?\d+)\]\}", text)) == len(moves)
    record = GameRecord.from_text(text)            # NAGs and variations are read past
    assert record.moves == moves
    record.replay()
    store = GameStore(db, readonly=True)
    try:
        assert export_annotated(store, 1) == text
    finally:
        store.close()


def test_nags_and_the_better_move_as_a_variation(tmp_path):
    """A review stored by hand: White's second move (the third) turns +0.20 into -4.00, a blunder."""
    db = str(tmp_path / "g.db")
    moves = replayed_game(db, plies=4)
    store = GameStore(db)
    try:
        scores = [20, -20, 20, 400, -390]      # the side to move's view, after 0-4 moves
        best = "d3-d5"
        store.store_review(1, 4, [ReviewRow(p, s, None, best if p < 4 else None, 1, "nodes 1")
                                  for p, s in enumerate(scores)])
        text = export_annotated(store, 1)
    finally:
        store.close()
    flat = text.replace("\n", " ")
    assert re.search(r" 2\. [A-Z][a-z]\d+-[a-z]\d+ \$4 \{\[%eval -4\.00\]\} \(2\. Pd3-d5\) 2\.\.\. ", flat), text
    assert flat.count("$") == 1                       # the other moves lost nothing
    assert GameRecord.from_text(text).moves == moves


def test_bad_input_gets_one_line_and_a_non_zero_exit(game_db, tmp_path):
    db, _ = game_db
    for args, words in ((["review", "99", "--db", db], "no game 99"),
                        (["review", "1", "--db", str(tmp_path / "none.db")], "no such file"),
                        (["review", "--db", db], "give a GAME number or --pending"),
                        (["review", "1", "--db", db, "--level", "11"], "--level")):
        done = cli(*args)
        assert done.returncode != 0 and words in done.stderr, (args, done.stderr)
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr


# ---------------------------------------------------------------- the migration
def test_a_schema_3_database_is_upgraded_and_keeps_every_game(tmp_path):
    db = str(tmp_path / "old.db")
    moves = replayed_game(db, plies=6)
    conn = sqlite3.connect(db)                       # make it what version 3 wrote
    conn.execute("DROP TABLE reviews")
    conn.execute("PRAGMA user_version=3")
    conn.commit()
    conn.close()
    old = GameStore(db, readonly=True)               # a reader takes it as it is: no review
    try:
        assert old.review(1) == [] and old.reviewed_count(1) == 0 and old.unreviewed() == []
    finally:
        old.close()
    store = GameStore(db)
    try:
        assert store._conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 4
        assert store.moves(1) == moves and store.game(1).finished
        assert store.unreviewed() == [1]
        store.store_review(1, 6, [ReviewRow(0, 12, None, "d3-d5", 10, "nodes 10")])
        assert store.review(1)[0].best == "d3-d5"
    finally:
        store.close()


def test_a_take_back_forgets_the_review_of_the_positions_it_removes(tmp_path):
    db = str(tmp_path / "g.db")
    replayed_game(db, plies=4, finish=False)
    store = GameStore(db)
    try:
        store.store_review(1, 4, [ReviewRow(p, 0, None, None, 1, "nodes 1") for p in range(5)])
        store.moves(1)
        store.take_back(1, 3)
        assert [r.ply for r in store.review(1)] == [0, 1, 2, 3]
        with pytest.raises(Exception):               # a review of a game that changed under it
            store.store_review(1, 4, [ReviewRow(4, 0, None, None, 1, "nodes 1")])
    finally:
        store.close()


# ---------------------------------------------------------------- resuming
def test_a_review_resumes_where_it_stopped(tmp_path):
    db = str(tmp_path / "g.db")
    moves = replayed_game(db, plies=10)
    store = GameStore(db)
    seen: list[int] = []

    class Stop(Exception):
        pass

    def stop_after_first(found):
        seen.extend(f.ply for f in found)
        raise Stop

    try:
        with pytest.raises(Stop):
            review_stored(store, 1, Search(nodes=2000), on_batch=stop_after_first)
        kept = [r.ply for r in store.review(1)]
        assert kept == seen == list(range(8))            # one batch stored, then stopped
        looked = review_stored(store, 1, Search(nodes=2000))
        assert looked == len(moves) + 1 - 8               # only the rest
        assert [r.ply for r in store.review(1)] == list(range(len(moves) + 1))
        assert review_stored(store, 1, Search(nodes=2000)) == 0
        assert review_stored(store, 1, Search(nodes=2500)) == len(moves) + 1   # another search: again
    finally:
        store.close()


def test_the_background_reviewer_resumes_after_a_restart(tmp_path):
    """The board's reviewer (a nice'd process of its own) reviews finished
    games; killed half-way and started again, it keeps what it stored and
    looks only at the rest."""
    db = str(tmp_path / "games.db")
    moves = replayed_game(db, plies=24)
    env_path = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = str(ROOT)
    try:
        reviewer = BackgroundReviewer(db, Search(nodes=20000), idle_s=1)
        try:
            assert _niceness(reviewer.pid) == 19
            counts = _wait_for(db, lambda n: n >= 8, 60)
            assert counts < len(moves) + 1, "finished before it could be stopped: a bigger search"
        finally:
            reviewer.proc.kill()
            reviewer.proc.wait()
        kept = _rows(db)
        reviewer = BackgroundReviewer(db, Search(nodes=20000), idle_s=1)
        try:
            _wait_for(db, lambda n: n == len(moves) + 1, 120)
        finally:
            reviewer.close()
        assert reviewer.proc.returncode is not None
        after = _rows(db)
        assert {k: v for k, v in after.items() if k in kept} == kept     # what was stored stays
    finally:
        if env_path is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = env_path


def _niceness(pid: int) -> int:
    for _ in range(50):
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        if int(fields[16]) == 19:
            return 19
        time.sleep(0.05)
    return int(fields[16])


def _rows(db: str) -> dict[int, tuple]:
    store = GameStore(db, readonly=True)
    try:
        return {r.ply: (r.score_cp, r.mate, r.best) for r in store.review(1)}
    finally:
        store.close()


def _wait_for(db: str, done, seconds: float) -> int:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        n = len(_rows(db))
        if done(n):
            return n
        time.sleep(0.05)
    raise AssertionError(f"the reviewer stored {len(_rows(db))} positions in {seconds} s")
