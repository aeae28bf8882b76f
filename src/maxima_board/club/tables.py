"""The club's tables as the broker tells them: the newest state of every
table and the record of every game, read by the dashboard's web server.
The client speaks MQTT 5 and tells the broker the largest packet it takes,
so oversized messages stay at the broker.

Every message is hostile until maxima_board.club.schema has checked it. The
MQTT thread only checks the topic and decodes (msgspec); the checks that
replay moves run on one worker thread behind a bounded, coalescing inbox
that serves the tables in turn, a slice of a replay at a time
(maxima_board.club.inbox), each replay going on from the last one of the
same game (maxima_board.club.replaying). A message that does not fit is
dropped and counted (``stats``, and ``dropped`` per table in ``tables``),
never raised in either thread; ``broker_ok`` is false whenever the MQTT
thread is not connected or has died. A table's states are ordered by the
board's (start count, sequence number), never by its wall clock, with the
bounds and the way back of maxima_board.club.claims. A zero-length retained
message means "deleted". At most ``max_tables`` tables (a new one takes
the place of a weaker one only: claims), ``games_per_table`` records and
``table_plies`` plies of records per table (maxima_board.club.records) and
``max_bytes`` of payloads are kept.
"""
from __future__ import annotations

import re
import secrets
import sys
import threading
import time
from collections import deque
from typing import Any, Hashable, Iterator

from maxima_board.webbase.svg import board_svg

from . import schema
from .claims import BOOT_JUMP, STALE_S, Places, judge
from .connection import BrokerAuth, connect_properties, make_client, say_refusal
from .inbox import Inbox
from .records import GAMES_PER_TABLE, TABLE_PLIES, RecordBook, natural_key
from .replaying import CLUB_TAG, GAME_TAGS, Cursor, best_cursor, record_text, steps_kept
from .topics import ROOT, parse_broker, topic_word

__all__ = ["CLUB_TAG", "GAME_TAGS", "ClubTables", "record_text"]

MAX_TABLES = 256
MAX_BYTES = 32 << 20        # of kept payloads (states and records): a club's round needs a few MB
_TABLE_WORD = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")


