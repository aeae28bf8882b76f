"""``maxima-board diag`` names every module the configured topology needs and
this install lacks (maxima_board.cli.assemble.missing_modules), and says whether the
computer opponent can play (issue 20)."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from gpiozero import Device

from maxima_board.cli.main import main
from maxima_board.cli.assemble import missing_modules
from maxima_board.cli.config import load_config

PI5 = "Raspberry Pi 5 Model B Rev 1.0"
PI4 = "Raspberry Pi 4 Model B Rev 1.4"


def _config(tmp_path: Path, text: str):
    path = tmp_path / "board.toml"
    path.write_text(text)
    return load_config(path)


def _lacking(*names: str):
    return lambda module: module not in names


def test_direct_topology_names_spidev_and_lgpio_with_the_pi_extra(tmp_path, monkeypatch):
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    config = _config(tmp_path, 'hardware = "direct"\n')          # MAX7219 on SPI, OLED on I2C by default
    missing = missing_modules(config, _lacking("spidev", "lgpio"), model=PI5)
    assert [m.module for m in missing] == ["spidev", "lgpio"]
    assert "MAX7219" in missing[0].part and "'pi' extra" in missing[0].fix and "python3-spidev" in missing[0].fix
    assert "pin factory lgpio" in missing[1].part and "python3-lgpio" in missing[1].fix
    # a Pi 4 with RPi.GPIO: gpiozero's own choice works without lgpio
    assert [m.module for m in missing_modules(config, _lacking("spidev", "lgpio"), model=PI4)] == ["spidev"]
    assert missing_modules(config, _lacking(), model=PI5) == []
    # no LEDs on SPI: spidev is not needed
    noop = _config(tmp_path, 'hardware = "direct"\n[leds]\ninterface = "noop"\n')
    assert [m.module for m in missing_modules(noop, _lacking("spidev", "lgpio"), model=PI5)] == ["lgpio"]


def test_pico_topology_needs_pyserial_and_no_pin_library_without_a_buzzer(tmp_path, monkeypatch):
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    pico = _config(tmp_path, 'hardware = "pico"\n')
    lacking = _lacking("spidev", "lgpio", "serial")
    assert [m.module for m in missing_modules(pico, lacking, model=PI5)] == ["serial"]
    buzzer = _config(tmp_path, 'hardware = "pico"\n[buzzer]\nenabled = true\npin = 18\n')
    missing = missing_modules(buzzer, lacking, model=PI5)
    assert [m.module for m in missing] == ["serial", "lgpio"] and "buzzer" in missing[1].part


@pytest.mark.skipif(importlib.util.find_spec("spidev") is not None or importlib.util.find_spec("RPi") is not None,
                    reason="this machine has spidev or RPi.GPIO")
def test_diag_names_the_missing_modules_and_the_opponent(tmp_path, monkeypatch, capsys):
    """On this PC spidev and RPi.GPIO are really missing: diag names both, says
    whether the opponent can play, then fails on the matrix in one line."""
    from maxima_board.opponent import specs

    monkeypatch.setattr(specs, "INSTALLED", tmp_path / "bin" / "maxima-engine")
    monkeypatch.setattr(specs, "BUILTIN", tmp_path / "engine" / "maxima-engine")
    monkeypatch.setattr(specs, "NOT_BUILT", tmp_path / "NOT-BUILT")
    (tmp_path / "NOT-BUILT").write_text("the computer opponent's engine was not built: no gcc\n")
    path = tmp_path / "board.toml"
    path.write_text('hardware = "direct"\n[matrix]\npin_factory = "rpigpio"\n[opponent]\nside = "black"\n')
    previous, Device.pin_factory = Device.pin_factory, None
    try:
        assert main(["diag", "--config", str(path), "--seconds", "1"]) == 1
    finally:
        if Device.pin_factory is not None:
            Device.pin_factory.close()
        Device.pin_factory = previous
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("maxima-board diag: missing module spidev (for the MAX7219 LEDs on SPI): ")
    assert err[1].startswith("maxima-board diag: missing module RPi.GPIO (for the switch matrix (pin factory rpigpio))")
    assert err[2] == ("maxima-board diag: computer opponent unavailable: the built-in engine is not built: "
                      "the computer opponent's engine was not built: no gcc")
    assert err[3].startswith("maxima-board diag: matrix: pin factory rpigpio") and len(err) == 4
