"""Board commands: ``run`` (play on the board) and ``diag`` (sensor test).

The configuration file is ``--config PATH``, else ``$MAXIMA_BOARD_CONFIG``,
else ``./maxima-board.toml``, else ``/etc/maxima-board/config.toml``; with
none of them ``run`` plays on the simulated board in this terminal.
"""
from __future__ import annotations

import argparse
import dataclasses
import signal
import sys
from contextlib import contextmanager

from maxima_board.cli.commands import Subcommands
from maxima_board.cli.config import Config, ConfigError, default_config, find_config, load_config
from maxima_board.cli.remote import remote_wrap
from maxima_board.devices.errors import HardwareError

from maxima_board.service import runner as runner_module
from maxima_board.board.numbers import decimal_number


def register(sub: Subcommands) -> None:
    p = sub.add_parser("run", help="run the board named in the config file (simulated board without one)")
    p.add_argument("--config", metavar="PATH", help="configuration file (TOML)")
    p.add_argument("--seconds", type=_seconds, metavar="N",
                   help="stop after N seconds (tests, soak runs); default: run until stopped")
    p.add_argument("--variant", metavar="NAME", type=_variant_name,
                   help="the game of new games (default: the config's [game] variant, else maxima)")
    p.set_defaults(func=_run)

    p = sub.add_parser("diag", help="sensor test: light and print every switch that closes")
    p.add_argument("--config", metavar="PATH", help="configuration file (TOML)")
    p.add_argument("--seconds", type=_seconds, metavar="N", help="stop after N seconds")
    p.set_defaults(func=_diag)


def _variant_name(text: str) -> str:
    from maxima_board.cli.play import variant_name

    return variant_name(text)


def _seconds(text: str) -> float:
    try:
        return decimal_number(text, 0, 1e7)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"--seconds N {exc}") from None


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
    from maxima_board.cli.assemble import build_hardware

    try:
        return build_hardware(config)
    except HardwareError as exc:
        raise _Failed(f"maxima-board {command}: {exc}") from None


class _Failed(Exception):
    """A device could not be used: printed as one line, exit code 1."""


def _say_if_no_pico(config: Config) -> None:
    """One log line when the Pico's device is not there at start: the board
    waits for it (a Pico plugged in later is picked up within 100 ms)."""
    from maxima_board.devices.serial_link import resolve_device

    try:
        resolve_device(config.pico.device)
    except FileNotFoundError:
        print(f"maxima-board run: no board at {config.pico.device} (config {config.path}: [pico] device); "
              f"waiting for it to be plugged in", file=sys.stderr, flush=True)



def _run(args: argparse.Namespace) -> int:
    config = _config(args)
    try:
        settings = config.settings()
    except TypeError as exc:
        raise ConfigError(f"config {config.path}: {exc}") from None
    if args.variant is not None:
        settings = dataclasses.replace(settings, variant=args.variant)
    if config.hardware == "sim":
        from maxima_board.cli.sim import run_sim

        # the configured board's squares; without a config, the Maxima board (``--variant`` alone: the game's)
        board = settings.board_kind if config.path is not None or args.variant is None else None
        if config.path is None:     # no config file: the plain simulator
            return int(run_sim(settings, sys.stdin, sys.stdout, wrap=lambda c: _opponent(c, config),
                               board=board) or 0)
        from .club_cmds import interrupt_on_sigterm

        services = _club(config, settings)
        remote = None
        try:
            remote = _remote(config, settings)
            with interrupt_on_sigterm():
                return int(run_sim(settings, sys.stdin, sys.stdout, feed=services.feed,
                                   on_start=lambda sim: services.attach(sim.core),
                                   wrap=remote_wrap(remote, lambda c: _opponent(c, config)), board=board) or 0)
        except KeyboardInterrupt:
            return 0
        finally:
            if remote is not None:
                remote.close()
            services.close()
    try:
        hardware = _hardware(config, "run")
    except _Failed as exc:
        print(exc, file=sys.stderr)
        return 1
    store = services = controller = remote = None
    try:
        from maxima_board.board.core import Controller
        from maxima_board.service.guard import Guard, fault_dir_for

        clock = runner_module.SystemClock()
        store = _open_store(settings.db_path, hardware.display)
        core = Controller(settings, store, now_ms=clock.now_ms())
        services = _club(config, settings)
        services.attach(core)
        remote = _remote(config, settings)
        layers = remote_wrap(remote, lambda c: _opponent(c, config))

        def stack(core):   # the board's squares outermost: the opponent's LEDs are the game's squares too
            return _on_board(layers(core), settings, config)

        def resumed(now_ms: int):   # after a controller fault: the stored game, resumed
            core = Controller(settings, store, now_ms=now_ms)
            services.attach(core)
            return stack(core)

        controller = Guard(stack(core), resumed, fault_dir=fault_dir_for(store), now_ms=clock.now_ms())
        loop = runner_module.Runner(controller, hardware.source, hardware.leds, hardware.display,
                                    hardware.beeper, clock=clock, period_ms=config.loop_ms, feed=services.feed)
        print(f"maxima-board run: {hardware.description}, config {config.path}, games in {store.path}",
              file=sys.stderr, flush=True)
        if config.hardware == "pico":
            _say_if_no_pico(config)
        end = None if args.seconds is None else clock.now_ms() + int(args.seconds * 1000)
        with _stop_on_sigterm(loop.request_stop):
            loop.run(until_ms=end)
        loop.close()
    finally:
        if remote is not None:
            remote.close()
        if services is not None:
            services.close()
        if controller is not None and hasattr(controller, "close"):
            controller.close()   # the computer opponent's engine
        hardware.close()
        if store is not None:
            store.close()
    return 0


