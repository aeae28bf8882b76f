"""The gpiozero matrix scanner on gpiozero's MockFactory, wired to a
simulated reed-switch matrix (maxima_board.devices.mock_matrix: a MockPin subclass that
pulls a column low while its row is driven low and the switch is closed)."""
from __future__ import annotations

from pathlib import Path

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from maxima_board.cli.config import DEFAULT_COLUMNS, DEFAULT_ROWS
from maxima_board.devices.errors import HardwareError
from maxima_board.devices.interfaces import BoardState
from maxima_board.devices.matrix_map import COLUMNS, POSITIONS, MatrixMap, default_layout
from maxima_board.devices.mock_matrix import ReedMatrix, matrix_factory
from maxima_board.devices.pins import PinFactoryError, board_model, choose_pin_factory, factory_name, is_pi5
from maxima_board.devices.scanner import MatrixScanner

CHESS_LIKE_START = [f"{f}{r}" for f in "abcdefgh" for r in (1, 2, 8, 9)] + ["d0", "e0", "d10", "e10"]


def _install(matrix: ReedMatrix):
    previous = Device.pin_factory
    Device.pin_factory = matrix_factory(matrix)
    return previous


def _uninstall(previous) -> None:
    Device.pin_factory.reset()
    Device.pin_factory.close()
    Device.pin_factory = previous


@pytest.fixture
def matrix():
    m = ReedMatrix(DEFAULT_ROWS, DEFAULT_COLUMNS)
    previous = _install(m)
    yield m
    _uninstall(previous)


@pytest.fixture
def scanner(matrix):
    s = MatrixScanner(DEFAULT_ROWS, DEFAULT_COLUMNS, debounce_ms=30, row_settle_us=0)
    yield s
    s.close()


def _settle(scanner: MatrixScanner, start_ms: int, period_ms: int = 10, scans: int = 5) -> BoardState:
    state = None
    for i in range(scans):
        state = scanner.read(start_ms + i * period_ms)
    return state


def test_pins_are_set_up_as_board_md_says(matrix, scanner):
    factory = Device.pin_factory
    for pin in DEFAULT_ROWS:
        p = factory.pin(pin)
        assert p.function == "output" and p.state is True      # released = high
    for pin in DEFAULT_COLUMNS:
        p = factory.pin(pin)
        assert p.function == "input" and p.pull == "up"


def test_rows_are_driven_low_one_at_a_time(matrix, scanner):
    seen = []
    original = matrix._driven_low_rows

    def spy():
        rows = original()
        seen.append(frozenset(rows))
        return rows

    matrix._driven_low_rows = spy
    matrix.close_switch(0, 0)
    scanner.scan()
    assert len(seen) == POSITIONS                     # one check per column read
    assert all(len(rows) == 1 for rows in seen)
    assert [next(iter(rows)) for rows in seen[::COLUMNS]] == list(range(10))
    factory = Device.pin_factory
    assert all(factory.pin(p).state is True for p in DEFAULT_ROWS)   # all released after the scan


