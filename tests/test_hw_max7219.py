"""Single-colour LEDs: luma's max7219 device on a recording no-op serial
interface (``Mock(wraps=luma.core.interface.serial.noop())``). The bytes
sent to the chips are decoded back into lit LEDs and checked against the
LED frame and the blink timing of board.md."""
from __future__ import annotations

from unittest import mock

import pytest
from luma.core.interface.serial import noop
from luma.led_matrix.device import max7219

from maxima_board.devices.blink import BlinkPlan
from maxima_board.cli.config import DEFAULT_PATTERNS
from maxima_board.devices.matrix_map import MatrixMap
from maxima_board.devices.max7219 import Max7219Leds, led_pixel, open_max7219

DIGIT_0 = 1          # MAX7219 register of digit 0; digits 0..7 are registers 1..8


class Chain:
    """Two cascaded MAX7219 behind a recording no-op serial interface."""

    def __init__(self, chips: int = 2, **kwargs):
        self.serial = mock.Mock(wraps=noop())
        self.device = max7219(self.serial, cascaded=chips)
        self.chips = chips
        self.serial.reset_mock()
        self.leds = Max7219Leds(self.device, MatrixMap(), **kwargs)

    def writes(self) -> int:
        return self.serial.data.call_count

    def lit_leds(self) -> set[int]:
        """LED numbers (chip * 64 + digit * 8 + bit) lit by the last frame,
        decoded from the register writes: each write is one digit for every
        chip, the farthest chip's pair first."""
        calls = [c.args[0] for c in self.serial.data.call_args_list][-8:]
        assert len(calls) == 8
        lit = set()
        for data in calls:
            assert len(data) == 2 * self.chips
            for k in range(self.chips):
                register, value = data[2 * k], data[2 * k + 1]
                chip = self.chips - 1 - k
                digit = register - DIGIT_0
                assert 0 <= digit < 8
                lit |= {chip * 64 + digit * 8 + bit for bit in range(8) if value >> bit & 1}
        return lit


def test_led_numbering():
    assert led_pixel(0) == (0, 0)
    assert led_pixel(7) == (0, 7)
    assert led_pixel(8) == (1, 0)
    assert led_pixel(64) == (8, 0)
    assert led_pixel(79) == (9, 7)
    assert led_pixel(127) == (15, 7)


def test_every_square_lights_its_own_led():
    chain = Chain()
    m = MatrixMap()
    for name, pos in m.position_of.items():
        if name.startswith("button:"):
            continue
        chain.leds.show({name: "setup-missing"}, 0)
        assert chain.lit_leds() == {pos}, name


def test_led_frame_with_mixed_states():
    chain = Chain()
    leds = {"e4": "error-missing", "a1": "engine-to", "h9": "setup-missing", "d0": "last-to",
            "e10": "last-from", "c3": "immobilized", "f5": "hint"}
    chain.leds.show(leds, 0)
    m = MatrixMap()
    assert chain.lit_leds() == {m.position_of[s] for s in ("e4", "a1", "h9", "d0", "e10")}
    # rows R0..R7 are chip 0's digits, R8-R9 chip 1's: d0 (R9 C0) is LED 72 = chip 1 digit 1 bit 0
    assert m.position_of["d0"] == 72 and 72 in chain.lit_leds()


BLINKING = {"e4": "error-extra", "d5": "remove", "b2": "engine-from", "g7": "check",
            "a1": "error-missing", "c3": "immobilized", "f6": "hint"}


@pytest.mark.parametrize("now_ms, lit", [
    (0, {"e4", "d5", "b2", "g7", "a1"}),      # everything on at the start of a period
    (124, {"e4", "d5", "b2", "g7", "a1"}),
    (125, {"b2", "g7", "a1"}),                # fast blink (250 ms) off for its second half
    (250, {"e4", "d5", "b2", "g7", "a1"}),
    (499, {"b2", "g7", "a1"}),
    (500, {"e4", "d5", "a1"}),                # slow blink (1 s) off for its second half
    (625, {"a1"}),
    (999, {"a1"}),
    (1000, {"e4", "d5", "b2", "g7", "a1"}),
    (61_130, {"a1", "b2", "g7"}),
])
def test_blink_timing(now_ms, lit):
    chain = Chain()
    chain.leds.show(BLINKING, now_ms)
    m = MatrixMap()
    assert chain.lit_leds() == {m.position_of[s] for s in lit}


def test_immobilized_and_hints_on_request():
    patterns = dict(DEFAULT_PATTERNS, immobilized="steady", hint="slow")
    chain = Chain(plan=BlinkPlan(patterns))
    chain.leds.show({"c3": "immobilized", "f6": "hint"}, 600)
    assert chain.lit_leds() == {MatrixMap().position_of["c3"]}


def test_the_chips_are_written_only_when_the_lit_set_changes():
    chain = Chain()
    for now in range(0, 1000, 10):                 # a 100 Hz loop for one second
        chain.leds.show({"e4": "error-extra", "a1": "error-missing"}, now)
    # fast blink: 8 changes a second, 8 register writes (one per digit) each
    assert chain.writes() == 8 * 8


def test_custom_led_order():
    order = list(range(80))
    order[0], order[79] = 127, 0                     # a1's LED moved to the last LED of chip 1
    chain = Chain(order=order)
    chain.leds.show({"a1": "engine-to"}, 0)
    assert chain.lit_leds() == {127}


def test_brightness_and_open_noop():
    device = open_max7219(interface="noop", chips=2, brightness=9)
    assert device.size == (16, 8)
    serial = mock.Mock(wraps=noop())
    max7219(serial, cascaded=2, contrast=9 * 16)
    intensity = [c.args[0] for c in serial.data.call_args_list if c.args[0][0] == 0x0A]
    assert intensity == [[0x0A, 9, 0x0A, 9]]


def test_show_positions_for_diagnostics():
    chain = Chain()
    chain.leds.show_positions([0, 76, 79])            # buttons have LEDs too
    assert chain.lit_leds() == {0, 76, 79}
