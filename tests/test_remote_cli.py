"""Starting a remote game (issue 33): the command line's options and the
config's [remote], and what each says about bad input, in one line."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from maxima_board.cli.config import ConfigError, parse_config
from maxima_board.cli.remote import NAME, read_key
from maxima_board.service.remote_wire import game_id, new_name

ROOT = Path(__file__).resolve().parent.parent


def cli(*args: str, timeout: float = 30) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "maxima_board", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT, env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"},
                          stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("args, says", [
    (["--remote", "127.0.0.1:1883", "--side", "white"], "--remote-game missing"),
    (["--remote", "127.0.0.1:1883", "--remote-game", "abcdef-123"], "--side missing"),
    (["--remote-game", "abcdef-123", "--side", "black"], "--remote missing"),
    (["--remote", "127.0.0.1:99999", "--remote-game", "abcdef-123", "--side", "black"], "port"),
    (["--remote", "127.0.0.1:1883", "--remote-game", "a b", "--side", "black"], "not a game name"),
    (["--remote", "127.0.0.1:1883", "--remote-game", "abcdef-123", "--side", "black",
      "--remote-key-file", "/nonexistent/key"], "--remote-key-file /nonexistent/key"),
    (["--remote", "127.0.0.1:1883", "--remote-game", "abcdef-123", "--side", "black", "--opponent", "white"],
     "the other side is played elsewhere"),
])
def test_a_remote_game_that_cannot_be_is_one_line_and_exit_2(args, says, tmp_path):
    result = cli("sim", "--db", str(tmp_path / "games.db"), *args)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and says in lines[0], result.stderr
    assert not (tmp_path / "games.db").exists()      # nothing touched


def test_a_key_file_gives_its_first_line_and_refuses_an_empty_one(tmp_path):
    key = tmp_path / "key"
    key.write_text("s3cret-words\nignored\n")
    assert read_key(str(key), "--remote-key-file") == "s3cret-words"
    key.write_text("\n")
    with pytest.raises(ValueError, match="expected the key on its first line"):
        read_key(str(key), "--remote-key-file")


def test_a_new_game_name_is_random_readable_and_its_public_id_tells_nothing_of_it():
    names = {new_name() for _ in range(50)}
    assert len(names) == 50 and all(NAME.match(n) and len(n) == 19 for n in names)
    name = next(iter(names))
    assert game_id(name) != game_id(name + "x") and name not in game_id(name)
    assert len(game_id(name)) == 20


def test_the_config_remote_section():
    config = parse_config('hardware = "sim"\n[remote]\nbroker = "club.example.org:8883"\ngame = "abcd-efgh-1234"\n'
                          'side = "black"\nusername = "board7"\npassword_file = "pw"\n', environ={})
    assert config.remote.broker == "club.example.org:8883" and config.remote.side == "black"
    assert config.remote.auth().username == "board7"


@pytest.mark.parametrize("section, says", [
    ('[remote]\ngame = "abcd-efgh-1234"\nside = "white"\n', "[remote] broker"),
    ('[remote]\nbroker = "h:1883"\ngame = "abcd-efgh-1234"\n', "[remote] game"),
    ('[remote]\nbroker = "h:1883"\nside = "white"\n', "[remote] side"),
    ('[remote]\nbroker = "h:1883"\ngame = "no"\nside = "white"\n', "not a game name"),
    ('[remote]\nbroker = "h:1883"\nside = "red"\ngame = "abcd-efgh-1234"\n', "[remote] side"),
    ('[remote]\nbroker = "h:1883"\npassword_file = "pw"\n', "a password needs a username"),
    ('[remote]\nbroker = "h:1883"\nkey = "x"\n', "unknown key"),
])
def test_a_bad_remote_section_names_its_key(section, says):
    with pytest.raises(ConfigError) as info:
        parse_config('hardware = "sim"\n' + section, environ={})
    assert says in str(info.value) and "\n" not in str(info.value)


def test_the_command_line_loads_no_network_library_before_it_needs_one():
    """The installer checks the installed command (``engine --check``) before
    any dependency is there; the remote options must not pull in msgspec,
    paho or aiohttp just to be parsed."""
    code = ("import sys, maxima_board.cli.main as m; m.build_parser(); "
            "print(sorted(n for n in ('msgspec', 'paho', 'aiohttp') if n in sys.modules))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                            env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"})
    assert result.returncode == 0 and result.stdout.strip() == "[]", result.stderr
