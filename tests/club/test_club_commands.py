"""Issue 32, finding 3 on a real Mosquitto and real HTTP on loopback: the
game, board and clock options work the same in ``sim``, ``replay`` and
``serve`` with ``--broadcast``; ``serve --board`` gives the web page's New
game form that board's games, and a new game from the form stays on it;
the games list names each game by its title."""
from __future__ import annotations

import json
import re
import subprocess
import urllib.error
import urllib.request

import pytest

from maxima_board.devices.boards import BOARDS, games_for

from .conftest import MAXIMA_BOARD, wait_for
from .test_club_broadcast import Listener

REFUSED = "lift c3\nplace c4\nwait 400\nlift c4\nplace c6\nwait 400\n"


def run(command: str, tmp_path, *options: str, lines: str = "") -> subprocess.CompletedProcess:
    """``command`` with ``options``; ``lines`` typed (then ``quit``) or the script (replay)."""
    if command == "replay":
        args, stdin = ["replay", "-"], lines
    else:
        args, stdin = [command, "--db", str(tmp_path / "games.db")], lines + "quit\n"
        if command == "serve":
            args += ["--port", "0", "--bind", "127.0.0.1"]
    return subprocess.run(MAXIMA_BOARD + args + list(options), input=stdin, text=True, capture_output=True,
                          timeout=60)


@pytest.mark.parametrize("command", ("sim", "replay", "serve"))
@pytest.mark.parametrize("options,game,clocks", [
    (("--variant", "ultima", "--clock", "90+30"), "ultima", 90 * 60_000),
    (("--board", "10x10", "--variant", "Optima 9x9", "--clock", "60d10"), "optima-9x9", 60 * 60_000),
    (("--clock", "5+3", "--board", "maxima"), "maxima", 5 * 60_000),
])
def test_game_board_and_clock_options_are_broadcast_the_same_by_every_command(broker, tmp_path, command,
                                                                              options, game, clocks):
    table = f"{command}-{game}-{clocks}"
    listener = Listener(broker, f"maxima-board/agree/{table}/state")
    try:
        done = run(command, tmp_path, *options, "--broadcast", broker.address, "--club", "agree",
                   "--table", table)
        assert done.returncode == 0, done.stderr
        state = wait_for(lambda: listener.get(f"maxima-board/agree/{table}/state"), what="the board's state")
        assert state["variant"] == game
        assert state["clocks"]["black"] == clocks and clocks - 30_000 < state["clocks"]["white"] <= clocks
    finally:
        listener.close()
    if command == "replay":
        final = json.loads(done.stdout.splitlines()[-1])
        assert final["type"] == "final" and final["clocks"] == {"white": clocks, "black": clocks}
    else:
        assert f"clock {options[options.index('--clock') + 1]}" in done.stdout


def test_a_broadcast_replay_that_ends_on_a_refused_move_exits_1(broker):
    done = subprocess.run(MAXIMA_BOARD + ["replay", "-", "--broadcast", broker.address, "--club", "agree",
                                          "--table", "refused"], input=REFUSED, text=True, capture_output=True,
                          timeout=60)
    assert done.returncode == 1
    assert sum(json.loads(line)["type"] == "error" for line in done.stdout.splitlines()) == 1
    assert "standing wrong" in done.stderr


# ------------------------------------------------------------ serve and its page
class Served:
    """``maxima-board serve`` with ``options`` on loopback; ``type`` sends board lines."""

    def __init__(self, tmp_path, *options: str):
        self.process = subprocess.Popen(MAXIMA_BOARD + ["serve", "--port", "0", "--bind", "127.0.0.1", "--db",
                                                        str(tmp_path / "games.db"), *options],
                                        stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                        text=True)
        for line in self.process.stderr:
            found = re.match(r"maxima-board serve: (http://127\.0\.0\.1:\d+)/  web PIN (\d+)", line)
            if found:
                self.url, self.pin = found.groups()
                break
        else:
            raise AssertionError("serve did not start")

    def type(self, *lines: str) -> None:
        self.process.stdin.write("".join(line + "\n" for line in lines))
        self.process.stdin.flush()

    def get(self, path: str):
        """The JSON at ``path``; {} while the board is starting (503)."""
        try:
            with urllib.request.urlopen(self.url + path, timeout=10) as r:
                return json.loads(r.read())
        except urllib.error.HTTPError as exc:
            if exc.code == 503:
                return {}
            raise

    def new_game(self, fields: dict) -> dict:
        request = urllib.request.Request(self.url + "/api/new-game", json.dumps({"pin": self.pin, **fields}).encode(),
                                         {"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as r:
            return json.loads(r.read())

    def close(self) -> None:
        self.type("quit")
        self.process.stdin.close()
        assert self.process.wait(10) == 0


def test_serve_board_gives_the_form_its_games_and_a_new_game_stays_on_it(tmp_path):
    served = Served(tmp_path, "--board", "10x10", "--variant", "optima")
    try:
        state = wait_for(lambda: (lambda s: s if s.get("variant") == "optima" else None)(served.get("/api/state")),
                         what="the Optima game")
        assert state["board_kind"] == "10x10"
        assert [g["id"] for g in served.get("/api/variants")] == games_for("10x10")
        assert served.new_game({"setup": "off"})["ok"]                   # no game named: the board's first
        state = wait_for(lambda: (lambda s: s if s.get("game") == 2 else None)(served.get("/api/state")), what="game 2")
        assert state["variant"] in games_for("10x10") and state["board_kind"] == "10x10"
        assert set(state["leds"]) <= BOARDS["10x10"].squares
        assert served.new_game({"game": "long-leaper-chess", "setup": "off"})["ok"]
        state = wait_for(lambda: (lambda s: s if s.get("game") == 3 else None)(served.get("/api/state")), what="game 3")
        assert state["variant"] == "long-leaper-chess" and state["board_kind"] == "10x10"
        titles = {g["variant"]: g["title"] for g in served.get("/api/games")["games"]}
        assert titles["optima"] == "Optima" and titles["long-leaper-chess"] == "Long Leaper Chess"
    finally:
        served.close()


def test_the_form_offers_the_games_of_the_board_the_game_is_played_on(tmp_path):
    served = Served(tmp_path, "--variant", "optima")          # the game's own squares: a 10×10 game
    try:
        served.type("variant maxima")
        state = wait_for(lambda: (lambda s: s if s.get("variant") == "maxima" else None)(served.get("/api/state")),
                         what="the Maxima game")
        assert state["board_kind"] == "maxima"
        assert [g["id"] for g in served.get("/api/variants")] == games_for("maxima")
    finally:
        served.close()
