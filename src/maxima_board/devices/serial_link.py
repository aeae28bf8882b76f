"""PicoLink: the Pico co-processor (topology A) as SensorSource and LedSink.

Talks the board.md line protocol over USB serial with pyserial, never
blocking: the port is opened with ``timeout=0`` and ``write_timeout=0`` and
every call does only what is already possible. All timing comes from the
``now_ms`` the caller passes in, so tests can drive a simulated clock.

Link rules (board.md):

* no valid line for ``loss_timeout_ms`` (1 s), or any I/O error -> the link is
  lost: ``link_ok`` turns False, ``read()`` returns None, the port is closed;
* a link that cannot keep up is lost too: every ``ping_ms`` (0.5 s) a ``P`` is
  sent, and its ``A`` must be back within ``loss_timeout_ms``. The answer
  queues behind every line sent before it in both directions, so a link
  that trickles (or a far end whose output backs up) shows as a late answer,
  however many stale lines still arrive;
* a board state is taken only when two F lines in a row carry it (the
  firmware sends every change twice): one corrupted line that happens to
  pass the CRC can never act, neither as a button press nor as a square;
* reconnect attempts follow a backoff of 0.25 s doubling to a 2 s cap, reset
  once a valid line arrives; a device that exists but does not open
  (permissions, busy) is retried at that backoff;
* a device that does not exist is waited for, not looked for: once an
  attempt has found no device, and with a ``watch`` (from_config gives one
  on Linux: maxima_board.devices.device_watch, inotify on the folder the device appears
  in) and a ``present()`` check (the device path exists), the link has no
  timer at all, and a device that appears is opened at once, however long
  the Pico was away (after a loss the first attempt comes at the backoff:
  an unplugged Pico's device goes a moment after its port fails). Without a
  watch that can be armed (not Linux, no inotify_simple, a glob in a
  folder's name, no more inotify watches) the ``present()`` check is made
  every ``presence_poll_ms`` (100 ms) during the backoff instead;
* after a (re)connect the link is up (``link_ok``) once the first ping has
  been answered and a state has been confirmed after it (frames queued
  before the reconnect are never taken); after a (re)connect or a firmware
  reset (``H``) the LED frame is resent at once;
* the LED frame is also resent every ``led_refresh_ms`` (1 s), so a lost
  ``L`` line is repaired within a second;
* the matrix size the firmware announces in ``H`` must be the configured
  board's (10x8 for the Maxima board, 11x10 for the 10x10 board); when it is
  not, ``link_problem`` says so in one line ("Board has 11×10 switches,
  config says maxima (10×8)"), it is logged, and the link stays down.

The board's loop sleeps between lines (``descriptors()``: the port to wait
on, or the device watch while the device is missing; ``next_deadline()``:
the loss time, the unanswered ping's limit, the next reconnect attempt or
presence check; None while only the watch can bring the device). Keep-up
pings and LED refreshes are not deadlines of their own: they go out with the
next pass after they are due, which the Pico's heartbeat brings every
250 ms; only when no line comes do they get a deadline of their own,
``SOFT_MS`` after they were due.

Counters for ``diag`` are in the ``stats`` dict.
"""
from __future__ import annotations

import glob
import logging
import os
import select
from typing import Callable, Mapping, Protocol

from . import mbproto
from .device_watch import DeviceWatch
from .reconnect import Reconnect
from .interfaces import BoardState
from .matrix_map import MatrixMap
from .protocol import BAD_CRC, OK, Ack, Error, Frame, Hello, encode_leds, led_line, parse_line

log = logging.getLogger(__name__)

#: Where ``device = "auto"`` looks, in order: the udev symlink of
#: systemd/99-maxima-board.rules, then MicroPython boards by id.
AUTO_DEVICES = ("/dev/maxima-pico",
                "/dev/serial/by-id/usb-MicroPython_Board_in_FS_mode_*",
                "/dev/serial/by-id/*MicroPython*")

TX_LIMIT = 4096          # unsent bytes kept at most; full-state messages make dropping safe
READ_CHUNK = 4096
SOFT_MS = 300            # pings and LED refreshes wait this long for a pass the Pico's lines bring


class SerialPort(Protocol):
    """What PicoLink needs of a port: the pyserial ``Serial`` subset."""

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: bytes) -> int | None: ...

    def close(self) -> None: ...


def device_patterns(device: str) -> tuple[str, ...]:
    """Where a configured device may appear: ``auto``'s patterns, or the
    glob or path itself."""
    return AUTO_DEVICES if device in ("", "auto") else (device,)


