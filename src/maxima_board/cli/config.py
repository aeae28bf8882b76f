"""The board's configuration file (TOML), checked key by key.

Every mistake is reported as one line that names the file, the key and what
is wrong, e.g. ``config maxima-board.toml: [matrix] rows: expected 10 pins,
got 9``. Unknown sections and keys are errors too, so a typo never silently
falls back to a default.

The file is found by :func:`find_config`: ``--config PATH``, else
``$MAXIMA_BOARD_CONFIG``, else ``./maxima-board.toml``, else
``/etc/maxima-board/config.toml``; with none of them the board is simulated.
The file is UTF-8 text; a byte-order mark at its start is accepted.
"""
from __future__ import annotations

import difflib
import os
import re
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping

from maxima_board.devices.blink import DEFAULT_PATTERNS
from maxima_board.devices.boards import BOARDS, FILES, PlacementError, board_kind, parse_offset, place
from maxima_board.devices.interfaces import BUTTONS, LED_STATES
from maxima_board.devices.matrix_map import COLUMNS, ROWS, MatrixMap, default_layout

DEFAULT_ROWS = (4, 5, 6, 7, 12, 13, 16, 19, 20, 15)
DEFAULT_COLUMNS = (17, 27, 22, 23, 24, 25, 26, 21)
DEFAULT_PICO_DEVICE = "/dev/serial/by-id/usb-MicroPython_Board*"
SEARCH_PATH = (Path("maxima-board.toml"), Path("/etc/maxima-board/config.toml"))
KINDS = ("sim", "direct", "pico")
PIN_FACTORIES = ("auto", "lgpio", "rpigpio", "pigpio", "native", "mock")
PATTERNS = ("off", "steady", "slow", "fast")
# Single-colour LED pattern per state (shared/hardware/board.md).
# Pins the buses take when their device is enabled (BCM numbers).
I2C1_PINS = (2, 3)
SPI0_PINS = (8, 9, 10, 11)


class ConfigError(ValueError):
    """A mistake in the configuration file; ``str()`` is the one-line report."""


@dataclass(frozen=True)
class MatrixConfig:
    """The reed-switch matrix of the direct topology (and the layout of both)."""

    rows: tuple[int, ...] = DEFAULT_ROWS
    columns: tuple[int, ...] = DEFAULT_COLUMNS
    layout: Mapping[int, str] = field(default_factory=default_layout)
    pin_factory: str = "auto"
    row_settle_us: int = 10


@dataclass(frozen=True)
class LedConfig:
    """Single-colour LEDs on cascaded MAX7219 chips (direct topology)."""

    driver: str = "max7219"
    interface: str = "spi"
    spi_port: int = 0
    spi_device: int = 0
    chips: int = 2
    brightness: int = 4
    order: tuple[int, ...] = tuple(range(ROWS * COLUMNS))
    slow_blink_ms: int = 1000
    fast_blink_ms: int = 250
    patterns: Mapping[str, str] = field(default_factory=lambda: dict(DEFAULT_PATTERNS))


@dataclass(frozen=True)
class OledConfig:
    driver: str = "ssd1306"
    i2c_bus: int = 1
    address: int = 0x3C
    rotate: int = 0
    contrast: int = 255


@dataclass(frozen=True)
class BuzzerConfig:
    enabled: bool = False
    pin: int = 18
    kind: str = "active"


@dataclass(frozen=True)
class PicoConfig:
    device: str = DEFAULT_PICO_DEVICE
    baud: int = 115200


@dataclass(frozen=True)
class WebConfig:
    """The board's web page (``run``); 0.0.0.0: every address of the Pi,
    answering only the local network. Off unless the config turns it on
    (the example config the installer copies does); ``serve`` always has it."""

    enabled: bool = False
    port: int = 8080
    bind: str = "0.0.0.0"
    hosts: tuple[str, ...] = ()     # more names the page answers to, beside the Pi's own and its addresses


