"""Fake ``machine`` module for running the firmware off the Pico.

Simulates the switch matrix electrically: a column input reads 0 when some
closed switch joins it to a row pin that is driven low; otherwise the pull-up
gives 1. ``closed`` holds (row_pin, col_pin) pairs. ``mem32`` answers the
RP2040 SIO GPIO_IN register from the same model. Pin operations are counted.
"""

_levels = {}
_modes = {}
closed = set()
ops = {"write": 0, "read": 0, "mem32": 0}
resets = []
feeds = []
_cause = [1]

PWRON_RESET = 1
WDT_RESET = 3


def _read(pid):
    if _modes.get(pid) == Pin.OUT:
        return _levels.get(pid, 0)
    for rc in closed:
        if rc[1] == pid and _modes.get(rc[0]) == Pin.OUT and _levels.get(rc[0], 1) == 0:
            return 0
    return 1


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.id = id
        self.init(mode, pull, value)

    def init(self, mode=-1, pull=-1, value=None):
        if mode != -1:
            _modes[self.id] = mode
        if value is not None:
            _levels[self.id] = 1 if value else 0

    def value(self, v=None):
        if v is None:
            ops["read"] += 1
            return _read(self.id)
        ops["write"] += 1
        _levels[self.id] = 1 if v else 0

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)


class _Mem32:
    def __getitem__(self, addr):
        if addr != 0xD0000004:
            raise ValueError("fake mem32: only SIO GPIO_IN is modelled")
        ops["mem32"] += 1
        v = 0
        for pid in range(30):
            v |= _read(pid) << pid
        return v


mem32 = _Mem32()


class WDT:
    def __init__(self, id=0, timeout=5000):
        self.timeout = timeout
        feeds.append(0)

    def feed(self):
        feeds[-1] += 1


def reset():
    resets.append(1)


def reset_cause():
    return _cause[0]


def set_reset_cause(c):
    _cause[0] = c


def reset_counts():
    for k in ops:
        ops[k] = 0
