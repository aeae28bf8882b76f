"""PicoLink against real pyserial on pseudo-terminals.

Two kinds of far end: ``RawPty`` (the test writes exact bytes, for garbage and
timing) and ``SimPico`` (the real firmware logic on a simulated matrix). The
clock is simulated: ``now_ms`` is passed in, the bytes move through the
kernel's pty at once.
"""
from __future__ import annotations

import os
import select
import time
import tty

import pytest
import serial

from maxima_board.devices import mbproto
from maxima_board.devices.interfaces import BoardState
from maxima_board.devices.matrix_map import MatrixMap
from maxima_board.devices.pico_sim import SimPico
from maxima_board.devices.protocol import LED_STYLE, encode_leds, parse_line
from maxima_board.devices.serial_link import SOFT_MS, PicoLink, new_stats, resolve_device

MAP = MatrixMap()
POS = MAP.position_of


class RawPty:
    """A pty whose master side the test drives byte by byte."""

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        os.set_blocking(self.master, False)
        self.path = os.ttyname(self.slave)

    def send(self, data: bytes) -> None:
        os.write(self.master, data)

    def recv(self) -> bytes:
        out = b""
        while True:
            try:
                chunk = os.read(self.master, 4096)
            except (BlockingIOError, OSError):
                return out
            if not chunk:
                return out
            out += chunk

    def close(self) -> None:
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass


def opener(get_path):
    """A port factory on whatever path ``get_path()`` gives (None = unplugged)."""
    def factory():
        path = get_path()
        if path is None:
            raise serial.SerialException("unplugged")
        return serial.Serial(path, 115200, timeout=0, write_timeout=0)
    return factory


@pytest.fixture
def raw():
    p = RawPty()
    yield p
    p.close()


@pytest.fixture
def sim():
    s = SimPico()
    yield s
    s.close()


def frame_for(squares=(), buttons=()) -> int:
    return MAP.encode(BoardState(frozenset(squares), frozenset(buttons)))


def wait_readable(link: PicoLink, timeout: float = 0.5) -> None:
    """Wait (real time) until the Pi's port has bytes: the kernel moves pty
    data asynchronously, a moment after the far end wrote it."""
    port = link._port
    if port is not None:
        select.select([port.fileno()], [], [], timeout)


def settle(link: PicoLink, t: int, done, timeout: float = 2.0):
    """Read at simulated time ``t`` until ``done()`` (bounded in real time)."""
    deadline = time.monotonic() + timeout
    state = link.read(t)
    while not done() and time.monotonic() < deadline:
        time.sleep(0.0005)
        state = link.read(t)
    assert done(), "the link never got there"
    return state


def feed(link: PicoLink, raw: RawPty, data: bytes, t: int):
    """Send bytes from the 'Pico' and let the link read all of them at ``t``."""
    want = link.stats["bytes_in"] + len(data)
    raw.send(data)
    return settle(link, t, lambda: link.stats["bytes_in"] >= want)


def confirmed(seq: int, bits: int, answer: bool = False) -> bytes:
    """Two F lines in a row with the same state (the link takes a state only
    when repeated), after an ``A`` answering the link's keep-up ping when
    ``answer``: what the firmware sends after a ``P``."""
    return (mbproto.ACK if answer else b"") + mbproto.frame(seq, bits) + mbproto.frame(seq + 1, bits)


def drive(link: PicoLink, sim: SimPico | None, t0: int, t1: int, step: int = 10,
          until=None) -> int:
    """Interleave the Pico and the Pi from t0 to t1 (simulated ms)."""
    t = t0
    while t < t1:
        if sim is not None:
            sent = sim.bytes_out
            sim.step(t)
            if sim.bytes_out != sent:
                wait_readable(link)
        link.read(t)
        if until is not None and until(t):
            return t
        t += step
    return t


def drive_leds(link: PicoLink, sim: SimPico, leds: dict, t0: int, t1: int, step: int = 10) -> None:
    """Like drive(), with the Pi showing ``leds`` on every pass; each side
    waits for what the other has just written."""
    for t in range(t0, t1, step):
        sent = sim.bytes_out
        sim.step(t)
        if sim.bytes_out != sent:
            wait_readable(link)
        frames = link.stats["led_frames_sent"]
        link.show(leds, t)
        link.read(t)
        if link.stats["led_frames_sent"] != frames:
            sim.wait_input(0.5)


