"""Issue 32, findings 3 and 4: ``sim``, ``replay`` and ``serve`` read the
game options the same way (a game's title in any case, the config's "did
you mean"), a board asked for can abandon an unfinished game of another
board without losing it, and a script that ends with the board standing
wrong says so and exits 1. (The broker and the web page: tests/club/test_club_commands.py.)"""
from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from maxima_board.board.settings import Settings
from maxima_board.cli.sim import run_sim
from maxima_board.devices.boards import PlacementError
from maxima_board.rules import variants
from maxima_board.storage.store import GameStore

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = ("sim", "replay", "serve")
# White's Pawn c3-c4, then (Black to move) the same Pawn on to c6: refused.
REFUSED = "lift c3\nplace c4\nwait 400\nlift c4\nplace c6\nwait 400\n"


def cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "src"), str(ROOT)]))
    return subprocess.run([sys.executable, "-m", "maxima_board.cli.main", *args], input=stdin, text=True,
                          capture_output=True, cwd=ROOT, env=env, timeout=60)


def command(name: str, tmp_path: Path, *options: str, lines: str = "") -> subprocess.CompletedProcess:
    """``name`` run with ``options`` on its own database; ``lines`` typed
    (sim, serve: then ``quit``) or the script (replay)."""
    db = str(tmp_path / "games.db")
    if name == "replay":
        return cli("replay", "-", *options, stdin=lines)
    if name == "serve":
        return cli("serve", "--db", db, "--port", "0", "--bind", "127.0.0.1", *options, stdin=lines + "quit\n")
    return cli("sim", "--db", db, *options, stdin=lines + "quit\n")


def started_fen(name: str, done: subprocess.CompletedProcess) -> str:
    """The FEN the first game started from, as the command printed it."""
    if name == "replay":
        return json.loads(done.stdout.splitlines()[0])["fen"]
    line = next(line for line in done.stdout.splitlines() if line.startswith("game 1 started from "))
    return line[len("game 1 started from "):].split(",")[0]


# ------------------------------------------------------------ game names
@pytest.mark.parametrize("name", COMMANDS)
@pytest.mark.parametrize("typed,game", [("Swapper", "swapper-chess"), ("long leaper chess 10X8", "long-leaper-chess-10x8"),
                                        ("SWAPPER-CHESS", "swapper-chess")])
def test_a_game_is_chosen_by_its_title_in_any_case(name, typed, game, tmp_path):
    done = command(name, tmp_path, "--variant", typed)
    assert done.returncode == 0, done.stderr
    assert started_fen(name, done) == variants.get(game).start_fen


@pytest.mark.parametrize("name", COMMANDS)
def test_an_unknown_game_gets_the_nearest_name(name, tmp_path):
    done = command(name, tmp_path, "--variant", "swaper")
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "unknown game 'swaper'" in done.stderr and 'did you mean "swapper-chess"?' in done.stderr


def test_the_config_file_takes_a_game_title_too():
    from maxima_board.cli.config import parse_config

    assert parse_config('hardware = "sim"\n[board]\nkind = "10x10"\n[game]\nvariant = "Optima 9x9"\n').settings().variant == "optima-9x9"


# ------------------------------------------------------------ abandoning
def _unfinished_maxima_game(tmp_path: Path) -> None:
    done = command("sim", tmp_path, lines="lift d3\nplace d4\nwait 400\n")
    assert done.returncode == 0 and "move 1 d3-d4" in done.stdout, done.stderr


@pytest.mark.parametrize("name", ("sim", "serve"))
def test_a_board_asked_for_abandons_an_unfinished_game_it_cannot_hold_and_keeps_it(name, tmp_path):
    _unfinished_maxima_game(tmp_path)
    refused = command(name, tmp_path, "--board", "10x10")
    error = refused.stderr.splitlines()[-1]              # (serve: after the page's address)
    assert refused.returncode == 2 and error.startswith(f"maxima-board {name}: game 1 (Maxima, 1 move) is unfinished")
    assert "'--board maxima' resumes it, or '--abandon'" in error

    done = command(name, tmp_path, "--board", "10x10", "--abandon")
    assert done.returncode == 0, done.stderr
    assert "game 1 abandoned after 1 move; it stays stored" in done.stdout
    assert "game 2 started from " + variants.get("ultima").start_fen in done.stdout
    record = cli("export", "1", "--db", str(tmp_path / "games.db")).stdout
    assert '[Termination "abandoned"]' in record and "Pd3-d4" in record and '[Variant "Maxima"]' in record


def test_the_question_on_a_terminal_abandons_only_on_yes(tmp_path):
    _unfinished_maxima_game(tmp_path)
    db = str(tmp_path / "games.db")
    settings = Settings(db_path=db, variant="ultima", board_kind="10x10")
    asked: list[str] = []

    def no(question: str) -> bool:
        asked.append(question)
        return False

    with pytest.raises(PlacementError, match="game 1 .*'--abandon'"):
        run_sim(settings, io.StringIO("quit\n"), io.StringIO(), board="10x10", abandon=no)
    assert asked and asked[0].startswith("game 1 (Maxima, 1 move) is unfinished") and "Abandon it" in asked[0]
    store = GameStore(db, readonly=True)
    assert store.unfinished().id == 1
    store.close()

    out = io.StringIO()
    assert run_sim(settings, io.StringIO("quit\n"), out, board="10x10", abandon=lambda q: True) == 0
    assert "game 1 abandoned" in out.getvalue()
    store = GameStore(db, readonly=True)
    assert store.game(1).reason == "abandoned" and store.moves(1) == ["d3-d4"] and store.unfinished().id == 2
    store.close()


def test_ask_takes_yes_and_nothing_else():
    from maxima_board.cli.abandon import ask

    out = io.StringIO()
    assert ask("Abandon it?", io.StringIO("Yes\n"), out) and out.getvalue() == "Abandon it? [y/N] "
    assert not ask("Abandon it?", io.StringIO("\n"), io.StringIO())
    assert not ask("Abandon it?", io.StringIO(""), io.StringIO())


# ------------------------------------------------------------ a script tells the truth
def test_replay_exits_1_with_one_error_line_when_the_script_ends_on_a_refused_move():
    done = cli("replay", "-", stdin=REFUSED)
    assert done.returncode == 1
    events = [json.loads(line) for line in done.stdout.splitlines()]
    errors = [e for e in events if e["type"] == "error"]
    assert len(errors) == 1 and errors[0]["missing"] == ["c4"] and errors[0]["extra"] == ["c6"]
    assert events[-1]["type"] == "final" and events[-1]["moves"] == ["c3-c4"]
    assert done.stderr.count("\n") == 1 and "standing wrong" in done.stderr and "c6" in done.stderr


def test_replay_lets_a_move_still_settling_commit_before_the_final_line():
    done = cli("replay", "-", stdin="lift d3\nplace d4\n")
    assert done.returncode == 0, done.stderr
    final = json.loads(done.stdout.splitlines()[-1])
    assert final["type"] == "final" and final["moves"] == ["d3-d4"]
