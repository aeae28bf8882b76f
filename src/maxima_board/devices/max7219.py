"""Single-colour LEDs on cascaded MAX7219 chips through luma.led_matrix.

Two chips drive 128 LEDs; the 80 matrix positions take the first 80 by
default. LED number ``n`` sits on chip ``n // 64`` (counted from the one
wired to the Pi), digit line ``DIG (n % 64) // 8`` and segment bit
``n % 8`` (bit 0 = SEG G … bit 6 = SEG A, bit 7 = SEG DP, the chip's
no-decode order). With the default order, matrix row R0–R7 are chip 0's
digits 0–7, R8–R9 chip 1's digits 0–1, and column Cc is segment bit c. An
``order`` list in the config maps each matrix position to another LED.

In luma's 1-bit image of a chain of ``k`` chips (8k × 8 pixels) LED ``n`` is
pixel ``(8 * chip + digit, bit)``.
"""
from __future__ import annotations

from typing import Iterable, Mapping, Sequence

from PIL import Image

from .blink import BlinkPlan
from .errors import HardwareError
from .matrix_map import POSITIONS, MatrixMap


def led_pixel(led: int) -> tuple[int, int]:
    """Pixel of LED number ``led`` in luma's max7219 image."""
    chip, rest = divmod(led, 64)
    digit, bit = divmod(rest, 8)
    return chip * 8 + digit, bit


class Max7219Leds:
    """A :class:`~maxima_board.devices.interfaces.LedSink` on a luma ``max7219`` device.
    The device is written only when the set of lit LEDs changes."""

    def __init__(self, device, matrix_map: MatrixMap | None = None, order: Sequence[int] | None = None,
                 plan: BlinkPlan | None = None):
        self.device = device
        self.map = matrix_map or MatrixMap()
        self.order = tuple(order) if order is not None else tuple(range(POSITIONS))
        if len(self.order) != POSITIONS:
            raise ValueError(f"order must name {POSITIONS} LEDs, got {len(self.order)}")
        self.plan = plan or BlinkPlan()
        self.lit: frozenset[int] | None = None   # matrix positions lit now
        self._leds: dict[str, str] = {}

    def next_deadline(self, now_ms: int) -> int | None:
        """When the blinking LEDs shown last change next: the loop shows
        them again then."""
        return self.plan.next_change(self._leds, now_ms)

    def show(self, leds: Mapping[str, str], now_ms: int) -> None:
        self._leds = dict(leds)
        squares = self.plan.lit(leds, now_ms)
        self.show_positions(self.map.position_of[sq] for sq in squares if sq in self.map.position_of)

    def show_positions(self, positions: Iterable[int]) -> None:
        """Light exactly the LEDs of these matrix positions (diagnostics)."""
        positions = frozenset(positions)
        if positions == self.lit:
            return
        image = Image.new(self.device.mode, self.device.size, 0)
        for pos in positions:
            image.putpixel(led_pixel(self.order[pos]), 1)
        self.device.display(image)
        self.lit = positions

    def close(self) -> None:
        try:
            self.device.cleanup()
        except Exception:  # the bus may be gone already
            pass


def open_max7219(interface: str = "spi", spi_port: int = 0, spi_device: int = 0, chips: int = 2,
                 brightness: int = 4):
    """The luma ``max7219`` device of the config (``interface`` "spi", or
    "noop" to send nothing); :class:`HardwareError` when it cannot open."""
    from luma.core.interface.serial import noop, spi
    from luma.led_matrix.device import max7219

    try:
        serial = noop() if interface == "noop" else spi(port=spi_port, device=spi_device, gpio=noop())
        return max7219(serial, cascaded=chips, contrast=brightness * 16)
    except Exception as exc:  # luma.core.error.*, OSError from spidev
        raise HardwareError(f"leds max7219 on SPI {spi_port}.{spi_device}: {exc}") from None
