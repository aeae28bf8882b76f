"""Matrix scanner speed on gpiozero's MockFactory, and what it means on a Pi.

    python bench/scan.py [--scans N] [--pi-slowdown F] [--driver-us U] [--settle-us S]

Prints the pin operations of one full scan (counted by the simulated
matrix), scans per second here, gpiozero's own cost per pin operation on a
bare MockPin, and an estimate for a Raspberry Pi 4:

    per scan = ops × (gpiozero cost here × F + U) + 10 rows × S

F is how much slower CPython runs on a Pi 4 than on this machine (default
10, pessimistic for a 1.5 GHz Cortex-A72 against a desktop x86), U the
driver's own cost per call (default 5 µs: lgpio does one ioctl on
/dev/gpiochip per read or write; RPi.GPIO's register access is cheaper) and
S the row settle wait (config ``row_settle_us``, default 10 µs). The rest
of a main-loop pass (controller, LED and OLED drivers) is measured here on
luma's no-op/dummy devices and scaled by F too. Target (issue 4): at least
100 scans per second, i.e. a whole pass within the 10 ms loop period.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from gpiozero import Device, InputDevice, OutputDevice  # noqa: E402
from gpiozero.pins.mock import MockFactory  # noqa: E402

from maxima_board.cli.config import DEFAULT_COLUMNS, DEFAULT_ROWS  # noqa: E402
from maxima_board.devices.mock_matrix import ReedMatrix, matrix_factory  # noqa: E402
from maxima_board.devices.scanner import MatrixScanner  # noqa: E402

START_LIKE = [f"{f}{r}" for f in "abcdefgh" for r in (1, 2, 8, 9)] + ["d0", "e0", "d10", "e10"]


def _best_of(runs: int, func) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        func()
        best = min(best, time.perf_counter() - start)
    return best


def scanner_figures(scans: int) -> tuple[int, int, float]:
    """(row writes, column reads) per scan and seconds per scan, simulated matrix."""
    matrix = ReedMatrix(DEFAULT_ROWS, DEFAULT_COLUMNS)
    matrix.set_squares(START_LIKE)
    Device.pin_factory = matrix_factory(matrix)
    scanner = MatrixScanner(DEFAULT_ROWS, DEFAULT_COLUMNS, row_settle_us=0)
    matrix.reset_counts()
    scanner.scan()
    writes, reads = matrix.writes, matrix.reads

    def many():
        for _ in range(scans):
            scanner.scan()
    per_scan = _best_of(7, many) / scans
    scanner.close()
    Device.pin_factory.close()
    Device.pin_factory = None
    return writes, reads, per_scan


def gpiozero_op_cost(n: int) -> float:
    """Seconds per gpiozero pin operation on a bare MockPin (no matrix model):
    the Python work that stays the same with a real pin factory."""
    Device.pin_factory = MockFactory()
    row = OutputDevice(4, active_high=False, initial_value=False)
    column = InputDevice(17, pull_up=True)

    def ops():
        for _ in range(n):
            row.on()
            column.value
            row.off()
            column.value
    cost = _best_of(7, ops) / (4 * n)
    row.close()
    column.close()
    Device.pin_factory.close()
    Device.pin_factory = None
    return cost


def loop_pass_cost(passes: int) -> float:
    """Seconds per pass of the whole main loop (scan, controller, LEDs on a
    no-op MAX7219, OLED on luma's dummy) with the start position standing."""
    import io

    from luma.core.device import dummy
    from luma.core.interface.serial import noop
    from luma.led_matrix.device import max7219

    from maxima_board.board.core import Controller
    from maxima_board.service.runner import FakeClock, Runner
    from maxima_board.board.settings import Settings
    from maxima_board.storage.store import GameStore
    from maxima_board.rules import START_FEN
    from maxima_board.devices.max7219 import Max7219Leds
    from maxima_board.devices.notify import Notifier
    from maxima_board.devices.oled import OledDisplay

    matrix = ReedMatrix(DEFAULT_ROWS, DEFAULT_COLUMNS)
    Device.pin_factory = matrix_factory(matrix)
    scanner = MatrixScanner(DEFAULT_ROWS, DEFAULT_COLUMNS, row_settle_us=0)
    controller = Controller(Settings(), GameStore(":memory:"), fen=START_FEN)
    matrix.set_squares(controller.expected_squares)
    runner = Runner(controller, scanner, Max7219Leds(max7219(noop(), cascaded=2)),
                    OledDisplay(dummy(width=128, height=64, mode="1")), clock=FakeClock(),
                    notifier=Notifier(None), log=io.StringIO())
    for t in range(0, 100, 10):
        runner.step(t)
    clock = {"t": 100}

    def chunk():
        for _ in range(passes):
            runner.step(clock["t"])
            clock["t"] += 10
    cost = _best_of(7, chunk) / passes
    scanner.close()
    Device.pin_factory.close()
    Device.pin_factory = None
    return cost


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scans", type=int, default=2000)
    parser.add_argument("--pi-slowdown", type=float, default=10.0)
    parser.add_argument("--driver-us", type=float, default=5.0)
    parser.add_argument("--settle-us", type=float, default=10.0)
    args = parser.parse_args()

    writes, reads, per_scan = scanner_figures(args.scans)
    ops = writes + reads
    op = gpiozero_op_cost(args.scans * 10)
    print(f"pin operations per full scan: {ops} ({writes} row writes + {reads} column reads)")
    print(f"MockFactory + simulated matrix: {per_scan * 1e6:8.1f} µs per scan = {1 / per_scan:9,.0f} scans/s")
    print(f"gpiozero cost per pin op (bare MockPin): {op * 1e6:6.2f} µs")
    loop = loop_pass_cost(min(args.scans, 200))
    print(f"whole loop pass here (scan + controller + LEDs + OLED): {loop * 1e6:8.1f} µs "
          f"({loop * 1e6 / 100:.0f} % of the 10 ms period at 100 passes/s)")
    pi_scan_us = ops * (op * 1e6 * args.pi_slowdown + args.driver_us) + 10 * args.settle_us
    print(f"Pi 4 estimate: {ops} ops × ({op * 1e6:.2f} µs × {args.pi_slowdown:g} + {args.driver_us:g} µs) "
          f"+ 10 × {args.settle_us:g} µs settle = {pi_scan_us:7.0f} µs per scan "
          f"= {1e6 / pi_scan_us:5.0f} scans/s max")
    rest_us = max(0.0, (loop - per_scan) * 1e6) * args.pi_slowdown
    pass_us = pi_scan_us + rest_us
    print(f"Pi 4 estimate of a whole pass: scan {pi_scan_us:.0f} µs + the rest "
          f"({(loop - per_scan) * 1e6:.0f} µs × {args.pi_slowdown:g}) = {pass_us:.0f} µs")
    ok = pass_us <= 10_000
    print(f"100 passes/s need {pass_us / 100:.0f} % of one core: {'ok' if ok else 'TOO SLOW'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
