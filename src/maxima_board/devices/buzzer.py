"""An optional buzzer on BCM 18 (gpiozero) for feedback: one short beep
when a move is accepted, three quick low ones on an error.

``kind = "active"`` is a buzzer with its own oscillator (gpiozero
``Buzzer``: on/off); ``"passive"`` is a bare piezo driven with a tone
(gpiozero ``TonalBuzzer``, needs a PWM-capable pin factory).
"""
from __future__ import annotations

import threading

from gpiozero import Buzzer, TonalBuzzer
from gpiozero.tones import Tone
from gpiozero.exc import GPIOZeroError

from .errors import HardwareError

# sound -> (beeps, on seconds, off seconds, tone in Hz for a passive buzzer)
SOUNDS = {"accepted": (1, 0.06, 0.0, 1760.0), "error": (3, 0.08, 0.06, 440.0)}


class Beeper:
    """Plays the named sounds of :data:`SOUNDS` without blocking."""

    def __init__(self, pin: int = 18, kind: str = "active", pin_factory=None,
                 sounds: dict[str, tuple[int, float, float, float]] | None = None):
        self.kind = kind
        self.sounds = dict(SOUNDS if sounds is None else sounds)
        self._timer: threading.Thread | None = None
        try:
            if kind == "passive":
                self.device = TonalBuzzer(pin, mid_tone=Tone(note="A5"), octaves=2, pin_factory=pin_factory)
            else:
                self.device = Buzzer(pin, pin_factory=pin_factory)
        except (GPIOZeroError, OSError, RuntimeError) as exc:
            raise HardwareError(f"buzzer ({kind}) on BCM {pin}: {exc}") from None

    def play(self, sound: str, background: bool = True) -> None:
        """Play ``accepted`` or ``error``; ``background=False`` waits until done."""
        beeps, on, off, hz = self.sounds[sound]
        if self.kind == "active":
            self.device.beep(on_time=on, off_time=off or on, n=beeps, background=background)
            return
        if background:
            self._timer = threading.Thread(target=self._tones, args=(beeps, on, off, hz), daemon=True)
            self._timer.start()
        else:
            self._tones(beeps, on, off, hz)

    def _tones(self, beeps: int, on: float, off: float, hz: float) -> None:
        stop = threading.Event()
        for i in range(beeps):
            self.device.play(Tone(frequency=hz))
            stop.wait(on)
            self.device.stop()
            if i + 1 < beeps:
                stop.wait(off)

    def close(self) -> None:
        self.device.close()
