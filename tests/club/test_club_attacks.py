"""Issue 22's attacks on the broadcast, with real parts: rogue messages
through a real Mosquitto (findings 2-5), markup injection seen by headless
Chromium (finding 3), and the club's broker set up as docs/club.md says
(finding 6). Also issue 20's late broker, reached by host name."""
from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
import threading
import time
import urllib.error
import urllib.request
import xml.dom.minidom

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from maxima_board.club.connection import BrokerAuth
from maxima_board.club.publisher import BoardPublisher
from maxima_board.club.schema import MAX_MESSAGE, BadMessage, check_record, check_state, decode, to_dict
from maxima_board.club.tables import ClubTables, record_text
from maxima_board.club.topics import table_messages
from maxima_board.cli.club import start_club
from maxima_board.service.feed import BoardFeed
from maxima_board.service.script import Runner
from maxima_board.board.settings import Settings
from maxima_board.rules import Position, variants
from maxima_board.rules.record import GameRecord
from maxima_board.webbase.svg import board_svg

from .conftest import MAXIMA_BOARD, mosquitto_binary, wait_for
from .games import long_game, quiet_game
from .mosquitto import Broker, certificates
from .test_club_broadcast import Listener, get_json, start_dashboard, stop_dashboard

INJECTION = '"/><meta http-equiv="refresh" content="0;url=/pwned"><rect x="'


class Client:
    """A raw paho client (what an attacker, or a board, sends): connects,
    says whether the broker took it, publishes and waits for the ack."""

    def __init__(self, broker, user: str | None = None):
        self.result: str | None = None
        self.connected = threading.Event()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2)
        if user is not None:
            self.client.username_pw_set(user, broker.password_file(user).read_text().strip())
        self.client.on_connect = self._on_connect
        self.client.connect("127.0.0.1", broker.port)
        self.client.loop_start()

    def _on_connect(self, client, userdata, flags, reason_code, properties):
        self.result = str(reason_code)
        self.connected.set()

    def accepted(self) -> bool:
        assert self.connected.wait(10), "the broker did not answer"
        return self.result == "Success"

    def publish(self, topic: str, payload: bytes, retain: bool = True) -> None:
        info = self.client.publish(topic, payload, qos=1, retain=retain)
        info.wait_for_publish(10)

    def close(self):
        self.client.disconnect()
        self.client.loop_stop()


def send(broker, *messages: tuple[str, bytes], user: str | None = None) -> None:
    client = Client(broker, user)
    try:
        assert client.accepted()
        for topic, payload in messages:
            client.publish(topic, payload)
    finally:
        client.close()


def board_snapshot(moves=("d3-d4",), tags=None) -> dict:
    """A real board's snapshot after ``moves`` (canonical, no captures)."""
    runner = Runner(Settings())
    for move in moves:
        a, b = move.split("-")
        runner.lift(a), runner.place(b), runner.wait(400)
    snapshot = BoardFeed().update(runner.controller)
    snapshot["tags"].update(tags or {})
    return snapshot


def board_messages(club: str, table: str, moves=("d3-d4",), tags=None, boot: int = 1) -> dict[str, bytes]:
    """What a real board publishes after ``moves``."""
    return table_messages(club, table, board_snapshot(moves, tags), boot)


def tables_of(tables: ClubTables) -> dict[str, dict]:
    return {t["table"]: t for t in tables.tables()}


@pytest.fixture
def watch(broker):
    """An in-process ClubTables of a club of its own (retained messages of
    other tests stay out); closed, and the club's retained messages cleared."""
    made = []

    def make(club: str, **options) -> ClubTables:
        tables = ClubTables(broker.address, club, **options)
        made.append((club, tables))
        wait_for(lambda: tables.broker_ok, what="the dashboard connected")
        return tables

    yield make
    for club, tables in made:
        tables.close()
        _clear_retained(broker, club)


def _clear_retained(broker, club: str) -> None:
    """Zero-length retained messages on every topic of ``club`` still retained."""
    seen = Listener(broker, f"maxima-board/{club}/#", raw=True)
    time.sleep(0.5)
    seen.close()
    if seen.messages:
        send(broker, *[(topic, b"") for topic in seen.messages])


