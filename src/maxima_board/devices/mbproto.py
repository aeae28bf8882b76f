"""The Pico <-> Pi serial protocol: ONE implementation for both ends.

This module is written in the subset of Python that MicroPython (RP2040) and
CPython share: no typing, no f-strings with format specs that MicroPython
lacks, no dataclasses, no bytearray methods beyond indexing/extend. The Pi
imports it as ``maxima_board.devices.mbproto`` (through ``hardware/protocol.py``); the
deploy step copies this very file to the Pico as ``mbproto.py`` (docs/pico.md).

Wire format (shared/hardware/board.md, with a stronger check): one ASCII
line per message, ``\\n``-terminated; every line ends with ``*`` and four
upper-case hex digits, the CRC-16/CCITT-FALSE (polynomial 0x1021, initial
value 0xFFFF, no reflection, no final XOR; ``crc16(b"123456789") == 0x29B1``)
of the bytes before the ``*``. board.md's CRC-8 let about 0.3 % of lines with
two or three hex digits changed through as other valid lines; CRC-16 catches
every change of up to three bits and every burst of up to 16 bits (so every
one- and two-adjacent-digit change) and lets through about 1 in 65,536 of the
rest. A CRC-32 would be stronger still, but its values do not fit MicroPython's
small ints on the Pico (every step would allocate). A trailing ``\\r`` before
``\\n`` is tolerated.

Messages (fields separated by one space):

* Pico -> Pi: ``H <fw-version> <scan-hz> <rows>x<cols>``, ``F <seq> <hex>``,
  ``E <code> <text>``, ``A`` (answer to ``P``).
* Pi -> Pico: ``L <seq> <hex>``, ``P``, ``R``.

``H`` announces the switch matrix: ``10x8`` on the Maxima board (80
positions), ``11x10`` on the 10x10 board (110); an ``H`` without it (older
firmware) means 10x8. ``seq`` is a decimal counter 0..65535 that wraps. The
hex digits of ``F`` are the frame as one big-endian hexadecimal number of
``ceil(positions / 8)`` bytes (bit i = matrix position i = row * cols +
column, set = switch closed): 20 digits for 80 positions, 28 for 110. The hex
digits of ``L`` are one byte per position in position order (position 0
first; 160 digits for 80 positions, 220 for 110): high nibble the pattern,
low nibble the palette index.
"""

VERSION = "2"          # protocol version, for the record: 2 = CRC-16 lines

MAX_LINE = 256         # longest accepted line, without the newline (L of 110 positions: 233)
SEQ_MOD = 65536
ROWS = 10              # the Maxima board's matrix, the default everywhere
COLS = 8
POSITIONS = 80
FRAME_BYTES = 10       # 80 bits
MAX_POSITIONS = 110    # the 10x10 board: 11 rows x 10 columns
E_TEXT_MAX = 80

# unseal() status codes
OK = 0
MALFORMED = 1
BAD_CRC = 2

# LED patterns (high nibble of an L byte)
STEADY = 0
SLOW_BLINK = 1
FAST_BLINK = 2
PULSE = 3

# The fixed 16-colour palette (low nibble of an L byte), as (r, g, b).
# Kept dim on purpose: 80 WS2812 at full white would draw ~4.8 A.
PALETTE = (
    (0, 0, 0),        # 0 off
    (96, 0, 0),       # 1 red
    (96, 28, 0),      # 2 orange
    (64, 64, 64),     # 3 white
    (80, 52, 0),      # 4 amber
    (0, 16, 0),       # 5 dim green
    (0, 0, 96),       # 6 blue
    (10, 10, 10),     # 7 dim white
    (0, 80, 0),       # 8 green
    (80, 80, 0),      # 9 yellow
    (0, 64, 64),      # 10 cyan
    (80, 0, 80),      # 11 magenta
    (40, 0, 80),      # 12 purple
    (96, 24, 48),     # 13 pink
    (16, 0, 0),       # 14 dim red
    (0, 0, 16),       # 15 dim blue
)
COLOUR_NAMES = ("off", "red", "orange", "white", "amber", "dim green", "blue", "dim white",
                "green", "yellow", "cyan", "magenta", "purple", "pink", "dim red", "dim blue")


def _make_crc_table():
    table = []
    for i in range(256):
        c = i << 8
        for _ in range(8):
            c = ((c << 1) ^ 0x1021) & 0xFFFF if c & 0x8000 else (c << 1) & 0xFFFF
        table.append(c)
    return tuple(table)


_CRC_TABLE = _make_crc_table()

# hex digit value of each byte, 255 when the byte is not a hex digit
_HEXVAL = bytearray(b"\xff" * 256)
for _i in range(10):
    _HEXVAL[48 + _i] = _i
for _i in range(6):
    _HEXVAL[65 + _i] = 10 + _i
    _HEXVAL[97 + _i] = 10 + _i