# ---- normal operation -----------------------------------------------------

def test_frames_become_board_states(sim):
    sim.matrix.set({POS["a1"], POS["b2"], POS["button:menu"]})
    link = PicoLink(opener(lambda: sim.path), MAP)
    assert link.read(0) is None              # port opened, nothing yet
    assert not link.link_ok
    drive(link, sim, 0, 1000)
    state = link.read(1000)
    assert state == BoardState(frozenset({"a1", "b2"}), frozenset({"menu"}))
    assert link.link_ok
    s = link.stats
    assert s["frames"] >= 4 and s["lines_ok"] == s["frames"] + s["firmware_resets"] + s["acks"]
    assert s["acks"] >= 1 and s["acks"] == s["pings_sent"] and s["slow_link"] == 0
    assert s["firmware_resets"] == 1 and link.firmware_version == "sim-0.1.0"
    assert link.scan_hz == 500
    assert s["dropped_crc"] == s["dropped_malformed"] == s["seq_gaps"] == 0
    assert s["link_losses"] == s["reconnects"] == 0
    # a move: lift b2, place b4
    sim.matrix.set({POS["a1"], POS["b4"], POS["button:menu"]})
    t = drive(link, sim, 1000, 1200, until=lambda t: "b4" in (link.read(t) or BoardState(frozenset())).squares)
    assert t - 1000 <= 60                     # debounce 30 ms + loop steps
    assert link.read(t).squares == {"a1", "b4"}
    link.close()


def test_led_frames_reach_the_pico_and_are_refreshed(sim):
    link = PicoLink(opener(lambda: sim.path), MAP)
    leds = {"a1": "error-extra", "e10": "immobilized", "d0": "hint", "zz9": "remove", "c3": "bogus"}
    drive_leds(link, sim, leds, 0, 3000)
    sim.step(3000)
    codes = sim.leds()
    assert codes == encode_leds(leds, MAP)
    assert codes[POS["a1"]] == mbproto.led_code(*LED_STYLE["error-extra"])
    assert codes[POS["e10"]] == mbproto.led_code(*LED_STYLE["immobilized"])
    assert codes[POS["c3"]] == 0
    # sent once on the change plus once per second
    assert 3 <= link.stats["led_frames_sent"] <= 4
    assert sim.firmware.rx_crc == sim.firmware.rx_malformed == 0
    link.close()


def test_ping_is_answered(sim):
    link = PicoLink(opener(lambda: sim.path), MAP)
    drive(link, sim, 0, 100)
    acks, pings = link.stats["acks"], sim.firmware.pings
    assert acks == 1 and pings == 1            # the keep-up ping sent on connecting
    link.ping()
    link.read(100)
    assert sim.wait_input(1.0)
    drive(link, sim, 110, 200)
    assert link.stats["acks"] == acks + 1 and sim.firmware.pings == pings + 1
    link.close()


# ---- bad input --------------------------------------------------------------

def test_garbage_is_dropped_and_counted_and_nothing_else_happens(raw):
    link = PicoLink(opener(lambda: raw.path), MAP)
    link.read(0)
    good = frame_for({"a1", "h9"})
    assert feed(link, raw, confirmed(0, good, answer=True), 10).squares == {"a1", "h9"}
    before = dict(link.stats)

    bad_crc = bytearray(mbproto.frame(1, frame_for({"c3"})))
    bad_crc[5] = ord("F") if bad_crc[5] != ord("F") else ord("E")
    junk = [
        bytes(bad_crc),                                   # CRC failure
        mbproto.frame(2, frame_for({"d4"}))[:-10] + b"\n",  # truncated line
        b"\x00\xff\xfe\x03binary\x80junk\n",             # binary junk
        b"x" * 5000 + b"\n",                               # overlong
        b"F 3 00000000000000000001\n",                     # no checksum
        mbproto.seal("F 4 123"),                           # good CRC, bad field
        mbproto.seal("L 5 " + "00" * 80),                  # wrong direction
        mbproto.seal("Q hello"),                           # unknown message
        b"\r\n\n",                                          # empty lines: ignored
    ]
    for i, data in enumerate(junk):
        state = feed(link, raw, data, 20 + i)
        assert state is not None and state.squares == {"a1", "h9"}, data
        assert link.link_ok
    s = link.stats
    assert s["dropped_crc"] - before["dropped_crc"] == 1
    assert s["dropped_malformed"] - before["dropped_malformed"] == 7
    assert s["lines_ok"] == before["lines_ok"]
    assert s["frames"] == before["frames"]
    for key in ("link_losses", "reconnects", "seq_gaps", "firmware_resets", "errors_reported"):
        assert s[key] == before[key], key
    # and the next good frame is taken
    assert feed(link, raw, confirmed(1, frame_for({"b2"})), 40).squares == {"b2"}
    link.close()


