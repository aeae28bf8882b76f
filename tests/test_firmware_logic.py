"""The firmware's pure logic under CPython: protocol (hardware/mbproto.py, the
module the Pico also runs), scan, debounce, LED animation and the Firmware
object. The same logic runs under real MicroPython in
test_firmware_micropython.py."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from maxima_board.devices import mbproto
from maxima_board.devices.pico_sim import SimMatrix, load_firmware

FW = load_firmware()
Scanner = FW["mbscan"].Scanner
Debouncer = FW["mbdebounce"].Debouncer
Animator = FW["mbleds"].Animator
Firmware = FW["mbfirmware"].Firmware

VECTORS = json.loads((Path(__file__).parent / "micropython" / "vectors.json").read_text())


def crc_reference(data: bytes) -> int:
    """Bit-by-bit CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF), independent
    of the table and of binascii."""
    c = 0xFFFF
    for b in data:
        c ^= b << 8
        for _ in range(8):
            c = ((c << 1) ^ 0x1021) & 0xFFFF if c & 0x8000 else (c << 1) & 0xFFFF
    return c


# ---- protocol ---------------------------------------------------------------

def test_crc_check_value_and_vectors():
    assert mbproto.crc16(b"123456789") == 0x29B1       # CRC-16/CCITT-FALSE check value
    assert mbproto.crc16_table(b"123456789") == 0x29B1
    for text, crc in VECTORS["crc"]:
        assert crc_reference(text.encode()) == crc
        assert mbproto.crc16(text.encode()) == crc
        assert mbproto.crc16_table(text.encode()) == crc


@given(st.binary(max_size=300))
def test_crc_matches_reference(data):
    """The table (what the Pico runs) and binascii.crc_hqx (what CPython
    uses) agree with the bit-by-bit definition."""
    assert mbproto.crc16_table(data) == crc_reference(data)
    assert mbproto.crc16(data) == crc_reference(data)


def test_frame_and_led_vectors():
    for f, seq, line in VECTORS["frames"]:
        assert line == "F %d %020X*%04X" % (seq, int(f), crc_reference(line.split("*")[0].encode()))
        assert mbproto.frame(seq, int(f)) == line.encode() + b"\n"
    for codes, seq, line in VECTORS["leds"]:
        assert mbproto.leds(seq, bytes(codes)) == line.encode() + b"\n"


def test_frame_bit_order_is_position_order():
    # bit i = matrix position i; the hex number is big-endian
    line = mbproto.frame(0, 1 << 0)
    assert line.startswith(b"F 0 00000000000000000001*")
    line = mbproto.frame(0, 1 << 79)
    assert line.startswith(b"F 0 80000000000000000000*")
    assert mbproto.rows_of(1 << 9) == bytes([0, 2] + [0] * 8)
    assert mbproto.frame_of(mbproto.rows_of(0x123456789ABCDEF01234)) == 0x123456789ABCDEF01234


@given(st.integers(0, 65535), st.integers(0, (1 << 80) - 1))
def test_frame_roundtrip(seq, bits):
    line = mbproto.frame(seq, bits)
    assert line.endswith(b"\n") and len(line) == len(b"F  *XXXX\n") + len(str(seq)) + 20
    status, body = mbproto.unseal(line[:-1])
    assert status == mbproto.OK
    assert mbproto.parse(body) == ("F", seq, bits)


@given(st.integers(0, 65535), st.binary(min_size=80, max_size=80))
def test_led_roundtrip(seq, codes):
    line = mbproto.leds(seq, codes)
    assert len(line) <= mbproto.MAX_LINE
    status, body = mbproto.unseal(line[:-1])
    assert mbproto.parse(body) == ("L", seq, codes)


def test_simple_messages():
    assert mbproto.PING == b"P*%04X\n" % crc_reference(b"P")
    for line, msg in ((mbproto.PING, ("P",)), (mbproto.ACK, ("A",)), (mbproto.RESET, ("R",)),
                      (mbproto.hello("0.1.0", 500), ("H", "0.1.0", 500, 10, 8)),
                      (mbproto.seal("H 0.1.0 500"), ("H", "0.1.0", 500)),
                      (mbproto.hello("0.2.0", 480, 11, 10), ("H", "0.2.0", 480, 11, 10)),
                      (mbproto.error(2, "rx dropped"), ("E", "2", "rx dropped"))):
        status, body = mbproto.unseal(line[:-1])
        assert status == mbproto.OK
        assert mbproto.parse(body) == msg


def test_error_text_is_cleaned():
    line = mbproto.error(3, "bad\x00\xffthing" + "x" * 200)
    assert len(line) < mbproto.MAX_LINE
    status, body = mbproto.unseal(line[:-1])
    assert status == mbproto.OK and b"\x00" not in body


@given(st.binary(max_size=400))
def test_unseal_and_parse_never_raise(data):
    status, body = mbproto.unseal(data)
    assert status in (mbproto.OK, mbproto.MALFORMED, mbproto.BAD_CRC)
    if status == mbproto.OK:
        mbproto.parse(body)


@given(st.binary(min_size=1, max_size=60))
def test_a_single_corrupted_byte_never_passes(body):
    good = mbproto.seal(body.replace(b"\n", b" "))[:-1]
    for i in range(len(good)):
        bad = bytearray(good)
        bad[i] ^= 0x5A
        status, _ = mbproto.unseal(bytes(bad))
        # a CRC-16 detects every single-byte error; the suffix may also become malformed
        assert status != mbproto.OK or bytes(bad) == good


@settings(max_examples=200)
@given(st.lists(st.binary(max_size=50).map(lambda b: b.replace(b"\n", b"")), max_size=10),
       st.lists(st.integers(1, 40), min_size=1, max_size=20))
def test_line_reader_any_chunking(lines, cuts):
    stream = b"".join(line + b"\n" for line in lines)
    reader = mbproto.LineReader(60)
    got, i, k = [], 0, 0
    while i < len(stream):
        n = cuts[k % len(cuts)]
        got += reader.feed(stream[i:i + n])
        i, k = i + n, k + 1
    assert got == [line for line in lines if line and line != b"\r"]
    assert reader.overlong == 0


def test_line_reader_drops_overlong_and_recovers():
    reader = mbproto.LineReader(mbproto.MAX_LINE)
    assert reader.feed(b"x" * 1000) == []
    assert reader.feed(b"y" * 1000 + b"\n" + mbproto.PING) == [mbproto.PING[:-1]]
    assert reader.overlong == 1


# ---- scan -----------------------------------------------------------------

def positions(rows: bytes) -> set[int]:
    return {r * 8 + c for r in range(len(rows)) for c in range(8) if rows[r] >> c & 1}


@pytest.mark.parametrize("port", [False, True])
@given(st.sets(st.integers(0, 79)))
def test_scan_sees_exactly_the_closed_switches(port, closed):
    m = SimMatrix()
    sc = Scanner(m.rows, m.cols, m.read_port if port else None)
    m.set(closed)
    raw = bytearray(10)
    sc.scan(raw)
    assert positions(raw) == closed
    assert m.levels == [1] * 10          # every row released after the scan


def test_scan_drives_rows_one_at_a_time():
    m = SimMatrix()
    low_counts = []

    class Spy:
        def __init__(self, col):
            self.col = col

        def value(self):
            low_counts.append(m.levels.count(0))
            return self.col.value()

    sc = Scanner(m.rows, [Spy(c) for c in m.cols])
    sc.scan(bytearray(10))
    assert low_counts == [1] * 80


def test_scan_operation_count():
    m = SimMatrix()
    sc = Scanner(m.rows, m.cols)
    m.ops = {"write": 0, "read": 0}
    sc.scan(bytearray(10))
    assert m.ops == {"write": 20, "read": 80}


def test_scan_settle_called_per_row():
    m = SimMatrix()
    calls = []
    Scanner(m.rows, m.cols, settle=lambda: calls.append(m.levels.count(0))).scan(bytearray(10))
    assert calls == [1] * 10


# ---- debounce ---------------------------------------------------------------

def test_debounce_bounce_then_settle():
    db = Debouncer(10, 8, 30, 3)
    raw = bytearray(10)
    assert db.update(raw, 0)
    t = 0
    for i in range(20):                  # chatter every 2 ms for 40 ms
        t += 2
        raw[4] = 0x10 if i % 2 == 0 else 0
        assert not db.update(raw, t)
    raw[4] = 0x10
    steady_from = t + 2
    while not db.update(raw, t := t + 2):
        assert t < 200
    assert db.stable[4] == 0x10
    assert t - steady_from >= 30


def test_debounce_is_per_switch():
    """A chattering square does not hold back a clean change elsewhere."""
    db = Debouncer(10, 8, 30, 3)
    raw = bytearray(10)
    db.update(raw, 0)
    raw[0] = 1                        # clean change on position 0
    t = 0
    changes = []
    for i in range(40):
        t += 2
        raw[9] = 0x80 if i % 2 else 0  # position 79 chatters all the time
        if db.update(raw, t):
            changes.append((t, bytes(db.stable)))
    assert changes and changes[0][1][0] == 1 and changes[0][1][9] == 0
    assert 30 <= changes[0][0] <= 40


@given(st.lists(st.tuples(st.integers(0, 79), st.integers(1, 100)), max_size=30))
def test_debounce_converges_to_raw(events):
    db = Debouncer(10, 8, 30, 3)
    raw = bytearray(10)
    t = 0
    db.update(raw, t)
    for pos, gap in events:
        raw[pos // 8] ^= 1 << (pos % 8)
        for _ in range(gap // 5):
            t += 5
            db.update(raw, t)
    for _ in range(20):               # 100 ms of quiet
        t += 5
        db.update(raw, t)
    assert bytes(db.stable) == bytes(raw)


# ---- LEDs -----------------------------------------------------------------

def test_animator_blink_timing():
    an = Animator(80)
    codes = bytearray(80)
    codes[0] = mbproto.led_code(mbproto.SLOW_BLINK, 3)
    codes[1] = mbproto.led_code(mbproto.FAST_BLINK, 1)
    an.set_codes(codes)
    on = lambda i: any(an.rgb[3 * i:3 * i + 3])  # noqa: E731
    seen = []
    for t in range(0, 1000, 25):
        an.render(t)
        seen.append((on(0), on(1)))
    assert sum(s[0] for s in seen) == 20                    # 50 % duty, 1 Hz
    assert sum(s[1] for s in seen) == 20                    # 50 % duty, 4 Hz
    toggles = sum(1 for a, b in zip(seen, seen[1:]) if a[1] != b[1])
    assert toggles == 7


def test_animator_reports_change_only_when_needed():
    an = Animator(80)
    codes = bytearray(80)
    codes[3] = mbproto.led_code(mbproto.STEADY, 6)
    an.set_codes(codes)
    assert an.render(0)
    assert not an.render(10)
    assert not an.animated()


def test_palette_has_sixteen_dim_colours():
    assert len(mbproto.PALETTE) == 16 == len(mbproto.COLOUR_NAMES)
    assert mbproto.PALETTE[0] == (0, 0, 0)
    assert all(0 <= v <= 128 for c in mbproto.PALETTE for v in c)


# ---- the firmware object ----------------------------------------------------

class Out:
    def __init__(self):
        self.data = bytearray()

    def write(self, b):
        self.data += b

    def messages(self):
        res = []
        for line in bytes(self.data).split(b"\n")[:-1]:
            status, body = mbproto.unseal(line)
            assert status == mbproto.OK, line
            res.append(mbproto.parse(body))
        return res


def make_fw(m: SimMatrix, out: Out, resets: list | None = None, **kw):
    return Firmware(Scanner(m.rows, m.cols), Debouncer(10, 8, 30, 3), Animator(80), out.write,
                    (lambda: resets.append(1)) if resets is not None else None, "t", 400, **kw)


def test_firmware_heartbeat_and_changes():
    m = SimMatrix()
    out = Out()
    fw = make_fw(m, out)
    fw.start(0)
    t = 0
    for _ in range(500):                  # 1 s, nothing moves
        t += 2
        fw.step(t)
    msgs = out.messages()
    assert msgs[0] == ("H", "t", 400, 10, 8)
    fs = [x for x in msgs if x[0] == "F"]
    assert len(fs) == 5 and [f[1] for f in fs] == [0, 1, 2, 3, 4]
    m.set({12})
    for _ in range(50):
        t += 2
        fw.step(t)
    fs = [x for x in out.messages() if x[0] == "F"]
    assert fs[-1][2] == 1 << 12
    # every change is sent twice in a row (the Pi acts on a state only when repeated)
    changes = [i for i in range(1, len(fs)) if fs[i][2] != fs[i - 1][2]]
    assert len(changes) == 1
    i = changes[0]
    assert fs[i + 1] == ("F", fs[i][1] + 1, 1 << 12)


def test_firmware_never_raises_on_junk():
    m = SimMatrix()
    out = Out()
    resets: list = []
    fw = make_fw(m, out, resets)
    fw.start(0)
    import random
    rnd = random.Random(5)
    for i in range(300):
        n = rnd.randrange(1, 400)
        junk = bytes(rnd.randrange(256) for _ in range(n))
        fw.receive(junk, i)
    fw.receive(b"\n", 301)
    assert fw.rx_ok + fw.rx_crc + fw.rx_malformed > 0
    assert resets == []
    fw.receive(mbproto.PING, 302)
    fw.step(304)
    ack, f1, f2 = out.messages()[-3:]
    assert ack == ("A",) and f1[0] == "F" == f2[0] and f1[2] == f2[2]   # the state, twice, after A


def test_firmware_applies_led_frames_and_reset():
    m = SimMatrix()
    out = Out()
    resets: list = []
    fw = make_fw(m, out, resets)
    fw.start(0)
    codes = bytes([mbproto.led_code(2, 1)] * 80)
    fw.receive(mbproto.leds(9, codes)[:100], 1)
    fw.receive(mbproto.leds(9, codes)[100:], 2)
    assert bytes(fw.animator.codes) == codes
    fw.receive(mbproto.RESET, 3)
    assert resets == [1]
