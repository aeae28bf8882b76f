"""Stored games: durability before acknowledgement, resume, damaged
databases moved aside (and garbage refused), and the PGN-style export."""
from __future__ import annotations

import os
import sqlite3

import pytest

from maxima_board.board.core import Controller
from maxima_board.service.record import export_text
from maxima_board.service.script import Runner
from maxima_board.board.settings import Settings
from maxima_board.storage.store import GameStore, default_db_path
from maxima_board.storage.storefile import NotOurs, StoreError
from maxima_board.rules import START_FEN
from maxima_board.rules.record import GameRecord


def play(runner: Runner, *moves: tuple[str, ...]) -> None:
    """Each move as its physical steps: squares to lift, then to place."""
    for lifts, places in moves:
        for sq in lifts:
            runner.lift(sq)
        for sq in places:
            runner.place(sq)
        runner.wait(400)


D3D4 = (("d3",), ("d4",))
D7D6 = (("d7",), ("d6",))


def test_store_uses_wal_and_full_synchronous(tmp_path):
    store = GameStore(tmp_path / "g.db")
    assert store._conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store._conn.execute("PRAGMA synchronous").fetchone()[0] == 2   # FULL
    assert store.message is None


def test_store_round_trip(tmp_path):
    path = tmp_path / "sub" / "g.db"
    store = GameStore(path)
    gid = store.new_game(START_FEN, event="Club", white="Ann", black="Bo")
    store.append_move(gid, 0, "d3-d4", "fen1")
    store.append_move(gid, 1, "d7-d6", "fen2")
    store.close()
    store = GameStore(path)
    assert store.moves(gid) == ["d3-d4", "d7-d6"]
    row = store.unfinished()
    assert row is not None and row.id == gid and row.plies == 2 and row.white == "Ann"
    store.take_back(gid, 1)
    assert store.moves(gid) == ["d3-d4"]
    store.finish(gid, "1-0", "checkmate")
    assert store.unfinished() is None
    assert store.game(gid).result == "1-0" and store.game(gid).finished
    with pytest.raises(ValueError, match="no game 99"):
        store.game(99)


def test_garbage_file_is_refused_untouched_not_moved_aside(tmp_path):
    path = tmp_path / "games.db"
    garbage = b"this is not a database at all\n" * 100
    path.write_bytes(garbage)
    mtime = path.stat().st_mtime_ns
    with pytest.raises(NotOurs, match=r"not a maxima-board database \(not an SQLite database\)"):
        GameStore(path)
    assert path.read_bytes() == garbage and path.stat().st_mtime_ns == mtime
    assert os.listdir(tmp_path) == ["games.db"]


def _damaged_database(path) -> int:
    """Our database with its pages from the second on overwritten; its size."""
    store = GameStore(path)
    gid = store.new_game(START_FEN)
    for i in range(300):
        store.append_move(gid, i, f"move-{i:04d}-" + "x" * 100, "fen")
    store._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()
    data = bytearray(path.read_bytes())
    assert len(data) > 8192
    data[4096:8192] = b"\xde\xad\xbe\xef" * 1024     # page 2 onwards: garbage
    path.write_bytes(bytes(data))
    return len(data)


def test_damaged_database_pages_are_detected_and_moved_aside(tmp_path):
    path = tmp_path / "games.db"
    size = _damaged_database(path)
    store = GameStore(path)
    assert store.message and "was damaged" in store.message and "moved to" in store.message
    assert os.path.getsize(store.moved_to) == size
    assert store.games() == []
    gid = store.new_game(START_FEN)
    store.append_move(gid, 0, "d3-d4", "x")
    store.close()
    assert GameStore(path).moves(gid) == ["d3-d4"]


def test_a_damaged_database_is_not_moved_by_a_reader(tmp_path):
    path = tmp_path / "games.db"
    _damaged_database(path)
    before = path.read_bytes()
    with pytest.raises(StoreError, match="damaged .*nothing was changed"):
        GameStore(path, readonly=True)
    assert path.read_bytes() == before
    assert not [n for n in os.listdir(tmp_path) if "unreadable" in n]


