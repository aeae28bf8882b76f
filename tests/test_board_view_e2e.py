"""End to end on both boards: a simulated Pico (the firmware's own logic on an
11×10 or 10×8 switch matrix, over a pty) → PicoLink → Runner → BoardView →
controller, and the controller's LED plan back to the Pico's LED codes.

The games other than Maxima are played by a small recording controller with
the engine's real position (the controller side of issue 9 teaches the real
Controller those games); the Maxima game runs the real Controller through the
same BoardView. A firmware for the wrong board is a one-line error on the
OLED (luma's dummy device) and in the log.
"""
from __future__ import annotations

import io
import logging
import sys

import pytest
import serial
from luma.core.device import dummy

from maxima_board.service import runner as runner_mod
from maxima_board.service.board_view import BoardView, call_on_frame
from maxima_board.board.core import Controller
from maxima_board.board.settings import Settings
from maxima_board.rules import Position
from maxima_board.devices.boards import MAXIMA_BOARD, TEN_BY_TEN, place
from maxima_board.cli.diag import run_diag
from maxima_board.devices.matrix_map import MatrixMap
from maxima_board.devices.oled import OledDisplay
from maxima_board.devices.pico_sim import SimMatrix, SimPico
from maxima_board.devices.protocol import encode_leds, led_code
from maxima_board.devices.serial_link import PicoLink


def occupied(pos: Position) -> frozenset[str]:
    names = pos.geometry.names
    occ = pos.occupancy()
    return frozenset(names[i] for i in range(len(names)) if occ >> i & 1)


class GameDouble:
    """A controller for any game: it knows the game's start position (the
    engine's), records what the runner tells it, and asks for the missing
    and extra pieces of the start position on the LEDs, in game squares."""

    def __init__(self, variant: str) -> None:
        self.position = Position("start", variant)
        self.expected = occupied(self.position)
        self.frames: list[tuple[frozenset[str], frozenset[str]]] = []
        self.buttons: list[str] = []
        self.squares: frozenset[str] = frozenset()

    def on_frame(self, now_ms, squares, outside=frozenset()):
        self.squares = frozenset(squares)
        self.frames.append((self.squares, frozenset(outside)))
        return []

    def on_button(self, now_ms, button):
        self.buttons.append(button)
        return []

    def on_tick(self, now_ms):
        return []

    def set_link(self, ok, now_ms, problem=None):
        return []

    @property
    def leds(self):
        plan = {sq: "setup-missing" for sq in self.expected - self.squares}
        plan.update({sq: "error-extra" for sq in self.squares - self.expected})
        return plan

    @property
    def display(self):
        return [self.position.variant.title, f"{len(self.squares)} pieces"]


def opener(sim: SimPico):
    def factory():
        if sim.path is None:
            raise serial.SerialException("unplugged")
        return serial.Serial(sim.path, 115200, timeout=0, write_timeout=0)
    return factory


def run_board(sim: SimPico, link: PicoLink, controller, until_ms: int, actions=()):
    """Run the runner on a simulated clock, the Pico stepped every 2 ms;
    ``actions``: (time, set of closed matrix positions)."""
    pending = sorted(actions)
    state = {"t": 0}

    def on_sleep(now: int) -> None:
        while state["t"] < now:
            state["t"] += 2
            while pending and pending[0][0] <= state["t"]:
                sim.matrix.set(pending.pop(0)[1])
            sim.step(state["t"])

    loop = runner_mod.Runner(controller, link, link, _Screen(), clock=runner_mod.FakeClock(0, on_sleep),
                             period_ms=10, notifier=runner_mod.Notifier(None, None), log=sys.stderr)
    loop.run(stop=lambda now: now >= until_ms)
    return loop


class _Screen:
    def __init__(self):
        self.history = []

    def show(self, lines):
        self.history.append(list(lines))

    def close(self):
        pass


def positions(mm: MatrixMap, squares) -> set[int]:
    return {mm.position_of[s] for s in squares}


CASES = [("ultima", TEN_BY_TEN, "e1", {"j10", "a1"}),
         ("ultima", MAXIMA_BOARD, "e1", {"d0", "a9"}),
         ("coordinator-chess-10x8", TEN_BY_TEN, "a1", {"a1", "j10"})]


