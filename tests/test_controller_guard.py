"""Issue 19: the board process survives its own bugs. A fault injected into
the controller never ends ``run`` or ``sim``: it is logged with a replay
script (next to the database) that shows the same fault again, the OLED
says the game is safe, and the stored game resumes."""
from __future__ import annotations

import io
from pathlib import Path

import pytest

import maxima_board.service.runner as runner_module
from maxima_board.cli.main import main
from maxima_board.board.core import Controller
from maxima_board.service.guard import FAULT_LINES, FAULT_MS, Guard, fault_dir_for
from maxima_board.board.modes.play import PlayMode
from maxima_board.service.script import Runner, parse_script, replay
from maxima_board.board.settings import Settings
from maxima_board.cli.sim import run_sim
from maxima_board.storage.store import GameStore
from maxima_board.rules import Position
from tests.test_hw_board_cmds import Scripted, _config, matrix, recorder  # noqa: F401 (fixtures)

ORIGINAL_STEP = PlayMode.step


class Injected(RuntimeError):
    """The fault the tests put into the controller."""


def _fault_when_e7_is_lifted(once: bool):
    """PlayMode.step raising while Black's e7 Pawn is off its square after
    one move (a bug that depends on the board); ``once``: only the first time."""
    fired = []

    def step(self, now):
        s = self.session
        e7 = s.position.geometry.index["e7"]
        if len(s.position.move_stack) == 1 and s.frame.raw is not None and not s.frame.raw >> e7 & 1 \
                and not (once and fired):
            fired.append(now)
            raise Injected("injected fault")
        return ORIGINAL_STEP(self, now)

    return step, fired


def _guarded_runner(db: Path) -> tuple[Runner, Guard, GameStore]:
    store = GameStore(db)
    settings = Settings()
    core = Controller(settings, store, fen="start", now_ms=0)
    guard = Guard(core, lambda now: Controller(settings, store, now_ms=now), fault_dir=fault_dir_for(store),
                  log=io.StringIO(), now_ms=0)
    return Runner.attach(guard, set(core.expected_squares), 0), guard, store


def test_a_fault_is_logged_with_a_replay_script_that_shows_it_again(tmp_path, monkeypatch):
    step, fired = _fault_when_e7_is_lifted(once=False)
    monkeypatch.setattr(PlayMode, "step", step)
    runner, guard, store = _guarded_runner(tmp_path / "games.db")
    runner.lift("f3")
    runner.place("f6")
    runner.wait(400)
    assert guard.moves == ["f3-f6"]
    events = runner.lift("e7")                  # the fault: no exception reaches the caller
    assert fired
    errors = [e for e in events if e["type"] == "error"]
    assert errors and "the game is safe" in errors[0]["text"]
    assert guard.display == FAULT_LINES
    script = Path(errors[0]["script"])
    assert script.parent == tmp_path and script.name.startswith("fault-") and script.suffix == ".replay"
    assert "injected fault" in guard._log.getvalue() and str(script) in guard._log.getvalue()
    # the script replays the board from the last position: the same fault again
    steps = parse_script(script.read_text().splitlines())
    with pytest.raises(Injected):
        list(replay(steps, Settings()))
    # and without the fault it replays cleanly from that position
    monkeypatch.setattr(PlayMode, "step", ORIGINAL_STEP)
    final = list(replay(parse_script(script.read_text().splitlines()), Settings()))[-1]
    after = Position()
    after.push("f3-f6")
    assert final["fen"] == after.fen()
    store.close()


def test_after_a_fault_the_stored_game_resumes_and_play_goes_on(tmp_path, monkeypatch):
    step, fired = _fault_when_e7_is_lifted(once=True)
    monkeypatch.setattr(PlayMode, "step", step)
    runner, guard, store = _guarded_runner(tmp_path / "games.db")
    old_core = guard.controller
    runner.lift("f3")
    runner.place("f6")
    runner.wait(400)
    runner.lift("e7")
    assert len(fired) == 1 and guard.controller is not old_core
    assert guard.mode == "sync" and guard.moves == ["f3-f6"]   # the stored game, the board guided back
    runner.wait(FAULT_MS)
    assert "Put the Pawn back on e7" in " ".join(guard.display) or "e7" in guard.leds
    runner.place("e7")
    runner.wait(400)
    assert guard.mode == "play"
    runner.lift("e7")
    runner.place("e5")
    runner.wait(400)
    assert guard.moves == ["f3-f6", "e7-e5"]
    assert store.moves(guard.game_id) == ["f3-f6", "e7-e5"]
    store.close()