# -- finding 2: two anonymous messages killed the dashboard's MQTT thread ----------------------------
def test_two_rogue_states_neither_kill_the_mqtt_thread_nor_get_kept(broker, watch):
    tables = watch("atk2")
    send(broker, ("maxima-board/atk2/1/state", b'{"at":"x"}'), ("maxima-board/atk2/1/state", b'{"at":1}'))
    state = board_messages("atk2", "2")["maxima-board/atk2/2/state"]
    send(broker, ("maxima-board/atk2/2/state", state))
    wait_for(lambda: "2" in tables_of(tables), what="a sound table after the rogue messages")
    assert tables.broker_ok
    assert tables_of(tables)["2"]["moves"] == ["d3-d4"]
    assert "1" not in tables_of(tables)
    assert tables.stats()["dropped"] == {"invalid": 2}


def test_broker_ok_is_false_when_the_mqtt_thread_dies(broker, watch):
    tables = watch("atk2b")

    class Fatal(BaseException):
        pass

    def die(*_):
        raise Fatal("the thread dies")

    tables._client.on_message = die
    send(broker, ("maxima-board/atk2b/1/status", b'{"online":true}'))
    wait_for(lambda: not tables.broker_ok, what="broker_ok to tell the thread died")
    wait_for(lambda: not tables._thread.is_alive(), what="the thread gone")
    assert not tables.broker_ok


# -- finding 3: markup injection through LED states ------------------------------------------------
def test_led_states_and_squares_are_escaped_in_the_svg():
    svg = board_svg("start", {"d4": INJECTION}, None)
    dom = xml.dom.minidom.parseString(svg)          # still one well-formed picture
    assert not dom.getElementsByTagName("meta")
    lit = [r for r in dom.getElementsByTagName("rect") if r.getAttribute("data-square") == "d4"]
    assert lit[0].getAttribute("data-led") == INJECTION


def test_injected_led_states_do_not_reach_the_browser(broker, browser):
    url, process = start_dashboard(broker, "--club", "atk3")
    try:
        evil = json.loads(board_messages("atk3", "evil")["maxima-board/atk3/evil/state"])
        evil["leds"] = {"d4": INJECTION}
        send(broker, ("maxima-board/atk3/evil/state", json.dumps(evil).encode()),
             ("maxima-board/atk3/ok/state", board_messages("atk3", "ok")["maxima-board/atk3/ok/state"]))
        browser.get(url)
        wait_for(lambda: browser.find_elements("css selector", 'article.table[data-table="ok"] svg g.piece'),
                 what="the sound table's card")
        time.sleep(1.5)                                      # a refresh of 0 s would have happened
        assert browser.current_url == url
        assert not browser.find_elements("css selector", "meta[http-equiv]")
        assert not browser.find_elements("css selector", 'article.table[data-table="evil"] svg rect[data-led]')
        assert any(t["table"] == "ok" and t["dropped"] == 0 for t in get_json(url + "api/tables"))
    finally:
        stop_dashboard(process)
        _clear_retained(broker, "atk3")


# -- finding 4: retained malformed messages ----------------------------------------------------------
def _first_event(url: str) -> dict:
    with urllib.request.urlopen(url + "events", timeout=10) as r:
        for line in r:
            if line.startswith(b"data: "):
                return json.loads(line[6:])
    raise AssertionError("the event stream closed without an event")


def test_retained_malformed_messages_break_nothing_even_after_a_restart(broker, watch):
    base = "maxima-board/atk4"
    good = board_messages("atk4", "5", tags={"Round": "r4"})
    leds_list = json.loads(good[f"{base}/5/state"])
    leds_list["leds"], leds_list["table"] = ["d4"], "1"
    tags_text = json.loads(good[f"{base}/5/state"])
    tags_text["tags"], tags_text["table"] = "White", "2"
    bad_move = json.loads(good[f"{base}/5/games/1"])
    bad_move["moves"] = ["d3-d4", "zz-zz"]
    record_tags = json.loads(good[f"{base}/5/games/1"])
    record_tags["tags"] = "Round r4"
    send(broker, (f"{base}/1/state", json.dumps(leds_list).encode()),
         (f"{base}/2/state", json.dumps(tags_text).encode()), (f"{base}/2/games/1", json.dumps(record_tags).encode()),
         (f"{base}/3/games/1", json.dumps(bad_move).encode()),
         (f"{base}/5/state", good[f"{base}/5/state"]), (f"{base}/5/games/1", good[f"{base}/5/games/1"]),
         (f"{base}/6/state", b""), (f"{base}/6/games/1", b""))
    for attempt in range(2):          # the retained messages meet a fresh dashboard twice
        url, process = start_dashboard(broker, "--club", "atk4")
        try:
            event = wait_for(lambda: (lambda e: e if e["tables"] else None)(_first_event(url)),
                             what="the event stream's tables")
            assert [t["table"] for t in event["tables"]] == ["5"] and event["broker_ok"] is True
            assert "<svg" in event["tables"][0]["svg"]
            wait_for(lambda: get_json(url + "api/rounds") == ["r4"], 5, "the round (its record comes after the state)")
            with urllib.request.urlopen(url + "round/r4.pgn", timeout=10) as r:
                text = r.read().decode()
            record = GameRecord.from_text(text)
            assert record.tags["Table"] == "5" and record.moves == ["d3-d4"]
            assert "zz-zz" not in text
        finally:
            stop_dashboard(process)
    tables = watch("atk4")
    wait_for(lambda: tables.stats()["dropped"].get("invalid") == 4, what="four bad messages counted")
    assert tables.stats()["records"] == 1


