"""Draws the wiring diagrams and schematics of docs/ as SVG files.

Standard library only. Run from anywhere:

    python docs/drawings/make_drawings.py          # rewrites docs/drawings/*.svg

The pin tables below are the defaults of the code (hardware/config.py,
firmware/config.json, systemd/config.example.toml); tests/test_docs.py
checks that they agree, and that the committed SVGs are what this script
writes.
"""
from __future__ import annotations

import math
from pathlib import Path
from xml.sax.saxutils import escape

HERE = Path(__file__).resolve().parent

# ----------------------------------------------------------------- pin tables

# Raspberry Pi Pico (RP2040; Pico W, Pico 2 alike): physical pin -> name.
PICO_PINS = {
    1: "GP0", 2: "GP1", 3: "GND", 4: "GP2", 5: "GP3", 6: "GP4", 7: "GP5", 8: "GND", 9: "GP6", 10: "GP7",
    11: "GP8", 12: "GP9", 13: "GND", 14: "GP10", 15: "GP11", 16: "GP12", 17: "GP13", 18: "GND", 19: "GP14",
    20: "GP15", 21: "GP16", 22: "GP17", 23: "GND", 24: "GP18", 25: "GP19", 26: "GP20", 27: "GP21", 28: "GND",
    29: "GP22", 30: "RUN", 31: "GP26", 32: "GP27", 33: "GND", 34: "GP28", 35: "ADC_VREF", 36: "3V3(OUT)",
    37: "3V3_EN", 38: "GND", 39: "VSYS", 40: "VBUS",
}
PICO_GP_TO_PIN = {int(name[2:]): pin for pin, name in PICO_PINS.items() if name.startswith("GP")}

# Raspberry Pi 40-pin header: physical pin -> name (BCM numbers as "BCM n").
PI_HEADER = {
    1: "3V3", 2: "5V", 3: "BCM 2", 4: "5V", 5: "BCM 3", 6: "GND", 7: "BCM 4", 8: "BCM 14", 9: "GND",
    10: "BCM 15", 11: "BCM 17", 12: "BCM 18", 13: "BCM 27", 14: "GND", 15: "BCM 22", 16: "BCM 23", 17: "3V3",
    18: "BCM 24", 19: "BCM 10", 20: "GND", 21: "BCM 9", 22: "BCM 25", 23: "BCM 11", 24: "BCM 8", 25: "GND",
    26: "BCM 7", 27: "BCM 0", 28: "BCM 1", 29: "BCM 5", 30: "GND", 31: "BCM 6", 32: "BCM 12", 33: "BCM 13",
    34: "GND", 35: "BCM 19", 36: "BCM 16", 37: "BCM 26", 38: "BCM 20", 39: "GND", 40: "BCM 21",
}
BCM_TO_PIN = {int(name[4:]): pin for pin, name in PI_HEADER.items() if name.startswith("BCM")}

# Topology A, the Maxima board (firmware/config.json) and the 10x10 board (board.md).
PICO_MAXIMA = {"rows": list(range(0, 10)), "cols": list(range(10, 18)), "led_pin": 22}
PICO_10X10 = {"rows": list(range(0, 11)), "cols": list(range(11, 21)), "led_pin": 22}
# Topology B (hardware/config.py, systemd/config.example.toml).
DIRECT = {"rows": [4, 5, 6, 7, 12, 13, 16, 19, 20, 15], "columns": [17, 27, 22, 23, 24, 25, 26, 21],
          "sda": 2, "scl": 3, "mosi": 10, "sclk": 11, "ce0": 8, "buzzer": 18}

FILES = "abcdefghij"
MAXIMA_LAYOUT = [[f"{FILES[c]}{r + 1}" for c in range(8)] for r in range(9)] + [
    ["d0", "e0", "d10", "e10", "OK", "BACK", "MENU", "NEW"]]
BOARD_10X10_LAYOUT = [[f"{FILES[c]}{r + 1}" for c in range(10)] for r in range(10)] + [
    ["OK", "BACK", "MENU", "NEW"] + ["spare"] * 6]

# -------------------------------------------------------------------- drawing

STYLE = """
.w{stroke:#000;stroke-width:1.6;fill:none;stroke-linecap:round;stroke-linejoin:round}
.thin{stroke:#000;stroke-width:1;fill:none}
.faint{stroke:#999;stroke-width:1;fill:none;stroke-dasharray:4 3}
.box{stroke:#000;stroke-width:1.4;fill:#fff}
.chip{stroke:#000;stroke-width:1.6;fill:#f4f4f4}
.fill{fill:#000;stroke:#000}
.gnd{stroke:#000;stroke-width:1.6;fill:none}
.goal{fill:#ffe9a8;stroke:#000;stroke-width:1}
.btn{fill:#cfe3ff;stroke:#000;stroke-width:1}
.sq{fill:#fff;stroke:#000;stroke-width:1}
.dk{fill:#d9d9d9;stroke:#000;stroke-width:1}
.none{fill:#fff;stroke:#bbb;stroke-width:1;stroke-dasharray:3 3}
.used{fill:#dff5d8;stroke:#000;stroke-width:1}
.pwr{fill:#ffd9d9;stroke:#000;stroke-width:1}
.gndp{fill:#e0e0e0;stroke:#000;stroke-width:1}
text{font-family:DejaVu Sans,Arial,Helvetica,sans-serif;font-size:12px;fill:#000}
.s{font-size:10px}.xs{font-size:8.5px}.b{font-weight:bold}.h{font-size:16px;font-weight:bold}
.red{stroke:#c00000}
.hl{stroke:#c00000;stroke-width:2.5;fill:none;stroke-dasharray:8 4}
"""


def _n(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


class Svg:
    def __init__(self, width: float, height: float, title: str, style: str = ""):
        self.width, self.height, self.title, self.style = width, height, title, style
        self.items: list[str] = []

    def add(self, item: str) -> None:
        self.items.append(item)

    def line(self, x1, y1, x2, y2, cls="w"):
        self.add(f'<line x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(x2)}" y2="{_n(y2)}" class="{cls}"/>')

    def path(self, points, cls="w", closed=False):
        d = " ".join(("M" if i == 0 else "L") + f"{_n(x)},{_n(y)}" for i, (x, y) in enumerate(points))
        self.add(f'<path d="{d}{" Z" if closed else ""}" class="{cls}"/>')

    def rect(self, x, y, w, h, cls="box", rx=0):
        r = f' rx="{_n(rx)}"' if rx else ""
        self.add(f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}"{r} class="{cls}"/>')

    def circle(self, x, y, r, cls="w"):
        self.add(f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}" class="{cls}"/>')

    def dot(self, x, y):
        self.circle(x, y, 2.6, "fill")

    def text(self, x, y, s, cls="", anchor="start", rotate=0):
        c = f' class="{cls}"' if cls else ""
        a = f' text-anchor="{anchor}"' if anchor != "start" else ""
        t = f' transform="rotate({rotate} {_n(x)} {_n(y)})"' if rotate else ""
        self.add(f'<text x="{_n(x)}" y="{_n(y)}"{c}{a}{t}>{escape(s)}</text>')

    def lines(self, x, y, rows, cls="", step=15, anchor="start"):
        for i, s in enumerate(rows):
            self.text(x, y + i * step, s, cls, anchor)

    def group(self, x, y, angle, body: list[str]):
        self.add(f'<g transform="translate({_n(x)} {_n(y)}) rotate({_n(angle)})">' + "".join(body) + "</g>")

    def render(self) -> str:
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_n(self.width)} {_n(self.height)}" '
                f'width="{_n(self.width)}" height="{_n(self.height)}">\n<title>{escape(self.title)}</title>\n'
                f"<style>{STYLE}{self.style}</style>\n"
                f'<rect x="0" y="0" width="{_n(self.width)}" height="{_n(self.height)}" fill="#fff"/>\n')
        return head + "\n".join(self.items) + "\n</svg>\n"


# Two-terminal parts, drawn from (x1, y1) to (x2, y2) along a straight line.

def _two_terminal(svg: Svg, x1, y1, x2, y2, body: list[str], body_len: float) -> None:
    length = math.hypot(x2 - x1, y2 - y1)
    lead = (length - body_len) / 2
    angle = math.degrees(math.atan2(y2 - y1, x2 - x1))
    parts = [f'<line x1="0" y1="0" x2="{_n(lead)}" y2="0" class="w"/>',
             f'<line x1="{_n(lead + body_len)}" y1="0" x2="{_n(length)}" y2="0" class="w"/>',
             f'<g transform="translate({_n(lead)} 0)">' + "".join(body) + "</g>"]
    svg.group(x1, y1, angle, parts)


