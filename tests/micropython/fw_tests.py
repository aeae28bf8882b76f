# Firmware tests that run under real MicroPython (WebAssembly port, Node).
# run.mjs puts the firmware files, hardware/mbproto.py and vectors.json in
# /fw and the fake machine/neopixel modules in /fakes, then runs this file.
# Output: one "PASS name" / "FAIL name: ..." line per test, then
# "MP-RESULT passed=N failed=M".
import sys
import json

import machine
import neopixel
import mbproto
from mbscan import Scanner
from mbdebounce import Debouncer
from mbleds import Animator
from mbfirmware import Firmware

ROW_PINS = list(range(10))
COL_PINS = list(range(10, 18))

with open("vectors.json") as _f:
    VEC = json.load(_f)


def check(cond, msg="check failed"):
    if not cond:
        raise AssertionError(msg)


def eq(a, b):
    if a != b:
        raise AssertionError("%r != %r" % (a, b))


def close_positions(positions):
    machine.closed.clear()
    for p in positions:
        machine.closed.add((ROW_PINS[p // 8], COL_PINS[p % 8]))


def make_scanner(port=False):
    rows = [machine.Pin(n, machine.Pin.OUT, value=1) for n in ROW_PINS]
    cols = [machine.Pin(n, machine.Pin.IN, machine.Pin.PULL_UP) for n in COL_PINS]
    def read_port():
        return (machine.mem32[0xD0000004] >> 10) & 0xFF
    return Scanner(rows, cols, read_port if port else None)


def positions_of(rows):
    out = []
    for r in range(len(rows)):
        for c in range(8):
            if rows[r] >> c & 1:
                out.append(r * 8 + c)
    return out


class Out:
    def __init__(self):
        self.lines = []

    def write(self, b):
        self.lines.append(bytes(b))

    def bodies(self, kind=None):
        res = []
        for line in self.lines:
            st, body = mbproto.unseal(line[:-1])
            check(st == mbproto.OK, "firmware sent a bad line %r" % line)
            if kind is None or body[:1] == kind:
                res.append(body)
        return res


def make_fw(out, resets=None, **kw):
    sc = make_scanner()
    return Firmware(sc, Debouncer(10, 8, 30, 3), Animator(80), out.write,
                    (lambda: resets.append(1)) if resets is not None else None,
                    "0.1.0", 500, **kw)


# ---- protocol --------------------------------------------------------------

def test_crc_vectors():
    eq(mbproto.crc16(b"123456789"), 0x29B1)          # CRC-16/CCITT-FALSE check value
    for s, c in VEC["crc"]:
        eq(mbproto.crc16(s.encode()), c)
        eq(mbproto.crc16_table(s.encode()), c)


def test_frame_vectors():
    for f, seq, line in VEC["frames"]:
        eq(mbproto.frame(seq, int(f)), line.encode() + b"\n")
        st, body = mbproto.unseal(line.encode())
        eq(st, mbproto.OK)
        eq(mbproto.parse(body), ("F", seq, int(f)))


def test_led_vectors():
    for codes, seq, line in VEC["leds"]:
        eq(mbproto.leds(seq, bytes(codes)), line.encode() + b"\n")
        st, body = mbproto.unseal(line.encode())
        eq(mbproto.parse(body), ("L", seq, bytes(codes)))


def test_unseal_rejects():
    good = mbproto.seal("P")[:-1]
    eq(mbproto.unseal(good), (mbproto.OK, b"P"))
    eq(mbproto.unseal(good + b"\r"), (mbproto.OK, b"P"))
    bad = bytearray(good)
    bad[-1] = ord("0") if bad[-1] != ord("0") else ord("1")
    eq(mbproto.unseal(bytes(bad))[0], mbproto.BAD_CRC)
    eq(mbproto.unseal(b"P")[0], mbproto.MALFORMED)
    eq(mbproto.unseal(b"P*G1")[0], mbproto.MALFORMED)
    eq(mbproto.unseal(b"\xff\x00P*00")[0], mbproto.MALFORMED)
    eq(mbproto.unseal(b"")[0], mbproto.MALFORMED)


def test_parse_rejects():
    for body in (b"L 1 00", b"L x " + b"0" * 160, b"L 70000 " + b"0" * 160,
                 b"L 1 " + b"g" * 160, b"F 1 " + b"0" * 19, b"X", b"Q 1", b"H", b"E 1",
                 b"F  1 " + b"0" * 20, b"PP", b"L 1 " + b"0" * 160 + b" "):
        eq(mbproto.parse(body), None)


def test_line_reader_chunks_and_overlong():
    rd = mbproto.LineReader(20)
    eq(rd.feed(b"ab"), [])
    eq(rd.feed(b"c\nde\r\n\n"), [b"abc", b"de\r"])
    eq(rd.feed(b"x" * 30), [])
    eq(rd.overlong, 1)
    eq(rd.feed(b"yyy\nok\n"), [b"ok"])
    eq(rd.feed(b"z" * 25 + b"\nfine\n"), [b"fine"])
    eq(rd.overlong, 2)


# ---- scan and debounce -----------------------------------------------------

def test_scan_reads_closed_switches():
    for port in (False, True):
        sc = make_scanner(port)
        raw = bytearray(10)
        for positions in ([], [0], [79], [3, 12, 40, 41, 72, 78], list(range(80))):
            close_positions(positions)
            sc.scan(raw)
            eq(positions_of(raw), sorted(positions))
    close_positions([])


def test_scan_pin_operation_counts():
    sc = make_scanner(False)
    raw = bytearray(10)
    machine.reset_counts()
    sc.scan(raw)
    eq(machine.ops, {"write": 20, "read": 80, "mem32": 0})
    sc = make_scanner(True)
    machine.reset_counts()
    sc.scan(raw)
    eq(machine.ops, {"write": 20, "read": 0, "mem32": 10})
    print("INFO scan-ops per-pin: 20 row writes + 80 column reads; port: 20 row writes + 10 GPIO_IN reads")


def test_debounce_filters_bounce():
    db = Debouncer(10, 8, 30, 3)
    raw = bytearray(10)
    check(db.update(raw, 0))          # first scan taken as is
    t = 0
    # a bouncing contact: on/off every 5 ms for 60 ms never settles
    for i in range(12):
        t += 5
        raw[2] = 1 if i % 2 == 0 else 0
        check(not db.update(raw, t), "flipped on bounce")
    raw[2] = 1
    flipped_at = None
    for i in range(20):
        t += 5
        if db.update(raw, t):
            flipped_at = t
            break
    check(flipped_at is not None, "never settled")
    eq(db.stable[2], 1)
    # must have waited >= 30 ms after the last bounce (t=60, steady from t=65)
    check(flipped_at - 65 >= 30, "too early: %d" % flipped_at)


def test_debounce_min_scans():
    db = Debouncer(10, 8, 30, 3)
    raw = bytearray(10)
    db.update(raw, 0)
    raw[0] = 0x80
    check(not db.update(raw, 10))
    check(not db.update(raw, 100))    # time elapsed but only 2 scans
    check(db.update(raw, 101))
    eq(db.stable[0], 0x80)


# ---- LEDs ------------------------------------------------------------------

def test_animator_patterns():
    an = Animator(80)
    codes = bytearray(80)
    codes[0] = mbproto.led_code(0, 1)     # steady red
    codes[1] = mbproto.led_code(1, 3)     # slow blink white
    codes[2] = mbproto.led_code(2, 2)     # fast blink orange
    codes[3] = mbproto.led_code(3, 6)     # pulse blue
    codes[4] = mbproto.led_code(9, 5)     # reserved pattern: steady
    check(an.set_codes(codes))
    check(not an.set_codes(codes))
    an.render(0)
    P = mbproto.PALETTE
    eq(tuple(an.rgb[0:3]), P[1])
    eq(tuple(an.rgb[3:6]), P[3])
    eq(tuple(an.rgb[6:9]), P[2])
    eq(tuple(an.rgb[12:15]), P[5])
    eq(an.rgb[9 + 2], (P[6][2] * 32) >> 8)
    an.render(130)
    eq(tuple(an.rgb[6:9]), (0, 0, 0))     # fast blink off
    eq(tuple(an.rgb[3:6]), P[3])          # slow blink still on
    an.render(600)
    eq(tuple(an.rgb[3:6]), (0, 0, 0))
    eq(tuple(an.rgb[0:3]), P[1])
    an.render(1000)
    eq(an.rgb[11], P[6][2])               # pulse at its peak
    check(an.animated())
    an.clear()
    an.render(0)
    eq(sum(an.rgb), 0)


# ---- the firmware object ---------------------------------------------------

def test_firmware_boot_and_frames():
    out = Out()
    close_positions([0, 9])
    fw = make_fw(out)
    fw.start(0)
    b = out.bodies()
    eq(b[0], b"H 0.1.0 500 10x8")
    eq(mbproto.parse(b[1]), ("F", 0, (1 << 0) | (1 << 9)))
    # the first state again at the next step (at 2 ms), then nothing
    # changes: the heartbeat, an F every 250 ms (252, 502)
    t = 0
    for _ in range(300):
        t += 2
        fw.step(t)
    fs = [mbproto.parse(x) for x in out.bodies(b"F")]
    eq(len(fs), 2 + (600 - 2) // 250)
    eq(fs[1][2], fs[0][2])
    eq([f[1] for f in fs], list(range(len(fs))))
    # a change is sent once debounced
    close_positions([0, 9, 79])
    sent = len(fs)
    for _ in range(30):
        t += 2
        fw.step(t)
    fs = [mbproto.parse(x) for x in out.bodies(b"F")]
    eq(fs[sent][2], (1 << 0) | (1 << 9) | (1 << 79))
    close_positions([])


def test_firmware_leds_ping_reset():
    out = Out()
    resets = []
    fw = make_fw(out, resets)
    fw.start(0)
    codes = bytearray(80)
    codes[5] = mbproto.led_code(0, 1)
    fw.receive(mbproto.leds(1, codes), 1)
    check(fw.render(2))
    eq(tuple(fw.animator.rgb[15:18]), mbproto.PALETTE[1])
    check(not fw.render(3))
    fw.receive(mbproto.PING, 4)
    eq(out.bodies()[-2], b"A")                       # A, then the state
    check(out.bodies()[-1].startswith(b"F "), out.bodies()[-1])
    fw.receive(mbproto.RESET, 5)
    eq(resets, [1])
    eq((fw.rx_ok, fw.rx_crc, fw.rx_malformed), (3, 0, 0))


def test_change_sent_twice():
    """Every debounced change goes out in two F lines in a row: the Pi acts
    on a state only when repeated, so one corrupted line never acts."""
    close_positions([])
    out = Out()
    fw = make_fw(out)
    fw.start(0)
    fw.step(2)
    n = len(out.bodies(b"F"))
    close_positions([77])                            # BACK pressed
    t = 2
    for _ in range(40):
        t += 2
        fw.step(t)
    fs = [mbproto.parse(b) for b in out.bodies(b"F")][n:]
    eq(len(fs), 2)
    eq(fs[0][2], 1 << 77)
    eq(fs[1], ("F", fs[0][1] + 1, 1 << 77))
    close_positions([])


def test_firmware_survives_garbage():
    out = Out()
    fw = make_fw(out, report_ms=1000)
    fw.start(0)
    junk = bytes(range(256)) * 4
    fw.receive(junk, 1)                              # binary, overlong
    fw.receive(b"\x00\x03\x04garbage\n", 2)          # malformed
    line = bytearray(mbproto.leds(3, bytes(80)))
    line[10] = ord("1") if line[10] != ord("1") else ord("2")
    fw.receive(bytes(line), 3)                       # bad CRC
    fw.receive(mbproto.leds(4, bytes(80))[:50], 4)   # truncated ...
    fw.receive(b"\n", 5)                             # ... then ended
    fw.receive(mbproto.seal("F 1 " + "0" * 20), 6)   # valid line, wrong direction
    fw.receive(b"L 1 00*00\n", 7)
    check(fw.rx_crc >= 1, "crc %d" % fw.rx_crc)
    check(fw.rx_malformed >= 3, "malformed %d" % fw.rx_malformed)
    eq(fw.rx_ok, 0)
    fw.receive(mbproto.PING, 8)                      # still answers
    eq(out.bodies()[-2], b"A")
    t = 8
    for _ in range(600):
        t += 2
        fw.step(t)
    errs = out.bodies(b"E")
    check(len(errs) == 1, "errors: %r" % errs)
    check(errs[0].startswith(b"E 2 rx-dropped crc="), errs[0])


def test_firmware_host_timeout_blanks_leds():
    out = Out()
    fw = make_fw(out, host_timeout_ms=1000)
    fw.start(0)
    codes = bytearray(80)
    codes[0] = mbproto.led_code(0, 3)
    fw.receive(mbproto.leds(0, codes), 0)
    fw.step(500)
    eq(fw.animator.codes[0], codes[0])
    fw.step(1001)
    eq(fw.animator.codes[0], 0)


def test_main_run_with_fake_hardware():
    import main
    cfg, err = main.load_config("config.json")
    eq(err, None)
    eq(cfg["rows"], ROW_PINS)
    eq(cfg["cols"], COL_PINS)
    cfg2, err2 = main.load_config("no-such-file.json")
    eq(err2, "missing")

    class IO:
        def __init__(self, chunks):
            self.chunks = chunks
            self.out = Out()

        def read(self, limit):
            return self.chunks.pop(0) if self.chunks else b""

        def write(self, b):
            self.out.write(b)

    codes = bytearray(80)
    codes[7] = mbproto.led_code(0, 6)
    io = IO([b"", mbproto.leds(0, codes), b"\xff\xfe junk \x03\n", mbproto.PING])
    close_positions([7, 70])
    machine.set_reset_cause(machine.WDT_RESET)
    wdt = machine.WDT(timeout=2000)
    fw = main.run(io, cfg, "missing", wdt, iterations=40)
    machine.set_reset_cause(machine.PWRON_RESET)
    bodies = io.out.bodies()
    eq(bodies[0][:8], b"H 0.2.0 ")
    check(b"E 1 watchdog-reset" in bodies, bodies)
    check(b"E 4 config missing" in bodies, bodies)
    f = mbproto.parse(io.out.bodies(b"F")[0])
    eq(f[2], (1 << 7) | (1 << 70))
    check(b"A" in bodies)
    eq(fw.rx_ok, 2)
    eq(fw.rx_malformed, 1)
    eq(machine.feeds[-1], 40)
    chain = neopixel.writes[-1]
    eq(chain.written[7], mbproto.PALETTE[6])
    eq(chain.written[8], (0, 0, 0))
    # maintenance: MENU (position 78) held at power-up
    check(not main.maintenance_requested(main.build_scanner(cfg), 78))
    close_positions([78])
    check(main.maintenance_requested(main.build_scanner(cfg), 78))
    close_positions([])


def test_memory_per_scan_is_small():
    import gc
    out = Out()
    fw = make_fw(out)
    fw.start(0)
    gc.collect()
    before = gc.mem_alloc()
    t = 0
    flips = 0
    for i in range(100):
        t += 2
        if i % 20 == 0:                 # a piece comes and goes: debounce work
            close_positions([] if i % 40 else [5, 44])
        fw.scanner.scan(fw.raw)
        if fw.debouncer.update(fw.raw, t):
            flips += 1
    used = gc.mem_alloc() - before
    close_positions([])
    check(flips >= 4, "flips %d" % flips)
    print("INFO heap bytes allocated by 100 scan+debounce with changes: %d" % used)
    check(used < 4096, "scan loop allocates %d bytes per 100 scans" % used)


def test_crc16_allocates_nothing():
    """The table CRC uses small ints only: no heap per line on the Pico."""
    import gc
    import time
    body = mbproto.frame(65535, (1 << 80) - 1)[:-6]
    eq(mbproto.crc16(body), mbproto.crc16_table(body))
    mbproto.crc16(body)
    gc.collect()
    before = gc.mem_alloc()
    t0 = time.ticks_us()
    for _ in range(100):
        mbproto.crc16(body)
    dt = time.ticks_diff(time.ticks_us(), t0)
    used = gc.mem_alloc() - before
    print("INFO crc16 of an F line: %d us (MicroPython WebAssembly, this host), heap %d bytes per 100"
          % (dt // 100, used))
    check(used < 256, "crc16 allocates %d bytes per 100 lines" % used)


# ---- the 10x10 board: 11 rows x 10 columns = 110 switches -------------------

ROWS10 = list(range(11))            # GP0-GP10 (firmware/config-10x10.json)
COLS10 = list(range(11, 21))        # GP11-GP20


def close10(positions):
    machine.closed.clear()
    for p in positions:
        machine.closed.add((ROWS10[p // 10], COLS10[p % 10]))


def positions10(rows):
    out = []
    for r in range(len(rows)):
        for c in range(10):
            if rows[r] >> c & 1:
                out.append(r * 10 + c)
    return out


def cfg10():
    import main
    cfg, err = main.load_config("config-10x10.json")
    eq(err, None)
    return cfg


def make_fw10(out):
    import main
    from mbdebounce import Debouncer
    cfg = cfg10()
    sc = main.build_scanner(cfg)
    return Firmware(sc, Debouncer(11, 10, 30, 3), Animator(110), out.write, None, "0.2.0", 500)


def test_10x10_config_and_scan():
    import main
    from mbdebounce import row_buffer
    cfg = cfg10()
    eq(cfg["rows"], ROWS10)
    eq(cfg["cols"], COLS10)
    eq(cfg["led_count"], 110)
    eq(cfg["maintenance_position"], 102)          # MENU = R10C2
    sc = main.build_scanner(cfg)
    check(sc.read_port is not None, "GP11-GP20 are consecutive: one register read per row")
    eq((sc.nrows, sc.ncols), (11, 10))
    raw = row_buffer(11, 10)
    for positions in ([], [9], [99, 100], [0, 9, 10, 19, 55, 90, 99, 100, 101, 102, 103, 109],
                      list(range(110))):
        close10(positions)
        machine.reset_counts()
        sc.scan(raw)
        eq(positions10(raw), sorted(positions))
        eq(machine.ops, {"write": 22, "read": 0, "mem32": 11})
    per_pin = Scanner(sc.rows, sc.cols)
    close10([9, 50, 109])
    per_pin.scan(raw)
    eq(positions10(raw), [9, 50, 109])
    close10([])


def test_10x10_bad_configs_fall_back():
    import main
    cfg = cfg10()
    bad = dict(cfg)
    bad["maintenance_position"] = 110
    eq(main.check_config(bad), "maintenance_position beyond the matrix")
    bad = dict(cfg)
    bad["led_count"] = 111
    eq(main.check_config(bad), "led_count must be 1-110")
    bad = dict(cfg)
    bad["cols"] = COLS10[:9] + [10]                   # GP10 is a row pin too
    eq(main.check_config(bad), "pin 10 used twice")


def test_10x10_debounce_tenth_column():
    from mbdebounce import Debouncer, row_buffer
    db = Debouncer(11, 10, 30, 3)
    raw = row_buffer(11, 10)
    db.update(raw, 0)
    raw[10] = 0x200                                   # R10C9: the 110th switch
    check(not db.update(raw, 10))
    check(not db.update(raw, 20))
    check(db.update(raw, 40))
    eq(db.stable[10], 0x200)


def test_10x10_firmware_frames_and_leds():
    out = Out()
    close10([0, 9, 101, 109])                       # a1, j1, BACK, spare R10C9
    fw = make_fw10(out)
    fw.start(0)
    b = out.bodies()
    eq(b[0], b"H 0.2.0 500 11x10")
    eq(len(b[1]), len("F 0 ") + 28)                 # 110 bits: 14 bytes, 28 hex digits
    eq(mbproto.parse(b[1], 110), ("F", 0, (1 << 0) | (1 << 9) | (1 << 101) | (1 << 109)))
    eq(mbproto.parse(b[1]), None)                   # not an 80-switch frame
    close10([0, 9, 99])
    t = 0
    for _ in range(30):
        t += 2
        fw.step(t)
    fs = [mbproto.parse(x, 110) for x in out.bodies(b"F")]
    eq(fs[-1][2], (1 << 0) | (1 << 9) | (1 << 99))
    codes = bytearray(110)
    codes[109] = mbproto.led_code(2, 1)
    codes[0] = mbproto.led_code(0, 6)
    line = mbproto.leds(1, codes)
    check(len(line) - 1 <= mbproto.MAX_LINE, "L line of 110 LEDs is %d bytes" % len(line))
    fw.receive(line, t)
    eq(fw.animator.codes[109], 0x21)
    fw.receive(mbproto.leds(2, bytearray(80)), t)    # an 80-LED frame is not for this board
    eq(fw.rx_malformed, 1)
    eq(fw.animator.codes[109], 0x21)
    check(fw.render(t))
    eq(tuple(fw.animator.rgb[0:3]), mbproto.PALETTE[6])
    close10([])


def test_10x10_main_run_with_fake_hardware():
    import main
    cfg = cfg10()

    class IO:
        def __init__(self, chunks):
            self.chunks = chunks
            self.out = Out()

        def read(self, limit):
            return self.chunks.pop(0) if self.chunks else b""

        def write(self, b):
            self.out.write(b)

    codes = bytearray(110)
    codes[99] = mbproto.led_code(0, 8)                # j10 green
    io = IO([b"", mbproto.leds(0, codes), mbproto.PING])
    close10([11, 88, 103])                            # b2, i9, NEW
    fw = main.run(io, cfg, None, None, iterations=30)
    bodies = io.out.bodies()
    eq(bodies[0].split(b" ")[3], b"11x10")
    f = mbproto.parse(io.out.bodies(b"F")[0], 110)
    eq(f[2], (1 << 11) | (1 << 88) | (1 << 103))
    eq(fw.rx_ok, 2)
    chain = neopixel.writes[-1]
    eq(len(chain.written), 110)
    eq(chain.written[99], mbproto.PALETTE[8])
    check(not main.maintenance_requested(main.build_scanner(cfg), 102))
    close10([102])
    check(main.maintenance_requested(main.build_scanner(cfg), 102))
    close10([])


def test_10x10_memory_per_scan_is_small():
    import gc
    out = Out()
    fw = make_fw10(out)
    fw.start(0)
    gc.collect()
    before = gc.mem_alloc()
    t = 0
    flips = 0
    for i in range(100):
        t += 2
        if i % 20 == 0:
            close10([] if i % 40 else [9, 55, 109])
        fw.scanner.scan(fw.raw)
        if fw.debouncer.update(fw.raw, t):
            flips += 1
    used = gc.mem_alloc() - before
    close10([])
    check(flips >= 4, "flips %d" % flips)
    print("INFO 10x10: heap bytes allocated by 100 scan+debounce with changes: %d" % used)
    check(used < 4096, "scan loop allocates %d bytes per 100 scans" % used)


def main_():
    names = sorted(k for k in globals() if k.startswith("test_"))
    passed = failed = 0
    for name in names:
        try:
            globals()[name]()
            print("PASS " + name)
            passed += 1
        except Exception as e:
            print("FAIL %s: %s %s" % (name, type(e).__name__, e))
            sys.print_exception(e)
            failed += 1
    print("IMPL %s %s" % (sys.implementation.name, sys.platform))
    print("MP-RESULT passed=%d failed=%d" % (passed, failed))


main_()
