"""The club's tables as the broker tells them: the newest state of every
table and the record of every game, kept by the MQTT client's thread and
read by the dashboard's web server. The client speaks MQTT 5 and tells the
broker the largest packet it takes, so oversized messages stay at the broker.

Every message is hostile until maxima_board.club.schema has checked it. A message
that does not fit is dropped and counted (``stats``, and ``dropped`` per
table in ``tables``), never raised in the MQTT thread; ``broker_ok`` is
false whenever that thread is not connected or has died. A table's states
are ordered by the board's (start count, sequence number), never by its
wall clock. A zero-length retained message means "deleted". At most
``max_tables`` tables, ``games_per_table`` records per table and
``max_bytes`` of payloads are kept.
"""
from __future__ import annotations

import re
import secrets
import sys
import threading
import time
from collections import deque
from typing import Any

from maxima_board.rules.record import GameRecord
from maxima_board.webbase.svg import board_svg

from . import schema
from .connection import BrokerAuth, connect_properties, make_client, say_refusal
from .topics import ROOT, parse_broker, topic_word

MAX_TABLES = 256
GAMES_PER_TABLE = 64
MAX_BYTES = 32 << 20        # of kept payloads (states and records): a club's round needs a few MB
CLUB_TAG = "Table"          # the club's own tag: which table played the game
# Tags that say which game a record is: taken from the record itself, never from the board's tags.
GAME_TAGS = frozenset(("Variant", "Board", "Forces", "Rules", "FEN", "SetUp", "Result", "Termination", CLUB_TAG))
_PGN_RESULT = {"1/2": "1/2-1/2"}
_TABLE_WORD = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")


def _table_key(name: str) -> tuple:
    """Tables in natural order: 2 before 10."""
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in re.split(r"(\d+)", name) if p)


def record_text(table: str, record: dict) -> str:
    """A broadcast game record (maxima_board.club.topics.game_record) as PGN-style
    text (maxima_board.rules.record). The game's own tags (Variant, and Optima's Board,
    Forces, Rules) come from its replayed position; the board's tags (Event,
    Round, White, ...) cannot replace them; the club's own tag ``Table``
    names the table. BadMessage (a ValueError) if the record does not replay."""
    position = schema.replay(record.get("variant") or "maxima", record.get("start_fen"),
                             list(record.get("moves") or []))
    board_tags = {str(k): str(v) for k, v in (record.get("tags") or {}).items() if k not in GAME_TAGS}
    game = GameRecord.from_position(position, **board_tags)
    result = record.get("result") or "*"
    game.tags["Result"] = _PGN_RESULT.get(result, result)
    if record.get("reason"):
        game.tags["Termination"] = str(record["reason"])
    game.tags[CLUB_TAG] = table
    return game.to_text()