@dataclass(frozen=True)
class BroadcastConfig:
    """Publishing the game to an MQTT broker; off while ``broker`` is None."""

    broker: str | None = None
    club: str = "club"
    table: str = "1"
    username: str | None = None           # the board's log-in at the broker ...
    password_file: str | None = None      # ... and the file holding its password
    tls: Mapping[str, str] = field(default_factory=dict)    # {"ca", "cert", "key"}: files

    def auth(self):
        """The log-in (maxima_board.club.connection.BrokerAuth) these keys describe."""
        from maxima_board.club.connection import BrokerAuth

        return BrokerAuth(self.username, self.password_file, self.tls.get("ca"), self.tls.get("cert"),
                          self.tls.get("key"))


@dataclass(frozen=True)
class RemoteConfig:
    """Remote games (docs/remote.md) through an MQTT broker; off while
    ``broker`` is None. With ``game`` and ``side`` the board plays that game
    from its start; without, MENU begins one ("Remote game as White?")."""

    broker: str | None = None
    game: str | None = None              # the game's name: its secret
    side: str | None = None
    key_file: str | None = None          # an extra secret both boards were given (its first line)
    username: str | None = None
    password_file: str | None = None
    tls: Mapping[str, str] = field(default_factory=dict)

    def auth(self):
        from maxima_board.club.connection import BrokerAuth

        return BrokerAuth(self.username, self.password_file, self.tls.get("ca"), self.tls.get("cert"),
                          self.tls.get("key"))


@dataclass(frozen=True)
class OpponentConfig:
    """The computer opponent (``maxima_board.service.opponent_layer``): the side it plays
    ("white", "black" or "none"), its level 1-10, the engine (``builtin`` or
    any engine spec: a baseline player or the path of a UCI engine) and the
    most a move may take without a game clock (the built-in engine's level is
    a node budget, opponent/levels.py, which usually ends the move sooner)."""

    side: str = "none"
    level: int = 5
    engine: str = "builtin"
    movetime_ms: int = 10_000


@dataclass(frozen=True)
class Config:
    """Everything the board reads from its configuration file."""

    path: str | None = None
    hardware: str = "sim"
    matrix: MatrixConfig = field(default_factory=MatrixConfig)
    leds: LedConfig = field(default_factory=LedConfig)
    oled: OledConfig = field(default_factory=OledConfig)
    buzzer: BuzzerConfig = field(default_factory=BuzzerConfig)
    pico: PicoConfig = field(default_factory=PicoConfig)
    web: WebConfig = field(default_factory=WebConfig)
    broadcast: BroadcastConfig = field(default_factory=BroadcastConfig)
    opponent: OpponentConfig = field(default_factory=OpponentConfig)
    remote: RemoteConfig = field(default_factory=RemoteConfig)
    review_background: bool = True    # [review] background: finished games reviewed beside the board (nice 19)
    debounce_ms: int = 30
    loop_ms: int = 10
    board_kind: str = "maxima"        # [board] kind: "maxima" | "10x10" (hardware/boards.py)
    # Values for maxima_board.board.settings.Settings (only the keys the file sets,
    # plus db_path from $MAXIMA_BOARD_DB when the file names none).
    settings_values: Mapping[str, Any] = field(default_factory=dict)

    @property
    def board(self):
        """The board kind (maxima_board.devices.boards.BoardKind) this file describes."""
        return BOARDS[self.board_kind]

    def matrix_map(self) -> MatrixMap:
        """The switch matrix of this board with the file's layout."""
        return MatrixMap.for_board(self.board, dict(self.matrix.layout))

    def settings(self):
        """The controller's ``Settings`` filled from this file."""
        from maxima_board.board.settings import Settings

        try:
            return Settings(**self.settings_values)
        except (TypeError, ValueError) as exc:
            raise ConfigError(f"config {self.path}: {exc}" if self.path else str(exc)) from None


# --------------------------------------------------------------------------
# finding the file

