"""Blink patterns of single-colour LEDs, rendered from the clock.

Single-colour LEDs tell the meanings of shared/hardware/board.md apart by
pattern only: ``steady``, ``slow`` (1 s period), ``fast`` (250 ms period)
or ``off``. A blinking LED is lit during the first half of each period,
counted from ``now_ms = 0``, so every LED with the same pattern blinks in
step and the result depends on ``now_ms`` alone.
"""
from __future__ import annotations

from typing import Mapping

# The pattern of each LED state (config [leds] patterns overrides them).
DEFAULT_PATTERNS = {
    "error-extra": "fast", "error-missing": "steady", "remove": "fast",
    "engine-from": "slow", "engine-to": "steady", "check": "slow", "captures": "steady",
    "setup-missing": "steady", "last-from": "steady", "last-to": "steady",
    "immobilized": "off", "hint": "off",
}


class BlinkPlan:
    """Which squares are lit at a given time."""

    def __init__(self, patterns: Mapping[str, str] | None = None, slow_ms: int = 1000, fast_ms: int = 250):
        self.patterns = dict(DEFAULT_PATTERNS)
        self.patterns.update(patterns or {})
        self.slow_ms = slow_ms
        self.fast_ms = fast_ms

    def pattern(self, state: str) -> str:
        """The pattern of an LED state (unknown states are steady)."""
        return self.patterns.get(state, "steady")

    def is_lit(self, pattern: str, now_ms: int) -> bool:
        if pattern == "steady":
            return True
        if pattern == "slow":
            return now_ms % self.slow_ms < self.slow_ms // 2
        if pattern == "fast":
            return now_ms % self.fast_ms < self.fast_ms // 2
        return False

    def lit(self, leds: Mapping[str, str], now_ms: int) -> set[str]:
        """The squares of ``leds`` (square → state) lit at ``now_ms``."""
        return {sq for sq, state in leds.items() if self.is_lit(self.pattern(state), now_ms)}

    def next_change(self, leds: Mapping[str, str], now_ms: int) -> int | None:
        """The next time after ``now_ms`` a square of ``leds`` goes on or
        off (None: they all stay as they are)."""
        times = []
        for pattern in {self.pattern(state) for state in leds.values()}:
            period = {"slow": self.slow_ms, "fast": self.fast_ms}.get(pattern)
            if period:
                start = now_ms - now_ms % period
                times.append(start + period // 2 if now_ms < start + period // 2 else start + period)
        return min(times) if times else None