def resolve_device(device: str) -> str:
    """A configured device as a path: ``auto``, a glob or a plain path.

    Raises FileNotFoundError when nothing matches (the caller retries)."""
    for pattern in device_patterns(device):
        if glob.has_magic(pattern):
            matches = sorted(glob.glob(pattern))
            if matches:
                return matches[0]
        elif os.path.exists(pattern):
            return pattern
    raise FileNotFoundError(f"no Pico found at {device!r}")


def _writable(port: SerialPort) -> bool:
    """False when a write would find the output buffer full. (pyserial's
    non-blocking write spins on EAGAIN instead of returning 0.)"""
    try:
        fd = port.fileno()  # type: ignore[attr-defined]
        return bool(select.select([], [fd], [], 0)[1])
    except Exception:
        return True


def new_stats() -> dict[str, int]:
    return {
        "lines_ok": 0,          # lines that passed the CRC and parsed
        "dropped_crc": 0,       # lines with a wrong checksum
        "dropped_malformed": 0, # no checksum, junk bytes, overlong, unknown message
        "frames": 0,            # F lines received
        "unconfirmed": 0,       # F lines not (yet) repeated by the next one: not acted on
        "pings_sent": 0,        # keep-up pings (P) sent
        "ping_max_ms": 0,       # slowest answer to a keep-up ping
        "slow_link": 0,         # losses because a ping was not answered within the loss time
        "seq_gaps": 0,          # F sequence jumps (lost lines; harmless, full state)
        "link_losses": 0,       # silence >= loss timeout or I/O error
        "reconnects": 0,        # successful opens after a loss
        "open_failures": 0,     # failed open attempts
        "firmware_resets": 0,   # H lines seen
        "errors_reported": 0,   # E lines seen
        "acks": 0,              # A lines seen
        "led_frames_sent": 0,   # L lines written
        "bytes_in": 0,
    }