def _remote(config: Config, settings):
    """The remote games of ``[remote]`` (None without a broker)."""
    from maxima_board.cli.remote import remote_of_config
    from maxima_board.storage.store import default_db_path

    return remote_of_config(config.remote, settings.db_path or default_db_path(),
                            lambda text: print(text, file=sys.stderr, flush=True))


def _on_board(controller, settings, config: Config):
    """The controller seen through the configured board (hardware/boards.py):
    the game placed on it, board squares translated both ways."""
    from maxima_board.devices.boards import PlacementError

    from maxima_board.service.board_view import BoardView

    try:
        return BoardView(controller, settings.board_kind, settings.board_offset)
    except PlacementError as exc:
        key = "[board] offset" if settings.board_offset else "[board] kind"
        raise ConfigError(f"config {config.path}: {key}: {exc}") from None


def _opponent(controller, config: Config):
    """The computer opponent around the controller ([opponent] of the config)."""
    from maxima_board.service.opponent_layer import OpponentLayer
    o = config.opponent
    return OpponentLayer(controller, o.side, o.level, o.engine, movetime_ms=o.movetime_ms)


def _open_store(db_path: str | None, display):
    """The board's locked games database. When it cannot be used the
    board's display says so too, before the one-line error ends ``run``."""
    import textwrap

    from maxima_board.storage.store import board_store

    try:
        return board_store(db_path)
    except (OSError, ValueError) as exc:
        reason = str(exc).split(": ", 1)[-1]
        try:
            display.show(["Game database", "cannot be used:"] + textwrap.wrap(reason, 21)[:2])
        except Exception:   # a failing display must not hide the database error
            pass
        raise


def _club(config: Config, settings):
    """The web page and the broadcast of ``[web]`` and ``[broadcast]``."""
    from maxima_board.cli.club import start_club
    from maxima_board.storage.store import default_db_path

    web, cast = config.web, config.broadcast
    on = web.enabled
    return start_club(settings.db_path or default_db_path(), web_bind=web.bind if on else None,
                      web_port=web.port, web_hosts=web.hosts, broker=cast.broker, club=cast.club,
                      table=cast.table, auth=cast.auth(), review=config.review_background)


def _say_setup(config: Config) -> None:
    """What this install lacks for the configured board: each missing module
    (a line each on stderr), and whether the computer opponent can play."""
    from maxima_board.cli.assemble import missing_modules
    from maxima_board.opponent.specs import SpecError, parse_spec

    for missing in missing_modules(config):
        print(f"maxima-board diag: {missing}", file=sys.stderr, flush=True)
    o = config.opponent
    try:
        spec = parse_spec(o.engine)
    except SpecError as exc:
        print(f"maxima-board diag: computer opponent unavailable: {exc}", file=sys.stderr, flush=True)
        return
    plays = "off ([opponent] side = \"none\")" if o.side == "none" else f"plays {o.side}"
    print(f"maxima-board diag: computer opponent {plays}, engine {' '.join(spec.command)}", file=sys.stderr, flush=True)


def _diag(args: argparse.Namespace) -> int:
    from maxima_board.cli.diag import run_diag

    config = _config(args)
    if config.hardware == "sim":
        raise ConfigError("diag needs a board: set hardware = \"direct\" or \"pico\" in the config file"
                          if config.path is None else
                          f"config {config.path}: hardware: diag needs \"direct\" or \"pico\", got \"sim\"")
    _say_setup(config)
    try:
        hardware = _hardware(config, "diag")
    except _Failed as exc:
        print(exc, file=sys.stderr)
        return 1
    from maxima_board.service.waker import Waker

    clock = runner_module.SystemClock()
    stopped = []
    waker = Waker()     # SIGTERM ends a wait on the Pico link at once

    def stop() -> None:
        stopped.append(True)
        waker.wake()

    try:
        with _stop_on_sigterm(stop):
            run_diag(hardware.source, hardware.leds, hardware.display, config.matrix_map(),
                     sys.stdout, clock.now_ms, clock.sleep_ms, seconds=args.seconds,
                     period_ms=config.loop_ms, stop=lambda: bool(stopped),
                     wait=getattr(clock, "wait", None), wake_fd=waker.fileno())
    finally:
        hardware.close()
        waker.close()
    return 0
