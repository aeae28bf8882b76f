"""Issue 13: corrupted lines. The line check is CRC-16/CCITT (hardware/mbproto.py),
and a state — a button press above all — is acted on only when two F lines
in a row carry it, so one bad line can never act (bench/corruption.py prints
the same measurement with more lines)."""
from __future__ import annotations

import io
import random

import pytest
import serial

from maxima_board.board.core import Controller
from maxima_board.service.runner import Runner
from maxima_board.board.settings import Settings
from maxima_board.storage.store import GameStore
from maxima_board.rules import START_FEN
from maxima_board.devices import mbproto
from maxima_board.cli.assemble import NoDisplay
from maxima_board.devices.interfaces import BoardState
from maxima_board.devices.matrix_map import MatrixMap
from maxima_board.devices.notify import Notifier
from maxima_board.devices.protocol import OK, parse_line
from maxima_board.devices.serial_link import PicoLink

MAP = MatrixMap()
HEX = b"0123456789ABCDEF"
SQUARES = [pos for pos, name in MAP.layout.items() if not name.startswith("button:")]
N = 20_000


def corrupt(line: bytes, k: int, rng: random.Random) -> bytes:
    """``k`` hex digits after the message letter changed, each to another."""
    body = bytearray(line[:-1])
    places = [i for i in range(1, len(body)) if body[i] in HEX]
    for i in rng.sample(places, k):
        body[i] = rng.choice([d for d in HEX if d != body[i]])
    return bytes(body) + b"\n"


def random_frame(rng: random.Random) -> tuple[int, int]:
    bits = 0
    for pos in rng.sample(SQUARES, rng.randrange(0, 40)):
        bits |= 1 << pos
    return rng.randrange(2, mbproto.SEQ_MOD - 2), bits


def loop_link() -> tuple[PicoLink, serial.SerialBase]:
    """A PicoLink on pyserial's loop:// port, its keep-up ping answered."""
    port = serial.serial_for_url("loop://", timeout=0)
    link = PicoLink(lambda: port, MAP)
    link.read(0)                      # opens the port; the link's P loops back (dropped)
    port.write(mbproto.ACK)
    link.read(1)
    return link, port


def states(link: PicoLink, port, lines, t0: int = 10) -> list[BoardState | None]:
    out = []
    for i, line in enumerate(lines):
        port.write(line)
        out.append(link.read(t0 + i))
    return out


@pytest.mark.parametrize("k, most", [(1, 0), (2, 5), (3, 5)])
def test_corrupted_lines_almost_never_pass_the_check(k, most):
    """Of N random k-hex-digit corruptions of valid F lines, CRC-16 lets none
    with one digit changed through and about 1 in 65,536 of the others
    (CRC-8 let ~0.3 % through: ~60 of 20,000)."""
    rng = random.Random(1300 + k)
    passed = [bad for bad in (corrupt(mbproto.frame(*random_frame(rng)), k, rng) for _ in range(N))
              if parse_line(bad[:-1])[0] == OK]
    assert len(passed) <= most, passed


def test_the_crc_catches_what_crc8_missed():
    """A pair of lines CRC-8 could not tell apart: two digits changed so that
    the CRC-8 is the same. CRC-16 tells them apart."""
    def crc8(data: bytes) -> int:
        c = 0
        for b in data:
            c ^= b
            for _ in range(8):
                c = ((c << 1) ^ 0x07) & 0xFF if c & 0x80 else (c << 1) & 0xFF
        return c
    rng = random.Random(8)
    good = b"F 1 " + b"%020X" % (1 << 33)
    while True:
        bad = corrupt(good + b"\n", 2, rng)[:-1]
        if crc8(bad) == crc8(good):
            break
    assert mbproto.crc16(bad) != mbproto.crc16(good)
    assert parse_line(bad + b"*%04X" % mbproto.crc16(good))[0] != OK


