"""The error a driver raises when its hardware cannot be used."""
from __future__ import annotations


class HardwareError(RuntimeError):
    """A device is missing, busy or misbehaving; ``str()`` is one line that
    names the device and what went wrong."""