def find_config(explicit: str | None = None, environ: Mapping[str, str] | None = None,
                search: tuple[Path, ...] | None = None) -> Path | None:
    """The configuration file to use, or None to run the simulated board.

    A path given explicitly (option or ``$MAXIMA_BOARD_CONFIG``) must exist.
    """
    environ = os.environ if environ is None else environ
    for given in (explicit, environ.get("MAXIMA_BOARD_CONFIG") or None):
        if given is not None:
            path = Path(given)
            if not path.is_file():
                raise ConfigError(f"config {given}: {_not_a_file(path)}")
            return path
    for path in SEARCH_PATH if search is None else search:
        if path.is_file():
            return path
    return None


def _not_a_file(path: Path) -> str:
    """Why ``path``, which is not a regular file, cannot be the config."""
    if path.is_dir():
        return "is a directory, not a file"
    if path.exists():
        return "not a regular file"
    return "file not found"


def default_config(environ: Mapping[str, str] | None = None) -> Config:
    """The configuration with no file: the simulated board."""
    return Config(settings_values=_db_from_env({}, environ))


def load_config(path: str | os.PathLike, environ: Mapping[str, str] | None = None) -> Config:
    """Read and check a configuration file; raise :class:`ConfigError`."""
    name = str(path)
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
    except (FileNotFoundError, IsADirectoryError):
        raise ConfigError(f"config {name}: {_not_a_file(Path(path))}") from None
    except OSError as exc:
        raise ConfigError(f"config {name}: cannot read: {exc.strerror or exc}") from None
    data = _toml(_text_of(raw, name), name)
    try:
        return _parse(data, Path(path), environ)
    except _KeyError as exc:
        raise ConfigError(f"config {name}: {exc}") from None


def parse_config(text: str, name: str = "<string>", environ: Mapping[str, str] | None = None) -> Config:
    """Like :func:`load_config` for TOML text (used by tests)."""
    data = _toml(text, name)
    try:
        return _parse(data, Path(name), environ)
    except _KeyError as exc:
        raise ConfigError(f"config {name}: {exc}") from None


def _text_of(raw: bytes, name: str) -> str:
    """The file's bytes as text: UTF-8, a leading byte-order mark accepted
    (Windows editors write one)."""
    if b"\0" in raw:
        raise ConfigError(f"config {name}: a binary file, not TOML text")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise ConfigError(f"config {name}: not UTF-8 text (byte 0x{raw[exc.start]:02x} "
                          f"at line {line}, column {column})") from None


def _toml(text: str, name: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"config {name}: not valid TOML: {exc}") from None
    except ValueError as exc:   # a number beyond int()'s digit limit, a date like 2024-02-30
        limit = sys.get_int_max_str_digits()
        why = f"a number has more than {limit} digits" if "digits" in str(exc) else str(exc)
        raise ConfigError(f"config {name}: not valid TOML: {why}") from None


# --------------------------------------------------------------------------
# checking values

class _KeyError(Exception):
    """A problem with one key; the loader adds the file name."""

    def __init__(self, where: str, message: str):
        super().__init__(f"{where}: {message}")


def _show(value: Any) -> str:
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "a list"
    return str(value)


def _integer(low: int, high: int) -> Callable[[Any], int]:
    def check(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"expected a whole number, got {_show(value)}")
        if not low <= value <= high:
            raise ValueError(f"expected {low} to {high}, got {value}")
        return value
    return check


def _boolean(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"expected true or false, got {_show(value)}")
    return value


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError(f"expected a string, got {_show(value)}")
    return value


_HOST_NAME = re.compile(r"^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*\.?$")


def _host_names(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"expected a list of host names, got {_show(value)}")
    for name in value:
        if not _HOST_NAME.match(name.lower()):
            raise ValueError(f"{name!r} is not a host name (letters, digits, '-' and '.')")
    return tuple(name.lower() for name in value)


