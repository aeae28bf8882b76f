"""Fake ``neopixel`` module: keeps the pixels and counts writes."""

writes = []


class NeoPixel:
    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin = pin
        self.n = n
        self.pixels = [(0, 0, 0)] * n
        self.written = None

    def __len__(self):
        return self.n

    def __setitem__(self, i, v):
        self.pixels[i] = tuple(v)

    def __getitem__(self, i):
        return self.pixels[i]

    def fill(self, v):
        for i in range(self.n):
            self.pixels[i] = tuple(v)

    def write(self):
        self.written = list(self.pixels)
        writes.append(self)
