"""Pico firmware entry point: wires machine / neopixel / USB to the pure
logic (mbscan, mbdebounce, mbleds, mbfirmware, mbproto) and runs the loop.

Pins and timings come from config.json (same folder on the Pico); when it is
missing or invalid the board.md defaults below are used and ``E 4`` is sent.
Holding the MENU button (matrix position 78) at power-up starts maintenance
mode: no loop, no watchdog, Ctrl-C works, so mpremote can update the files.
"""

import json
import sys
import time

import machine
import micropython
import neopixel
import select

from mbdebounce import Debouncer
from mbfirmware import E_EXCEPTION, Firmware
from mbleds import Animator
from mbscan import Scanner

FW_VERSION = "0.1.0"
SIO_GPIO_IN = 0xD0000004        # RP2040 SIO: GPIO_IN, one bit per GPIO
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


def load_config(path="config.json"):
    """(config dict, error text or None)."""
    cfg = dict(DEFAULTS)
    try:
        with open(path) as f:
            user = json.load(f)
        for key in user:
            if key in cfg:
                cfg[key] = user[key]
        if len(cfg["rows"]) != 10 or len(cfg["cols"]) != 8:
            return dict(DEFAULTS), "needs 10 rows and 8 cols"
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
    mem32 = machine.mem32
    us = cfg["settle_us"]
    sleep_us = time.sleep_us

    def read_port():
        return (mem32[SIO_GPIO_IN] >> shift) & 0xFF

    def settle():
        sleep_us(us)

    return Scanner(rows, cols, read_port if consecutive(cfg["cols"]) else None,
                   settle if us else None)


def measure_scan_hz(scanner, n=20):
    raw = bytearray(scanner.nrows)
    t0 = time.ticks_us()
    for _ in range(n):
        scanner.scan(raw)
    dt = time.ticks_diff(time.ticks_us(), t0)
    return (n * 1000000) // dt if dt > 0 else 0


class LedChain:
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
    raw = bytearray(scanner.nrows)
    scanner.scan(raw)
    if position is None or position < 0:
        return False
    return bool(raw[position // 8] >> (position % 8) & 1)


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
        Animator(cfg["led_count"]),
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
