"""The computer opponent on the board (issue 11): the engine's move shown
with engine-from/engine-to and in words, made by the player and checked;
hints; the MENU items; a whole game in the simulator; replays."""
from __future__ import annotations

import contextlib
import io
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from typing import Iterator

import pytest

from maxima_board.service.script import Runner
from maxima_board.board.settings import Settings
from maxima_board.cli.sim import Sim
from maxima_board.storage.store import GameStore
from maxima_board.rules import Move
from maxima_board.cli.config import ConfigError, parse_config
from maxima_board.service.opponent_layer import OpponentLayer


def _board(engine: str = "greedy", side: str = "black", **kw) -> tuple[Runner, OpponentLayer]:
    runner = Runner(Settings())
    layer = OpponentLayer(runner.controller, side, 1, engine, sync=True, **kw)
    runner.controller = layer
    return runner, layer


def make(runner: Runner, move: Move) -> list[dict]:
    """Make ``move`` by hand: lift what it removes, lift the mover, put it down."""
    c = runner.controller
    names = c.position.geometry.names
    events = []
    if move.kind == "replacement":
        events += runner.lift(names[move.to_square])
    for sq in move.captures:
        if sq != move.to_square:
            events += runner.lift(names[sq])
    events += runner.lift(names[move.from_square])
    if move.to_square is None:
        events += runner.press("ok")
    else:
        events += runner.place(names[move.to_square])
    events += runner.wait(400)
    for _ in range(10):   # several moves look alike: step to this one, then OK
        text = " ".join(c.display)
        if "Which move?" not in text:
            break
        events += runner.press("ok" if str(move) in text.replace(" ", "") else "back")
    return events


def test_the_computers_move_is_shown_with_leds_and_words_and_made_by_the_player():
    runner, layer = _board()
    try:
        p = layer.position
        events = make(runner, p.legal_moves[0])
        shown = [e for e in events if e["type"] == "engine_move"]
        assert len(shown) == 1 and shown[0]["for"] == "computer"
        move = layer.position.parse_move(shown[0]["move"])
        names = layer.position.geometry.names
        assert layer.leds[names[move.from_square]] == "engine-from"
        assert layer.leds[names[move.to_square]] == "engine-to"
        piece = layer.position.piece_at(move.from_square).name
        text = " ".join(layer.display)
        assert f"Computer: {piece} {move}." in text and "Make it on the board." in text
        assert any(e["type"] == "leds" and e["leds"].get(names[move.to_square]) == "engine-to" for e in events)
        before = len(layer.moves)
        make(runner, move)
        assert layer.moves[before:] == [str(move)]
        assert "engine-from" not in layer.leds.values() and "Computer:" not in " ".join(layer.display)
    finally:
        layer.close()


def test_a_different_move_is_not_the_computers_and_is_taken_back():
    runner, layer = _board()
    try:
        make(runner, layer.position.legal_moves[0])
        shown = layer.position.parse_move(layer._shown.move.__str__())
        other = next(m for m in layer.position.legal_moves
                     if m.from_square != shown.from_square and m.kind == "move")
        events = make(runner, other)
        kinds = [e["type"] for e in events]
        assert "not_engine_move" in kinds and "takeback" in kinds
        assert str(other) not in layer.moves and layer.mode == "sync"
        assert "Not computer's move!" in layer.display
        names = layer.position.geometry.names
        assert layer.leds.get(names[shown.from_square]) == "engine-from"
        # put the piece back where it was: the game goes on, the computer's move still shown
        runner.lift(names[other.to_square])
        runner.place(names[other.from_square])
        runner.wait(5000)
        assert layer.mode == "play"
        make(runner, shown)
        assert layer.moves[-1] == str(shown)
    finally:
        layer.close()


def _menu_to(runner: Runner, layer: OpponentLayer, label: str) -> None:
    runner.press("menu")
    for _ in range(8):
        if label in " ".join(layer.display):
            return
        runner.press("menu")
    raise AssertionError(f"no menu item {label!r}: {layer.display}")


def test_menu_hint_shows_the_engines_move_for_the_player():
    runner, layer = _board(side="none")
    try:
        _menu_to(runner, layer, "Hint?")
        events = runner.press("ok")
        hint = [e for e in events if e["type"] == "engine_move"]
        assert [e["for"] for e in hint] == ["hint"]
        move = layer.position.parse_move(hint[0]["move"])
        names = layer.position.geometry.names
        assert layer.leds[names[move.from_square]] == "engine-from"
        assert "Hint: " in " ".join(layer.display)
        make(runner, move)   # no check on a hint: the player's own move
        assert layer.moves == [str(move)] and "engine-from" not in layer.leds.values()
    finally:
        layer.close()


