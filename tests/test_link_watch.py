"""An unplugged Pico is waited for, not polled: the link watches the folder
its device appears in (Linux inotify) and has no timer while it is missing.

Real parts: a temporary folder stands for ``/dev`` (or
``/dev/serial/by-id``), a simulated Pico on a real pty is the device, and a
symlink to the pty appearing in the folder is the Pico being plugged in.
"""
from __future__ import annotations

import io
import os
import select
import sys
import threading
import time

import pytest

from maxima_board.devices.device_watch import DeviceWatch, folder_to_watch
from maxima_board.devices.pico_sim import SimPico
from maxima_board.devices.serial_link import PicoLink
from tests.test_serial_link import MAP, POS, drive

# On Linux inotify is always there: a missing inotify_simple must fail here, not skip.
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="inotify is Linux's")


@pytest.fixture
def sim():
    s = SimPico()
    yield s
    s.close()


def woken(fds, timeout: float) -> bool:
    """Whether a select on ``fds`` returns within ``timeout`` seconds."""
    return bool(select.select(list(fds), [], [], timeout)[0])


def waits_on_the_watch(link: PicoLink, t: int) -> bool:
    """The link's only way to be woken is its watch: no deadline, the
    watch's descriptor and nothing else to wait on."""
    return (link.next_deadline(t) is None
            and link.descriptors() == ((link.watch.fileno(),), ()))


def test_a_missing_pico_has_no_timer_and_its_appearance_wakes_the_loop(tmp_path, sim):
    path = tmp_path / "maxima-pico"
    link = PicoLink.from_config(str(path), 115200, MAP)
    try:
        assert link.read(0) is None
        assert link.link_problem == f"No board at {path}"
        assert waits_on_the_watch(link, 0)
        assert link.watch.folders == (str(tmp_path),)
        readable = link.descriptors()[0]
        assert not woken(readable, 0.05)
        for t in range(10, 60_000, 10):        # a minute of passes the rest of the board brings
            assert link.read(t) is None
        assert link.stats["open_failures"] == 1        # no attempt since: nothing changed
        assert waits_on_the_watch(link, 60_000)
        (tmp_path / "unrelated").write_text("")         # another device in the folder
        assert woken(readable, 1.0)
        assert link.read(60_010) is None and link.stats["open_failures"] == 1
        assert waits_on_the_watch(link, 60_010)         # drained: quiet again
        assert not woken(readable, 0.05)

        sim.matrix.set({POS["d3"], POS["e9"]})
        os.symlink(sim.path, path)                      # plugged in
        assert woken(readable, 1.0)
        t = drive(link, sim, 60_020, 62_000, until=lambda t: link.link_ok)
        assert t - 60_020 <= 500, f"up after {t - 60_020} ms"
        assert link.read(t).squares == {"d3", "e9"}
        assert link.link_problem is None
        assert link.descriptors()[0] == (link._port.fileno(),)   # the port now, not the watch
        assert link.next_deadline(t) is not None                  # the loss time
    finally:
        link.close()


