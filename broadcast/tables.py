"""The club's tables as the broker tells them: the newest state of every
table and the record of every game, kept by the MQTT client's thread and
read by the dashboard's web server."""
from __future__ import annotations

import json
import re
import secrets
import threading
import time
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from engine.record import GameRecord
from webpage.svg import board_svg

from .topics import ROOT, parse_broker, topic_word

_PGN_RESULT = {"1/2": "1/2-1/2"}


def _table_key(name: str) -> tuple:
    """Tables in natural order: 2 before 10."""
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in re.split(r"(\d+)", name) if p)


def record_text(table: str, record: dict) -> str:
    """A broadcast game record as PGN-style text (engine.record)."""
    tags = {k: str(v) for k, v in (record.get("tags") or {}).items()}
    tags["Result"] = _PGN_RESULT.get(record.get("result") or "*", record.get("result") or "*")
    tags["Variant"] = record.get("title") or "Maxima"
    tags["Board"] = table
    game = GameRecord(tags, list(record.get("moves") or []))
    if record.get("start_fen") and record["start_fen"] != game.start_fen:
        game.tags["FEN"] = record["start_fen"]
    if record.get("reason"):
        game.tags["Termination"] = record["reason"]
    return game.to_text()


class ClubTables:
    """The tables of ``club`` as the broker tells them; thread-safe."""

    def __init__(self, broker: str, club: str, *, keepalive: int = 10):
        host, port = parse_broker(broker)
        self.club = topic_word(club, "club")
        self._cond = threading.Condition()
        self._tables: dict[str, dict[str, Any]] = {}
        self._records: dict[tuple[str, int], dict] = {}
        self.version = 0
        self.broker_ok = False
        client = mqtt.Client(CallbackAPIVersion.VERSION2,
                             client_id=f"maxima-dashboard-{self.club}-{secrets.token_hex(3)}", clean_session=True)
        client.reconnect_delay_set(1, 2)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        self._client = client
        client.connect_async(host, port, keepalive)
        client.loop_start()

    def close(self) -> None:
        self._client.disconnect()
        self._client.loop_stop()

    # -- paho's thread ----------------------------------------------------------
    def _on_connect(self, client, userdata, flags, reason_code, properties) -> None:
        if reason_code.is_failure:
            return
        base = f"{ROOT}/{self.club}/+"
        client.subscribe([(f"{base}/state", 1), (f"{base}/status", 1), (f"{base}/games/+", 1)])
        with self._cond:
            self.broker_ok = True
            self._bump(None)

    def _on_disconnect(self, client, userdata, flags, reason_code, properties) -> None:
        with self._cond:
            self.broker_ok = False
            self._bump(None)

    def _on_message(self, client, userdata, message) -> None:
        parts = message.topic.split("/")
        if len(parts) < 4:
            return
        table, kind = parts[2], parts[3]
        try:
            data = json.loads(message.payload)
        except ValueError:
            return
        if not isinstance(data, dict):
            return
        with self._cond:
            entry = self._tables.setdefault(table, {"table": table, "online": None, "state": None})
            if kind == "status":
                entry["online"] = bool(data.get("online"))
            elif kind == "state":
                old = entry["state"]
                if old is not None and (old.get("at") or 0, old.get("seq") or 0) > (data.get("at") or 0, data.get("seq") or 0):
                    return    # an older state arriving late
                entry["state"] = data
                entry.pop("svg", None)
            elif kind == "games" and len(parts) == 5 and parts[4].isdigit():
                self._records[(table, int(parts[4]))] = data
                return
            else:
                return
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
                        **{k: state.get(k) for k in ("game", "tags", "variant", "title", "fen", "turn", "moves", "sans",
                                                     "last", "result", "reason", "clocks", "mode", "seq", "at")}}
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

    def rounds(self) -> list[str]:
        with self._cond:
            return sorted({str((r.get("tags") or {}).get("Round", "-")) for r in self._records.values()},
                          key=_table_key)

    def round_text(self, round_name: str) -> str:
        """Every game of the round, table by table, as one PGN-style file."""
        with self._cond:
            games = [(table, number, record) for (table, number), record in self._records.items()
                     if str((record.get("tags") or {}).get("Round", "-")) == round_name]
        games.sort(key=lambda g: (_table_key(g[0]), g[1]))
        return "\n".join(record_text(table, record) for table, _, record in games)