def resistor(svg, x1, y1, x2, y2):
    _two_terminal(svg, x1, y1, x2, y2, ['<rect x="0" y="-5" width="30" height="10" class="box"/>'], 30)


def capacitor(svg, x1, y1, x2, y2, polarised=False):
    body = ['<line x1="0" y1="0" x2="4" y2="0" class="w"/>', '<line x1="4" y1="-9" x2="4" y2="9" class="w"/>',
            '<line x1="10" y1="-9" x2="10" y2="9" class="w"/>', '<line x1="10" y1="0" x2="14" y2="0" class="w"/>']
    if polarised:
        body.append('<path d="M-3,-12 L-3,-6 M-6,-9 L0,-9" class="thin"/>')
    _two_terminal(svg, x1, y1, x2, y2, body, 14)


def diode(svg, x1, y1, x2, y2):
    """Anode at (x1, y1), cathode (the band) at (x2, y2)."""
    body = ['<path d="M0,-7 L0,7 L12,0 Z" class="fill"/>', '<line x1="12" y1="-7" x2="12" y2="7" class="w"/>',
            '<line x1="0" y1="0" x2="12" y2="0" class="w"/>']
    _two_terminal(svg, x1, y1, x2, y2, body, 12)


def led(svg, x1, y1, x2, y2):
    body = ['<path d="M0,-7 L0,7 L12,0 Z" class="box"/>', '<line x1="12" y1="-7" x2="12" y2="7" class="w"/>',
            '<path d="M4,-9 L9,-16 M9,-16 L6,-15 M9,-16 L9,-13 M9,-8 L14,-15 M14,-15 L11,-14 M14,-15 L14,-12" '
            'class="thin"/>']
    _two_terminal(svg, x1, y1, x2, y2, body, 12)


def reed(svg, x1, y1, x2, y2):
    body = ['<rect x="0" y="-7" width="30" height="14" rx="7" class="faint"/>',
            '<line x1="0" y1="0" x2="13" y2="0" class="w"/>', '<line x1="17" y1="-2" x2="30" y2="0" class="w"/>']
    _two_terminal(svg, x1, y1, x2, y2, body, 30)


def button(svg, x1, y1, x2, y2):
    body = ['<line x1="0" y1="0" x2="6" y2="-7" class="w"/>', '<line x1="3" y1="-8" x2="17" y2="-8" class="w"/>',
            '<line x1="10" y1="-8" x2="10" y2="-15" class="w"/>', '<circle cx="0" cy="0" r="1.8" class="fill"/>',
            '<circle cx="20" cy="0" r="1.8" class="fill"/>']
    _two_terminal(svg, x1, y1, x2, y2, body, 20)


def ground(svg, x, y):
    svg.line(x, y, x, y + 8)
    svg.line(x - 9, y + 8, x + 9, y + 8)
    svg.line(x - 6, y + 12, x + 6, y + 12)
    svg.line(x - 3, y + 16, x + 3, y + 16)


def supply(svg, x, y, label):
    svg.line(x, y, x, y - 10)
    svg.line(x - 8, y - 10, x + 8, y - 10)
    svg.text(x, y - 14, label, "s", "middle")


def chip(svg, x, y, w, h, name, left=(), right=(), top=(), bottom=(), pitch=20):
    """A box with named pins; returns {pin label: (x, y) of the pin's end}."""
    svg.rect(x, y, w, h, "chip", 3)
    if name:
        svg.text(x + w / 2, y + h / 2 + 4, name, "b", "middle")
    ends = {}
    for i, label in enumerate(left):
        py = y + pitch * (i + 1)
        svg.line(x - 14, py, x, py)
        svg.text(x + 4, py + 4, label, "s")
        ends[label] = (x - 14, py)
    for i, label in enumerate(right):
        py = y + pitch * (i + 1)
        svg.line(x + w, py, x + w + 14, py)
        svg.text(x + w - 4, py + 4, label, "s", "end")
        ends[label] = (x + w + 14, py)
    for i, label in enumerate(top):
        px = x + pitch * 1.5 * (i + 1)
        svg.line(px, y - 14, px, y)
        svg.text(px, y + 13, label, "s", "middle")
        ends[label] = (px, y - 14)
    for i, label in enumerate(bottom):
        px = x + pitch * 1.5 * (i + 1)
        svg.line(px, y + h, px, y + h + 14)
        svg.text(px, y + h - 5, label, "s", "middle")
        ends[label] = (px, y + h + 14)
    return ends


def wire(svg, *points, cls="w"):
    svg.path(points, cls)


def npn(svg, x, y):
    """An NPN transistor whose base lead ends at (x, y); returns (collector, emitter) ends."""
    svg.circle(x + 30, y, 18, "thin")
    svg.line(x, y, x + 22, y)
    svg.line(x + 22, y - 11, x + 22, y + 11)
    svg.line(x + 22, y - 5, x + 36, y - 16)
    svg.line(x + 36, y - 16, x + 36, y - 30)
    svg.line(x + 22, y + 5, x + 36, y + 16)
    svg.line(x + 36, y + 16, x + 36, y + 30)
    svg.path([(x + 30, y + 15), (x + 36, y + 16), (x + 33, y + 10)], "fill", closed=True)
    return (x + 36, y - 30), (x + 36, y + 30)


def note(svg, x, y, rows, step=15):
    svg.lines(x, y, rows, "s", step)


# ---------------------------------------------------------------- the drawings

def matrix_row() -> Svg:
    """One matrix row in detail: R9 of the Maxima board (goal squares and buttons)."""
    svg = Svg(1000, 500, "Switch matrix: one row (R9) in detail")
    svg.text(20, 28, "Switch matrix, one row in detail: row R9 of the Maxima board (goal squares and buttons)", "h")
    x0, step, top, row_y = 150, 102, 95, 345
    svg.text(20, 78, "columns (inputs,", "s")
    svg.text(20, 90, "pull-up to 3.3 V)", "s")
    for c in range(8):
        x = x0 + c * step
        gp, bcm = PICO_MAXIMA["cols"][c], DIRECT["columns"][c]
        svg.text(x, 52, f"C{c}", "b", "middle")
        svg.text(x, 64, f"GP{gp} · pin {PICO_GP_TO_PIN[gp]}", "xs", "middle")
        svg.text(x, 75, f"BCM {bcm} · pin {BCM_TO_PIN[bcm]}", "xs", "middle")
        svg.line(x, 80, x, 372)
        svg.path([(x - 4, 366), (x, 374), (x + 4, 366)], "thin")
        # the pull-up is inside the Pico / the Pi: drawn dashed
        svg.path([(x, top), (x + 30, top)], "faint")
        svg.add(f'<rect x="{_n(x + 30)}" y="{_n(top - 5)}" width="26" height="10" class="faint"/>')
        svg.path([(x + 56, top), (x + 66, top), (x + 66, top - 8)], "faint")
        svg.dot(x, top)
        # branch: switch then diode, down to the row line
        svg.dot(x, 140)
        wire(svg, (x, 140), (x + 28, 140), (x + 28, 150))
        part = MAXIMA_LAYOUT[9][c]
        if c < 4:
            reed(svg, x + 28, 150, x + 28, 215)
        else:
            button(svg, x + 28, 160, x + 28, 205)
            wire(svg, (x + 28, 150), (x + 28, 160))
            wire(svg, (x + 28, 205), (x + 28, 215))
        diode(svg, x + 28, 225, x + 28, 300)
        wire(svg, (x + 28, 215), (x + 28, 225))
        wire(svg, (x + 28, 300), (x + 28, row_y))
        svg.dot(x + 28, row_y)
        svg.text(x + 50, 186, part, "b")
        svg.text(x + 50, 199, "reed" if c < 4 else "button", "xs")
        svg.text(x + 42, 262, "1N4148", "xs")
        svg.text(x + 42, 274, f"pos {9 * 8 + c}", "xs")
    svg.line(60, row_y, x0 + 7 * step + 60, row_y)
    svg.text(20, row_y - 24, "row R9 (output,", "s")
    svg.text(20, row_y - 12, "low while scanned)", "s")
    svg.text(20, row_y + 18, f"Pico GP{PICO_MAXIMA['rows'][9]} · pin {PICO_GP_TO_PIN[PICO_MAXIMA['rows'][9]]}", "s")
    svg.text(20, row_y + 32, f"Pi BCM {DIRECT['rows'][9]} · pin {BCM_TO_PIN[DIRECT['rows'][9]]}", "s")
    svg.text(x0 + 7 * step + 70, top - 8, "3.3 V", "xs")
    svg.text(20, 392, "↓ each column goes on to the same column of rows R8 … R0", "s")
    note(svg, 20, 420, [
        "Every square and button: switch and 1N4148 in series between its column and its row.",
        "Diode anode on the column side, cathode (the band) on the row side. Rows R0–R8 are wired the same way.",
        "The scanner drives one row low at a time (the others high) and reads the columns; a closed switch pulls its",
        "column low only while its own row is low. The diodes stop 'ghost' squares when several switches are closed.",
        "Dashed: the pull-ups inside the Pico / the Pi (no resistors to fit)."])
    return svg


