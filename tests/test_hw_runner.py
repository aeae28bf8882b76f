"""The main loop (controller/runner.py) with the real controller, the
gpiozero scanner on MockFactory, the OLED on luma's dummy device and the
MAX7219 on luma's no-op serial interface, all on a fake clock."""
from __future__ import annotations

import io
import socket
import time
from unittest import mock

import pytest
from gpiozero import Device
from luma.core.device import dummy
from luma.core.interface.serial import noop
from luma.led_matrix.device import max7219

from maxima_board.board.core import Controller
from maxima_board.service.runner import LINK_WAIT_MS, FakeClock, Runner, sound_for
from maxima_board.board.settings import Settings
from maxima_board.storage.store import GameStore
from maxima_board.rules import START_FEN
from maxima_board.cli.config import DEFAULT_COLUMNS, DEFAULT_ROWS
from maxima_board.devices.interfaces import BoardState
from maxima_board.devices.matrix_map import MatrixMap
from maxima_board.devices.max7219 import Max7219Leds
from maxima_board.devices.mock_matrix import ReedMatrix, matrix_factory
from maxima_board.devices.notify import Notifier
from maxima_board.devices.oled import OledDisplay
from maxima_board.devices.scanner import MatrixScanner


class Board:
    """Everything of a direct-topology board, simulated with the libraries'
    own doubles, around a real controller."""

    def __init__(self, fen: str | None = START_FEN, notifier: Notifier | None = None, display=None,
                 settings: Settings | None = None):
        self.matrix = ReedMatrix(DEFAULT_ROWS, DEFAULT_COLUMNS)
        self.previous = Device.pin_factory
        Device.pin_factory = matrix_factory(self.matrix)
        self.scanner = MatrixScanner(DEFAULT_ROWS, DEFAULT_COLUMNS, debounce_ms=30, row_settle_us=0)
        self.oled = OledDisplay(dummy(width=128, height=64, mode="1"))
        self.leds = Max7219Leds(max7219(noop(), cascaded=2))
        self.clock = FakeClock(0, self._due)
        self.controller = Controller(settings or Settings(), GameStore(":memory:"), fen=fen, now_ms=0)
        self.matrix.set_squares(self.controller.expected_squares)
        self.script: list[tuple[int, str, bool]] = []
        self.runner = Runner(self.controller, self.scanner, self.leds, display or self.oled,
                             clock=self.clock, period_ms=10, notifier=notifier or Notifier(None),
                             log=io.StringIO())

    def _due(self, now: int) -> None:
        while self.script and self.script[0][0] <= now:
            _, name, closed = self.script.pop(0)
            self.matrix.set_name(name, closed)

    def at(self, ms: int, name: str, closed: bool) -> None:
        self.script.append((ms, name, closed))
        self.script.sort(key=lambda item: item[0])

    def run_until(self, ms: int) -> None:
        self.runner.run(stop=lambda now: now >= ms)

    def close(self) -> None:
        self.scanner.close()
        Device.pin_factory.reset()
        Device.pin_factory.close()
        Device.pin_factory = self.previous


@pytest.fixture
def board():
    b = Board()
    yield b
    b.close()


def _types(events) -> list[str]:
    return [e["type"] for e in events]


def test_a_move_is_committed_and_shown(board):
    board.at(100, "d3", False)
    board.at(400, "d5", True)
    board.run_until(1200)
    moves = [e for e in board.runner.events if e["type"] == "move"]
    assert [m["move"] for m in moves] == ["d3-d5"]
    assert board.controller.moves == ["d3-d5"]
    # the OLED shows the controller's lines, drawn
    assert board.oled.lines == board.controller.display
    assert board.oled.device.image.getbbox() is not None
    assert any("d3-d5" in line for line in board.oled.lines)
    # the last move is lit on the MAX7219 (steady)
    m = MatrixMap()
    assert board.controller.leds == {"d3": "last-from", "d5": "last-to"}
    assert board.leds.lit == {m.position_of["d3"], m.position_of["d5"]}


