"""A simulated Pico on a pseudo-terminal, running the real firmware logic.

The firmware's pure modules (firmware/mbscan.py, mbdebounce.py, mbleds.py,
mbfirmware.py, with hardware/mbproto.py standing in for the Pico's copy of
mbproto.py) are loaded from the repository checkout and driven by a
simulated switch matrix, so the bytes on the pty are exactly what the Pico
would send. Used by the tests, and by hand:

    python -m maxima_board.devices.pico_sim          # prints the pty path, then
    maxima-board run ...                 # with device = that path

Only available in a source checkout (firmware/ is not installed).
"""
from __future__ import annotations

import errno
import importlib.util
import os
import sys
import threading
import time
import tty
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Iterable

from . import mbproto

FIRMWARE_DIR = Path(__file__).resolve().parents[3] / "firmware"   # src/maxima_board/devices -> the checkout
FIRMWARE_MODULES = ("mbscan", "mbdebounce", "mbleds", "mbfirmware")
#: Bytes the simulated Pico keeps for a host that does not take them fast
#: enough (a real Pico's USB buffer is finite too); beyond it the oldest whole
#: lines are dropped: every F line carries the full state, the newest matters.
OUT_LIMIT = 1024


def load_firmware(firmware_dir: Path = FIRMWARE_DIR) -> dict[str, ModuleType]:
    """Import the firmware's pure modules under CPython, by file path.

    ``mbproto`` resolves to maxima_board.devices.mbproto, the same file the Pico gets."""
    sys.modules.setdefault("mbproto", mbproto)
    mods: dict[str, ModuleType] = {}
    for name in FIRMWARE_MODULES:
        if name in sys.modules and getattr(sys.modules[name], "__file__", None) == str(firmware_dir / f"{name}.py"):
            mods[name] = sys.modules[name]
            continue
        path = firmware_dir / f"{name}.py"
        if not path.exists():
            raise FileNotFoundError(f"firmware module {path} not found (needs a source checkout)")
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec and spec.loader
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        spec.loader.exec_module(mod)
        mods[name] = mod
    return mods


class SimMatrix:
    """Reed switches as a set of closed positions, seen through pins.

    Row pins are outputs; a column pin reads 0 when a closed switch joins it
    to a row pin that is low (the series diodes prevent ghosting, so only the
    driven row matters). Pin operations are counted in ``ops``."""

    def __init__(self, rows: int = 10, cols: int = 8) -> None:
        self.closed: set[int] = set()
        self.nrows, self.ncols = rows, cols
        self.levels = [1] * rows
        self.ops = {"write": 0, "read": 0}
        self.rows = [_RowPin(self, r) for r in range(rows)]
        self.cols = [_ColPin(self, c) for c in range(cols)]
        self.lock = threading.Lock()

    def set(self, positions: Iterable[int]) -> None:
        with self.lock:
            self.closed = set(positions)

    def read_port(self) -> int:
        """All column levels at once, like the RP2040 GPIO_IN register."""
        v = 0
        for c in range(self.ncols):
            v |= self.level(c) << c
        return v

    def level(self, c: int) -> int:
        closed = self.closed
        for r in range(self.nrows):
            if self.levels[r] == 0 and (r * self.ncols + c) in closed:
                return 0
        return 1


class _RowPin:
    def __init__(self, m: SimMatrix, r: int) -> None:
        self.m, self.r = m, r

    def value(self, v: int | None = None) -> int | None:
        self.m.ops["write"] += 1
        self.m.levels[self.r] = 1 if v else 0
        return None


class _ColPin:
    def __init__(self, m: SimMatrix, c: int) -> None:
        self.m, self.c = m, c

    def value(self, v: int | None = None) -> int:
        self.m.ops["read"] += 1
        return self.m.level(self.c)