def test_a_controller_shows_the_database_message(tmp_path):
    path = tmp_path / "games.db"
    _damaged_database(path)
    controller = Controller(Settings(), GameStore(path), fen=START_FEN)
    events = controller.on_frame(0, controller.expected_squares)
    assert any(e["type"] == "error" and "moved to" in e["text"] for e in events)
    assert "moved aside" in " ".join(controller.display)


def test_default_db_path(monkeypatch, tmp_path):
    monkeypatch.setenv("MAXIMA_BOARD_DB", str(tmp_path / "x.db"))
    assert default_db_path() == str(tmp_path / "x.db")
    monkeypatch.delenv("MAXIMA_BOARD_DB")
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    assert default_db_path() == str(tmp_path / "state" / "maxima-board" / "games.db")
    monkeypatch.delenv("XDG_STATE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_db_path() == str(tmp_path / "home" / ".local" / "state" / "maxima-board" / "games.db")


# ------------------------------------------------------------------ durability
class SpyStore(GameStore):
    """Records what the controller showed when a move was being stored."""

    controller: Controller | None = None
    seen: list

    def append_move(self, game_id, ply, move, fen):
        c = self.controller
        self.seen.append((move, c.leds, list(c.moves) if c else None))
        super().append_move(game_id, ply, move, fen)


def test_a_move_is_stored_before_it_is_acknowledged(tmp_path):
    store = SpyStore(tmp_path / "g.db")
    store.seen = []
    runner = Runner(Settings(), store=store)
    store.controller = runner.controller
    runner.lift("d3")
    runner.place("d4")
    events = runner.wait(400)
    assert [e["move"] for e in events if e["type"] == "move"] == ["d3-d4"]
    (move, leds, shown_moves), = store.seen
    assert move == "d3-d4"
    assert "last-to" not in leds.values()       # LEDs not yet acknowledging
    # and it is on disk: another connection sees it
    other = sqlite3.connect(tmp_path / "g.db")
    assert other.execute("SELECT move FROM moves").fetchall() == [("d3-d4",)]


class FailingStore(GameStore):
    fail = True

    def append_move(self, game_id, ply, move, fen):
        if self.fail:
            raise OSError(28, "No space left on device")
        super().append_move(game_id, ply, move, fen)


def test_a_move_that_cannot_be_stored_is_not_acknowledged(tmp_path):
    store = FailingStore(tmp_path / "g.db")
    runner = Runner(Settings(), store=store)
    runner.lift("d3")
    runner.place("d4")
    events = runner.wait(400)
    assert not [e for e in events if e["type"] == "move"]
    assert any(e["type"] == "error" and "No space left" in e["text"] for e in events)
    c = runner.controller
    assert c.moves == [] and "last-to" not in c.leds.values()
    assert "Cannot save the move" in " ".join(c.display)
    store.fail = False
    events = runner.press("ok")
    events += runner.wait(400)
    assert [e["move"] for e in events if e["type"] == "move"] == ["d3-d4"]
    assert store.moves(c.game_id) == ["d3-d4"]


# ------------------------------------------------------------------ resume
def test_an_unfinished_game_resumes_and_guides_the_board_back(tmp_path):
    path = tmp_path / "g.db"
    runner = Runner(Settings(), store=GameStore(path))
    play(runner, D3D4, D7D6)
    fen = runner.controller.position.fen()
    runner.controller.store.close()

    store = GameStore(path)
    controller = Controller(Settings(), store, now_ms=0)
    assert controller.mode == "sync"
    assert controller.moves == ["d3-d4", "d7-d6"] and controller.position.fen() == fen
    # the board still shows the position before d7-d6
    before = set(controller.expected_squares) - {"d6"} | {"d7"}
    resumed = Runner.attach(controller, before, 0)
    events = resumed.events + resumed.wait(300)
    assert any(e["type"] == "resumed" and e["moves"] == ["d3-d4", "d7-d6"] for e in events)
    assert controller.leds == {"d6": "error-missing", "d7": "error-extra"}
    text = " ".join(controller.display)
    assert "Resumed game 1" in text and "Put the Black Pawn back on d6" in text
    # putting the piece right ends the guidance and play goes on
    events = resumed.lift("d7") + resumed.place("d6")
    assert any(e["type"] == "sync" for e in events) and controller.mode == "play"
    play(resumed, (("c3",), ("c4",)))
    assert store.moves(controller.game_id) == ["d3-d4", "d7-d6", "c3-c4"]


def test_a_finished_game_is_not_resumed(tmp_path):
    path = tmp_path / "g.db"
    runner = Runner(Settings(), store=GameStore(path))
    play(runner, D3D4)
    runner.press("menu")
    runner.press("menu")
    runner.press("ok")           # White resigns
    controller = Controller(Settings(), GameStore(path))
    assert controller.mode == "setup" and controller.moves == []


def test_starting_a_new_game_abandons_the_unfinished_one(tmp_path):
    path = tmp_path / "g.db"
    runner = Runner(Settings(), store=GameStore(path))
    play(runner, D3D4)
    store = GameStore(path)
    Controller(Settings(), store, fen=START_FEN)
    first = store.game(1)
    assert first.finished and first.reason == "abandoned" and store.moves(1) == ["d3-d4"]
    assert store.unfinished().id == 2


def test_a_stored_game_that_cannot_be_replayed_is_kept_and_closed(tmp_path):
    path = tmp_path / "g.db"
    store = GameStore(path)
    gid = store.new_game(START_FEN)
    store.append_move(gid, 0, "d3-d9", "?")      # not legal
    controller = Controller(Settings(), GameStore(path))
    events = controller.on_frame(0, controller.expected_squares)
    assert controller.mode == "setup"
    assert any(e["type"] == "error" and "could not be resumed" in e["text"] for e in events)
    assert GameStore(path).moves(gid) == ["d3-d9"]     # nothing deleted


# ------------------------------------------------------------------ export
def test_export_is_a_pgn_style_record_with_piece_letters(tmp_path):
    path = tmp_path / "g.db"
    settings = Settings(event="Club night", site="Lisbon", white="Ann", black="Bo", round="3")
    runner = Runner(settings, store=GameStore(path))
    play(runner, D3D4, D7D6, (("c2",), ("d3",)))
    text = export_text(GameStore(path))
    assert '[Event "Club night"]' in text and '[Site "Lisbon"]' in text and '[Round "3"]' in text
    assert '[White "Ann"]' in text and '[Black "Bo"]' in text
    assert '[Result "*"]' in text and '[Variant "Maxima"]' in text
    assert "[FEN" not in text
    assert "1. Pd3-d4 Pd7-d6 2. Nc2-d3 *" in text
    record = GameRecord.from_text(text)
    assert record.replay().fen() == runner.controller.position.fen()


def test_export_of_a_game_from_a_fen_has_the_fen_tag_and_pgn_draw(tmp_path):
    fen = "xxx2xxx/4k3/p7/8/8/1Pp1pP2/8/8/3P4/4K3/xxx2xxx w 0"
    path = tmp_path / "g.db"
    runner = Runner(Settings(), fen=fen, store=GameStore(path))
    play(runner, (("d2", "c5", "e5"), ("d5",)))
    for button in ("menu", "menu", "menu", "menu", "ok"):
        runner.press(button)
    text = export_text(GameStore(path), 1)
    assert f'[FEN "{fen}"]' in text
    assert '[Result "1/2-1/2"]' in text and '[Termination "agreement"]' in text
    assert "1. Pd2-d5xc5,e5 1/2-1/2" in text
    assert GameRecord.from_text(text).replay().fen() == runner.controller.position.fen()


def test_export_without_games_is_an_error(tmp_path):
    with pytest.raises(ValueError, match="no games"):
        export_text(GameStore(tmp_path / "g.db"))