def _choice(*options: Any) -> Callable[[Any], Any]:
    def check(value: Any) -> Any:
        if isinstance(value, bool) or value not in options:
            listed = ", ".join(_show(o) for o in options)
            raise ValueError(f"expected one of {listed}, got {_show(value)}")
        return value
    return check


def _pins(count: int) -> Callable[[Any], tuple[int, ...]]:
    def check(value: Any) -> tuple[int, ...]:
        if not isinstance(value, list):
            raise ValueError(f"expected a list of {count} BCM pin numbers, got {_show(value)}")
        if len(value) != count:
            raise ValueError(f"expected {count} pins, got {len(value)}")
        seen = set()
        for pin in value:
            _pin(pin)
            if pin in seen:
                raise ValueError(f"pin {pin} appears twice")
            seen.add(pin)
        return tuple(value)
    return check


def _pin(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"expected a BCM pin number, got {_show(value)}")
    if not 0 <= value <= 27:
        raise ValueError(f"pin {value} is not a BCM GPIO number (0 to 27)")
    return value


def _address(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"expected an I2C address like 0x3C, got {_show(value)}")
    if not 0x03 <= value <= 0x77:
        raise ValueError(f"expected an I2C address 0x03 to 0x77, got 0x{value:02X}")
    return value


def _layout(kind) -> Callable[[Any], dict[int, str]]:
    """The checker of ``[matrix] layout`` for a board kind: one string per
    matrix row, one name (square, button or "-") per column."""
    rows, columns = kind.rows, kind.columns
    squares = kind.squares

    def check(value: Any) -> dict[int, str]:
        if not isinstance(value, list) or not all(isinstance(r, str) for r in value):
            raise ValueError(f"expected a list of {rows} strings (one per row), got {_show(value)}")
        if len(value) != rows:
            raise ValueError(f"expected {rows} rows, got {len(value)}")
        layout: dict[int, str] = {}
        seen: set[str] = set()
        for row, text in enumerate(value):
            names = text.split()
            if len(names) != columns:
                raise ValueError(f"row {row} has {len(names)} names, expected {columns}")
            for col, name in enumerate(names):
                if name == "-":
                    continue
                key = f"button:{name}" if name in BUTTONS else name
                if name not in BUTTONS and name not in squares:
                    raise ValueError(f'row {row} column {col}: "{name}" is neither a square nor a button '
                                     f'({", ".join(BUTTONS)}) nor "-"')
                if name in seen:
                    raise ValueError(f"{name} appears twice")
                seen.add(name)
                layout[row * columns + col] = key
        missing = sorted(squares - seen, key=lambda n: (int(n[1:]), n[0]))
        if missing:
            raise ValueError(f"square {missing[0]} is missing" if len(missing) == 1 else
                             f"squares {', '.join(missing[:4])}{' ...' if len(missing) > 4 else ''} are missing")
        return layout
    return check


def _offset(value: Any) -> str:
    """``[board] offset`` as the board square under the game's a1."""
    how, where = parse_offset(value)
    if how == "square":
        return where
    return f"{FILES[where[0]]}{where[1] + 1}"


def _order(value: Any) -> tuple[int, ...]:
    positions = ROWS * COLUMNS
    if not isinstance(value, list):
        raise ValueError(f"expected a list of {positions} LED numbers, got {_show(value)}")
    if len(value) != positions:
        raise ValueError(f"expected {positions} LED numbers (one per matrix position), got {len(value)}")
    seen = set()
    for led in value:
        if isinstance(led, bool) or not isinstance(led, int) or led < 0:
            raise ValueError(f"expected LED numbers 0 or more, got {_show(led)}")
        if led in seen:
            raise ValueError(f"LED {led} appears twice")
        seen.add(led)
    return tuple(value)