@pytest.mark.parametrize("variant, board, missing, extra", CASES,
                         ids=["ultima-10x10", "ultima-maxima", "deckle-10x8-10x10"])
def test_game_placed_on_the_board_end_to_end(variant, board, missing, extra):
    """The start position minus one piece, plus pieces on board squares the
    game does not use: the controller sees game squares and the outside
    squares; the Pico lights the missing piece's board square and the extra
    ones, every other LED dark; a button press passes through."""
    mm = MatrixMap.for_board(board)
    placement = place(variant, board)
    sim = SimPico(SimMatrix(board.rows, board.columns))
    link = PicoLink(opener(sim), mm, board=board.name)
    controller = GameDouble(variant)
    view = BoardView(controller, board)
    game_squares = controller.expected - {missing}
    board_squares = {placement.board_of[s] for s in game_squares} | extra
    closed = positions(mm, board_squares)
    menu = board.button_position("menu")
    run_board(sim, link, view, 1500, [(0, closed), (800, closed | {menu}), (1000, closed)])

    assert link.link_ok and link.stats["dropped_malformed"] == link.stats["dropped_crc"] == 0
    assert (sim.firmware.rx_crc, sim.firmware.rx_malformed) == (0, 0)
    assert controller.frames[-1] == (game_squares, frozenset(extra))
    assert controller.buttons == ["menu"]
    codes = sim.leds()
    assert len(codes) == board.positions
    lit = {p: c for p, c in enumerate(codes) if c}
    want = {mm.position_of[placement.board_of[missing]]: led_code("setup-missing")}
    want.update({mm.position_of[s]: led_code("error-extra") for s in extra})
    assert lit == want
    assert codes == encode_leds(view.leds, mm)
    link.close()
    sim.close()


def test_a_piece_taken_off_outside_the_game_goes_dark():
    """An outside square is ignored while empty: lit as extra while a piece
    stands there, dark again once it is taken off."""
    board = TEN_BY_TEN
    mm = MatrixMap.for_board(board)
    placement = place("ultima", board)
    sim = SimPico(SimMatrix(board.rows, board.columns))
    link = PicoLink(opener(sim), mm, board=board.name)
    controller = GameDouble("ultima")
    view = BoardView(controller, board)
    full = positions(mm, {placement.board_of[s] for s in controller.expected})
    run_board(sim, link, view, 1500, [(0, full | {mm.position_of["e10"]}), (900, full)])
    assert controller.frames[-1] == (controller.expected, frozenset())
    assert sim.leds() == bytes(board.positions)
    assert any(o == {"e10"} for _, o in controller.frames)
    link.close()
    sim.close()


def test_real_controller_plays_maxima_through_the_board_view():
    """The Maxima game on the Maxima board: BoardView is the identity and the
    real Controller commits the moves made on the simulated Pico."""
    board = MAXIMA_BOARD
    mm = MatrixMap.for_board(board)
    sim = SimPico(SimMatrix(board.rows, board.columns))
    link = PicoLink(opener(sim), mm)
    controller = Controller(Settings(), now_ms=0, fen="start")
    view = BoardView(controller, board)
    pos = Position()
    start = occupied(pos)
    moves = sorted((m for m in pos.legal_moves if m.kind == "move" and not m.captures), key=str)[:1]
    move = moves[0]
    names = pos.geometry.names
    after = (start - {names[move.from_square]}) | {names[move.to_square]}
    run_board(sim, link, view, 3000, [(0, positions(mm, start)),
                                      (1200, positions(mm, start - {names[move.from_square]})),
                                      (1400, positions(mm, after))])
    assert controller.moves == [str(move)]
    assert sim.leds() == encode_leds(view.leds, mm)
    link.close()
    sim.close()


def test_outside_keyword_reaches_a_controller_that_takes_it():
    class Takes:
        def on_frame(self, now_ms, squares, outside=frozenset()):
            self.got = (squares, outside)
            return []

    class Old:
        def on_frame(self, now_ms, squares):
            self.got = squares
            return []

    t, o = Takes(), Old()
    call_on_frame(t, 0, frozenset({"a1"}), frozenset({"j10"}))
    call_on_frame(o, 0, frozenset({"a1"}), frozenset({"j10"}))
    assert t.got == ({"a1"}, {"j10"}) and o.got == {"a1"}


