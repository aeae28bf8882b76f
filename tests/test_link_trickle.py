"""Issue 13: a link trickling one byte per 16 ms. The simulated Pico (real
firmware logic on a pty) keeps a bounded output queue, and the Pi treats a
link that cannot keep up — its keep-up ping not answered within the loss
time — as lost, so the OLED says so instead of the game stalling."""
from __future__ import annotations

import io
import select

import pytest

from maxima_board.board.core import Controller
from maxima_board.service.runner import Runner
from maxima_board.board.settings import Settings
from maxima_board.storage.store import GameStore
from maxima_board.rules import START_FEN
from maxima_board.cli.assemble import NoDisplay
from maxima_board.devices.matrix_map import MatrixMap
from maxima_board.devices.pico_sim import OUT_LIMIT, SimPico
from maxima_board.devices.serial_link import PicoLink

MAP = MatrixMap()


def run(ms_per_byte: int, until_ms: int, out_limit: int = OUT_LIMIT):
    """The runner on a PicoLink to a simulated Pico whose output trickles;
    (runner, link, sim, largest output queue seen)."""
    sim = SimPico(tx_ms_per_byte=ms_per_byte, out_limit=out_limit)
    controller = Controller(Settings(), GameStore(":memory:"), fen=START_FEN)
    sim.matrix.set({MAP.position_of[s] for s in controller.expected_squares})
    link = PicoLink.from_config(sim.path, 115200, MAP)
    runner = Runner(controller, link, link, NoDisplay(), log=io.StringIO())
    biggest = 0
    for t in range(0, until_ms, 10):
        sent = sim.bytes_out
        sim.step(t)
        if sim.bytes_out != sent and link._port is not None:
            select.select([link._port.fileno()], [], [], 0.2)
        runner.step(t)
        if link.stats["led_frames_sent"] or link.stats["pings_sent"]:
            sim.wait_input(0.0005)
        biggest = max(biggest, len(sim.out))
    return runner, link, sim, biggest


def test_a_trickling_link_is_shown_as_lost_and_its_queue_stays_bounded():
    runner, link, sim, biggest = run(16, 8000, out_limit=300)
    try:
        assert {"type": "link", "ok": False} in runner.events
        assert runner.controller.display[0] == "Board link lost"
        assert link.stats["slow_link"] >= 1
        assert biggest <= 300 + 200                # bounded (one line may be on its way)
        assert sim.dropped_bytes > 0
    finally:
        link.close()
        sim.close()


@pytest.mark.parametrize("ms_per_byte", [0, 1])
def test_a_link_that_keeps_up_is_never_lost(ms_per_byte):
    """No false alarm: a fast pty, and a slow link that still carries every
    line (1 byte/ms against ~400 bytes/s of traffic)."""
    runner, link, sim, _ = run(ms_per_byte, 5000)
    try:
        assert {"type": "link", "ok": False} not in runner.events
        assert link.link_ok and link.stats["link_losses"] == 0
        assert link.stats["pings_sent"] >= 8 and link.stats["ping_max_ms"] < 1000
        assert sim.dropped_bytes == 0
    finally:
        link.close()
        sim.close()
