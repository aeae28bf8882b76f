"""Debouncing of the raw matrix, per switch, over stable scans.

A switch's debounced state flips only after its raw reading has differed
from the debounced one on ``min_scans`` consecutive scans AND for at least
``stable_ms`` milliseconds; any scan that agrees again restarts the count.
Reed bounce (< 2 ms) and the chatter of a piece slid across a square
(tens of ms) are both filtered. Deciding that a *move* is over is the Pi's
job, not this one's.

Frames are kept as one value per row (a bytearray for up to 8 columns, a
list of small ints for the 10x10 board's 10), so all arithmetic stays in
MicroPython small ints: no allocation per scan.
``diff`` is the tick difference function (``time.ticks_diff`` on the Pico;
plain subtraction by default).
"""


def _sub(a, b):
    return a - b


def row_buffer(nrows, ncols):
    """One value per row: bytes for up to 8 columns, else small ints."""
    return bytearray(nrows) if ncols <= 8 else [0] * nrows


class Debouncer:
    def __init__(self, nrows=10, ncols=8, stable_ms=30, min_scans=3, diff=None):
        self.nrows = nrows
        self.ncols = ncols
        self.stable_ms = stable_ms
        self.min_scans = min_scans
        self.diff = diff if diff is not None else _sub
        self.stable = row_buffer(nrows, ncols)   # debounced state, one value per row
        self.pending = row_buffer(nrows, ncols)  # bits currently differing from stable
        self.count = bytearray(nrows * ncols)
        self.since = [0] * (nrows * ncols)
        self.primed = False

    def update(self, raw, now):
        """Take one raw scan (one value per row); returns True when
        the debounced state changed. The very first scan is taken as is."""
        stable = self.stable
        if not self.primed:
            for r in range(self.nrows):
                stable[r] = raw[r]
            self.primed = True
            return True
        pending = self.pending
        count = self.count
        since = self.since
        ncols = self.ncols
        changed = False
        for r in range(self.nrows):
            d = raw[r] ^ stable[r]
            p = pending[r]
            if d == 0 and p == 0:
                continue
            base = r * ncols
            new = d & ~p
            keep = d & p
            flip = 0
            c = 0
            bit = 1
            while bit <= d:
                if new & bit:
                    count[base + c] = 1
                    since[base + c] = now
                    if self.min_scans <= 1 and self.stable_ms <= 0:
                        flip |= bit
                elif keep & bit:
                    n = count[base + c]
                    if n < 255:
                        n += 1
                        count[base + c] = n
                    if n >= self.min_scans and self.diff(now, since[base + c]) >= self.stable_ms:
                        flip |= bit
                bit <<= 1
                c += 1
            if flip:
                stable[r] ^= flip
                changed = True
            pending[r] = d & ~flip
        return changed
