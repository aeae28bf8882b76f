"""The clock (issue 12): time controls, the clocks in the controller, flag
fall, take-back, resume after a restart, no charge for the settle time.
Everything runs on the injected time: nothing sleeps."""
from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import textwrap

import pytest

from maxima_board.board import clock as clock_module
from maxima_board.board.clock import (PRESETS, Clock, Stage, TimeControl, TimeControlError, flag_result,
                                      format_ms, parse_time_control)
from maxima_board.board.core import Controller
from maxima_board.service.record import export_text
from maxima_board.service.script import Runner, ScriptError, parse_script, replay
from maxima_board.board.settings import Settings
from maxima_board.storage.store import GameStore
from maxima_board.rules import BLACK, START_FEN, WHITE, Position
from maxima_board.cli.config import parse_config
from tests.conftest import fen_of

MIN = 60_000
CHECK = "xxxq1xxx/1gd1k1gb/3m1n1d/1pN1ppp1/2P1p3/pNP5/P2r4/D2P1PPD/B1Q3B1/1GM1K1G1/xxx1Rxxx w 56"
BLACK_BARE = fen_of({"e1": "K", "e9": "k", "a2": "P"}, "w")    # White to move, Black has only its King
WHITE_BARE = fen_of({"e1": "K", "e9": "k", "a8": "p"}, "b")    # Black to move, White has only its King


def tc(text: str) -> TimeControl:
    control = parse_time_control(text)
    assert control is not None
    return control


def move(runner: Runner, frm: str, to: str, think_ms: int = 0) -> list[dict]:
    """``think_ms`` pass, then the piece goes from ``frm`` to ``to`` in one
    instant, then the board settles (300 ms by default)."""
    events = runner.wait(think_ms)
    events += runner.lift(frm) + runner.place(to)
    return events + runner.wait(runner.controller.settings.settle_ms)


def of(events: list[dict], kind: str) -> list[dict]:
    return [e for e in events if e["type"] == kind]


# ------------------------------------------------------------------ parsing
def test_parse_every_kind_of_time_control():
    assert tc("90+30").stages == (Stage(None, 90, increment_s=30),)
    assert tc("60d10").stages == (Stage(None, 60, delay_s=10),)
    assert tc("25").stages == (Stage(None, 25),)
    assert tc("40/90,30+30").stages == (Stage(40, 90), Stage(None, 30, increment_s=30))
    assert tc("40/120, 20/60, 30d5").stages == (Stage(40, 120), Stage(20, 60), Stage(None, 30, delay_s=5))
    for none in ("none", "None", "", "  ", "-"):
        assert parse_time_control(none) is None
    for text in ("90+30", "60d10", "40/90,30+30", "40/120,20/60,30d5", "5"):
        assert str(tc(text)) == text
    assert set(PRESETS) - {"none"} == {str(tc(p)) for p in PRESETS if p != "none"}


def test_time_control_pgn_tag_values_are_in_seconds():
    assert tc("90+30").pgn() == "5400+30"
    assert tc("40/90,30+30").pgn() == "40/5400:1800+30"
    assert tc("60d10").pgn() == "3600d10"
    assert tc("5").pgn() == "300"


@pytest.mark.parametrize("text, why", [
    ("90+x", "cannot read"), ("abc", "cannot read"), ("90 + 30", "cannot read"), ("90+30+5", "cannot read"),
    ("40/90", "last stage"), ("90,30", "needs a move count"), ("0+5", "minutes must be 1 to 600"),
    ("601", "minutes must be 1 to 600"), ("90+601", "increment must be 0 to 600"),
    ("40/90,30d700", "delay must be 0 to 600"), ("1000/90,30", "moves must be 1 to 999"),
    ("40/90,,30", "cannot read"),
])
def test_time_control_errors_are_one_line_naming_the_text(text, why):
    with pytest.raises(TimeControlError) as info:
        parse_time_control(text)
    message = str(info.value)
    assert "\n" not in message and f'"{text.strip()}"' in message and why in message
    with pytest.raises(ValueError, match="time control"):
        Settings(time_control=text)


