"""``maxima-board run`` and ``maxima-board diag`` end to end: the direct
topology on gpiozero's MockFactory (switches toggled through the simulated
matrix's mock pins), the OLED on luma's dummy device, the MAX7219 on luma's
no-op serial interface, driven by a scripted fake clock."""
from __future__ import annotations

from pathlib import Path

import pytest
from gpiozero import Device

import maxima_board.service.runner as runner_module
import maxima_board.cli.assemble as assemble
from maxima_board.cli.main import main
from maxima_board.storage.store import GameStore
from maxima_board.rules import Position
from maxima_board.cli.config import DEFAULT_COLUMNS, DEFAULT_ROWS
from maxima_board.devices.matrix_map import MatrixMap
from maxima_board.devices.mock_matrix import ReedMatrix, matrix_factory

CONFIG = """hardware = "direct"
[matrix]
row_settle_us = 0
[leds]
interface = "noop"
[oled]
driver = "dummy"
[database]
path = "games.db"
[web]
enabled = false
"""


class Scripted:
    """A fake clock that toggles switches at scripted times."""

    def __init__(self, matrix: ReedMatrix, script: list[tuple[int, str, bool]]):
        self.matrix = matrix
        self.script = sorted(script, key=lambda s: s[0])

    def clock(self) -> runner_module.FakeClock:
        return runner_module.FakeClock(0, self._due)

    def _due(self, now: int) -> None:
        while self.script and self.script[0][0] <= now:
            _, name, closed = self.script.pop(0)
            self.matrix.set_name(name, closed)


class Recorder:
    """Wraps build_hardware to record what the OLED and LEDs were sent."""

    def __init__(self):
        self.lines: list[list[str]] = []
        self.lit: list[frozenset[int]] = []
        self.hardware = None

    def build(self, config):
        hw = self._build(config)
        self.hardware = hw
        show, show_positions = hw.display.show, hw.leds.show_positions

        def record_show(lines):
            self.lines.append(list(lines))
            show(lines)

        def record_lit(positions):
            show_positions(positions)
            if not self.lit or self.lit[-1] != hw.leds.lit:
                self.lit.append(hw.leds.lit)

        hw.display.show = record_show
        hw.leds.show_positions = record_lit
        return hw


@pytest.fixture
def matrix(monkeypatch):
    m = ReedMatrix(DEFAULT_ROWS, DEFAULT_COLUMNS)
    previous = Device.pin_factory
    Device.pin_factory = matrix_factory(m)
    yield m
    Device.pin_factory.reset()
    Device.pin_factory.close()
    Device.pin_factory = previous


@pytest.fixture
def recorder(monkeypatch):
    r = Recorder()
    r._build = assemble.build_hardware
    monkeypatch.setattr(assemble, "build_hardware", r.build)
    return r


def _config(tmp_path: Path) -> Path:
    path = tmp_path / "board.toml"
    path.write_text(CONFIG)
    return path


def _script_game() -> list[tuple[int, str, bool]]:
    """OK to start; f3-f6; e7-e5; e2-h5xe5 slid over g4 with chatter, the
    captured pawn taken off after the mover is placed."""
    s = [(500, "button:ok", True), (600, "button:ok", False),
         (1000, "f3", False), (1300, "f6", True),
         (2000, "e7", False), (2200, "e5", True),
         (3000, "e2", False)]
    s += [(3100 + 10 * i, "g4", i % 2 == 0) for i in range(8)]        # a slide chattering over g4
    s += [(3200, "g4", True), (3260, "g4", False), (3300, "h5", True),
          (4200, "e5", False)]
    return s


