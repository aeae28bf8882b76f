"""OLED frames drawn on luma's dummy device and compared with golden PNGs
(tests/golden/oled_*.png). Regenerate with ``UPDATE_GOLDEN=1`` and look at
the files before committing them."""
from __future__ import annotations

import os
from pathlib import Path
from unittest import mock

import pytest
from luma.core.device import dummy
from luma.core.interface.serial import noop
from luma.oled.device import sh1106, ssd1306
from PIL import Image, ImageChops

from maxima_board.devices.oled import COLUMNS, HEIGHT, WIDTH, OledDisplay, layout, open_oled, printable, render

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"

# The main screens, as the controller words them (status bar first; the
# controller wraps its text to 21 characters itself).
SCREENS = {
    "to_move": ["Black to move     11.", "11. Pawn g4-g7"],
    "remove": ["White to move     12.", "11... Chameleon f6-d4", "Remove: Pawn c6,", "Guard d7, Leaper e3."],
    "error": ["White to move     12.", "11... Pawn f6-g6xg7", "Not a legal move. Put", "the Guard back on a3",
              "from e5."],
    "game_over": ["Game over         1-0", "41. Queen e8-e9", "White wins:", "checkmate. Set up the",
                  "start, then NEW."],
    "link_lost": ["Board link lost", "", "Reconnecting. Wait", "before you move."],
}


def _frame(lines) -> Image.Image:
    device = dummy(width=WIDTH, height=HEIGHT, mode="1")
    OledDisplay(device).show(lines)
    return device.image


@pytest.mark.parametrize("name", sorted(SCREENS))
def test_screen_matches_golden(name):
    image = _frame(SCREENS[name])
    path = GOLDEN / f"oled_{name}.png"
    if UPDATE:
        GOLDEN.mkdir(exist_ok=True)
        image.save(path)
        # a 4x enlargement for people to look at
        image.resize((WIDTH * 4, HEIGHT * 4), Image.NEAREST).save(GOLDEN / f"oled_{name}_x4.png")
    assert path.exists(), f"no golden {path.name}: run with UPDATE_GOLDEN=1"
    golden = Image.open(path).convert("1")
    assert image.size == golden.size == (128, 64)
    diff = ImageChops.difference(image.convert("L"), golden.convert("L")).getbbox()
    assert diff is None, f"{name}: pixels differ inside {diff}"


def test_goldens_differ_from_each_other():
    """A blank or constant image would pass a careless comparison."""
    frames = [_frame(lines).tobytes() for lines in SCREENS.values()]
    assert len(set(frames)) == len(frames)


def test_status_bar_is_inverse_video():
    image = _frame(["Status", "body"])
    assert image.getpixel((127, 0)) and image.getpixel((127, 11))              # bar lit
    assert not image.getpixel((127, 12)) and not image.getpixel((127, 63))     # body dark


class TestLayout:
    def test_short_lines_stay_as_they_are(self):
        assert layout(["a", "b", "c"]) == ["a", "b", "c"]

    def test_long_line_wraps_into_free_rows(self):
        rows = layout(["bar", "White: Chameleon f2-d4", "Remove: Pawn c6, Guard d7, Leaper e3"])
        assert rows == ["bar", "White: Chameleon", "f2-d4", "Remove: Pawn c6,", "Guard d7, Leaper e3"]

    def test_a_spare_row_goes_to_the_line_that_would_hide_the_most(self):
        rows = layout(["bar", "White: Chameleon f2-d4", "Remove: Pawn c6, Guard d7, Leaper e3", "Then OK"])
        assert rows == ["bar", "White: Chameleon f2-\u00bb", "Remove: Pawn c6,", "Guard d7, Leaper e3", "Then OK"]

    def test_without_free_rows_a_long_line_is_cut_and_marked(self):
        rows = layout(["bar", "one", "two", "Remove: Pawn c6, Guard d7, Leaper e3", "four"])
        assert rows[3] == "Remove: Pawn c6, Gua\u00bb" and len(rows) == 5

    def test_every_row_fits_the_width(self):
        rows = layout(["x" * 40, "y" * 60, "z " * 30])
        assert all(len(r) <= COLUMNS for r in rows) and len(rows) <= 5

    def test_at_most_five_lines(self):
        assert layout([str(i) for i in range(8)]) == ["0", "1", "2", "3", "4"]

    def test_characters_outside_the_font(self):
        assert printable("Wait\u2026 d0\u2192e5 \u2014 \u2603") == "Wait... d0->e5 - ?"
        assert printable("x" * 20 + "\u2026") == "x" * 20 + "\u00bb"     # no room for "..."
        assert layout([]) == [""]


def test_display_is_written_only_on_change():
    device = dummy(width=WIDTH, height=HEIGHT, mode="1")
    display = OledDisplay(device)
    with mock.patch.object(device, "display", wraps=device.display) as spy:
        display.show(["a", "b"])
        display.show(["a", "b"])
        display.show(["a", "c"])
    assert spy.call_count == 2


@pytest.mark.parametrize("driver", [ssd1306, sh1106])
def test_real_drivers_send_the_same_picture(driver):
    """Through a recording no-op serial interface, the bytes luma sends to an
    SSD1306 hold exactly the rendered picture; SH1106 takes it too."""
    serial = mock.Mock(wraps=noop())
    device = driver(serial_interface=serial, width=WIDTH, height=HEIGHT)
    serial.reset_mock()
    lines = SCREENS["error"]
    OledDisplay(device).show(lines)
    sent = [b for call in serial.data.call_args_list for b in call.args[0]]
    assert len(sent) == WIDTH * HEIGHT // 8
    if driver is ssd1306:
        picture = render(lines)
        for y in range(HEIGHT):
            for x in range(WIDTH):
                lit = bool(sent[(y // 8) * WIDTH + x] >> (y % 8) & 1)
                assert lit == bool(picture.getpixel((x, y))), (x, y)


def test_open_oled_errors_are_one_line(monkeypatch):
    import luma.core.interface.serial as serial_module
    from luma.core.error import DeviceNotFoundError

    def missing(port, address):
        raise DeviceNotFoundError(f"I2C device not found: /dev/i2c-{port}")

    monkeypatch.setattr(serial_module, "i2c", missing)
    from maxima_board.devices.errors import HardwareError

    with pytest.raises(HardwareError) as info:
        open_oled("sh1106", 1, 0x3C)
    assert str(info.value) == "oled sh1106 on I2C bus 1 address 0x3c: I2C device not found: /dev/i2c-1"


def test_open_oled_dummy():
    display = open_oled("dummy")
    display.show(SCREENS["to_move"])
    assert display.device.image.getbbox() is not None