def test_lines_that_pass_the_check_still_never_act():
    """A line that passes the CRC but is wrong (forged here: sealed after the
    change, the case no check can catch) never changes what the link reports
    when it stands alone between true frames, whatever it carries."""
    rng = random.Random(77)
    for trial in range(300):
        seq, bits = random_frame(rng)
        forged = bits | (1 << MAP.position_of["button:back"]) if trial % 2 else bits ^ (1 << rng.choice(SQUARES))
        link, port = loop_link()
        truth = MAP.decode(bits)
        got = states(link, port, [mbproto.frame(seq, bits), mbproto.frame(seq + 1, bits),
                                  mbproto.frame(seq + 2, forged), mbproto.frame(seq + 3, bits),
                                  mbproto.frame(seq + 4, bits)])
        assert got[1:] == [truth] * 4, trial
        link.close()


def test_a_button_seen_in_two_frames_in_a_row_is_a_press():
    link, port = loop_link()
    back = 1 << MAP.position_of["button:back"]
    got = states(link, port, [mbproto.frame(0, 0), mbproto.frame(1, 0), mbproto.frame(2, back),
                              mbproto.frame(3, back), mbproto.frame(4, 0), mbproto.frame(5, 0)])
    assert [s.buttons if s else None for s in got] == [
        None, frozenset(), frozenset(), frozenset({"back"}), frozenset({"back"}), frozenset()]
    assert link.stats["unconfirmed"] == 3        # the first line of each state
    link.close()


def test_passing_corruptions_through_the_link_never_press_a_button():
    """The measurement of the issue: every corrupted line that passes the
    check, sent between true frames through a real PicoLink: 0 presses."""
    rng = random.Random(13)
    presses = passed = 0
    for k in (2, 3):
        for _ in range(N):
            seq, bits = random_frame(rng)
            bad = corrupt(mbproto.frame(seq, bits), k, rng)
            if parse_line(bad[:-1])[0] != OK:
                continue
            passed += 1
            link, port = loop_link()
            got = states(link, port, [mbproto.frame(seq - 2, bits), mbproto.frame(seq - 1, bits), bad,
                                      mbproto.frame(seq + 1, bits)])
            assert got[1] == MAP.decode(bits)        # the link is up and reports the truth
            presses += any(s is not None and s.buttons for s in got)
            link.close()
    assert presses == 0 and passed <= 10


def test_a_single_bad_line_with_back_takes_nothing_back():
    """End to end: runner, controller, store and PicoLink on loop://. A move is
    stored; one line with BACK held (and a valid CRC) between true frames
    takes nothing back; BACK held for two lines does."""
    store = GameStore(":memory:")
    controller = Controller(Settings(), store, fen=START_FEN)
    port = serial.serial_for_url("loop://", timeout=0)
    link = PicoLink(lambda: port, MAP)
    runner = Runner(controller, link, link, NoDisplay(), notifier=Notifier(None), log=io.StringIO())
    board = set(controller.expected_squares)
    seq = [0]
    t = [0]

    def send(squares, buttons=(), copies=2, answer=False):
        bits = MAP.encode(BoardState(frozenset(squares), frozenset(buttons)))
        if answer:
            port.write(mbproto.ACK)
        for _ in range(copies):
            port.write(mbproto.frame(seq[0], bits))
            seq[0] += 1
            t[0] += 10
            runner.step(t[0])

    def wait(ms):
        for _ in range(ms // 100):
            send(board, copies=1)
            t[0] += 90
            runner.step(t[0])

    runner.step(0)
    send(board, answer=True)
    board = (board - {"c3"}) | {"c4"}
    send(board)
    wait(600)
    assert controller.moves == ["c3-c4"]
    send(board, copies=1)
    send(board, ["back"], copies=1)          # one line, BACK held: not confirmed
    send(board, copies=2)
    wait(600)
    assert controller.moves == ["c3-c4"]
    assert not [e for e in runner.events if e["type"] == "takeback"]
    send(board, ["back"], copies=2)          # a real press: two lines in a row
    send(board, copies=2)
    assert controller.moves == []
    assert [e["type"] for e in runner.events].count("takeback") == 1
    link.close()
