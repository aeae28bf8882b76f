"""The 128×64 OLED (SSD1306 or SH1106 on I2C) through luma.oled.

The controller's display model is a list of at most five text lines, the
first a status bar. They are drawn in Pillow's built-in 6×11 bitmap font
(21 characters a row, crisp on a 1-bit panel and identical on every
machine): the status bar in inverse video on top, then four rows of text.
A line too long for one row is word-wrapped into rows the model leaves
free (first for the line that would hide the most text); what still does
not fit is cut and marked with "»".
"""
from __future__ import annotations

import textwrap
from typing import Sequence

from PIL import Image, ImageDraw, ImageFont

from .errors import HardwareError

WIDTH, HEIGHT = 128, 64
CHAR_W, CHAR_H = 6, 11
COLUMNS = WIDTH // CHAR_W          # 21 characters a row
BAR_H = 12                         # status bar height, inverse video
ROW_Y = (13, 26, 39, 52)           # top of each body row (last ends at 63)
MORE = "\u00bb"                    # "»" marks a cut line
# Characters the Latin-1 bitmap font lacks, and what to draw instead.
_SUBSTITUTES = str.maketrans({"\u2013": "-", "\u2014": "-", "\u2192": "->",
                              "\u2190": "<-", "\u2018": "'", "\u2019": "'", "\u201c": '"',
                              "\u201d": '"', "\u2022": "\u00b7", "\u2212": "-"})


def _font() -> ImageFont.ImageFont:
    loader = getattr(ImageFont, "load_default_imagefont", None)  # Pillow >= 10.1
    return loader() if loader else ImageFont.load_default()


FONT = _font()


def printable(text: str) -> str:
    """``text`` in the font's Latin-1 repertoire (unknown characters → '?')."""
    text = str(text).translate(_SUBSTITUTES)
    if "\u2026" in text:     # "…": "..." where the row has room, else the cut mark
        wide = text.replace("\u2026", "...")
        text = wide if len(wide) <= COLUMNS else text.replace("\u2026", MORE)
    return text.encode("latin-1", "replace").decode("latin-1")


def _cut(text: str) -> str:
    return text if len(text) <= COLUMNS else text[:COLUMNS - 1] + MORE


def layout(lines: Sequence[str]) -> list[str]:
    """The status bar and the (up to four) body rows to draw for ``lines``."""
    lines = [printable(line).strip() for line in lines][:5]
    if not lines:
        return [""]
    status, body = lines[0], lines[1:]
    wrapped = [textwrap.wrap(line, COLUMNS, break_long_words=True) or [""] for line in body]
    take = [1] * len(wrapped)
    spare = len(ROW_Y) - len(body)
    while spare > 0:
        # the spare row goes to the line that would hide the most text
        hidden = [(sum(map(len, w[t:])), i) for i, (w, t) in enumerate(zip(wrapped, take)) if t < len(w)]
        if not hidden:
            break
        take[max(hidden)[1]] += 1
        spare -= 1
    rows: list[str] = []
    for w, t in zip(wrapped, take):
        if t < len(w):
            w = w[:t - 1] + [" ".join(w[t - 1:])]
        rows.extend(_cut(part) for part in w)
    return [_cut(status)] + rows


def render(lines: Sequence[str], image: Image.Image | None = None) -> Image.Image:
    """Draw ``lines`` on a 128×64 1-bit image (a new one unless given)."""
    if image is None:
        image = Image.new("1", (WIDTH, HEIGHT), 0)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, image.width - 1, image.height - 1), fill=0)
    rows = layout(lines)
    draw.rectangle((0, 0, image.width - 1, BAR_H - 1), fill=1)
    draw.text((1, 1), rows[0], font=FONT, fill=0)
    for y, text in zip(ROW_Y, rows[1:]):
        draw.text((1, y), text, font=FONT, fill=1)
    return image


class OledDisplay:
    """A :class:`~maxima_board.devices.interfaces.Display` on any luma device of 128×64
    (``ssd1306``, ``sh1106``, or ``luma.core.device.dummy`` in tests)."""

    def __init__(self, device):
        if device.size != (WIDTH, HEIGHT):
            raise ValueError(f"the OLED must be {WIDTH}x{HEIGHT}, got {device.width}x{device.height}")
        self.device = device
        self.lines: list[str] | None = None

    def show(self, lines: Sequence[str]) -> None:
        lines = list(lines)
        if lines == self.lines:
            return
        image = render(lines)
        self.device.display(image.convert(self.device.mode))
        self.lines = lines

    def close(self, farewell: Sequence[str] | None = ("maxima-board", "", "Stopped.")) -> None:
        """Leave ``farewell`` on the panel (a blank panel looks like a dead
        board) and release the bus; ``farewell=None`` blanks it."""
        try:
            if farewell is not None:
                self.show(farewell)
                self.device.persist = True
            self.device.cleanup()
        except Exception:  # the bus may be gone already; nothing more to do
            pass


def open_oled(driver: str = "ssd1306", i2c_bus: int = 1, address: int = 0x3C,
              rotate: int = 0, contrast: int = 255) -> OledDisplay:
    """Open the OLED named in the config (``driver`` ssd1306, sh1106 or
    dummy); raise :class:`HardwareError` with one line when it cannot."""
    if driver == "dummy":
        from luma.core.device import dummy

        return OledDisplay(dummy(width=WIDTH, height=HEIGHT, rotate=rotate, mode="1"))
    from luma.core.interface.serial import i2c
    from luma.oled import device as oled_devices

    where = f"oled {driver} on I2C bus {i2c_bus} address 0x{address:02x}"
    try:
        serial = i2c(port=i2c_bus, address=address)
        device = getattr(oled_devices, driver)(serial, width=WIDTH, height=HEIGHT, rotate=rotate)
        device.contrast(contrast)
    except Exception as exc:  # luma.core.error.*, OSError from the bus
        raise HardwareError(f"{where}: {exc}") from None
    return OledDisplay(device)
