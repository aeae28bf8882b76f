"""Pico firmware entry point: wires machine / neopixel / USB to the pure
logic (mbscan, mbdebounce, mbleds, mbfirmware, mbproto) and runs the loop.

Pins and timings come from config.json (same folder on the Pico); when it is
missing or invalid the board.md defaults below are used and ``E 4`` is sent.
The number of row and column pins is the matrix size (10 x 8 on the Maxima
board, 11 x 10 on the 10x10 board: firmware/config-10x10.json), announced in
the ``H`` line. Holding the MENU button (``maintenance_position``: 78 on the
Maxima board, 102 on the 10x10 board) at power-up starts maintenance mode: no
loop, no watchdog, Ctrl-C works, so mpremote can update the files.
"""

import json
import sys
import time

import machine
import micropython
import neopixel
import select

from mbdebounce import Debouncer, row_buffer
from mbfirmware import E_EXCEPTION, Firmware
from mbleds import Animator
from mbscan import Scanner

FW_VERSION = "0.2.0"          # 0.2.0: H announces the matrix size (rows x cols)
SIO_GPIO_IN = 0xD0000004        # SIO GPIO_IN, one bit per GPIO (RP2040 and RP2350 alike)
MAX_READ = 256                  # bytes taken from USB per loop iteration
MAX_FAILURES = 50               # consecutive failing iterations before the watchdog may bite

# Fallback only; the configuration lives in config.json (board.md defaults).
DEFAULTS = {
    "rows": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    "cols": [10, 11, 12, 13, 14, 15, 16, 17],
    "led_pin": 22,
    "led_count": 80,
    "scan_period_ms": 2,
    "settle_us": 10,
    "debounce_ms": 30,
    "debounce_min_scans": 3,
    "heartbeat_ms": 250,
    "led_period_ms": 20,
    "host_timeout_ms": 10000,
    "watchdog_ms": 2000,
    "maintenance_position": 78,
}


MAX_ROWS = 16
MAX_COLS = 16                   # column levels are read as one register value


def check_config(cfg):
    """None when the pins fit a matrix, else the problem in a few words."""
    nrows, ncols = len(cfg["rows"]), len(cfg["cols"])
    if not 1 <= nrows <= MAX_ROWS or not 1 <= ncols <= MAX_COLS:
        return "needs 1-16 rows and 1-16 cols"
    pins = cfg["rows"] + cfg["cols"] + [cfg["led_pin"]]
    for i in range(len(pins)):
        if pins[i] in pins[i + 1:]:
            return "pin %d used twice" % pins[i]
    if not 0 < cfg["led_count"] <= nrows * ncols:
        return "led_count must be 1-%d" % (nrows * ncols)
    if cfg["maintenance_position"] >= nrows * ncols:
        return "maintenance_position beyond the matrix"
    return None


def load_config(path="config.json"):
    """(config dict, error text or None)."""
    cfg = dict(DEFAULTS)
    try:
        with open(path) as f:
            user = json.load(f)
        for key in user:
            if key in cfg:
                cfg[key] = user[key]
        problem = check_config(cfg)
        if problem:
            return dict(DEFAULTS), problem
        return cfg, None
    except OSError:
        return cfg, "missing"
    except (ValueError, TypeError, KeyError):
        return dict(DEFAULTS), "invalid"


class UsbLink:
    """Non-blocking byte I/O over the USB CDC console (sys.stdin/stdout)."""

    def __init__(self):
        self.inp = sys.stdin.buffer
        self.out = sys.stdout.buffer
        self.poller = select.poll()
        self.poller.register(sys.stdin, select.POLLIN)

    def read(self, limit=MAX_READ):
        data = bytearray()
        poll = self.poller.poll
        while len(data) < limit and poll(0):
            b = self.inp.read(1)
            if not b:
                break
            data.extend(b)
        return data

    def write(self, line):
        self.out.write(line)


def consecutive(pins):
    for i in range(1, len(pins)):
        if pins[i] != pins[i - 1] + 1:
            return False
    return True