def test_run_plays_a_scripted_game(tmp_path, monkeypatch, matrix, recorder, capsys):
    moves = ["f3-f6", "e7-e5", "e2-h5xe5"]
    position = Position()
    for move in moves:                      # the script is a legal game
        position.push(next(m for m in position.legal_moves if str(m) == move))
    start = Position()
    matrix.set_squares(n for n in start.geometry.names if start.piece_at(start.geometry.index[n]))
    scripted = Scripted(matrix, _script_game())
    monkeypatch.setattr(runner_module, "SystemClock", scripted.clock)
    monkeypatch.chdir(tmp_path)

    assert main(["run", "--config", str(_config(tmp_path)), "--seconds", "6"]) == 0
    assert capsys.readouterr().err == (f"maxima-board run: direct (MockFactory (already set)), "
                                       f"config {tmp_path / 'board.toml'}, games in {tmp_path / 'games.db'}\n")

    store = GameStore(tmp_path / "games.db")
    (game,) = store.games()
    assert store.moves(game.id) == moves
    assert game.result == "*"
    store.close()

    texts = [" ".join(lines) for lines in recorder.lines]
    assert any("Board set up" in t for t in texts)
    assert any("Remove: Pawn e5" in t for t in texts)
    assert texts[-2].startswith("Black to move") and "e2-h5xe5" in texts[-2]
    assert recorder.lines[-1] == ["maxima-board", "", "Stopped."]
    assert recorder.hardware.display.device.image.getbbox() is not None

    m = MatrixMap()
    e5, e2, h5 = (m.position_of[s] for s in ("e5", "e2", "h5"))
    # while the captured pawn waited to be removed its LED blinked fast
    blinking = [lit for lit in recorder.lit if e5 in lit]
    assert len(blinking) >= 3
    # and the last move is lit at the end
    assert recorder.lit[-1] == {e2, h5}


def test_run_resumes_the_stored_game(tmp_path, monkeypatch, matrix, recorder):
    start = Position()
    matrix.set_squares(n for n in start.geometry.names if start.piece_at(start.geometry.index[n]))
    monkeypatch.chdir(tmp_path)
    config = _config(tmp_path)
    first = Scripted(matrix, [(500, "button:ok", True), (600, "button:ok", False),
                              (1000, "f3", False), (1300, "f6", True)])
    monkeypatch.setattr(runner_module, "SystemClock", first.clock)
    assert main(["run", "--config", str(config), "--seconds", "2"]) == 0

    # power cut; the board is unchanged; the next start resumes and play goes on
    second = Scripted(matrix, [(1000, "e7", False), (1200, "e5", True)])
    monkeypatch.setattr(runner_module, "SystemClock", second.clock)
    recorder.lines.clear()
    assert main(["run", "--config", str(config), "--seconds", "2"]) == 0
    store = GameStore(tmp_path / "games.db")
    (game,) = store.games()
    assert store.moves(game.id) == ["f3-f6", "e7-e5"]
    store.close()
    assert recorder.lines[0][0].startswith("Black to move")


