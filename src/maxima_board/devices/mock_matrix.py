"""A simulated reed-switch matrix on gpiozero's own MockFactory.

:class:`DiodeMatrixPin` is a :class:`gpiozero.pins.mock.MockPin` whose
level, when it is a column input, is computed from the switches: with
diodes, a column reads low exactly when some row driven low has a closed
switch on that column. With ``diodes=False`` the model joins rows and
columns through every closed switch and a column reads low when its net
reaches a row driven low: three closed corners of a rectangle then make the
fourth read closed (the "ghost" that board.md's diodes prevent).

Used by the tests, by ``bench/scan.py`` and for dry runs on a PC::

    matrix = ReedMatrix(rows, columns)
    Device.pin_factory = matrix_factory(matrix)
    ...
    matrix.close_switch(3, 4)          # row R3, column C4 (e4) now closed
"""
from __future__ import annotations

from typing import Iterable

from gpiozero.pins.mock import MockFactory, MockPin

from .matrix_map import COLUMNS, MatrixMap


class ReedMatrix:
    """The switches of the simulated board and the pins wired to them."""

    def __init__(self, rows: Iterable[int], columns: Iterable[int], diodes: bool = True,
                 matrix_map: MatrixMap | None = None):
        self.rows = tuple(rows)
        self.columns = tuple(columns)
        self.row_of_pin = {pin: r for r, pin in enumerate(self.rows)}
        self.column_of_pin = {pin: c for c, pin in enumerate(self.columns)}
        self.diodes = diodes
        self.map = matrix_map or MatrixMap()
        self._closed: set[tuple[int, int]] = set()
        self.pins: dict[int, MockPin] = {}
        self._low: set[int] | None = None   # rows driven low, None: to be looked at again
        self._rows_on: list[set[int]] | None = None   # per column, the rows of its closed switches
        self.reads = 0        # column reads since the last reset_counts()
        self.writes = 0       # row level changes since the last reset_counts()

    # -- switches -----------------------------------------------------------
    @property
    def closed(self) -> set[tuple[int, int]]:
        """The closed switches as (row, column); assign a new set to change
        them all (changing this set in place is not seen)."""
        return self._closed

    @closed.setter
    def closed(self, switches: Iterable[tuple[int, int]]) -> None:
        self._closed = set(switches)
        self._rows_on = None

    def set_switch(self, row: int, column: int, closed: bool) -> None:
        (self._closed.add if closed else self._closed.discard)((row, column))
        self._rows_on = None

    def close_switch(self, row: int, column: int) -> None:
        self.set_switch(row, column, True)

    def open_switch(self, row: int, column: int) -> None:
        self.set_switch(row, column, False)

    def set_name(self, name: str, closed: bool) -> None:
        """Close or open the switch under a square ("e4") or button ("button:ok")."""
        pos = self.map.position_of[name]
        self.set_switch(pos // COLUMNS, pos % COLUMNS, closed)

    def set_squares(self, names: Iterable[str]) -> None:
        """Exactly these squares/buttons closed, all others open."""
        self.closed = set()
        for name in names:
            self.set_name(name, True)

    def reset_counts(self) -> None:
        self.reads = self.writes = 0

    # -- electrics ----------------------------------------------------------
    def _driven_low_rows(self) -> set[int]:
        if self._low is None:       # recomputed after a row pin changed (cheap reads for the benches)
            low = set()
            for pin, r in self.row_of_pin.items():
                p = self.pins.get(pin)
                if p is not None and p.function == "output" and not p.state:
                    low.add(r)
            self._low = low
        return self._low

    def rows_changed(self) -> None:
        """A row pin changed its function or level: the rows driven low are looked at again."""
        self._low = None

    def column_low(self, column: int) -> bool:
        """True when the column is pulled low through a closed switch."""
        active = self._driven_low_rows()
        if not active:
            return False
        if self.diodes:
            if self._rows_on is None:
                self._rows_on = [set() for _ in self.columns]
                for r, c in self.closed:
                    if c < len(self._rows_on):
                        self._rows_on[c].add(r)
            return not active.isdisjoint(self._rows_on[column])
        # No diodes: current flows both ways through every closed switch.
        seen_cols, seen_rows = {column}, set()
        todo = [("c", column)]
        while todo:
            kind, n = todo.pop()
            for r, c in self.closed:
                if kind == "c" and c == n and r not in seen_rows:
                    seen_rows.add(r)
                    todo.append(("r", r))
                elif kind == "r" and r == n and c not in seen_cols:
                    seen_cols.add(c)
                    todo.append(("c", c))
        return bool(seen_rows & active)


class DiodeMatrixPin(MockPin):
    """A mock pin wired into a :class:`ReedMatrix` (set as ``matrix`` on a
    subclass by :func:`matrix_factory`)."""

    matrix: ReedMatrix

    def __init__(self, factory, info):
        super().__init__(factory, info)
        self.matrix.pins[self._number] = self

    def _get_state(self):
        matrix = self.matrix
        column = matrix.column_of_pin.get(self._number)
        if column is not None and self._function == "input":
            matrix.reads += 1
            if self._pull == "up":
                return not matrix.column_low(column)
            return False if matrix.column_low(column) else self._state
        return super()._get_state()

    def _set_state(self, value):
        if self._number in self.matrix.row_of_pin:
            self.matrix.writes += 1
        super()._set_state(value)

    def _change_state(self, value):
        if self._number in self.matrix.row_of_pin:
            self.matrix.rows_changed()
        return super()._change_state(value)

    def _set_function(self, value):
        if self._number in self.matrix.row_of_pin:
            self.matrix.rows_changed()
        super()._set_function(value)


def matrix_factory(matrix: ReedMatrix) -> MockFactory:
    """A gpiozero MockFactory whose pins are wired into ``matrix``; install
    it with ``Device.pin_factory = matrix_factory(matrix)``."""
    pin_class = type("WiredDiodeMatrixPin", (DiodeMatrixPin,), {"matrix": matrix})
    return MockFactory(pin_class=pin_class)