def test_a_zero_length_retained_message_deletes_what_it_replaces(broker, watch):
    tables = watch("atk4z")
    base = "maxima-board/atk4z/7"
    good = board_messages("atk4z", "7", tags={"Round": "z"})
    send(broker, *good.items())
    wait_for(lambda: tables.rounds() == ["z"] and "7" in tables_of(tables), what="the table and its record")
    send(broker, (f"{base}/games/1", b""))
    wait_for(lambda: tables.rounds() == [], what="the deleted record gone")
    send(broker, (f"{base}/state", b""), (f"{base}/status", b""))
    wait_for(lambda: "7" not in tables_of(tables), what="the deleted table gone")
    assert tables.broker_ok and tables.stats()["dropped"] == {}


def test_a_round_of_an_optima_and_a_maxima_game(broker, watch):
    """Optima's own Board tag (O15) and the club's Table tag, apart."""
    tables = watch("atk4o")
    optima = Runner(Settings(variant="optima"))
    runner_moves = [str(m) for m in optima.controller.position.legal_moves][:1]
    feed = BoardFeed()
    position = optima.controller.position
    position.push(position.parse_move(runner_moves[0]))
    snapshot = feed.update(optima.controller)
    snapshot["tags"]["Round"] = "3"
    send(broker, *table_messages("atk4o", "1", snapshot, 1).items())
    send(broker, *board_messages("atk4o", "2", tags={"Round": "3"}).items())
    wait_for(lambda: tables.stats()["records"] == 2 and len(tables.tables()) == 2, what="both tables and records")
    assert [(t["table"], t["variant"]) for t in tables.tables()] == [("1", "optima"), ("2", "maxima")]
    assert tables.stats()["dropped"] == {}
    text = tables.round_text("3")
    games = [GameRecord.from_text(chunk) for chunk in re.split(r"\n(?=\[Event )", text)]
    assert [(g.tags["Table"], g.tags["Variant"]) for g in games] == [("1", "Optima"), ("2", "Maxima")]
    assert games[0].tags["Board"] == "10x10"
    assert games[0].replay().fen() == position.fen()
    assert games[1].moves == ["d3-d4"]


def test_a_game_that_cannot_be_written_never_reaches_the_round(broker, watch):
    """Its text is made when it arrives: it is dropped then, not at each download."""
    tables = watch("atk4s")
    bad = board_messages("atk4s", "1", tags={"Round": "1"})
    record = json.loads(bad["maxima-board/atk4s/1/games/1"])
    record["moves"] = ["d3-d4", "zz-zz"]
    bad["maxima-board/atk4s/1/games/1"] = json.dumps(record).encode()
    send(broker, *bad.items(), *board_messages("atk4s", "2", tags={"Round": "1"}).items())
    wait_for(lambda: tables.stats()["records"] == 1 and tables.stats()["dropped"].get("invalid") == 1,
             what="one record kept, one dropped")
    text = tables.round_text("1")
    assert text.count("[Event ") == 1 and '[Table "2"]' in text and "zz-zz" not in text