# ------------------------------------------------------------------ the clock alone
def test_increment_is_added_after_the_move():
    c = Clock.start(tc("5+3")).run(0)
    c = c.press(stop=10_000, now=10_300)
    assert c.turn == BLACK
    assert c.remaining(WHITE, 10_300) == 5 * MIN - 10_000 + 3_000
    assert c.remaining(BLACK, 12_300) == 5 * MIN - 2_000
    c = c.press(stop=14_300, now=14_600)
    assert c.readings(14_600) == {"white": 293_000, "black": 5 * MIN - 4_000 + 3_000}


def test_delay_is_not_charged_within_the_delay():
    c = Clock.start(tc("1d5")).run(0)
    assert c.remaining(WHITE, 5_000) == MIN              # the delay runs first
    assert c.remaining(WHITE, 7_000) == MIN - 2_000
    assert c.flag_time() == 65_000
    after = c.press(stop=4_000, now=4_300)               # moved within the delay: nothing charged
    assert after.readings(4_300) == {"white": MIN, "black": MIN}
    after = after.press(stop=4_300 + 9_000, now=13_600)  # Black used 4 s beyond its delay
    assert after.readings(13_600) == {"white": MIN, "black": MIN - 4_000}
    # a pause keeps the time used: the delay is per turn, not per run
    paused = c.pause(3_000).run(10_000)
    assert paused.remaining(WHITE, 12_000) == MIN and paused.remaining(WHITE, 13_000) == MIN - 1_000


def test_stage_change_after_move_40_adds_the_next_stage_time():
    c = Clock.start(tc("40/90,30+30")).run(0)
    now = 0
    for n in range(1, 42):
        for side in (WHITE, BLACK):
            before = c.remaining(side, now)
            now += 1_000
            c = c.press(stop=now, now=now)
            gained = c.remaining(side, now) - before
            if n < 40:
                assert gained == -1_000, (n, side)               # stage 1: no increment
            elif n == 40:
                assert gained == -1_000 + 30 * MIN, (n, side)    # the 40th move brings the second stage
            else:
                assert gained == -1_000 + 30_000, (n, side)      # stage 2: 30 s increment
    assert c.moves_made(WHITE) == c.moves_made(BLACK) == 41


def test_flag_time_and_next_display_change():
    c = Clock.start(tc("1+0")).run(1_000)
    assert c.flag_time() == 61_000 and not c.flagged(60_999) and c.flagged(61_000)
    assert c.next_change(1_000) == 2_000 and c.next_change(1_500) == 2_000
    assert format_ms(c.remaining(WHITE, 1_500)) == "1:00" and format_ms(c.remaining(WHITE, 2_000)) == "0:59"
    assert c.pause(5_000).flag_time() is None and c.pause(5_000).next_change(5_000) is None
    assert c.remaining(WHITE, 99_000) == 0


def test_format_ms():
    assert [format_ms(ms) for ms in (90 * MIN, 59_000, 1, 0, -5, 3_599_001, 10 * 3_600_000)] == \
        ["1:30:00", "0:59", "0:01", "0:00", "0:00", "1:00:00", "10:00:00"]


def test_resumed_clock_counts_each_sides_moves():
    c = Clock.resume(tc("2/1,1"), 1_000, 2_000, turn=BLACK, plies=3)   # W B W played
    assert (c.white_moves, c.black_moves, c.turn, c.running) == (2, 1, BLACK, False)
    c = Clock.resume(tc("2/1,1"), 1_000, 2_000, turn=WHITE, plies=3)   # B W B played (from a FEN)
    assert (c.white_moves, c.black_moves) == (1, 2)


# ------------------------------------------------------------------ in the controller
def test_settle_time_is_not_charged():
    """White thinks 5 s and the board is still 300 ms (settle) before the
    move commits: White is charged the 5 s only; Black's clock starts at the
    commit."""
    runner = Runner(Settings(settle_ms=300, time_control="5"))
    events = move(runner, "d3", "d4", think_ms=5_000)
    assert of(events, "move")[0]["clocks"] == {"white": 5 * MIN - 5_000, "black": 5 * MIN}
    runner.wait(2_000)
    assert runner.controller.clocks == {"white": 5 * MIN - 5_000, "black": 5 * MIN - 2_000}


