"""Bad input (issue 13): one line saying what and where, exit code 2, and a
``sim`` session that goes on. Numbers are read from ASCII digits only and
have stated maxima (controller/numbers.py, MAX_PLIES in engine/notation.py)."""
from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from maxima_board.cli.main import main
from maxima_board.cli.commands.engine_cmds import MAX_PERFT_DEPTH
from maxima_board.service.script import MAX_WAIT_MS
from maxima_board.board.settings import Settings
from maxima_board.cli.sim import run_sim
from maxima_board.storage.store import GameStore
from maxima_board.rules import START_FEN, FenError, Position
from maxima_board.rules.notation import MAX_PLIES
from maxima_board.cli.config import ConfigError, find_config, load_config

ROOT = Path(__file__).resolve().parent.parent
HUGE = "9" * 5000                  # beyond int()'s 4,300-digit limit
START_ROWS = START_FEN.split()[0]


def one_line_error(capsys) -> str:
    captured = capsys.readouterr()
    assert captured.out == ""
    err = captured.err
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert "Traceback" not in err
    return err


def usage_error(capsys, argv: list[str]) -> str:
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    return one_line_error(capsys)


@pytest.fixture
def db(tmp_path) -> str:
    path = str(tmp_path / "games.db")
    store = GameStore(path)
    store.new_game(START_FEN)
    store.close()
    return path


def replay_error(capsys, script: str) -> str:
    sys_stdin = sys.stdin
    sys.stdin = io.StringIO(script)
    try:
        assert main(["replay", "-"]) == 2
    finally:
        sys.stdin = sys_stdin
    return one_line_error(capsys)


def sim_output(tmp_path, script: str) -> str:
    out = io.StringIO()
    assert run_sim(Settings(db_path=str(tmp_path / "sim.db")), io.StringIO(script), out) == 0
    return out.getvalue()


# ------------------------------------------------ 1. export of a huge game number
def test_export_game_number_beyond_sqlite_integers_is_one_line_exit_2(db, capsys):
    err = usage_error(capsys, ["export", "1" + "0" * 30, "--db", db])
    assert err.startswith("maxima-board export: GAME must be a whole number from 1 to 9223372036854775807")
    assert main(["export", "1", "--db", db]) == 0          # the game that exists is still exported
    assert "[Variant" in capsys.readouterr().out


# ------------------------------------------------ 2. ASCII digits only
def test_perft_refuses_arabic_indic_depth(capsys):
    err = usage_error(capsys, ["perft", "start", "\u0663"])
    assert "DEPTH must be a whole number from 0 to 8 (digits 0-9), got '\u0663'" in err


def test_export_refuses_arabic_indic_game_number(db, capsys):
    err = usage_error(capsys, ["export", "\u0662", "--db", db])
    assert "GAME must be a whole number" in err and "(digits 0-9)" in err


def test_replay_refuses_arabic_indic_wait(capsys):
    err = replay_error(capsys, "lift d3\nwait \u0663\u0660\u0660\n")
    assert err.startswith("maxima-board replay: line 2: wait needs a whole number of milliseconds")
    assert "got '\u0663\u0660\u0660'" in err


def test_sim_refuses_arabic_indic_wait_and_goes_on(tmp_path):
    out = sim_output(tmp_path, "wait \u0663\u0660\u0660\nlift d3\nplace d4\nwait 400\n")
    assert "error wait needs a whole number of milliseconds" in out
    assert "move 1 d3-d4 " in out


def test_run_seconds_refuses_arabic_indic_digits(capsys, monkeypatch, tmp_path):
    # were it accepted, run would play the simulated board: keep it off the user's games
    monkeypatch.setenv("MAXIMA_BOARD_DB", str(tmp_path / "games.db"))
    monkeypatch.setenv("MAXIMA_BOARD_CONFIG", "")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    err = usage_error(capsys, ["run", "--seconds", "\u0663"])
    assert "--seconds N must be a number" in err


def test_superscript_digit_no_longer_leaks_argparse_internals(capsys):
    """'²'.isdigit() is True but int('²') fails: argparse said 'invalid _depth value'."""
    err = usage_error(capsys, ["perft", "start", "\u00b2"])
    assert "_depth" not in err and "DEPTH must be" in err


# ------------------------------------------------ 3. digit limit and absurd values
def test_replay_wait_of_5000_digits_names_the_line(capsys):
    err = replay_error(capsys, f"lift d3\nplace d4\nwait {HUGE}\n")
    assert err.startswith("maxima-board replay: line 3: wait needs")
    assert "(5000 characters)" in err and "Exceeds the limit" not in err