class ClubTables:
    """The tables of ``club`` as the broker tells them; thread-safe."""

    def __init__(self, broker: str, club: str, *, keepalive: int = 10, auth: BrokerAuth | None = None,
                 max_tables: int = MAX_TABLES, games_per_table: int = GAMES_PER_TABLE, max_bytes: int = MAX_BYTES):
        host, port = parse_broker(broker)
        self.club = topic_word(club, "club")
        self.max_tables, self.games_per_table, self.max_bytes = max_tables, games_per_table, max_bytes
        self._sizes: dict[tuple[str, int | None], int] = {}     # (table, game or None: state) -> payload bytes
        self.kept_bytes = 0
        self._cond = threading.Condition()
        self._tables: dict[str, dict[str, Any]] = {}
        self._records: dict[tuple[str, int], dict] = {}
        self._known: dict[str, tuple] = {}           # table -> its last replay (schema.replay's known)
        self.version = 0
        self._connected = False
        self.refused: str | None = None              # why the broker last refused us
        self.dropped: dict[str, int] = {}            # why -> messages dropped
        self.recent_drops: deque[tuple[str, str]] = deque(maxlen=20)     # (topic, why), newest last
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

    @property
    def broker_ok(self) -> bool:
        """Connected to the broker, with a live MQTT thread."""
        return self._connected and self._thread.is_alive()

    def stats(self) -> dict:
        """The dashboard's health: broker, tables, messages dropped and why."""
        with self._cond:
            return {"broker_ok": self.broker_ok, "refused": self.refused, "tables": len(self._tables),
                    "records": len(self._records), "bytes": self.kept_bytes, "dropped": dict(self.dropped),
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
        topic = message.topic
        try:
            self._take(topic, message.payload)
        except schema.BadMessage as exc:
            self._drop(topic, "invalid", str(exc))
        except Exception as exc:         # noqa: BLE001 - no message may stop the thread
            self._drop(topic, "error", f"{type(exc).__name__}: {exc}")

    def _drop(self, topic: str, kind: str, why: str) -> None:
        with self._cond:
            self.dropped[kind] = self.dropped.get(kind, 0) + 1
            self.recent_drops.append((topic[:200], f"{kind}: {why}"[:300]))
            parts = topic.split("/")
            entry = self._tables.get(parts[2]) if len(parts) > 2 else None
            if entry is not None:
                entry["dropped"] = entry.get("dropped", 0) + 1

    def _take(self, topic: str, payload: bytes) -> None:
        parts = topic.split("/")
        if len(parts) not in (4, 5) or parts[0] != ROOT or parts[1] != self.club or not _TABLE_WORD.match(parts[2]):
            raise schema.BadMessage("not a table's topic")
        table, kind = parts[2], parts[3]
        number = None
        if kind == "games":
            if len(parts) != 5 or not re.fullmatch(r"[0-9]{1,15}", parts[4]) or int(parts[4]) < 1:
                raise schema.BadMessage("games/<n>: n must be a game number")
            number = int(parts[4])
        elif kind not in ("state", "status") or len(parts) != 4:
            raise schema.BadMessage("not a table's topic")
        if not payload:
            self._delete(table, kind, number)
            return
        message = schema.decode(kind, payload)           # BadMessage: too big, wrong types
        with self._cond:
            known = self._known.get(table)
            old = self._tables.get(table)
        if old is None and len(self._tables) >= self.max_tables:
            self._drop(topic, "too-many-tables", f"at most {self.max_tables} tables")
            return
        key = (table, number)
        if isinstance(message, (schema.State, schema.Record)) and \
                self.kept_bytes - self._sizes.get(key, 0) + len(payload) > self.max_bytes:
            self._drop(topic, "too-much-data", f"the dashboard keeps at most {self.max_bytes} bytes")
            return
        if isinstance(message, schema.State):
            if old is not None and old["order"] is not None and message.order <= old["order"]:
                if message.order < old["order"]:
                    self._drop(topic, "stale", f"state {message.order} after {old['order']}")
                return
            position = schema.check_state(message, table, known)
            with self._cond:
                entry = self._entry(table)
                if entry["order"] is not None and message.order <= entry["order"]:
                    return
                entry["state"], entry["order"] = schema.to_dict(message), message.order
                if entry["status_boot"] < message.boot:     # a status of an earlier start says nothing now
                    entry["online"] = None
                self._size(key, len(payload))
                entry.pop("svg", None)
                self._known[table] = (message.variant, message.start_fen or position.variant.start_fen,
                                      tuple(message.moves), position.fen())
                self._bump(table)
        elif isinstance(message, schema.Status):
            with self._cond:
                entry = self._entry(table)
                newest = max(entry["status_boot"], entry["order"][0] if entry["order"] else 0)
                if message.boot < newest:          # the last will of an earlier start, come late
                    self._drop(topic, "stale", f"status of start {message.boot} after start {newest}")
                    return
                entry["online"], entry["status_boot"] = message.online, message.boot
                self._bump(table)
        else:
            schema.check_record(message, number)
            with self._cond:
                self._entry(table)
                self._records[key] = schema.to_dict(message)
                self._size(key, len(payload))
                mine = sorted(n for t, n in self._records if t == table)
                for n in mine[:max(0, len(mine) - self.games_per_table)]:
                    del self._records[(table, n)]
                    self._size((table, n), 0)
                self._bump(None)

    def _size(self, key: tuple[str, int | None], size: int) -> None:
        self.kept_bytes += size - self._sizes.pop(key, 0)
        if size:
            self._sizes[key] = size

    def _entry(self, table: str) -> dict[str, Any]:
        entry = self._tables.get(table)
        if entry is None:
            entry = self._tables[table] = {"table": table, "online": None, "state": None, "order": None,
                                           "status_boot": 0, "dropped": 0}
        return entry

    def _delete(self, table: str, kind: str, number: int | None) -> None:
        """A zero-length retained message: the board's message was deleted."""
        with self._cond:
            entry = self._tables.get(table)
            if kind == "games":
                if self._records.pop((table, number), None) is not None:
                    self._size((table, number), 0)
                    self._bump(None)
                return
            if entry is None:
                return
            if kind == "state":
                entry["state"] = entry["order"] = None
                self._size((table, None), 0)
                entry.pop("svg", None)
                self._known.pop(table, None)
            else:
                entry["online"], entry["status_boot"] = None, 0
            if entry["state"] is None and entry["online"] is None \
                    and not any(t == table for t, _ in self._records):
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
            chosen.sort(key=lambda e: _table_key(e["table"]))
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
                                                     cell=24, coordinates=False,
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

    def _games(self) -> list[tuple[str, int, dict]]:
        """The records worth showing: a table's games up to the one its
        board plays now (a record numbered beyond it is not the board's)."""
        out = []
        for (table, number), record in self._records.items():
            entry = self._tables.get(table)
            current = ((entry or {}).get("state") or {}).get("game")
            if current is None or number <= current:
                out.append((table, number, record))
        return out

    def rounds(self) -> list[str]:
        with self._cond:
            return sorted({str((r.get("tags") or {}).get("Round", "-")) for _, _, r in self._games()},
                          key=_table_key)

    def round_text(self, round_name: str) -> str:
        """Every game of the round, table by table, as one PGN-style file;
        a game that cannot be written is left out and named in a ``%`` line
        (which PGN readers skip) at the end."""
        with self._cond:
            games = [(table, number, record) for table, number, record in self._games()
                     if str((record.get("tags") or {}).get("Round", "-")) == round_name]
        games.sort(key=lambda g: (_table_key(g[0]), g[1]))
        texts, skipped = [], []
        for table, number, record in games:
            try:
                texts.append(record_text(table, record))
            except Exception as exc:     # noqa: BLE001 - one bad game never costs the round
                skipped.append(f"% skipped: table {table} game {number}: {exc}".replace("\n", " ")[:300])
        if not texts and not skipped:
            return ""
        return "\n".join(texts) + "".join("\n" + line for line in skipped) + ("\n" if skipped else "")