def test_settle_time_is_not_charged_when_the_tick_comes_late():
    runner = Runner(Settings(settle_ms=300, time_control="5"))
    runner.wait(5_000)
    runner.lift("d3")
    runner.place("d4")
    events = runner.controller.on_tick(5_450)            # 150 ms after the settle deadline
    assert of(events, "move")[0]["clocks"] == {"white": 5 * MIN - 5_000, "black": 5 * MIN}


def test_delay_in_the_controller():
    runner = Runner(Settings(time_control="1d5"))
    events = move(runner, "d3", "d4", think_ms=4_000)
    assert of(events, "move")[0]["clocks"] == {"white": MIN, "black": MIN}
    events = move(runner, "d7", "d6", think_ms=8_000)
    assert of(events, "move")[0]["clocks"] == {"white": MIN, "black": MIN - 3_000}


def test_stage_change_in_the_controller():
    runner = Runner(Settings(time_control="2/1,1+10"))
    move(runner, "d3", "d4", think_ms=1_000)
    move(runner, "d7", "d6", think_ms=1_000)
    events = move(runner, "e3", "e4", think_ms=2_000)    # White's 2nd move ends stage 1
    assert of(events, "move")[0]["clocks"]["white"] == MIN - 3_000 + MIN
    move(runner, "e7", "e6")
    events = move(runner, "f3", "f4", think_ms=1_000)    # stage 2: 10 s increment
    assert of(events, "move")[0]["clocks"]["white"] == 2 * MIN - 4_000 + 10_000


def test_flag_fall_white_loses_on_time():
    runner = Runner(Settings(time_control="1"))
    assert not of(runner.wait(MIN - 1), "game_end")
    events = runner.wait(1)
    assert of(events, "game_end") == [{"type": "game_end", "result": "0-1", "reason": "time"}]
    c = runner.controller
    assert (c.result, c.reason, c.mode) == ("0-1", "time", "ended")
    assert c.clocks == {"white": 0, "black": MIN}
    assert "Black wins: time." in " ".join(c.display)
    assert of(move(runner, "d3", "d4"), "move") == []     # the game is over


def test_flag_fall_black_loses_on_time():
    runner = Runner(Settings(time_control="1"))
    move(runner, "d3", "d4", think_ms=700)
    events = runner.wait(MIN - 1)
    assert not of(events, "game_end")
    assert of(runner.wait(1), "game_end") == [{"type": "game_end", "result": "1-0", "reason": "time"}]
    assert runner.controller.clocks == {"white": MIN - 700, "black": 0}


@pytest.mark.parametrize("fen, flagged", [(BLACK_BARE, "White"), (WHITE_BARE, "Black")])
def test_flag_fall_against_a_bare_king_is_a_draw_in_maxima(fen, flagged):
    """M13: a bare King can never win, so losing on time to it draws."""
    runner = Runner(Settings(time_control="1"), fen=fen)
    events = runner.wait(MIN)
    assert of(events, "game_end") == [{"type": "game_end", "result": "1/2", "reason": "time"}]
    assert f"{flagged} to move" not in runner.controller.display[0]
    assert "Draw: time." in " ".join(runner.controller.display)


def test_who_can_win_is_a_rule_per_game(monkeypatch):
    position = Position(BLACK_BARE)
    assert flag_result(position, WHITE) == "1/2" and flag_result(position, BLACK) == "1-0"
    assert flag_result(Position(), WHITE) == "0-1"
    monkeypatch.setitem(clock_module.CAN_WIN, "maxima", lambda pos, side: False)
    assert flag_result(Position(), WHITE) == "1/2"


