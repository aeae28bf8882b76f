"""The way from the dashboard's MQTT thread to the one thread that checks
and replays what boards send: bounded, coalescing and fair.

The MQTT thread puts a decoded message under its key (table, topic kind,
game number); a newer message of the same key replaces the waiting one
(each message is a whole state or record, so only the newest counts). The
worker serves the tables with work in turn, one step each (a step is at
most one slice of a replay, maxima_board.club.replaying.SLICE plies), so
one table's flood of long records never delays another table by more than
a slice. At most ``table_items`` messages and ``table_bytes`` of payload
wait per table, ``max_items`` and ``max_bytes`` in all; past them ``put``
refuses (the caller drops and counts the message as "busy").
"""
from __future__ import annotations

import sys
import threading
from collections import OrderedDict, deque
from typing import Any, Callable, Hashable, Iterator

MAX_ITEMS = 4096
MAX_BYTES = 16 << 20
TABLE_ITEMS = 128
TABLE_BYTES = 4 << 20

Work = Callable[[str, Hashable, Any], Iterator[None]]


class Inbox:
    """Messages waiting for ``work(table, key, item)``, a generator that
    does one step per ``next`` and is closed when a newer message of its
    key arrives before it is done (it then carries on from what it left,
    if it kept that)."""

    def __init__(self, work: Work, name: str, *, max_items: int = MAX_ITEMS, max_bytes: int = MAX_BYTES,
                 table_items: int = TABLE_ITEMS, table_bytes: int = TABLE_BYTES):
        self._work = work
        self.max_items, self.max_bytes, self.table_items, self.table_bytes = \
            max_items, max_bytes, table_items, table_bytes
        self._cond = threading.Condition()
        self._waiting: dict[str, OrderedDict[Hashable, tuple[Any, int]]] = {}
        self._table_bytes: dict[str, int] = {}
        self._items = self._bytes = 0
        self._running: dict[str, tuple[Hashable, Iterator[None]]] = {}
        self._turns: deque[str] = deque()         # tables with work, in turn
        self._scheduled: set[str] = set()         # in _turns, or in the worker's hands
        self._closed = False
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def put(self, table: str, key: Hashable, item: Any, size: int) -> str | None:
        """Queue ``item`` (``size`` bytes of payload), replacing a waiting
        one of ``key``; None, or why not (the inbox is full)."""
        with self._cond:
            waiting = self._waiting.setdefault(table, OrderedDict())
            old = waiting.pop(key, None)
            if old is not None:
                self._account(table, -1, -old[1])
            if len(waiting) >= self.table_items or self._table_bytes.get(table, 0) + size > self.table_bytes:
                why = f"table {table} has {len(waiting)} messages waiting"
            elif self._items >= self.max_items or self._bytes + size > self.max_bytes:
                why = f"{self._items} messages waiting"
            else:
                waiting[key] = (item, size)
                self._account(table, 1, size)
                if table not in self._scheduled:
                    self._scheduled.add(table)
                    self._turns.append(table)
                    self._cond.notify_all()
                return None
            if not waiting:
                del self._waiting[table]
            return why

    def _account(self, table: str, items: int, size: int) -> None:
        self._items += items
        self._bytes += size
        left = self._table_bytes.get(table, 0) + size
        if left:
            self._table_bytes[table] = left
        else:
            self._table_bytes.pop(table, None)

    def waiting(self) -> int:
        """Messages waiting or in the middle of their work."""
        with self._cond:
            return self._items + len(self._running)

    def wait_idle(self, timeout: float) -> bool:
        """Whether all work was done within ``timeout`` s."""
        with self._cond:
            return self._cond.wait_for(lambda: not self._scheduled, timeout)

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        self._thread.join(5)

    def _next(self) -> tuple[str, tuple[Hashable, Iterator[None]]] | None:
        """The next table in turn and its work (a newer message replaces
        its unfinished one); None when closed."""
        with self._cond:
            self._cond.wait_for(lambda: self._turns or self._closed)
            if self._closed:
                return None
            table = self._turns.popleft()
            waiting = self._waiting.get(table)
            running = self._running.pop(table, None)
            if running is not None and waiting and running[0] in waiting:
                running[1].close()
                running = None
            if running is None:
                key, (item, size) = waiting.popitem(last=False)
                self._account(table, -1, -size)
                if not waiting:
                    del self._waiting[table]
                running = (key, self._work(table, key, item))
            return table, running

    def _run(self) -> None:
        while True:
            turn = self._next()
            if turn is None:
                return
            table, running = turn
            try:
                next(running[1])
                more = True
            except StopIteration:
                more = False
            except Exception as exc:     # noqa: BLE001 - work says its own errors; this one it did not
                print(f"maxima-board dashboard: {table}: {exc!r}", file=sys.stderr, flush=True)
                more = False
            with self._cond:
                if more:
                    self._running[table] = running
                if more or table in self._waiting:
                    self._turns.append(table)
                else:
                    self._scheduled.discard(table)
                self._cond.notify_all()