# -- finding 5: spoofing and ordering -----------------------------------------------------------------
def test_a_board_restarted_with_its_clock_behind_is_shown(broker, watch, tmp_path):
    tables = watch("atk5")
    db = str(tmp_path / "games.db")
    moves, boots = [], []
    for boot, move in ((1, "d3-d4"), (2, "c7-c5")):
        services = start_club(db, broker=broker.address, club="atk5", table="1")
        try:
            boots.append(services.publisher.boot)           # the start count beside the database
            assert boots[0] >= time.time() - 60 and boots[-1] == boots[0] + boot - 1
            runner = Runner(Settings())
            moves.append(move)
            for m in moves:
                a, b = m.split("-")
                runner.lift(a), runner.place(b), runner.wait(400)
            snapshot = BoardFeed().update(runner.controller)
            if boot == 2:
                snapshot["at"] -= 3_600_000                 # no RTC: the clock an hour behind
            services.publisher.update(snapshot)
            assert services.publisher.flush(10)
        finally:
            services.close()
        wait_for(lambda: tables_of(tables)["1"]["moves"] == moves, what=f"start {boot}'s state")
    (tmp_path / "broadcast-boot").unlink()              # a new SD card: the count is lost ...
    time.sleep(2.1)                                     # ... some seconds later
    services = start_club(db, broker=broker.address, club="atk5", table="1")
    services.close()
    assert services.publisher.boot > boots[-1]
    # a state with a huge wall clock does not freeze the card either
    spoof = json.loads(board_messages("atk5", "1")["maxima-board/atk5/1/state"])
    spoof["at"], spoof["boot"] = 10**13, 0
    send(broker, ("maxima-board/atk5/1/state", json.dumps(spoof).encode()))
    wait_for(lambda: tables.stats()["dropped"].get("stale") == 1, what="the spoof refused as older")
    assert tables_of(tables)["1"]["moves"] == ["d3-d4", "c7-c5"]


def test_a_forged_later_game_stays_out_of_the_round(broker, watch):
    tables = watch("atk5g")
    good = board_messages("atk5g", "1", tags={"Round": "9"})
    forged = json.loads(good["maxima-board/atk5g/1/games/1"])
    forged["game"] = 7
    send(broker, *good.items(), ("maxima-board/atk5g/1/games/7", json.dumps(forged).encode()))
    wait_for(lambda: tables.stats()["records"] == 2, what="both records")
    assert tables.round_text("9").count("[Event ") == 1


# -- finding 6: the broker as docs/club.md sets it up -------------------------------------------------
def test_anonymous_clients_are_refused(secure_broker):
    client = Client(secure_broker)
    try:
        assert not client.accepted() and "authorized" in client.result.lower()
    finally:
        client.close()
    tables = ClubTables(secure_broker.address, "round")
    try:
        wait_for(lambda: tables.refused, what="the dashboard's refusal")
        assert not tables.broker_ok
    finally:
        tables.close()


def test_a_board_writes_only_its_own_table_and_the_dashboard_only_reads(secure_broker):
    b = secure_broker
    tables = ClubTables(b.address, "round", auth=BrokerAuth(b.DASHBOARD, str(b.password_file(b.DASHBOARD))))
    nineteen = board_messages("round", "19", tags={"Round": "own"})
    own = board_messages("round", "live", moves=("e3-e5",))["maxima-board/round/live/state"]
    forged = board_messages("round", "19", moves=("d3-d4", "c7-c5"), boot=5)["maxima-board/round/19/state"]  # "newer"
    try:
        wait_for(lambda: tables.broker_ok, what="the dashboard logged in")
        send(b, *nineteen.items(), user="19")                                   # table 19's own board
        send(b, ("maxima-board/round/19/state", forged), ("maxima-board/round/19/games/1", b""),
             user="live")                                                       # board "live" writes table 19
        send(b, ("maxima-board/round/18/state", forged), user=b.DASHBOARD)      # the dashboard writes
        send(b, ("maxima-board/round/live/state", own),
             ("maxima-board/round/live/state", b"x" * (20 << 20)), user="live")  # 20 MB on its own table
        wait_for(lambda: (tables_of(tables).get("live") or {}).get("moves") == ["e3-e5"], what="its own table")
        time.sleep(1.0)
        shown = tables_of(tables)
        assert shown["19"]["moves"] == ["d3-d4"] and tables.rounds() == ["own"] and "18" not in shown
        assert tables.stats()["dropped"] == {}
        retained = {}                                  # what the broker kept (MQTT 3.1.1, no packet limit)
        reader = mqtt.Client(CallbackAPIVersion.VERSION2)
        reader.username_pw_set(b.DASHBOARD, b.password_file(b.DASHBOARD).read_text().strip())
        reader.on_connect = lambda c, *a: c.subscribe("maxima-board/round/live/state", 1)
        reader.on_message = lambda c, u, m: retained.setdefault(m.topic, m.payload)
        reader.connect("127.0.0.1", b.port)
        reader.loop_start()
        try:
            assert wait_for(lambda: retained.get("maxima-board/round/live/state"), what="the retained state") == own
        finally:
            reader.disconnect()
            reader.loop_stop()
    finally:
        tables.close()
        send(b, *[(topic, b"") for topic in nineteen], user="19")             # each board deletes its own
        send(b, ("maxima-board/round/live/state", b""), user="live")