def _patterns(value: Any) -> dict[str, str]:
    if not isinstance(value, dict):
        raise ValueError(f"expected a table of LED state = pattern, got {_show(value)}")
    patterns = dict(DEFAULT_PATTERNS)
    for state, pattern in value.items():
        if state not in LED_STATES:
            raise ValueError(f'unknown LED state "{state}"{_suggest(state, LED_STATES)}')
        if pattern not in PATTERNS:
            raise ValueError(f'{state}: expected one of {", ".join(map(_show, PATTERNS))}, got {_show(pattern)}')
        patterns[state] = pattern
    return patterns


def _time_control(value: Any) -> str:
    from maxima_board.board.clock import parse_time_control

    parse_time_control(_text(value))   # TimeControlError (a ValueError) names the text
    return value


def _variant(value: Any) -> str:
    """A game's id or title, any case (``maxima_board.rules.game_names``): its id."""
    from maxima_board.rules.game_names import game_id, suggestion

    name = _text(value)
    found = game_id(name)
    if found is None:
        raise ValueError(f'unknown game "{name}"{suggestion(name)} (see \'maxima-board variants\')')
    return found


def _engine(value: Any) -> str:
    text = _text(value).strip()
    if not text:
        raise ValueError('expected "builtin", "random", "greedy", "minimax2" or the path of a UCI engine')
    return text


def _suggest(word: str, options) -> str:
    close = difflib.get_close_matches(word, list(options), n=1)
    return f' (did you mean "{close[0]}"?)' if close else ""


def _mqtt_username(text: str) -> str:
    if not 1 <= len(text) <= 64 or any(c in text for c in "/+#") or not text.isprintable():
        raise ValueError(f"username {text!r}: use 1 to 64 characters, none of / + #")
    return text


def _tls(value: Any) -> dict[str, str]:
    """``tls = { ca = "...", cert = "...", key = "..." }``: the CA file, and
    optionally the board's client certificate and key."""
    if not isinstance(value, dict):
        raise ValueError(f'expected a table like {{ ca = "/etc/maxima-board/ca.crt" }}, got {_show(value)}')
    for key in value:
        if key not in ("ca", "cert", "key"):
            raise ValueError(f"unknown key {key!r}{_suggest(str(key), ('ca', 'cert', 'key'))} (known: ca, cert, key)")
    files = {k: _text(v) for k, v in value.items()}
    if "ca" not in files:
        raise ValueError("needs ca: the file of the CA that signed the broker's certificate")
    if "key" in files and "cert" not in files:
        raise ValueError("key needs cert: the client certificate it belongs to")
    return files


def _beside(config_path: Path, name: str) -> str:
    """A file named in the config: ``~`` expanded, relative to the config's folder."""
    file = Path(name).expanduser()
    return str(file if file.is_absolute() else config_path.parent / file)


def _remote_game(value: Any) -> str:
    from maxima_board.cli.remote import NAME

    text = _text(value)
    if not NAME.match(text):
        raise ValueError(f"{text!r} is not a game name (6-64 letters, digits, _ . : + -)")
    return text


