"""Build the devices a configuration names: sensor source, LEDs, display
and buzzer, for the direct or the Pico topology."""
from __future__ import annotations

import importlib.util
from dataclasses import dataclass, field
from typing import Callable, Mapping, Sequence

from maxima_board.devices.blink import BlinkPlan
from .config import Config
from maxima_board.devices.errors import HardwareError
from maxima_board.devices.interfaces import Display, LedSink, SensorSource
from maxima_board.devices.matrix_map import MatrixMap


class NoLeds:
    """The LED sink of a board without LEDs."""

    def show(self, leds: Mapping[str, str], now_ms: int) -> None:
        pass

    def close(self) -> None:
        pass


class NoDisplay:
    """The display of a board without an OLED."""

    def show(self, lines: Sequence[str]) -> None:
        pass

    def close(self) -> None:
        pass


@dataclass
class Hardware:
    """The devices of one board; ``close()`` releases them all."""

    source: SensorSource
    leds: LedSink = field(default_factory=NoLeds)
    display: Display = field(default_factory=NoDisplay)
    beeper: object | None = None
    description: str = ""

    def close(self) -> None:
        closed: set[int] = set()
        for device in (self.beeper, self.display, self.leds, self.source):
            if device is not None and id(device) not in closed:
                closed.add(id(device))
                try:
                    device.close()
                except Exception:  # closing must not hide the real error
                    pass


PI_EXTRA = "install maxima-board with its 'pi' extra (sudo systemd/install.sh does: pip install 'maxima-board[pi]')"
DEPENDENCY = "a dependency of maxima-board: install maxima-board again"
# The Python module of each gpiozero pin factory ("native" and "mock" need none).
PIN_FACTORY_MODULES = {"lgpio": ("lgpio", PI_EXTRA + ", or sudo apt-get install python3-lgpio"),
                       "rpigpio": ("RPi.GPIO", "sudo apt-get install python3-rpi.gpio"),
                       "pigpio": ("pigpio", "sudo apt-get install python3-pigpio")}


@dataclass(frozen=True)
class MissingModule:
    """A Python module a device of the config needs and this install lacks."""

    module: str
    part: str        # the config's device that needs it
    fix: str

    def __str__(self) -> str:
        return f"missing module {self.module} (for {self.part}): {self.fix}"


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):     # a parent package missing or broken
        return False


def missing_modules(config: Config, installed: Callable[[str], bool] = _installed,
                    model: str | None = None) -> list[MissingModule]:
    """The modules the devices of ``config`` (its topology, LEDs, OLED,
    buzzer) need that cannot be imported here, each with the device and the fix."""
    needs: list[tuple[str, str, str]] = []
    gpio_parts = []
    if config.hardware == "direct":
        gpio_parts.append("the switch matrix")
        if config.leds.driver == "max7219":
            needs.append(("luma.led_matrix", "the MAX7219 LEDs", DEPENDENCY))
            if config.leds.interface == "spi":
                needs.append(("spidev", "the MAX7219 LEDs on SPI",
                              PI_EXTRA + ", or sudo apt-get install python3-spidev"))
    elif config.hardware == "pico":
        needs.append(("serial", "the Pico's USB serial link (pyserial)", DEPENDENCY))
    if config.hardware in ("direct", "pico") and config.oled.driver != "none":
        needs.append(("luma.oled" if config.oled.driver != "dummy" else "luma.core", "the OLED", DEPENDENCY))
        if config.oled.driver in ("ssd1306", "sh1106"):
            needs.append(("smbus2", "the OLED on I2C", DEPENDENCY))
    if config.hardware in ("direct", "pico") and config.buzzer.enabled:
        gpio_parts.append("the buzzer")
    if gpio_parts:
        part = " and ".join(gpio_parts)
        needs.append(("gpiozero", part, DEPENDENCY))
        factory = config.matrix.pin_factory if config.hardware == "direct" else "auto"
        if factory == "auto":
            factory = _auto_factory(installed, model)
        if factory in PIN_FACTORY_MODULES:
            module, fix = PIN_FACTORY_MODULES[factory]
            needs.append((module, f"{part} (pin factory {factory})", fix))
    seen: set[str] = set()
    out = []
    for module, part, fix in needs:
        if module not in seen and not installed(module):
            seen.add(module)
            out.append(MissingModule(module, part, fix))
    return out