def test_missing_folders_are_watched_from_the_nearest_one_that_exists(tmp_path, sim):
    """/dev/serial/by-id does not exist while no serial device is plugged
    in: udev makes it with the first and removes it with the last."""
    by_id = tmp_path / "serial" / "by-id"
    name = "usb-MicroPython_Board_in_FS_mode_e6614c311b2b6f2a-if00"
    link = PicoLink.from_config(str(by_id / "usb-MicroPython_Board_in_FS_mode_*"), 115200, MAP)
    try:
        link.read(0)
        assert waits_on_the_watch(link, 0)
        assert link.watch.folders == (str(tmp_path),)
        readable = link.descriptors()[0]
        (tmp_path / "serial").mkdir()
        assert woken(readable, 1.0)
        link.read(10)
        assert waits_on_the_watch(link, 10) and link.watch.folders == (str(tmp_path / "serial"),)
        by_id.mkdir()
        assert woken(readable, 1.0)
        link.read(20)
        assert waits_on_the_watch(link, 20) and link.watch.folders == (str(by_id),)
        os.symlink(sim.path, by_id / name)
        assert woken(readable, 1.0)
        t = drive(link, sim, 30, 2000, until=lambda t: link.link_ok)
        assert t <= 500

        # unplugged: the pty goes, and udev takes the link and its folder away
        sim.unplug()
        (by_id / name).unlink()
        by_id.rmdir()
        t = drive(link, None, t, t + 3000, until=lambda t: link.reconnect.watching)
        assert link.stats["link_losses"] == 1 and not link.link_ok
        assert waits_on_the_watch(link, t) and link.watch.folders == (str(tmp_path / "serial"),)
        for t in range(t, t + 30_000, 10):
            link.read(t)
        assert link.stats["open_failures"] == 2         # at start, and the one attempt that found it missing

        sim.plug()                                      # plugged in again: folder, then the link
        by_id.mkdir()
        os.symlink(sim.path, by_id / name)
        assert woken(readable, 1.0)
        replug = t
        t = drive(link, sim, replug, replug + 3000, until=lambda t: link.link_ok)
        assert t - replug <= 500, f"up after {t - replug} ms"
        assert link.stats["reconnects"] == 1
    finally:
        link.close()


def test_a_device_that_is_there_but_does_not_open_keeps_the_backoff(tmp_path):
    """Not idleness but an error (here: not a serial port at all): retried
    at the backoff, the watch not listened to."""
    path = tmp_path / "maxima-pico"
    path.write_text("not a tty")
    link = PicoLink.from_config(str(path), 115200, MAP)
    try:
        link.read(0)
        assert link.stats["open_failures"] == 1 and link._port is None
        assert link.link_problem is None                 # it exists: not "No board at"
        assert link.descriptors() == ((), ())
        assert link.next_deadline(0) == 250
        link.read(250)
        assert link.next_deadline(250) == 750            # 0.25 s doubling
    finally:
        link.close()


def test_a_glob_in_a_folder_name_falls_back_to_the_timer(tmp_path):
    pattern = str(tmp_path / "*" / "maxima-pico")
    assert folder_to_watch(pattern) is None and DeviceWatch.open([pattern]) is None
    link = PicoLink.from_config(pattern, 115200, MAP)
    try:
        link.read(0)
        assert link.watch is None
        assert link.next_deadline(0) == 100              # the presence check of old
    finally:
        link.close()


def test_auto_watches_the_udev_link_and_the_by_id_folder():
    watch = DeviceWatch.open(["/dev/maxima-pico", "/dev/serial/by-id/*MicroPython*"])
    assert watch is not None
    try:
        assert watch.arm()
        assert "/dev" in watch.folders
        assert all(f in ("/dev", "/dev/serial", "/dev/serial/by-id") for f in watch.folders)
        watch.disarm()
        assert watch.folders == () and not watch.armed
    finally:
        watch.close()


def test_the_board_loop_sleeps_until_the_pico_is_plugged_in(tmp_path, sim):
    """The real loop (maxima_board.service.runner, real clock): while the device is
    missing it wakes only for the controller's own times, and a Pico
    plugged in wakes it at once."""
    from maxima_board.board.core import Controller
    from maxima_board.service.runner import Runner
    from maxima_board.board.settings import Settings
    from maxima_board.storage.store import GameStore
    from maxima_board.rules import START_FEN
    from maxima_board.cli.assemble import NoDisplay
    from maxima_board.devices.notify import Notifier

    path = tmp_path / "maxima-pico"
    controller = Controller(Settings(), GameStore(":memory:"), fen=START_FEN)
    link = PicoLink.from_config(str(path), 115200, MAP)
    runner = Runner(controller, link, link, NoDisplay(), notifier=Notifier(None), log=io.StringIO())
    sim.matrix.set({MAP.position_of[s] for s in controller.expected_squares})
    try:
        start = runner.clock.now_ms()
        runner.run(until_ms=start + 2000)              # unplugged for 2 s
        idle_passes = runner.passes
        assert idle_passes <= 6, f"{idle_passes} passes in 2 s with the Pico unplugged"
        assert link.stats["open_failures"] == 1

        plugged = []

        def plug() -> None:
            time.sleep(0.2)
            sim.start()
            plugged.append(time.monotonic())
            os.symlink(sim.path, path)

        threading.Thread(target=plug, daemon=True).start()
        runner.run(stop=lambda now: link.link_ok, until_ms=runner.clock.now_ms() + 5000)
        assert link.link_ok, "the Pico was not picked up"
        assert time.monotonic() - plugged[0] < 1.0
    finally:
        link.close()
        runner.close()