def test_the_dashboard_caps_tables_and_message_size(broker, watch):
    """On a broker without message_size_limit: the dashboard's MQTT 5
    maximum packet size keeps a big message at the broker, and of 120 fake
    tables it keeps the first 50."""
    tables = watch("atk6", max_tables=50)
    state = board_messages("atk6", "x")["maxima-board/atk6/x/state"]
    client = Client(broker)
    try:
        assert client.accepted()
        client.publish("maxima-board/atk6/big/state", b"[" + b"1," * MAX_MESSAGE + b"1]")
        for n in range(120):
            client.publish(f"maxima-board/atk6/t{n}/state", state.replace(b'"table":"x"', f'"table":"t{n}"'.encode()))
    finally:
        client.close()
    wait_for(lambda: sum(tables.stats()["dropped"].values()) == 70, what="every message handled")
    assert tables.stats()["dropped"] == {"too-many-tables": 70}
    assert len(tables.tables()) == 50 and "big" not in tables_of(tables)


def test_a_message_over_the_size_limit_is_refused_by_the_schema():
    state = board_messages("s", "1")["maxima-board/s/1/state"]
    assert decode("state", state).moves == ["d3-d4"]
    with pytest.raises(BadMessage, match="at most"):
        decode("state", state[:-1] + b"," + b'"x":"' + b"y" * MAX_MESSAGE + b'"}')


# -- issue 20: the broker appears late, named by host name --------------------------------------------
def test_a_board_started_before_the_broker_publishes_once_it_is_up(tmp_path):
    late = Broker(mosquitto_binary(), tmp_path, secure=True, tables=["late"], club="round")
    publisher = BoardPublisher(f"localhost:{late.port}", "round", "late",
                               auth=BrokerAuth("late", str(late.password_file("late"))))
    try:
        publisher.update(board_snapshot())
        time.sleep(2.5)                                     # several failed tries
        assert not publisher.connected and publisher.pending() > 0
        late.start()
        assert publisher.flush(20)
        tables = ClubTables(f"localhost:{late.port}", "round",
                            auth=BrokerAuth(late.DASHBOARD, str(late.password_file(late.DASHBOARD))))
        try:
            wait_for(lambda: (tables_of(tables).get("late") or {}).get("moves") == ["d3-d4"],
                     what="the late board's state")
        finally:
            tables.close()
    finally:
        publisher.close()
        late.stop()


def test_a_wrong_password_is_said(secure_broker, tmp_path):
    wrong = tmp_path / "pw"
    wrong.write_text("not-the-password\n")
    publisher = BoardPublisher(secure_broker.address, "round", "live", auth=BrokerAuth("live", str(wrong)))
    try:
        wait_for(lambda: publisher.refused, what="the refusal")
        assert "authorized" in publisher.refused.lower() and not publisher.connected
    finally:
        publisher.close(0.5)


# -- TLS: the club's own CA, client certificates required -------------------------------------------
def test_boards_and_dashboard_over_tls_with_client_certificates(tmp_path):
    if not shutil.which("openssl"):
        pytest.skip("openssl is not installed")
    certificates(tmp_path)
    b = Broker(mosquitto_binary(), tmp_path, secure=True, tables=["tls"], club="round")
    b.conf.write_text(b.conf.read_text() + f"cafile {tmp_path / 'ca.crt'}\ncertfile {tmp_path / 'broker.crt'}\n"
                      f"keyfile {tmp_path / 'broker.key'}\nrequire_certificate true\n")
    b.start()
    ca, cert, key = (str(tmp_path / f) for f in ("ca.crt", "board.crt", "board.key"))
    publisher = BoardPublisher(b.address, "round", "tls",
                               auth=BrokerAuth("tls", str(b.password_file("tls")), ca, cert, key))
    stranger = BoardPublisher(b.address, "round", "tls",          # trusts another CA: never connects
                              auth=BrokerAuth("tls", str(b.password_file("tls")), str(tmp_path / "other-ca.crt")))
    tables = ClubTables(b.address, "round",
                        auth=BrokerAuth(b.DASHBOARD, str(b.password_file(b.DASHBOARD)), ca, cert, key))
    plain = Client(b, "tls")                                       # no TLS at all
    try:
        publisher.update(board_snapshot())
        assert publisher.flush(15)
        wait_for(lambda: (tables_of(tables).get("tls") or {}).get("moves") == ["d3-d4"], what="the state over TLS")
        assert not stranger.connected and stranger.connects == 0
        assert not plain.connected.wait(2) or plain.result != "Success"
    finally:
        plain.close()
        tables.close()
        stranger.close(0.5)
        publisher.close()
        b.stop()