_HEXDIGITS = b"0123456789ABCDEF"


def crc16_table(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE, table-driven: ``crc16_table(b"123456789") == 0x29B1``.
    This is what runs on the Pico."""
    t = _CRC_TABLE
    for b in data:
        crc = ((crc << 8) & 0xFFFF) ^ t[(crc >> 8) ^ b]
    return crc


try:            # CPython computes the same CRC in C (binascii.crc_hqx); MicroPython has no crc_hqx
    from binascii import crc_hqx as _crc_hqx
except ImportError:
    _crc_hqx = None


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE of ``data``: binascii.crc_hqx where it exists
    (CPython), else ``crc16_table``; both give the same value."""
    if _crc_hqx is not None:
        return _crc_hqx(data, crc)
    return crc16_table(data, crc)


def seal(body):
    """``body`` (bytes or str) as a complete line: body ``*`` CRC ``\\n``."""
    if isinstance(body, str):
        body = body.encode()
    c = crc16(body)
    h = _HEXDIGITS
    return body + bytes((42, h[c >> 12], h[(c >> 8) & 15], h[(c >> 4) & 15], h[c & 15], 10))


def unseal(line):
    """Check a received line (without its ``\\n``).

    Returns ``(status, body)``: ``(OK, body)`` when the checksum matches,
    ``(BAD_CRC, None)`` when it is well-formed but wrong, ``(MALFORMED, None)``
    when there is no ``*XXXX`` suffix or a byte outside printable ASCII.
    """
    n = len(line)
    if n and line[n - 1] == 13:      # tolerate \r\n
        n -= 1
    if n < 6 or line[n - 5] != 42:
        return MALFORMED, None
    hv = _HEXVAL
    want = 0
    for i in range(n - 4, n):
        d = hv[line[i]]
        if d == 255:
            return MALFORMED, None
        want = (want << 4) | d
    body = bytes(line[:n - 5])
    for b in body:
        if b < 32 or b > 126:
            return MALFORMED, None
    if crc16(body) != want:
        return BAD_CRC, None
    return OK, body


def unhex(text):
    """Hex digits (bytes) as bytes, or None if any digit is invalid or the
    count is odd."""
    n = len(text)
    if n & 1:
        return None
    out = bytearray(n >> 1)
    hv = _HEXVAL
    for i in range(0, n, 2):
        hi = hv[text[i]]
        lo = hv[text[i + 1]]
        if hi == 255 or lo == 255:
            return None
        out[i >> 1] = (hi << 4) | lo
    return bytes(out)


def tohex(data):
    """Bytes as upper-case hex digits (bytes)."""
    out = bytearray(2 * len(data))
    i = 0
    for b in data:
        out[i] = _HEXDIGITS[b >> 4]
        out[i + 1] = _HEXDIGITS[b & 15]
        i += 2
    return bytes(out)


def _uint(tok, limit):
    """A decimal token as an int in 0..limit-1, or None."""
    if not tok or len(tok) > 10:
        return None
    v = 0
    for b in tok:
        if b < 48 or b > 57:
            return None
        v = v * 10 + (b - 48)
    return v if v < limit else None


# ---- builders -------------------------------------------------------------

def hello(version, scan_hz, rows=ROWS, cols=COLS):
    """``H <fw-version> <scan-hz> <rows>x<cols>`` line."""
    return seal("H %s %d %dx%d" % (version, scan_hz, rows, cols))


def frame_bytes(positions):
    """Bytes of an F frame of ``positions`` bits."""
    return (positions + 7) >> 3


def frame_rows(seq, rows, cols=COLS):
    """``F`` line from one int per row (row r holds bits cols*r .. cols*r +
    cols - 1, bit c = column c). Only small ints are used on the way."""
    n = frame_bytes(len(rows) * cols)
    packed = bytearray(n)
    acc = 0
    have = 0
    i = 0
    for r in rows:
        acc |= r << have
        have += cols
        while have >= 8:
            packed[i] = acc & 0xFF
            i += 1
            acc >>= 8
            have -= 8
    if have:
        packed[i] = acc & 0xFF
    digits = bytearray(2 * n)
    for k in range(n):
        b = packed[k]
        j = 2 * (n - 1 - k)
        digits[j] = _HEXDIGITS[b >> 4]
        digits[j + 1] = _HEXDIGITS[b & 15]
    return seal(b"F " + str(seq % SEQ_MOD).encode() + b" " + bytes(digits))


def rows_of(frame, nrows=ROWS, cols=COLS):
    """A frame int as one int per row (row 0 first); bytes when cols <= 8."""
    mask = (1 << cols) - 1
    out = bytearray(nrows) if cols <= 8 else [0] * nrows
    for r in range(nrows):
        out[r] = (frame >> (cols * r)) & mask
    return bytes(out) if cols <= 8 else out


def frame_of(rows, cols=COLS):
    """One int per row as the frame int."""
    v = 0
    for r in range(len(rows) - 1, -1, -1):
        v = (v << cols) | rows[r]
    return v


def frame(seq, frame_int, nrows=ROWS, cols=COLS):
    """``F`` line from a frame int of ``nrows * cols`` bits."""
    return frame_rows(seq, rows_of(frame_int, nrows, cols), cols)


def error(code, text):
    """``E <code> <text>`` line; text is cut to printable ASCII, 80 chars."""
    clean = bytearray()
    for b in str(text).encode():
        if len(clean) >= E_TEXT_MAX:
            break
        clean.append(b if 32 <= b <= 126 else 63)
    return seal(b"E " + str(code).encode() + b" " + bytes(clean))


def leds(seq, codes):
    """``L <seq> <hex>`` line from one LED code byte per position."""
    return seal(b"L " + str(seq % SEQ_MOD).encode() + b" " + tohex(codes))


def led_code(pattern, colour):
    """One L byte: pattern in the high nibble, palette index in the low."""
    return ((pattern & 15) << 4) | (colour & 15)


PING = seal("P")
ACK = seal("A")
RESET = seal("R")


# ---- parser ---------------------------------------------------------------

def parse(body, positions=POSITIONS):
    """A checked body as a tuple, or None when malformed:

    ``("H", version_str, scan_hz, rows, cols)`` (``("H", version_str,
    scan_hz)`` from firmware that does not announce its matrix),
    ``("F", seq, frame_int)``, ``("E", code_str, text)``, ``("L", seq,
    codes)``, ``("P",)``, ``("A",)``, ``("R",)``. ``F`` and ``L`` must carry
    exactly ``positions`` bits / bytes (80 on the Maxima board, 110 on the
    10x10 board).
    """
    if not body:
        return None
    kind = body[0]
    if len(body) == 1:
        if kind == 80:
            return ("P",)
        if kind == 65:
            return ("A",)
        if kind == 82:
            return ("R",)
        return None
    if body[1] != 32:
        return None
    if kind == 70 or kind == 76:                 # F / L
        parts = body[2:].split(b" ")
        if len(parts) != 2:
            return None
        seq = _uint(parts[0], SEQ_MOD)
        if seq is None:
            return None
        want = 2 * frame_bytes(positions) if kind == 70 else 2 * positions
        if len(parts[1]) != want:
            return None
        data = unhex(parts[1])
        if data is None:
            return None
        if kind == 70:
            v = 0
            for b in data:
                v = (v << 8) | b
            return ("F", seq, v)
        return ("L", seq, data)
    if kind == 72:                               # H
        parts = body[2:].split(b" ")
        if len(parts) not in (2, 3) or not parts[0]:
            return None
        hz = _uint(parts[1], 1000000)
        if hz is None:
            return None
        if len(parts) == 2:
            return ("H", parts[0].decode(), hz)
        size = parts[2].split(b"x")
        if len(size) != 2:
            return None
        rows = _uint(size[0], 33)
        cols = _uint(size[1], 33)
        if not rows or not cols:
            return None
        return ("H", parts[0].decode(), hz, rows, cols)
    if kind == 69:                               # E
        rest = body[2:]
        sp = rest.find(b" ")
        if sp <= 0:
            return None
        return ("E", rest[:sp].decode(), rest[sp + 1:].decode())
    return None


class LineReader:
    """Splits a byte stream into lines; drops (and counts) overlong ones.

    ``feed(data)`` returns the complete lines (without ``\\n``) found so far.
    Empty lines are skipped silently. A line longer than ``max_len`` is
    discarded up to the next newline and counted in ``overlong``.
    """

    def __init__(self, max_len=MAX_LINE):
        self.max_len = max_len
        self.buf = bytearray()
        self.skipping = False
        self.overlong = 0

    def reset(self):
        """Forget a partial line (after a reconnect)."""
        self.buf = bytearray()
        self.skipping = False

    def feed(self, data):
        out = []
        data = bytes(data)
        n = len(data)
        start = 0
        while start < n:
            i = data.find(b"\n", start)
            if i < 0:
                if not self.skipping:
                    if len(self.buf) + n - start > self.max_len:
                        self.buf = bytearray()
                        self.skipping = True
                        self.overlong += 1
                    else:
                        self.buf.extend(data[start:])
                break
            if self.skipping:
                self.skipping = False
            elif len(self.buf) + i - start > self.max_len:
                self.overlong += 1
                self.buf = bytearray()
            else:
                if self.buf:
                    self.buf.extend(data[start:i])
                    line = bytes(self.buf)
                    self.buf = bytearray()
                else:
                    line = data[start:i]
                if line and line != b"\r":
                    out.append(line)
            start = i + 1
        return out
