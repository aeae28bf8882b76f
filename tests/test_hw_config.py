"""The configuration file: defaults, the example file, and a corpus of bad
files each giving its own one-line error (tests/configs/bad/*.toml, the
expected error on the first line after ``# expect:``)."""
from __future__ import annotations

from pathlib import Path

import pytest

from maxima_board.cli.config import (DEFAULT_COLUMNS, DEFAULT_PATTERNS, DEFAULT_ROWS, ConfigError,
                                     find_config, load_config, parse_config)
from maxima_board.devices.matrix_map import default_layout

HERE = Path(__file__).parent
BAD = sorted((HERE / "configs" / "bad").glob("*.toml"))
ROOT = HERE.parent


def _expected(path: Path) -> str:
    first = path.read_text().splitlines()[0]
    assert first.startswith("# expect: "), f"{path.name}: first line must be '# expect: <error>'"
    return first[len("# expect: "):]


def test_the_corpus_is_there():
    assert len(BAD) >= 40


@pytest.mark.parametrize("path", BAD, ids=[p.stem for p in BAD])
def test_bad_config_gives_its_one_line_error(path: Path):
    with pytest.raises(ConfigError) as info:
        load_config(path, environ={})
    message = str(info.value)
    assert "\n" not in message
    assert message == f"config {path}: {_expected(path)}"


def test_bad_config_errors_are_all_different():
    messages = [_expected(p) for p in BAD]
    assert len(set(messages)) == len(messages)


def test_minimal_direct_config_takes_the_board_md_defaults():
    config = parse_config('hardware = "direct"\n', environ={})
    assert config.hardware == "direct"
    assert config.matrix.rows == DEFAULT_ROWS == (4, 5, 6, 7, 12, 13, 16, 19, 20, 15)
    assert config.matrix.columns == DEFAULT_COLUMNS == (17, 27, 22, 23, 24, 25, 26, 21)
    assert dict(config.matrix.layout) == default_layout()
    assert (config.oled.driver, config.oled.i2c_bus, config.oled.address) == ("ssd1306", 1, 0x3C)
    assert (config.leds.driver, config.leds.chips, config.leds.order) == ("max7219", 2, tuple(range(80)))
    assert dict(config.leds.patterns) == DEFAULT_PATTERNS
    assert (config.buzzer.enabled, config.buzzer.pin) == (False, 18)
    assert config.pico.device == "/dev/serial/by-id/usb-MicroPython_Board*"
    assert config.settings_values == {}


def test_example_config_is_valid_and_spells_out_the_defaults():
    example = load_config(ROOT / "systemd" / "config.example.toml", environ={})
    minimal = parse_config('hardware = "direct"\n', environ={})
    for part in ("matrix", "leds", "oled", "buzzer", "pico", "debounce_ms", "loop_ms"):
        assert getattr(example, part) == getattr(minimal, part), part


def test_settings_values_and_database_path(tmp_path: Path):
    path = tmp_path / "board.toml"
    path.write_text('hardware = "sim"\n[timings]\nsettle_ms = 400\ngrace_ms = 900\ndebounce_ms = 20\n'
                    '[assist]\nshow_immobilized = "side"\nhints = true\n'
                    '[game]\nwhite = "Ann"\nblack = "Bob"\nround = "3"\n[database]\npath = "games.db"\n')
    config = load_config(path, environ={"MAXIMA_BOARD_DB": "/elsewhere.db"})
    assert config.debounce_ms == 20
    assert config.settings_values == {"settle_ms": 400, "grace_ms": 900, "show_immobilized": "side",
                                      "hints": True, "white": "Ann", "black": "Bob", "round": "3",
                                      "db_path": str(tmp_path / "games.db")}


def test_database_path_defaults_to_the_environment():
    config = parse_config('hardware = "sim"\n', environ={"MAXIMA_BOARD_DB": "/var/lib/maxima-board/games.db"})
    assert config.settings_values == {"db_path": "/var/lib/maxima-board/games.db"}


def test_pins_of_unused_buses_are_free():
    """With the OLED and LEDs off, their bus pins may be matrix pins."""
    config = parse_config('hardware = "direct"\n[oled]\ndriver = "none"\n[leds]\ndriver = "none"\n'
                          '[matrix]\nrows = [2, 3, 8, 9, 10, 11, 16, 19, 20, 15]\n', environ={})
    assert config.matrix.rows[:2] == (2, 3)


def test_custom_layout_with_unused_positions():
    rows = [f"a{r} b{r} c{r} d{r} e{r} f{r} g{r} h{r}" for r in range(1, 10)]
    text = 'hardware = "pico"\n[matrix]\nlayout = [\n' + "".join(f'"{r}",\n' for r in rows) + '"e0 d0 e10 d10 - - ok back"]\n'
    layout = parse_config(text, environ={}).matrix.layout
    assert layout[72] == "e0" and layout[73] == "d0" and 76 not in layout and layout[78] == "button:ok"
    assert "button:new" not in layout.values()


class TestFindConfig:
    def test_explicit_path_must_exist(self, tmp_path: Path):
        with pytest.raises(ConfigError, match=r"^config .*nope.toml: file not found$"):
            find_config(str(tmp_path / "nope.toml"), environ={})

    def test_environment_then_search_path(self, tmp_path: Path):
        local, system = tmp_path / "maxima-board.toml", tmp_path / "etc.toml"
        assert find_config(None, environ={}, search=(local, system)) is None
        system.write_text('hardware = "sim"\n')
        assert find_config(None, environ={}, search=(local, system)) == system
        local.write_text('hardware = "sim"\n')
        assert find_config(None, environ={}, search=(local, system)) == local
        chosen = tmp_path / "chosen.toml"
        chosen.write_text('hardware = "sim"\n')
        assert find_config(None, environ={"MAXIMA_BOARD_CONFIG": str(chosen)}, search=(local, system)) == chosen
        assert find_config(str(system), environ={"MAXIMA_BOARD_CONFIG": str(chosen)}) == system
        with pytest.raises(ConfigError, match="missing.toml: file not found"):
            find_config(None, environ={"MAXIMA_BOARD_CONFIG": str(tmp_path / "missing.toml")})


@pytest.mark.parametrize("command", ["run", "diag"])
def test_cli_reports_a_bad_config_in_one_line(command, capsys):
    from maxima_board.cli.main import main

    path = HERE / "configs" / "bad" / "rows_nine_pins.toml"
    assert main([command, "--config", str(path)]) == 2
    err = capsys.readouterr().err
    assert err == f"maxima-board {command}: config {path}: [matrix] rows: expected 10 pins, got 9\n"


def test_diag_refuses_the_simulated_board(tmp_path: Path, capsys):
    from maxima_board.cli.main import main

    path = tmp_path / "sim.toml"
    path.write_text('hardware = "sim"\n')
    assert main(["diag", "--config", str(path), "--seconds", "1"]) == 2
    assert capsys.readouterr().err == (f'maxima-board diag: config {path}: hardware: diag needs "direct" '
                                       f'or "pico", got "sim"\n')
