"""The game commands: ``replay``, ``sim``, ``games``, ``export``."""
from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from maxima_board.cli.main import main
from maxima_board.board.settings import Settings
from maxima_board.cli.sim import run_sim
from maxima_board.rules import Position

ROOT = Path(__file__).resolve().parent.parent


def cli(*args: str, stdin: str = "", env: dict | None = None) -> subprocess.CompletedProcess:
    full_env = dict(os.environ, PYTHONPATH=str(ROOT), **(env or {}))
    return subprocess.run([sys.executable, "-m", "maxima_board.cli.main", *args], input=stdin, text=True,
                          capture_output=True, cwd=ROOT, env=full_env, timeout=60)


def lines(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines()]


def test_replay_prints_move_lines_and_the_final_line(tmp_path):
    script = tmp_path / "game.txt"
    script.write_text("# a short game\nlift d3\nplace d4\nwait 400\n\nlift c7   # Black\nplace c5\nwait 400\n")
    state = tmp_path / "state"
    r = cli("replay", str(script), env={"MAXIMA_BOARD_DB": str(state / "games.db"),
                                        "XDG_STATE_HOME": str(state)})
    assert r.returncode == 0, r.stderr
    out = lines(r.stdout)
    moves = [e for e in out if e["type"] == "move"]
    p = Position()
    assert moves == [{"type": "move", "move": "d3-d4", "fen": (p.push("d3-d4"), p.fen())[1]},
                     {"type": "move", "move": "c7-c5", "fen": (p.push("c7-c5"), p.fen())[1]}]
    final = out[-1]
    assert final["type"] == "final"
    assert set(final) == {"type", "fen", "moves", "result", "reason", "leds", "display"}
    assert final["fen"] == p.fen() and final["moves"] == ["d3-d4", "c7-c5"]
    assert final["result"] == "*" and final["reason"] is None
    assert final["leds"] == {"c7": "last-from", "c5": "last-to"}
    assert not state.exists()          # replay never touches the user's database


def test_replay_from_stdin_with_a_fen():
    fen = "xxx2xxx/4k3/p7/8/8/8/8/2m5/2N5/4K3/xxx2xxx w 0"
    r = cli("replay", "-", "--fen", fen, stdin="lift c2\nwait 3000\n")
    assert r.returncode == 0, r.stderr
    assert [e["move"] for e in lines(r.stdout) if e["type"] == "move"] == ["c2-S"]
    r = cli("replay", "-", stdin=f"fen {fen}\nlift c2\npress ok\n")
    assert [e["move"] for e in lines(r.stdout) if e["type"] == "move"] == ["c2-S"]


@pytest.mark.parametrize("script, where", [
    ("lift d3\nplace d4\njump d5\n", "line 3: unknown command 'jump'"),
    ("lift d3\n\nplace z4\n", "line 3: unknown square 'z4'"),
    ("wait soon\n", "line 1: wait needs a whole number"),
    ("press start\n", "line 1: press needs a button"),
    ("# comment\nfen xxx/8 w 0\n", "line 2: bad FEN"),
    ("lift d3\nlift d3\n", "line 2: lift d3: the square is already empty"),
    ("place d3\n", "line 1: place d3: the square is already occupied"),
])
def test_replay_bad_script_lines_are_one_line_errors_with_exit_2(tmp_path, script, where):
    path = tmp_path / "s.txt"
    path.write_text(script)
    r = cli("replay", str(path))
    assert r.returncode == 2
    err = r.stderr.strip()
    assert "\n" not in err and where in err, err


def test_replay_bad_arguments():
    r = cli("replay", "-", "--fen", "8/8 w 0")
    assert r.returncode == 2 and "--fen: bad FEN" in r.stderr
    r = cli("replay", "/nonexistent/script.txt")
    assert r.returncode == 2 and "cannot read /nonexistent/script.txt" in r.stderr


def test_sim_session_then_games_and_export(tmp_path):
    db = str(tmp_path / "games.db")
    r = cli("sim", "--db", db, stdin="lift d3\nplace d4\nwait 400\nshow\nhop\nlift q9\nhelp\n"
                                      "lift c7\nplace c5\nwait 400\nquit\nlift e3\n")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "move 1 d3-d4 " in out and "move 2 c7-c5 " in out
    assert " 4 .  .  .  Pt" in out                                  # show: piece and LED mark
    assert "|Black to move      1.|" in out                          # show: the OLED
    assert "error unknown command 'hop'" in out
    assert "error unknown square 'q9'" in out
    assert "press BUTTON" in out                                    # help
    r = cli("games", "--db", db)
    assert r.returncode == 0 and "   1  " in r.stdout and "2 plies  playing" in r.stdout
    r = cli("export", "--db", db)
    assert r.returncode == 0 and "1. Pd3-d4 Pc7-c5 *" in r.stdout and '[Variant "Maxima"]' in r.stdout
    r = cli("export", "7", "--db", db)
    assert r.returncode == 2 and "no game 7" in r.stderr
    # the game resumes in the next session
    r = cli("sim", "--db", db, stdin="lift e3\nplace e5\nwait 400\n")
    assert "game 1 resumed after 2 moves" in r.stdout and "move 3 e3-e5 " in r.stdout


def test_games_and_export_without_a_database_are_errors(tmp_path):
    r = cli("games", "--db", str(tmp_path / "none.db"))
    assert r.returncode == 2 and "no games stored" in r.stderr
    assert not (tmp_path / "none.db").exists()


def test_run_sim_reads_any_text_stream(tmp_path):
    out = io.StringIO()
    rc = run_sim(Settings(db_path=str(tmp_path / "g.db")), io.StringIO("lift d3\nplace d4\nwait 400\n"), out)
    assert rc == 0 and "move 1 d3-d4 " in out.getvalue()


def test_main_returns_2_for_bad_input(tmp_path, capsys):
    path = tmp_path / "s.txt"
    path.write_text("lift\n")
    assert main(["replay", str(path)]) == 2
    assert "line 1: lift needs one square" in capsys.readouterr().err


def test_sim_does_not_print_every_tick_of_a_running_clock(tmp_path):
    out = io.StringIO()
    script = "clock 5+0\nfen start\nlift d3\nwait 4000\nshow\n"
    assert run_sim(Settings(db_path=str(tmp_path / "g.db")), io.StringIO(script), out) == 0
    text = out.getvalue()
    ticking = [l for l in text.splitlines() if l.startswith("oled ") and "4:5" in l]
    assert ticking == [], ticking                       # 4:59, 4:58 … not printed over the prompt
    assert "In hand" in text                            # a real change still is
    assert re.search(r"\|\*W 4:5\d", text)              # show: the clock, on request