def test_the_clock_never_sleeps_for_real(board):
    with mock.patch("time.sleep", side_effect=AssertionError("slept for real")):
        board.run_until(5000)
    assert board.clock.now >= 5000


def test_a_held_button_is_pressed_once(board):
    board.at(100, "button:menu", True)
    board.at(900, "button:menu", False)
    board.at(1000, "button:menu", True)
    board.at(1100, "button:menu", False)
    with mock.patch.object(board.controller, "on_button", wraps=board.controller.on_button) as press:
        board.run_until(1500)
    assert [c.args[1] for c in press.call_args_list] == ["menu", "menu"]
    # the board stands as the game expects: a press can only begin something,
    # the matrix is scanned every 45 ms; seen by the next scan, then 30 ms of debounce
    assert board.scanner.at_rest
    assert [c.args[0] for c in press.call_args_list] == [135 + 30, 1035 + 30]


def test_frames_are_passed_only_on_change(board):
    with mock.patch.object(board.controller, "on_frame", wraps=board.controller.on_frame) as frame, \
            mock.patch.object(board.controller, "on_tick", wraps=board.controller.on_tick) as tick:
        board.at(200, "d3", False)
        board.run_until(1000)
    # the first frame once stable for 30 ms; the lift, seen by the scan at
    # 225 (every 45 ms while the board stands as expected), 30 ms later
    assert [c.args[0] for c in frame.call_args_list] == [30, 255]
    # then every 15 ms (45 - 30 ms debounce) while a piece is off, every
    # 10 ms while a change is being debounced: one pass per scan ...
    assert (board.scanner.rest_scan_ms, board.scanner.idle_scan_ms, board.scanner.active_scan_ms) == (45, 15, 10)
    assert not board.scanner.at_rest
    assert board.runner.passes == board.scanner.scans == 4 + 5 + 3 + (990 - 270) // 15 + 1
    # ... but the controller hears only of changes and of its own deadlines
    # (start, the two frames, the lifted piece's settle time)
    assert [c.args[0] for c in tick.call_args_list] == [0, 30, 255, 555]


def test_blinking_leds_follow_the_clock(board):
    """A wrong board: the extra piece's LED blinks fast (board.md)."""
    board.at(100, "e5", True)                        # a piece put down from nowhere
    frames = []
    with mock.patch.object(board.leds.device, "display", wraps=board.leds.device.display) as show:
        board.run_until(3000)
        frames = len(show.call_args_list)
    assert board.controller.leds.get("e5") == "error-extra"
    # grace 1.5 s, then 250 ms period: about 12 changes in the last 1.4 s
    assert 8 <= frames <= 14


def test_a_failing_display_never_stops_the_game():
    broken = mock.Mock(spec=OledDisplay)
    broken.show.side_effect = OSError(121, "Remote I/O error")
    b = Board(display=broken)
    try:
        b.at(100, "d3", False)
        b.at(400, "d5", True)
        b.run_until(3000)
        assert b.controller.moves == ["d3-d5"]
        log = b.runner.log.getvalue().splitlines()
        assert log == ["maxima-board: display failed: OSError: [Errno 121] Remote I/O error"]
        assert broken.show.call_count <= 4               # retried once a second, not every pass
    finally:
        b.close()


def test_systemd_notify_ready_watchdog_status(tmp_path):
    path = str(tmp_path / "notify")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(1)
    b = Board(notifier=Notifier(path, watchdog_usec=2_000_000))
    try:
        b.at(100, "d3", False)
        b.at(400, "d5", True)
        b.run_until(3500)
        messages = []
        sock.setblocking(False)
        while True:
            try:
                messages.append(sock.recv(4096).decode())
            except BlockingIOError:
                break
    finally:
        b.close()
        sock.close()
    assert messages[0].startswith("STATUS=White to move")
    assert messages[1] == "READY=1\nSTATUS=White to move 1."
    assert messages.count("WATCHDOG=1") == 4           # at 0, 1, 2 and 3 s (half of WatchdogSec)
    assert "STATUS=Black to move 1." in messages
    assert messages[-1] == "STOPPING=1"


