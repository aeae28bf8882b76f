"""The buzzer on gpiozero's MockFactory: an active buzzer is switched on
and off, a passive one is played tones through a PWM mock pin."""
from __future__ import annotations

from unittest import mock

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin

from maxima_board.devices.buzzer import SOUNDS, Beeper

# The real sounds' shapes with 1 ms beeps, so the test does not wait.
QUICK = {name: (beeps, 0.001, 0.001 if off else 0.0, hz) for name, (beeps, on, off, hz) in SOUNDS.items()}


@pytest.fixture
def factory(request):
    previous = Device.pin_factory
    Device.pin_factory = MockFactory(pin_class=request.param)
    yield Device.pin_factory
    Device.pin_factory.reset()
    Device.pin_factory.close()
    Device.pin_factory = previous


@pytest.mark.parametrize("factory", [MockFactory().pin_class], indirect=True)
def test_active_buzzer_beeps(factory):
    beeper = Beeper(18, "active", sounds=QUICK)
    pin = factory.pin(18)
    for sound, beeps in (("accepted", 1), ("error", 3)):
        pin.clear_states()
        beeper.play(sound, background=False)
        assert [s.state for s in pin.states] == [False] + [True, False] * beeps
    beeper.close()


@pytest.mark.parametrize("factory", [MockPWMPin], indirect=True)
def test_passive_buzzer_plays_tones(factory):
    beeper = Beeper(18, "passive", sounds=QUICK)
    pin = factory.pin(18)
    pin.clear_states()
    with mock.patch.object(pin, "_set_frequency", wraps=pin._set_frequency) as frequency:
        beeper.play("error", background=False)
    tones = [round(c.args[0]) for c in frequency.call_args_list if c.args[0] is not None]
    assert tones == [440, 440, 440]
    assert [s.state for s in pin.states][1::2] == [0.5, 0.5, 0.5]      # sounding at 50 % duty
    assert pin.states[-1].state == 0                                  # and silent at the end
    beeper.close()


@pytest.mark.parametrize("factory", [MockFactory().pin_class], indirect=True)
def test_busy_pin_is_one_line(factory):
    first = Beeper(18)
    from maxima_board.devices.errors import HardwareError

    with pytest.raises(HardwareError, match=r"^buzzer \(active\) on BCM 18: .*already in use") as info:
        Beeper(18)
    assert "\n" not in str(info.value)
    first.close()