def build_scanner(cfg):
    Pin = machine.Pin
    rows = [Pin(n, Pin.OUT, value=1) for n in cfg["rows"]]
    cols = [Pin(n, Pin.IN, Pin.PULL_UP) for n in cfg["cols"]]
    shift = cfg["cols"][0]
    mask = (1 << len(cfg["cols"])) - 1
    mem32 = machine.mem32
    us = cfg["settle_us"]
    sleep_us = time.sleep_us

    def read_port():
        return (mem32[SIO_GPIO_IN] >> shift) & mask

    def settle():
        sleep_us(us)

    return Scanner(rows, cols, read_port if consecutive(cfg["cols"]) else None,
                   settle if us else None)


def measure_scan_hz(scanner, n=20):
    raw = row_buffer(scanner.nrows, scanner.ncols)
    t0 = time.ticks_us()
    for _ in range(n):
        scanner.scan(raw)
    dt = time.ticks_diff(time.ticks_us(), t0)
    return (n * 1000000) // dt if dt > 0 else 0


class LedChain:
    """The WS2812 chain: LED i shows matrix position i; a chain shorter than
    the matrix (no LEDs under the button row) shows the first ``n``."""

    def __init__(self, pin, n):
        self.np = neopixel.NeoPixel(machine.Pin(pin, machine.Pin.OUT), n)
        self.n = n

    def write(self, rgb):
        np = self.np
        for i in range(self.n):
            j = 3 * i
            np[i] = (rgb[j], rgb[j + 1], rgb[j + 2])
        np.write()


def maintenance_requested(scanner, position):
    raw = row_buffer(scanner.nrows, scanner.ncols)
    scanner.scan(raw)
    if position is None or position < 0:
        return False
    return bool(raw[position // scanner.ncols] >> (position % scanner.ncols) & 1)


def run(io, cfg, config_error=None, wdt=None, iterations=None, clock=None):
    """Build the firmware and loop (forever unless ``iterations``)."""
    ticks_ms = clock or time.ticks_ms
    diff = time.ticks_diff
    scanner = build_scanner(cfg)
    scan_hz = measure_scan_hz(scanner)
    if cfg["scan_period_ms"] > 0:
        scan_hz = min(scan_hz, 1000 // cfg["scan_period_ms"])
    chain = LedChain(cfg["led_pin"], cfg["led_count"])
    fw = Firmware(
        scanner,
        Debouncer(len(cfg["rows"]), len(cfg["cols"]), cfg["debounce_ms"],
                  cfg["debounce_min_scans"], diff),
        Animator(len(cfg["rows"]) * len(cfg["cols"])),
        io.write,
        machine.reset,
        FW_VERSION,
        scan_hz,
        cfg["heartbeat_ms"],
        cfg["host_timeout_ms"],
        diff=diff,
    )
    watchdog_reset = machine.reset_cause() == machine.WDT_RESET
    fw.start(ticks_ms(), watchdog_reset, config_error)
    period = cfg["scan_period_ms"]
    led_period = cfg["led_period_ms"]
    last_led = ticks_ms() - led_period
    failures = 0
    count = 0
    while iterations is None or count < iterations:
        count += 1
        now = ticks_ms()
        try:
            data = io.read(MAX_READ)
            if data:
                fw.receive(data, now)
            fw.step(now)
            if diff(now, last_led) >= led_period:
                last_led = now
                if fw.render(now):
                    chain.write(fw.animator.rgb)
            failures = 0
        except Exception as e:          # keep scanning; report once per streak
            failures += 1
            if failures == 1:
                fw.send_error(E_EXCEPTION, "exception " + type(e).__name__)
        if wdt is not None and failures < MAX_FAILURES:
            wdt.feed()
        if period > 0:
            left = period - diff(ticks_ms(), now)
            if left > 0:
                time.sleep_ms(left)
    return fw


def main():
    cfg, err = load_config()
    if maintenance_requested(build_scanner(cfg), cfg["maintenance_position"]):
        print("maxima-board firmware %s: maintenance mode (MENU held), loop not started" % FW_VERSION)
        return
    micropython.kbd_intr(-1)        # binary junk containing 0x03 must not stop the loop
    wdt = machine.WDT(timeout=cfg["watchdog_ms"])
    run(UsbLink(), cfg, err, wdt)


if __name__ == "__main__":
    main()
