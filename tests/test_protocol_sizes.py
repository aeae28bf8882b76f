"""The protocol for both matrices: ``H`` announces rows×cols, ``F`` carries
one bit and ``L`` one byte per position (80 or 110), and PicoLink checks the
announced size against its config (pyserial ``loop://`` as the wire)."""
from __future__ import annotations

import random

import pytest
import serial

from maxima_board.devices import mbproto
from maxima_board.devices.boards import MAXIMA_BOARD, TEN_BY_TEN
from maxima_board.devices.matrix_map import MatrixMap
from maxima_board.devices.protocol import Hello, encode_leds, led_code, led_line, parse_line
from maxima_board.devices.serial_link import PicoLink


def body(line: bytes) -> bytes:
    status, b = mbproto.unseal(line[:-1])
    assert status == mbproto.OK
    return b


@pytest.mark.parametrize("rows, cols", [(10, 8), (11, 10)])
def test_frames_round_trip_for_both_matrices(rows, cols):
    rng = random.Random(rows * cols)
    n = rows * cols
    for _ in range(200):
        bits = rng.getrandbits(n)
        line = mbproto.frame(rng.randrange(65536), bits, rows, cols)
        hexdigits = body(line).split(b" ")[2]
        assert len(hexdigits) == 2 * ((n + 7) // 8)
        assert int(hexdigits, 16) == bits                  # big-endian, bit i = position i
        assert mbproto.parse(body(line), n)[2] == bits
        assert mbproto.frame_of(mbproto.rows_of(bits, rows, cols), cols) == bits


def test_frame_rows_of_ten_columns_puts_row_r_at_bit_10r():
    rows = [0] * 11
    rows[0] = 1 << 9            # j1
    rows[9] = 1 << 9            # j10
    rows[10] = 1 << 2           # MENU
    f = mbproto.parse(body(mbproto.frame_rows(7, rows, 10)), 110)
    assert f == ("F", 7, (1 << 9) | (1 << 99) | (1 << 102))


def test_a_frame_of_the_other_size_is_malformed():
    f80 = body(mbproto.frame(1, 5))
    f110 = body(mbproto.frame(1, 5, 11, 10))
    assert mbproto.parse(f80, 110) is None and mbproto.parse(f110, 80) is None
    l80 = body(mbproto.leds(1, bytes(80)))
    l110 = body(mbproto.leds(1, bytes(110)))
    assert mbproto.parse(l80, 110) is None and mbproto.parse(l110, 80) is None
    assert mbproto.parse(l110, 110) == ("L", 1, bytes(110))


def test_the_longest_line_fits_the_reader():
    line = mbproto.leds(65535, bytes([0xFF]) * 110)
    assert len(line) - 1 <= mbproto.MAX_LINE
    assert mbproto.LineReader().feed(line) == [line[:-1]]


@pytest.mark.parametrize("text, want", [
    ("H 0.2.0 500 11x10", Hello("0.2.0", 500, 11, 10)),
    ("H 0.1.0 500 10x8", Hello("0.1.0", 500, 10, 8)),
    ("H 0.1.0 500", Hello("0.1.0", 500, 10, 8)),            # older firmware: the Maxima board
])
def test_hello_announces_the_matrix(text, want):
    assert parse_line(mbproto.seal(text)[:-1]) == (mbproto.OK, want)


@pytest.mark.parametrize("text", ["H 1 500 11y10", "H 1 500 0x10", "H 1 500 11x", "H 1 500 x10",
                                  "H 1 500 11x10 extra", "H 1 500 99x10"])
def test_bad_hello_sizes_are_malformed(text):
    assert parse_line(mbproto.seal(text)[:-1]) == (mbproto.MALFORMED, None)


def test_leds_of_the_ten_by_ten_board_in_chain_order():
    mm = MatrixMap.for_board(TEN_BY_TEN)
    codes = encode_leds({"a1": "check", "j10": "error-extra", "b2": "remove", "k1": "hint"}, mm)
    assert len(codes) == 110
    assert {i: c for i, c in enumerate(codes) if c} == {0: led_code("check"), 99: led_code("error-extra"),
                                                       11: led_code("remove")}
    assert len(body(led_line(3, codes)).split(b" ")[2]) == 220


def _loop_link(mm: MatrixMap, board: str):
    port = serial.serial_for_url("loop://", timeout=0)
    link = PicoLink(lambda: port, mm, board=board)
    link.read(0)                     # opens the port and sends the first keep-up ping
    return link, port


def _pico_says(port, *lines: bytes) -> None:
    port.write(b"".join(lines))


def test_pico_link_takes_110_switch_frames_from_the_ten_by_ten_firmware():
    mm = MatrixMap.for_board(TEN_BY_TEN)
    link, port = _loop_link(mm, "10x10")
    bits = (1 << 11) | (1 << 88) | (1 << 103)              # b2, i9, NEW
    _pico_says(port, mbproto.ACK, mbproto.hello("0.2.0", 500, 11, 10),
               mbproto.frame(0, bits, 11, 10), mbproto.frame(1, bits, 11, 10))
    state = link.read(10)
    assert link.link_ok and link.link_problem is None
    assert state.squares == {"b2", "i9"} and state.buttons == {"new"}
    link.close()


def test_pico_link_refuses_a_firmware_for_another_board(caplog):
    """board.md: a mismatch is one line on the OLED (link_problem) and the log."""
    link, port = _loop_link(MatrixMap.for_board(MAXIMA_BOARD), "maxima")
    bits = 1 << 5
    _pico_says(port, mbproto.ACK, mbproto.hello("0.2.0", 500, 11, 10),
               mbproto.frame(0, bits, 11, 10), mbproto.frame(1, bits, 11, 10))
    assert link.read(10) is None and not link.link_ok
    assert link.link_problem == "Board has 11×10 switches, config says maxima (10×8)"
    assert "Board has 11×10 switches, config says maxima (10×8)" in caplog.text
    link.close()

    link, port = _loop_link(MatrixMap.for_board(TEN_BY_TEN), "10x10")
    _pico_says(port, mbproto.ACK, mbproto.hello("0.1.0", 500), mbproto.frame(0, 0), mbproto.frame(1, 0))
    assert link.read(10) is None
    assert link.link_problem == "Board has 10×8 switches, config says 10x10 (11×10)"
    link.close()


def test_a_matching_hello_clears_the_problem():
    link, port = _loop_link(MatrixMap.for_board(MAXIMA_BOARD), "maxima")
    _pico_says(port, mbproto.ACK, mbproto.hello("0.2.0", 500, 11, 10))
    link.read(10)
    assert link.link_problem is not None
    _pico_says(port, mbproto.hello("0.2.0", 500, 10, 8), mbproto.frame(0, 1 << 3), mbproto.frame(1, 1 << 3))
    state = link.read(20)
    assert link.link_problem is None and link.link_ok and state.squares == {"d1"}
    link.close()