def _grid(svg: Svg, layout, x0, y0, cw, ch, rows_label, cols_label, ncols, goals=()):
    for r, row in enumerate(layout):
        y = y0 + (len(layout) - 1 - r) * ch
        svg.text(x0 - 8, y + ch / 2 - 2, f"R{r}", "b", "end")
        svg.text(x0 - 8, y + ch / 2 + 10, rows_label(r), "xs", "end")
        for c, name in enumerate(row):
            cls = "sq"
            if name in ("OK", "BACK", "MENU", "NEW"):
                cls = "btn"
            elif name in goals:
                cls = "goal"
            elif name == "spare":
                cls = "none"
            svg.rect(x0 + c * cw, y, cw, ch, cls)
            svg.text(x0 + c * cw + cw / 2, y + ch / 2 + 1, name, "s b" if cls != "sq" else "s", "middle")
            svg.text(x0 + c * cw + cw - 3, y + ch - 4, str(r * ncols + c), "xs", "end")
    bottom = y0 + len(layout) * ch
    for c in range(ncols):
        svg.text(x0 + c * cw + cw / 2, bottom + 16, f"C{c}", "b", "middle")
        for i, label in enumerate(cols_label(c)):
            svg.text(x0 + c * cw + cw / 2, bottom + 29 + 11 * i, label, "xs", "middle")


def matrix_maxima() -> Svg:
    svg = Svg(780, 640, "Maxima board: the 8 x 10 switch matrix and its pins")
    svg.text(20, 28, "Maxima board: 8 columns × 10 rows = 80 positions (76 squares + 4 buttons)", "h")
    svg.text(20, 46, "Cell: what the default layout puts there; small number: matrix position = row × 8 + column "
                     "(also the LED number).", "s")

    def rows_label(r):
        gp, bcm = PICO_MAXIMA["rows"][r], DIRECT["rows"][r]
        return f"GP{gp} p{PICO_GP_TO_PIN[gp]} · BCM {bcm} p{BCM_TO_PIN[bcm]}"

    def cols_label(c):
        gp, bcm = PICO_MAXIMA["cols"][c], DIRECT["columns"][c]
        return [f"GP{gp} p{PICO_GP_TO_PIN[gp]}", f"BCM {bcm} p{BCM_TO_PIN[bcm]}"]

    _grid(svg, MAXIMA_LAYOUT, 200, 70, 66, 46, rows_label, cols_label, 8, ("d0", "e0", "d10", "e10"))
    note(svg, 20, 610, ["GPn pN: Raspberry Pi Pico (topology A), physical pin N.  BCM n pN: Raspberry Pi header "
                        "(topology B), physical pin N.",
                        "Yellow: goal squares (palaces).  Blue: buttons.  Each cell is a switch + 1N4148 "
                        "(see matrix-row.svg)."])
    return svg


def matrix_10x10() -> Svg:
    svg = Svg(860, 700, "10x10 board: the 10 x 11 switch matrix and its Pico pins")
    svg.text(20, 28, "10×10 board: 10 columns × 11 rows = 110 positions (100 squares + 4 buttons + 6 spare)", "h")
    svg.text(20, 46, "Topology A only (Pico). Small number: matrix position = row × 10 + column (also the LED "
                     "number).", "s")

    def rows_label(r):
        gp = PICO_10X10["rows"][r]
        return f"GP{gp} · pin {PICO_GP_TO_PIN[gp]}"

    def cols_label(c):
        gp = PICO_10X10["cols"][c]
        return [f"GP{gp}", f"pin {PICO_GP_TO_PIN[gp]}"]

    _grid(svg, BOARD_10X10_LAYOUT, 130, 70, 66, 46, rows_label, cols_label, 10)
    note(svg, 20, 675, ["Every position: switch (or button) + 1N4148 in series, anode to the column, band to the row, "
                        "as on the Maxima board.  WS2812 data: GP22 (pin 29)."])
    return svg


def pico_pins() -> Svg:
    svg = Svg(1000, 680, "Raspberry Pi Pico: physical pins and their use")
    svg.text(20, 28, "Raspberry Pi Pico (top view, USB at the top): physical pin numbers and their use", "h")
    svg.text(20, 46, "Left of each pin / right of each pin: Maxima board | 10×10 board.  Green: used.  "
                     "Same pinout on Pico W and Pico 2.", "s")
    bx, by, bw, pitch = 420, 120, 160, 25
    svg.text(bx - 10, by - 28, "Maxima board | 10×10 board", "s b", "end")
    svg.text(bx + bw + 10, by - 28, "Maxima board | 10×10 board", "s b")
    svg.rect(bx, by - 20, bw, 20 * pitch + 30, "box", 8)
    svg.rect(bx + bw / 2 - 22, by - 34, 44, 22, "dk", 3)
    svg.text(bx + bw / 2, by - 40, "USB (to the Pi)", "s", "middle")
    use = {}
    for r, gp in enumerate(PICO_MAXIMA["rows"]):
        use.setdefault(gp, ["", ""])[0] = f"row R{r}"
    for c, gp in enumerate(PICO_MAXIMA["cols"]):
        use.setdefault(gp, ["", ""])[0] = f"column C{c}"
    for r, gp in enumerate(PICO_10X10["rows"]):
        use.setdefault(gp, ["", ""])[1] = f"row R{r}"
    for c, gp in enumerate(PICO_10X10["cols"]):
        use.setdefault(gp, ["", ""])[1] = f"column C{c}"
    use[PICO_MAXIMA["led_pin"]] = ["WS2812 data", "WS2812 data"]
    for pin, name in PICO_PINS.items():
        left = pin <= 20
        row = pin - 1 if left else 40 - pin
        y = by + row * pitch
        px = bx + 14 if left else bx + bw - 14
        cls = "gndp" if name == "GND" else "pwr" if name in ("VBUS", "VSYS", "3V3(OUT)") else "sq"
        label = ""
        if name.startswith("GP"):
            maxima, ten = use.get(int(name[2:]), ["", ""])
            if maxima or ten:
                cls = "used"
                label = f"{maxima or '–'} | {ten or '–'}"
        elif name == "GND":
            label = "ground"
        elif name == "VBUS":
            label = "5 V from USB"
        svg.rect(px - 10, y - 9, 20, 18, cls, 2)
        svg.text(px, y + 4, str(pin), "xs", "middle")
        if left:
            svg.text(px + 16, y + 4, name, "s")
            svg.line(bx - 6, y, px - 10, y, "thin")
            svg.text(bx - 10, y + 4, label, "s", "end")
        else:
            svg.text(px - 16, y + 4, name, "s", "end")
            svg.line(px + 10, y, bx + bw + 6, y, "thin")
            svg.text(bx + bw + 10, y + 4, label, "s")
    note(svg, 20, 640, ["Pins 1–20 run down the left edge, 21–40 up the right edge (pin 21 bottom right, 40 top "
                        "right). GND: 3, 8, 13, 18, 23, 28, 33, 38.",
                        "Columns use the Pico's internal pull-ups. Power: the Pico takes 5 V from the Pi's USB; "
                        "the LED chain has its own 5 V supply, grounds joined."])
    return svg


