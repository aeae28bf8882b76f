"""Which gpiozero pin factory drives the pins.

gpiozero picks a factory by itself (lgpio, then RPi.GPIO, pigpio, native),
but on a Raspberry Pi 5 only lgpio works, and a silent fall-back to another
factory would fail later with an obscure message. So on a Pi 5 the lgpio
factory is chosen explicitly; everywhere else gpiozero's own choice stands.
Choosing never touches hardware and never fails on a PC: an error can only
come when a device is built on pins that do not exist.
"""
from __future__ import annotations

import importlib
import os
from pathlib import Path

from gpiozero import Device

MODEL_PATHS = (Path("/proc/device-tree/model"), Path("/sys/firmware/devicetree/base/model"))

_FACTORIES = {
    "lgpio": ("gpiozero.pins.lgpio", "LGPIOFactory"),
    "rpigpio": ("gpiozero.pins.rpigpio", "RPiGPIOFactory"),
    "pigpio": ("gpiozero.pins.pigpio", "PiGPIOFactory"),
    "native": ("gpiozero.pins.native", "NativeFactory"),
    "mock": ("gpiozero.pins.mock", "MockFactory"),
}


class PinFactoryError(RuntimeError):
    """The requested pin factory cannot be used; ``str()`` says why in one line."""


def board_model(paths: tuple[Path, ...] = MODEL_PATHS) -> str | None:
    """The device-tree model string ("Raspberry Pi 5 Model B Rev 1.0"), or
    None where there is none (a PC)."""
    for path in paths:
        try:
            return path.read_bytes().rstrip(b"\0\n").decode("ascii", "replace")
        except OSError:
            continue
    return None


def is_pi5(model: str | None) -> bool:
    """True for the RP1-based boards: Pi 5, Pi 500, Compute Module 5."""
    if not model:
        return False
    return any(model.startswith(p) for p in ("Raspberry Pi 5", "Raspberry Pi 500", "Raspberry Pi Compute Module 5"))


def factory_name(requested: str = "auto", model: str | None = None,
                 environ: dict[str, str] | None = None) -> str | None:
    """The factory to install for ``requested`` ("auto" or a name), or None
    to leave gpiozero's own choice (and ``$GPIOZERO_PIN_FACTORY``) alone."""
    if requested != "auto":
        return requested
    environ = os.environ if environ is None else environ
    if environ.get("GPIOZERO_PIN_FACTORY"):
        return None
    return "lgpio" if is_pi5(model) else None


def choose_pin_factory(requested: str = "auto", model: str | None = None,
                       environ: dict[str, str] | None = None) -> str:
    """Install the pin factory for ``requested`` unless one is installed
    already (tests install a MockFactory first). Returns a short description
    of the factory in use, for the log."""
    if Device.pin_factory is not None:
        return type(Device.pin_factory).__name__ + " (already set)"
    if model is None:
        model = board_model()
    name = factory_name(requested, model, environ)
    if name is None:
        return "gpiozero default"
    module_name, class_name = _FACTORIES[name]
    try:
        module = importlib.import_module(module_name)
        Device.pin_factory = getattr(module, class_name)()
    except ImportError as exc:
        hint = " (install the 'pi' extra: pip install 'maxima-board[pi]')" if name == "lgpio" else ""
        raise PinFactoryError(f"pin factory {name} is not installed: {exc}{hint}") from None
    except Exception as exc:  # the library's own errors (no gpiochip, not a Pi, ...)
        raise PinFactoryError(f"pin factory {name} cannot start: {exc}") from None
    return class_name
