"""Software debounce of an 80-bit switch frame, switch by switch.

A switch's new level is accepted once it has read the same for at least
``debounce_ms`` *and* ``min_scans`` consecutive scans; any read of the old
level in between starts the wait again. Chatter on one square (a piece slid
across it) therefore never shows, and never delays the other squares.
Deciding that a *move* is over is the controller's job, not this one's.
"""
from __future__ import annotations


class Debouncer:
    """Turns raw scans into a debounced frame."""

    def __init__(self, debounce_ms: int = 30, min_scans: int = 2):
        self.debounce_ms = debounce_ms
        self.min_scans = max(1, min_scans)
        self.stable: int | None = None
        self._pending: dict[int, list[int]] = {}   # bit -> [since_ms, scans]
        self._first: tuple[int, int, int] | None = None   # raw, since_ms, scans

    def update(self, raw: int, now_ms: int) -> int | None:
        """Feed one raw scan taken at ``now_ms``; return the debounced frame,
        or None until the very first frame has been stable long enough."""
        if self.stable is None:
            if self._first is None or self._first[0] != raw:
                self._first = (raw, now_ms, 1)
            else:
                self._first = (raw, self._first[1], self._first[2] + 1)
            if self._ready(self._first[1], self._first[2], now_ms):
                self.stable = raw
                self._first = None
            return self.stable
        diff = raw ^ self.stable
        for bit in [b for b in self._pending if not diff >> b & 1]:
            del self._pending[bit]          # went back: the wait starts again
        while diff:
            low = diff & -diff
            diff ^= low
            bit = low.bit_length() - 1
            entry = self._pending.get(bit)
            if entry is None:
                entry = self._pending[bit] = [now_ms, 0]
            entry[1] += 1
            if self._ready(entry[0], entry[1], now_ms):
                self.stable ^= low
                del self._pending[bit]
        return self.stable

    def deciding(self) -> bool:
        """A switch reads differently from its accepted level (or the first
        frame is not yet known): scans are needed to decide."""
        return self.stable is None or bool(self._pending)

    def _ready(self, since_ms: int, scans: int, now_ms: int) -> bool:
        return scans >= self.min_scans and now_ms - since_ms >= self.debounce_ms