def test_dashboard_command_says_what_is_wrong_with_its_log_in(tmp_path, broker):
    for options, message in ((["--password-file", str(tmp_path / "none")], "a password needs a username"),
                             (["--username", "d", "--password-file", str(tmp_path / "none")], "password_file"),
                             (["--tls-cert", "x.crt"], "needs the CA file")):
        result = subprocess.run(MAXIMA_BOARD + ["dashboard", "--broker", broker.address, "--port", "0",
                                                "--bind", "127.0.0.1", *options],
                                capture_output=True, text=True, timeout=30)
        assert result.returncode != 0 and message in result.stderr, result.stderr
        assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


def test_a_piece_off_the_games_squares_lit_as_an_error_is_a_sound_state():
    """Ultima on the Maxima board: a piece left on a9 is lit error-extra
    (the controller's way); any other state there, or a square on no board, is not."""
    state = json.loads(board_messages("s", "1", moves=())["maxima-board/s/1/state"])
    state.update(variant="ultima", title="Ultima", fen=Position(None, "ultima").fen(), start_fen=None, last=None)
    for leds, sound in (({"a9": "error-extra"}, True), ({"a9": "hint"}, False), ({"z99": "error-extra"}, False),
                        ({"k1": "error-extra"}, False), ({"h8": "check"}, True)):
        state["leds"] = leds
        message = decode("state", json.dumps(state).encode())
        if sound:
            check_state(message, "1")
        else:
            with pytest.raises(BadMessage):
                check_state(message, "1")


@pytest.mark.parametrize("variant", [v.name for v in variants.all_variants()])
def test_every_state_a_real_board_publishes_is_sound(variant):
    """The schema refuses no real board: a random game of every variant,
    each ply's state and record checked as the dashboard checks them (the
    state from the FEN of the last one, as ClubTables does)."""
    rng = random.Random(variant)
    runner = Runner(Settings(variant=variant))
    feed, position = BoardFeed(), runner.controller.position
    known = None
    for ply in range(24):
        options = list(position.legal_moves)
        if not options or position.outcome() is not None:
            break
        position.push(rng.choice(options))
        messages = table_messages("c", "1", feed.update(runner.controller), 1)
        state = decode("state", messages["maxima-board/c/1/state"])
        replayed = check_state(state, "1", known)
        assert replayed.fen() == state.fen
        known = (state.variant, state.start_fen, tuple(state.moves), replayed.fen())
        check_record(decode("games", messages["maxima-board/c/1/games/1"]), 1)
    assert ply >= 10


def test_the_dashboard_keeps_a_bounded_amount_of_data(broker, watch):
    tables = watch("atk6b", max_bytes=20_000)
    messages = board_messages("atk6b", "1", moves=quiet_game(5, 30), tags={"Round": "1"})
    record = json.loads(messages["maxima-board/atk6b/1/games/1"])
    client = Client(broker)
    try:
        assert client.accepted()
        client.publish("maxima-board/atk6b/1/state", messages["maxima-board/atk6b/1/state"])
        for n in range(1, 40):
            record["game"] = n
            client.publish(f"maxima-board/atk6b/1/games/{n}", json.dumps(record).encode())
    finally:
        client.close()
    wait_for(lambda: tables.stats()["records"] + tables.stats()["dropped"].get("too-much-data", 0) == 39,
             what="every record handled")
    assert 0 < tables.stats()["bytes"] <= 20_000 and tables.stats()["dropped"]["too-much-data"] > 0
    assert tables_of(tables)["1"]["moves"] == quiet_game(5, 30)