def test_a_move_on_the_board_before_the_flag_counts_once_it_settles():
    runner = Runner(Settings(time_control="1"))
    events = move(runner, "d3", "d4", think_ms=MIN - 200)   # stable at 59.8 s, settles at 60.1 s
    assert not of(events, "game_end")
    assert of(events, "move")[0]["clocks"] == {"white": 200, "black": MIN}
    # a move only begun before the flag does not
    runner = Runner(Settings(time_control="1"))
    runner.wait(MIN - 100)
    runner.lift("d3")
    events = runner.wait(100)
    assert of(events, "game_end")[0]["result"] == "0-1"
    runner = Runner(Settings(time_control="1"))
    runner.wait(MIN - 100)
    runner.lift("d3")
    runner.place("d4")                                    # at 59.9 s: held over the flag at 60 s …
    assert not of(runner.wait(150), "game_end")
    events = runner.lift("d4")                            # … but changed before it settled: not a move
    assert of(events, "game_end")[0]["result"] == "0-1" and runner.controller.moves == []


def test_take_back_restores_the_clocks_of_the_taken_back_move():
    runner = Runner(Settings(time_control="5+3"))
    c = runner.controller
    events = move(runner, "d3", "d4", think_ms=4_000)
    assert of(events, "move")[0]["clocks"] == {"white": 5 * MIN - 1_000, "black": 5 * MIN}
    events = move(runner, "d7", "d6", think_ms=6_000)
    assert of(events, "move")[0]["clocks"] == {"white": 5 * MIN - 1_000, "black": 5 * MIN - 3_000}
    runner.wait(2_500)                                     # White thinks, then BACK
    events = runner.press("back")
    assert of(events, "takeback")[0]["clocks"] == {"white": 5 * MIN - 1_000, "black": 5 * MIN}
    assert c.mode == "sync"
    runner.wait(5_000)                                     # the clocks stand while the board is put back
    assert c.clocks == {"white": 5 * MIN - 1_000, "black": 5 * MIN}
    runner.lift("d6")
    runner.place("d7")
    runner.wait(1_000)                                     # back in sync: Black's clock runs again
    assert c.mode == "play" and c.clocks == {"white": 5 * MIN - 1_000, "black": 5 * MIN - 1_000}
    events = runner.press("back")                          # and the first move: the start clocks
    assert of(events, "takeback")[0]["clocks"] == {"white": 5 * MIN, "black": 5 * MIN}


def test_take_back_by_restoring_the_board_restores_the_clocks():
    runner = Runner(Settings(time_control="5"))
    move(runner, "d3", "d4", think_ms=4_000)
    runner.wait(1_000)
    runner.lift("d4")
    runner.place("d3")
    events = runner.wait(300)
    assert of(events, "takeback")[0]["clocks"] == {"white": 5 * MIN, "black": 5 * MIN}
    runner.wait(1_000)
    assert runner.controller.clocks == {"white": 5 * MIN - 1_000, "black": 5 * MIN}


def test_the_clock_stands_while_the_board_link_is_lost():
    runner = Runner(Settings(time_control="1"))
    runner.wait(10_000)
    runner.link(False)
    runner.wait(5 * MIN)                                   # no flag: nothing can be played
    assert runner.controller.result == "*" and runner.controller.clocks["white"] == MIN - 10_000
    runner.link(True)
    runner.wait(2_000)
    assert runner.controller.clocks["white"] == MIN - 12_000


def test_back_after_a_flag_fall_takes_back_the_last_move_with_its_clocks():
    runner = Runner(Settings(time_control="1+5"))
    move(runner, "d3", "d4", think_ms=10_000)
    assert of(runner.wait(MIN), "game_end")[0]["result"] == "1-0"
    events = runner.press("back")
    assert of(events, "takeback")[0]["clocks"] == {"white": MIN, "black": MIN}
    assert runner.controller.result == "*"


