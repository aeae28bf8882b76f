"""How many corrupted F lines get past the line check, and how many act.

    python bench/corruption.py [--n N] [--seed S]

For each corruption kind (1, 2 or 3 hex digits of a valid F line changed,
each to another hex digit, anywhere after the message letter: sequence
number, frame or checksum) N random valid lines are corrupted and given to
the Pi's parser (``maxima_board.devices.protocol.parse_line``). A line that passes is
then sent, between valid copies of the true frame, through a real
``PicoLink`` on pyserial's ``loop://`` port, and the board states the link
hands out are checked: "changed" counts lines that made the link report a
board other than the true one, "button" those that made it report a button
held (a press the runner would act on). The true frames never hold a button.

Last, "forged" lines — a valid CRC over a wrong state with BACK held, the
error no check can see — go through the link the same way: what the
confirmation rule (a state acts only when two F lines in a row carry it)
alone prevents.
"""
from __future__ import annotations

import random
import sys
import time
from pathlib import Path

# bench/serial.py would shadow pyserial: keep this folder off sys.path.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))
sys.path.insert(0, str(_HERE.parent / "src"))

import serial  # noqa: E402

from maxima_board.devices import mbproto  # noqa: E402
from maxima_board.devices.interfaces import BoardState  # noqa: E402
from maxima_board.devices.matrix_map import MatrixMap  # noqa: E402
from maxima_board.devices.protocol import OK, parse_line  # noqa: E402
from maxima_board.devices.serial_link import PicoLink  # noqa: E402

HEX = b"0123456789ABCDEF"
MAP = MatrixMap()
SQUARES = [pos for pos, name in MAP.layout.items() if not name.startswith("button:")]


def corrupt(line: bytes, k: int, rng: random.Random) -> bytes:
    """``line`` (with its newline) with ``k`` hex digits after the message
    letter each changed to another hex digit."""
    body = bytearray(line[:-1])
    places = [i for i in range(1, len(body)) if body[i] in HEX]
    for i in rng.sample(places, k):
        body[i] = rng.choice([d for d in HEX if d != body[i]])
    return bytes(body) + b"\n"


def random_frame(rng: random.Random) -> tuple[int, int]:
    """A random valid (seq, frame) with some squares and no button."""
    bits = 0
    for pos in rng.sample(SQUARES, rng.randrange(0, 40)):
        bits |= 1 << pos
    return rng.randrange(2, mbproto.SEQ_MOD - 2), bits


def effect(seq: int, bits: int, bad: bytes) -> tuple[bool, bool]:
    """(changed, button): what the link reports around one bad line."""
    port = serial.serial_for_url("loop://", timeout=0)
    link = PicoLink(lambda: port, MAP)
    truth = MAP.decode(bits)
    # an A answers the link's keep-up ping (its own P loops back and is dropped)
    stream = [mbproto.ACK, mbproto.frame(seq - 2, bits), mbproto.frame(seq - 1, bits), bad,
              mbproto.frame(seq + 1, bits), mbproto.frame(seq + 2, bits)]
    changed = button = False
    seen = 0
    t = 0
    link.read(t)
    for line in stream:
        port.write(line)
        t += 10
        state: BoardState | None = link.read(t)
        if state is not None:
            seen += 1
            changed |= state != truth
            button |= bool(state.buttons)
    link.close()
    assert seen >= 3, "the link never reported the true board: the measurement would be void"
    return changed, button


def measure(n: int, seed: int, kinds=(1, 2, 3)) -> dict[int, dict[str, int]]:
    rng = random.Random(seed)
    out = {}
    for k in kinds:
        passed = changed = button = 0
        for _ in range(n):
            seq, bits = random_frame(rng)
            bad = corrupt(mbproto.frame(seq, bits), k, rng)
            if parse_line(bad[:-1])[0] != OK:
                continue
            passed += 1
            c, b = effect(seq, bits, bad)
            changed += c
            button += b
        out[k] = {"lines": n, "passed": passed, "changed": changed, "button": button}
    return out


def forged(n: int, seed: int) -> dict[str, int]:
    rng = random.Random(seed)
    back = 1 << MAP.position_of["button:back"]
    changed = button = 0
    for _ in range(n):
        seq, bits = random_frame(rng)
        wrong = (bits ^ (1 << rng.choice(SQUARES))) | back
        c, b = effect(seq, bits, mbproto.frame(seq, wrong))
        changed += c
        button += b
    return {"lines": n, "changed": changed, "button": button}


def main() -> int:
    n, seed = 100_000, 13
    if "--n" in sys.argv:
        n = int(sys.argv[sys.argv.index("--n") + 1])
    if "--seed" in sys.argv:
        seed = int(sys.argv[sys.argv.index("--seed") + 1])
    t0 = time.perf_counter()
    result = measure(n, seed)
    check = "CRC-16/CCITT" if hasattr(mbproto, "crc16") else "CRC-8"
    print(f"corrupted F lines, {check}, seed {seed} ({time.perf_counter() - t0:.1f} s):")
    for k, r in result.items():
        print(f"  {k} hex digit(s) changed: {r['passed']} of {r['lines']:,} passed the check"
              f" ({100 * r['passed'] / r['lines']:.3f} %), {r['changed']} changed the board state,"
              f" {r['button']} read as a button held")
    f = forged(min(n, 10_000), seed)
    print(f"  forged (valid CRC, a square changed and BACK held): {f['changed']} of {f['lines']:,} changed"
          f" the board state, {f['button']} read as a button held")
    return 0 if all(r["button"] == 0 for r in result.values()) and f["button"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
