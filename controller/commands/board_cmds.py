"""Board commands: ``run`` (play on the board) and ``diag`` (sensor test).

The configuration file is ``--config PATH``, else ``$MAXIMA_BOARD_CONFIG``,
else ``./maxima-board.toml``, else ``/etc/maxima-board/config.toml``; with
none of them ``run`` plays on the simulated board in this terminal.
"""
from __future__ import annotations

import argparse
import signal
import sys
from contextlib import contextmanager

from hardware.config import Config, ConfigError, default_config, find_config, load_config
from hardware.errors import HardwareError

from .. import runner as runner_module


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("run", help="run the board named in the config file (simulated board without one)")
    p.add_argument("--config", metavar="PATH", help="configuration file (TOML)")
    p.add_argument("--seconds", type=_seconds, metavar="N",
                   help="stop after N seconds (tests, soak runs); default: run until stopped")
    p.set_defaults(func=_run)

    p = sub.add_parser("diag", help="sensor test: light and print every switch that closes")
    p.add_argument("--config", metavar="PATH", help="configuration file (TOML)")
    p.add_argument("--seconds", type=_seconds, metavar="N", help="stop after N seconds")
    p.set_defaults(func=_diag)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value < 1e7:
        raise argparse.ArgumentTypeError(f"N must be a positive number of seconds, got {text!r}")
    return value


def _config(args: argparse.Namespace) -> Config:
    path = find_config(args.config)
    return default_config() if path is None else load_config(path)


@contextmanager
def _stop_on_sigterm(request_stop):
    """SIGTERM (systemctl stop) ends the loop cleanly, like Ctrl-C."""
    try:
        previous = signal.signal(signal.SIGTERM, lambda *_: request_stop())
    except ValueError:      # not the main thread (tests): nothing to install
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _hardware(config: Config, command: str):
    from hardware.assemble import build_hardware

    try:
        return build_hardware(config)
    except HardwareError as exc:
        raise _Failed(f"maxima-board {command}: {exc}") from None


class _Failed(Exception):
    """A device could not be used: printed as one line, exit code 1."""


def _run(args: argparse.Namespace) -> int:
    config = _config(args)
    try:
        settings = config.settings()
    except TypeError as exc:
        raise ConfigError(f"config {config.path}: {exc}") from None
    if config.hardware == "sim":
        from controller.sim import run_sim

        if config.path is None:     # no config file: the plain simulator
            return int(run_sim(settings, sys.stdin, sys.stdout) or 0)
        from .club_cmds import interrupt_on_sigterm

        services = _club(config, settings)
        try:
            with interrupt_on_sigterm():
                return int(run_sim(settings, sys.stdin, sys.stdout, feed=services.feed,
                                   on_start=lambda sim: services.attach(sim.controller)) or 0)
        except KeyboardInterrupt:
            return 0
        finally:
            services.close()
    try:
        hardware = _hardware(config, "run")
    except _Failed as exc:
        print(exc, file=sys.stderr)
        return 1
    store = services = None
    try:
        from controller.core import Controller
        from controller.store import GameStore, default_db_path

        clock = runner_module.SystemClock()
        store = GameStore(settings.db_path or default_db_path())
        controller = Controller(settings, store, now_ms=clock.now_ms())
        services = _club(config, settings)
        services.attach(controller)
        loop = runner_module.Runner(controller, hardware.source, hardware.leds, hardware.display,
                                    hardware.beeper, clock=clock, period_ms=config.loop_ms, feed=services.feed)
        print(f"maxima-board run: {hardware.description}, config {config.path}", file=sys.stderr, flush=True)
        stop = None
        if args.seconds is not None:
            end = clock.now_ms() + int(args.seconds * 1000)
            stop = lambda now: now >= end  # noqa: E731
        with _stop_on_sigterm(loop.request_stop):
            loop.run(stop)
    finally:
        if services is not None:
            services.close()
        hardware.close()
        if store is not None:
            store.close()
    return 0


def _club(config: Config, settings):
    """The web page and the broadcast of ``[web]`` and ``[broadcast]``."""
    from controller.club import start_club
    from controller.store import default_db_path

    web, cast = config.web, config.broadcast
    on = web.enabled if web.enabled is not None else config.hardware != "sim"
    return start_club(settings.db_path or default_db_path(), web_bind=web.bind if on else None,
                      web_port=web.port, broker=cast.broker, club=cast.club, table=cast.table)


def _diag(args: argparse.Namespace) -> int:
    from hardware.diag import run_diag
    from hardware.matrix_map import MatrixMap

    config = _config(args)
    if config.hardware == "sim":
        raise ConfigError("diag needs a board: set hardware = \"direct\" or \"pico\" in the config file"
                          if config.path is None else
                          f"config {config.path}: hardware: diag needs \"direct\" or \"pico\", got \"sim\"")
    try:
        hardware = _hardware(config, "diag")
    except _Failed as exc:
        print(exc, file=sys.stderr)
        return 1
    clock = runner_module.SystemClock()
    stopped = []
    try:
        with _stop_on_sigterm(lambda: stopped.append(True)):
            run_diag(hardware.source, hardware.leds, hardware.display, MatrixMap(dict(config.matrix.layout)),
                     sys.stdout, clock.now_ms, clock.sleep_ms, seconds=args.seconds,
                     period_ms=config.loop_ms, stop=lambda: bool(stopped))
    finally:
        hardware.close()
    return 0