def test_board_view_of_a_controller_without_outside_names_the_extra_pieces():
    class Old(GameDouble):
        def on_frame(self, now_ms, squares):
            return super().on_frame(now_ms, squares)

    view = BoardView(Old("ultima"), "10x10")
    view.on_frame(0, {"b2", "j10", "a1"})
    assert view.controller.squares == {"a1"}
    assert view.display[-1] == "Off board: a1 j10"
    assert view.leds["j10"] == view.leds["a1"] == "error-extra"
    assert view.leds["c2"] == "setup-missing"       # game b1, missing
    assert "b2" not in view.leds


def test_wrong_firmware_is_one_line_on_the_oled_and_in_the_log(caplog):
    """A Pico scanning the 10×10 board's 11×10 matrix, a config saying maxima."""
    sim = SimPico(SimMatrix(11, 10))
    link = PicoLink(opener(sim), MatrixMap())
    controller = Controller(Settings(), now_ms=0, fen="start")
    device = dummy(width=128, height=64, mode="1")
    oled = OledDisplay(device)
    state = {"t": 0}

    def on_sleep(now: int) -> None:
        while state["t"] < now:
            state["t"] += 2
            sim.step(state["t"])

    with caplog.at_level(logging.ERROR, logger="maxima_board.devices.serial_link"):
        loop = runner_mod.Runner(controller, link, link, oled, clock=runner_mod.FakeClock(0, on_sleep),
                                 period_ms=10, notifier=runner_mod.Notifier(None, None), log=io.StringIO())
        loop.run(stop=lambda now: now >= 2500)
    problem = "Board has 11×10 switches, config says maxima (10×8)"
    assert link.link_problem == problem and not link.link_ok
    assert [r.getMessage() for r in caplog.records].count(problem) >= 1
    from maxima_board.devices.oled import layout
    rows = layout(controller.display)               # what the 128×64 panel shows, row by row
    assert rows[0] == "Wrong board"
    assert problem in " ".join(" ".join(rows[1:]).split())
    assert device.image.getbbox() is not None          # something was drawn
    link.close()
    sim.close()


def test_diag_on_the_ten_by_ten_board_names_positions_and_lights_them():
    board = TEN_BY_TEN
    mm = MatrixMap.for_board(board)
    sim = SimPico(SimMatrix(board.rows, board.columns))
    link = PicoLink(opener(sim), mm, board=board.name)
    clock = {"t": 0}
    script = [(300, {99}), (600, {99, 102})]

    def sleep_ms(ms: int) -> None:
        end = clock["t"] + ms
        while clock["t"] < end:
            clock["t"] += 2
            while script and script[0][0] <= clock["t"]:
                sim.matrix.set(script.pop(0)[1])
            sim.step(clock["t"])

    out = io.StringIO()
    screen = _Screen()
    changes = run_diag(link, link, screen, mm, out, lambda: clock["t"], sleep_ms, seconds=1.2)
    text = out.getvalue()
    assert "closed  R9 C9  j10" in text and "closed  R10 C2  button menu" in text
    assert changes == 2
    assert sim.leds()[99] == led_code("setup-missing") and sum(1 for c in sim.leds() if c) == 1
    link.close()
    sim.close()


def test_the_placement_follows_the_game_the_controller_plays():
    """A game chosen on the board moves to its own place at once; a game that
    does not fit keeps the last placement instead of stopping the board."""
    double = GameDouble("ultima")
    view = BoardView(double, "10x10")
    assert view.placement.board_of["a1"] == "b2"
    double.position = Position("start", "swapper-chess-10x8")
    view.on_frame(0, {"a2", "a1"})
    assert view.placement.board_of["a1"] == "a2" and double.frames[-1] == ({"a1"}, {"a1"})
    double.position = Position("start", "maxima")
    assert view.placement.variant.name == "swapper-chess-10x8" and view.problem == "maxima"


