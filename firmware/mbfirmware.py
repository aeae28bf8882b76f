"""The firmware's behaviour, free of hardware: scan -> debounce -> F lines,
incoming lines -> LED frame / ping / reset, error reports.

Everything it touches is injected (scanner, debouncer, animator, ``write``
for output bytes, ``reset`` for ``R``), so the same object runs on the Pico
(main.py wires machine/neopixel/USB), under CPython in the tests and in the
simulated Pico, and under MicroPython-on-WebAssembly in the tests.

Error codes sent as ``E <code> <text>``:

* 1 ``watchdog-reset``: the previous reset was caused by the watchdog;
* 2 ``rx-dropped crc=N malformed=M``: input lines dropped so far (at most
  once per ``report_ms``, only when the counts changed);
* 3 ``exception <name>``: an exception was caught in the main loop;
* 4 ``config <text>``: config.json missing or invalid, defaults in use.
"""

import mbproto
from mbdebounce import row_buffer

E_WATCHDOG = 1
E_RX_DROPPED = 2
E_EXCEPTION = 3
E_CONFIG = 4


def _sub(a, b):
    return a - b


class Firmware:
    def __init__(self, scanner, debouncer, animator, write, reset=None, version="0",
                 scan_hz=0, heartbeat_ms=250, host_timeout_ms=10000, report_ms=5000,
                 diff=None):
        self.scanner = scanner
        self.debouncer = debouncer
        self.animator = animator
        self.write = write
        self.reset = reset
        self.version = version
        self.scan_hz = scan_hz
        self.heartbeat_ms = heartbeat_ms
        self.host_timeout_ms = host_timeout_ms
        self.report_ms = report_ms
        self.diff = diff if diff is not None else _sub
        self.reader = mbproto.LineReader()
        self.raw = row_buffer(scanner.nrows, scanner.ncols)
        self.positions = scanner.nrows * scanner.ncols
        self.seq = 0
        self.last_f = 0
        self.last_rx = 0
        self.last_report = 0
        self.reported = (0, 0)
        self.host_seen = False
        self.led_dirty = True
        self.repeat = False      # send the frame again at the next step (the Pi confirms by it)
        # counters
        self.scans = 0
        self.frames_sent = 0
        self.rx_ok = 0
        self.rx_crc = 0
        self.rx_bad = 0
        self.led_frames = 0
        self.pings = 0

    # -- output -------------------------------------------------------------
    def send(self, line):
        try:
            self.write(line)
        except Exception:   # a host that is not reading must not stop scanning
            pass

    def send_error(self, code, text):
        self.send(mbproto.error(code, text))

    def send_frame(self, now):
        self.send(mbproto.frame_rows(self.seq, self.debouncer.stable, self.scanner.ncols))
        self.seq = (self.seq + 1) % mbproto.SEQ_MOD
        self.frames_sent += 1
        self.last_f = now

    # -- lifecycle ----------------------------------------------------------
    def start(self, now, watchdog_reset=False, config_error=None):
        """Send ``H`` (and the boot-time errors), take a first scan, send F."""
        self.send(mbproto.hello(self.version, self.scan_hz, self.scanner.nrows, self.scanner.ncols))
        if watchdog_reset:
            self.send_error(E_WATCHDOG, "watchdog-reset")
        if config_error:
            self.send_error(E_CONFIG, "config " + config_error)
        self.last_rx = now
        self.last_report = now
        self.scanner.scan(self.raw)
        self.debouncer.update(self.raw, now)
        self.scans += 1
        self.send_frame(now)
        self.repeat = True

    # -- input --------------------------------------------------------------
    @property
    def rx_malformed(self):
        return self.rx_bad + self.reader.overlong

    def receive(self, data, now):
        """Bytes from the host: complete lines are checked and acted on."""
        for line in self.reader.feed(data):
            self.handle_line(line, now)

    def handle_line(self, line, now):
        try:
            status, body = mbproto.unseal(line)
            if status == mbproto.BAD_CRC:
                self.rx_crc += 1
                return
            msg = mbproto.parse(body, self.positions) if status == mbproto.OK else None
            if msg is None:
                self.rx_bad += 1
                return
            kind = msg[0]
            if kind == "L":
                if self.animator.set_codes(msg[2]):
                    self.led_dirty = True
                self.led_frames += 1
            elif kind == "P":              # A, then the state (twice: the Pi confirms by it)
                self.send(mbproto.ACK)
                self.send_frame(now)
                self.repeat = True
                self.pings += 1
            elif kind == "R":
                self.rx_ok += 1
                if self.reset is not None:
                    self.reset()
                return
            else:                      # H, F, E, A are not for the Pico
                self.rx_bad += 1
                return
            self.rx_ok += 1
            self.last_rx = now
            self.host_seen = True
        except Exception:
            self.rx_bad += 1

    # -- the loop body ------------------------------------------------------
    def step(self, now):
        """One scan; an F line on a debounced change, again at the next step
        (the Pi takes a state only when two F lines in a row carry it, so a
        single corrupted line can never act), and when the heartbeat is due;
        the periodic drop report; blank LEDs if the host went quiet."""
        self.scanner.scan(self.raw)
        self.scans += 1
        diff = self.diff
        changed = self.debouncer.update(self.raw, now)
        if changed or self.repeat or diff(now, self.last_f) >= self.heartbeat_ms:
            self.send_frame(now)
            self.repeat = changed
        if diff(now, self.last_report) >= self.report_ms:
            self.last_report = now
            counts = (self.rx_crc, self.rx_malformed)
            if counts != self.reported:
                self.reported = counts
                self.send_error(E_RX_DROPPED, "rx-dropped crc=%d malformed=%d" % counts)
        if (self.host_seen and self.host_timeout_ms
                and diff(now, self.last_rx) >= self.host_timeout_ms):
            self.host_seen = False
            self.animator.clear()
            self.led_dirty = True

    def render(self, now):
        """Animate the LEDs; True when the chain must be rewritten."""
        changed = self.animator.render(now)
        if self.led_dirty:
            self.led_dirty = False
            return True
        return changed
