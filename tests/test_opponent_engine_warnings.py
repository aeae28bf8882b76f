"""The compiled engine builds without a warning under the Makefile's flags
(WARN: -Wall -Wextra -Wshadow -Wformat=2, made errors with WERROR=-Werror):
natively, and with the cross compilers of the Raspberry Pi's two systems,
aarch64 (64-bit) and armhf (32-bit: long and pointers of 32 bits), when they
are installed (``apt-get install gcc-aarch64-linux-gnu gcc-arm-linux-gnueabihf``;
skipped otherwise). The three builds run at once (about 20 s on two cores).
"""
from __future__ import annotations

import shutil
import subprocess

import pytest

from .opponent_engine import ENGINE_DIR

COMPILERS = {"native": "gcc", "aarch64": "aarch64-linux-gnu-gcc", "armhf": "arm-linux-gnueabihf-gcc"}


@pytest.fixture(scope="module")
def builds(tmp_path_factory) -> dict[str, subprocess.CompletedProcess | None]:
    """make PGO=0 WERROR=-Werror for each installed compiler, in parallel; None where it is missing."""
    out = tmp_path_factory.mktemp("warnings")
    procs = {}
    for name, cc in COMPILERS.items():
        if shutil.which(cc) is None:
            continue
        # BIN in a folder that does not exist yet: the Makefile makes it
        procs[name] = subprocess.Popen(["make", "-C", str(ENGINE_DIR), f"CC={cc}", "PGO=0", "WERROR=-Werror",
                                        f"BIN={out / name / 'bin' / 'maxima-engine'}"],
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    results: dict[str, subprocess.CompletedProcess | None] = dict.fromkeys(COMPILERS)
    for name, p in procs.items():
        stdout, stderr = p.communicate(timeout=600)
        results[name] = subprocess.CompletedProcess(p.args, p.returncode, stdout, stderr)
        results[name].binary = out / name / "bin" / "maxima-engine"
    return results


@pytest.mark.parametrize("target", list(COMPILERS))
def test_builds_without_warnings(builds, target):
    r = builds[target]
    if r is None:
        pytest.skip(f"{COMPILERS[target]} is not installed (Debian: apt-get install "
                    f"gcc-{'aarch64-linux-gnu' if target == 'aarch64' else 'arm-linux-gnueabihf'})")
    assert r.returncode == 0, f"{COMPILERS[target]}: the build failed (a warning is an error here):\n{r.stderr[-4000:]}"
    assert "warning:" not in r.stdout + r.stderr, r.stdout + r.stderr
    for flag in ("-Wall", "-Wextra", "-Wshadow", "-Wformat=2", "-Werror"):
        assert flag in r.stdout, f"{flag} is not in the compile command: {r.stdout}"
    assert r.binary.exists()