# key -> (checker, attribute name); a section without a dataclass fills a dict.
_SCHEMA: dict[str, dict[str, Callable[[Any], Any]]] = {
    "board": {"kind": _choice(*BOARDS), "offset": _offset},
    "matrix": {"rows": _pins(ROWS), "columns": _pins(COLUMNS), "layout": lambda value: value,
               "pin_factory": _choice(*PIN_FACTORIES), "row_settle_us": _integer(0, 1000)},
    "leds": {"driver": _choice("max7219", "none"), "interface": _choice("spi", "noop"),
             "spi_port": _integer(0, 1), "spi_device": _integer(0, 1), "chips": _integer(2, 8),
             "brightness": _integer(0, 15), "order": _order, "slow_blink_ms": _integer(100, 10000),
             "fast_blink_ms": _integer(50, 10000), "patterns": _patterns},
    "oled": {"driver": _choice("ssd1306", "sh1106", "dummy", "none"), "i2c_bus": _integer(0, 31),
             "address": _address, "rotate": _choice(0, 2), "contrast": _integer(0, 255)},
    "buzzer": {"enabled": _boolean, "pin": _pin, "kind": _choice("active", "passive")},
    "pico": {"device": _text, "baud": _integer(300, 4_000_000)},
    "timings": {"settle_ms": _integer(0, 60_000), "suicide_ms": _integer(0, 600_000),
                "grace_ms": _integer(0, 60_000), "last_move_ms": _integer(0, 600_000),
                "debounce_ms": _integer(0, 1000), "loop_ms": _integer(1, 100)},
    "assist": {"show_immobilized": _choice("off", "side", "both"), "show_check": _boolean,
               "hints": _boolean, "teach": _boolean, "takeback_by_restore": _boolean},
    "game": {"event": _text, "site": _text, "white": _text, "black": _text, "round": _text,
             "variant": _variant, "forces": _choice("eq", "u1", "u2", "random"),
             "seed": _integer(0, 2**31 - 1)},
    "database": {"path": _text},
    "clock": {"control": _time_control},
    "web": {"enabled": _boolean, "port": _integer(0, 65535), "bind": _text, "hosts": _host_names},   # port 0: any free port
    "broadcast": {"broker": lambda v: _club_value("parse_broker", _text(v)),
                  "club": lambda v: _club_value("topic_word", v, "club"),
                  "table": lambda v: _club_value("topic_word", v, "table"),
                  "username": lambda v: _mqtt_username(_text(v)), "password_file": _text, "tls": _tls},
    "opponent": {"side": _choice("white", "black", "none"), "level": _integer(1, 10), "engine": _engine,
                 "movetime_ms": _integer(10, 600_000)},
    "review": {"background": _boolean},
    "remote": {"broker": lambda v: _club_value("parse_broker", _text(v)), "game": _remote_game,
               "side": _choice("white", "black"), "key_file": _text,
               "username": lambda v: _mqtt_username(_text(v)), "password_file": _text, "tls": _tls},
}



def _club_value(name: str, *args: Any) -> Any:
    """A [broadcast] value checked by maxima_board.club.topics (ValueError says why)."""
    from maxima_board.club import topics

    value = getattr(topics, name)(*args)
    return args[0] if name == "parse_broker" else value
_TOP = ("hardware",)


def _section(data: dict, name: str) -> dict[str, Any]:
    """The checked keys of one section (only those present)."""
    raw = data.get(name, {})
    if not isinstance(raw, dict):
        raise _KeyError(name, f"expected a section [{name}], got {_show(raw)}")
    schema = _SCHEMA[name]
    values = {}
    for key, value in raw.items():
        where = f"[{name}] {key}"
        if key not in schema:
            raise _KeyError(where, f"unknown key{_suggest(key, schema)}")
        try:
            values[key] = schema[key](value)
        except ValueError as exc:
            raise _KeyError(where, str(exc)) from None
    return values