def test_a_stack_that_cannot_be_rebuilt_is_retried_and_the_loop_goes_on(tmp_path, monkeypatch):
    step, _ = _fault_when_e7_is_lifted(once=True)
    monkeypatch.setattr(PlayMode, "step", step)
    store = GameStore(tmp_path / "games.db")
    settings = Settings()
    attempts = []

    def rebuild(now):
        attempts.append(now)
        if len(attempts) < 3:
            raise Injected("resume fails")
        return Controller(settings, store, now_ms=now)

    core = Controller(settings, store, fen="start", now_ms=0)
    guard = Guard(core, rebuild, log=io.StringIO(), now_ms=0)
    runner = Runner.attach(guard, set(core.expected_squares), 0)
    runner.lift("f3")
    runner.place("f6")
    runner.wait(400)
    runner.lift("e7")
    assert attempts and guard.display[0] == "Software fault" and guard.leds == {}
    runner.place("e7")           # ignored while broken, kept as the board to resume with
    runner.wait(5000)            # retried every second; nothing raises
    assert len(attempts) == 3
    runner.wait(FAULT_MS)
    assert guard.mode == "play" and guard.moves == ["f3-f6"]
    assert guard.display[0].startswith("Black to move")
    assert "resume fails" in guard._log.getvalue()
    store.close()


def test_sim_survives_a_fault(tmp_path, monkeypatch):
    step, fired = _fault_when_e7_is_lifted(once=True)
    monkeypatch.setattr(PlayMode, "step", step)
    db = tmp_path / "games.db"
    out = io.StringIO()
    lines = ["lift f3", "place f6", "wait 400", "lift e7", "wait 400", "place e7", "wait 400",
             "lift e7", "place e5", "wait 400", "show"]
    assert run_sim(Settings(db_path=str(db)), io.StringIO("\n".join(lines) + "\n"), out) == 0
    text = out.getvalue()
    assert fired and "error Software fault" in text
    assert "move 2 e7-e5" in text
    assert list(tmp_path.glob("fault-*.replay"))
    store = GameStore(db)
    (game,) = store.games()
    assert store.moves(game.id) == ["f3-f6", "e7-e5"]
    store.close()


def test_run_survives_a_fault(tmp_path, monkeypatch, matrix, recorder, capsys):  # noqa: F811 (fixtures)
    step, fired = _fault_when_e7_is_lifted(once=True)
    monkeypatch.setattr(PlayMode, "step", step)
    start = Position()
    matrix.set_squares(n for n in start.geometry.names if start.piece_at(start.geometry.index[n]))
    monkeypatch.chdir(tmp_path)
    scripted = Scripted(matrix, [(500, "button:ok", True), (600, "button:ok", False),
                                 (1000, "f3", False), (1300, "f6", True),
                                 (2000, "e7", False),                   # the fault
                                 (5000, "e7", True),                    # guided back, then the move again
                                 (6000, "e7", False), (6200, "e5", True)])
    monkeypatch.setattr(runner_module, "SystemClock", scripted.clock)
    assert main(["run", "--config", str(_config(tmp_path)), "--seconds", "8"]) == 0
    assert len(fired) == 1
    err = capsys.readouterr().err
    assert "controller fault" in err and "Injected: injected fault" in err
    assert list(tmp_path.glob("fault-*.replay"))
    assert FAULT_LINES in recorder.lines
    store = GameStore(tmp_path / "games.db")
    (game,) = store.games()
    assert store.moves(game.id) == ["f3-f6", "e7-e5"]
    store.close()


