"""Matrix scan sequencing against an injected pin interface.

Pure logic: runs unchanged under CPython (tests, the simulated Pico) and
MicroPython (the Pico). Rows are driven active low one at a time; columns
are inputs with pull-ups, so a closed switch (with its series diode) reads
0 on its column while its row is low.

``rows`` are objects with ``value(v)`` (machine.Pin in output mode);
``cols`` are objects with ``value()`` (machine.Pin inputs with pull-ups).
``read_port`` optionally replaces the per-column reads with one read that
returns the column levels at once as bits 0..ncols-1 (main.py passes a reader of
the SIO GPIO_IN register, RP2040 and RP2350 alike, when the column pins are consecutive).
``settle`` is an optional ``f()`` called after a row is driven low (main.py
passes a short ``time.sleep_us``) so the column lines settle before reading.
"""


class Scanner:
    def __init__(self, rows, cols, read_port=None, settle=None):
        self.rows = rows
        self.cols = cols
        self.read_port = read_port
        self.settle = settle
        self.nrows = len(rows)
        self.ncols = len(cols)
        for r in rows:
            r.value(1)

    def scan(self, out):
        """Fill ``out`` (one value per row: a bytearray for up to 8 columns,
        a list for more) with the raw closed
        switches: bit c of ``out[r]`` set = switch (r, c) closed."""
        cols = self.cols
        ncols = self.ncols
        read_port = self.read_port
        settle = self.settle
        mask = (1 << ncols) - 1
        r = 0
        for row in self.rows:
            row.value(0)
            if settle is not None:
                settle()
            if read_port is not None:
                bits = ~read_port() & mask
            else:
                bits = 0
                c = 0
                for col in cols:
                    if not col.value():
                        bits |= 1 << c
                    c += 1
            row.value(1)
            out[r] = bits
            r += 1
        return out