def pi_header() -> Svg:
    svg = Svg(900, 620, "Raspberry Pi 40-pin header for topology B")
    svg.text(20, 28, "Raspberry Pi 40-pin header (topology B, direct): BCM → physical pin", "h")
    svg.text(20, 46, "Pin 1 is the square pad, nearest the SD-card end. Odd pins on the inner row (left here), even "
                     "on the outer row.", "s")
    use = {}
    for r, bcm in enumerate(DIRECT["rows"]):
        use[bcm] = f"row R{r}"
    for c, bcm in enumerate(DIRECT["columns"]):
        use[bcm] = f"column C{c}"
    use[DIRECT["sda"]] = "OLED SDA"
    use[DIRECT["scl"]] = "OLED SCL"
    use[DIRECT["mosi"]] = "MAX7219 DIN (via 74AHCT125)"
    use[DIRECT["sclk"]] = "MAX7219 CLK (via 74AHCT125)"
    use[DIRECT["ce0"]] = "MAX7219 LOAD (via 74AHCT125)"
    use[DIRECT["buzzer"]] = "buzzer (via NPN)"
    cx, y0, pitch = 450, 80, 25
    svg.rect(cx - 40, y0 - 16, 80, 20 * pitch + 8, "dk", 4)
    for pin, name in PI_HEADER.items():
        row, left = (pin - 1) // 2, pin % 2 == 1
        y = y0 + row * pitch
        px = cx - 16 if left else cx + 16
        cls = "gndp" if name == "GND" else "pwr" if name in ("5V", "3V3") else "sq"
        label = ""
        if name.startswith("BCM") and int(name[4:]) in use:
            cls, label = "used", use[int(name[4:])]
        elif name == "3V3" and pin == 1:
            label = "OLED VCC"
        elif name == "5V":
            label = "MAX7219 V+, 74AHCT125 VCC"
        if pin == 1:
            svg.rect(px - 9, y - 9, 18, 18, cls)
        else:
            svg.circle(px, y, 9, cls)
        svg.text(px, y + 3.5, str(pin), "xs", "middle")
        if left:
            svg.text(cx - 46, y + 4, name, "s", "end")
            svg.text(cx - 100, y + 4, label, "s", "end")
        else:
            svg.text(cx + 46, y + 4, name, "s")
            svg.text(cx + 100, y + 4, label, "s")
    note(svg, 20, 585, ["BCM 7 needs dtoverlay=spi0-1cs, BCM 15 needs the serial console and the UART off "
                        "(docs/hardware.md).",
                        "Topology A uses only the OLED (pins 1, 3, 5, 9), the buzzer (12) and a USB port."])
    return svg


def topology_a() -> Svg:
    svg = Svg(1000, 520, "Topology A: Pico co-processor wiring diagram")
    svg.text(20, 28, "Topology A (recommended): the Pico scans the switches and drives the WS2812 LEDs", "h")
    svg.rect(30, 70, 190, 150, "box", 6)
    svg.lines(45, 95, ["Raspberry Pi", "(any model, Pi 5 too)", "", "runs maxima-board", "OLED, buzzer"], "s")
    pico = (360, 70, 190, 190)
    svg.rect(*pico, "chip", 6)
    svg.lines(375, 95, ["Raspberry Pi Pico", "MicroPython firmware", "", "GP0–GP9   rows R0–R9",
                        "GP10–GP17 columns C0–C7", "GP22      LED data", "(10×10 board: GP0–GP10 rows,",
                        " GP11–GP20 columns)"], "s")
    wire(svg, (220, 110), (360, 110))
    svg.text(290, 104, "USB cable", "s", "middle")
    svg.text(290, 126, "/dev/maxima-pico", "xs", "middle")
    # matrix
    svg.rect(700, 70, 260, 150, "box", 6)
    svg.lines(715, 95, ["switch matrix", "80 reed switches / buttons,", "each with a 1N4148", "(10×10: 110 positions)",
                        "see matrix-row.svg"], "s")
    for i in range(6):
        wire(svg, (550, 120 + 10 * i), (700, 120 + 10 * i))
    svg.text(625, 112, "10 rows + 8 columns", "s", "middle")
    # LED data path
    svg.rect(600, 300, 120, 60, "chip", 4)
    svg.lines(612, 322, ["74AHCT125", "3.3 V → 5 V"], "s")
    wire(svg, (455, 260), (455, 330), (600, 330))
    svg.text(462, 290, "GP22 (pin 29)", "s")
    resistor(svg, 720, 330, 800, 330)
    svg.text(760, 318, "330 Ω", "s", "middle")
    svg.rect(800, 300, 170, 60, "box", 4)
    svg.lines(810, 322, ["WS2812B chain", "LED 0 = a1 … (map order)"], "s")
    # power
    svg.rect(600, 420, 170, 60, "pwr", 4)
    svg.lines(610, 442, ["5 V supply ≥ 2 A", "for the LEDs"], "s")
    wire(svg, (770, 440), (885, 440), (885, 360))
    svg.text(878, 400, "+5 V, injected at both ends", "s", "end")
    wire(svg, (660, 420), (660, 360))
    svg.text(665, 395, "+5 V", "s")
    capacitor(svg, 830, 440, 830, 505, polarised=True)
    svg.text(840, 480, "1000 µF", "s")
    wire(svg, (30, 200), (15, 200), (15, 505), (940, 505), cls="thin")
    wire(svg, (700, 480), (700, 505), cls="thin")
    svg.text(25, 498, "common ground: Pi, Pico (through USB), LED supply, level shifter", "s")
    svg.rect(30, 300, 190, 110, "box", 6)
    svg.lines(45, 322, ["OLED 128×64 on I2C", "SDA pin 3, SCL pin 5", "VCC 3.3 V pin 1", "Buzzer: BCM 18 pin 12",
                        " via NPN (buzzer.svg)"], "s")
    wire(svg, (120, 220), (120, 300))
    return svg


def topology_b() -> Svg:
    svg = Svg(1000, 500, "Topology B: direct wiring diagram")
    svg.text(20, 28, "Topology B (direct): the Pi scans the switches and drives two MAX7219", "h")
    svg.rect(30, 70, 240, 300, "chip", 6)
    rows = ", ".join(str(b) for b in DIRECT["rows"])
    cols = ", ".join(str(b) for b in DIRECT["columns"])
    svg.lines(42, 95, ["Raspberry Pi (gpiozero)", "", "rows R0–R9: BCM", f" {rows}", "columns C0–C7: BCM",
                       f" {cols}", "", "SPI0: BCM 10 MOSI, 11 SCLK,", " 8 CE0", "I2C1: BCM 2 SDA, 3 SCL",
                       "buzzer: BCM 18", "", "physical pins: pi-header.svg"], "s")
    svg.rect(700, 70, 260, 120, "box", 6)
    svg.lines(715, 95, ["switch matrix", "80 reed switches / buttons,", "each with a 1N4148", "see matrix-row.svg"],
              "s")
    for i in range(6):
        wire(svg, (270, 110 + 10 * i), (700, 110 + 10 * i))
    svg.text(485, 102, "18 wires: 10 rows, 8 columns", "s", "middle")
    svg.rect(400, 240, 120, 60, "chip", 4)
    svg.lines(412, 262, ["74AHCT125", "3.3 V → 5 V"], "s")
    for i in range(3):
        wire(svg, (270, 255 + 15 * i), (400, 255 + 15 * i))
    svg.text(335, 248, "DIN CLK LOAD", "xs", "middle")
    svg.rect(600, 230, 140, 80, "chip", 4)
    svg.lines(612, 252, ["MAX7219 chip 0", "rows R0–R7", "(DIG0–DIG7)"], "s")
    svg.rect(800, 230, 140, 80, "chip", 4)
    svg.lines(812, 252, ["MAX7219 chip 1", "rows R8–R9", "(DIG0–DIG1)"], "s")
    wire(svg, (520, 255), (600, 255))
    wire(svg, (520, 270), (560, 270), (560, 320), (780, 320), (780, 270), (800, 270))
    wire(svg, (520, 285), (570, 285), (570, 330), (790, 330), (790, 285), (800, 285))
    wire(svg, (740, 255), (800, 255))
    svg.text(770, 249, "DOUT→DIN", "xs", "middle")
    wire(svg, (560, 270), (600, 270))
    wire(svg, (570, 285), (600, 285))
    svg.dot(560, 270)
    svg.dot(570, 285)
    svg.text(660, 345, "CLK and LOAD to both chips", "xs", "middle")
    svg.rect(600, 380, 340, 50, "box", 4)
    svg.lines(612, 400, ["80 single-colour LEDs: anode on SEG, cathode on DIG", "(max7219.svg)"], "s")
    svg.rect(30, 400, 240, 70, "box", 6)
    svg.lines(42, 420, ["OLED on I2C (3.3 V, pins 1 3 5 9)", "buzzer via NPN (buzzer.svg)",
                        "MAX7219 and 74AHCT125 on 5 V (pins 2, 4)"], "s")
    return svg