def _auto_factory(installed: Callable[[str], bool], model: str | None) -> str:
    """The pin factory "auto" comes to: $GPIOZERO_PIN_FACTORY; lgpio on a Pi 5;
    elsewhere gpiozero takes lgpio, RPi.GPIO or pigpio, whichever is there."""
    import os

    chosen = os.environ.get("GPIOZERO_PIN_FACTORY", "").lower()
    if chosen:
        return chosen
    try:
        from maxima_board.devices.pins import board_model, is_pi5
    except ImportError:      # no gpiozero: named on its own
        return "lgpio"
    if is_pi5(model if model is not None else board_model()):
        return "lgpio"
    return "none" if any(installed(m) for m in ("RPi.GPIO", "pigpio")) else "lgpio"


def build_hardware(config: Config) -> Hardware:
    """Open every device of ``config`` (hardware "direct" or "pico");
    raise :class:`HardwareError` (one line) when one cannot be used."""
    if config.hardware == "direct":
        return _direct(config)
    if config.hardware == "pico":
        return _pico(config)
    raise HardwareError(f'hardware "{config.hardware}" has no devices to open')


def _opened(opened: list, make):
    device = make()
    opened.append(device)
    return device


def _common(config: Config, opened: list, pin_factory_ready: bool) -> tuple[Display, object | None]:
    display: Display = NoDisplay()
    if config.oled.driver != "none":
        from maxima_board.devices.oled import open_oled

        o = config.oled
        display = _opened(opened, lambda: open_oled(o.driver, o.i2c_bus, o.address, o.rotate, o.contrast))
    beeper = None
    if config.buzzer.enabled:
        from maxima_board.devices.buzzer import Beeper
        from maxima_board.devices.pins import PinFactoryError, choose_pin_factory

        if not pin_factory_ready:
            try:
                choose_pin_factory("auto")
            except PinFactoryError as exc:
                raise HardwareError(f"buzzer: {exc}") from None
        beeper = _opened(opened, lambda: Beeper(config.buzzer.pin, config.buzzer.kind))
    return display, beeper


def _close_all(opened: list) -> None:
    for device in reversed(opened):
        try:
            device.close()
        except Exception:
            pass


def _direct(config: Config) -> Hardware:
    from maxima_board.devices.pins import PinFactoryError, choose_pin_factory
    from maxima_board.devices.scanner import MatrixScanner

    opened: list = []
    try:
        try:
            factory = choose_pin_factory(config.matrix.pin_factory)
        except PinFactoryError as exc:
            raise HardwareError(f"matrix: {exc}") from None
        _ensure_gpio(config)
        m = config.matrix
        matrix_map = MatrixMap(dict(m.layout))
        source = _opened(opened, lambda: MatrixScanner(m.rows, m.columns, matrix_map,
                                                       debounce_ms=config.debounce_ms,
                                                       row_settle_us=m.row_settle_us))
        leds: LedSink = NoLeds()
        if config.leds.driver == "max7219":
            from maxima_board.devices.max7219 import Max7219Leds, open_max7219

            c = config.leds
            device = open_max7219(c.interface, c.spi_port, c.spi_device, c.chips, c.brightness)
            leds = _opened(opened, lambda: Max7219Leds(device, matrix_map, c.order,
                                                       BlinkPlan(c.patterns, c.slow_blink_ms, c.fast_blink_ms)))
        display, beeper = _common(config, opened, pin_factory_ready=True)
    except BaseException:
        _close_all(opened)
        raise
    return Hardware(source, leds, display, beeper, f"direct ({factory})")


def _ensure_gpio(config: Config) -> None:
    """Load gpiozero's default pin factory without its warning per factory
    tried; none loading (not a Raspberry Pi) is one HardwareError line."""
    import os
    import warnings

    from gpiozero import Device
    from gpiozero.exc import BadPinFactory, PinFactoryFallback

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PinFactoryFallback)
        try:
            Device.ensure_pin_factory()
        except BadPinFactory as exc:
            chosen = os.environ.get("GPIOZERO_PIN_FACTORY")
            if chosen:
                raise HardwareError(f"matrix: GPIOZERO_PIN_FACTORY={chosen}: {exc}") from None
            raise HardwareError(f'matrix: no GPIO on this machine (gpiozero loaded none of lgpio, RPi.GPIO, '
                                f'pigpio, native); config {config.path}: hardware = "direct" needs a '
                                f'Raspberry Pi') from None


def _pico(config: Config) -> Hardware:
    try:
        from maxima_board.devices import serial_link
    except ImportError:
        raise HardwareError("pico link not available") from None
    opened: list = []
    try:
        matrix_map = config.matrix_map()
        link = _opened(opened, lambda: serial_link.open_link(config.pico.device, config.pico.baud, matrix_map,
                                                             config.board_kind))
        display, beeper = _common(config, opened, pin_factory_ready=False)
    except BaseException:
        _close_all(opened)
        raise
    return Hardware(link, link, display, beeper, f"pico ({config.pico.device})")