def test_menu_play_the_computer_cycles_none_white_black():
    runner, layer = _board(side="none")
    try:
        _menu_to(runner, layer, "Computer: White?")
        events = runner.press("ok")
        assert {"type": "opponent", "side": "white"} in events
        assert [e["for"] for e in events if e["type"] == "engine_move"] == ["computer"]   # White to move
        _menu_to(runner, layer, "Computer: Black?")
        events = runner.press("ok")
        assert {"type": "opponent", "side": "black"} in events
        assert "engine-from" not in layer.leds.values()
        _menu_to(runner, layer, "Computer: off?")
        assert {"type": "opponent", "side": "none"} in runner.press("ok")
    finally:
        layer.close()


def test_a_killed_engine_is_reported_on_the_board_and_the_game_goes_on():
    runner, layer = _board()
    try:
        make(runner, layer.position.legal_moves[0])
        make(runner, layer._shown.move)
        os.kill(layer.questions.supervisor().pid, signal.SIGKILL)
        events = make(runner, layer.position.legal_moves[0])
        kinds = [e["type"] for e in events]
        assert "engine_restart" in kinds and kinds.index("engine_restart") < kinds.index("engine_move")
        assert "Computer restarting" in layer.display or "Computer not answering" in " ".join(layer.display)
        assert layer._shown is not None and layer._shown.key == layer._key()
    finally:
        layer.close()


def test_a_hung_engine_is_reported_and_replaced_in_the_background():
    """The real loop: answers come from a thread and reach the board on a tick."""
    runner = Runner(Settings())
    layer = OpponentLayer(runner.controller, "none", 1, "greedy", grace_s=1.5)
    runner.controller = layer
    try:
        layer.questions.supervisor().start().set_option("Hang", True)
        events = layer.set_side("white", runner.now)
        assert "Computer is thinking." in " ".join(layer.display)
        deadline = time.monotonic() + 20
        while not any(e["type"] == "engine_move" for e in events) and time.monotonic() < deadline:
            time.sleep(0.05)
            events += runner.wait(50)
        kinds = [e["type"] for e in events]
        assert "engine_restart" in kinds and "engine_move" in kinds
        assert all("at" in e for e in events if e["type"].startswith("engine"))
    finally:
        layer.close()


def test_the_board_plays_a_whole_game_against_a_baseline_engine():
    """A simulated player makes the computer's shown moves and its own random
    legal moves through lift/place, until the rules end the game."""
    rng = random.Random(3)
    runner, layer = _board("greedy", "black")
    try:
        names = layer.position.geometry.names
        computer_moves = 0
        while layer.result == "*" and len(layer.moves) < 300:
            p = layer.position
            if p.turn < 0:
                shown = layer._current()
                assert shown is not None and shown.kind == "computer"
                move = shown.move
                assert layer.leds[names[move.from_square]] == "engine-from"
                assert "Make it on the board." in " ".join(layer.display) or "Computer:" in layer.display[-1]
                computer_moves += 1
            else:
                move = rng.choice(p.legal_moves)
            before = len(layer.moves)
            make(runner, move)
            assert layer.moves[before:] == [str(move)], (layer.display, str(move))
        assert layer.result != "*" and layer.mode == "ended"
        assert layer.result == "0-1", "greedy beats random"   # seeded: the same every run
        assert computer_moves >= 5 and "engine-from" not in layer.leds.values()
    finally:
        layer.close()


