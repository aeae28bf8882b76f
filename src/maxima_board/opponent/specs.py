"""Engine specs: how commands name an engine.

- ``builtin`` or ``builtin:level=10`` (options after ``:``, comma-separated
  ``key=value``): the compiled engine (:func:`builtin_path`);
- ``random``, ``greedy``, ``minimax2`` (``greedy:seed=3``): a baseline player
  (``python -m maxima_board.opponent.baseline NAME``);
- anything else: the path of a UCI engine (``/usr/games/engine:level=3``).

Option keys ``level``, ``seed``, ``hash`` set the UCI options ``Level``,
``Seed``, ``Hash``; ``movetime=MS``, ``depth=N`` and ``nodes=N`` are this
engine's own search limit in a match (``builtin:level=10,movetime=100``: a
tenth of the time); other keys are sent as UCI options as written (when the engine has
them).
"""
from __future__ import annotations

import os
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

from .players import PLAYERS

PACKAGE_DIR = Path(__file__).resolve().parent
# Built by the package's install (setup.py) and installed with it: the first choice.
INSTALLED = PACKAGE_DIR / "bin" / "maxima-engine"
# The install's reason when it built none (no C compiler, a failed build): one line.
NOT_BUILT = PACKAGE_DIR / "bin" / "NOT-BUILT"
# The C sources in a checkout (src/maxima_board/opponent -> the checkout's engine),
# and their own build there (make -C engine): the second choice.
SOURCE_DIR = PACKAGE_DIR.parents[2] / "engine"
BUILTIN = SOURCE_DIR / "maxima-engine"
BUILD_HINT = ("install maxima-board again where gcc and make are installed (sudo apt-get install "
              "build-essential), or run 'make -C engine' in its source folder")
_KNOWN = {"level": "Level", "seed": "Seed", "hash": "Hash"}


class SpecError(ValueError):
    """An engine spec that names nothing usable; the message says why."""


@dataclass(frozen=True)
class EngineSpec:
    """``label``: as written (for tables); ``command``: the argv; ``options``:
    UCI options to set after the handshake."""

    label: str
    command: tuple[str, ...]
    options: dict[str, str] = field(default_factory=dict)

    @property
    def level(self) -> int | None:
        value = self.options.get("Level")
        return int(value) if value is not None and value.isdigit() else None


def _runnable(path: Path) -> bool:
    return path.is_file() and os.access(path, os.X_OK)


def builtin_path() -> Path:
    """The built-in engine's binary: the installed one, else the checkout's;
    SpecError saying why there is none and how to build it."""
    for path in (INSTALLED, BUILTIN):
        if _runnable(path):
            return path
    try:
        why = NOT_BUILT.read_text(errors="replace").strip().splitlines()[0][:300]
    except (OSError, IndexError):
        why = ""
    if why:
        raise SpecError(f"the built-in engine is not built: {why}")
    raise SpecError(f"the built-in engine is not built ({INSTALLED} and {BUILTIN} are missing): {BUILD_HINT}")


def parse_spec(text: str) -> EngineSpec:
    """The engine named by ``text`` (see the module docstring)."""
    text = text.strip()
    if not text:
        raise SpecError("empty engine spec (expected builtin, random, greedy, minimax2 or a path)")
    head, options = text, {}
    if ":" in text:
        before, _, after = text.rpartition(":")
        if "=" in after and "/" not in after:
            head, options = before, _options(after, text)
    if head == "builtin":
        return EngineSpec(text, (str(builtin_path()),), options)
    if head in PLAYERS:
        return EngineSpec(text, (sys.executable, "-m", "maxima_board.opponent.baseline", head), options)
    path = shutil.which(head) if os.sep not in head else head
    if path is None or not os.path.isfile(path):
        raise SpecError(f"engine {head!r}: no such file (expected builtin, {', '.join(PLAYERS)} "
                        f"or the path of a UCI engine)")
    if not os.access(path, os.X_OK):
        raise SpecError(f"engine {head!r}: not executable")
    return EngineSpec(text, (os.path.abspath(path),), options)


def _options(text: str, spec: str) -> dict[str, str]:
    out = {}
    for part in text.split(","):
        key, eq, value = part.partition("=")
        key, value = key.strip(), value.strip()
        if not eq or not key or not value:
            raise SpecError(f"engine {spec!r}: options must be key=value, got {part!r}")
        if key.lower() in ("movetime", "depth", "nodes", "seed", "hash") and not value.isdigit():
            raise SpecError(f"engine {spec!r}: {key} must be a whole number, got {value!r}")
        if key.lower() in ("movetime", "depth", "nodes"):
            key = key.lower()
        if key.lower() == "level" and not (value.isdigit() and 1 <= int(value) <= 10):
            raise SpecError(f"engine {spec!r}: level must be 1 to 10, got {value!r}")
        out[_KNOWN.get(key.lower(), key)] = value
    return out