def test_split_lines_and_partial_writes(raw):
    link = PicoLink(opener(lambda: raw.path), MAP)
    link.read(0)
    line = confirmed(0, frame_for({"e5"}), answer=True)
    for i in range(len(line)):
        state = feed(link, raw, line[i:i + 1], i)
    assert state.squares == {"e5"}
    link.close()


def test_error_lines_are_counted_and_kept(raw):
    link = PicoLink(opener(lambda: raw.path), MAP)
    link.read(0)
    feed(link, raw, mbproto.error(2, "rx-dropped crc=3 malformed=1") + confirmed(0, 0, answer=True), 5)
    assert link.stats["errors_reported"] == 1
    assert link.last_error == "2 rx-dropped crc=3 malformed=1"
    assert link.link_ok
    link.close()


def test_sequence_gaps_are_counted(raw):
    link = PicoLink(opener(lambda: raw.path), MAP)
    link.read(0)
    feed(link, raw, b"".join(mbproto.frame(seq, 0) for seq in (0, 1, 2, 5, 6, 65535, 0)), 1)
    assert link.stats["seq_gaps"] == 2
    link.close()


# ---- loss, backoff, reconnect -------------------------------------------------

def test_silence_for_one_second_is_a_lost_link(raw):
    link = PicoLink(opener(lambda: raw.path), MAP)
    link.read(0)
    assert feed(link, raw, confirmed(0, frame_for({"a1"}), answer=True), 100) is not None
    assert link.read(1099) is not None and link.link_ok     # last line at t=100
    assert link.read(1100) is None
    assert not link.link_ok
    assert link.stats["link_losses"] == 1
    # backoff 250 ms, then the port is reopened; the next frame is the truth
    assert link.read(1349) is None and link.stats["reconnects"] == 0
    link.read(1350)
    assert link.stats["reconnects"] == 1
    assert link.read(1360) is None                            # open, but no frame yet
    assert feed(link, raw, confirmed(7, frame_for({"c5"})), 1370) is None   # no ping answered yet
    assert feed(link, raw, confirmed(9, frame_for({"c5"}), answer=True), 1380).squares == {"c5"}
    assert link.link_ok
    link.close()


def test_backoff_doubles_to_two_seconds():
    attempts = []

    def factory():
        attempts.append(now[0])
        raise serial.SerialException("no device")

    now = [0]
    link = PicoLink(factory, MAP)
    for t in range(0, 12000, 5):
        now[0] = t
        assert link.read(t) is None
    gaps = [b - a for a, b in zip(attempts, attempts[1:])]
    assert gaps[:5] == [250, 500, 1000, 2000, 2000]
    assert set(gaps[3:]) == {2000}
    assert link.stats["open_failures"] == len(attempts)


def test_backoff_resets_after_a_good_line(raw):
    link = PicoLink(opener(lambda: raw.path), MAP)
    t = 0
    while not (link.reconnect.backoff_ms == 2000 and link._port is not None):   # silent losses
        link.read(t)
        t += 10
        assert t < 20000
    assert link.stats["link_losses"] >= 3
    feed(link, raw, confirmed(0, 0, answer=True), t)
    assert link.link_ok and link.reconnect.backoff_ms == 250
    link.close()


