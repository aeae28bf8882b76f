"""LED animation: L-frame codes -> RGB for the WS2812 chain, over time.

Each position holds one code byte (mbproto): high nibble pattern, low nibble
palette index. Patterns are animated here, on the Pico, from its own clock,
all in phase:

* 0 steady;
* 1 slow blink: 1 Hz, on for the first 500 ms of each second;
* 2 fast blink: 4 Hz, on for the first 125 ms of each 250 ms;
* 3 pulse: a 2 s triangle between 1/8 and full brightness;
* 4..15 (reserved) are shown steady.

``render(now)`` fills ``rgb`` (bytearray, 3 bytes per position, r g b) and
returns True when any byte changed since the previous render, so the caller
writes the chain only when needed.
"""

from mbproto import PALETTE

SLOW_PERIOD = 1000
SLOW_ON = 500
FAST_PERIOD = 250
FAST_ON = 125
PULSE_PERIOD = 2000
PULSE_MIN = 32        # of 256


class Animator:
    def __init__(self, n=80, palette=PALETTE):
        self.n = n
        self.palette = palette
        self.codes = bytearray(n)
        self.rgb = bytearray(3 * n)

    def set_codes(self, codes):
        """Take a new LED frame (one code byte per position: 80 or 110).
        Returns True if it differs."""
        if len(codes) != self.n:
            return False
        if bytes(self.codes) == bytes(codes):
            return False
        for i in range(self.n):
            self.codes[i] = codes[i]
        return True

    def clear(self):
        for i in range(self.n):
            self.codes[i] = 0

    def animated(self):
        """True when some position blinks or pulses (needs periodic renders)."""
        for c in self.codes:
            if c & 15 and 1 <= c >> 4 <= 3:
                return True
        return False

    def levels(self, now):
        """Brightness (0..256) of each pattern at time ``now`` (ms)."""
        slow = 256 if now % SLOW_PERIOD < SLOW_ON else 0
        fast = 256 if now % FAST_PERIOD < FAST_ON else 0
        t = now % PULSE_PERIOD
        half = PULSE_PERIOD // 2
        tri = t if t < half else PULSE_PERIOD - t          # 0..half
        pulse = PULSE_MIN + (256 - PULSE_MIN) * tri // half
        return (256, slow, fast, pulse)

    def render(self, now):
        lv = self.levels(now)
        pal = self.palette
        rgb = self.rgb
        changed = False
        j = 0
        for c in self.codes:
            pat = c >> 4
            level = lv[pat] if pat < 4 else 256
            col = pal[c & 15]
            if level == 256:
                r, g, b = col[0], col[1], col[2]
            elif level == 0:
                r = g = b = 0
            else:
                r = (col[0] * level) >> 8
                g = (col[1] * level) >> 8
                b = (col[2] * level) >> 8
            if rgb[j] != r or rgb[j + 1] != g or rgb[j + 2] != b:
                rgb[j] = r
                rgb[j + 1] = g
                rgb[j + 2] = b
                changed = True
            j += 3
        return changed
