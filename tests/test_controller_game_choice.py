"""Choosing the game on the board (issue 21): MENU → "Play …?" in play and
"Game" in set-up, every game the board holds in the order of
``maxima-board variants``; pieces outside the new game lit and named;
nothing asks for a piece nobody lifted; the board's own first game."""
from __future__ import annotations

from controller.core import Controller
from controller.script import Runner
from controller.settings import Settings
from controller.store import GameStore
from hardware.config import load_config


def words(lines: list[str]) -> str:
    return " ".join(lines)


def test_menu_in_play_offers_the_next_game_first_and_needs_no_piece_moved():
    runner = Runner(Settings())
    c = runner.controller
    runner.press("menu")
    assert "Play Ultima?" in words(c.display)
    runner.press("ok")
    assert c.mode == "setup" and c.variant == "ultima"
    assert "Game: Ultima" in words(c.display)
    runner.press("ok")                                       # OK on "Game": the one after
    assert c.variant == "ultima-pure" and "Game: Ultima (pure)" in words(c.display)
    runner.press("ok")
    assert c.variant == "maxima"


def test_menu_game_asks_before_abandoning_a_game_with_moves():
    store = GameStore(":memory:")
    runner = Runner(Settings(), store=store)
    c = runner.controller
    runner.lift("d3"), runner.place("d4"), runner.wait(400)
    runner.press("menu"), runner.press("ok")
    assert c.mode == "play" and "Abandon game 1?" in words(c.display)
    runner.press("back")                                     # no: the game goes on
    assert c.mode == "play" and c.moves == ["d3-d4"] and "Abandon" not in words(c.display)
    runner.press("menu"), runner.press("ok"), runner.press("ok")
    assert c.mode == "setup" and c.variant == "ultima"
    game = store.games()[0]
    assert game.finished and game.reason == "abandoned" and store.moves(game.id) == ["d3-d4"]


def test_pieces_outside_the_new_game_are_lit_and_named_and_none_is_asked_for_twice():
    runner = Runner(Settings())
    c = runner.controller
    runner.press("menu"), runner.press("ok")                 # Maxima → Ultima: rank 9 is off Ultima's board
    runner.wait(400)
    leds = c.leds
    for square in ("b9", "d9", "e9", "g9"):
        assert leds[square] == "error-extra", leds
    assert "b9" in words(c.display) and "not part of the game" in words(c.display)
    runner.press("ok"), runner.press("ok")                   # → Ultima (pure) → Maxima again
    runner.wait(400)
    assert c.variant == "maxima"
    assert c.leds == {} and "Place" not in words(c.display), (c.leds, c.display)
    runner.press("back")                                     # leave "Game"
    assert "Board set up" in words(c.display)
    runner.press("ok")
    assert c.mode == "play" and c.variant == "maxima"


def test_after_resigning_with_the_start_standing_it_does_not_ask_to_set_it_up():
    runner = Runner(Settings())
    c = runner.controller
    runner.press("menu"), runner.press("menu"), runner.press("ok")    # White resigns
    assert c.result == "0-1"
    assert "Set up the start" not in words(c.display) and "OK or NEW" in words(c.display)
    runner.press("ok")
    assert c.mode == "play" and c.game_id == 2
    runner.lift("d3"), runner.place("d4"), runner.wait(400)
    runner.press("menu"), runner.press("menu"), runner.press("ok")    # Black resigns, d4 not on its start
    assert "Set up the start, then NEW" in words(c.display)


def test_a_ten_by_ten_board_without_a_game_starts_its_first_game(tmp_path):
    assert Controller(Settings(board_kind="10x10")).variant == "ultima"
    cfg = tmp_path / "board.toml"
    cfg.write_text('hardware = "pico"\n[board]\nkind = "10x10"\n[pico]\ndevice = "/dev/no-such-pico"\n')
    settings = load_config(cfg).settings()
    assert Controller(settings).variant == "ultima"
    assert Controller(Settings(board_kind="10x10", variant="optima")).variant == "optima"


# ---------------------------------------------------------------- sim and replay --board
def sim_text(tmp_path, script: str, **kwargs) -> str:
    import io

    from controller.sim import run_sim

    out = io.StringIO()
    settings = kwargs.pop("settings", Settings(db_path=str(tmp_path / "g.db")))
    assert run_sim(settings, io.StringIO(script), out, **kwargs) == 0
    return out.getvalue()


def test_sim_on_the_ten_by_ten_board_speaks_its_squares(tmp_path):
    """Ultima stands on b2…i9: the board's b3 is the game's a2."""
    out = sim_text(tmp_path, "lift b3\nplace b6\nwait 400\n",
                   settings=Settings(db_path=str(tmp_path / "g.db"), board_kind="10x10"), board="10x10")
    assert "move 1 a2-a5 " in out
    assert "leds last-from b3; last-to b6" in out