def test_request_stop_ends_the_loop(board):
    board.clock.on_sleep = lambda now: board.runner.request_stop() if now >= 500 else board._due(now)
    board.runner.run()
    assert 500 <= board.clock.now <= 520


def test_sounds_for_events():
    assert sound_for({"type": "move", "move": "d3-d5"}) == "accepted"
    assert sound_for({"type": "takeback", "move": "d3-d5"}) == "accepted"
    assert sound_for({"type": "error", "text": "x"}) == "error"
    assert sound_for({"type": "leds", "leds": {}}) is None


def test_beeper_hears_moves_and_errors(board):
    board.runner.beeper = beeper = mock.Mock()
    board.at(100, "d3", False)
    board.at(400, "d5", True)
    board.at(1000, "h5", True)                      # a stray piece: an error after the grace time
    board.run_until(3500)
    assert [c.args[0] for c in beeper.play.call_args_list] == ["accepted", "error"]


def test_link_state_of_a_pico_source_reaches_the_controller():
    """A PicoLink without a Pico: the link is down, the OLED says so."""
    from maxima_board.devices.serial_link import PicoLink

    def no_pico():
        raise FileNotFoundError("no Pico found at '/dev/maxima-pico'")

    link = PicoLink(no_pico)
    oled = OledDisplay(dummy(width=128, height=64, mode="1"))
    controller = Controller(Settings(), GameStore(":memory:"), fen=START_FEN)
    runner = Runner(controller, link, link, oled, clock=FakeClock(), notifier=Notifier(None), log=io.StringIO())
    runner.run(stop=lambda now: now >= 2000)
    assert {"type": "link", "ok": False} in runner.events
    assert oled.lines[0] == "Board link lost"
    link.close()


class LinkSource:
    """A SensorSource with a board link, as PicoLink has (``link_ok`` and
    ``read()``): the link is up from ``up_ms`` until ``down_ms`` (None:
    never), and while it is up the board shows ``squares``."""

    def __init__(self, squares, up_ms: int | None, down_ms: int | None = None):
        self.squares = frozenset(squares)
        self.up_ms, self.down_ms = up_ms, down_ms
        self.link_ok = False

    def read(self, now_ms: int) -> BoardState | None:
        self.link_ok = (self.up_ms is not None and now_ms >= self.up_ms
                        and (self.down_ms is None or now_ms < self.down_ms))
        return BoardState(self.squares) if self.link_ok else None

    def close(self) -> None:
        pass


def _link_run(up_ms: int | None, down_ms: int | None, until_ms: int):
    """A runner on a LinkSource; every screen the OLED showed, with its time."""
    controller = Controller(Settings(), GameStore(":memory:"), fen=START_FEN)
    source = LinkSource(controller.expected_squares, up_ms, down_ms)
    oled = OledDisplay(dummy(width=128, height=64, mode="1"))
    clock = FakeClock()
    runner = Runner(controller, source, Max7219Leds(max7219(noop(), cascaded=2)), oled, clock=clock,
                    notifier=Notifier(None), log=io.StringIO())
    screens = []
    with mock.patch.object(oled, "show", side_effect=lambda lines: screens.append((clock.now, list(lines)))):
        runner.run(stop=lambda now: now >= until_ms)
    return runner, screens


