"""The computer's move and the pages on the board (one screen composer,
``maxima_board.board.composer``): a page that owns the OLED (the game chooser, a menu
question, "Which move?", take-back guidance) is never overwritten by the
computer's move, which waits until the page closes; the guard's fault
screen wins over everything.

Each game is played twice, with the computer and without: while a page is
open, the board with the computer shows exactly what the board without
shows."""
from __future__ import annotations

import io
import threading
import time

from maxima_board.board.closing import CLOSE_MS
from maxima_board.board.core import NOTE_MS, Controller
from maxima_board.board.modes.play import PlayMode
from maxima_board.board.screens import piece_move
from maxima_board.board.settings import Settings
from maxima_board.rules import Move
from maxima_board.service.guard import FAULT_LINES, FAULT_MS, Guard
from maxima_board.service.opponent_layer import OpponentLayer
from maxima_board.service.script import Runner
from maxima_board.storage.store import GameStore
from tests.test_controller_guard import _fault_when_e7_is_lifted
from tests.test_opponent_board import make

KING2 = "xxx2xxx/4k3/p7/8/8/8/8/3p1p2/P7/4K3/xxx2xxx w 0"   # White: e1-d3xd3 and e1-f3xf3 look alike
AMBIGUOUS = ["lift e1", "lift d3", "place d3", "lift f3", "place f3"]


def boards(fen: str | None = None, side: str = "black", sync: bool = True) -> tuple[Runner, OpponentLayer, Runner]:
    """The same game twice: with the computer (a greedy player) playing
    ``side``, and without."""
    runner = Runner(Settings(), fen=fen)
    layer = OpponentLayer(runner.controller, side, 1, "greedy", sync=sync)
    runner.controller = layer
    return runner, layer, Runner(Settings(), fen=fen)


def words(lines: list[str]) -> str:
    return " ".join(lines)


def computer_move(layer: OpponentLayer, events: list[dict]) -> Move:
    (shown,) = [e for e in events if e["type"] == "engine_move"]
    return layer.position.parse_move(shown["move"])


def shows_the_move(layer: OpponentLayer, move: Move) -> bool:
    """The OLED names the computer's move, in words ("Computer: King e1 takes f3")."""
    return f"Computer: {piece_move(layer.position, move)}" in words(layer.display)


def do(runners: tuple[Runner, ...], *lines: str) -> None:
    for runner in runners:
        for line in lines:
            op, arg = line.split()
            getattr(runner, op)(int(arg) if op == "wait" else arg)


def test_with_the_computers_move_pending_menu_shows_the_choosers_four_rows_whole():
    runner, layer, plain = boards()
    try:
        first = layer.position.legal_moves[0]
        move = computer_move(layer, make(runner, first))
        make(plain, first)
        assert shows_the_move(layer, move)
        do((runner, plain), "press menu")
        assert layer.display == plain.controller.display
        assert [row.split()[0] for row in layer.display[1:]] == ["OK", "BACK", "MENU", "NEW"]
        events = runner.wait(CLOSE_MS)                   # the chooser closes by itself
        assert shows_the_move(layer, move)
        assert any(e["type"] == "display" and "Computer:" in words(e["lines"]) for e in events)
    finally:
        layer.close()


def test_an_answer_arriving_while_the_chooser_is_open_waits_until_it_closes():
    runner, layer, plain = boards(sync=False)
    release = threading.Event()
    answer = layer.questions.answer

    def held(question):   # the engine answers once the chooser is open
        release.wait(30)
        return answer(question)

    layer.questions.answer = held
    try:
        first = layer.position.legal_moves[0]
        make(runner, first)
        make(plain, first)
        assert "Computer is thinking." in words(layer.display)
        do((runner, plain), "press menu")
        release.set()
        events: list[dict] = []
        deadline = time.monotonic() + 30
        while not any(e["type"] == "engine_move" for e in events) and time.monotonic() < deadline:
            time.sleep(0.02)
            events += runner.wait(10)
            plain.wait(10)
        move = computer_move(layer, events)
        assert layer.display == plain.controller.display
        assert not any(e["type"] == "display" and "Computer" in words(e["lines"]) for e in events)
        runner.wait(CLOSE_MS)
        assert shows_the_move(layer, move)
    finally:
        release.set()
        layer.close()


