"""Serial link and Pico scan figures.

    python bench/serial.py [--seconds N] [--scan-only]

1. Pi-side parsing: F lines through the real PicoLink over a pty (pyserial,
   line splitting, CRC-16, parse, confirmation, MatrixMap decode). Target
   >= 1,000 frames/s. Also the CRC-16 alone per F line: binascii.crc_hqx
   (what CPython uses) and the table loop (the Pico's code, here on CPython).
2. Pi-side CPU at the real rates (4 and 50 frames/s) with the runner's
   10 ms loop calling read() and show() every pass: process CPU time over
   wall time, in % of one core. The frames come from a separate process so
   only the Pi side is measured. Target < 10 %.
3. Pico full-matrix scan, for the Maxima board (10 × 8) and the 10×10 board
   (11 × 10 = 110 switches): pin operations per scan counted on the firmware's
   own Scanner, and the scan time estimated from a documented per-operation
   cost for MicroPython on the RP2040 at 125 MHz. Target >= 200 scans/s.
   When Node and the npm MicroPython package are installed, the same scan +
   debounce code is also timed under MicroPython (WebAssembly) on this host,
   as a sanity check of the operation count (not of the Pico's speed).
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
import time
import tty
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# This file is called serial.py: keep its folder off sys.path so that
# `import serial` finds pyserial, not this script.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "src"))

import serial  # noqa: E402

from maxima_board.devices import mbproto  # noqa: E402
from maxima_board.devices.matrix_map import MatrixMap  # noqa: E402
from maxima_board.devices.pico_sim import SimMatrix, load_firmware  # noqa: E402
from maxima_board.devices.serial_link import PicoLink  # noqa: E402

# --- per-operation costs assumed for MicroPython (bytecode) on RP2040 @ 125 MHz.
# A bound-method call into C such as pin.value(x) costs a few microseconds on
# a Cortex-M0+ running the bytecode VM; these are deliberately pessimistic.
COST_US = {
    "pin_write": 5.0,      # row.value(0) / row.value(1)
    "pin_read": 5.0,       # col.value()
    "bit_op": 3.0,         # `if not v: bits |= 1 << c; c += 1` per column
    "mem32_read": 4.0,     # machine.mem32[SIO_GPIO_IN] >> shift & 0xFF
    "row_overhead": 10.0,  # loop step, out[r] = bits, r += 1, settle call
    "settle": 12.0,        # time.sleep_us(10) incl. call
    "debounce_row": 4.0,   # d = raw ^ stable; p = pending; both 0 -> continue
}


def pty_pair() -> tuple[int, str]:
    master, slave = os.openpty()
    tty.setraw(slave)
    os.set_blocking(master, False)
    return master, os.ttyname(slave)


def bench_parse(n: int = 20000) -> float:
    master, path = pty_pair()
    link = PicoLink(lambda: serial.Serial(path, 115200, timeout=0, write_timeout=0), MatrixMap())
    link.read(0)
    # every state twice in a row, as the firmware sends a change (the link decodes it on the repeat)
    lines = [mbproto.frame(i % 65536, (0xFFFF << 64) | ((i // 2) * 2654435761 % (1 << 64))) for i in range(n)]
    data = b"".join(lines)
    t0 = time.perf_counter()
    sent = 0
    now = 0
    while link.stats["frames"] < n:     # (nobody answers the keep-up ping: the run stays < 1 s of link time)
        if sent < len(data):
            try:
                sent += os.write(master, data[sent:sent + 4096])
            except BlockingIOError:
                pass
        now += 1
        link.read(now)
        if time.perf_counter() - t0 > 30:
            break
    dt = time.perf_counter() - t0
    frames = link.stats["frames"]
    assert link.stats["dropped_crc"] == link.stats["dropped_malformed"] == 0
    assert link.stats["link_losses"] == 0
    link.close()
    os.close(master)
    return frames / dt


def bench_crc(n: int = 100000) -> tuple[float, float]:
    """Microseconds per F line body: mbproto.crc16 (binascii.crc_hqx on
    CPython) and mbproto.crc16_table (the Pico's table loop)."""
    body = mbproto.frame(12345, (1 << 80) - 12345)[:-6]
    out = []
    for fn in (mbproto.crc16, mbproto.crc16_table):
        t0 = time.perf_counter()
        for _ in range(n):
            fn(body)
        out.append((time.perf_counter() - t0) / n * 1e6)
    return out[0], out[1]


WRITER = textwrap.dedent("""
    import os, sys, time, tty
    sys.path.insert(0, sys.argv[3])
    from maxima_board.devices import mbproto
    rate, seconds = float(sys.argv[1]), float(sys.argv[2])
    master, slave = os.openpty()
    tty.setraw(slave)
    print(os.ttyname(slave), flush=True)
    sys.stdin.readline()                    # the Pi side has opened the port
    t0 = time.monotonic()
    i = 0
    os.set_blocking(master, False)
    while time.monotonic() - t0 < seconds:
        try:                                # answer the Pi's keep-up pings, as the firmware does
            if mbproto.PING in os.read(master, 4096):
                os.write(master, mbproto.ACK)
        except BlockingIOError:
            pass
        os.write(master, mbproto.frame(i % 65536, (1 << (i % 80)) | 0xFFFF))
        i += 1
        time.sleep(max(0.0, t0 + i / rate - time.monotonic()))
    time.sleep(0.2)
""")


def bench_cpu(rate: float, seconds: float) -> tuple[float, int]:
    proc = subprocess.Popen([sys.executable, "-c", WRITER, str(rate), str(seconds), str(ROOT)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    path = proc.stdout.readline().strip()
    link = PicoLink(lambda: serial.Serial(path, 115200, timeout=0, write_timeout=0), MatrixMap())
    clock = lambda: time.monotonic_ns() // 1_000_000  # noqa: E731
    link.read(clock())
    proc.stdin.write("go\n")
    proc.stdin.flush()
    leds = {"a1": "remove", "c3": "check", "e10": "immobilized"}
    cpu0, wall0 = time.process_time(), time.monotonic()
    next_pass = time.monotonic()
    while time.monotonic() - wall0 < seconds:
        now = clock()
        link.read(now)
        link.show(leds, now)
        next_pass += 0.010
        time.sleep(max(0.0, next_pass - time.monotonic()))
    cpu = time.process_time() - cpu0
    wall = time.monotonic() - wall0
    frames = link.stats["frames"]
    assert link.stats["link_losses"] == 0, link.stats
    link.close()
    proc.wait(timeout=10)
    return 100.0 * cpu / wall, frames


def scan_estimate(rows: int = 10, cols: int = 8) -> list[tuple[str, dict, float]]:
    """Pin operations and estimated µs of one scan of a rows × cols matrix
    (10 × 8: the Maxima board; 11 × 10: the 10×10 board)."""
    fw = load_firmware()
    out = []
    for name, port in (("per-pin reads", False), ("GPIO_IN port reads", True)):
        m = SimMatrix(rows, cols)
        port_reads = [0]

        def read_port():
            port_reads[0] += 1
            return m.read_port()

        sc = fw["mbscan"].Scanner(m.rows, m.cols, read_port if port else None, settle=lambda: None)
        m.ops = {"write": 0, "read": 0}
        sc.scan([0] * rows)
        ops = {"row writes": m.ops["write"], "column reads": 0 if port else m.ops["read"],
               "port reads": port_reads[0]}
        us = (ops["row writes"] * COST_US["pin_write"]
              + ops["column reads"] * (COST_US["pin_read"] + COST_US["bit_op"])
              + ops["port reads"] * COST_US["mem32_read"]
              + rows * (COST_US["row_overhead"] + COST_US["settle"] + COST_US["debounce_row"]))
        out.append((name, ops, us))
    return out


MP_BENCH = textwrap.dedent("""
    import time, machine
    from mbscan import Scanner
    from mbdebounce import Debouncer, row_buffer
    class FastPin:
        def __init__(self): self.v = 1
        def value(self, v=None):
            if v is None: return 1
            self.v = v
    cases = []
    for board, nr, nc, c0 in (("10x8", 10, 8, 10), ("11x10", 11, 10, 11)):
        rows = [machine.Pin(n, machine.Pin.OUT, value=1) for n in range(nr)]
        cols = [machine.Pin(n, machine.Pin.IN, machine.Pin.PULL_UP) for n in range(c0, c0 + nc)]
        cases.append((board + " fake machine.Pin", rows, cols))
        cases.append((board + " trivial pins", [FastPin() for _ in range(nr)], [FastPin() for _ in range(nc)]))
    for label, r, c in cases:
        sc = Scanner(r, c)
        db = Debouncer(len(r), len(c), 30, 3)
        raw = row_buffer(len(r), len(c))
        n = 300
        t0 = time.ticks_us()
        for i in range(n):
            sc.scan(raw)
            db.update(raw, i)
        dt = time.ticks_diff(time.ticks_us(), t0)
        print("MPBENCH %s %d" % (label, n * 1000000 // dt))
    print("MP-RESULT passed=1 failed=0")
""")


def micropython_host_scans() -> list[str]:
    node = shutil.which("node")
    runner = ROOT / "tests" / "micropython" / "run.mjs"
    if node is None or not (ROOT / "tests/micropython/node_modules/@micropython").exists():
        return ["(node or the npm MicroPython package missing: skipped)"]
    script = ROOT / "bench" / ".mp_scan_bench.py"
    script.write_text(MP_BENCH)
    try:
        proc = subprocess.run([node, str(runner), str(script)], capture_output=True, text=True,
                              timeout=120, cwd=runner.parent)
    finally:
        script.unlink(missing_ok=True)
    return [line[8:] for line in proc.stdout.splitlines() if line.startswith("MPBENCH ")] or [proc.stdout[-300:]]


def main() -> int:
    seconds = 5.0        # --scan-only: only the Pico scan figures (no pty, no CPU runs)
    if "--seconds" in sys.argv:
        seconds = float(sys.argv[sys.argv.index("--seconds") + 1])
    ok = True
    scan_only = "--scan-only" in sys.argv

    fps = 1000.0 if scan_only else bench_parse()
    if not scan_only:
        print(f"Pi parse throughput (pty + PicoLink): {fps:,.0f} frames/s  (target >= 1,000)")
        ok &= fps >= 1000
        fast, table = bench_crc()
        print(f"CRC-16 of one F line on the Pi: {fast:.2f} us (binascii.crc_hqx), {table:.2f} us (table loop,"
              f" the Pico's code run by CPython)")

    for rate in (() if scan_only else (4, 50)):
        pct, frames = bench_cpu(rate, seconds)
        print(f"Pi CPU at {rate} frames/s, 10 ms loop with read()+show(): {pct:.2f} % of a core "
              f"({frames} frames in {seconds:.0f} s; target < 10 %)")
        ok &= pct < 10

    print("Pico full-matrix scan (firmware/mbscan.py), cost model in COST_US:")
    for board, rows, cols in (("Maxima board 10x8 = 80", 10, 8), ("10x10 board 11x10 = 110", 11, 10)):
        for name, ops, us in scan_estimate(rows, cols):
            print(f"  {board} switches, {name}: {ops['row writes']} row writes + {ops['column reads']}"
                  f" column reads + {ops['port reads']} GPIO_IN reads per scan -> ~{us:.0f} us"
                  f" incl. settle + debounce = ~{1e6 / us:,.0f} scans/s (target >= 200)")
            ok &= 1e6 / us >= 200
    print("  the firmware paces the loop at scan_period_ms = 2 (<= 500 scans/s) and leaves the rest"
          " to USB input and LED updates")
    for line in micropython_host_scans():
        print(f"  MicroPython (WebAssembly, this host) scan+debounce: {line} scans/s")
    print("OK" if ok else "TARGET MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
