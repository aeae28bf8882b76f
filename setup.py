"""Builds the computer opponent's compiled engine (engine, C) with the package.

Everything else is in pyproject.toml. ``pip install`` (of a checkout or an sdist) runs make
in engine and puts the binary into the package as
``maxima_board/opponent/bin/maxima-engine``, where maxima_board.opponent.specs looks. An
editable install (``pip install -e .``) builds it into the checkout's
``src/maxima_board/opponent/bin/`` (git ignores it).

Without gcc or make, or when the build fails, the package still installs: it then holds
``maxima_board/opponent/bin/NOT-BUILT`` with the reason in one line, which ``maxima-board engine
--check``, ``maxima-board diag`` and the board's display report. MAXIMA_BOARD_ENGINE_PGO=0
builds without the profile-guided second compilation (faster, about 8 % fewer nodes/s).
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = Path(__file__).resolve().parent
ENGINE_SRC = HERE / "engine"
BINARY = "maxima-engine"
BIN_IN_PACKAGE = Path("maxima_board") / "opponent" / "bin"
NOT_BUILT = "NOT-BUILT"


def _say(text: str) -> None:
    # pip shows a build's output only with -v; installers read NOT-BUILT instead (see above)
    print(f"maxima-board: {text}", file=sys.stderr, flush=True)


def build_engine(target: Path) -> str | None:
    """make the engine into ``target``; None, or why there is none (one line)."""
    missing = [tool for tool in (os.environ.get("CC", "gcc").split()[0], "make") if shutil.which(tool) is None]
    if missing:
        return (f"the computer opponent's engine was not built: no {' and '.join(missing)} "
                f"(Debian, Raspberry Pi OS: sudo apt-get install build-essential, then install again)")
    target.parent.mkdir(parents=True, exist_ok=True)
    args = ["make", "-s", "-C", str(ENGINE_SRC), f"BIN={target}",
            f"PGO={'0' if os.environ.get('MAXIMA_BOARD_ENGINE_PGO') == '0' else '1'}"]
    if os.environ.get("CC"):
        args.append(f"CC={os.environ['CC']}")
    r = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0 or not target.is_file():
        target.unlink(missing_ok=True)
        last = (r.stdout.strip().splitlines() or ["no output"])[-1]
        _say(r.stdout)
        return f"the computer opponent's engine did not build (make -C engine: {last})"
    return None


class BuildPyWithEngine(build_py):
    """build_py, then the engine: into the build's maxima_board/opponent/bin (a wheel), or,
    for an editable install, into the checkout's src/maxima_board/opponent/bin."""

    def run(self) -> None:
        super().run()
        if not (ENGINE_SRC / "Makefile").is_file():
            return
        if self.editable_mode:
            bin_dir = HERE / "src" / BIN_IN_PACKAGE
        else:
            bin_dir = Path(self.build_lib).resolve() / BIN_IN_PACKAGE
        (bin_dir / NOT_BUILT).unlink(missing_ok=True)
        why = build_engine(bin_dir / BINARY)
        if why:
            _say(why)
            bin_dir.mkdir(parents=True, exist_ok=True)
            (bin_dir / NOT_BUILT).write_text(why + "\n")

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        outputs = super().get_outputs(include_bytecode)
        if not self.editable_mode:
            bin_dir = Path(self.build_lib).resolve() / BIN_IN_PACKAGE
            outputs += [str(bin_dir / name) for name in (BINARY, NOT_BUILT) if (bin_dir / name).exists()]
        return outputs


class BinaryDistribution(Distribution):
    """The wheel holds a machine's binary: tagged for this platform, never py3-none-any."""

    def has_ext_modules(self) -> bool:
        return True


if __name__ == "__main__":     # setuptools' build backend runs this file as __main__; tests import it
    setup(cmdclass={"build_py": BuildPyWithEngine}, distclass=BinaryDistribution)