# ---- diag waits on the link too -------------------------------------------------

class _Screen:
    def show(self, lines) -> None:
        self.lines = list(lines)


def test_diag_sleeps_on_the_pico_link_until_it_is_plugged_in(tmp_path, sim):
    from maxima_board.service.runner import SystemClock
    from maxima_board.cli.diag import run_diag

    clock = SystemClock()
    passes, sleeps = [], []

    def now_ms() -> int:
        passes.append(1)
        return clock.now_ms()

    path = tmp_path / "maxima-pico"
    link = PicoLink.from_config(str(path), 115200, MAP)
    sim.matrix.set({POS["e4"]})

    def plug() -> None:
        time.sleep(1.0)
        sim.start()
        os.symlink(sim.path, path)

    out = io.StringIO()
    threading.Thread(target=plug, daemon=True).start()
    try:
        run_diag(link, link, _Screen(), MAP, out, now_ms, sleeps.append, seconds=2.0, wait=clock.wait)
    finally:
        link.close()
    lines = out.getvalue().splitlines()
    assert lines[1:4] == ["link connecting", "link up", "closed  R3 C4  e4"], lines
    assert sleeps == []                        # never a fixed sleep: waited on the link
    assert len(passes) < 40, f"{len(passes)} passes in 2 s"   # a 10 ms loop: 200


def test_diag_waiting_for_an_unplugged_pico_ends_when_woken_to_stop(tmp_path):
    from maxima_board.service.runner import SystemClock
    from maxima_board.service.waker import Waker
    from maxima_board.cli.diag import run_diag

    clock = SystemClock()
    link = PicoLink.from_config(str(tmp_path / "maxima-pico"), 115200, MAP)
    waker = Waker()
    stopped = []

    def sigterm() -> None:
        time.sleep(0.3)
        stopped.append(True)
        waker.wake()

    threading.Thread(target=sigterm, daemon=True).start()
    started = time.monotonic()
    try:
        run_diag(link, link, _Screen(), MAP, io.StringIO(), clock.now_ms, clock.sleep_ms,
                 stop=lambda: bool(stopped), wait=clock.wait, wake_fd=waker.fileno())
    finally:
        link.close()
        waker.close()
    assert time.monotonic() - started < 2.0


def test_a_watched_folder_that_goes_away_is_followed_up_the_tree(tmp_path, sim):
    """Waiting in /dev/serial/by-id while another serial device is plugged
    in; that one is unplugged and udev removes by-id: the watch moves up,
    and comes down again when the Pico brings the folder back."""
    by_id = tmp_path / "serial" / "by-id"
    by_id.mkdir(parents=True)
    name = "usb-MicroPython_Board_in_FS_mode_e6614c311b2b6f2a-if00"
    link = PicoLink.from_config(str(by_id / "usb-MicroPython*"), 115200, MAP)
    try:
        link.read(0)
        assert waits_on_the_watch(link, 0) and link.watch.folders == (str(by_id),)
        readable = link.descriptors()[0]
        by_id.rmdir()
        assert woken(readable, 1.0)
        link.read(10)
        assert waits_on_the_watch(link, 10) and link.watch.folders == (str(tmp_path / "serial"),)
        by_id.mkdir()
        os.symlink(sim.path, by_id / name)
        t = 20
        while link.reconnect.watching and t < 1000:       # by-id, then the link in it (one or two wakes)
            assert woken(readable, 1.0)
            link.read(t)
            t += 10
        t = drive(link, sim, t, t + 2000, until=lambda t: link.link_ok)
        assert link.link_ok and link.stats["open_failures"] == 1
    finally:
        link.close()