def test_unplug_and_replug_recovers_within_two_seconds_without_losing_a_move(sim):
    present = lambda: sim.path is not None and os.path.exists(sim.path)  # noqa: E731
    link = PicoLink(opener(lambda: sim.path), MAP, present=present)
    start = {POS[s] for s in ("a1", "b1", "c1", "d2")}
    sim.matrix.set(start)
    drive(link, sim, 0, 600)
    assert link.read(600).squares == {"a1", "b1", "c1", "d2"}

    # unplug: the Pi notices at its next read (EIO), not after a timeout
    sim.unplug()
    sim.firmware = None                       # USB power gone: the Pico reboots on replug
    assert settle(link, 610, lambda: link.stats["link_losses"] == 1) is None
    assert not link.link_ok
    # while unplugged, a move is made on the board: d2 -> d4
    sim.matrix.set({POS[s] for s in ("a1", "b1", "c1", "d4")})
    t = 610
    for t in range(610, 7000, 10):            # a long unplug: backoff reaches its cap
        assert link.read(t) is None
    replug = 7000
    sim.plug()
    t = drive(link, sim, replug, replug + 5000, until=lambda t: link.link_ok)
    assert t - replug <= 2000, f"recovered after {t - replug} ms"
    assert link.read(t).squares == {"a1", "b1", "c1", "d4"}   # the move made while away
    assert link.stats["reconnects"] == 1
    link.close()


def test_replug_without_presence_check_still_recovers_by_backoff(sim):
    link = PicoLink(opener(lambda: sim.path), MAP)
    drive(link, sim, 0, 300)
    sim.unplug()
    settle(link, 310, lambda: link.stats["link_losses"] == 1)
    for t in range(310, 9000, 10):
        link.read(t)
    sim.plug()
    t = drive(link, sim, 9000, 13000, until=lambda t: link.link_ok)
    assert t - 9000 <= 2000 + 250 + 20       # next attempt (cap 2 s) + heartbeat
    link.close()


def test_firmware_reset_mid_game(sim):
    link = PicoLink(opener(lambda: sim.path), MAP)
    link.read(0)                   # the port is open before the Pico boots: H is seen
    sim.matrix.set({POS["e1"], POS["e9"]})
    leds = {"e1": "check"}
    drive_leds(link, sim, leds, 0, 500)
    assert sim.leds()[POS["e1"]] == mbproto.led_code(*LED_STYLE["check"])
    sent = link.stats["led_frames_sent"]
    # the Pi asks for a reset (the watchdog would do the same)
    link.reset_pico()
    link.read(500)
    assert sim.wait_input(1.0)
    sim.step(510)                  # reads R; reboots at the next step
    assert sim.resets_requested == 1
    sim.matrix.set({POS["e1"], POS["e8"]})      # a move made during the reset
    drive_leds(link, sim, leds, 520, 800)
    sim.step(800)
    assert sim.boots == 2
    assert link.stats["firmware_resets"] == 2
    assert link.stats["seq_gaps"] == 0            # seq restarts after H: not a gap
    assert link.stats["link_losses"] == 0
    assert link.stats["led_frames_sent"] == sent + 1   # resent on H, before the 1 s refresh
    assert sim.leds()[POS["e1"]] == mbproto.led_code(*LED_STYLE["check"])
    assert link.read(800).squares == {"e1", "e8"}
    link.close()


def test_spontaneous_firmware_reboot_is_seen_via_hello(sim):
    link = PicoLink(opener(lambda: sim.path), MAP)
    link.read(0)
    drive(link, sim, 0, 300)
    sim.firmware = None             # watchdog reset
    drive(link, sim, 300, 600)
    assert link.stats["firmware_resets"] == 2 and link.link_ok
    link.close()


# ---- never blocking -----------------------------------------------------------

def test_read_and_show_never_block(sim):
    link = PicoLink(opener(lambda: sim.path), MAP)
    drive(link, sim, 0, 300)
    worst = 0.0
    # the Pico stops reading (its buffer fills) but keeps its frames coming
    for i in range(3000):
        leds = {"a1": "hint" if i % 2 else "remove", "b%d" % (1 + i % 9): "check"}
        t0 = time.perf_counter()
        link.show(leds, 300 + i)
        link.read(300 + i)
        worst = max(worst, time.perf_counter() - t0)
        if i % 50 == 0:
            sim.firmware.step(300 + i)
            sim._flush()
    assert worst < 0.05, worst
    # a Pico that reads nothing for seconds cannot keep up: its pings go unanswered
    assert link.stats["slow_link"] >= 1
    link.close()