def ws2812_power() -> Svg:
    svg = Svg(1000, 470, "WS2812 data level shifter, decoupling and power injection")
    svg.text(20, 28, "WS2812B: level shifter on the data line, decoupling, power injection", "h")
    ends = chip(svg, 230, 80, 130, 150, "", left=["1A", "1OE", "2A, 3A, 4A", "2OE, 3OE, 4OE"], right=["1Y"],
                top=["VCC (14)"], bottom=["GND (7)"], pitch=22)
    svg.text(295, 200, "74AHCT125", "b", "middle")
    wire(svg, (90, ends["1A"][1]), ends["1A"])
    svg.text(20, ends["1A"][1] - 4, "Pico GP22", "s")
    svg.text(20, ends["1A"][1] + 10, "(pin 29)", "xs")
    for pin in ("1OE", "2A, 3A, 4A", "2OE, 3OE, 4OE"):
        wire(svg, ends[pin], (190, ends[pin][1]))
        svg.dot(190, ends[pin][1])
    wire(svg, (190, ends["1OE"][1]), (190, 250))
    ground(svg, 190, 250)
    svg.lines(40, 150, ["OE is active low:", "tie it to GND;", "tie unused inputs", "to GND"], "xs", 11)
    ground(svg, *ends["GND (7)"])
    vx, vy = ends["VCC (14)"]
    supply(svg, vx, vy, "+5 V")
    svg.dot(vx, vy)
    wire(svg, (vx, vy), (vx + 40, vy))
    capacitor(svg, vx + 40, vy, vx + 40, vy + 45)
    svg.text(vx + 50, vy + 30, "100 nF", "xs")
    ground(svg, vx + 40, vy + 45)
    # 1Y -> 330 ohm -> DIN of LED 0
    yx, yy = ends["1Y"]
    data_y, top_rail, gnd_rail = 125, 60, 200
    resistor(svg, yx, yy, 460, yy)
    svg.text(420, yy - 10, "330 Ω", "s", "middle")
    svg.text(420, yy + 20, "at the first LED", "xs", "middle")
    wire(svg, (460, yy), (480, yy), (480, data_y), (500, data_y))
    x = None
    for i, label in enumerate(["LED 0 · a1", "LED 1 · b1", "…", "last LED"]):
        lx = 500 + i * 125
        if label == "…":
            svg.text(lx + 35, data_y + 4, "…", "b", "middle")
            wire(svg, (x, data_y), (lx + 15, data_y))
            x = lx + 55
            continue
        if x is not None:
            wire(svg, (x, data_y), (lx, data_y))
        svg.rect(lx, 85, 70, 80, "chip", 3)
        svg.text(lx + 35, 112, label, "xs b", "middle")
        svg.text(lx + 3, data_y + 14, "DIN", "xs")
        svg.text(lx + 67, data_y + 14, "DOUT", "xs", "end")
        svg.text(lx + 20, 97, "VDD", "xs", "middle")
        svg.text(lx + 20, 161, "GND", "xs", "middle")
        wire(svg, (lx + 20, 85), (lx + 20, top_rail))
        wire(svg, (lx + 20, 165), (lx + 20, gnd_rail))
        svg.dot(lx + 20, top_rail)
        svg.dot(lx + 20, gnd_rail)
        cx = lx + 92
        wire(svg, (cx, top_rail), (cx, 140))
        capacitor(svg, cx, 140, cx, 175)
        wire(svg, (cx, 175), (cx, gnd_rail))
        svg.dot(cx, top_rail)
        svg.dot(cx, gnd_rail)
        svg.text(cx + 4, 190, "100 nF", "xs")
        x = lx + 70
    svg.line(500, top_rail, 985, top_rail, "w red")
    svg.line(500, gnd_rail, 985, gnd_rail, "w")
    svg.text(500, top_rail - 6, "+5 V", "s")
    svg.text(500, gnd_rail + 14, "GND", "s")
    # supply, bulk capacitor, injection at both ends
    sy = 320
    svg.rect(500, sy, 150, 60, "pwr", 4)
    svg.lines(510, sy + 25, ["5 V supply ≥ 2 A", "(LEDs only)"], "s")
    plus, minus = sy + 15, sy + 45
    wire(svg, (650, plus), (975, plus), (975, top_rail), cls="w red")
    wire(svg, (650, minus), (985, minus), (985, gnd_rail))
    wire(svg, (604, plus), (604, top_rail), cls="w red")
    wire(svg, (612, minus), (612, gnd_rail))
    svg.dot(604, plus)
    svg.dot(612, minus)
    svg.dot(604, top_rail)
    svg.dot(612, gnd_rail)
    wire(svg, (680, plus), (680, plus + 5))
    capacitor(svg, 680, plus + 5, 680, minus, polarised=True)
    svg.dot(680, plus)
    svg.dot(680, minus)
    svg.text(655, sy + 78, "1000 µF ≥ 10 V where the supply enters", "xs")
    svg.text(700, plus - 6, "feed at the start of the chain", "xs")
    svg.text(960, plus - 6, "and at its far end", "xs", "end")
    note(svg, 20, 310, ["Data: the 74AHCT125, powered from 5 V, turns the Pico's",
                        "3.3 V signal into 5 V (a WS2812B needs ≥ 0.7 × VDD",
                        "= 3.5 V for a 1). Short wire from the shifter; the",
                        "330 Ω sits at the first LED. 100 nF per LED (LED strips",
                        "have them on board). Add a feed every ~50 LEDs.",
                        "Ground: LED supply GND, shifter GND and the Pico's",
                        "GND (e.g. pin 38) are joined. Never connect the LED",
                        "supply's +5 V to the Pico or the Pi."], 14)
    return svg


def max7219() -> Svg:
    svg = Svg(1000, 540, "MAX7219: wiring, decoupling and the LED matrix")
    svg.text(20, 28, "Topology B: MAX7219 (DIP-24) wiring, decoupling, LED matrix", "h")
    ends = chip(svg, 330, 90, 170, 250, "",
                left=["1 DIN", "12 LOAD", "13 CLK", "18 ISET", "19 V+", "4, 9 GND"],
                right=["24 DOUT", "17 SEG G", "15 SEG F", "… other SEG", "2 DIG0", "11 DIG1", "… DIG2–7"],
                pitch=32)
    svg.text(415, 332, "MAX7219 chip 0", "b", "middle")
    labels = [("BCM 10 MOSI (pin 19)", "1 DIN"), ("BCM 8 CE0 (pin 24)", "12 LOAD"),
              ("BCM 11 SCLK (pin 23)", "13 CLK")]
    for text, pin in labels:
        x, y = ends[pin]
        svg.rect(150, y - 10, 80, 20, "chip", 2)
        wire(svg, (230, y), (x, y))
        wire(svg, (70, y), (150, y))
        svg.text(20, y - 4, text, "xs")
    svg.text(190, ends["1 DIN"][1] - 16, "74AHCT125", "xs", "middle")
    svg.text(190, ends["13 CLK"][1] + 24, "(3.3 → 5 V, on 5 V)", "xs", "middle")
    x, y = ends["18 ISET"]
    resistor(svg, x, y, 240, y)
    svg.text(270, y - 8, "RSET", "xs", "middle")
    svg.text(270, y + 16, "27–33 kΩ", "xs", "middle")
    vx, vy = ends["19 V+"]
    wire(svg, (240, y), (240, 430), (110, 430))
    wire(svg, (vx, vy), (240, vy))
    svg.dot(240, vy)
    svg.text(20, 424, "+5 V (Pi pin 2 or 4)", "s")
    for cx, label, pol in ((150, "10 µF", True), (200, "100 nF", False)):
        svg.dot(cx, 430)
        capacitor(svg, cx, 430, cx, 480, polarised=pol)
        svg.text(cx + 10, 466, label, "xs")
        ground(svg, cx, 480)
    gx, gy = ends["4, 9 GND"]
    wire(svg, (gx, gy), (300, gy), (300, 390))
    ground(svg, 300, 390)
    svg.text(20, 525, "Decoupling: 10 µF + 100 nF from V+ to GND at each chip, as close to pins 19 and 4/9 as "
                      "possible.", "s")
    x, y = ends["24 DOUT"]
    wire(svg, (x, y), (600, y))
    svg.text(605, y + 4, "to DIN of chip 1 (CLK and LOAD go to both chips)", "s")
    # LED matrix fragment: two segment columns, two digit rows
    seg_x = {"15 SEG F": 700, "17 SEG G": 820}
    for pin, xx in seg_x.items():
        px, py = ends[pin]
        wire(svg, (px, py), (xx, py), (xx, 400))
        svg.text(xx + 6, py - 5, f"{pin.split(' ', 1)[1]} = bit {0 if pin.endswith('G') else 1} = column "
                                 f"C{0 if pin.endswith('G') else 1}", "xs")
    dig_y = {"2 DIG0": 280, "11 DIG1": 370}
    for (pin, yy), bend in zip(dig_y.items(), (560, 545)):
        px, py = ends[pin]
        wire(svg, (px, py), (bend, py), (bend, yy), (900, yy))
        svg.text(905, yy + 4, f"{pin.split(' ', 1)[1]} = row R{0 if yy == 280 else 1}", "xs")
    for pin, xx in seg_x.items():
        bit = 0 if pin.endswith("G") else 1
        for d, yy in enumerate(dig_y.values()):
            svg.dot(xx, yy - 30)
            led(svg, xx, yy - 30, xx + 40, yy - 30)
            wire(svg, (xx + 40, yy - 30), (xx + 40, yy))
            svg.dot(xx + 40, yy)
            svg.text(xx + 46, yy - 38, f"LED {d * 8 + bit}", "xs")
    note(svg, 560, 430, ["Anode on the SEG line, cathode on the DIG line.",
                         "LED n: chip n // 64, DIG (n % 64) // 8, segment bit n % 8;",
                         "bit 0 = SEG G, 1 F, 2 E, 3 D, 4 C, 5 B, 6 A, 7 DP.",
                         "Matrix row Rr = DIG r of chip 0 (R8, R9: DIG0, DIG1 of",
                         "chip 1), column Cc = bit c: LED number = matrix position."])
    return svg