def test_a_board_link_coming_up_at_start_is_never_shown_as_lost():
    """The Pico's first frame comes a few hundred ms after start: until then
    the OLED waits for the board; it never flashes "Board link lost"."""
    runner, screens = _link_run(up_ms=250, down_ms=None, until_ms=1000)
    assert not [lines for _, lines in screens if "Board link lost" in lines]
    assert {"type": "link", "ok": False} not in runner.events
    assert screens[0] == (0, ["White to move      1.", "Game 1: Maxima", "Waiting for the", "board."])
    assert screens[-1][1] == ["White to move      1.", "Game 1: Maxima"]


def test_a_board_never_found_at_start_is_reported_after_the_wait():
    runner, screens = _link_run(up_ms=None, down_ms=None, until_ms=3000)
    lost = [(at, lines) for at, lines in screens if lines[0] == "Board link lost"]
    assert lost and lost[0][0] == LINK_WAIT_MS
    assert lost[0][1] == ["Board link lost", "", "Retrying. No board", "found: check the", "Pico's USB cable."]
    assert runner.events.count({"type": "link", "ok": False}) == 1


def test_a_board_link_lost_after_start_is_reported_at_once():
    runner, screens = _link_run(up_ms=100, down_ms=500, until_ms=1000)
    lost = [(at, lines) for at, lines in screens if lines[0] == "Board link lost"]
    assert lost[0][0] == 500
    assert lost[0][1][2:] == ["Reconnecting. Wait", "before you move."]


# -- an idle board sleeps (issue 20) ---------------------------------------------


class QuietSource:
    """A SensorSource that needs no looking at: its state changes only when
    the test says so (``next_deadline`` None, no descriptors), as a board
    reporting by events would."""

    def __init__(self, squares):
        self.state = BoardState(frozenset(squares))
        self.reads = 0

    def read(self, now_ms: int) -> BoardState:
        self.reads += 1
        return self.state

    def next_deadline(self, now_ms: int) -> int | None:
        return None

    def descriptors(self):
        return (), ()

    def close(self) -> None:
        pass


def _quiet_runner(clock, notifier=None, controller=None, feed=None):
    controller = controller or Controller(Settings(), GameStore(":memory:"), fen=START_FEN)
    source = QuietSource(controller.expected_squares)
    return Runner(controller, source, Max7219Leds(max7219(noop(), cascaded=2)),
                  OledDisplay(dummy(width=128, height=64, mode="1")), clock=clock,
                  notifier=notifier or Notifier(None), log=io.StringIO(), feed=feed)


def test_an_idle_hour_takes_passes_for_deadlines_only(tmp_path):
    """No event for an hour: the loop wakes for the watchdog (every 5 s of
    a 10 s WatchdogSec) and nothing else; a loop polling every 10 ms would
    make 360,000 passes."""
    from maxima_board.service.feed import BoardFeed

    notifier = Notifier(str(tmp_path / "notify"), watchdog_usec=10_000_000)
    clock = FakeClock(step_ms=None)
    runner = _quiet_runner(clock, notifier, feed=BoardFeed())
    with mock.patch.object(notifier, "send", return_value=True) as send:
        runner.run(until_ms=3_600_000)
    assert clock.now == 3_600_000
    assert runner.passes <= 3_600 // 5 + 5
    assert clock.sleeps <= 3_600 // 5 + 5
    assert [c.kwargs for c in send.call_args_list].count({"WATCHDOG": 1}) == 3_600 // 5
    assert runner.feed.latest["fen"] == runner.controller.position.fen()


def test_a_pass_comes_at_the_controllers_deadline_not_later():
    """A move on a quiet source: the loop sleeps exactly until the settle
    time has passed, then commits."""
    clock = FakeClock(step_ms=None)
    runner = _quiet_runner(clock)
    runner.run(until_ms=1000)
    source = runner.source
    squares = set(source.state.squares) - {"d3"} | {"d5"}
    source.state = BoardState(frozenset(squares))
    runner.waker.wake()                      # the source's event
    before = runner.passes
    runner.run(until_ms=5000)
    moves = [e for e in runner.events if e["type"] == "move"]
    assert [m["move"] for m in moves] == ["d3-d5"]
    settle = runner.controller.settings.settle_ms
    # the frame at 1000, the commit at 1000 + settle, the last move's LEDs out
    assert runner.passes - before <= 4
    assert runner.controller.moves == ["d3-d5"] and clock.now == 5000