def test_read_with_no_device_is_fast():
    link = PicoLink.from_config("/nonexistent/pico-*", 115200, MAP)
    t0 = time.perf_counter()
    for t in range(0, 20000, 10):
        assert link.read(t) is None
    assert time.perf_counter() - t0 < 1.0
    assert not link.link_ok
    link.close()


def test_close_stops_everything(sim):
    link = PicoLink(opener(lambda: sim.path), MAP)
    drive(link, sim, 0, 300)
    link.close()
    assert link.read(400) is None and not link.link_ok
    link.show({"a1": "hint"}, 500)


# ---- configuration --------------------------------------------------------------

def test_from_config_resolves_a_glob(tmp_path, sim):
    os.symlink(sim.path, tmp_path / "usb-MicroPython_Board_in_FS_mode_E6614-if00")
    link = PicoLink.from_config(str(tmp_path / "usb-MicroPython_Board*"), 115200, MAP)
    sim.matrix.set({POS["d0"], POS["e10"]})
    drive(link, sim, 0, 500)
    assert link.read(500).squares == {"d0", "e10"}
    link.close()


def test_resolve_device():
    with pytest.raises(FileNotFoundError):
        resolve_device("/nonexistent/x*")
    with pytest.raises(FileNotFoundError):
        resolve_device("/nonexistent/plain")
    assert resolve_device("/dev/null") == "/dev/null"


def test_open_link_matches_the_config_entry_point():
    from maxima_board.devices.serial_link import open_link
    link = open_link("/nonexistent/p", 115200, MAP)
    assert isinstance(link, PicoLink) and link.read(0) is None
    assert set(link.stats) == set(new_stats())
    link.close()


def test_parse_line_types():
    assert parse_line(mbproto.hello("1.0", 300)[:-1])[1].scan_hz == 300
    assert parse_line(b"garbage")[0] != 0


def test_a_second_link_cannot_share_the_port(sim):
    first = PicoLink.from_config(sim.path, 115200, MAP)
    second = PicoLink.from_config(sim.path, 115200, MAP)
    drive(first, sim, 0, 300)
    assert first.link_ok
    second.read(300)
    assert second._port is None and second.stats["open_failures"] == 1
    first.close()
    second.close()


# ---- when the board's loop must look (issue 20) ----------------------------

def test_the_loop_waits_on_the_port_and_the_loss_time_only(raw):
    """Up and quiet: the loop sleeps on the port's descriptor until the
    loss time; the keep-up ping and the LED refresh are no deadlines of
    their own while lines come (they go out with the Pico's heartbeats)."""
    link = PicoLink(opener(lambda: raw.path), MAP)
    link.read(0)
    readable, writable = link.descriptors()
    assert readable == (link._port.fileno(),) and writable == ()
    feed(link, raw, confirmed(0, frame_for({"a1"}), answer=True), 100)
    link.show({"a1": "hint"}, 100)
    assert link.link_ok
    # last line at 100: lost at 1100 unless a line comes; the ping of 600
    # and the LED refresh of 1100 wait for a line until SOFT_MS after them
    assert link.next_deadline(100) == min(100 + 1000, 100 + 500 + SOFT_MS)
    feed(link, raw, mbproto.frame(2, frame_for({"a1"})), 650)    # a heartbeat: the ping goes out
    assert link.stats["pings_sent"] == 2
    # now: the ping's answer by 1650, the loss by 1650, the LED refresh (due 1100) by 1400
    assert link.next_deadline(650) == 100 + 1000 + SOFT_MS
    link.close()
    assert link.next_deadline(700) is None and link.descriptors() == ((), ())


def test_a_missing_pico_is_looked_for_at_its_backoff_and_presence_times():
    link = PicoLink(lambda: (_ for _ in ()).throw(FileNotFoundError("no Pico")), MAP,
                    present=lambda: False, presence_poll_ms=100)
    assert link.next_deadline(0) == 0          # the first attempt: at once
    link.read(0)
    assert link.descriptors() == ((), ())
    assert link.next_deadline(0) == 100        # the presence check comes before the 250 ms backoff
    link.read(100)
    assert link.next_deadline(100) == 200
    link.read(250)                             # the backoff's attempt; the next in 500 ms
    assert link.next_deadline(250) == 350