def test_diag_prints_and_lights_every_change(tmp_path, monkeypatch, matrix, recorder, capsys):
    scripted = Scripted(matrix, [(100, "e4", True), (300, "e4", False), (400, "button:ok", True),
                                 (405, "button:ok", False), (410, "button:ok", True),      # a bounce
                                 (600, "d10", True)])
    matrix.close_switch(9, 7)                          # NEW held from the start
    monkeypatch.setattr(runner_module, "SystemClock", scripted.clock)
    assert main(["diag", "--config", str(_config(tmp_path)), "--seconds", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == ["diag: close a switch to see its matrix position; Ctrl-C ends",
                   "closed  R9 C7  button new",
                   "closed  R3 C4  e4",
                   "opened  R3 C4  e4",
                   "closed  R9 C4  button ok",
                   "closed  R9 C2  d10"]
    m = MatrixMap()
    assert recorder.lit == [frozenset({79}), frozenset({79, m.position_of["e4"]}), frozenset({79}),
                            frozenset({79, 76}), frozenset({79, 76, m.position_of["d10"]})]
    assert recorder.lines[-2][:3] == ["Sensor test", "3 switches closed", "closed"]


def test_unusable_hardware_is_one_line_and_exit_1(tmp_path, capsys):
    """No pin factory can drive pins on a PC: asking for RPi.GPIO says so."""
    path = tmp_path / "board.toml"
    path.write_text('hardware = "direct"\n[matrix]\npin_factory = "rpigpio"\n')
    previous, Device.pin_factory = Device.pin_factory, None
    try:
        assert main(["run", "--config", str(path)]) == 1
    finally:
        if Device.pin_factory is not None:
            Device.pin_factory.close()
        Device.pin_factory = previous
    err = capsys.readouterr().err
    assert err.startswith("maxima-board run: matrix: pin factory rpigpio ")
    assert err.count("\n") == 1


def test_diag_over_the_pico_link(tmp_path, monkeypatch, capsys):
    """``diag`` with ``hardware = "pico"``: the simulated Pico (the firmware's
    own logic on a pty) reports switches; the link state and counters print."""
    from maxima_board.devices.pico_sim import SimPico

    sim = SimPico()
    m = MatrixMap()
    script = [(300, {m.position_of["e4"]}), (700, set())]
    state = {"t": 0}

    def on_sleep(now: int) -> None:
        while state["t"] < now:
            state["t"] += 2
            while script and script[0][0] <= state["t"]:
                sim.matrix.set(script.pop(0)[1])
            sim.step(state["t"])

    monkeypatch.setattr(runner_module, "SystemClock", lambda: runner_module.FakeClock(0, on_sleep))
    path = tmp_path / "pico.toml"
    path.write_text(f'hardware = "pico"\n[pico]\ndevice = "{sim.path}"\n[oled]\ndriver = "dummy"\n')
    try:
        assert main(["diag", "--config", str(path), "--seconds", "6"]) == 0
    finally:
        sim.close()
    out = capsys.readouterr().out.splitlines()
    assert out[1:5] == ["link connecting", "link up", "closed  R3 C4  e4", "opened  R3 C4  e4"]
    stats = [line for line in out if line.startswith("link lines_ok=")]
    assert stats and "dropped_crc=0" in stats[-1]


@pytest.fixture
def no_config(tmp_path, monkeypatch):
    """No --config, no $MAXIMA_BOARD_CONFIG, nothing on the search path."""
    import maxima_board.cli.config as config_module

    monkeypatch.delenv("MAXIMA_BOARD_CONFIG", raising=False)
    monkeypatch.setattr(config_module, "SEARCH_PATH", (tmp_path / "maxima-board.toml", tmp_path / "etc.toml"))
    monkeypatch.setenv("MAXIMA_BOARD_DB", str(tmp_path / "sim.db"))
    return tmp_path


def test_run_without_a_config_plays_the_simulated_board(no_config, monkeypatch, capsys):
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("lift d3\nplace d5\nwait 500\nquit\n"))
    assert main(["run"]) == 0
    out = capsys.readouterr().out
    assert "move 1 d3-d5 " in out
    store = GameStore(no_config / "sim.db")
    (game,) = store.games()
    assert store.moves(game.id) == ["d3-d5"]
    store.close()


def test_sim_kind_takes_the_config_settings(no_config, monkeypatch, capsys):
    import io

    path = no_config / "maxima-board.toml"           # found on the search path
    path.write_text('hardware = "sim"\n[game]\nwhite = "Ann"\nblack = "Bob"\n[database]\npath = "mine.db"\n')
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["run"]) == 0
    store = GameStore(no_config / "mine.db")
    (game,) = store.games()
    assert (game.white, game.black) == ("Ann", "Bob")
    store.close()


def test_pico_without_the_link_module_is_one_line(tmp_path, monkeypatch, capsys):
    import sys

    import maxima_board.devices

    monkeypatch.setitem(sys.modules, "maxima_board.devices.serial_link", None)     # import fails
    monkeypatch.delattr(maxima_board.devices, "serial_link", raising=False)
    path = tmp_path / "pico.toml"
    path.write_text('hardware = "pico"\n[oled]\ndriver = "none"\n')
    assert main(["run", "--config", str(path), "--seconds", "1"]) == 1
    assert capsys.readouterr().err == "maxima-board run: pico link not available\n"
