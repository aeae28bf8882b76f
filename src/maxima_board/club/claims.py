"""Which state of a table the dashboard believes, and which tables keep a
place when there are more than it keeps: the rules that keep a forged
message on an open broker (anyone may write any table) from taking a table
for good.

Order. A table's states are ordered by (boot, seq). A state is believed
when it is later than the table's last one, but not by an implausible jump:
at most BOOT_JUMP starts (a board's start count begins at the clock's
seconds, so this is ten years of restarts) and, within one start, at most
SEQ_JUMP states. A later one is dropped ("implausible"). Should a forged
state within those bounds still stand above the board's own, the board
takes its table back: once the believed state has not changed for
``stale_s`` seconds, two sound states in a row, the second later than the
first, are believed whatever their order (a one-shot forgery thus holds a
table at most until then; a forger who keeps sending can hold it as long
as he keeps sending, which only the broker's password set-up prevents).

Places. When ``max_tables`` are kept, a new table takes the place of the
weakest kept one only if it is stronger (among equally weak ones with a
live state, the one placed last goes first, so an older table outlasts a
flood). Strength: 0, no sound state (only a status or records); 1,
offline or silent for SILENT_S; 2, one sound state; 3, sound states that
advanced (two or more). A new table's first
state counts 2, its second later state 3 (the tables waiting for a place
are remembered, at most ``max_tables`` of them). So a flood of one-shot
table ids can neither drop a live board's table nor keep out a board that
keeps playing; it can take only places nobody plays at.
"""
from __future__ import annotations

from collections import OrderedDict
from typing import Any

BOOT_JUMP = 10 * 366 * 86400
SEQ_JUMP = 1 << 32
STALE_S = 30.0
SILENT_S = 3 * 3600.0


def plausible(order: tuple[int, int], after: tuple[int, int]) -> bool:
    """Whether ``order`` may follow ``after`` (both (boot, seq)): later, by
    no more than BOOT_JUMP starts or, in the same start, SEQ_JUMP states."""
    if order <= after:
        return False
    if order[0] != after[0]:
        return order[0] - after[0] <= BOOT_JUMP and order[1] <= SEQ_JUMP
    return order[1] - after[1] <= SEQ_JUMP


def judge(entry: dict[str, Any] | None, order: tuple[int, int], now: float, stale_s: float) -> str:
    """What a sound state of ``order`` would be to the table ``entry``:
    "new" (believed), "same" (already believed), "stale" or "implausible"
    (dropped), or "takeover" (believed: the second of two later states
    after ``stale_s`` without change). "check" asks for the state to be
    checked first: it is dropped, but remembered as the first of two."""
    last = None if entry is None else entry.get("order")
    if last is None:
        return "new"
    if order == last:
        return "same"
    if plausible(order, last):
        return "new"
    if now - entry.get("changed", now) >= stale_s:
        candidate = entry.get("candidate")
        if candidate is not None and plausible(order, candidate):
            return "takeover"
        return "check"
    return "stale" if order < last else "implausible"


def strength(entry: dict[str, Any], now: float) -> int:
    """The table's claim to its place (module docstring)."""
    if entry.get("order") is None:
        return 0
    if entry.get("online") is False or now - entry.get("heard", now) >= SILENT_S:
        return 1
    return 3 if entry.get("advances", 0) >= 1 else 2


class Places:
    """The tables waiting for a place: their last state's order and status
    (newest last, at most ``limit`` of them)."""

    def __init__(self, limit: int):
        self.limit = limit
        self._waiting: OrderedDict[str, dict[str, Any]] = OrderedDict()

    def claim(self, table: str, order: tuple[int, int]) -> int:
        """The strength of a state of ``order`` from a table without a place."""
        seen = self._waiting.get(table)
        last = None if seen is None else seen.get("order")
        return 3 if last is not None and plausible(order, last) else 2

    def remember(self, table: str, **facts: Any) -> None:
        seen = self._waiting.pop(table, {})
        seen.update(facts)
        self._waiting[table] = seen
        while len(self._waiting) > self.limit:
            self._waiting.popitem(last=False)

    def take(self, table: str) -> dict[str, Any]:
        """What was remembered of ``table`` (now given a place), forgotten."""
        return self._waiting.pop(table, {})

    @staticmethod
    def weakest(tables: dict[str, dict[str, Any]], below: int, now: float) -> str | None:
        """The kept table to give up for a newcomer of strength ``below``:
        the weakest; among equals without a believed live state the longest
        unheard, among equals with one the last placed (a flood's own); None
        if none is weaker."""
        best, key = None, None
        for name, entry in tables.items():
            s = strength(entry, now)
            mine = (s, entry.get("heard", 0.0) if s < 2 else -entry.get("placed", 0.0))
            if s < below and (key is None or mine < key):
                best, key = name, mine
        return best