def test_a_web_command_wakes_a_sleeping_loop():
    """The loop has no deadline at all; a command from another thread is
    run at once, not at the next poll."""
    import threading

    from maxima_board.service.feed import BoardFeed
    from maxima_board.service.runner import SystemClock

    feed = BoardFeed()
    clock = SystemClock()
    runner = _quiet_runner(clock, feed=feed)
    start = clock.now_ms()
    answers = []

    def ask():
        t = time.monotonic()
        command = feed.submit(lambda c, now: c.moves, timeout=5)
        answers.append((command.result, time.monotonic() - t))
        runner.request_stop()

    thread = threading.Thread(target=ask)
    timer = threading.Timer(0.3, thread.start)
    timer.start()
    runner.run(until_ms=start + 10_000)
    thread.join(5)
    assert answers and answers[0][0] == []
    assert answers[0][1] < 1.0                # a 10 s sleep was cut short (at once; 1 s for a busy machine)
    assert clock.now_ms() - start < 2000
    assert runner.passes <= 4


def test_the_computers_answer_wakes_a_sleeping_loop():
    """The opponent's worker thread finishing wakes the loop (set_waker):
    without it the answer would wait for the loop's next deadline."""
    from maxima_board.service.runner import SystemClock
    from maxima_board.service.opponent_layer import OpponentLayer

    core = Controller(Settings(), GameStore(":memory:"), fen=START_FEN)
    layer = OpponentLayer(core, "white", 1, "greedy", movetime_ms=100)
    clock = SystemClock()
    runner = _quiet_runner(clock, controller=layer)
    start = clock.now_ms()
    try:
        runner.run(stop=lambda now: any(e["type"] == "engine_move" for e in runner.events),
                   until_ms=start + 30_000)
    finally:
        layer.close()
    assert any(e["type"] == "engine_move" for e in runner.events)
    assert clock.now_ms() - start < 20_000
    assert runner.passes <= 10


def test_blinking_leds_are_rendered_at_their_edges_only():
    """The MAX7219 sink says when its blinking LEDs change next: the loop
    shows them again then (fast blink: 250 ms period, lit the first half)."""
    leds = Max7219Leds(max7219(noop(), cascaded=2))
    assert leds.next_deadline(0) is None
    leds.show({"e5": "error-extra", "d3": "last-from"}, 10)
    assert leds.next_deadline(10) == 125
    assert leds.next_deadline(125) == 250
    leds.show({"e5": "check", "d3": "last-from"}, 300)             # slow: 1 s period
    assert leds.next_deadline(300) == 500
    leds.show({"d3": "last-from"}, 600)
    assert leds.next_deadline(600) is None


@pytest.mark.parametrize("offset", range(0, 15, 2))
def test_a_move_commits_within_settle_time_and_45_ms_of_its_last_switch_change(offset):
    """Whatever the phase of the 15 ms scans at rest, the last switch change
    of a move is seen, debounced (30 ms) and settled within settle_ms + 45 ms
    (the board allows + 50 ms)."""
    b = Board()
    handle = b.runner._handle

    def timed(events):
        events = list(events or ())
        if any(e["type"] == "move" for e in events):
            b.commit_at = b.clock.now
        handle(events)

    b.runner._handle = timed
    try:
        b.at(1000 + offset, "d3", False)
        place = 2000 + offset
        b.at(place, "d5", True)
        b.run_until(3000)
        settle = b.controller.settings.settle_ms
        committed = [e for e in b.runner.events if e["type"] == "move"]
        assert [e["move"] for e in committed] == ["d3-d5"]
        assert place < b.commit_at <= place + settle + 45
    finally:
        b.close()