def test_every_position_reads_as_its_own_bit(matrix, scanner):
    layout = default_layout()
    for pos in range(POSITIONS):
        matrix.closed = {(pos // COLUMNS, pos % COLUMNS)}
        assert scanner.scan() == 1 << pos
        state = MatrixMap().decode(1 << pos)
        name = layout[pos]
        if name.startswith("button:"):
            assert state == BoardState(frozenset(), frozenset({name[7:]}))
        else:
            assert state == BoardState(frozenset({name}))


def test_a_full_scan_is_100_pin_operations(matrix, scanner):
    matrix.reset_counts()
    scanner.scan()
    assert (matrix.writes, matrix.reads) == (20, 80)


def test_closed_rectangle_makes_no_ghost_with_diodes(matrix, scanner):
    for r, c in ((2, 3), (2, 6), (5, 3)):          # three corners closed
        matrix.close_switch(r, c)
    frame = scanner.scan()
    assert frame == (1 << 19) | (1 << 22) | (1 << 43)
    assert not frame >> (5 * COLUMNS + 6) & 1      # the fourth corner stays open


def test_without_diodes_the_same_rectangle_shows_a_ghost():
    """The model is able to fail: the diode-less matrix ghosts."""
    m = ReedMatrix(DEFAULT_ROWS, DEFAULT_COLUMNS, diodes=False)
    previous = _install(m)
    try:
        s = MatrixScanner(DEFAULT_ROWS, DEFAULT_COLUMNS, row_settle_us=0)
        for r, c in ((2, 3), (2, 6), (5, 3)):
            m.close_switch(r, c)
        assert scanner_bit(s.scan(), 5, 6)
        s.close()
    finally:
        _uninstall(previous)


def scanner_bit(frame: int, row: int, col: int) -> bool:
    return bool(frame >> (row * COLUMNS + col) & 1)


def test_start_like_position_reads_exactly(matrix, scanner):
    matrix.set_squares(CHESS_LIKE_START)
    state = _settle(scanner, 0)
    assert state == BoardState(frozenset(CHESS_LIKE_START))


def test_buttons_come_from_row_9(matrix, scanner):
    matrix.set_squares(["e4", "d10", "button:ok", "button:new"])
    assert _settle(scanner, 0) == BoardState(frozenset({"e4", "d10"}), frozenset({"ok", "new"}))
    assert [p // COLUMNS for p in (matrix.map.position_of["button:ok"], matrix.map.position_of["button:new"])] == [9, 9]


class TestDebounce:
    def test_unknown_until_the_first_frame_is_stable(self, matrix, scanner):
        matrix.set_squares(["a1"])
        assert scanner.read(0) is None
        assert scanner.read(10) is None
        assert scanner.read(20) is None
        assert scanner.read(30) == BoardState(frozenset({"a1"}))

    def test_chatter_on_a_square_is_suppressed(self, matrix, scanner):
        matrix.set_squares(["a1"])
        _settle(scanner, 0)
        seen = set()
        for i in range(30):                               # 300 ms of chatter on e4
            matrix.set_name("e4", i % 2 == 0)
            seen.add(scanner.read(100 + i * 10))
        assert seen == {BoardState(frozenset({"a1"}))}
        matrix.set_name("e4", True)                        # then it stays closed
        t = 400
        assert scanner.read(t) == BoardState(frozenset({"a1"}))
        assert scanner.read(t + 20) == BoardState(frozenset({"a1"}))
        assert scanner.read(t + 30) == BoardState(frozenset({"a1", "e4"}))

    def test_chatter_on_one_square_does_not_delay_another(self, matrix, scanner):
        _settle(scanner, 0)
        matrix.set_name("h9", True)
        for i in range(5):
            matrix.set_name("e4", i % 2 == 0)
            state = scanner.read(100 + i * 10)
        assert state == BoardState(frozenset({"h9"}))     # at 140 ms: h9 closed 40 ms ago

    def test_a_short_bounce_never_shows(self, matrix, scanner):
        _settle(scanner, 0)
        matrix.set_name("c3", True)
        assert scanner.read(100) == BoardState(frozenset())
        matrix.set_name("c3", False)                       # opened again after 1 scan
        assert [scanner.read(t) for t in (110, 120, 130, 140)] == [BoardState(frozenset())] * 4

    def test_debounce_needs_two_scans_even_when_slow(self, matrix, scanner):
        _settle(scanner, 0)
        matrix.set_name("c3", True)
        assert scanner.read(1000) == BoardState(frozenset())   # seen once, however late
        assert scanner.read(1029) == BoardState(frozenset())   # twice, but not 30 ms yet
        assert scanner.read(1030) == BoardState(frozenset({"c3"}))


class TestPinFactory:
    def test_board_model(self, tmp_path: Path):
        model = tmp_path / "model"
        model.write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\0")
        assert board_model((tmp_path / "missing", model)) == "Raspberry Pi 5 Model B Rev 1.0"
        assert board_model((tmp_path / "missing",)) is None

    @pytest.mark.parametrize("model, pi5", [
        ("Raspberry Pi 5 Model B Rev 1.0", True), ("Raspberry Pi 500 Rev 1.0", True),
        ("Raspberry Pi Compute Module 5 Rev 1.0", True), ("Raspberry Pi 4 Model B Rev 1.5", False),
        ("Raspberry Pi 3 Model B Plus Rev 1.3", False), (None, False), ("", False)])
    def test_pi5_detection(self, model, pi5):
        assert is_pi5(model) is pi5
        assert factory_name("auto", model, environ={}) == ("lgpio" if pi5 else None)

    def test_environment_and_explicit_choice_win(self):
        assert factory_name("auto", "Raspberry Pi 5 Model B", environ={"GPIOZERO_PIN_FACTORY": "mock"}) is None
        assert factory_name("rpigpio", "Raspberry Pi 5 Model B", environ={}) == "rpigpio"

    def test_an_installed_factory_is_kept(self):
        previous = Device.pin_factory
        Device.pin_factory = mine = MockFactory()
        try:
            assert choose_pin_factory("lgpio", "Raspberry Pi 5") == "MockFactory (already set)"
            assert Device.pin_factory is mine
        finally:
            mine.close()
            Device.pin_factory = previous

    def test_choosing_on_a_pc_does_nothing_and_never_fails(self):
        previous, Device.pin_factory = Device.pin_factory, None
        try:
            assert choose_pin_factory("auto", "", environ={}) == "gpiozero default"
            assert Device.pin_factory is None
            assert choose_pin_factory("mock") == "MockFactory"
            assert isinstance(Device.pin_factory, MockFactory)
        finally:
            if Device.pin_factory is not None:
                Device.pin_factory.close()
            Device.pin_factory = previous

    def test_missing_lgpio_on_a_pi5_is_one_clear_line(self):
        pytest.importorskip("gpiozero")
        try:
            import lgpio  # noqa: F401
            pytest.skip("lgpio is installed here")
        except ImportError:
            pass
        previous, Device.pin_factory = Device.pin_factory, None
        try:
            with pytest.raises(PinFactoryError) as info:
                choose_pin_factory("auto", "Raspberry Pi 5 Model B Rev 1.0", environ={})
            assert str(info.value) == ("pin factory lgpio is not installed: No module named 'lgpio' "
                                       "(install the 'pi' extra: pip install 'maxima-board[pi]')")
        finally:
            Device.pin_factory = previous


def test_a_busy_pin_is_a_one_line_hardware_error(matrix, scanner):
    with pytest.raises(HardwareError) as info:
        MatrixScanner(DEFAULT_ROWS, DEFAULT_COLUMNS)
    message = str(info.value)
    assert message.startswith("matrix row R0 on BCM 4: ") and "\n" not in message
    # the failed scanner released what it had taken: the first one still scans
    matrix.close_switch(0, 0)
    assert scanner.scan() == 1


def test_scans_as_often_as_debouncing_needs(matrix, scanner):
    """At rest every 15 ms on a grid (45 ms − 30 ms debounce); while a
    switch is being debounced every 10 ms; a change reaches the reader at
    most 45 ms after it happened."""
    assert (scanner.idle_scan_ms, scanner.active_scan_ms) == (15, 10)
    assert scanner.next_deadline(0) == 0                 # never scanned: now
    t, seen = 0, []
    while t < 76:
        scanner.read(t)
        seen.append(t)
        t = scanner.next_deadline(t)
    assert seen == [0, 10, 20, 30, 45, 60, 75]           # the first frame decided, then at rest
    matrix.close_switch(3, 4)                             # e4, at 76 ms
    while "e4" not in scanner.read(t).squares:
        seen.append(t)
        t = scanner.next_deadline(t)
    assert seen[7:] == [90, 100, 110]                     # seen at 90, then every 10 ms
    assert t == 90 + 30 and t - 76 <= 45                  # accepted 30 ms after it was seen
    assert scanner.next_deadline(t) == 135                # back at rest


def test_a_board_at_rest_is_scanned_every_45_ms(matrix, scanner):
    """Standing as the game expects, the next change can only begin a move:
    the loop says so and the scanner looks every 45 ms; told otherwise, it
    is back to 15 ms at once."""
    t = 0
    while t < 40:
        scanner.read(t)
        t = scanner.next_deadline(t)
    scanner.set_at_rest(True)
    assert scanner.next_deadline(30) == 45
    scanner.read(45)
    assert scanner.next_deadline(45) == 90
    matrix.close_switch(0, 0)
    scanner.read(90)                                      # seen: deciding, every 10 ms
    assert scanner.next_deadline(90) == 100
    scanner.set_at_rest(False)
    for t in (100, 110, 120):
        scanner.read(t)
    assert "a1" in scanner.read(120).squares and scanner.next_deadline(120) == 135