def test_a_piece_on_a_board_square_named_like_a_game_square_lights_only_itself():
    runner = Runner(Settings(board_kind="10x10"), board="10x10")
    runner.place("a1")                       # the board's a1: outside Ultima (whose a1 is the board's b2)
    runner.wait(2000)
    assert runner.controller.leds == {"a1": "error-extra"}
    assert "a1" in words(runner.controller.display)


def test_sim_default_is_the_maxima_board_and_shows_pieces_outside_the_game(tmp_path):
    out = sim_text(tmp_path, "press menu\npress ok\nwait 400\nshow\n", board="maxima")
    assert "set up clhwkhli/" in out                         # Ultima chosen by MENU, OK
    rank9 = next(line for line in out.splitlines() if line.startswith(" 9 "))
    assert rank9.split()[1:] == [".", "*X", ".", "*X", "*X", ".", "*X", "."], rank9


def test_replay_board_option(tmp_path):
    import json
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-m", "controller.cli", "replay", "--board", "10x10", "-"],
                          input="lift b3\nplace b6\nwait 400\n", text=True, capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr
    final = json.loads(done.stdout.splitlines()[-1])
    assert final["moves"] == ["a2-a5"] and final["leds"] == {"b3": "last-from", "b6": "last-to"}
    bad = subprocess.run([sys.executable, "-m", "controller.cli", "replay", "--board", "maxima", "--variant",
                          "optima", "-"], input="", text=True, capture_output=True, timeout=60)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1
    assert "Optima needs the 10×10 board" in bad.stderr


def test_run_with_a_simulated_ten_by_ten_board_plays_its_first_game_on_its_squares(tmp_path):
    import os
    import subprocess
    import sys
    cfg = tmp_path / "board.toml"
    cfg.write_text(f'hardware = "sim"\n[board]\nkind = "10x10"\n[database]\npath = "{tmp_path / "g.db"}"\n')
    env = dict(os.environ, MAXIMA_BOARD_CONFIG="")
    done = subprocess.run([sys.executable, "-m", "controller.cli", "run", "--config", str(cfg)],
                          input="lift b3\nplace b6\nwait 400\nquit\n", text=True, capture_output=True,
                          timeout=60, env=env)
    assert done.returncode == 0, done.stderr
    assert "Game 1: Ultima" in done.stdout and "move 1 a2-a5 " in done.stdout


# ---------------------------------------------------------------- a newcomer's presses
def presses_to(game: str, board: str) -> list[str]:
    """The buttons a newcomer presses on a fresh simulated board to have
    ``game`` chosen: MENU (its first item offers the next game), then OK
    until it is the game being set up."""
    runner = Runner(Settings(board_kind=board), board=board)
    c = runner.controller
    pressed: list[str] = []
    while c.variant != game:
        button = "ok" if pressed else "menu"
        runner.press(button)
        pressed.append(button)
        assert len(pressed) <= 25, (game, board, c.display)
    return pressed


def test_every_game_of_the_maxima_board_is_chosen_in_three_presses_or_fewer():
    from hardware.boards import games_for
    from engine import variants
    games = games_for("maxima")
    assert games == [g for g in variants.names() if g in games]      # in the order of `variants`
    for game in games:
        assert len(presses_to(game, "maxima")) <= 3, game


def test_every_game_of_the_ten_by_ten_board_is_chosen_by_buttons_and_by_one_typed_line(tmp_path):
    """Four buttons cannot reach 20 games in three presses (MENU, then 16
    two-press sequences for 19 other games): on the 10x10 board MENU → OK
    walks the games in the order of `variants`, and the simulator chooses
    any of them in one typed line."""
    from hardware.boards import games_for
    games = games_for("10x10")
    for n, game in enumerate(games):
        assert len(presses_to(game, "10x10")) == (n + 1 if n else 0), game
        out = sim_text(tmp_path / game, f"variant {game}\nshow\n",
                       settings=Settings(db_path=str(tmp_path / f"{game}.db"), board_kind="10x10"), board="10x10")
        assert not any(line.startswith("error ") for line in out.splitlines()), out
        assert "game 2 started from" in out, out


def test_sim_resumes_a_game_of_the_other_board_on_that_board(tmp_path):
    import subprocess
    import sys
    db = str(tmp_path / "g.db")

    def sim(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "controller.cli", "sim", "--db", db, *args], input="quit\n",
                              text=True, capture_output=True, timeout=60)

    assert sim("--variant", "optima-9x9", "--board", "10x10").returncode == 0
    done = sim()                                             # the default Maxima board cannot hold it
    assert done.returncode == 0, done.stderr
    assert "is played on the 10×10 board" in done.stdout and "game 1 resumed" in done.stdout
    refused = sim("--board", "maxima")                       # asked for: one line saying how
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1
    assert "'sim --board 10x10' resumes it" in refused.stderr


def test_menu_after_a_game_goes_to_the_game_choice():
    runner = Runner(Settings())
    c = runner.controller
    runner.press("menu"), runner.press("menu"), runner.press("ok")    # White resigns
    assert c.mode == "ended"
    runner.press("menu")
    assert c.mode == "setup" and "Game: Maxima" in words(c.display)
    runner.press("ok")
    assert c.variant == "ultima"