def test_resume_after_a_restart_continues_with_the_stored_clocks(tmp_path):
    path = tmp_path / "games.db"
    store = GameStore(path)
    runner = Runner(Settings(time_control="5+3"), store=store)
    move(runner, "d3", "d4", think_ms=4_000)
    move(runner, "d7", "d6", think_ms=6_000)
    runner.wait(30_000)                        # White thinks 30 s, then the power goes
    board = set(runner.board)
    store.close()

    store = GameStore(path)                    # the restart, hours later; no clock configured
    c = Controller(Settings(), store, now_ms=5 * 3_600_000)
    assert c.mode == "sync" and c.time_control == "5+3"
    assert c.clocks == {"white": 5 * MIN - 1_000, "black": 5 * MIN - 3_000}
    again = Runner.attach(c, board, 5 * 3_600_000)
    assert c.mode == "play"
    again.wait(2_000)
    assert c.clocks == {"white": 5 * MIN - 3_000, "black": 5 * MIN - 3_000}
    events = move(again, "e3", "e4", think_ms=1_000)
    assert of(events, "move")[0]["clocks"] == {"white": 5 * MIN - 4_000 + 3_000, "black": 5 * MIN - 3_000}
    store.close()
    rows = sqlite3.connect(path).execute("SELECT ply, white_ms, black_ms FROM clocks ORDER BY ply").fetchall()
    assert rows == [(0, 300_000, 300_000), (1, 299_000, 300_000), (2, 299_000, 297_000),
                    (3, 299_000, 297_000)]


def test_a_version_1_database_opens_and_its_games_have_no_clock(tmp_path):
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path)
    conn.executescript("""
        CREATE TABLE games (id INTEGER PRIMARY KEY, start_fen TEXT NOT NULL, created TEXT NOT NULL,
            event TEXT NOT NULL, site TEXT NOT NULL, date TEXT NOT NULL, round TEXT NOT NULL,
            white TEXT NOT NULL, black TEXT NOT NULL, result TEXT NOT NULL DEFAULT '*', reason TEXT,
            finished INTEGER NOT NULL DEFAULT 0);
        CREATE TABLE moves (game_id INTEGER NOT NULL REFERENCES games(id), ply INTEGER NOT NULL,
            move TEXT NOT NULL, fen TEXT NOT NULL, created TEXT NOT NULL, PRIMARY KEY (game_id, ply));
        PRAGMA user_version=1;
    """)
    fen = Position().fen()
    conn.execute("INSERT INTO games (start_fen, created, event, site, date, round, white, black) "
                 "VALUES (?, 'x', 'Old', '', '2025.01.01', '-', 'A', 'B')", (fen,))
    conn.execute("INSERT INTO moves VALUES (1, 0, 'd3-d4', ?, 'x')", (fen,))
    conn.commit()
    conn.close()
    store = GameStore(path)
    assert store.message is None and store.moves(1) == ["d3-d4"] and store.clock(1) is None
    assert store._conn.execute("PRAGMA user_version").fetchone()[0] == 4   # upgraded 1 → 2 → 3 → 4
    assert store.game(1).variant == "maxima"
    c = Controller(Settings(time_control="5+3"), store)    # resumes the old game, without a clock
    assert c.game_id == 1 and c.moves == ["d3-d4"] and c.clocks is None
    assert "TimeControl" not in export_text(store, 1)
    store.close()


def test_the_record_carries_the_time_control(tmp_path):
    store = GameStore(tmp_path / "g.db")
    runner = Runner(Settings(time_control="40/90,30+30"), store=store)
    move(runner, "d3", "d4")
    assert '[TimeControl "40/5400:1800+30"]' in export_text(store)
    runner.controller.set_time_control("none")
    runner.fen(START_FEN)
    assert "TimeControl" not in export_text(store)
    store.close()


def test_the_oled_shows_both_clocks_in_the_status_bar():
    runner = Runner(Settings(time_control="90+30"))
    c = runner.controller
    assert c.display[0].startswith("*W 1:30:00") and c.display[0].endswith(" B 1:30:00")
    move(runner, "d3", "d4", think_ms=61_000)
    line = c.display[0]
    assert len(line) <= 21 and line.startswith("W 1:29:29") and line.endswith("*B 1:30:00")
    runner.wait(500)                                   # 0.5 s used: a started second still shows
    assert c.display[0].endswith("*B 1:30:00")
    runner.wait(500)
    assert c.display[0].endswith("*B 1:29:59")
    in_check = Runner(Settings(time_control="5"), fen=CHECK).controller
    assert in_check.display[0].startswith("!W 5:00")
    assert Runner(Settings()).controller.display[0].startswith("White to move")   # no clock: as before