def test_a_fault_in_reading_the_leds_is_caught_and_reported_with_the_next_call(tmp_path, monkeypatch):
    runner, guard, store = _guarded_runner(tmp_path / "games.db")
    original = Controller.leds
    calls = []

    def leds(self):
        calls.append(1)
        if len(calls) == 1:
            raise Injected("leds fault")
        return original.fget(self)

    monkeypatch.setattr(Controller, "leds", property(leds))
    assert guard.leds == {}                      # the loop goes on with dark LEDs
    events = runner.wait(10)
    assert any(e["type"] == "error" and "leds fault" in e["text"] for e in events)
    assert guard.leds == {} and guard.display == FAULT_LINES and guard.mode == "play"
    store.close()


def test_the_loops_waker_reaches_every_rebuilt_stack_and_a_pending_fault_is_due_at_once(tmp_path):
    """The event-driven loop (issue 20) hands the guard its waker: the stack
    rebuilt after a fault gets it too (the computer's answers keep waking
    the loop), and a fault met while reading the LEDs makes the guard due
    at once, so its events are not held until the next input."""
    store = GameStore(tmp_path / "games.db")
    settings = Settings()

    class Layer:
        """A layer that takes the waker, as the computer opponent does."""

        def __init__(self, core):
            self.core, self.waker = core, None

        def set_waker(self, wake):
            self.waker = wake

        def __getattr__(self, name):
            return getattr(self.core, name)

    built = []

    def rebuild(now):
        built.append(Layer(Controller(settings, store, now_ms=now)))
        return built[-1]

    first = Layer(Controller(settings, store, fen="start", now_ms=0))
    guard = Guard(first, rebuild, fault_dir=fault_dir_for(store), log=io.StringIO(), now_ms=0)
    wake = lambda: None  # noqa: E731
    guard.set_waker(wake)
    assert first.waker is wake

    class Broken:
        def __get__(self, obj, owner=None):
            raise Injected("leds fault")

    first.core.__class__ = type("BrokenController", (Controller,), {"leds": Broken()})
    assert guard.leds == {}
    assert guard.next_deadline() == 0            # the fault's events are due now
    events = guard.on_tick(0)
    assert any(e["type"] == "error" and "leds fault" in e["text"] for e in events)
    assert built and built[-1].waker is wake
    store.close()


def test_a_fault_on_the_ten_by_ten_board_is_scripted_in_the_boards_names(tmp_path, monkeypatch):
    """Issue 32, finding 1: the fault script names squares as the board
    prints them (Ultima's d2 is e3 on the 10×10 board) and says to replay it
    with ``--board 10x10``; so replayed, it shows the same fault."""
    from maxima_board.service.board_view import BoardView

    store = GameStore(tmp_path / "games.db")
    settings = Settings(board_kind="10x10", variant="ultima")

    def stack(now: int):
        return BoardView(Controller(settings, store, now_ms=now), "10x10", None)

    guard = Guard(BoardView(Controller(settings, store, fen="start", now_ms=0), "10x10", None), stack,
                  fault_dir=fault_dir_for(store), log=io.StringIO(), now_ms=0)
    runner = Runner.attach(guard, None, 0)
    runner.lift("e3")
    runner.place("e5")
    runner.wait(400)
    assert guard.moves == ["d2-d4"]
    step, fired = _fault_when_e7_is_lifted(once=False)
    monkeypatch.setattr(PlayMode, "step", step)
    events = runner.lift("f8")                  # the game's e7
    assert fired
    text = Path(next(e for e in events if e["type"] == "error")["script"]).read_text()
    assert "replay --board 10x10" in text
    lines = [line for line in text.splitlines() if not line.startswith("#")]
    assert {"lift e3", "place e5", "lift f8"} <= set(lines)
    assert "lift d2" not in lines and "lift e7" not in lines
    with pytest.raises(Injected):
        list(replay(parse_script(text.splitlines()), Settings(), board="10x10"))
    monkeypatch.setattr(PlayMode, "step", ORIGINAL_STEP)
    final = list(replay(parse_script(text.splitlines()), Settings(), board="10x10"))[-1]
    after = Position(variant="ultima")
    after.push("d2-d4")
    assert final["fen"] == after.fen()
    store.close()
