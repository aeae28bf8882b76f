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
    return subprocess.run([sys.executable, "-m", "controller.cli", "run", "--config", str(config), *extra],
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
