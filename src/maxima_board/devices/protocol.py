"""Pi side of the Pico serial protocol (shared/hardware/board.md).

The wire format itself — CRC-16, line sealing and checking, message building
and parsing, the palette and the line splitter — has ONE implementation,
``hardware/mbproto.py``, written in the MicroPython-compatible subset and
copied to the Pico by the deploy step (docs/pico.md). This module adds the
typed messages and the mapping from the controller's LED states to the
pattern/colour bytes of an ``L`` frame.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Union

from . import mbproto
from .interfaces import LED_STATES
from .matrix_map import MatrixMap

crc16 = mbproto.crc16
seal = mbproto.seal
LineReader = mbproto.LineReader
PALETTE = mbproto.PALETTE
OK, MALFORMED, BAD_CRC = mbproto.OK, mbproto.MALFORMED, mbproto.BAD_CRC

# patterns (high nibble)
STEADY = mbproto.STEADY
SLOW_BLINK = mbproto.SLOW_BLINK
FAST_BLINK = mbproto.FAST_BLINK
PULSE = mbproto.PULSE

# palette indices (low nibble) used by the LED states
OFF, RED, ORANGE, WHITE, AMBER, DIM_GREEN, BLUE, DIM_WHITE = range(8)
MAGENTA = mbproto.COLOUR_NAMES.index("magenta")

#: board.md LED state -> (pattern, palette index)
LED_STYLE: dict[str, tuple[int, int]] = {
    "error-extra": (FAST_BLINK, RED),
    "error-missing": (STEADY, RED),
    "remove": (FAST_BLINK, ORANGE),
    "engine-from": (SLOW_BLINK, WHITE),
    "engine-to": (STEADY, WHITE),
    "check": (SLOW_BLINK, AMBER),
    "captures": (PULSE, MAGENTA),
    "setup-missing": (STEADY, WHITE),
    "last-from": (STEADY, DIM_GREEN),
    "last-to": (STEADY, DIM_GREEN),
    "immobilized": (STEADY, BLUE),
    "hint": (STEADY, DIM_WHITE),
}
assert set(LED_STYLE) == set(LED_STATES), "every board.md LED state needs a style"


@dataclass(frozen=True)
class Hello:
    version: str
    scan_hz: int
    rows: int = mbproto.ROWS          # the matrix the firmware scans (10x8 when not announced)
    cols: int = mbproto.COLS


@dataclass(frozen=True)
class Frame:
    seq: int
    bits: int


@dataclass(frozen=True)
class Error:
    code: str
    text: str


@dataclass(frozen=True)
class LedFrame:
    seq: int
    codes: bytes


@dataclass(frozen=True)
class Ping:
    pass


@dataclass(frozen=True)
class Ack:
    pass


@dataclass(frozen=True)
class Reset:
    pass


Message = Union[Hello, Frame, Error, LedFrame, Ping, Ack, Reset]


def parse_line(line: bytes, positions: int = mbproto.POSITIONS) -> tuple[int, Message | None]:
    """Check and decode one received line (without ``\\n``); F and L lines
    must carry ``positions`` switches / LEDs (80 or 110).

    Returns ``(OK, message)``, ``(BAD_CRC, None)`` or ``(MALFORMED, None)``.
    Never raises on any input.
    """
    status, body = mbproto.unseal(line)
    if status != OK:
        return status, None
    t = mbproto.parse(body, positions)
    if t is None:
        return MALFORMED, None
    kind = t[0]
    msg: Message
    if kind == "F":
        msg = Frame(t[1], t[2])
    elif kind == "H":
        msg = Hello(t[1], t[2], *t[3:])
    elif kind == "E":
        msg = Error(t[1], t[2])
    elif kind == "L":
        msg = LedFrame(t[1], t[2])
    elif kind == "A":
        msg = Ack()
    elif kind == "P":
        msg = Ping()
    else:
        msg = Reset()
    return OK, msg


def led_code(state: str) -> int:
    """The L byte for one LED state name (0 = off for unknown names)."""
    style = LED_STYLE.get(state)
    return mbproto.led_code(*style) if style else 0


def encode_leds(leds: Mapping[str, str], matrix_map: MatrixMap) -> bytes:
    """``square -> LED state`` as the code bytes of an L frame, one per
    matrix position (80 or 110), in matrix (= WS2812 chain) order. Unknown
    squares and states are left dark."""
    positions = matrix_map.positions
    codes = bytearray(positions)
    for square, state in leds.items():
        pos = matrix_map.position_of.get(square)
        if pos is not None and 0 <= pos < positions:
            codes[pos] = led_code(state)
    return bytes(codes)


def led_line(seq: int, codes: bytes) -> bytes:
    """``L <seq> <hex digits>*XXXX\\n``."""
    return mbproto.leds(seq, codes)