def _parse(data: dict, path: Path, environ: Mapping[str, str] | None) -> Config:
    for key, value in data.items():
        if key in _SCHEMA:
            continue
        if key not in _TOP:
            hint = _suggest(key, list(_SCHEMA) + list(_TOP))
            kind = "section" if isinstance(value, dict) else "key"
            raise _KeyError(f"[{key}]" if isinstance(value, dict) else key, f"unknown {kind}{hint}")
    if "hardware" not in data:
        raise _KeyError("hardware", 'missing key (expected "sim", "direct" or "pico")')
    try:
        hardware = _choice(*KINDS)(data["hardware"])
    except ValueError as exc:
        raise _KeyError("hardware", str(exc)) from None
    sections = {name: _section(data, name) for name in _SCHEMA}
    kind = board_kind(sections["board"].get("kind", "maxima"))
    if hardware == "direct" and kind.name not in ("maxima",):
        raise _KeyError("[board] kind", f'"{kind.name}" is scanned by the Pico only (topology A): '
                        f'hardware = "direct" drives the Maxima board only; set hardware = "pico"')
    matrix_values = dict(sections["matrix"])
    if "layout" in matrix_values:
        try:
            matrix_values["layout"] = _layout(kind)(matrix_values["layout"])
        except ValueError as exc:
            raise _KeyError("[matrix] layout", str(exc)) from None
    else:
        matrix_values["layout"] = kind.default_layout()

    matrix = MatrixConfig(**matrix_values)
    leds = LedConfig(**sections["leds"])
    oled = OledConfig(**sections["oled"])
    buzzer = BuzzerConfig(**sections["buzzer"])
    pico = PicoConfig(**sections["pico"])
    web = WebConfig(**sections["web"])
    cast = dict(sections["broadcast"])
    if cast.get("password_file") and not cast.get("username"):
        raise _KeyError("[broadcast] password_file", "a password needs a username (add username)")
    if "password_file" in cast:          # files named relative to the config file, like [database] path
        cast["password_file"] = _beside(path, cast["password_file"])
    if "tls" in cast:
        cast["tls"] = {k: _beside(path, v) for k, v in cast["tls"].items()}
    broadcast = BroadcastConfig(**cast)
    opponent = OpponentConfig(**sections["opponent"])
    remote = _remote(sections["remote"], path)
    if hardware == "direct":
        _check_pin_use(matrix, leds, oled, buzzer)
    elif hardware == "pico":
        _check_buzzer_pin(buzzer, oled)
    if leds.order and max(leds.order) >= leds.chips * 64:
        raise _KeyError("[leds] order", f"LED {max(leds.order)} does not exist: "
                        f"{leds.chips} chips drive LEDs 0 to {leds.chips * 64 - 1}")

    timings = dict(sections["timings"])
    debounce_ms = timings.pop("debounce_ms", 30)
    loop_ms = timings.pop("loop_ms", 10)
    values: dict[str, Any] = {**timings, **sections["assist"], **sections["game"]}
    if "kind" in sections["board"]:
        values["board_kind"] = kind.name
    if "offset" in sections["board"]:
        values["board_offset"] = sections["board"]["offset"]
    _check_placement(kind, values)
    if values.get("forces") == "u2" and _refuses_u2(values.get("variant")):
        raise _KeyError("[game] forces", '"u2" (two royals each) is played on 10x10 only (O4): use "u1" on 9x9')
    if "control" in sections["clock"]:
        values["time_control"] = sections["clock"]["control"]
    db = sections["database"].get("path")
    if db is not None:
        if not db:
            raise _KeyError("[database] path", "must not be empty")
        db_path = Path(db).expanduser()
        if not db_path.is_absolute():
            db_path = path.parent / db_path
        values["db_path"] = str(db_path)
    values = _db_from_env(values, environ)
    _check_settings(values)
    return Config(path=str(path), hardware=hardware, matrix=matrix, leds=leds, oled=oled,
                  buzzer=buzzer, pico=pico, web=web, broadcast=broadcast, opponent=opponent, remote=remote,
                  review_background=sections["review"].get("background", True), debounce_ms=debounce_ms, loop_ms=loop_ms,
                  board_kind=kind.name, settings_values=values)


def _remote(values: dict[str, Any], path: Path) -> RemoteConfig:
    cast = dict(values)
    if cast.get("password_file") and not cast.get("username"):
        raise _KeyError("[remote] password_file", "a password needs a username (add username)")
    if ("game" in cast) != ("side" in cast):
        raise _KeyError("[remote] game" if "game" in cast else "[remote] side", "a game needs both game and side")
    if cast and "broker" not in cast:
        raise _KeyError("[remote] broker", "missing: the broker of remote games (host:port)")
    for key in ("password_file", "key_file"):
        if key in cast:
            cast[key] = _beside(path, cast[key])
    if "tls" in cast:
        cast["tls"] = {k: _beside(path, v) for k, v in cast["tls"].items()}
    return RemoteConfig(**cast)