def test_a_replay_run_again_on_the_same_table_replaces_the_last(broker, watch, tmp_path):
    tables = watch("again")
    for moves in (["d3-d4", "c7-c5", "e3-e4"], ["e3-e5"]):
        script = tmp_path / "game.txt"
        script.write_text("".join(f"lift {m[:2]}\nplace {m[3:]}\nwait 400\n" for m in moves))
        result = subprocess.run(MAXIMA_BOARD + ["replay", str(script), "--broadcast", broker.address,
                                                "--club", "again", "--table", "1"],
                                capture_output=True, text=True, timeout=60)
        assert result.returncode == 0, result.stderr
        wait_for(lambda: (tables_of(tables).get("1") or {}).get("moves") == moves, what="the replay's moves")
        time.sleep(1.0)               # the next run starts in a later second


def test_a_late_last_will_of_an_earlier_start_does_not_mark_a_board_offline(broker, watch, tmp_path):
    """A board restarts before the broker noticed its old connection died:
    the old connection's last will comes after the new start's messages."""
    tables = watch("will2")
    script = tmp_path / "long.txt"
    script.write_text("lift d3\nplace d4\nwait 60000\n")
    old = subprocess.Popen(MAXIMA_BOARD + ["replay", str(script), "--broadcast", broker.address,
                                          "--club", "will2", "--table", "1", "--realtime"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    new = None
    try:
        wait_for(lambda: (tables_of(tables).get("1") or {}).get("online") is True, what="the first start online")
        new = BoardPublisher(broker.address, "will2", "1", boot=int(time.time()) + 10)
        new.update(board_snapshot(moves=("d3-d4", "c7-c5")))
        assert new.flush(10)
        wait_for(lambda: tables_of(tables)["1"]["moves"] == ["d3-d4", "c7-c5"], what="the new start's state")
        old.kill()                                        # the broker sends the old start's will now
        old.wait(10)
        wait_for(lambda: tables.stats()["dropped"].get("stale"), what="the old will refused")
        assert tables_of(tables)["1"]["online"] is True
        later = ClubTables(broker.address, "will2")       # the broker kept the late will: not believed
        try:
            wait_for(lambda: (tables_of(later).get("1") or {}).get("moves") == ["d3-d4", "c7-c5"],
                     what="the retained state")
            time.sleep(0.5)
            assert tables_of(later)["1"]["online"] is not False
        finally:
            later.close()
    finally:
        old.kill()
        if new is not None:
            new.close()


def test_a_tag_with_a_line_break_cannot_break_the_round_file():
    record = json.loads(board_messages("s", "1", tags={"Round": "1"})["maxima-board/s/1/games/1"])
    record["tags"]["White"] = 'Ann"]\n[Result "1-0'
    with pytest.raises(BadMessage, match=r"\$\.tags"):
        decode("games", json.dumps(record).encode())
    record["tags"]["White"] = 'Ann "the Arbiter" \\ Smith'         # quotes and backslashes are fine
    text = record_text("1", to_dict(decode("games", json.dumps(record).encode())))
    assert GameRecord.from_text(text).tags["White"] == record["tags"]["White"]


# -- issue 31: the dashboard's cost of a round file, long records, an open broker's forgeries --------
def _state(club: str, table: str, moves=("d3-d4",), **fields) -> bytes:
    state = json.loads(board_messages(club, table, moves=moves)[f"maxima-board/{club}/{table}/state"])
    state.update(fields)
    return json.dumps(state).encode()


def test_a_round_file_replays_no_move_when_downloaded(broker, watch, monkeypatch):
    """Finding 3: each game's text is made once, when its record comes;
    a download (twice here) joins texts and replays nothing."""
    tables = watch("i31r")
    for table in ("1", "2", "3"):
        send(broker, *board_messages("i31r", table, moves=quiet_game(int(table), 30), tags={"Round": "7"}).items())
    wait_for(lambda: tables.stats()["records"] == 3, what="three records")
    me, pushes, push = threading.get_ident(), [], Position.push

    def counted(position, move):
        if threading.get_ident() == me:
            pushes.append(move)
        return push(position, move)

    monkeypatch.setattr(Position, "push", counted)
    first, second = tables.round_text("7"), tables.round_text("7")
    monkeypatch.undo()
    assert first == second and [GameRecord.from_text(t).tags["Table"] for t in first.split("\n[Event ")] \
        == ["1", "2", "3"]
    assert pushes == []


def test_a_flood_of_long_records_does_not_delay_another_table(broker, watch):
    """Finding 4: 40 records of ~1,900 plies from one table (each a second
    or so to replay), then another table's state: it is shown at once."""
    tables = watch("i31f")
    moves = long_game(1, 2000)
    assert len(moves) > 1500
    record = {"game": 1, "tags": {"Round": "1"}, "start_fen": Position().fen(), "variant": "maxima",
              "title": "Maxima", "moves": moves, "result": "*", "reason": None}
    client = Client(broker)
    try:
        assert client.accepted()
        for n in range(1, 41):
            record["game"] = n
            client.publish(f"maxima-board/i31f/flood/games/{n}", json.dumps(record).encode())
        client.publish("maxima-board/i31f/other/state", _state("i31f", "other"))
        sent = time.monotonic()
    finally:
        client.close()
    wait_for(lambda: "other" in tables_of(tables), 3.0, "the other table's state within 3 s")
    assert time.monotonic() - sent < 3.0


def test_a_forged_state_of_the_largest_order_does_not_freeze_a_table(broker, watch):
    """Finding 7: boot = seq = 2**53 on the open broker; the board's next state is shown."""
    tables = watch("i31o")
    send(broker, ("maxima-board/i31o/1/state", _state("i31o", "1", boot=7, seq=1)))
    wait_for(lambda: "1" in tables_of(tables), what="the board's table")
    send(broker, ("maxima-board/i31o/1/state", _state("i31o", "1", ("d3-d4", "c7-c5", "e3-e4"), boot=2**53,
                                                      seq=2**53)))
    send(broker, ("maxima-board/i31o/1/state", _state("i31o", "1", ("d3-d4", "c7-c5"), boot=7, seq=2)))
    wait_for(lambda: tables_of(tables)["1"]["moves"] == ["d3-d4", "c7-c5"], 5, "the board's next state")
    assert tables_of(tables)["1"]["seq"] == 2 and tables.stats()["dropped"] == {"implausible": 1}


def test_a_board_takes_its_table_back_from_a_forged_later_state(broker, watch):
    """Finding 7: a forged state standing above the board's (its table was
    new): after ``stale_s`` without change, two of the board's states in a row take it back."""
    tables = watch("i31b", stale_s=1.0)
    send(broker, ("maxima-board/i31b/1/state", _state("i31b", "1", ("e3-e5",), boot=2**53, seq=2**53)))
    wait_for(lambda: "1" in tables_of(tables), what="the forged state")
    time.sleep(1.2)
    send(broker, ("maxima-board/i31b/1/state", _state("i31b", "1", boot=7, seq=1)))
    wait_for(lambda: tables.stats()["dropped"].get("stale") == 1, what="the first refused, kept in mind")
    send(broker, ("maxima-board/i31b/1/state", _state("i31b", "1", ("d3-d4", "c7-c5"), boot=7, seq=2)))
    wait_for(lambda: tables_of(tables)["1"]["moves"] == ["d3-d4", "c7-c5"], 5, "the board's table back")
    assert tables_of(tables)["1"]["boot"] == 7


def test_a_flood_of_table_ids_does_not_keep_out_a_live_board(broker, watch):
    """Finding 7: with every place taken by one-shot table ids (status and a
    sound state each), a table kept before stays, and a board that plays
    (two states) gets a place."""
    tables = watch("i31s", max_tables=8)
    send(broker, ("maxima-board/i31s/old/status", b'{"online":true,"boot":3}'),
         ("maxima-board/i31s/old/state", _state("i31s", "old", boot=3, seq=1)))
    wait_for(lambda: "old" in tables_of(tables), what="the table kept before the flood")
    client = Client(broker)
    try:
        assert client.accepted()
        for n in range(300):
            client.publish(f"maxima-board/i31s/j{n}/status", b'{"online":true,"boot":1}')
            client.publish(f"maxima-board/i31s/j{n}/state", _state("i31s", f"j{n}", boot=1, seq=1))
    finally:
        client.close()
    wait_for(lambda: tables.stats()["dropped"].get("too-many-tables", 0) >= 2 * (300 - 7), what="the flood handled")
    send(broker, ("maxima-board/i31s/live/state", _state("i31s", "live", boot=5, seq=1)))
    send(broker, ("maxima-board/i31s/live/state", _state("i31s", "live", ("d3-d4", "c7-c5"), boot=5, seq=2)))
    wait_for(lambda: "live" in tables_of(tables), 5, "the board that plays, given a place")
    shown = tables_of(tables)
    assert "old" in shown and len(shown) == 8 and shown["live"]["moves"] == ["d3-d4", "c7-c5"]