def _replay(script: str) -> list[dict]:
    out = subprocess.run([sys.executable, "-m", "maxima_board.cli.main", "replay", "-", "--engine", "greedy"],
                         input=script, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return [json.loads(line) for line in out.stdout.splitlines()]


def test_replay_awaits_the_engine_and_repeats_itself():
    script = "opponent black 3\nlift e3\nplace e5\nwait 400\n"
    first, second = _replay(script), _replay(script)
    assert first == second
    moves = [e for e in first if e["type"] == "engine_move"]
    assert len(moves) == 1 and moves[0]["for"] == "computer"
    final = first[-1]
    assert final["moves"] == ["e3-e5"] and "engine-from" in final["leds"].values()
    assert any("Computer:" in line for line in final["display"])


def test_replay_opponent_line_errors_name_the_line():
    out = subprocess.run([sys.executable, "-m", "maxima_board.cli.main", "replay", "-"], input="wait 1\nopponent red\n",
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "line 2: opponent needs" in out.stderr


@contextlib.contextmanager
def sim_awaiting_the_computer() -> Iterator[tuple[Sim, io.StringIO]]:
    """A simulated board (in-memory store) where the computer, a random player, has Black and White has just
    played e3-e5: yields the Sim and its output; the engine, the Sim and the store are closed after."""
    store = GameStore(":memory:")
    out = io.StringIO()
    sim = Sim(Settings(), store, out, wrap=lambda c: OpponentLayer(c, "black", 2, "random"))
    try:
        for n, line in enumerate(["lift e3", "place e5", "wait 400"], 1):
            sim.command(line, n)
        yield sim, out
    finally:
        sim.controller.close()
        sim.close()
        store.close()


def test_sim_with_an_opponent_shows_the_computers_move():
    with sim_awaiting_the_computer() as (sim, out):
        deadline = time.monotonic() + 20
        while "computer " not in out.getvalue() and time.monotonic() < deadline:
            time.sleep(0.05)
            sim.tick()
        assert "\ncomputer " in out.getvalue()


@pytest.mark.parametrize("engine", ["random", "builtin"])
def test_a_piped_wait_gives_the_computer_real_time_to_answer(tmp_path, engine):
    """Lines piped into ``sim`` arrive at once; ``wait MS`` moves the controller's time on at once and
    lets a thinking computer (a real process) answer within MS of real time, before ``quit``."""
    from maxima_board.cli.sim import run_sim

    out = io.StringIO()
    script = "lift e3\nplace e5\nwait 400\nwait 20000\nshow\nquit\n"
    started = time.monotonic()
    assert run_sim(Settings(db_path=str(tmp_path / "games.db")), input=io.StringIO(script), output=out,
                   wrap=lambda c: OpponentLayer(c, "black", 2, engine)) == 0
    assert "\ncomputer " in out.getvalue(), out.getvalue()
    assert time.monotonic() - started < 15   # the wait ends with the answer, not after 20 s


def test_opponent_config_section():
    config = parse_config('hardware = "sim"\n[opponent]\nside = "black"\nlevel = 3\nengine = "minimax2"\n',
                          environ={})
    assert (config.opponent.side, config.opponent.level, config.opponent.engine) == ("black", 3, "minimax2")
    for text, words in (('side = "red"', '[opponent] side: expected one of "white", "black", "none"'),
                        ("level = 11", "[opponent] level: expected 1 to 10, got 11"),
                        ('engin = "x"', "[opponent] engin: unknown key")):
        with pytest.raises(ConfigError, match=words.replace("[", r"\[").replace("]", r"\]")):
            parse_config(f'hardware = "sim"\n[opponent]\n{text}\n', "b.toml", environ={})


def test_run_with_an_opponent_in_the_config_plays_the_computers_side(tmp_path):
    """``run`` with ``hardware = "sim"`` and ``[opponent] side = "white"``: the
    computer's first move is announced without any input."""
    config = tmp_path / "board.toml"
    config.write_text('hardware = "sim"\n[database]\npath = "games.db"\n'
                      '[opponent]\nside = "white"\nlevel = 2\nengine = "greedy"\n')
    proc = subprocess.Popen([sys.executable, "-m", "maxima_board.cli.main", "run", "--config", str(config)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        seen = []
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            seen.append(line)
            if line.startswith("computer "):
                break
        assert seen and seen[-1].startswith("computer "), seen
        proc.stdin.write("quit\n")
        proc.stdin.flush()
        assert proc.wait(timeout=30) == 0
    finally:
        proc.kill()
        proc.wait()


def test_an_engine_that_cannot_be_found_is_said_once_and_not_asked_again(tmp_path):
    runner, layer = _board(engine=str(tmp_path / "no-engine"), side="white")
    try:
        first = runner.wait(1000)
        assert [e["type"] for e in first].count("engine_error") == 1
        later = runner.wait(10_000)
        assert "engine_error" not in [e["type"] for e in later]
        assert "Computer unavailable: engine not found." in " ".join(layer.display)
    finally:
        layer.close()


def test_a_move_for_the_computer_before_it_has_answered_is_taken_back():
    runner = Runner(Settings())
    layer = OpponentLayer(runner.controller, "white", 1, "greedy")   # answers from a thread
    runner.controller = layer
    try:
        release = threading.Event()

        def slow(question):   # the engine thinks until the test ends
            release.wait(30)
            return ("failed", question[0], question[1], "stopped", "Computer stopped.", "Computer stopped")
        layer.questions.answer = slow
        move = layer.position.legal_moves[0]
        events = make(runner, move)
        kinds = [e["type"] for e in events]
        assert "not_engine_move" in kinds and "takeback" in kinds and layer.moves == []
        assert "Wait for the computer's move." in " ".join(layer.display) or "Wait for computer!" in layer.display
    finally:
        release.set()
        layer.close()


def test_with_a_game_clock_the_engine_gets_the_clocks_else_the_movetime():
    runner = Runner(Settings(time_control="5+3"))
    layer = OpponentLayer(runner.controller, "black", 1, "greedy", movetime_ms=700)
    runner.controller = layer
    try:
        runner.wait(2000)
        limits = layer._limits()
        assert limits.movetime is None and limits.wtime == layer.clocks["white"]
        assert limits.btime == layer.clocks["black"] == 5 * 60 * 1000
    finally:
        layer.close()
    plain = OpponentLayer(Runner(Settings()).controller, "black", 1, "greedy", movetime_ms=700)
    assert plain._limits().movetime == 700


# ---------------------------------------------------------------- records and words (issue 21)
def test_the_computers_piece_set_on_a_wrong_square_is_guided_to_its_square():
    runner, layer = _board()
    try:
        make(runner, layer.position.legal_moves[0])
        move = layer._shown.move
        p = layer.position
        names = p.geometry.names
        occupied = {names[sq] for sq, _ in p.pieces()}
        wrong = next(n for n in p.geometry.names if n and n not in occupied and n != names[move.to_square]
                     and not any(str(m).endswith(f"-{n}") and m.from_square == move.from_square
                                 for m in p.legal_moves))
        runner.lift(names[move.from_square])
        runner.place(wrong)
        runner.wait(2000)
        text = " ".join(layer.display)
        piece = p.piece_at(move.from_square).name
        assert f"Put the {piece} on {names[move.to_square]} from {wrong}." in text, layer.display
        assert layer.leds[wrong] == "error-extra" and layer.leds[names[move.to_square]] == "engine-to"
        assert layer.leds[names[move.from_square]] == "engine-from"
        runner.lift(wrong)
        runner.place(names[move.to_square])
        runner.wait(400)
        assert layer.moves[-1] == str(move)
    finally:
        layer.close()


def test_the_oled_names_the_computers_move_in_words_when_the_screen_is_full():
    runner, layer = _board()
    try:
        make(runner, layer.position.legal_moves[0])
        move = layer._shown.move
        names = layer.position.geometry.names
        runner.lift(names[move.from_square])        # "In hand: …" fills a line; the computer's stays in words
        runner.wait(400)
        last = layer.display[-1]
        piece = layer.position.piece_at(move.from_square).name
        assert piece.split()[0] in last and str(move) in last, layer.display
    finally:
        layer.close()


def test_a_game_against_the_computer_records_the_engine_and_level_as_the_player():
    store = GameStore(":memory:")
    runner = Runner(Settings(), store=store)
    layer = OpponentLayer(runner.controller, "black", 5, "greedy", sync=True)
    runner.controller = layer
    try:
        make(runner, layer.position.legal_moves[0])
        game = store.games()[-1]
        assert (game.white, game.black) == ("White", "maxima-board greedy player (level 5)")
    finally:
        layer.close()


def test_player_names_of_engines():
    from maxima_board.service.opponent_layer import player_name
    assert player_name("builtin", 5) == "maxima-board engine (level 5)"
    assert player_name("builtin:level=3", None) == "maxima-board engine (level 3)"
    assert player_name("/usr/games/stockfish", None) == "stockfish"


def test_menu_steps_the_computers_level_with_its_word():
    """Issue 23: the board's MENU shows each level with a word a player
    understands; OK sets it, and the record names the new level."""
    from maxima_board.opponent.levels import WORDS

    store = GameStore(":memory:")
    runner = Runner(Settings(), store=store)
    layer = OpponentLayer(runner.controller, "none", 9, "builtin", sync=True)
    runner.controller = layer
    try:
        for expected in [10] + list(range(1, 11)):   # after 10 comes 1
            word = WORDS[expected - 1]
            _menu_to(runner, layer, f"Computer: Level {expected} ({word})?")
            # the whole question is readable; where it leaves one line, the buttons' words are the short ones
            assert not any("…" in line for line in layer.display), layer.display
            assert " ".join(layer.display[2:]).endswith(("OK = yes, MENU = next", "BACK = cancel.")), layer.display
            assert {"type": "opponent", "level": expected} in runner.press("ok")
            assert layer.level == expected
    finally:
        layer.close()
    runner, layer = _board(engine="greedy", side="none")
    try:
        runner.press("menu")
        seen = []
        for _ in range(12):
            seen.append(" ".join(layer.display))
            runner.press("menu")
        assert not any("Level" in text for text in seen), seen   # a baseline player has no levels
    finally:
        layer.close()
