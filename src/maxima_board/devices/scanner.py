"""The reed-switch matrix scanned by the Pi itself through gpiozero
(direct topology of shared/hardware/board.md).

Rows are outputs driven active low one at a time; the other rows stay high.
Columns are inputs with pull-ups: a closed switch (with its series diode)
pulls its column low while its row is driven. Per full scan: 10 row
activations, 10 releases and 80 column reads = 100 pin operations.

Columns are plain :class:`gpiozero.InputDevice` objects, not
``DigitalInputDevice``: the latter arms edge detection, and every scan makes
dozens of edges on the columns that nobody needs to hear about. (Edges
cannot replace scanning either: a column reads closed while any switch on
it is, so lifting one of two pieces on a column makes no edge.)

How often to scan (``next_deadline``): the last switch change of a move
must reach the controller within ``LATENCY_MS`` (45 ms), debounce included,
so that the move commits within the settle time + 50 ms of it. While the
board is in the middle of something (the loop says so: ``set_at_rest(False)``,
the default) the matrix is scanned every ``idle_scan_ms`` = 45 −
``debounce_ms`` ms (15 with the default 30 ms debounce, on a grid from time
0); once a switch reads differently, every ``active_scan_ms`` =
``debounce_ms`` / 3 (10) until the debouncer has decided, so chatter is still
seen and a change is accepted ``debounce_ms`` after it was first read: at
most 15 + 30 = 45 ms after it happened. While the board stands exactly as the
game expects (``set_at_rest(True)``) the next change can only begin a move —
a lift, a button — never end one, so it may be seen later: every
``rest_scan_ms`` (45 ms). Each scan also waits ``row_settle_us`` per row
(busy: 100 µs a scan at the default 10 µs), so at rest the scanner costs
22 scans a second instead of the 100 of a fixed 10 ms loop.
"""
from __future__ import annotations

import time
from typing import Sequence

from gpiozero import InputDevice, OutputDevice
from gpiozero.exc import GPIOZeroError

from .debounce import Debouncer
from .errors import HardwareError
from .interfaces import BoardState
from .matrix_map import COLUMNS, ROWS, MatrixMap

LATENCY_MS = 45     # a switch change reaches the controller within this, debounce included
                    # (5 ms of the 50 the board allows are left to the loop itself)


def _busy_wait_us(us: int) -> None:
    """Wait a few microseconds (time.sleep cannot wait less than ~60 µs)."""
    if us > 0:
        end = time.perf_counter_ns() + us * 1000
        while time.perf_counter_ns() < end:
            pass


class MatrixScanner:
    """A :class:`~maxima_board.devices.interfaces.SensorSource` scanning the matrix on
    gpiozero pins, debounced in software."""

    def __init__(self, rows: Sequence[int], columns: Sequence[int], matrix_map: MatrixMap | None = None,
                 debounce_ms: int = 30, row_settle_us: int = 10, pin_factory=None,
                 idle_scan_ms: int | None = None, active_scan_ms: int | None = None,
                 rest_scan_ms: int = LATENCY_MS):
        if len(rows) != ROWS or len(columns) != COLUMNS:
            raise ValueError(f"the matrix has {ROWS} rows and {COLUMNS} columns, "
                             f"got {len(rows)} and {len(columns)} pins")
        self.map = matrix_map or MatrixMap()
        self.row_settle_us = row_settle_us
        self.debouncer = Debouncer(debounce_ms)
        self.active_scan_ms = active_scan_ms or max(1, debounce_ms // 3)
        self.idle_scan_ms = idle_scan_ms or max(self.active_scan_ms, LATENCY_MS - debounce_ms)
        self.rest_scan_ms = max(rest_scan_ms, self.idle_scan_ms)
        self.at_rest = False
        self.scans = 0
        self._last_scan_ms: int | None = None
        self._last_frame: int | None = None
        self._last_state: BoardState | None = None
        self._rows: list[OutputDevice] = []
        self._columns: list[InputDevice] = []
        try:
            for r, pin in enumerate(rows):
                what = f"row R{r}"
                # active low: on() drives the pin low; start released (high)
                self._rows.append(OutputDevice(pin, active_high=False, initial_value=False,
                                               pin_factory=pin_factory))
            for c, pin in enumerate(columns):
                what = f"column C{c}"
                # pull-up: value is 1 while the pin reads low (switch closed)
                self._columns.append(InputDevice(pin, pull_up=True, pin_factory=pin_factory))
        except (GPIOZeroError, OSError, RuntimeError) as exc:
            self.close()
            raise HardwareError(f"matrix {what} on BCM {pin}: {exc}") from None

    def scan(self) -> int:
        """One full pass over the matrix: the raw 80-bit frame (bit set =
        switch closed)."""
        frame = 0
        settle = self.row_settle_us
        # the devices' pins, not the devices: a pin read is what is needed,
        # without gpiozero's per-device layers (a third of a scan's time)
        columns = [column.pin for column in self._columns]
        for r, row in enumerate(self._rows):
            pin = row.pin
            pin.state = False                # driven low: active
            _busy_wait_us(settle)
            base = r * COLUMNS
            for c, column in enumerate(columns):
                if not column.state:         # pulled low through a closed switch
                    frame |= 1 << (base + c)
            pin.state = True                 # released
        return frame

    def read_frame(self, now_ms: int) -> int | None:
        """Scan once and return the debounced frame (None until known)."""
        self.scans += 1
        self._last_scan_ms = now_ms
        return self.debouncer.update(self.scan(), now_ms)

    def set_at_rest(self, at_rest: bool) -> None:
        """The board stands as the game expects (True) or not (module
        docstring); the loop says so after every change."""
        self.at_rest = at_rest

    def next_deadline(self, now_ms: int) -> int:
        """When to scan next (module docstring)."""
        last = self._last_scan_ms
        if last is None:
            return now_ms
        if self.debouncer.deciding():
            return last + self.active_scan_ms
        period = self.rest_scan_ms if self.at_rest else self.idle_scan_ms
        return (last // period + 1) * period

    def read(self, now_ms: int) -> BoardState | None:
        frame = self.read_frame(now_ms)
        if frame is None:
            return None
        if frame != self._last_frame:
            self._last_frame, self._last_state = frame, self.map.decode(frame)
        return self._last_state

    def close(self) -> None:
        for device in self._rows + self._columns:
            device.close()
        self._rows, self._columns = [], []