def buzzer() -> Svg:
    svg = Svg(760, 420, "Buzzer driver")
    svg.text(20, 28, "Buzzer on BCM 18 (physical pin 12), through an NPN transistor", "h")
    resistor(svg, 80, 220, 200, 220)
    svg.text(20, 214, "BCM 18", "s")
    svg.text(20, 228, "pin 12", "xs")
    svg.text(140, 208, "1 kΩ", "s", "middle")
    col, emi = npn(svg, 200, 220)
    svg.text(255, 214, "2N2222 / BC337", "s")
    svg.dot(120, 220)
    resistor(svg, 120, 220, 120, 320)
    svg.text(128, 275, "10 kΩ (keeps it off at boot)", "xs")
    ground(svg, 120, 320)
    ground(svg, emi[0], emi[1])
    # buzzer and diode between +5 V and collector
    wire(svg, col, (col[0], 160))
    svg.rect(col[0] - 22, 100, 44, 60, "box", 4)
    svg.text(col[0], 126, "BZ", "b", "middle")
    svg.text(col[0], 142, "+ on top", "xs", "middle")
    wire(svg, (col[0], 100), (col[0], 70))
    supply(svg, col[0], 70, "+5 V (pin 2 or 4)")
    svg.dot(col[0], 80)
    svg.dot(col[0], 175)
    wire(svg, (col[0], 175), (col[0] + 60, 175))
    diode(svg, col[0] + 60, 175, col[0] + 60, 80)
    wire(svg, (col[0] + 60, 80), (col[0], 80))
    svg.text(col[0] + 72, 125, "1N4148 flyback", "s")
    svg.text(col[0] + 72, 139, "(band to +5 V)", "xs")
    note(svg, 380, 230, ["Active buzzer (own oscillator): kind = \"active\".",
                         "Passive piezo (tone): kind = \"passive\".",
                         "Magnetic (coil) buzzer: the flyback diode is",
                         "required; a piezo does not need it (harmless).",
                         "3.3 V buzzers: feed them from 3.3 V instead.",
                         "Enable in the config: [buzzer] enabled = true."])
    return svg


def oled() -> Svg:
    svg = Svg(700, 300, "OLED on I2C")
    svg.text(20, 28, "OLED 128×64 (SSD1306 / SH1106) on I2C bus 1, both topologies", "h")
    ends = chip(svg, 420, 70, 160, 110, "OLED 0x3C", left=["VCC", "GND", "SCL", "SDA"], pitch=22)
    rows = [("3V3", 1, "VCC"), ("GND", 9, "GND"), ("BCM 3 SCL", 5, "SCL"), ("BCM 2 SDA", 3, "SDA")]
    for name, pin, to in rows:
        x, y = ends[to]
        wire(svg, (200, y), (x, y))
        svg.text(190, y + 4, f"Pi pin {pin} ({name})", "s", "end")
    note(svg, 40, 220, ["Power the module from 3.3 V (pin 1): its pull-ups then keep SDA/SCL at 3.3 V. The Pi has "
                        "1.8 kΩ pull-ups on", "SDA/SCL already. Check the pin order printed on your module (some are "
                        "GND, VCC, SCL, SDA). Address 0x3C", "(some modules: 0x3D, set [oled] address). "
                        "`i2cdetect -y 1` shows it."])
    return svg


def _layout(svg, x0, y0, sq, files, ranks, exists, goal, label):
    for r in ranks:
        for f in range(files):
            x = x0 + f * sq
            y = y0 + (ranks[-1] - r) * sq
            if not exists(f, r):
                svg.rect(x, y, sq, sq, "none")
                continue
            name = f"{FILES[f]}{r}"
            dark = (f + r) % 2 == 1      # a1 dark, the right-hand corner light
            svg.rect(x, y, sq, sq, "goal" if name in goal else ("dk" if dark else "sq"))
            svg.text(x + sq / 2, y + sq / 2 + 4, name, "s", "middle")


def board_maxima() -> Svg:
    sq = 40
    svg = Svg(720, 600, "Maxima board: physical layout")
    svg.text(20, 28, "Maxima board, top view (White at the bottom); drawn with 40 px per square", "h")
    x0, y0 = 120, 60

    def exists(f, r):
        return 1 <= r <= 9 or f in (3, 4)

    _layout(svg, x0, y0, sq, 8, list(range(0, 11)), exists, {"d0", "e0", "d10", "e10"}, "maxima")
    svg.text(x0 + 4 * sq, y0 + 11 * sq + 16, "White's palace d0 e0", "s", "middle")
    svg.text(x0 + 4 * sq, y0 - 6, "Black's palace d10 e10", "s", "middle")
    # buttons and OLED beside White's palace (the empty cells f0-h0)
    bx, by = x0 + 5 * sq + 6, y0 + 10 * sq + 4
    for i, name in enumerate(["OK", "BACK", "MENU", "NEW"]):
        svg.circle(bx + 12 + i * 28, by + 24, 10, "btn")
        svg.text(bx + 12 + i * 28, by + 8, name, "xs", "middle")
    svg.rect(x0 + 3, by + 3, 3 * sq - 6, sq - 6, "dk", 3)
    svg.text(x0 + 1.5 * sq, by + sq / 2 + 3, "OLED", "s", "middle")
    w = 8
    svg.line(x0, y0 + 11 * sq + 30, x0 + w * sq, y0 + 11 * sq + 30, "thin")
    svg.text(x0 + 4 * sq, y0 + 11 * sq + 44, "8 squares (400–456 mm at 50–57 mm)", "s", "middle")
    svg.line(x0 + w * sq + 20, y0, x0 + w * sq + 20, y0 + 11 * sq, "thin")
    svg.text(x0 + w * sq + 28, y0 + 5.5 * sq, "11 rows: ranks 0–10 (550–627 mm)", "s", "start")
    note(svg, 20, y0 + 11 * sq + 66, ["Dashed cells do not exist (a0–c0, f0–h0, a10–c10, f10–h10): room for the OLED "
                                      "and the four buttons", "beside White's palace, or move them to a side rail. "
                                      "Add a 25–40 mm border for the frame."])
    return svg


def board_10x10() -> Svg:
    sq = 40
    svg = Svg(720, 620, "10x10 board: physical layout")
    svg.text(20, 28, "10×10 board, top view (White at the bottom)", "h")
    x0, y0 = 100, 60
    _layout(svg, x0, y0, sq, 10, list(range(1, 11)), lambda f, r: True, set(), "10x10")
    svg.rect(x0 + 1 * sq, y0 + 1 * sq, 8 * sq, 8 * sq, "hl")
    svg.text(x0 + 5 * sq, y0 + 10 * sq + 16, "red dashes: where Ultima's 8×8 stands (b2…i9)", "s", "middle")
    by = y0 + 10 * sq + 30
    svg.rect(x0, by, 10 * sq, 50, "box", 4)
    svg.rect(x0 + 10, by + 8, 110, 34, "dk", 3)
    svg.text(x0 + 65, by + 29, "OLED", "s", "middle")
    for i, name in enumerate(["OK", "BACK", "MENU", "NEW"]):
        svg.circle(x0 + 170 + i * 50, by + 30, 11, "btn")
        svg.text(x0 + 170 + i * 50, by + 13, name, "xs", "middle")
    svg.text(x0 + 10 * sq + 10, by + 30, "front rail", "s")
    note(svg, 20, by + 80, ["10 squares: 500–570 mm at 50–57 mm per square, plus the frame. A 10×8 game stands on "
                            "a2…j9, Optima 9×9 on a1…i9."])
    return svg