class ClubTables:
    """The tables of ``club`` as the broker tells them; thread-safe."""

    def __init__(self, broker: str, club: str, *, keepalive: int = 10, auth: BrokerAuth | None = None,
                 max_tables: int = MAX_TABLES, games_per_table: int = GAMES_PER_TABLE, max_bytes: int = MAX_BYTES,
                 table_plies: int = TABLE_PLIES, stale_s: float = STALE_S):
        host, port = parse_broker(broker)
        self.club = topic_word(club, "club")
        self.max_tables, self.max_bytes, self.stale_s = max_tables, max_bytes, stale_s
        self._sizes: dict[tuple[str, int | None], int] = {}     # (table, game or None: state) -> payload bytes
        self.kept_bytes = 0
        self._cond = threading.Condition()
        self._tables: dict[str, dict[str, Any]] = {}
        self._records = RecordBook(games_per_table, table_plies)
        self._places = Places(max_tables)
        self._cursors: dict[str, Cursor] = {}        # table -> the replay of its believed state
        self._working: dict[str, Cursor] = {}        # table -> a state's replay a newer one cut short
        self.version = 0
        self._connected = False
        self.refused: str | None = None              # why the broker last refused us
        self.dropped: dict[str, int] = {}            # why -> messages dropped
        self.recent_drops: deque[tuple[str, str]] = deque(maxlen=20)     # (topic, why), newest last
        self._inbox = Inbox(self._work, f"dashboard replay {self.club}")
        client = make_client(f"maxima-dashboard-{self.club}-{secrets.token_hex(3)}", auth, v5=True)
        client.reconnect_delay_set(1, 2)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        self._client = client
        client.connect_async(host, port, keepalive, clean_start=True,
                             properties=connect_properties(schema.MAX_MESSAGE + 1024))
        self._thread = threading.Thread(target=self._run, name=f"dashboard mqtt {self.club}", daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._client.disconnect()
        self._thread.join(5)
        self._inbox.close()

    def settled(self, timeout: float) -> bool:
        """Whether every message received so far was handled within ``timeout`` s."""
        return self._inbox.wait_idle(timeout)

    @property
    def broker_ok(self) -> bool:
        """Connected to the broker, with a live MQTT thread."""
        return self._connected and self._thread.is_alive()

    def stats(self) -> dict:
        """The dashboard's health: broker, tables, messages dropped and why."""
        with self._cond:
            return {"broker_ok": self.broker_ok, "refused": self.refused, "tables": len(self._tables),
                    "records": len(self._records), "bytes": self.kept_bytes, "waiting": self._inbox.waiting(),
                    "dropped": dict(self.dropped),
                    "recent_drops": [{"topic": t, "why": w} for t, w in self.recent_drops]}

    # -- the MQTT thread --------------------------------------------------------
    def _run(self) -> None:
        try:
            self._client.loop_forever(retry_first_connection=True)
        except BaseException as exc:     # noqa: BLE001 - said once; broker_ok tells the page
            print(f"maxima-board dashboard: the MQTT client stopped: {exc!r}", file=sys.stderr, flush=True)
        finally:
            with self._cond:
                self._connected = False
                self._bump(None)

    def _on_connect(self, client, userdata, flags, reason_code, properties) -> None:
        if reason_code.is_failure:
            self.refused = say_refusal(f"dashboard {self.club}", self.refused, str(reason_code))
            return
        base = f"{ROOT}/{self.club}/+"
        client.subscribe([(f"{base}/state", 1), (f"{base}/status", 1), (f"{base}/games/+", 1)])
        with self._cond:
            self.refused = None
            self._connected = True
            self._bump(None)

    def _on_disconnect(self, client, userdata, flags, reason_code, properties) -> None:
        with self._cond:
            self._connected = False
            self._bump(None)

    def _on_message(self, client, userdata, message) -> None:
        """The MQTT thread: topic and schema only; the rest waits in the inbox."""
        topic = message.topic
        try:
            table, kind, number = self._topic(topic)
            payload = message.payload
            decoded = schema.decode(kind, payload) if payload else None     # None: deleted
            why = self._inbox.put(table, (kind, number), (topic, decoded, len(payload)), len(payload))
            if why is not None:
                self._drop(topic, "busy", why)
        except schema.BadMessage as exc:
            self._drop(topic, "invalid", str(exc))
        except Exception as exc:         # noqa: BLE001 - no message may stop the thread
            self._drop(topic, "error", f"{type(exc).__name__}: {exc}")

    def _topic(self, topic: str) -> tuple[str, str, int | None]:
        """(table, kind, game number or None) of a table's topic; BadMessage otherwise."""
        parts = topic.split("/")
        if len(parts) not in (4, 5) or parts[0] != ROOT or parts[1] != self.club or not _TABLE_WORD.match(parts[2]):
            raise schema.BadMessage("not a table's topic")
        if parts[3] == "games":
            if len(parts) != 5 or not re.fullmatch(r"[0-9]{1,15}", parts[4]) or int(parts[4]) < 1:
                raise schema.BadMessage("games/<n>: n must be a game number")
            return parts[2], "games", int(parts[4])
        if parts[3] not in ("state", "status") or len(parts) != 4:
            raise schema.BadMessage("not a table's topic")
        return parts[2], parts[3], None

    def _drop(self, topic: str, kind: str, why: str) -> None:
        with self._cond:
            self.dropped[kind] = self.dropped.get(kind, 0) + 1
            self.recent_drops.append((topic[:200], f"{kind}: {why}"[:300]))
            parts = topic.split("/")
            entry = self._tables.get(parts[2]) if len(parts) > 2 else None
            if entry is not None:
                entry["dropped"] = entry.get("dropped", 0) + 1

    # -- the worker thread (maxima_board.club.inbox) -----------------------------
    def _work(self, table: str, key: Hashable, item: tuple) -> Iterator[None]:
        topic, message, size = item
        try:
            if message is None:
                self._delete(table, *key)
            elif isinstance(message, schema.State):
                yield from self._take_state(topic, table, message, size)
            elif isinstance(message, schema.Status):
                self._take_status(topic, table, message)
            else:
                yield from self._take_record(topic, table, key[1], message, size)
        except schema.BadMessage as exc:
            self._drop(topic, "invalid", str(exc))
        except Exception as exc:         # noqa: BLE001 - no message may stop the worker
            self._drop(topic, "error", f"{type(exc).__name__}: {exc}")

    def _too_big(self, key: tuple[str, int | None], size: int) -> bool:
        return self.kept_bytes - self._sizes.get(key, 0) + size > self.max_bytes

    def _refused(self, topic: str, table: str, order: tuple[int, int], now: float, size: int) -> bool:
        """Whether a state of ``order`` is dropped before it is checked (and counted)."""
        entry = self._tables.get(table)
        verdict = judge(entry, order, now, self.stale_s)
        if verdict in ("stale", "implausible"):
            self._drop(topic, verdict, f"state {order} after {entry['order']}")
        elif verdict == "same":
            return True
        elif entry is None and len(self._tables) >= self.max_tables \
                and self._places.weakest(self._tables, self._places.claim(table, order), now) is None:
            self._places.remember(table, order=order)
            self._drop(topic, "too-many-tables", f"at most {self.max_tables} tables")
        elif self._too_big((table, None), size):
            self._drop(topic, "too-much-data", f"the dashboard keeps at most {self.max_bytes} bytes")
        else:
            return False
        return True

    def _take_state(self, topic: str, table: str, message: schema.State, size: int) -> Iterator[None]:
        with self._cond:
            if self._refused(topic, table, message.order, time.monotonic(), size):
                return
            cursor = best_cursor(message.variant, message.start_fen, message.moves,
                                 self._cursors.get(table), self._working.pop(table, None))
        position = schema.check_state_shape(message, table)
        yield from steps_kept(cursor, message.moves, self._working, table)
        if cursor.fen != position.fen():
            raise schema.BadMessage("fen: not the position the moves lead to")
        with self._cond:
            now = time.monotonic()
            entry = self._tables.get(table)
            verdict = judge(entry, message.order, now, self.stale_s)
            if verdict == "check":                       # the first of two after a stall
                entry["candidate"] = message.order
                self._working[table] = cursor
                self._drop(topic, "stale", f"state {message.order} after {entry['order']} (kept in mind)")
                return
            if verdict not in ("new", "takeover") or (entry is None and not self._place(table, message.order, now)):
                return                                   # things changed meanwhile
            self._believe(table, message, verdict, cursor, size, now)

    def _place(self, table: str, order: tuple[int, int], now: float) -> bool:
        """Whether new table ``table`` gets a place (giving up a weaker table's)."""
        if len(self._tables) >= self.max_tables:
            weakest = self._places.weakest(self._tables, self._places.claim(table, order), now)
            if weakest is None:
                self._places.remember(table, order=order)
                return False
            self._forget_table(weakest)
        entry = self._entry(table)
        seen = self._places.take(table)
        if "online" in seen:
            entry["online"], entry["status_boot"] = seen["online"], seen["status_boot"]
        return True

    def _believe(self, table: str, message: schema.State, verdict: str, cursor: Cursor, size: int,
                 now: float) -> None:
        entry = self._entry(table)
        old_game = (entry["state"] or {}).get("game")
        entry["state"], entry["order"] = schema.to_dict(message), message.order
        entry["advances"] = entry.get("advances", -1) + 1
        entry["changed"] = entry["heard"] = now
        entry.pop("candidate", None)
        if entry["status_boot"] < message.boot:         # a status of an earlier start says nothing now
            entry["online"] = None
        elif verdict == "takeover" or entry["status_boot"] - message.boot > BOOT_JUMP:
            entry["online"], entry["status_boot"] = None, message.boot     # a forged status goes with its state
        self._size((table, None), size)
        entry.pop("svg", None)
        self._cursors[table] = cursor
        self._working.pop(table, None)
        if message.game != old_game:
            self._records.changed()
        self._bump(table)

    def _take_status(self, topic: str, table: str, message: schema.Status) -> None:
        with self._cond:
            entry = self._tables.get(table)
            if entry is None and len(self._tables) >= self.max_tables:
                self._places.remember(table, online=message.online, status_boot=message.boot)
                self._drop(topic, "too-many-tables", f"at most {self.max_tables} tables")
                return
            entry = self._entry(table)
            newest = max(entry["status_boot"], entry["order"][0] if entry["order"] else 0)
            if message.boot < newest:          # the last will of an earlier start, come late
                self._drop(topic, "stale", f"status of start {message.boot} after start {newest}")
                return
            if entry["order"] is not None and message.boot - newest > BOOT_JUMP:
                self._drop(topic, "implausible", f"status of start {message.boot} after start {newest}")
                return
            entry["online"], entry["status_boot"] = message.online, message.boot
            entry["heard"] = time.monotonic()
            self._bump(table)

    def _take_record(self, topic: str, table: str, number: int, message: schema.Record,
                     size: int) -> Iterator[None]:
        if message.game != number:
            raise schema.BadMessage(f"game {message.game} in the topic of game {number}")
        with self._cond:
            why = self._records.room(table, number, len(message.moves))
            if why is not None:
                self._drop(topic, "too-many-plies", why)
                return
            if table not in self._tables and len(self._tables) >= self.max_tables:
                self._drop(topic, "too-many-tables", f"at most {self.max_tables} tables")
                return
            if self._too_big((table, number), size):
                self._drop(topic, "too-much-data", f"the dashboard keeps at most {self.max_bytes} bytes")
                return
            cursor = self._records.start(table, message)
        yield from self._records.replay(table, message, cursor)
        data = schema.to_dict(message)
        with self._cond:
            if table not in self._tables:
                if len(self._tables) >= self.max_tables:
                    self._drop(topic, "too-many-tables", f"at most {self.max_tables} tables")
                    return
                self._entry(table)
            for n in self._records.keep(table, data, cursor):
                self._size((table, n), 0)
            self._size((table, number), size)
            self._bump(None)

    def _size(self, key: tuple[str, int | None], size: int) -> None:
        self.kept_bytes += size - self._sizes.pop(key, 0)
        if size:
            self._sizes[key] = size

    def _entry(self, table: str) -> dict[str, Any]:
        entry = self._tables.get(table)
        if entry is None:
            entry = self._tables[table] = {"table": table, "online": None, "state": None, "order": None,
                                           "status_boot": 0, "dropped": 0, "heard": time.monotonic(),
                                           "placed": time.monotonic()}
        return entry

    def _forget_table(self, table: str) -> None:
        """Gives up ``table``: its state, status and records."""
        del self._tables[table]
        for key in [k for k in self._sizes if k[0] == table]:
            if key[1] is not None:
                self._records.drop(table, key[1])
            self._size(key, 0)
        self._cursors.pop(table, None)
        self._working.pop(table, None)
        self._bump(None)

    def _delete(self, table: str, kind: str, number: int | None) -> None:
        """A zero-length retained message: the board's message was deleted."""
        with self._cond:
            entry = self._tables.get(table)
            if kind == "games":
                if self._records.drop(table, number):
                    self._size((table, number), 0)
                    self._bump(None)
                return
            if entry is None:
                return
            if kind == "state":
                entry["state"] = entry["order"] = None
                entry.pop("candidate", None)
                self._size((table, None), 0)
                entry.pop("svg", None)
                self._cursors.pop(table, None)
                self._working.pop(table, None)
                self._records.changed()          # the records beyond its game count again
            else:
                entry["online"], entry["status_boot"] = None, 0
            if entry["state"] is None and entry["online"] is None and table not in self._records.tables():
                del self._tables[table]
                self._bump(None)
            else:
                self._bump(table)

    def _bump(self, table: str | None) -> None:
        self.version += 1
        if table is not None:
            self._tables[table]["version"] = self.version
            self._tables[table]["updated"] = int(time.time() * 1000)
        self._cond.notify_all()

    # -- readers ----------------------------------------------------------------
    def tables(self, since: int = 0, svg: bool = False) -> list[dict]:
        """The tables (changed after version ``since``), in natural order."""
        with self._cond:
            chosen = [e for e in self._tables.values() if e.get("version", 0) > since]
            chosen.sort(key=lambda e: natural_key(e["table"]))
            out = []
            for entry in chosen:
                state = entry["state"] or {}
                item = {"table": entry["table"], "online": entry["online"], "updated": entry.get("updated"),
                        "dropped": entry.get("dropped", 0),
                        **{k: state.get(k) for k in ("game", "tags", "variant", "title", "fen", "turn", "moves", "sans",
                                                     "last", "result", "reason", "clocks", "mode", "boot", "seq",
                                                     "at")}}
                if svg and state.get("fen"):
                    if "svg" not in entry:
                        try:
                            entry["svg"] = board_svg(state["fen"], state.get("leds"), state.get("last"),
                                                     cell=24, coordinates=True,
                                                     variant=state.get("variant") or "maxima")
                        except ValueError:
                            entry["svg"] = ""
                    item["svg"] = entry["svg"]
                out.append(item)
            return out

    def wait_newer(self, version: int, timeout: float) -> int:
        with self._cond:
            self._cond.wait_for(lambda: self.version > version, timeout)
            return self.version

    def _current(self) -> dict[str, int | None]:
        return {table: (entry["state"] or {}).get("game") for table, entry in self._tables.items()}

    def rounds(self) -> list[str]:
        """The rounds of the games shown (their Round tags), in natural order."""
        with self._cond:
            return self._records.rounds(self._current())

    def round_text(self, round_name: str) -> str:
        """Every game of the round, table by table, as one PGN-style file
        ("" when none): texts made when each record was taken, joined once
        per change (maxima_board.club.records)."""
        with self._cond:
            return self._records.round_text(round_name, self._current())
