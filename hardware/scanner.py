"""The reed-switch matrix scanned by the Pi itself through gpiozero
(direct topology of shared/hardware/board.md).

Rows are outputs driven active low one at a time; the other rows stay high.
Columns are inputs with pull-ups: a closed switch (with its series diode)
pulls its column low while its row is driven. Per full scan: 10 row
activations, 10 releases and 80 column reads = 100 pin operations.

Columns are plain :class:`gpiozero.InputDevice` objects, not
``DigitalInputDevice``: the latter arms edge detection, and every scan makes
dozens of edges on the columns that nobody needs to hear about.
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


def _busy_wait_us(us: int) -> None:
    """Wait a few microseconds (time.sleep cannot wait less than ~60 µs)."""
    if us > 0:
        end = time.perf_counter_ns() + us * 1000
        while time.perf_counter_ns() < end:
            pass


class MatrixScanner:
    """A :class:`~hardware.interfaces.SensorSource` scanning the matrix on
    gpiozero pins, debounced in software."""

    def __init__(self, rows: Sequence[int], columns: Sequence[int], matrix_map: MatrixMap | None = None,
                 debounce_ms: int = 30, row_settle_us: int = 10, pin_factory=None):
        if len(rows) != ROWS or len(columns) != COLUMNS:
            raise ValueError(f"the matrix has {ROWS} rows and {COLUMNS} columns, "
                             f"got {len(rows)} and {len(columns)} pins")
        self.map = matrix_map or MatrixMap()
        self.row_settle_us = row_settle_us
        self.debouncer = Debouncer(debounce_ms)
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
        columns = self._columns
        for r, row in enumerate(self._rows):
            row.on()
            _busy_wait_us(settle)
            base = r * COLUMNS
            for c, column in enumerate(columns):
                if column.value:
                    frame |= 1 << (base + c)
            row.off()
        return frame

    def read_frame(self, now_ms: int) -> int | None:
        """Scan once and return the debounced frame (None until known)."""
        return self.debouncer.update(self.scan(), now_ms)

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