def test_a_menu_question_is_not_overwritten_by_the_computers_move():
    runner, layer, plain = boards()
    try:
        first = layer.position.legal_moves[0]
        move = computer_move(layer, make(runner, first))
        make(plain, first)
        do((runner, plain), "press menu", "press menu")   # the chooser's MENU row: the game's menu
        assert "Resign Black?" in words(layer.display)
        shown, alone = layer.display, plain.controller.display
        heading = shown.pop(1)                           # the computer's items make the menu longer
        assert heading.startswith("Menu 1/") and heading.endswith(" 20s") and alone.pop(1).startswith("Menu 1/")
        assert shown == alone
        runner.wait(CLOSE_MS)
        assert shows_the_move(layer, move)
    finally:
        layer.close()


def test_take_back_guidance_is_not_overwritten_by_the_computers_move():
    runner, layer, plain = boards()
    try:
        first = layer.position.legal_moves[0]
        move = computer_move(layer, make(runner, first))
        make(plain, first)
        other = next(m for m in layer.position.legal_moves if m.from_square != move.from_square and m.kind == "move")
        events = make(runner, other)                      # not the computer's move: taken back
        assert "takeback" in [e["type"] for e in events] and layer.mode == "sync"
        make(plain, other)
        plain.press("back")                               # the same take-back, by hand
        runner.wait(NOTE_MS)
        plain.wait(NOTE_MS)
        assert layer.display == plain.controller.display and layer.display[1].startswith("Undo ")
        names = layer.position.geometry.names
        runner.lift(names[other.to_square])               # the piece back: the computer's move again
        runner.place(names[other.from_square])
        runner.wait(1000)
        assert layer.mode == "play" and shows_the_move(layer, move)
    finally:
        layer.close()


def test_which_move_is_not_overwritten_by_the_computers_move():
    runner, layer, plain = boards(KING2, side="white")
    try:
        move = computer_move(layer, runner.wait(10))   # the first tick: the computer, White, answers
        plain.wait(10)
        assert shows_the_move(layer, move)
        do((runner, plain), *AMBIGUOUS, "wait 300")
        assert "Which move?" in words(layer.display)
        assert layer.display == plain.controller.display
        runner.place("e1")                             # the King back: the page closes
        runner.wait(400)
        assert layer.moves == [] and shows_the_move(layer, move)
    finally:
        layer.close()


def test_the_guards_fault_screen_wins_over_everything(tmp_path, monkeypatch):
    step, fired = _fault_when_e7_is_lifted(once=True)
    monkeypatch.setattr(PlayMode, "step", step)
    store = GameStore(tmp_path / "games.db")
    settings = Settings()
    layers: list[OpponentLayer] = []

    def stack(core: Controller) -> OpponentLayer:
        layers.append(OpponentLayer(core, "black", 1, "greedy", sync=True))
        return layers[-1]

    core = Controller(settings, store, fen="start", now_ms=0)
    guard = Guard(stack(core), lambda now: stack(Controller(settings, store, now_ms=now)), log=io.StringIO(),
                  now_ms=0)
    runner = Runner.attach(guard, set(core.expected_squares), 0)
    try:
        runner.lift("f3")
        runner.place("f6")
        events = runner.wait(400)
        assert [e["type"] for e in events].count("engine_move") == 1
        events = runner.lift("e7")                     # the fault: the stack is rebuilt
        assert fired and guard.display == FAULT_LINES
        assert [e["lines"] for e in events if e["type"] == "display"][-1] == FAULT_LINES
        runner.press("menu")                           # a page opened beneath it
        assert guard.display == FAULT_LINES
        runner.wait(FAULT_MS)
        assert guard.display != FAULT_LINES
    finally:
        for layer in layers:
            layer.close()
        store.close()
