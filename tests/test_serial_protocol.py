"""hardware/protocol.py: the Pi's view of the wire format, and the LED
states of board.md as pattern/colour bytes."""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from maxima_board.devices import mbproto, protocol
from maxima_board.devices.interfaces import LED_STATES
from maxima_board.devices.matrix_map import MatrixMap
from maxima_board.devices.protocol import (BAD_CRC, LED_STYLE, MALFORMED, OK, Ack, Error, Frame, Hello,
                                           LedFrame, Ping, Reset, encode_leds, led_line, parse_line)

MAP = MatrixMap()


def test_shared_implementation():
    """One implementation: protocol.py re-exports mbproto, it does not copy it."""
    assert protocol.crc16 is mbproto.crc16
    assert protocol.seal is mbproto.seal
    assert protocol.LineReader is mbproto.LineReader
    assert protocol.PALETTE is mbproto.PALETTE


def test_led_styles_follow_board_md():
    name = {i: n for i, n in enumerate(mbproto.COLOUR_NAMES)}
    expect = {
        "error-extra": ("fast", "red"), "error-missing": ("steady", "red"),
        "remove": ("fast", "orange"), "engine-from": ("slow", "white"),
        "engine-to": ("steady", "white"), "check": ("slow", "amber"),
        "setup-missing": ("steady", "white"), "last-from": ("steady", "dim green"),
        "last-to": ("steady", "dim green"), "immobilized": ("steady", "blue"),
        "hint": ("steady", "dim white"), "captures": ("pulse", "magenta"),
    }
    patterns = {0: "steady", 1: "slow", 2: "fast", 3: "pulse"}
    assert set(LED_STYLE) == set(LED_STATES) == set(expect)
    for state, (pattern, colour) in LED_STYLE.items():
        assert (patterns[pattern], name[colour]) == expect[state], state


def test_encode_leds_in_matrix_order():
    leds = {"a1": "error-missing", "h9": "engine-to", "d0": "hint", "e10": "remove"}
    codes = encode_leds(leds, MAP)
    assert len(codes) == 80
    assert codes[0] == 0x01                      # steady red
    assert codes[8 * 8 + 7] == 0x03              # h9: steady white
    assert codes[72] == 0x07                     # d0: steady dim white
    assert codes[75] == 0x22                     # e10: fast orange
    assert sum(1 for c in codes if c) == 4


def test_encode_leds_ignores_unknowns():
    codes = encode_leds({"z99": "hint", "a1": "nonsense", "button:ok": "hint"}, MAP)
    assert codes[0] == 0
    # a button position is a real chain position: allowed (e.g. to light OK)
    assert codes[MAP.position_of["button:ok"]] == 0x07


def test_encode_with_a_custom_layout():
    layout = {i: f"{'abcdefgh'[i % 8]}{i // 8 + 1}" for i in range(72)}
    layout.update({79: "d0"})
    m = MatrixMap(layout)
    assert encode_leds({"d0": "check"}, m)[79] == 0x14


def test_led_line_parses_back():
    codes = encode_leds({"c3": "check"}, MAP)
    line = led_line(42, codes)
    assert parse_line(line[:-1]) == (OK, LedFrame(42, codes))


def test_parse_line_every_type():
    cases = [
        (mbproto.hello("0.1.0", 480), Hello("0.1.0", 480)),
        (mbproto.frame(9, 1 << 33), Frame(9, 1 << 33)),
        (mbproto.error(4, "config missing"), Error("4", "config missing")),
        (mbproto.PING, Ping()), (mbproto.ACK, Ack()), (mbproto.RESET, Reset()),
    ]
    for line, msg in cases:
        assert parse_line(line[:-1]) == (OK, msg)
        assert parse_line(line[:-1] + b"\r") == (OK, msg)


def test_parse_line_failures():
    line = bytearray(mbproto.frame(1, 5)[:-1])
    line[-6] ^= 1
    assert parse_line(bytes(line)) == (BAD_CRC, None)
    assert parse_line(b"F 1 0*") == (MALFORMED, None)
    assert parse_line(mbproto.seal("F x y")[:-1]) == (MALFORMED, None)


@given(st.binary(max_size=300))
def test_parse_line_never_raises(data):
    status, msg = parse_line(data)
    assert (status == OK) == (msg is not None)