# One square in section (docs/building.md): millimetres, for the 50 mm square.
SQUARE_SECTION = {
    "square": 50.0,          # side of a square (the layout for 55 and 57 mm squares is the same)
    "top": 3.0,              # board top: plywood, MDF or HPL, or opal acrylic
    "felt": 1.0,             # felt pad under the piece's base, over the magnet
    "magnet": (10.0, 3.0),   # axially magnetised disc: diameter, height
    "base": 38.0,            # King's base on a 50 mm square (building.md: 35-38 mm)
    "reed": (2.0, 14.0),     # reed switch glass: diameter, length
    "led_inset": 7.0,        # light pipe centre: this far from both edges of the square's corner
    "pipe": 5.0,             # light pipe (clear acrylic rod) diameter = the hole in the top
    "led": (5.0, 1.6),       # WS2812B 5050: side, height (on a 10 mm round PCB, 1.6 mm)
    "pcb": (10.0, 1.6),
    "cavity": 15.0,          # wiring space under the top (frame battens)
    "bottom": 6.0,           # bottom panel
}

SECTION_STYLE = """
.wood{fill:#ecd3a5;stroke:#000;stroke-width:1}
.woodb{fill:#d9b77c;stroke:#000;stroke-width:1}
.felt{fill:#4f7a3a;stroke:#000;stroke-width:0.8}
.piece{fill:#f7f1e3;stroke:#000;stroke-width:1.4}
.magn{fill:#d64545;stroke:#000;stroke-width:1}
.mags{fill:#4a6fd6;stroke:#000;stroke-width:1}
.glass{fill:#d6eefa;stroke:#000;stroke-width:1}
.blade{stroke:#555;stroke-width:1.4;fill:none}
.pipe{fill:#f4fbff;stroke:#000;stroke-width:1}
.pcb{fill:#2f6b3a;stroke:#000;stroke-width:1}
.ledp{fill:#fff6b0;stroke:#000;stroke-width:1}
.ray{stroke:#e0a800;stroke-width:1.6;fill:none}
.field{stroke:#c03030;stroke-width:1;fill:none;stroke-dasharray:3 3}
.dim{stroke:#333;stroke-width:0.9;fill:none}
.cut{stroke:#c00000;stroke-width:1.4;fill:none;stroke-dasharray:10 4 2 4}
.dimt{font-size:10px;fill:#222}
"""


def _dimension(svg: Svg, x1, y1, x2, y2, label, offset=0.0, side=-1, text_at=0.5, anchor="middle"):
    """A dimension line from (x1, y1) to (x2, y2) with end ticks and its label."""
    svg.line(x1, y1, x2, y2, "dim")
    length = math.hypot(x2 - x1, y2 - y1) or 1
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    for x, y in ((x1, y1), (x2, y2)):
        svg.line(x - 4 * uy - 3 * ux, y + 4 * ux - 3 * uy, x + 4 * uy + 3 * ux, y - 4 * ux + 3 * uy, "dim")
    tx, ty = x1 + (x2 - x1) * text_at, y1 + (y2 - y1) * text_at
    if abs(uy) > 0.9:     # vertical: the label beside it
        svg.text(tx + side * -6 if anchor == "start" else tx + 6 * (1 if anchor == "start" else -1), ty + 4,
                 label, "dimt", anchor)
    else:
        svg.text(tx, ty + side * 5 + (3 if side > 0 else 0) + offset, label, "dimt", anchor)