class SimPico:
    """The firmware on a pty master; the Pi side opens ``self.path``.

    Drive it interleaved with ``step(now_ms)`` (simulated clock), or with a
    real clock in a thread via ``start()``/``stop()``. ``unplug()`` closes the
    pty (the Pi side sees EIO); ``plug()`` makes a new one (a new path).
    ``tx_ms_per_byte`` > 0 makes a slow link: at most one byte per that many
    (simulated) ms leaves towards the Pi; at most ``out_limit`` bytes wait."""

    def __init__(self, matrix: SimMatrix | None = None, version: str = "sim-0.1.0",
                 scan_hz: int = 500, debounce_ms: int = 30, min_scans: int = 3,
                 heartbeat_ms: int = 250, host_timeout_ms: int = 10000,
                 tx_ms_per_byte: int = 0, out_limit: int = OUT_LIMIT) -> None:
        self.fw_mods = load_firmware()
        self.matrix = matrix or SimMatrix()
        self.version = version
        self.scan_hz = scan_hz
        self.debounce_ms = debounce_ms
        self.min_scans = min_scans
        self.heartbeat_ms = heartbeat_ms
        self.host_timeout_ms = host_timeout_ms
        self.tx_ms_per_byte = tx_ms_per_byte
        self.out_limit = out_limit
        self.dropped_bytes = 0           # output dropped because OUT_LIMIT was reached
        self._tx_time: int | None = None   # slow link: simulated time up to which bytes have gone
        self.master: int | None = None
        self.slave: int | None = None
        self.path: str | None = None
        self.out = bytearray()
        self.bytes_out = 0               # bytes written to the pty so far
        self.boots = 0
        self.resets_requested = 0
        self.firmware: Any = None        # mbfirmware.Firmware, loaded at run time
        self._reset_pending = False
        self._started_at: int | None = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self.lock = threading.RLock()
        self.plug()

    # -- the pty ------------------------------------------------------------
    def plug(self) -> str:
        """Make a fresh pty (like the USB device re-enumerating)."""
        with self.lock:
            self.unplug()
            master, slave = os.openpty()
            tty.setraw(slave)
            os.set_blocking(master, False)
            self.master, self.slave = master, slave
            self.path = os.ttyname(slave)
            self.out.clear()
            return self.path

    def unplug(self) -> None:
        with self.lock:
            for fd in (self.master, self.slave):
                if fd is not None:
                    try:
                        os.close(fd)
                    except OSError:
                        pass
            self.master = self.slave = None
            self.path = None

    def release_slave(self) -> None:
        """Close our own copy of the slave side once the Pi has opened it, so
        that the Pi closing its port is seen like a USB host going away."""
        with self.lock:
            if self.slave is not None:
                os.close(self.slave)
                self.slave = None

    # -- the firmware -------------------------------------------------------
    def boot(self, now_ms: int) -> None:
        """(Re)start the firmware: new objects, ``H`` then a first ``F``."""
        m = self.fw_mods
        scanner = m["mbscan"].Scanner(self.matrix.rows, self.matrix.cols, self.matrix.read_port)
        deb = m["mbdebounce"].Debouncer(self.matrix.nrows, self.matrix.ncols,
                                        self.debounce_ms, self.min_scans)
        anim = m["mbleds"].Animator(self.matrix.nrows * self.matrix.ncols)
        self.firmware = m["mbfirmware"].Firmware(
            scanner, deb, anim, self.out.extend, self._on_reset, self.version, self.scan_hz,
            self.heartbeat_ms, self.host_timeout_ms)
        self.boots += 1
        self.firmware.start(now_ms)

    def _on_reset(self) -> None:
        self.resets_requested += 1
        self._reset_pending = True

    def step(self, now_ms: int) -> None:
        """One firmware loop iteration at ``now_ms``: read input, scan,
        debounce, output. Boots on first use and after an ``R``."""
        with self.lock:
            if self.firmware is None or self._reset_pending:
                self._reset_pending = False
                self.boot(now_ms)
            data = self._read_master()
            if data:
                self.firmware.receive(data, now_ms)
            with self.matrix.lock:
                self.firmware.step(now_ms)
            self.firmware.render(now_ms)
            self._flush(now_ms)

    def leds(self) -> bytes:
        """The LED codes the firmware currently shows (one byte per position)."""
        return (bytes(self.firmware.animator.codes) if self.firmware
                else bytes(self.matrix.nrows * self.matrix.ncols))

    def send_raw(self, data: bytes) -> None:
        """Inject bytes into the stream towards the Pi (garbage tests)."""
        with self.lock:
            self.out.extend(data)
            self._flush()

    def wait_input(self, timeout: float) -> bool:
        """Wait (real time) until bytes from the Pi are readable. The kernel
        moves pty data asynchronously, so a test that has just written
        waits here before stepping."""
        master = self.master
        if master is None:
            return False
        import select
        return bool(select.select([master], [], [], timeout)[0])

    def _read_master(self) -> bytes:
        if self.master is None:
            return b""
        chunks = []
        while True:
            try:
                data = os.read(self.master, 4096)
            except BlockingIOError:
                break
            except OSError as e:      # EIO: no one has the slave open
                if e.errno != errno.EIO:
                    raise
                break
            if not data:
                break
            chunks.append(data)
        return b"".join(chunks)

    def _flush(self, now_ms: int | None = None) -> None:
        if self.master is None:
            self.out.clear()          # unplugged: the bytes go nowhere
            return
        if len(self.out) > self.out_limit:
            cut = self.out.find(b"\n", len(self.out) - self.out_limit)
            cut = len(self.out) if cut < 0 else cut + 1
            self.dropped_bytes += cut
            del self.out[:cut]
        budget = len(self.out)
        slow = self.tx_ms_per_byte > 0 and now_ms is not None
        if slow:               # a slow link: one byte per tx_ms_per_byte, no credit saved while idle
            ms = self.tx_ms_per_byte
            free = self._tx_time if self._tx_time is not None else now_ms
            budget = min(budget, (now_ms - free) // ms)
            self._tx_time = free + budget * ms
        while self.out and budget > 0:
            try:
                n = os.write(self.master, bytes(self.out[:budget]))
            except (BlockingIOError, OSError):
                if len(self.out) > 65536:
                    self.out.clear()
                return
            del self.out[:n]
            budget -= n
            self.bytes_out += n
        if slow and not self.out:
            self._tx_time = now_ms

    # -- real-time thread ---------------------------------------------------
    def start(self, period_ms: int = 2, clock: Callable[[], int] | None = None) -> None:
        now = clock or (lambda: int(time.monotonic() * 1000))
        self._stop.clear()

        def loop() -> None:
            while not self._stop.is_set():
                self.step(now())
                time.sleep(period_ms / 1000)

        self._thread = threading.Thread(target=loop, name="sim-pico", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
            self._thread = None

    def close(self) -> None:
        self.stop()
        self.unplug()


def main() -> None:   # pragma: no cover - manual tool
    """Serve a simulated Pico on a pty; type positions to toggle switches.
    ``--board 10x10`` simulates the 10×10 board's 11 × 10 matrix."""
    from .boards import board_kind

    kind = board_kind(sys.argv[2] if len(sys.argv) > 2 and sys.argv[1] == "--board" else "maxima")
    sim = SimPico(SimMatrix(kind.rows, kind.columns))
    print(f"simulated Pico ({kind.title}, {kind.size} switches) on {sim.path}  (device = \"{sim.path}\")")
    print(f"type matrix positions (0-{kind.positions - 1}) separated by spaces to toggle them; "
          "empty line lists them")
    sim.start()
    try:
        for line in sys.stdin:
            toks = line.split()
            if not toks:
                print(sorted(sim.matrix.closed))
                continue
            closed = set(sim.matrix.closed)
            for t in toks:
                if t.isdigit() and int(t) < kind.positions:
                    closed ^= {int(t)}
            sim.matrix.set(closed)
    except KeyboardInterrupt:
        pass
    finally:
        sim.close()


if __name__ == "__main__":   # pragma: no cover
    main()