def _check_placement(kind, values: dict[str, Any]) -> None:
    """The game (``[game] variant``, when the file names one) must fit the
    board, at ``[board] offset`` when given; without a game, the offset must
    at least put some game on the board."""
    offset = values.get("board_offset")
    game = values.get("variant")
    key = "[board] offset" if offset else "[board] kind"
    if game is not None:
        try:
            place(game, kind, offset)
        except PlacementError as exc:
            raise _KeyError(key, str(exc)) from None
        except ValueError:
            return        # an unknown game: its own key reports it
    elif offset:
        from maxima_board.devices.boards import games_for, home_board
        fits = [g for g in games_for(kind) if home_board(g) is None and _fits(g, kind, offset)]
        if not fits:
            raise _KeyError(key, f'"{offset}" puts no game on {kind.title}')


def _refuses_u2(game: object) -> bool:
    """Whether ``game`` is set up with forces, but never "u2" (Optima 9x9, O4); an unknown game's own key reports it."""
    from maxima_board.rules import variants
    offered = variants.get(game).forces if game in variants.names() else ()
    return bool(offered) and "u2" not in offered


def _fits(game: str, kind, offset: str) -> bool:
    try:
        place(game, kind, offset)
        return True
    except PlacementError:
        return False


def _check_settings(values: dict[str, Any]) -> None:
    """What only the combination of keys can get wrong, named by key."""
    from maxima_board.board.settings import Settings

    default = Settings()
    settle = values.get("settle_ms", default.settle_ms)
    suicide = values.get("suicide_ms", default.suicide_ms)
    if suicide < settle:
        key = "suicide_ms" if "suicide_ms" in values else "settle_ms"
        other = "settle_ms" if key == "suicide_ms" else "suicide_ms"
        relation = "shorter" if key == "suicide_ms" else "longer"
        raise _KeyError(f"[timings] {key}", f"must not be {relation} than {other} "
                        f"({values.get(other, getattr(default, other))}), got {values[key]}")
    try:
        Settings(**values)
    except (TypeError, ValueError) as exc:
        raise _KeyError("settings", str(exc)) from None


def _db_from_env(values: dict[str, Any], environ: Mapping[str, str] | None) -> dict[str, Any]:
    environ = os.environ if environ is None else environ
    if "db_path" not in values and environ.get("MAXIMA_BOARD_DB"):
        values = {**values, "db_path": environ["MAXIMA_BOARD_DB"]}
    return values


def _check_pin_use(matrix: MatrixConfig, leds: LedConfig, oled: OledConfig, buzzer: BuzzerConfig) -> None:
    """No pin may serve two purposes in the direct topology."""
    users: dict[int, str] = {}
    if oled.driver in ("ssd1306", "sh1106") and oled.i2c_bus == 1:
        users.update({p: "I2C bus 1 (OLED)" for p in I2C1_PINS})
    if leds.driver == "max7219" and leds.interface == "spi" and leds.spi_port == 0:
        users.update({p: "SPI0 (MAX7219)" for p in SPI0_PINS})
    for key, pins, what in (("rows", matrix.rows, "a matrix row"), ("columns", matrix.columns, "a matrix column")):
        for pin in pins:
            if pin in users:
                raise _KeyError(f"[matrix] {key}", f"pin {pin} is used by {users[pin]}")
        users.update({p: what for p in pins})
    if buzzer.enabled and buzzer.pin in users:
        raise _KeyError("[buzzer] pin", f"pin {buzzer.pin} is used by {users[buzzer.pin]}")


def _check_buzzer_pin(buzzer: BuzzerConfig, oled: OledConfig) -> None:
    if buzzer.enabled and oled.driver in ("ssd1306", "sh1106") and oled.i2c_bus == 1 and buzzer.pin in I2C1_PINS:
        raise _KeyError("[buzzer] pin", f"pin {buzzer.pin} is used by I2C bus 1 (OLED)")