def test_sim_wait_and_fen_of_5000_digits_are_line_errors_and_the_session_goes_on(tmp_path):
    out = sim_output(tmp_path, f"wait {HUGE}\nfen {START_ROWS} w {HUGE}\nlift d3\nplace d4\nwait 400\n")
    assert "error wait needs a whole number of milliseconds" in out
    assert "error bad FEN: half-move number must be a whole number from 0 to 1000000" in out
    assert "move 1 d3-d4 " in out                       # the session survived both


def test_replay_fen_half_move_of_5000_digits_names_the_line(capsys):
    err = replay_error(capsys, f"lift d3\nfen {START_ROWS} w {HUGE}\n")
    assert err.startswith("maxima-board replay: line 2: bad FEN: half-move number")


@pytest.mark.parametrize("ms", ["1" + "0" * 29, str(MAX_WAIT_MS + 1)])
def test_wait_beyond_a_day_is_refused(capsys, ms):
    err = replay_error(capsys, f"wait {ms}\n")
    assert f"line 1: wait needs a whole number of milliseconds from 0 to {MAX_WAIT_MS} (24 h" in err


def test_wait_of_exactly_a_day_is_accepted(capsys):
    sys_stdin, sys.stdin = sys.stdin, io.StringIO(f"wait {MAX_WAIT_MS}\n")
    try:
        assert main(["replay", "-"]) == 0
    finally:
        sys.stdin = sys_stdin


@pytest.mark.parametrize("plies", ["1" + "0" * 30, str(MAX_PLIES + 1)])
def test_fen_half_move_number_beyond_the_bound_is_refused(plies):
    with pytest.raises(FenError, match=f"half-move number must be a whole number from 0 to {MAX_PLIES}"):
        Position(f"{START_ROWS} w {plies}")


def test_fen_half_move_number_at_the_bound_is_read():
    assert Position(f"{START_ROWS} w {MAX_PLIES}").fen().endswith(f" w {MAX_PLIES}")


# ------------------------------------------------ 4. perft depth and Ctrl-C
@pytest.mark.parametrize("depth", ["99", str(MAX_PERFT_DEPTH + 1)])
def test_perft_depth_above_the_maximum_is_refused(depth):
    # a process with a time limit: accepting the depth would count for ever
    done = subprocess.run([sys.executable, "-m", "maxima_board.cli.main", "perft", "start", depth], cwd=ROOT,
                          capture_output=True, text=True, timeout=60, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == (f"maxima-board perft: DEPTH must be a whole number from 0 to {MAX_PERFT_DEPTH}, "
                           f"got '{depth}' (see maxima-board perft --help)\n")


def test_perft_help_states_the_maximum_depth(capsys):
    with pytest.raises(SystemExit):
        main(["perft", "--help"])
    assert f"0 to {MAX_PERFT_DEPTH}" in capsys.readouterr().out


# Imports everything, then says "counting" from inside perft itself, so that
# the SIGINT the test sends can only arrive while perft runs.
_PERFT_WRAPPER = """
import sys
from maxima_board.cli.main import main
from maxima_board.rules import Position
counting = Position.perft
def announced(self, depth):
    print("counting", flush=True)
    return counting(self, depth)
Position.perft = announced
sys.exit(main(["perft", "start", "8"]))
"""


def test_perft_stops_on_ctrl_c_with_one_line_and_exit_130():
    proc = subprocess.Popen([sys.executable, "-c", _PERFT_WRAPPER], cwd=ROOT, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=dict(os.environ, PYTHONPATH=str(ROOT)))
    try:
        assert proc.stdout.readline() == "counting\n"
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130
    assert err == "maxima-board perft: interrupted\n"


# ------------------------------------------------ 5. config files
def _config_error(path: Path) -> str:
    with pytest.raises(ConfigError) as info:
        load_config(path, environ={})
    message = str(info.value)
    assert "\n" not in message and message.startswith(f"config {path}: ")
    return message[len(f"config {path}: "):]


def test_config_binary_file_is_named(tmp_path):
    path = tmp_path / "board.toml"
    path.write_bytes(b"\x7fELF\x02\x01\x01\x00\x00\x00hardware")
    assert _config_error(path) == "a binary file, not TOML text"


def test_config_not_utf8_says_where(tmp_path):
    path = tmp_path / "board.toml"
    path.write_bytes(b'hardware = "sim"\n[game]\nwhite = "Ren\xe9"\n')
    assert _config_error(path) == "not UTF-8 text (byte 0xe9 at line 3, column 13)"


def test_config_with_a_utf8_byte_order_mark_is_read(tmp_path):
    path = tmp_path / "board.toml"
    path.write_bytes(b'\xef\xbb\xbfhardware = "sim"\n[timings]\nsettle_ms = 350\n')
    config = load_config(path, environ={})
    assert config.hardware == "sim" and config.settings().settle_ms == 350


def test_config_directory_is_not_file_not_found(tmp_path):
    path = tmp_path / "board.toml"
    path.mkdir()
    with pytest.raises(ConfigError, match=r"board.toml: is a directory, not a file$"):
        find_config(str(path), environ={})
    assert _config_error(path) == "is a directory, not a file"


def test_config_number_of_5000_digits_is_named(tmp_path):
    path = tmp_path / "board.toml"
    path.write_text(f'hardware = "sim"\n[timings]\nsettle_ms = {HUGE}\n')
    assert _config_error(path) == f"not valid TOML: a number has more than {sys.get_int_max_str_digits()} digits"


def test_config_refuses_arabic_indic_digits(tmp_path):
    """TOML reads ASCII digits only; the error names the file and the place."""
    path = tmp_path / "board.toml"
    path.write_text('hardware = "sim"\n[timings]\nsettle_ms = \u0663\u0660\u0660\n', encoding="utf-8")
    assert _config_error(path) == "not valid TOML: Invalid value (at line 3, column 13)"


def test_config_absurd_number_is_a_range_error(tmp_path):
    path = tmp_path / "board.toml"
    path.write_text('hardware = "sim"\n[timings]\nsettle_ms = 1000000000000000000000000000000\n')
    assert "settle_ms" in _config_error(path)


# ------------------------------------------------ 6. analyze's exit code
def test_analyze_exits_1_when_a_line_failed_and_0_when_none_did(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"start\n{START_ROWS} w {HUGE}\nstart\n"))
    assert main(["analyze"]) == 1
    reports = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [("error" in r) for r in reports] == [False, True, False]
    assert "half-move number" in reports[1]["error"]
    monkeypatch.setattr(sys, "stdin", io.StringIO("start\n"))
    assert main(["analyze"]) == 0