def test_run_refuses_a_game_that_does_not_fit_the_board(tmp_path):
    import os
    import subprocess
    from pathlib import Path
    root = Path(__file__).resolve().parent.parent
    cfg = tmp_path / "board.toml"
    cfg.write_text('hardware = "pico"\n[board]\nkind = "10x10"\n[pico]\ndevice = "/dev/no-such-pico"\n'
                   '[oled]\ndriver = "none"\n[game]\nvariant = "maxima"\n')
    env = dict(os.environ, PYTHONPATH=str(root), MAXIMA_BOARD_DB=str(tmp_path / "games.db"))
    env.pop("NOTIFY_SOCKET", None)
    proc = subprocess.run([sys.executable, "-m", "maxima_board.cli.main", "run", "--config", str(cfg), "--seconds", "1"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines()[-1] == (
        f"maxima-board run: config {cfg}: [board] kind: Maxima needs the Maxima board; this is the 10×10 board")


def test_diag_command_with_a_ten_by_ten_config(tmp_path, monkeypatch, capsys):
    """``maxima-board diag`` with ``[board] kind = "10x10"``: the config's
    11×10 map reaches the Pico link (110-switch frames) and the printout."""
    from maxima_board.cli.main import main

    sim = SimPico(SimMatrix(11, 10))
    script = [(300, {99}), (500, {99, 100}), (700, set())]
    state = {"t": 0}

    def on_sleep(now: int) -> None:
        while state["t"] < now:
            state["t"] += 2
            while script and script[0][0] <= state["t"]:
                sim.matrix.set(script.pop(0)[1])
            sim.step(state["t"])

    monkeypatch.setattr(runner_mod, "SystemClock", lambda: runner_mod.FakeClock(0, on_sleep))
    path = tmp_path / "pico.toml"
    path.write_text(f'hardware = "pico"\n[board]\nkind = "10x10"\n[pico]\ndevice = "{sim.path}"\n'
                    '[oled]\ndriver = "dummy"\n')
    try:
        assert main(["diag", "--config", str(path), "--seconds", "2"]) == 0
    finally:
        sim.close()
    out = capsys.readouterr().out.splitlines()
    assert out[1:7] == ["link connecting", "link up", "closed  R9 C9  j10", "closed  R10 C0  button ok",
                        "opened  R9 C9  j10", "opened  R10 C0  button ok"]
    stats = [line for line in out if line.startswith("link lines_ok=")]
    assert stats and "dropped_malformed=0" in stats[-1] and "dropped_crc=0" in stats[-1]


def test_real_controller_plays_ultima_on_the_ten_by_ten_board_and_rereads_it_after_a_game_change():
    """Ultima (a1…h8) on the 10×10 board's b2…i9 with the real Controller: a
    move made on board squares commits in game squares; a piece on a1 (not
    part of Ultima) is an error-extra; after the game changes to a 10×8
    game the same board is read again through the new placement."""
    controller = Controller(Settings(board_kind="10x10", variant="ultima"), now_ms=0, fen="start")
    view = BoardView(controller, "10x10")
    placement = view.placement
    board = {placement.board_of[sq] for sq in controller.expected_squares}
    assert "b2" in board and "a1" not in board
    view.on_frame(0, frozenset(board))
    move = next(m for m in controller.position.legal_moves if m.kind == "move" and not m.captures)
    names = controller.position.geometry.names
    frm, to = placement.board_of[names[move.from_square]], placement.board_of[names[move.to_square]]
    view.on_frame(100, frozenset(board - {frm}))
    board = (board - {frm}) | {to}
    view.on_frame(300, frozenset(board))
    view.on_tick(1000)
    assert controller.moves == [str(move)]
    view.on_frame(1100, frozenset(board | {"a1"}))
    assert view.leds["a1"] == "error-extra"
    view.on_frame(1200, frozenset(board))
    assert "a1" not in view.leds
    controller.choose_game("coordinator-chess-10x8", 1300)     # MENU → Game
    view.on_tick(1400)                          # no new frame: the view reads the board again
    assert view.placement.variant.name == "coordinator-chess-10x8"
    expected = {view.placement.board_of[sq] for sq in controller.expected_squares}
    missing = {sq for sq, state in view.leds.items() if state == "setup-missing"}
    assert missing and missing <= expected and not missing & board
