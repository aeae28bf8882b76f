"""Issue 13: `run` names a missing Pico device, and `hardware = "direct"` on
a machine without GPIO is one line, without gpiozero's fallback warnings."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def run(config: Path, *extra: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "GPIOZERO_PIN_FACTORY"}
    env.update(PYTHONPATH=str(ROOT), MAXIMA_BOARD_DB=str(config.parent / "games.db"))
    return subprocess.run([sys.executable, "-m", "maxima_board.cli.main", "run", "--config", str(config), *extra],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=60)


def test_run_says_once_that_the_pico_device_is_missing_and_waits(tmp_path):
    missing = tmp_path / "no-such-pico"
    config = tmp_path / "board.toml"
    config.write_text(f'hardware = "pico"\n[pico]\ndevice = "{missing}"\n[oled]\ndriver = "none"\n'
                      '[buzzer]\nenabled = false\n')
    r = run(config, "--seconds", "1.5")
    assert r.returncode == 0, r.stderr
    said = [line for line in r.stderr.splitlines() if "no board at" in line]
    assert said == [f"maxima-board run: no board at {missing} (config {config}: [pico] device); "
                    "waiting for it to be plugged in"], r.stderr


def test_run_direct_without_gpio_is_one_line(tmp_path):
    if Path("/proc/device-tree/model").exists():
        pytest.skip("this machine may have GPIO")
    config = tmp_path / "board.toml"
    config.write_text('hardware = "direct"\n[oled]\ndriver = "none"\n[buzzer]\nenabled = false\n')
    r = run(config, "--seconds", "1")
    assert r.returncode != 0
    assert r.stderr.splitlines() == [
        f'maxima-board run: matrix: no GPIO on this machine (gpiozero loaded none of lgpio, RPi.GPIO, '
        f'pigpio, native); config {config}: hardware = "direct" needs a Raspberry Pi'], r.stderr


def test_the_oled_names_the_missing_device_and_the_board_is_found_when_plugged_in(tmp_path):
    """The design: the board waits. The OLED says "No board at <path>"; a
    Pico appearing at that path later is picked up."""
    import io
    import select

    from maxima_board.board.core import Controller
    from maxima_board.service.runner import Runner
    from maxima_board.board.settings import Settings
    from maxima_board.storage.store import GameStore
    from maxima_board.rules import START_FEN
    from maxima_board.cli.assemble import NoDisplay
    from maxima_board.devices.matrix_map import MatrixMap
    from maxima_board.devices.notify import Notifier
    from maxima_board.devices.pico_sim import SimPico
    from maxima_board.devices.serial_link import PicoLink

    path = tmp_path / "maxima-pico"
    matrix_map = MatrixMap()
    controller = Controller(Settings(), GameStore(":memory:"), fen=START_FEN)
    link = PicoLink.from_config(str(path), 115200, matrix_map)
    runner = Runner(controller, link, link, NoDisplay(), notifier=Notifier(None), log=io.StringIO())
    sim = SimPico()
    try:
        sim.matrix.set({matrix_map.position_of[s] for s in controller.expected_squares})
        for t in range(0, 2000, 10):
            runner.step(t)
        assert link.link_problem == f"No board at {path}"
        assert controller.display[:3] == ["Board link lost", "", "Retrying. No board at"]
        shown = "".join(controller.display[3:]).rstrip(":…")   # a long path is cut on the OLED
        assert len(shown) >= 30 and (str(path) + ":").startswith(shown)
        os.symlink(sim.path, path)                 # plugged in
        up = None
        for t in range(2000, 5000, 10):
            sent = sim.bytes_out
            sim.step(t)
            if sim.bytes_out != sent and link._port is not None:
                select.select([link._port.fileno()], [], [], 0.2)
            runner.step(t)
            sim.wait_input(0.0005)
            if link.link_ok and up is None:
                up = t
        assert up is not None and up - 2000 <= 500, up
        assert link.link_problem is None
        assert controller.display[0] != "Board link lost"
    finally:
        link.close()
        sim.close()