def test_readme_states_the_analyze_exit_code():
    readme = (ROOT / "README.md").read_text()
    line = next(l for l in readme.splitlines() if "maxima-board analyze" in l)
    assert "exit 1" in line


# ------------------------------------------------ 7. argument names
@pytest.mark.parametrize("argv, name", [(["perft", "start", "x"], "DEPTH"), (["export", "x"], "GAME"),
                                        (["perft", "start", "-1"], "DEPTH")])
def test_argument_errors_name_the_argument_as_help_shows_it(capsys, argv, name):
    err = usage_error(capsys, argv)
    assert f": {name} must be" in err and "invalid" not in err and "_" not in err.split(":")[1]


# ------------------------------------------------ 8. the first hour's error texts (issue 21)
def test_sim_typed_error_does_not_name_a_script_line(tmp_path):
    out = sim_output(tmp_path, "show\nshow\nshow\nshow\nlift zz\n")
    assert "error unknown square 'zz'" in out
    assert "line 5" not in out


def test_sim_unknown_command_lists_the_commands_once(tmp_path):
    out = sim_output(tmp_path, "hop\n")
    line = next(l for l in out.splitlines() if l.startswith("error "))
    assert line.count("lift") == 1 and line.count("opponent") == 1, line
    assert "quit" in line and "'hop'" in line


def test_sim_unknown_variant_names_the_option_once(capsys):
    err = usage_error(capsys, ["sim", "--variant", "nosuch"])
    assert err.count("--variant") == 1, err
    assert "unknown game 'nosuch'" in err


def test_moves_with_a_chess_fen_hints_at_variant(capsys):
    assert main(["moves", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"]) == 2
    err = one_line_error(capsys)
    assert "--variant" in err and "bad FEN" in err


def test_moves_with_an_ultima_fen_names_the_game_that_reads_it(capsys):
    from maxima_board.rules import variants
    assert main(["moves", variants.get("ultima").start_fen]) == 2
    err = one_line_error(capsys)
    assert "--variant ultima" in err


def test_moves_with_variant_given_does_not_guess(capsys):
    assert main(["moves", "8/8 w 0", "--variant", "ultima"]) == 2
    assert "--variant" not in one_line_error(capsys)


def test_help_names_every_family_of_games(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    description = capsys.readouterr().out.split("\n\n")[1]   # after the usage line, before the commands
    for word in ("Maxima", "Ultima", "Deckle", "Optima"):
        assert word in description