class PicoLink:
    """SensorSource + LedSink over the Pico's USB serial line."""

    def __init__(self, port_factory: Callable[[], SerialPort],
                 matrix_map: MatrixMap | None = None, *,
                 loss_timeout_ms: int = 1000, backoff_initial_ms: int = 250,
                 backoff_max_ms: int = 2000, led_refresh_ms: int = 1000,
                 present: Callable[[], bool] | None = None,
                 presence_poll_ms: int = 100, ping_ms: int = 500, board: str = "maxima",
                 watch: DeviceWatch | None = None) -> None:
        self.port_factory = port_factory
        self.reconnect = Reconnect(present, watch, presence_poll_ms, backoff_initial_ms, backoff_max_ms)
        self.matrix_map = matrix_map or MatrixMap()
        self.board = board
        self.size_problem: str | None = None     # the firmware scans another matrix than configured
        self.loss_timeout_ms = loss_timeout_ms
        self.led_refresh_ms = led_refresh_ms
        self.ping_ms = ping_ms
        self.stats = new_stats()
        self.firmware_version: str | None = None
        self.scan_hz: int | None = None
        self.last_error: str | None = None
        self._port: SerialPort | None = None
        self._ever_connected = False
        self._reader = mbproto.LineReader()
        self._last_rx_ms = 0
        self._link_ok = False
        self._state: BoardState | None = None
        self._last_seq: int | None = None
        self._candidate: int | None = None       # the last F line's bits, awaiting a repeat
        self._confirmed = False                  # a state was confirmed since the ping was answered
        self._ping_sent: int | None = None       # when the outstanding keep-up ping was sent
        self._answered = False                   # a ping has been answered since connecting
        self._next_ping = 0
        self._codes: bytes | None = None
        self._led_due = False
        self._last_led_ms = 0
        self._led_seq = 0
        self._tx = bytearray()
        self._closed = False
        self.device: str | None = None           # the configured device (from_config)
        self._missing = False                    # the last open found no device at all

    @classmethod
    def from_config(cls, device: str, baud: int = 115200,
                    matrix_map: MatrixMap | None = None, **options) -> "PicoLink":
        """A link on a real serial device: ``auto``, a path such as
        ``/dev/maxima-pico``, or a glob such as ``/dev/serial/by-id/*MicroPython*``
        (resolved again at every reconnect). ``baud`` is ignored by USB CDC but
        must not be 1200 (that resets the RP2040 into its bootloader). While
        the device is missing the link waits on an inotify watch of where it
        will appear (on a timer where inotify is not available)."""
        import serial   # pyserial

        def open_port() -> SerialPort:
            path = resolve_device(device)
            # exclusive (flock): a second maxima-board cannot open the port too
            return serial.Serial(path, baud, timeout=0, write_timeout=0, exclusive=True)

        def present() -> bool:
            try:
                resolve_device(device)
                return True
            except FileNotFoundError:
                return False

        if "watch" not in options:
            options["watch"] = DeviceWatch.open(device_patterns(device))
        link = cls(open_port, matrix_map, present=present, **options)
        link.device = device
        return link

    @property
    def watch(self) -> DeviceWatch | None:
        """The device watch that wakes the loop when the device may have appeared."""
        return self.reconnect.watch

    # -- SensorSource / LedSink ---------------------------------------------
    @property
    def link_ok(self) -> bool:
        """True while the link keeps up and a state has been confirmed since
        connecting."""
        return self._link_ok

    @property
    def link_problem(self) -> str | None:
        """``"No board at <device>"`` while the configured device does not
        exist, the matrix-size mismatch while the firmware scans another
        board (for the OLED and the log), else None."""
        if self.size_problem is not None:
            return self.size_problem
        if self._missing and self._port is None:
            return f"No board at {self.device}" if self.device else "No board found"
        return None

    def read(self, now_ms: int) -> BoardState | None:
        """The Pico's latest debounced state, or None while the link is down
        (or no frame has arrived since it came up). Never blocks."""
        self._service(now_ms)
        return self._state if self._link_ok else None

    def show(self, leds: Mapping[str, str], now_ms: int) -> None:
        """Send the LED frame when it changed (and refresh it every second).
        Blink/pulse animation runs on the Pico."""
        codes = encode_leds(leds, self.matrix_map)
        if codes != self._codes:
            self._codes = codes
            self._led_due = True
        self._service(now_ms)

    # -- the loop's timing ---------------------------------------------------
    def descriptors(self) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
        """``(readable, writable)``: the port to wait on for input, and for
        room when output is waiting; the device watch while the device is
        missing; None when the port has no descriptor (pyserial's
        ``loop://``): then the link must be polled."""
        if self.reconnect.watching and self.watch is not None and not self._closed:
            return (self.watch.fileno(),), ()
        if self._port is None or self._closed:
            return (), ()
        try:
            fd = self._port.fileno()  # type: ignore[attr-defined]
        except Exception:
            return None
        return (fd,), ((fd,) if self._tx else ())

    def next_deadline(self, now_ms: int) -> int | None:
        """When the link next needs a pass if no line comes before; None
        when nothing but the device appearing (the watch) can bring one."""
        if self._closed or self.reconnect.watching:
            return None
        if self._port is None:
            return self.reconnect.next_time(now_ms)
        times = [self._last_rx_ms + self.loss_timeout_ms]
        if self._ping_sent is not None:
            times.append(self._ping_sent + self.loss_timeout_ms)
        else:
            times.append(self._next_ping + SOFT_MS)
        if self._codes is not None:
            times.append(now_ms if self._led_due else self._last_led_ms + self.led_refresh_ms + SOFT_MS)
        return min(times)

    def ping(self) -> None:
        """Queue a ``P``; the answer ``A`` is counted in ``stats['acks']``."""
        self._queue(mbproto.PING)

    def reset_pico(self) -> None:
        """Queue an ``R``: the firmware resets (a new ``H`` follows)."""
        self._queue(mbproto.RESET)

    def close(self) -> None:
        self._closed = True
        self.reconnect.watching = False
        self._drop_port()
        if self.watch is not None:
            self.watch.close()

    # -- internals ------------------------------------------------------------
    def _service(self, now: int) -> None:
        if self._closed:
            return
        if self._port is None:
            if not self.reconnect.due(now):
                return
            self._connect(now)
            if self._port is None:
                return
        self._receive(now)
        if self._port is not None and now - self._last_rx_ms >= self.loss_timeout_ms:
            self._lose(now, "no line for %d ms" % (now - self._last_rx_ms))
        elif (self._port is not None and self._ping_sent is not None
              and now - self._ping_sent >= self.loss_timeout_ms):
            self.stats["slow_link"] += 1
            self._lose(now, "no answer to a ping for %d ms: the link cannot keep up"
                       % (now - self._ping_sent))
        if self._port is not None:
            self._transmit(now)

    def _connect(self, now: int) -> None:
        try:
            self._port = self.port_factory()
        except Exception as e:   # device absent, permissions, busy: retry later
            self._missing = isinstance(e, FileNotFoundError)
            self.stats["open_failures"] += 1
            log.debug("Pico open failed: %s", e)
            if self._missing:
                self.reconnect.device_missing(now)
            else:
                self.reconnect.device_there()
                self.reconnect.schedule_retry(now)
            return
        self._missing = False
        self.reconnect.device_there()
        if self._ever_connected:
            self.stats["reconnects"] += 1
        self._ever_connected = True
        self._reader.reset()
        self._last_rx_ms = now
        self._last_seq = None
        self._candidate = None
        self._confirmed = False
        self._ping_sent = None
        self._answered = False
        self._next_ping = now
        self._link_ok = False
        self._tx.clear()
        self._led_due = self._codes is not None      # resend the LED frame
        log.info("Pico link opened")

    def _drop_port(self) -> None:
        port, self._port = self._port, None
        self._link_ok = False
        if port is not None:
            try:
                port.close()
            except Exception:
                pass

    def _lose(self, now: int, why: str) -> None:
        self.stats["link_losses"] += 1
        log.warning("Pico link lost: %s", why)
        self._drop_port()
        self.reconnect.schedule_retry(now)

    def _receive(self, now: int) -> None:
        assert self._port is not None
        while True:
            try:
                data = self._port.read(READ_CHUNK)
            except Exception as e:   # SerialException / OSError: unplugged
                self._lose(now, "read: %s" % e)
                return
            if not data:
                return
            self.stats["bytes_in"] += len(data)
            before = self._reader.overlong
            for line in self._reader.feed(data):
                self._handle(line, now)
            self.stats["dropped_malformed"] += self._reader.overlong - before
            if len(data) < READ_CHUNK:
                return

    def _handle(self, line: bytes, now: int) -> None:
        status, msg = parse_line(line, self.matrix_map.positions)
        if status == BAD_CRC:
            self.stats["dropped_crc"] += 1
            return
        if status != OK or msg is None or not isinstance(msg, (Frame, Hello, Error, Ack)):
            self.stats["dropped_malformed"] += 1
            return
        self.stats["lines_ok"] += 1
        self._last_rx_ms = now
        self.reconnect.link_up()
        if isinstance(msg, Frame):
            if self.size_problem is not None:
                return
            if self._last_seq is not None and msg.seq != (self._last_seq + 1) % mbproto.SEQ_MOD:
                self.stats["seq_gaps"] += 1
            self._last_seq = msg.seq
            self.stats["frames"] += 1
            if msg.bits == self._candidate:
                self._state = self.matrix_map.decode(msg.bits)
                self._confirmed = self._answered
            else:
                self.stats["unconfirmed"] += 1
            self._candidate = msg.bits
            self._link_ok = self._confirmed
        elif isinstance(msg, Hello):
            self.stats["firmware_resets"] += 1
            self.firmware_version, self.scan_hz = msg.version, msg.scan_hz
            self._check_size(msg)
            self._last_seq = None
            self._candidate = None
            self._led_due = self._codes is not None
            log.info("Pico firmware %s up, scanning at %d Hz", msg.version, msg.scan_hz)
        elif isinstance(msg, Error):
            self.stats["errors_reported"] += 1
            self.last_error = f"{msg.code} {msg.text}"
            log.warning("Pico reports error %s", self.last_error)
        else:
            self.stats["acks"] += 1
            if self._ping_sent is not None:
                self.stats["ping_max_ms"] = max(self.stats["ping_max_ms"], now - self._ping_sent)
                self._ping_sent = None
                self._next_ping = now + self.ping_ms
                self._answered = True

    def _check_size(self, hello: Hello) -> None:
        m = self.matrix_map
        if (hello.rows, hello.cols) == (m.rows, m.columns):
            self.size_problem = None
            return
        self._link_ok = self._confirmed = False
        self.size_problem = (f"Board has {hello.rows}×{hello.cols} switches, config says "
                             f"{self.board} ({m.rows}×{m.columns})")
        log.error("%s", self.size_problem)

    def _queue(self, line: bytes) -> None:
        if len(self._tx) + len(line) > TX_LIMIT:
            self._tx.clear()                 # stale; the LED frame is resent below
            self._led_due = self._codes is not None
        self._tx += line

    def _transmit(self, now: int) -> None:
        if self._codes is not None and (
                self._led_due or now - self._last_led_ms >= self.led_refresh_ms):
            self._led_due = False
            self._last_led_ms = now
            self._queue(led_line(self._led_seq, self._codes))
            self._led_seq = (self._led_seq + 1) % mbproto.SEQ_MOD
            self.stats["led_frames_sent"] += 1
        if self._ping_sent is None and now >= self._next_ping:
            self._queue(mbproto.PING)
            self._ping_sent = now
            self.stats["pings_sent"] += 1
        if not self._tx or self._port is None or not _writable(self._port):
            return
        try:
            n = self._port.write(bytes(self._tx))
        except Exception as e:
            self._lose(now, "write: %s" % e)
            return
        del self._tx[:len(self._tx) if n is None else n]


def open_link(device: str, baud: int = 115200, matrix_map: MatrixMap | None = None,
              board: str = "maxima") -> PicoLink:
    """The link for a ``[pico]`` config section (same as PicoLink.from_config)."""
    return PicoLink.from_config(device, baud, matrix_map, board=board)
