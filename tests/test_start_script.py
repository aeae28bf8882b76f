"""``./start`` installs once and then only starts (issue 13). The script runs
in a copy of the tree whose ``python3``, ``.venv/bin/python`` and
``.venv/bin/maxima-board`` are stand-ins that record how they were called:
pip is ``.venv/bin/python -m pip`` and a new venv is ``python3 -m venv``."""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

RECORDER = """#!/bin/sh
echo "$(basename "$0") $*" >> "{log}"
"""
FAKE_PYTHON3 = RECORDER + """if [ "$1" = "-m" ] && [ "$2" = "venv" ]; then
    mkdir -p "$3/bin"
    cp "{bin}/python" "{bin}/maxima-board" "$3/bin/"
fi
"""


def tree(tmp_path: Path) -> tuple[Path, Path, dict]:
    """A copy of ``start`` and ``pyproject.toml``, stand-ins under ``fakes/``
    and ``.venv/bin``, and an environment that finds the fake python3 first."""
    work = tmp_path / "board"
    work.mkdir()
    shutil.copy(ROOT / "start", work / "start")
    shutil.copy(ROOT / "pyproject.toml", work / "pyproject.toml")
    log = tmp_path / "calls.log"
    fakes = tmp_path / "fakes"
    fakes.mkdir()
    recorder = RECORDER.format(log=log)
    (fakes / "python").write_text(recorder)
    (fakes / "maxima-board").write_text(recorder)
    (fakes / "python3").write_text(FAKE_PYTHON3.format(log=log, bin=fakes))
    for f in fakes.iterdir():
        f.chmod(0o755)
    env = dict(os.environ, PATH=f"{fakes}:{os.environ['PATH']}")
    return work, log, env


def install(work: Path, fakes: Path) -> None:
    """The tree as a finished first start leaves it."""
    (work / ".venv" / "bin").mkdir(parents=True)
    for name in ("python", "maxima-board"):
        shutil.copy(fakes / name, work / ".venv" / "bin" / name)
    digest = hashlib.sha256((work / "pyproject.toml").read_bytes()).hexdigest()
    (work / ".venv" / ".installed").write_text(digest + "\n")


def start(work: Path, env: dict, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", str(work / "start"), *args], env=env, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=60)


def test_start_on_an_installed_tree_runs_no_pip_and_starts(tmp_path):
    work, log, env = tree(tmp_path)
    install(work, tmp_path / "fakes")
    done = start(work, env, "--help")
    assert done.returncode == 0, done.stderr
    assert log.read_text().splitlines() == ["maxima-board run --help"]      # no venv, no pip
    assert f"{work}/.venv/bin/maxima-board" in done.stderr
    assert f'export PATH="{work}/.venv/bin:$PATH"' in done.stderr


def test_start_installs_on_the_first_start_and_when_pyproject_changes(tmp_path):
    work, log, env = tree(tmp_path)
    done = start(work, env)
    assert done.returncode == 0, done.stderr
    calls = log.read_text().splitlines()
    assert calls[0] == "python3 -m venv .venv"
    assert "python -m pip install --quiet -e .[pi]" in calls
    assert calls[-1] == "maxima-board run"
    stamp = (work / ".venv" / ".installed").read_text().strip()
    assert stamp == hashlib.sha256((work / "pyproject.toml").read_bytes()).hexdigest()

    log.unlink()
    assert start(work, env).returncode == 0
    assert log.read_text().splitlines() == ["maxima-board run"]             # installed: only started

    log.unlink()
    with open(work / "pyproject.toml", "a") as f:
        f.write("\n# a new dependency\n")
    assert start(work, env).returncode == 0
    assert "python -m pip install --quiet -e .[pi]" in log.read_text().splitlines()


def test_start_reinstalls_when_the_command_is_gone(tmp_path):
    work, log, env = tree(tmp_path)
    install(work, tmp_path / "fakes")
    (work / ".venv" / "bin" / "maxima-board").unlink()
    assert start(work, env).returncode == 0
    assert "python -m pip install --quiet -e .[pi]" in log.read_text().splitlines()


def test_start_reinstalls_when_setup_py_or_the_engine_sources_change(tmp_path):
    """The install builds the engine (setup.py): a changed engine source is a new install."""
    work, log, env = tree(tmp_path)
    (work / "engine").mkdir(parents=True)
    source = work / "engine" / "main.c"
    source.write_text("int main(void) { return 0; }\n")
    (work / "setup.py").write_text("from setuptools import setup\n")
    assert start(work, env).returncode == 0
    assert "python -m pip install --quiet -e .[pi]" in log.read_text().splitlines()
    log.unlink()
    assert start(work, env).returncode == 0
    assert log.read_text().splitlines() == ["maxima-board run"]
    for changed in (source, work / "setup.py"):
        log.unlink()
        changed.write_text(changed.read_text() + "\n")
        assert start(work, env).returncode == 0
        assert "python -m pip install --quiet -e .[pi]" in log.read_text().splitlines(), changed


def test_start_installs_without_the_pi_extra_when_it_cannot_build(tmp_path):
    """spidev has no wheel: where it cannot be built the board still installs, and says so."""
    work, log, env = tree(tmp_path)
    failing = tmp_path / "fakes" / "python"
    failing.write_text(failing.read_text() + 'case "$*" in *"[pi]"*) echo "ERROR: Failed building wheel for spidev" >&2; exit 1;; esac\n')
    done = start(work, env)
    assert done.returncode == 0, done.stderr
    calls = log.read_text().splitlines()
    assert calls.index("python -m pip install --quiet -e .[pi]") < calls.index("python -m pip install --quiet -e .")
    assert calls[-1] == "maxima-board run"
    said = [line for line in done.stderr.splitlines() if "pi extra" in line]
    assert len(said) == 1 and "Failed building wheel for spidev" in said[0] and "diag" in said[0]