def square_section() -> Svg:
    g = SQUARE_SECTION
    side = g["square"]
    svg = Svg(1100, 700, "One square: top view and section through the LED, the magnet and the reed switch",
              SECTION_STYLE)
    svg.text(20, 28, "One square: where the reed switch, the magnet and the LED sit, and how the light gets out", "h")
    inset, pipe, base = g["led_inset"], g["pipe"], g["base"]
    reed_d, reed_l = g["reed"]
    mag_d, mag_h = g["magnet"]

    # ---- top view, 4.4 px per mm; the LED corner lower left, the reed running to the upper right
    k = 4.4
    x0, y0 = 60, 110
    svg.text(x0, y0 - 40, "Top view (50 mm square)", "b")

    def tv(x, y):        # square coordinates in mm, origin at the lower-left corner
        return x0 + x * k, y0 + (side - y) * k

    svg.rect(x0, y0, side * k, side * k, "dk")
    cx, cy = tv(side / 2, side / 2)
    svg.circle(cx, cy, base / 2 * k, "faint")
    svg.circle(cx, cy, mag_d / 2 * k, "magn")
    svg.text(cx, cy - base / 2 * k - 4, "piece base Ø38", "xs", "middle")
    # the reed switch (under the top, drawn dashed): glass from the centre towards the upper-right corner
    d = reed_l / math.sqrt(2)
    ex, ey = tv(side / 2 + d, side / 2 + d)
    svg.add(f'<line x1="{_n(cx)}" y1="{_n(cy)}" x2="{_n(ex)}" y2="{_n(ey)}" stroke="#3a8fc0" '
            f'stroke-width="{_n(reed_d * k)}" stroke-opacity="0.55"/>')
    svg.line(cx, cy, ex, ey, "faint")
    svg.text(ex + 4, ey - 4, "reed switch", "xs")
    svg.text(ex + 4, ey + 7, "(under the top)", "xs")
    lx, ly = tv(inset, inset)
    svg.circle(lx, ly, pipe / 2 * k, "ledp")
    svg.text(lx + 14, ly + 4, "LED / light pipe Ø5", "xs")
    # the cut A-A along the diagonal
    ax, ay = tv(-4, -4)
    bx, by = tv(side + 4, side + 4)
    svg.line(ax, ay, bx, by, "cut")
    svg.text(ax - 10, ay + 12, "A", "b", "middle")
    svg.text(bx + 8, by - 4, "A", "b", "middle")
    # dimensions of the top view
    _dimension(svg, x0, y0 + side * k + 22, x0 + side * k, y0 + side * k + 22, "50 mm (55, 57 mm: same layout)",
               side=1)
    _dimension(svg, x0 - 22, y0 + side * k, x0 - 22, y0 + (side - inset) * k, "7", anchor="end")
    _dimension(svg, x0, y0 + side * k + 8, x0 + inset * k, y0 + side * k + 8, "", side=1)
    svg.text(x0 + inset * k + 4, y0 + side * k + 12, "7", "dimt")
    clear = (side / 2 - inset) * math.sqrt(2) - base / 2
    note(svg, x0 - 40, y0 + side * k + 60, [
        "The LED sits in a corner, 7 mm from both edges:",
        f"its light pipe centre is {(side / 2 - inset) * math.sqrt(2):.1f} mm from the centre,",
        f"{clear:.1f} mm outside a 38 mm base, so a piece",
        "standing on the square never hides its light",
        "(remove, immobilized, engine-from show on pieces).",
        "Same corner on every square: the lower left,",
        "as White sees the board.",
        "The reed switch: one end of the glass under the",
        "centre, running to the opposite corner.",
    ], step=14)

    # ---- section A-A along the diagonal, 7.2 px per mm
    s = 7.2
    diag = side * math.sqrt(2)
    X0, Y0 = 430, 330          # X0: the LED corner of the square; Y0: the top surface
    svg.text(X0 - 60, 70, "Section A–A (along the diagonal, 70.7 mm)", "b")

    def sx(u):
        return X0 + u * s

    def sy(v):           # v: mm below the top surface (negative: above it)
        return Y0 + v * s

    top, cavity, bottom = g["top"], g["cavity"], g["bottom"]
    left, right = sx(-8), sx(diag + 8)
    # board top with the hole for the light pipe, the frame batten under the edge, the bottom panel
    u_pipe = inset * math.sqrt(2)
    svg.rect(left, sy(0), sx(u_pipe - pipe / 2) - left, top * s, "wood")
    svg.rect(sx(u_pipe + pipe / 2), sy(0), right - sx(u_pipe + pipe / 2), top * s, "wood")
    svg.rect(sx(u_pipe - pipe / 2), sy(0), pipe * s, top * s, "pipe")
    svg.rect(left, sy(top + cavity), right - left, bottom * s, "woodb")
    svg.rect(sx(diag) - 6 * s, sy(top), 12 * s, cavity * s, "woodb")      # a spacer holding the top (frame or grid)
    svg.text(sx(diag), sy(top + cavity / 2) + 4, "spacer", "xs", "middle")
    for u in (0, diag):       # the corners of the square: the neighbours go on
        svg.line(sx(u), sy(-22), sx(u), sy(top + cavity + bottom + 2), "faint")
    svg.text(sx(0), sy(-22) - 4, "corner", "xs", "middle")
    svg.text(sx(diag), sy(-22) - 4, "corner", "xs", "middle")
    # the piece: base, felt, magnet in its pocket (N down)
    uc = diag / 2
    felt = g["felt"]
    body = [(uc - base / 2, -felt), (uc - base / 2, -felt - 5), (uc - base / 2 + 4, -felt - 8),
            (uc - 9, -felt - 10), (uc - 7, -felt - 20), (uc + 7, -felt - 20), (uc + 9, -felt - 10),
            (uc + base / 2 - 4, -felt - 8), (uc + base / 2, -felt - 5), (uc + base / 2, -felt)]
    svg.path([(sx(u), sy(v)) for u, v in body], "piece", closed=True)
    svg.text(sx(uc), sy(-5.4), "piece (King, base Ø38)", "s", "middle")
    svg.rect(sx(uc - base / 2), sy(-felt), base * s, felt * s, "felt")
    svg.rect(sx(uc - mag_d / 2), sy(-felt - mag_h), mag_d * s, mag_h / 2 * s, "mags")
    svg.rect(sx(uc - mag_d / 2), sy(-felt - mag_h / 2), mag_d * s, mag_h / 2 * s, "magn")
    svg.text(sx(uc - mag_d / 2) - 4, sy(-felt - mag_h / 2) + 4, "magnet Ø10×3, N down", "xs", "end")
    svg.text(sx(uc - base / 2) - 4, sy(-felt / 2) + 3, "felt", "xs", "end")
    # the reed switch glued flat under the top: glass from the centre outwards, its leads and the diode
    ry = top
    svg.rect(sx(uc), sy(ry), reed_l * s, reed_d * s, "glass", reed_d * s / 2)
    svg.line(sx(uc + 0.5), sy(ry + reed_d / 2), sx(uc + reed_l / 2 + 0.6), sy(ry + reed_d / 2), "blade")
    svg.line(sx(uc + reed_l / 2 - 0.6), sy(ry + reed_d / 2 + 0.25), sx(uc + reed_l - 0.5), sy(ry + reed_d / 2),
             "blade")
    lead_y = ry + reed_d / 2
    wire(svg, (sx(uc), sy(lead_y)), (sx(uc - 3), sy(lead_y)), (sx(uc - 3), sy(top + 11)))
    wire(svg, (sx(uc + reed_l), sy(lead_y)), (sx(uc + reed_l + 3), sy(lead_y)), (sx(uc + reed_l + 3), sy(top + 5)))
    dtop, dlen = top + 5, 4.0
    svg.rect(sx(uc + reed_l + 3) - 0.9 * s, sy(dtop), 1.8 * s, dlen * s, "glass", 3)
    svg.rect(sx(uc + reed_l + 3) - 0.9 * s, sy(dtop + dlen - 0.8), 1.8 * s, 0.8 * s, "fill")
    wire(svg, (sx(uc + reed_l + 3), sy(dtop + dlen)), (sx(uc + reed_l + 3), sy(top + 11)))
    svg.lines(sx(uc + reed_l + 3) + 12, sy(dtop + 1.2), ["1N4148,", "band to", "the row line"], "xs", 10)
    svg.text(sx(uc - 3) - 4, sy(top + 11) + 14, "column line", "xs", "middle")
    svg.text(sx(uc + reed_l + 3) + 4, sy(top + 11) + 14, "row line", "xs", "middle")
    svg.lines(sx(uc + 6), sy(top + 6.2), ["reed switch 2 × 14 mm,", "glued flat under the top"], "xs", 11,
              "middle")
    # the LED: WS2812B on its round PCB, the light pipe above it
    led_side, led_h = g["led"]
    pcb_d, pcb_h = g["pcb"]
    svg.rect(sx(u_pipe - led_side / 2), sy(top), led_side * s, led_h * s, "ledp")
    svg.rect(sx(u_pipe - pcb_d / 2), sy(top + led_h), pcb_d * s, pcb_h * s, "pcb")
    for du in (-3.0, 3.0):
        wire(svg, (sx(u_pipe + du), sy(top + led_h + pcb_h)), (sx(u_pipe + du), sy(top + 11)))
    svg.text(sx(u_pipe) + 0, sy(top + 11) + 14, "5 V, GND, DIN → DOUT", "xs", "middle")
    svg.text(sx(u_pipe + pcb_d / 2) + 6, sy(top + led_h + 1.2), "WS2812B on a 10 mm PCB", "xs")
    svg.text(sx(u_pipe + pcb_d / 2) + 6, sy(top + led_h + 1.2) + 11, "pressed against the rod", "xs")
    for dx in (-7, -3.5, 0, 3.5, 7):
        svg.line(sx(u_pipe) + dx * 0.8, sy(0) - 2, sx(u_pipe) + dx * 2.4, sy(-7), "ray")
    svg.text(sx(u_pipe), sy(-8) - 2, "light", "xs", "middle")
    svg.lines(sx(u_pipe), sy(-14), ["clear acrylic rod Ø5 × 3,", "top face sanded matt"], "xs", 11, "middle")
    # dimensions of the section
    _dimension(svg, sx(-5), sy(0), sx(-5), sy(top), "top 3", anchor="end")
    _dimension(svg, sx(-5), sy(top), sx(-5), sy(top + cavity), "cavity 15", anchor="end")
    _dimension(svg, sx(-5), sy(top + cavity), sx(-5), sy(top + cavity + bottom), "bottom 6", anchor="end")
    mx = sx(uc + base / 2 + 3)     # the felt's top, beside the base, is the magnet face's level
    svg.line(sx(uc + base / 2), sy(-felt), mx + 4, sy(-felt), "dim")
    _dimension(svg, mx, sy(-felt), mx, sy(top), "", anchor="start")
    svg.lines(mx + 6, sy(-felt) - 14, ["magnet face → glass: 4 mm", "(felt 1 + top 3; keep 4–8)"], "xs", 11)
    yb = sy(top + cavity + bottom) + 24
    _dimension(svg, sx(0), yb, sx(u_pipe), yb, "9.9", side=1)
    _dimension(svg, sx(u_pipe), yb, sx(uc), yb, "25.5", side=1)
    _dimension(svg, sx(uc), yb, sx(uc + reed_l), yb, "14", side=1)
    _dimension(svg, sx(0), yb + 26, sx(diag), yb + 26, "70.7 mm: the square's diagonal", side=1)
    # how to build it, and the alternatives
    note(svg, 40, 612, [
        "Light path: drill a 5 mm hole through the top in the corner, glue in a 3 mm piece of 5 mm clear acrylic rod, "
        "flush, its top sanded matt; the LED presses against its end.",
        "Without a rod: leave the hole open and cover the square with 0.5 mm translucent film, or use an opal (white "
        "translucent) 3 mm acrylic top and no holes at all:",
        "the LED then shows as a soft spot through the top. A thicker top (6 mm plywood) puts the magnet too far from "
        "the glass for 10 × 3 mm magnets: keep the top at 3 mm.",
        "Paint the underside of the top black (or sleeve each LED in black heat-shrink) so light does not leak into "
        "the neighbours' holes.",
    ], step=16)
    return svg


DRAWINGS = {
    "matrix-row.svg": matrix_row,
    "matrix-maxima.svg": matrix_maxima,
    "matrix-10x10.svg": matrix_10x10,
    "pico-pins.svg": pico_pins,
    "pi-header.svg": pi_header,
    "topology-a.svg": topology_a,
    "topology-b.svg": topology_b,
    "ws2812-power.svg": ws2812_power,
    "max7219.svg": max7219,
    "buzzer.svg": buzzer,
    "oled.svg": oled,
    "board-maxima.svg": board_maxima,
    "board-10x10.svg": board_10x10,
    "square-section.svg": square_section,
}


def write_all(folder: Path = HERE) -> list[Path]:
    written = []
    for name, draw in DRAWINGS.items():
        path = Path(folder) / name
        path.write_text(draw().render(), encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    for path in write_all():
        print(path)