def test_menu_clock_cycles_the_presets_before_a_game():
    script = "board empty\nsetup start\npress menu\npress menu\n"   # MENU: the game, then the clock
    events = list(replay(parse_script(script.splitlines()), Settings()))
    assert "Clock: none" in " ".join(events[-1]["display"])
    shown = []
    for n in range(len(PRESETS) + 1):
        final = list(replay(parse_script((script + "press ok\n" * n).splitlines()), Settings()))[-1]
        assert all(len(line) <= 21 for line in final["display"])
        shown.append(final["display"][1])
    assert shown == [f"Clock: {p}" for p in PRESETS + PRESETS[:1]]
    # the preset chosen is the new game's; BACK leaves the menu
    events = list(replay(parse_script((script + "press ok\npress back\nboard start\nwait 300\n").splitlines()),
                         Settings()))
    assert events[-1]["display"][1] == "Ready, clock 5+3"
    events = list(replay(parse_script((script + "press ok\npress back\nboard start\nwait 300\npress ok\n"
                                       "wait 1000\n").splitlines()), Settings()))
    assert [e.get("time_control") for e in of(events, "new_game")] == [None, "5+3"]
    assert events[-1]["clocks"] == {"white": 5 * MIN - 1_000, "black": 5 * MIN}


def test_script_clock_line_applies_to_the_first_or_the_next_game():
    def run(text):
        return list(replay(parse_script(textwrap.dedent(text).splitlines()), Settings()))

    events = run("clock 5+3\nlift d3\nplace d4\nwait 300\n")
    assert of(events, "move")[0]["clocks"] == {"white": 5 * MIN + 3_000, "black": 5 * MIN}
    assert events[-1]["clocks"] == {"white": 5 * MIN + 3_000, "black": 5 * MIN}
    events = run("lift d3\nplace d4\nwait 300\nclock 1\nlift d7\nplace d6\nwait 300\nfen start\nwait 500\n")
    assert "clocks" not in of(events, "move")[0] and "clocks" not in of(events, "move")[1]
    assert of(events, "new_game")[-1]["time_control"] == "1"
    assert events[-1]["clocks"] == {"white": MIN - 500, "black": MIN}
    assert "clocks" not in run("lift d3\nplace d4\nwait 300\n")[-1]
    with pytest.raises(ScriptError, match='line 2: time control "9x"'):
        parse_script(["wait 1", "clock 9x"])
    with pytest.raises(ScriptError, match="line 1: clock needs a time control"):
        parse_script(["clock"])


def cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "maxima_board.cli.main", *args], input=stdin, text=True,
                          capture_output=True, timeout=60)


def test_replay_and_sim_take_a_clock_option(tmp_path):
    done = cli("replay", "--clock", "60d10", "-", stdin="wait 12000\nlift d3\nplace d4\nwait 300\n")
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert [e["clocks"] for e in lines if e["type"] == "move"] == [{"white": 60 * MIN - 2_000, "black": 60 * MIN}]
    assert lines[-1]["type"] == "final" and lines[-1]["clocks"] == {"white": 60 * MIN - 2_000, "black": 60 * MIN}
    bad = cli("replay", "--clock", "90+", "-", stdin="")
    assert bad.returncode == 2 and bad.stderr.strip().count("\n") == 0 and '"90+"' in bad.stderr
    db = tmp_path / "g.db"
    done = cli("sim", "--db", str(db), "--clock", "90+30", stdin="lift d3\nplace d4\nwait 400\nquit\n")
    assert done.returncode == 0, done.stderr
    assert "clock 90+30" in done.stdout
    assert any(line.startswith("clock White 1:30:") and line.endswith("Black 1:30:00")
               for line in done.stdout.splitlines())
    assert '[TimeControl "5400+30"]' in cli("export", "--db", str(db)).stdout


def test_config_clock_section():
    config = parse_config('hardware = "sim"\n[clock]\ncontrol = "40/90,30+30"\n')
    assert config.settings().time_control == "40/90,30+30"
    assert parse_config('hardware = "sim"\n').settings().time_control == "none"
